//! Window calls as the analysis reads them: `OVER` (a named window, partition, order, frame;
//! frames in window_frame.rs), the window-only functions (querymesh-functions/src/window.rs
//! names them), IGNORE NULLS, and aggregates used as windows.

use querymesh_functions::entry::{AggregateCall, Kind};
use querymesh_functions::unexpected;
use querymesh_functions::window::checked_count;
use querymesh_functions::window::rows_frame::QM_ROWS_FRAME;
use querymesh_functions::window::sqlite::{QM_COUNT_DISTINCT, QM_NTH_NON_NULL};
use querymesh_values::coerce::{coerced, super_type};
use querymesh_values::sqlite_expr::{
    BinaryOp, Frame, FrameBound, FrameUnits, Nulls, OrderKey, SqlExpr, SqliteFn, Window, builtin,
};
use querymesh_values::typed::Typed;
use sqlparser::ast::{Function, NullTreatment, WindowSpec, WindowType};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::scope::{Clause, ExprContext};
use crate::sql::analyze::{Analyzer, location};
use crate::types::TrinoType;

/// The functions that take IGNORE NULLS / RESPECT NULLS (docs functions/window "Value
/// functions").
const NULL_TREATED: [&str; 5] = ["lag", "lead", "first_value", "last_value", "nth_value"];

/// The window functions that take no frame (StatementAnalyzer: "Cannot specify window
/// frame for … function").
const FRAMELESS: [&str; 8] = [
    "row_number",
    "rank",
    "dense_rank",
    "percent_rank",
    "cume_dist",
    "ntile",
    "lag",
    "lead",
];

/// A window as analysed: a function that ignores the frame (lag, lead with IGNORE NULLS)
/// swaps the frame for its own.
pub(super) struct WindowSql {
    /// The partition, order and frame as written.
    pub(super) window: Window,
    /// A ROWS frame whose offsets each row computes (window_frame.rs `FrameSql::PerRow`); the
    /// window then has no frame.
    pub(super) per_row: Option<[SqlExpr; 4]>,
}

impl WindowSql {
    /// `call OVER` the window as written.
    fn over(&self, call: SqlExpr) -> SqlExpr {
        SqlExpr::over(call, self.window.clone())
    }

    /// The partition and order over every row of the partition.
    fn whole_partition(&self) -> Window {
        self.window.with_frame(Some(Frame::whole_partition()))
    }
}

/// SQLite's ranking function of the same name.
fn ranking(name: &str) -> Option<SqliteFn> {
    Some(match name {
        "row_number" => builtin::ROW_NUMBER,
        "rank" => builtin::RANK,
        "dense_rank" => builtin::DENSE_RANK,
        "percent_rank" => builtin::PERCENT_RANK,
        "cume_dist" => builtin::CUME_DIST,
        _ => return None,
    })
}

/// `qm_nth_non_null(value, n, from_end)`: the n-th non-NULL value of the frame.
fn nth_non_null(value: SqlExpr, n: SqlExpr, from_end: bool) -> SqlExpr {
    QM_NTH_NON_NULL.call([value, n, SqlExpr::Integer(i64::from(from_end))])
}

