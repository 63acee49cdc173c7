//! Window calls as the analysis reads them: `OVER` (partition, order, frame), the window-only
//! functions (querymesh-functions/src/window.rs names them) and aggregates used as windows.

use querymesh_functions::entry::{AggregateCall, Kind};
use querymesh_functions::unexpected;
use querymesh_functions::window::checked_count;
use querymesh_values::coerce::super_type;
use querymesh_values::typed::Typed;
use sqlparser::ast::{Function, NullTreatment, WindowFrameBound, WindowType};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::Analyzer;
use crate::sql::scope::ExprContext;
use crate::types::TrinoType;

impl Analyzer<'_> {
    pub(super) fn window_call(
        &mut self,
        name: &str,
        arg_exprs: &[&sqlparser::ast::Expr],
        f: &Function,
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        if !cx.clause.allows_aggregates() || cx.in_aggregate {
            return Err(error_at(
                ErrorName::ExpressionNotScalar,
                at,
                format!(
                    "{} cannot contain aggregations, window functions or grouping operations",
                    cx.clause.describe()
                ),
            ));
        }
        // SQLite has no IGNORE NULLS; RESPECT NULLS is what it does anyway.
        if matches!(f.null_treatment, Some(NullTreatment::IgnoreNulls)) {
            return Err(not_supported(at, "IGNORE NULLS"));
        }
        let Some(WindowType::WindowSpec(spec)) = &f.over else {
            return Err(not_supported(at, "A named window"));
        };
        if spec.window_name.is_some() {
            return Err(not_supported(at, "A named window"));
        }
        let mut args = Vec::new();
        for e in arg_exprs {
            args.push(self.expr(e, cx)?);
        }
        let arg_sql: Vec<String> = args.iter().map(|a| a.sql.clone()).collect();
        let (call, ty) = match name {
            "row_number" | "rank" | "dense_rank" if args.is_empty() => {
                (format!("{name}()"), TrinoType::BigInt)
            }
            "percent_rank" | "cume_dist" if args.is_empty() => {
                (format!("{name}()"), TrinoType::Double)
            }
            // NTileFunction: "Buckets must be greater than 0".
            "ntile" if args.len() == 1 && args[0].ty.is_integral() => (
                format!(
                    "ntile({})",
                    checked_count(&args[0], 1, "Buckets must be greater than 0")?
                ),
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
                let mut call_args = arg_sql.clone();
                if let (Some(offset), Some(slot)) = (args.get(1), call_args.get_mut(1)) {
                    *slot = checked_count(offset, 0, "Offset must be at least 0")?;
                }
                (format!("{name}({})", call_args.join(", ")), ty)
            }
            "first_value" | "last_value" if args.len() == 1 => {
                (format!("{name}({})", arg_sql[0]), args[0].ty.clone())
            }
            "nth_value" if args.len() == 2 => (
                format!("nth_value({})", arg_sql.join(", ")),
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
                    listagg_overflow: None,
                };
                self.aggregate(&call, at)?
            }
            _ => return Err(unexpected(at, name, &args)),
        };
        let window = self.over_clause(spec, cx, at)?;
        Ok(Typed::new(format!("{call} OVER ({window})"), ty))
    }

    /// The window specification: PARTITION BY, ORDER BY (NULLS LAST unless told) and a
    /// frame whose offsets are literals.
    fn over_clause(
        &mut self,
        spec: &sqlparser::ast::WindowSpec,
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<String, TrinoError> {
        let mut window = Vec::new();
        if !spec.partition_by.is_empty() {
            let mut parts = Vec::new();
            for e in &spec.partition_by {
                parts.push(self.expr(e, cx)?.sql);
            }
            window.push(format!("PARTITION BY {}", parts.join(", ")));
        }
        if !spec.order_by.is_empty() {
            let mut parts = Vec::new();
            for o in &spec.order_by {
                let sql = self.expr(&o.expr, cx)?.sql;
                let desc = matches!(o.options.sort, Some(sqlparser::ast::OrderBySort::Desc));
                let nulls = if o.options.nulls_first == Some(true) {
                    "NULLS FIRST"
                } else {
                    "NULLS LAST"
                };
                parts.push(format!(
                    "{sql} {} {nulls}",
                    if desc { "DESC" } else { "ASC" }
                ));
            }
            window.push(format!("ORDER BY {}", parts.join(", ")));
        }
        if let Some(frame) = &spec.window_frame {
            let literal_bounds = [Some(&frame.start_bound), frame.end_bound.as_ref()]
                .into_iter()
                .flatten()
                .all(|b| match b {
                    WindowFrameBound::Preceding(Some(e)) | WindowFrameBound::Following(Some(e)) => {
                        crate::sql::analyze::literal_count(e).is_some()
                    }
                    _ => true,
                });
            if !literal_bounds {
                return Err(not_supported(at, "A computed window frame offset"));
            }
            let frame_sql = match &frame.end_bound {
                Some(end) => format!("{} BETWEEN {} AND {end}", frame.units, frame.start_bound),
                None => format!("{} {}", frame.units, frame.start_bound),
            };
            window.push(frame_sql);
        }
        Ok(window.join(" "))
    }
}
