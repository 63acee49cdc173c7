//! An aggregate's lowering made a window: `OVER (…)` after each SQLite aggregate call in it.
//! A lowering may wrap its aggregates (stddev is the square root of sums, avg over intervals
//! rounds an avg, max over arrays takes the first of a top-n), and each aggregate inside runs
//! over the same window; an aggregate of the `qm_*` kind that can't take rows out runs as its
//! window form (querymesh-functions `window::window_form`). Calls inside a subquery of the
//! lowering aggregate that subquery's rows and are left alone.
//!
//! A lowering's tree is walked; the text a lowering still writes (`SqlExpr::Raw`, until the
//! aggregate lowerings build trees, issue 27) is read for its calls, each rebuilt as a call
//! over its arguments' text.

use std::sync::{Mutex, PoisonError};

use querymesh_functions::udf::WINDOW_FORM_SUFFIX;
use querymesh_functions::window::rows_frame::{AGGREGATES, QM_ROWS_FRAME};
use querymesh_functions::window::sqlite::QM_COUNT_DISTINCT;
use querymesh_functions::window::window_form;
use querymesh_values::sqlite_expr::{SqlExpr, SqliteFn, Window};

/// `sql` with each aggregate call made a window call over `window`, and the sort keys (`key,
/// how` pairs) added to the arguments of the one aggregate that takes them. `None` when `sql`
/// holds no aggregate, or sort keys can't be placed (not exactly one aggregate, or one
/// without a window form).
pub(super) fn with_over(sql: SqlExpr, window: &Window, sort_keys: &[SqlExpr]) -> Option<SqlExpr> {
    let mut keys_placed = false;
    let (out, placed) = rewrite_aggregate_calls(sql, &mut |function, mut args| {
        let call = match distinct_operand(&args) {
            // count(DISTINCT x): SQLite takes no DISTINCT in a window.
            Some(operand) if function.name() == "count" => QM_COUNT_DISTINCT.call([operand]),
            _ if window_form(function.name()) == Some(true) => {
                if !sort_keys.is_empty() {
                    args.extend(sort_keys.iter().cloned());
                    keys_placed = true;
                }
                window_form_of(function).call(args)
            }
            _ => function.call(args),
        };
        Some(SqlExpr::over(call, window.clone()))
    })?;
    let keys_fit = sort_keys.is_empty() || (keys_placed && placed == 1);
    keys_fit.then_some(out)
}

/// `sql` with each aggregate call made `qm_rows_frame` over `whole_partition`, for a ROWS
/// frame whose offsets each row computes (`bounds`: start kind and offset, end kind and
/// offset, as querymesh-functions `window/rows_frame.rs` reads them). `None` when `sql`
/// holds no aggregate or one `qm_rows_frame` does not run.
pub(super) fn with_rows_frame(
    sql: SqlExpr,
    whole_partition: &Window,
    bounds: &[SqlExpr; 4],
) -> Option<SqlExpr> {
    let (out, _) = rewrite_aggregate_calls(sql, &mut |function, args| {
        let runs = AGGREGATES.contains(&function.name());
        if !runs || distinct_operand(&args).is_some() || args.len() > 1 {
            return None;
        }
        let value = match args.into_iter().next() {
            Some(arg) if arg.to_string() != "*" => arg,
            _ => SqlExpr::Integer(1),
        };
        let mut frame_args = vec![SqlExpr::text(function.name())];
        frame_args.extend(bounds.iter().cloned());
        frame_args.push(value);
        Some(SqlExpr::over(
            QM_ROWS_FRAME.call(frame_args),
            whole_partition.clone(),
        ))
    })?;
    Some(out)
}

/// What replaces an aggregate call (its function and arguments); `None` gives up.
type Replace<'r> = dyn FnMut(SqliteFn, Vec<SqlExpr>) -> Option<SqlExpr> + 'r;

/// Whether a call of `function` over `args` is an aggregate a window runs (a name with a
/// window form; not a scalar `min`/`max` of several values).
fn is_aggregate(function: SqliteFn, args: &[SqlExpr]) -> bool {
    let name = function.name();
    window_form(name).is_some() && !((name == "min" || name == "max") && args.len() > 1)
}