impl Analyzer<'_> {
    pub(super) fn window_call(
        &mut self,
        name: &str,
        arguments: &super::WindowArguments<'_, '_>,
        f: &Function,
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        // StatementAnalyzer: HAVING is analysed after the windows' place in the plan.
        if cx.clause == Clause::Having {
            return Err(error_at(
                ErrorName::NestedWindow,
                at,
                "HAVING clause cannot contain window functions or row pattern measures",
            ));
        }
        if cx.in_aggregate {
            return Err(error_at(
                ErrorName::NestedWindow,
                at,
                "Cannot nest window functions or row pattern measures inside aggregation",
            ));
        }
        if !cx.clause.allows_aggregates() {
            return Err(error_at(
                ErrorName::ExpressionNotScalar,
                at,
                format!(
                    "{} cannot contain aggregations, window functions or grouping operations",
                    cx.clause.describe()
                ),
            ));
        }
        let ignore_nulls = matches!(f.null_treatment, Some(NullTreatment::IgnoreNulls));
        if f.null_treatment.is_some() && !NULL_TREATED.contains(&name) {
            return Err(error_at(
                ErrorName::NullTreatmentNotAllowed,
                at,
                format!("Cannot specify null treatment clause for {name} function"),
            ));
        }
        let Some(over) = &f.over else {
            return Err(not_supported(at, "A window call without OVER"));
        };
        let spec = self.resolved_window(over)?;
        if spec.window_frame.is_some() && FRAMELESS.contains(&name) {
            return Err(error_at(
                ErrorName::InvalidWindowFrame,
                at,
                format!("Cannot specify window frame for {name} function"),
            ));
        }
        let (arg_exprs, count_distinct) = (arguments.values, arguments.count_distinct);
        // Trino analyses the window (its frame's checks included) before the function.
        let window = self.over_clause(&spec, cx, at)?;
        let mut args = Vec::new();
        for e in arg_exprs {
            args.push(self.expr(e, cx)?);
        }
        let arg_sql: Vec<SqlExpr> = args.iter().map(|a| a.sql.clone()).collect();
        // A ROWS frame whose offsets each row computes: the aggregates qm_rows_frame runs
        // (querymesh-functions window/rows_frame.rs), first_value and last_value.
        if let Some(bounds) = &window.per_row {
            let refused =
                || not_supported(at, &format!("{name} over a frame with a computed offset"));
            let (sql, ty) = match name {
                "first_value" | "last_value" if args.len() == 1 && !ignore_nulls => {
                    let mut frame_args = vec![SqlExpr::text(name)];
                    frame_args.extend(bounds.iter().cloned());
                    frame_args.push(arg_sql[0].clone());
                    (
                        SqlExpr::over(QM_ROWS_FRAME.call(frame_args), window.whole_partition()),
                        args[0].ty.clone(),
                    )
                }
                _ if !count_distinct
                    && arguments.order_by.is_empty()
                    && super::registry::lookup(name).is_some_and(|d| d.kind == Kind::Aggregate) =>
                {
                    let call = AggregateCall {
                        name,
                        args: &args,
                        star: arg_exprs.is_empty() && name == "count",
                        distinct: false,
                        order_by: Vec::new(),
                        filter: None,
                        listagg_overflow: arguments.overflow,
                        grouped: false,
                        reads_tables: !self.reads.is_empty(),
                    };
                    let (call, ty) = self.aggregate(&call, at)?;
                    let sql = super::over::with_rows_frame(call, &window.whole_partition(), bounds)
                        .ok_or_else(refused)?;
                    (sql, ty)
                }
                _ => return Err(refused()),
            };
            return Ok(Typed::new(sql, ty));
        }
        let (sql, ty) = match name {
            "row_number" | "rank" | "dense_rank" | "percent_rank" | "cume_dist"
                if args.is_empty()
                    && let Some(function) = ranking(name) =>
            {
                let ty = if matches!(name, "percent_rank" | "cume_dist") {
                    TrinoType::Double
                } else {
                    TrinoType::BigInt
                };
                (window.over(function.call([])), ty)
            }
            // NTileFunction: "Buckets must be greater than 0".
            "ntile" if args.len() == 1 && args[0].ty.is_integral() => {
                // checked_count (querymesh-functions) still answers text.
                let buckets = checked_count(&args[0], 1, "Buckets must be greater than 0")?;
                (
                    window.over(builtin::NTILE.call([buckets])),
                    TrinoType::BigInt,
                )
            }
            // lag/lead(x T, offset bigint, default T) (docs functions/window): the offset
            // is an integer, the default shares x's type, which is the result's.
            "lag" | "lead"
                if (1..=3).contains(&args.len())
                    && args
                        .get(1)
                        .is_none_or(|o| o.ty.is_integral() || o.ty == TrinoType::Unknown) =>
            {
                let ty = match args.get(2) {
                    Some(default) => super_type(&args[0].ty, &default.ty)
                        .ok_or_else(|| unexpected(at, name, &args))?,
                    None => args[0].ty.clone(),
                };
                // LagFunction/LeadFunction: "Offset must be at least 0".
                let offset = match args.get(1) {
                    // checked_count (querymesh-functions) still answers text.
                    Some(o) => checked_count(o, 0, "Offset must be at least 0")?,
                    None => SqlExpr::Integer(1),
                };
                let value = coerced(&args[0], &ty);
                let default = args.get(2).map(|d| coerced(d, &ty));
                let sql = if ignore_nulls {
                    lag_lead_ignoring_nulls(name == "lag", value, offset, default, &window)
                } else {
                    let mut call_args = vec![value, offset];
                    call_args.extend(default);
                    let function = if name == "lag" {
                        builtin::LAG
                    } else {
                        builtin::LEAD
                    };
                    window.over(function.call(call_args))
                };
                (sql, ty)
            }
            "first_value" | "last_value" if args.len() == 1 => {
                let value = arg_sql[0].clone();
                let call = match (ignore_nulls, name) {
                    (true, "first_value") => nth_non_null(value, SqlExpr::Integer(1), false),
                    (true, _) => nth_non_null(value, SqlExpr::Integer(1), true),
                    (false, "first_value") => builtin::FIRST_VALUE.call([value]),
                    (false, _) => builtin::LAST_VALUE.call([value]),
                };
                (window.over(call), args[0].ty.clone())
            }
            // NthValueFunction: "Offset must be at least 1".
            "nth_value" if args.len() == 2 && args[1].ty.is_integral() => {
                // checked_count (querymesh-functions) still answers text.
                let offset = checked_count(&args[1], 1, "Offset must be at least 1")?;
                let value = arg_sql[0].clone();
                let call = if ignore_nulls {
                    nth_non_null(value, offset, false)
                } else {
                    builtin::NTH_VALUE.call([value, offset])
                };
                (window.over(call), args[0].ty.clone())
            }
            // count(DISTINCT x) OVER: SQLite takes no DISTINCT in a window.
            "count" if count_distinct && args.len() == 1 => (
                window.over(QM_COUNT_DISTINCT.call([arg_sql[0].clone()])),
                TrinoType::BigInt,
            ),
            // arbitrary keeps the first non-NULL value added (ArbitraryAggregationFunction),
            // and Trino adds each frame's rows in order.
            "arbitrary" | "any_value" if args.len() == 1 && arguments.order_by.is_empty() => (
                window.over(nth_non_null(arg_sql[0].clone(), SqlExpr::Integer(1), false)),
                args[0].ty.clone(),
            ),
            _ if super::registry::lookup(name).is_some_and(|d| d.kind == Kind::Aggregate) => {
                let star = arg_exprs.is_empty() && name == "count";
                let call = AggregateCall {
                    name,
                    args: &args,
                    star,
                    distinct: false,
                    order_by: Vec::new(),
                    filter: None,
                    listagg_overflow: arguments.overflow,
                    grouped: false,
                    reads_tables: !self.reads.is_empty(),
                };
                let (call, ty) = self.aggregate(&call, at)?;
                let mut sort_keys = Vec::new();
                for key in arguments.order_by {
                    sort_keys.push(self.expr(&key.expr, cx)?.sql);
                    let descending =
                        matches!(key.options.sort, Some(sqlparser::ast::OrderBySort::Desc));
                    let nulls_first = key.options.nulls_first == Some(true);
                    sort_keys.push(SqlExpr::Integer(i64::from(
                        u8::from(descending) | u8::from(nulls_first) << 1,
                    )));
                }
                let sql =
                    super::over::with_over(call, &window.window, &sort_keys).ok_or_else(|| {
                        not_supported(at, &format!("{name} over a window with these arguments"))
                    })?;
                (sql, ty)
            }
            _ => return Err(unexpected(at, name, &args)),
        };
        Ok(Typed::new(sql, ty))
    }

    /// The window of an OVER: as written, a named window (`OVER w`), or a named window
    /// refined (`OVER (w ORDER BY …)`, `OVER (w ROWS …)`).
    fn resolved_window(&self, over: &WindowType) -> Result<WindowSpec, TrinoError> {
        match over {
            WindowType::NamedWindow(name) => self.named_window(name),
            WindowType::WindowSpec(spec) => self.refined_window(spec),
        }
    }

    /// `spec` with the named window it starts with merged in (StatementAnalyzer's
    /// resolveWindowSpecification): the reference brings its PARTITION BY, and its ORDER BY
    /// unless `spec` orders, and may have no frame.
    pub(in crate::sql) fn refined_window(
        &self,
        spec: &WindowSpec,
    ) -> Result<WindowSpec, TrinoError> {
        let Some(name) = &spec.window_name else {
            return Ok(spec.clone());
        };
        let base = self.named_window(name)?;
        let at = crate::sql::analyze::ident_location(name);
        if !spec.partition_by.is_empty() {
            return Err(error_at(
                ErrorName::InvalidPartitionBy,
                spec.partition_by
                    .first()
                    .and_then(crate::sql::analyze::location),
                "WINDOW specification with named WINDOW reference cannot specify PARTITION BY",
            ));
        }
        if !spec.order_by.is_empty() && !base.order_by.is_empty() {
            return Err(error_at(
                ErrorName::InvalidOrderBy,
                at,
                "Cannot specify ORDER BY if referenced named WINDOW specifies ORDER BY",
            ));
        }
        if base.window_frame.is_some() {
            return Err(error_at(
                ErrorName::InvalidWindowReference,
                at,
                "Cannot reference named WINDOW containing frame specification",
            ));
        }
        Ok(WindowSpec {
            window_name: None,
            partition_by: base.partition_by,
            order_by: if spec.order_by.is_empty() {
                base.order_by
            } else {
                spec.order_by.clone()
            },
            window_frame: spec.window_frame.clone(),
        })
    }

    fn named_window(&self, name: &sqlparser::ast::Ident) -> Result<WindowSpec, TrinoError> {
        let key = crate::sql::analyze::ident_name(name);
        self.windows
            .iter()
            .rev()
            .find(|(n, _)| *n == key)
            .map(|(_, spec)| spec.clone())
            .ok_or_else(|| {
                error_at(
                    ErrorName::InvalidWindowReference,
                    crate::sql::analyze::ident_location(name),
                    format!("Cannot resolve WINDOW name {}", name.value),
                )
            })
    }

    /// The window specification: PARTITION BY, ORDER BY (NULLS LAST unless told) and the
    /// frame (window_frame.rs), which may order by a key of its own.
    fn over_clause(
        &mut self,
        spec: &WindowSpec,
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<WindowSql, TrinoError> {
        let mut partition_by = Vec::new();
        for e in &spec.partition_by {
            partition_by.push(self.expr(e, cx)?.sql);
        }
        let mut keys = Vec::new();
        for o in &spec.order_by {
            let key = self.expr(&o.expr, cx)?;
            // Trino 476: "BingTile is not orderable, and therefore cannot be used in window
            // function ORDER BY" (maps, json, colors and geometries too).
            if !key.ty.is_orderable() {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    location(&o.expr),
                    format!(
                        "{} is not orderable, and therefore cannot be used in window function ORDER BY",
                        key.ty
                    ),
                ));
            }
            keys.push(key);
        }
        let (frame, per_row) = match &spec.window_frame {
            Some(frame) => match self.window_frame(frame, &spec.order_by, &mut keys, cx, at)? {
                super::window_frame::FrameSql::Written(frame) => (Some(frame), None),
                super::window_frame::FrameSql::PerRow(bounds) => (None, Some(bounds)),
            },
            None => (None, None),
        };
        let order_by = spec
            .order_by
            .iter()
            .zip(keys)
            .map(|(o, key)| OrderKey {
                expr: key.sql,
                descending: matches!(o.options.sort, Some(sqlparser::ast::OrderBySort::Desc)),
                nulls: Some(if o.options.nulls_first == Some(true) {
                    Nulls::First
                } else {
                    Nulls::Last
                }),
            })
            .collect();
        Ok(WindowSql {
            window: Window {
                partition_by,
                order_by,
                frame,
            },
            per_row,
        })
    }
}

/// lag and lead IGNORE NULLS: the offset-th non-NULL value before (after) the current row
/// in its partition, whatever the frame (docs functions/window: "lag … IGNORE NULLS"), else
/// the default — `qm_nth_non_null` over the rows before (after) it.
fn lag_lead_ignoring_nulls(
    lag: bool,
    value: SqlExpr,
    offset: SqlExpr,
    default: Option<SqlExpr>,
    window: &WindowSql,
) -> SqlExpr {
    let one = || SqlExpr::Integer(1);
    let (start, end) = if lag {
        (FrameBound::UnboundedPreceding, FrameBound::Preceding(one()))
    } else {
        (FrameBound::Following(one()), FrameBound::UnboundedFollowing)
    };
    let frame = Frame::between(FrameUnits::Rows, start, end);
    let found = SqlExpr::over(
        nth_non_null(value.clone(), offset.clone(), lag),
        window.window.with_frame(Some(frame)),
    );
    // Offset 0 is the current row's value.
    let current = SqlExpr::binary(offset, BinaryOp::Equal, SqlExpr::Integer(0));
    let found = SqlExpr::iff(current, value, found);
    match default {
        Some(d) => builtin::COALESCE.call([found, d]),
        None => found,
    }
}
