//! An aggregate's lowering made a window: `OVER (…)` after each SQLite aggregate call in it.
//! A lowering may wrap its aggregates (stddev is the square root of sums, avg over intervals
//! rounds an avg, max over arrays takes the first of a top-n), and each aggregate inside runs
//! over the same window; an aggregate of the `qm_*` kind that can't take rows out runs as its
//! window form (querymesh-functions `window::window_form`). Calls inside a subquery of the
//! lowering aggregate that subquery's rows and are left alone.

use querymesh_functions::udf::WINDOW_FORM_SUFFIX;
use querymesh_functions::window::window_form;

/// `sql` with `OVER (window)` after each aggregate call, and the sort keys (`key, how` pairs,
/// already SQL) added to the arguments of the one aggregate that takes them. `None` when
/// `sql` holds no aggregate, or sort keys can't be placed (not exactly one aggregate, or one
/// without a window form).
pub(super) fn with_over(sql: &str, window: &str, sort_keys: &[String]) -> Option<String> {
    let mut keys_placed = false;
    let (out, placed) = rewrite_aggregate_calls(sql, |call| {
        let mut out = String::new();
        let args = call.args.trim_start();
        let distinct = args
            .get(..9)
            .is_some_and(|d| d.eq_ignore_ascii_case("DISTINCT "));
        if call.name == "count" && distinct {
            // count(DISTINCT x): SQLite takes no DISTINCT in a window.
            out.push_str("qm_count_distinct(");
            out.push_str(args[9..].trim_start());
        } else {
            out.push_str(call.written);
            if call.renamed {
                out.push_str(WINDOW_FORM_SUFFIX);
            }
            out.push_str(call.open_and_args);
            if !sort_keys.is_empty() && call.renamed {
                for key in sort_keys {
                    out.push_str(", ");
                    out.push_str(key);
                }
                keys_placed = true;
            }
        }
        out.push_str(") OVER (");
        out.push_str(window);
        out.push(')');
        Some(out)
    })?;
    let keys_fit = sort_keys.is_empty() || (keys_placed && placed == 1);
    keys_fit.then_some(out)
}

/// `sql` with each aggregate call made `qm_rows_frame` over the whole partition, for a ROWS
/// frame whose offsets each row computes (`bounds`: start kind and offset, end kind and
/// offset, as querymesh-functions `window/rows_frame.rs` reads them). `None` when `sql`
/// holds no aggregate or one `qm_rows_frame` does not run.
pub(super) fn with_rows_frame(
    sql: &str,
    partition_and_order: &str,
    bounds: &[String; 4],
) -> Option<String> {
    let window =
        format!("{partition_and_order} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING");
    let (out, _) = rewrite_aggregate_calls(sql, |call| {
        let args = call.args.trim();
        let distinct = args
            .get(..9)
            .is_some_and(|d| d.eq_ignore_ascii_case("DISTINCT "));
        let runs =
            querymesh_functions::window::rows_frame::AGGREGATES.contains(&call.name.as_str());
        if !runs || distinct || top_level_commas(args) > 0 {
            return None;
        }
        let value = if args == "*" || args.is_empty() {
            "1"
        } else {
            args
        };
        Some(format!(
            "qm_rows_frame('{}', {}, {value}) OVER ({})",
            call.name,
            bounds.join(", "),
            window.trim_start()
        ))
    })?;
    Some(out)
}

/// An aggregate call at the top level of a lowering's SQL.
struct AggregateCall<'a> {
    /// Lower-cased.
    name: String,
    /// The name as written.
    written: &'a str,
    /// From after the name to before the closing parenthesis: `(` and the arguments.
    open_and_args: &'a str,
    /// The arguments alone.
    args: &'a str,
    /// Whether it runs as its window form (querymesh-functions `window::window_form`).
    renamed: bool,
}