/// The operand of a `DISTINCT x` argument list, as lowerings write it.
fn distinct_operand(args: &[SqlExpr]) -> Option<SqlExpr> {
    let [only] = args else { return None };
    let text = only.to_string();
    let rest = text
        .get(..9)
        .filter(|d| d.eq_ignore_ascii_case("DISTINCT "))
        .map(|_| &text[9..])?;
    Some(SqlExpr::Raw(rest.trim_start().to_string()))
}

/// The function a replayable aggregate runs as over a window (`<name>_over`,
/// querymesh-functions udf/replayed.rs).
fn window_form_of(function: SqliteFn) -> SqliteFn {
    SqliteFn::new(interned(&format!(
        "{}{WINDOW_FORM_SUFFIX}",
        function.name()
    )))
}

/// A function's name read from text, for the lifetime of the process: a call names its
/// function by a `&'static str`, and the names are the few aggregates registered.
fn interned(name: &str) -> &'static str {
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = names.iter().find(|n| **n == name) {
        return known;
    }
    let new: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(new);
    new
}

/// `sql` with each aggregate call outside its subqueries replaced by what `replace` builds
/// for it, and how many were. `None` when there is none, when `replace` gives up on one, or
/// when a parenthesis of a lowering's text is not closed.
fn rewrite_aggregate_calls(sql: SqlExpr, replace: &mut Replace<'_>) -> Option<(SqlExpr, usize)> {
    let mut placed = 0;
    let out = rewrite(sql, replace, &mut placed)?;
    (placed > 0).then_some((out, placed))
}

fn rewrite(sql: SqlExpr, replace: &mut Replace<'_>, placed: &mut usize) -> Option<SqlExpr> {
    let mut walk = |e: SqlExpr| rewrite(e, replace, placed);
    Some(match sql {
        SqlExpr::Call(function, args) if is_aggregate(function, &args) => {
            *placed += 1;
            replace(function, args)?
        }
        SqlExpr::Call(function, args) => SqlExpr::Call(
            function,
            args.into_iter().map(&mut walk).collect::<Option<_>>()?,
        ),
        SqlExpr::Raw(text) => SqlExpr::Raw(rewrite_text(&text, replace, placed)?),
        // DISTINCT, ORDER BY or FILTER inside the call: the text path knows each form.
        aggregate @ SqlExpr::Aggregate { .. } => {
            SqlExpr::Raw(rewrite_text(&aggregate.to_string(), replace, placed)?)
        }
        SqlExpr::Binary(l, op, r) => {
            let l = walk(*l)?;
            SqlExpr::binary(l, op, walk(*r)?)
        }
        SqlExpr::Unary(op, e) => SqlExpr::Unary(op, Box::new(walk(*e)?)),
        SqlExpr::IsNull { operand, negated } => SqlExpr::IsNull {
            operand: Box::new(walk(*operand)?),
            negated,
        },
        SqlExpr::Case {
            operand,
            branches,
            otherwise,
        } => SqlExpr::Case {
            operand: match operand {
                Some(o) => Some(Box::new(walk(*o)?)),
                None => None,
            },
            branches: branches
                .into_iter()
                .map(|(w, t)| Some((walk(w)?, walk(t)?)))
                .collect::<Option<_>>()?,
            otherwise: match otherwise {
                Some(o) => Some(Box::new(walk(*o)?)),
                None => None,
            },
        },
        SqlExpr::Cast(e, affinity) => SqlExpr::Cast(Box::new(walk(*e)?), affinity),
        SqlExpr::InList {
            operand,
            list,
            negated,
        } => SqlExpr::InList {
            operand: Box::new(walk(*operand)?),
            list: list.into_iter().map(&mut walk).collect::<Option<_>>()?,
            negated,
        },
        SqlExpr::Between {
            operand,
            low,
            high,
            negated,
        } => SqlExpr::Between {
            operand: Box::new(walk(*operand)?),
            low: Box::new(walk(*low)?),
            high: Box::new(walk(*high)?),
            negated,
        },
        SqlExpr::Collate(e, collation) => SqlExpr::Collate(Box::new(walk(*e)?), collation),
        SqlExpr::Row(items) => {
            SqlExpr::Row(items.into_iter().map(&mut walk).collect::<Option<_>>()?)
        }
        SqlExpr::InSubquery {
            operand,
            subquery,
            negated,
        } => SqlExpr::InSubquery {
            operand: Box::new(walk(*operand)?),
            subquery,
            negated,
        },
        // A subquery's aggregates aggregate its rows; a window call is one already.
        kept @ (SqlExpr::Subquery(_)
        | SqlExpr::Exists(_)
        | SqlExpr::Over { .. }
        | SqlExpr::Null
        | SqlExpr::Integer(_)
        | SqlExpr::Real(_)
        | SqlExpr::Text(_)
        | SqlExpr::Blob(_)
        | SqlExpr::Column { .. }) => kept,
    })
}

