//! Window calls as the analysis reads them: `OVER` (a named window, partition, order, frame;
//! frames in window_frame.rs), the window-only functions (querymesh-functions/src/window.rs
//! names them), IGNORE NULLS, and aggregates used as windows.

use querymesh_functions::entry::{AggregateCall, Kind};
use querymesh_functions::unexpected;
use querymesh_functions::window::checked_count;
use querymesh_values::coerce::{coerced, super_type};
use querymesh_values::typed::Typed;
use sqlparser::ast::{Function, NullTreatment, WindowSpec, WindowType};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::{Analyzer, location};
use crate::sql::scope::{Clause, ExprContext};
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

/// A window's SQL in parts: a function that ignores the frame (lag, lead with IGNORE NULLS)
/// swaps the frame for its own.
pub(super) struct WindowSql {
    pub(super) partition_and_order: String,
    pub(super) frame: Option<String>,
    /// A ROWS frame whose offsets each row computes (window_frame.rs `FrameSql::PerRow`).
    pub(super) per_row: Option<[String; 4]>,
}

impl WindowSql {
    fn with_frame(&self, frame: Option<&str>) -> String {
        [Some(self.partition_and_order.as_str()), frame]
            .into_iter()
            .flatten()
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn written(&self) -> String {
        self.with_frame(self.frame.as_deref())
    }
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
        let arg_sql: Vec<String> = args.iter().map(|a| a.sql.to_string()).collect();
        // A ROWS frame whose offsets each row computes: the aggregates qm_rows_frame runs
        // (querymesh-functions window/rows_frame.rs), first_value and last_value.
        if let Some(bounds) = &window.per_row {
            let refused =
                || not_supported(at, &format!("{name} over a frame with a computed offset"));
            let (sql, ty) = match name {
                "first_value" | "last_value" if args.len() == 1 && !ignore_nulls => (
                    format!(
                        "qm_rows_frame('{name}', {}, {}) OVER ({} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)",
                        bounds.join(", "),
                        arg_sql[0],
                        window.partition_and_order
                    ),
                    args[0].ty.clone(),
                ),
                _ if !count_distinct
                    && arguments.order_by.is_empty()
                    && super::registry::lookup(name).is_some_and(|d| d.kind == Kind::Aggregate) =>
                {
                    let call = AggregateCall {
                        name,
                        args: &args,
                        star: arg_exprs.is_empty() && name == "count",
                        distinct: false,
                        order_by: "",
                        listagg_overflow: arguments.overflow,
                        grouped: false,
                        reads_tables: !self.reads.is_empty(),
                    };
                    let (call, ty) = self.aggregate(&call, at)?;
                    let sql =
                        super::over::with_rows_frame(&call, &window.partition_and_order, bounds)
                            .ok_or_else(refused)?;
                    (sql, ty)
                }
                _ => return Err(refused()),
            };
            return Ok(Typed::new(sql, ty));
        }
        let over_written = |call: String| format!("{call} OVER ({})", window.written());
        let (sql, ty) = match name {
            "row_number" | "rank" | "dense_rank" if args.is_empty() => {
                (over_written(format!("{name}()")), TrinoType::BigInt)
            }
            "percent_rank" | "cume_dist" if args.is_empty() => {
                (over_written(format!("{name}()")), TrinoType::Double)
            }
            // NTileFunction: "Buckets must be greater than 0".
            "ntile" if args.len() == 1 && args[0].ty.is_integral() => (
                over_written(format!(
                    "ntile({})",
                    checked_count(&args[0], 1, "Buckets must be greater than 0")?
                )),
                TrinoType::BigInt,
            ),
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
                    Some(o) => checked_count(o, 0, "Offset must be at least 0")?,
                    None => "1".into(),
                };
                let value = coerced(&args[0], &ty);
                let default = args.get(2).map(|d| coerced(d, &ty));
                let sql = if ignore_nulls {
                    lag_lead_ignoring_nulls(
                        name,
                        &value.to_string(),
                        &offset.to_string(),
                        default.as_ref().map(ToString::to_string).as_deref(),
                        &window,
                    )
                } else {
                    let mut call_args = vec![value, offset.into()];
                    call_args.extend(default);
                    over_written(format!(
                        "{name}({})",
                        querymesh_values::sqlite_expr::comma_list(&call_args)
                    ))
                };
                (sql, ty)
            }
            "first_value" | "last_value" if args.len() == 1 => {
                let call = match (ignore_nulls, name) {
                    (true, "first_value") => format!("qm_nth_non_null({}, 1, 0)", arg_sql[0]),
                    (true, _) => format!("qm_nth_non_null({}, 1, 1)", arg_sql[0]),
                    (false, _) => format!("{name}({})", arg_sql[0]),
                };
                (over_written(call), args[0].ty.clone())
            }
            // NthValueFunction: "Offset must be at least 1".
            "nth_value" if args.len() == 2 && args[1].ty.is_integral() => {
                let offset = checked_count(&args[1], 1, "Offset must be at least 1")?;
                let call = if ignore_nulls {
                    format!("qm_nth_non_null({}, {offset}, 0)", arg_sql[0])
                } else {
                    format!("nth_value({}, {offset})", arg_sql[0])
                };
                (over_written(call), args[0].ty.clone())
            }
            // count(DISTINCT x) OVER: SQLite takes no DISTINCT in a window.
            "count" if count_distinct && args.len() == 1 => (
                over_written(format!("qm_count_distinct({})", arg_sql[0])),
                TrinoType::BigInt,
            ),
            // arbitrary keeps the first non-NULL value added (ArbitraryAggregationFunction),
            // and Trino adds each frame's rows in order.
            "arbitrary" | "any_value" if args.len() == 1 && arguments.order_by.is_empty() => (
                over_written(format!("qm_nth_non_null({}, 1, 0)", arg_sql[0])),
                args[0].ty.clone(),
            ),
            _ if super::registry::lookup(name).is_some_and(|d| d.kind == Kind::Aggregate) => {
                let star = arg_exprs.is_empty() && name == "count";
                let call = AggregateCall {
                    name,
                    args: &args,
                    star,
                    distinct: false,
                    order_by: "",
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
                    sort_keys.push(
                        ((u8::from(descending) | u8::from(nulls_first) << 1).to_string()).into(),
                    );
                }
                let sort_keys: Vec<String> = sort_keys.iter().map(ToString::to_string).collect();
                let sql = super::over::with_over(&call, &window.written(), &sort_keys).ok_or_else(
                    || not_supported(at, &format!("{name} over a window with these arguments")),
                )?;
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
        let mut window = Vec::new();
        if !spec.partition_by.is_empty() {
            let mut parts = Vec::new();
            for e in &spec.partition_by {
                parts.push(self.expr(e, cx)?.sql);
            }
            window.push(format!(
                "PARTITION BY {}",
                parts
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
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
                super::window_frame::FrameSql::Written(sql) => (Some(sql), None),
                super::window_frame::FrameSql::PerRow(bounds) => (None, Some(bounds)),
            },
            None => (None, None),
        };
        if !spec.order_by.is_empty() {
            let parts: Vec<String> = spec
                .order_by
                .iter()
                .zip(&keys)
                .map(|(o, key)| {
                    let desc = matches!(o.options.sort, Some(sqlparser::ast::OrderBySort::Desc));
                    let nulls = if o.options.nulls_first == Some(true) {
                        "NULLS FIRST"
                    } else {
                        "NULLS LAST"
                    };
                    format!("{} {} {nulls}", key.sql, if desc { "DESC" } else { "ASC" })
                })
                .collect();
            window.push(format!("ORDER BY {}", parts.join(", ")));
        }
        Ok(WindowSql {
            partition_and_order: window.join(" "),
            frame,
            per_row,
        })
    }
}

/// lag and lead IGNORE NULLS: the offset-th non-NULL value before (after) the current row
/// in its partition, whatever the frame (docs functions/window: "lag … IGNORE NULLS"), else
/// the default — `qm_nth_non_null` over the rows before (after) it.
fn lag_lead_ignoring_nulls(
    name: &str,
    value: &str,
    offset: &str,
    default: Option<&str>,
    window: &WindowSql,
) -> String {
    let (frame, from_end) = if name == "lag" {
        ("ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING", 1)
    } else {
        ("ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING", 0)
    };
    let found = format!(
        "qm_nth_non_null({value}, {offset}, {from_end}) OVER ({})",
        window.with_frame(Some(frame))
    );
    // Offset 0 is the current row's value.
    let found = format!("(CASE WHEN {offset} = 0 THEN {value} ELSE {found} END)");
    match default {
        Some(d) => format!("coalesce({found}, {d})"),
        None => found,
    }
}