/// `sql` with each aggregate call outside its subqueries (a name with a window form; not a
/// scalar `min`/`max` of several values) replaced by what `replace` writes for it, and how
/// many were. `None` when there is none, when `replace` gives up on one, or when a
/// parenthesis is not closed.
fn rewrite_aggregate_calls(
    sql: &str,
    mut replace: impl FnMut(&AggregateCall<'_>) -> Option<String>,
) -> Option<(String, usize)> {
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len() + 128);
    let mut subqueries: Vec<bool> = Vec::new();
    let (mut placed, mut i, mut copied) = (0usize, 0usize, 0usize);
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
                let Some(renamed) = window_form(&name) else {
                    continue;
                };
                let close = closing_paren(bytes, open)?;
                let args = &sql[open + 1..close];
                if (name == "min" || name == "max") && top_level_commas(args) > 0 {
                    continue;
                }
                let call = AggregateCall {
                    name,
                    written: &sql[start..i],
                    open_and_args: &sql[i..close],
                    args,
                    renamed,
                };
                out.push_str(&sql[copied..start]);
                out.push_str(&replace(&call)?);
                placed += 1;
                i = close + 1;
                copied = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(&sql[copied..]);
    (placed > 0).then_some((out, placed))
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

fn top_level_commas(args: &str) -> usize {
    let bytes = args.as_bytes();
    let (mut depth, mut commas, mut i) = (0usize, 0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'\'' | b'"' => {
                i = quoted_end(bytes, i);
                continue;
            }
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => commas += 1,
            _ => {}
        }
        i += 1;
    }
    commas
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: &str = "ORDER BY x";

    #[test]
    fn every_aggregate_of_a_wrapped_lowering_gets_the_window() {
        assert_eq!(
            with_over("qm_sqrt(sum(x * x) - count(x))", W, &[]).as_deref(),
            Some("qm_sqrt(sum(x * x) OVER (ORDER BY x) - count(x) OVER (ORDER BY x))")
        );
        // A scalar max of two values and a subquery's own aggregate are no window calls.
        assert_eq!(
            with_over("max(1, avg(x)) + (SELECT sum(v) FROM t)", W, &[]).as_deref(),
            Some("max(1, avg(x) OVER (ORDER BY x)) + (SELECT sum(v) FROM t)")
        );
        assert_eq!(
            with_over("qm_max_by(y, 'sum(')", W, &[]).as_deref(),
            Some("qm_max_by_over(y, 'sum(') OVER (ORDER BY x)")
        );
        assert_eq!(
            with_over("count(DISTINCT x)", W, &[]).as_deref(),
            Some("qm_count_distinct(x) OVER (ORDER BY x)")
        );
        assert_eq!(with_over("qm_abs(x)", W, &[]), None);
    }

    #[test]
    fn a_frame_computed_per_row_runs_each_aggregate_over_the_partition() {
        let bounds = ["'P'", "t.k", "'C'", "NULL"].map(String::from);
        assert_eq!(
            with_rows_frame(
                "coalesce(max(nullif(x, 'NaN')), max(x))",
                "ORDER BY k",
                &bounds
            )
            .as_deref(),
            Some(
                "coalesce(qm_rows_frame('max', 'P', t.k, 'C', NULL, nullif(x, 'NaN')) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), qm_rows_frame('max', 'P', t.k, 'C', NULL, x) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))"
            )
        );
        assert_eq!(
            with_rows_frame("count(*)", "", &bounds).as_deref(),
            Some(
                "qm_rows_frame('count', 'P', t.k, 'C', NULL, 1) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)"
            )
        );
        // An aggregate qm_rows_frame does not run.
        assert_eq!(with_rows_frame("qm_array_agg(x)", "", &bounds), None);
    }

    #[test]
    fn sort_keys_go_to_the_one_window_form() {
        let keys = ["y".to_string(), "1".to_string()];
        assert_eq!(
            with_over("qm_listagg(y, ',')", "", &keys).as_deref(),
            Some("qm_listagg_over(y, ',', y, 1) OVER ()")
        );
        assert_eq!(with_over("qm_array_agg(y)", "", &keys), None);
    }
}