/// A lowering's text with each aggregate call outside its subqueries replaced by the
/// rendering of what `replace` builds for it (its arguments' text as they are). `None` when
/// `replace` gives up on one, or when a parenthesis is not closed.
fn rewrite_text(sql: &str, replace: &mut Replace<'_>, placed: &mut usize) -> Option<String> {
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len() + 128);
    let mut subqueries: Vec<bool> = Vec::new();
    let (mut i, mut copied) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'\'' | b'"' => i = quoted_end(bytes, i),
            b'(' => {
                subqueries.push(starts_query(&sql[i + 1..]));
                i += 1;
            }
            b')' => {
                subqueries.pop();
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let after_dot = start > 0 && bytes[start - 1] == b'.';
                let open = skip_spaces(bytes, i);
                if after_dot || subqueries.contains(&true) || bytes.get(open) != Some(&b'(') {
                    continue;
                }
                let name = sql[start..i].to_ascii_lowercase();
                if window_form(&name).is_none() {
                    continue;
                }
                let function = SqliteFn::new(interned(&name));
                let close = closing_paren(bytes, open)?;
                let args = arguments(&sql[open + 1..close]);
                if !is_aggregate(function, &args) {
                    continue;
                }
                out.push_str(&sql[copied..start]);
                out.push_str(&replace(function, args)?.to_string());
                *placed += 1;
                i = close + 1;
                copied = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&sql[copied..]);
    Some(out)
}

