//! An aggregate's lowering made a window: `OVER (…)` after each SQLite aggregate call in it.
//! A lowering may wrap its aggregates (stddev is the square root of sums, avg over intervals
//! rounds an avg, max over arrays takes the first of a top-n), and each aggregate inside runs
//! over the same window; an aggregate of the `qm_*` kind that can't take rows out runs as its
//! window form (querymesh-functions `window::window_form`). Calls inside a subquery of the
//! lowering aggregate that subquery's rows and are left alone.

use std::sync::{Mutex, PoisonError};

use querymesh_functions::udf::WINDOW_FORM_SUFFIX;
use querymesh_functions::window::rows_frame::{AGGREGATES, QM_ROWS_FRAME};
use querymesh_functions::window::sqlite::QM_COUNT_DISTINCT;
use querymesh_functions::window::{is_aggregate, window_form};
use querymesh_values::sqlite_expr::{SqlExpr, SqliteFn, Window, builtin};

/// `sql` with each aggregate call made a window call over `window`, and the sort keys (`key,
/// how` pairs) added to the arguments of the one aggregate that takes them. `None` when `sql`
/// holds no aggregate, or sort keys can't be placed (not exactly one aggregate, or one
/// without a window form).
pub(super) fn with_over(sql: SqlExpr, window: &Window, sort_keys: &[SqlExpr]) -> Option<SqlExpr> {
    let mut keys_placed = false;
    let (out, placed) = rewrite_aggregate_calls(sql, &mut |function, distinct, mut args| {
        let call = match (distinct, args.as_slice()) {
            // count(DISTINCT x): SQLite takes no DISTINCT in a window.
            (true, [_]) if function.name() == builtin::COUNT.name() => QM_COUNT_DISTINCT.call(args),
            (true, _) => return None,
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
    let (out, _) = rewrite_aggregate_calls(sql, &mut |function, distinct, args| {
        let runs = AGGREGATES.contains(&function.name());
        if !runs || distinct || args.len() > 1 {
            return None;
        }
        // count(*): each row counts.
        let value = args.into_iter().next().unwrap_or(SqlExpr::Integer(1));
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

/// What replaces an aggregate call (its function, DISTINCT and arguments); `None` gives up.
type Replace<'r> = dyn FnMut(SqliteFn, bool, Vec<SqlExpr>) -> Option<SqlExpr> + 'r;

/// The function a replayable aggregate runs as over a window (`<name>_over`,
/// querymesh-functions udf/replayed.rs).
fn window_form_of(function: SqliteFn) -> SqliteFn {
    SqliteFn::new(interned(&format!(
        "{}{WINDOW_FORM_SUFFIX}",
        function.name()
    )))
}

/// A window form's name, for the lifetime of the process: a call names its function by a
/// `&'static str`, and the names are the few aggregates registered.
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
/// for it, and how many were. `None` when there is none, or when `replace` gives up on one.
fn rewrite_aggregate_calls(sql: SqlExpr, replace: &mut Replace<'_>) -> Option<(SqlExpr, usize)> {
    let mut placed = 0;
    let out = rewrite(&sql, replace, &mut placed)?;
    (placed > 0).then_some((out, placed))
}

fn rewrite(sql: &SqlExpr, replace: &mut Replace<'_>, placed: &mut usize) -> Option<SqlExpr> {
    match sql {
        SqlExpr::Call(function, args) if is_aggregate(*function, args) => {
            *placed += 1;
            replace(*function, false, args.clone())
        }
        SqlExpr::Aggregate {
            function,
            distinct,
            args,
            order_by,
            filter: None,
        } if order_by.is_empty() => {
            *placed += 1;
            replace(*function, *distinct, args.clone())
        }
        // ORDER BY or FILTER inside the call: no window form takes them.
        SqlExpr::Aggregate { .. } => None,
        // A subquery's aggregates aggregate its rows; a window call is one already.
        SqlExpr::Subquery(_) | SqlExpr::Exists(_) | SqlExpr::Over { .. } => Some(sql.clone()),
        _ => sql
            .try_map_children(&mut |child| rewrite(child, replace, placed).ok_or(()))
            .ok(),
    }
}

#[cfg(test)]
mod tests {
    use querymesh_values::sqlite_expr::{BinaryOp, Frame, Nulls, OrderKey, Select};

    use super::*;

    fn ordered_by_x() -> Window {
        Window {
            order_by: vec![OrderKey {
                expr: x(),
                descending: false,
                nulls: Some(Nulls::Last),
            }],
            ..Window::default()
        }
    }

    fn x() -> SqlExpr {
        SqlExpr::column(None, "x")
    }

    fn named(name: &'static str) -> SqliteFn {
        SqliteFn::new(name)
    }

    fn over(sql: SqlExpr, keys: &[SqlExpr]) -> Option<String> {
        with_over(sql, &ordered_by_x(), keys).map(|e| e.to_string())
    }

    const W: &str = "OVER (ORDER BY \"x\" ASC NULLS LAST)";

    #[test]
    fn every_aggregate_of_a_wrapped_lowering_gets_the_window() {
        let squares = builtin::SUM.call([SqlExpr::binary(x(), BinaryOp::Multiply, x())]);
        let spread = SqlExpr::binary(squares, BinaryOp::Subtract, builtin::COUNT.call([x()]));
        assert_eq!(
            over(named("qm_sqrt").call([spread]), &[]),
            Some(format!(
                "qm_sqrt((sum((\"x\" * \"x\")) {W} - count(\"x\") {W}))"
            ))
        );
        // A scalar max of two values and a subquery's own aggregate are no window calls.
        let own = Select::new(vec![builtin::SUM.call([x()])], vec![]).scalar();
        let scalar_max = builtin::MAX.call([
            SqlExpr::Integer(1),
            SqlExpr::aggregate(builtin::AVG, false, [x()]),
        ]);
        assert_eq!(
            over(SqlExpr::binary(scalar_max, BinaryOp::Add, own), &[]),
            Some(format!("(max(1, avg(\"x\") {W}) + (SELECT sum(\"x\")))"))
        );
        assert_eq!(
            over(SqlExpr::aggregate(builtin::COUNT, true, [x()]), &[]),
            Some(format!("qm_count_distinct(\"x\") {W}"))
        );
        assert_eq!(
            over(SqlExpr::aggregate(builtin::SUM, true, [x()]), &[]),
            None
        );
        assert_eq!(over(named("qm_abs").call([x()]), &[]), None);
    }

    #[test]
    fn a_tree_is_walked() {
        let sum = SqlExpr::binary(
            builtin::SUM.call([x()]),
            BinaryOp::Add,
            builtin::MAX.call([x(), builtin::MIN.call([x()])]),
        );
        assert_eq!(
            over(sum, &[]),
            Some(format!("(sum(\"x\") {W} + max(\"x\", min(\"x\") {W}))"))
        );
        let max_by = named("qm_max_by").call([x(), SqlExpr::Integer(1)]);
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
        let rows = |sql: SqlExpr, window: &Window| {
            with_rows_frame(sql, window, &bounds).map(|e| e.to_string())
        };
        let all = "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";
        let numbers = builtin::NULLIF.call([x(), SqlExpr::text("NaN")]);
        let largest = builtin::COALESCE.call([
            SqlExpr::aggregate(builtin::MAX, false, [numbers]),
            SqlExpr::aggregate(builtin::MAX, false, [x()]),
        ]);
        assert_eq!(
            rows(largest, &whole_ordered),
            Some(format!(
                "coalesce(qm_rows_frame('max', 'P', t.\"k\", 'C', NULL, nullif(\"x\", 'NaN')) OVER (ORDER BY \"x\" ASC NULLS LAST {all}), qm_rows_frame('max', 'P', t.\"k\", 'C', NULL, \"x\") OVER (ORDER BY \"x\" ASC NULLS LAST {all}))"
            ))
        );
        assert_eq!(
            rows(SqlExpr::aggregate(builtin::COUNT, false, []), &whole),
            Some(format!(
                "qm_rows_frame('count', 'P', t.\"k\", 'C', NULL, 1) OVER ({all})"
            ))
        );
        // An aggregate qm_rows_frame does not run.
        assert_eq!(rows(named("qm_array_agg").call([x()]), &whole), None);
    }

    #[test]
    fn sort_keys_go_to_the_one_window_form() {
        let y = || SqlExpr::column(None, "y");
        let keys = [y(), SqlExpr::Integer(1)];
        let plain = |sql: SqlExpr, keys: &[SqlExpr]| {
            with_over(sql, &Window::default(), keys).map(|e| e.to_string())
        };
        let listagg = named("qm_listagg").call([y(), SqlExpr::text(",")]);
        assert_eq!(
            plain(listagg, &keys).as_deref(),
            Some("qm_listagg_over(\"y\", ',', \"y\", 1) OVER ()")
        );
        assert_eq!(plain(named("qm_array_agg").call([y()]), &keys), None);
    }
}
