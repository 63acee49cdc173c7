//! Aggregates (count, sum, avg, min, max, approx_distinct, count_if, bool_and/or, stddev and
//! variance) and window functions (ranking, lag/lead, value functions, aggregates OVER a
//! window with PARTITION BY, ORDER BY and literal frames), typed by Trino's signatures.

use sqlparser::ast::{Function, NullTreatment, WindowFrameBound, WindowType};

use super::analyze::{Analyzer, Constant, Typed, error_at, not_supported};
use super::coerce::super_type;
use super::functions::{AGGREGATES, is_numeric_or_null, unexpected};
use super::scope::ExprContext;
use crate::querymesh::engine::error::{ErrorName, Position, TrinoError};
use crate::querymesh::engine::types::TrinoType;

/// A window function's count argument that must be at least `min`: refused while analysing
/// when it is a literal, checked per row (`qm_at_least`) otherwise.
/// Trino checks these while running, so its message has no `line L:C`.
fn checked_count(arg: &Typed, min: i64, message: &str) -> Result<String, TrinoError> {
    match arg.constant {
        Some(Constant::Int(n)) if n < min => {
            Err(error_at(ErrorName::InvalidFunctionArgument, None, message))
        }
        Some(Constant::Int(_)) => Ok(arg.sql.clone()),
        _ => Ok(format!(
            "qm_at_least({}, {min}, {})",
            arg.sql,
            super::expr::sql_string(message)
        )),
    }
}

impl Analyzer<'_> {
    pub(super) fn aggregate(
        &mut self,
        name: &str,
        args: &[Typed],
        star: bool,
        distinct: bool,
        at: Option<Position>,
    ) -> Result<(String, TrinoType), TrinoError> {
        let d = if distinct { "DISTINCT " } else { "" };
        let one = |args: &[Typed]| -> Result<Typed, TrinoError> {
            match args {
                [a] => Ok(a.clone()),
                _ => Err(unexpected(at, name, args)),
            }
        };
        if star {
            return Ok(("count(*)".into(), TrinoType::BigInt));
        }
        // approx_distinct(x, e): the maximum standard error only bounds the estimate, and
        // the exact count is within any bound.
        if let ("approx_distinct", [a, e]) = (name, args)
            && e.ty.is_numeric()
        {
            return Ok((format!("count(DISTINCT {})", a.sql), TrinoType::BigInt));
        }
        let a = one(args)?;
        Ok(match name {
            "count" => (format!("count({d}{})", a.sql), TrinoType::BigInt),
            "approx_distinct" => (format!("count(DISTINCT {})", a.sql), TrinoType::BigInt),
            "count_if" => {
                if !matches!(a.ty, TrinoType::Boolean | TrinoType::Unknown) {
                    return Err(unexpected(at, name, args));
                }
                (
                    format!("count(CASE WHEN {} THEN 1 END)", a.sql),
                    TrinoType::BigInt,
                )
            }
            "sum" => {
                let ty = match &a.ty {
                    t if t.is_integral() => TrinoType::BigInt,
                    TrinoType::Double | TrinoType::Real => a.ty.clone(),
                    TrinoType::Decimal { scale, .. } => TrinoType::Decimal {
                        precision: 38,
                        scale: *scale,
                    },
                    TrinoType::Unknown => TrinoType::Unknown,
                    _ => return Err(unexpected(at, name, args)),
                };
                (format!("sum({d}{})", a.sql), ty)
            }
            "avg" => {
                let ty = match &a.ty {
                    t if t.is_integral() => TrinoType::Double,
                    TrinoType::Double | TrinoType::Real | TrinoType::Decimal { .. } => a.ty.clone(),
                    TrinoType::Unknown => TrinoType::Double,
                    _ => return Err(unexpected(at, name, args)),
                };
                (format!("avg({d}{})", a.sql), ty)
            }
            "min" | "max" => {
                if matches!(
                    a.ty,
                    TrinoType::Array(_) | TrinoType::Map(..) | TrinoType::Row(_)
                ) {
                    return Err(unexpected(at, name, args));
                }
                (format!("{name}({d}{})", a.sql), a.ty.clone())
            }
            "arbitrary" | "any_value" => (format!("max({})", a.sql), a.ty.clone()),
            "bool_and" | "every" | "bool_or" => {
                if !matches!(a.ty, TrinoType::Boolean | TrinoType::Unknown) {
                    return Err(unexpected(at, name, args));
                }
                let f = if name == "bool_or" { "max" } else { "min" };
                (format!("{f}({})", a.sql), TrinoType::Boolean)
            }
            _ => {
                if !is_numeric_or_null(&a.ty) || distinct {
                    return Err(unexpected(at, name, args));
                }
                let x = format!("CAST({} AS REAL)", a.sql);
                let n = format!("count({})", a.sql);
                let sum_sq = format!("sum({x} * {x})");
                let sq_sum = format!("(sum({x}) * sum({x}))");
                let population = name.ends_with("_pop");
                let variance = if population {
                    format!("qm_fdiv(({sum_sq} - qm_fdiv({sq_sum}, {n})), {n})")
                } else {
                    format!(
                        "(CASE WHEN {n} > 1 THEN qm_fdiv(({sum_sq} - qm_fdiv({sq_sum}, {n})), ({n} - 1)) END)"
                    )
                };
                let sql = if name.starts_with("stddev") {
                    format!("qm_sqrt({variance})")
                } else {
                    variance
                };
                (sql, TrinoType::Double)
            }
        })
    }

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
            _ if AGGREGATES.contains(&name) => {
                let (sql, ty) = self.aggregate(
                    name,
                    &args,
                    arg_exprs.is_empty() && name == "count",
                    false,
                    at,
                )?;
                (sql, ty)
            }
            _ => return Err(unexpected(at, name, &args)),
        };
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
                        super::analyze::literal_count(e).is_some()
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
        Ok(Typed::new(
            format!("{call} OVER ({})", window.join(" ")),
            ty,
        ))
    }
}