/// A call's arguments in a lowering's text, each as its text.
fn arguments(args: &str) -> Vec<SqlExpr> {
    let bytes = args.as_bytes();
    let mut out = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'\'' | b'"' => {
                i = quoted_end(bytes, i);
                continue;
            }
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                out.push(&args[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&args[start..]);
    if out.len() == 1 && out[0].trim().is_empty() {
        return Vec::new();
    }
    out.into_iter()
        .map(|a| SqlExpr::Raw(a.trim().to_string()))
        .collect()
}

/// The index after the quoted text starting at `start` (`''` or `""` inside is the quote).
fn quoted_end(bytes: &[u8], start: usize) -> usize {
    let quote = bytes[start];
    let mut i = start + 1;
    while i < bytes.len() {
        if bytes[i] == quote {
            if bytes.get(i + 1) == Some(&quote) {
                i += 2;
                continue;
            }
            return i + 1;
        }
        i += 1;
    }
    bytes.len()
}

fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// Whether the text after a parenthesis starts a query.
fn starts_query(rest: &str) -> bool {
    let word: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    ["select", "with", "values"].contains(&word.to_ascii_lowercase().as_str())
}

/// The parenthesis closing the one at `open`.
fn closing_paren(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' | b'"' => {
                i = quoted_end(bytes, i);
                continue;
            }
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use querymesh_values::sqlite_expr::{BinaryOp, Frame, Nulls, OrderKey, builtin};

    use super::*;

    fn ordered_by_x() -> Window {
        Window {
            order_by: vec![OrderKey {
                expr: SqlExpr::column(None, "x"),
                descending: false,
                nulls: Some(Nulls::Last),
            }],
            ..Window::default()
        }
    }

    fn text(sql: &str) -> SqlExpr {
        SqlExpr::from(sql)
    }

    fn over(sql: SqlExpr, keys: &[SqlExpr]) -> Option<String> {
        with_over(sql, &ordered_by_x(), keys).map(|e| e.to_string())
    }

    const W: &str = "OVER (ORDER BY \"x\" ASC NULLS LAST)";

    #[test]
    fn every_aggregate_of_a_wrapped_lowering_gets_the_window() {
        assert_eq!(
            over(text("qm_sqrt(sum(x * x) - count(x))"), &[]),
            Some(format!("qm_sqrt(sum(x * x) {W} - count(x) {W})"))
        );
        // A scalar max of two values and a subquery's own aggregate are no window calls.
        assert_eq!(
            over(text("max(1, avg(x)) + (SELECT sum(v) FROM t)"), &[]),
            Some(format!("max(1, avg(x) {W}) + (SELECT sum(v) FROM t)"))
        );
        assert_eq!(
            over(text("qm_max_by(y, 'sum(')"), &[]),
            Some(format!("qm_max_by_over(y, 'sum(') {W}"))
        );
        assert_eq!(
            over(text("count(DISTINCT x)"), &[]),
            Some(format!("qm_count_distinct(x) {W}"))
        );
        assert_eq!(over(text("qm_abs(x)"), &[]), None);
    }

    #[test]
    fn a_tree_is_walked_as_text_is_read() {
        let x = || SqlExpr::column(None, "x");
        let sum = SqlExpr::binary(
            builtin::SUM.call([x()]),
            BinaryOp::Add,
            builtin::MAX.call([x(), builtin::MIN.call([x()])]),
        );
        assert_eq!(
            over(sum, &[]),
            Some(format!("(sum(\"x\") {W} + max(\"x\", min(\"x\") {W}))"))
        );
        let max_by = SqliteFn::new("qm_max_by").call([x(), SqlExpr::Integer(1)]);
        assert_eq!(
            over(max_by, &[x(), SqlExpr::Integer(3)]),
            Some(format!("qm_max_by_over(\"x\", 1, \"x\", 3) {W}"))
        );
        assert_eq!(over(builtin::ABS.call([x()]), &[]), None);
    }

    #[test]
    fn a_frame_computed_per_row_runs_each_aggregate_over_the_partition() {
        let bounds = [
            SqlExpr::text("P"),
            SqlExpr::column(Some("t"), "k"),
            SqlExpr::text("C"),
            SqlExpr::Null,
        ];
        let whole = Window::default().with_frame(Some(Frame::whole_partition()));
        let whole_ordered = ordered_by_x().with_frame(Some(Frame::whole_partition()));
        let rows = |sql: &str, window: &Window| {
            with_rows_frame(text(sql), window, &bounds).map(|e| e.to_string())
        };
        let all = "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";
        assert_eq!(
            rows("coalesce(max(nullif(x, 'NaN')), max(x))", &whole_ordered),
            Some(format!(
                "coalesce(qm_rows_frame('max', 'P', t.\"k\", 'C', NULL, nullif(x, 'NaN')) OVER (ORDER BY \"x\" ASC NULLS LAST {all}), qm_rows_frame('max', 'P', t.\"k\", 'C', NULL, x) OVER (ORDER BY \"x\" ASC NULLS LAST {all}))"
            ))
        );
        assert_eq!(
            rows("count(*)", &whole),
            Some(format!(
                "qm_rows_frame('count', 'P', t.\"k\", 'C', NULL, 1) OVER ({all})"
            ))
        );
        // An aggregate qm_rows_frame does not run.
        assert_eq!(rows("qm_array_agg(x)", &whole), None);
    }

    #[test]
    fn sort_keys_go_to_the_one_window_form() {
        let keys = [text("y"), SqlExpr::Integer(1)];
        let plain = |sql: &str, keys: &[SqlExpr]| {
            with_over(text(sql), &Window::default(), keys).map(|e| e.to_string())
        };
        assert_eq!(
            plain("qm_listagg(y, ',')", &keys).as_deref(),
            Some("qm_listagg_over(y, ',', y, 1) OVER ()")
        );
        assert_eq!(plain("qm_array_agg(y)", &keys), None);
    }
}
