//! `timestamp(p) with time zone` in the analyser: the session time zone (`SET TIME ZONE`'s
//! session property, else `X-Trino-Time-Zone`, else UTC, as this stand-in is one fixed
//! "server"), casts to and from it, `AT TIME
//! ZONE`, and the comparisons by instant. The stored form and the `qm_tz_*` functions these
//! lower to are in querymesh-functions/src/datetime/time_zone/sqlite.

use querymesh_functions::datetime::time_zone::zone_operand;

use querymesh_functions::datetime::time_zone::sqlite::{
    self as zones, QM_TZ_AT, QM_TZ_FROM_TS, QM_TZ_FROM_VARCHAR, QM_TZ_LOCAL, QM_TZ_ROUND,
    QM_TZ_TEXT,
};
use querymesh_functions::udf::QM_CAST;
use querymesh_values::sqlite_expr::{SqlExpr, builtin};
use querymesh_values::typed::Typed;
use sqlparser::ast::Expr;

use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::Analyzer;
use crate::sql::analyze::scope::ExprContext;
use crate::types::TrinoType;

/// The session's zone id as Trino names it; `Err` for a zone Trino does not know.
pub fn session_zone_id(session: &crate::SessionContext) -> Result<String, TrinoError> {
    // SET TIME ZONE's session property, which the client sends back, wins over the header.
    let set = session
        .properties
        .iter()
        .rev()
        .find(|(n, _)| n == crate::sql::session::TIME_ZONE_ID)
        .map(|(_, v)| v.as_str());
    match set.or(session.time_zone.as_deref()) {
        None => Ok("UTC".into()),
        Some(name) => zones::zone(name)
            .map(|z| z.id)
            .map_err(|m| TrinoError::new(ErrorName::NotSupported, m)),
    }
}

/// The SQL of a value as the text comparisons compare: a timestamp with time zone by its
/// instant, a time with time zone by its key, anything else as it is. The keys are the
/// time families' own lowerings, which still take and give text.
pub(in crate::sql) fn compare_key(sql: SqlExpr, target: &TrinoType) -> SqlExpr {
    match target {
        TrinoType::TimestampTz(_) => zones::instant_sql(sql),
        TrinoType::TimeTz(_) => {
            querymesh_functions::datetime::time_of_day::compare_key(sql, target)
        }
        _ => sql,
    }
}

/// A precision or a flag as an integer literal.
fn int(n: impl Into<i64>) -> SqlExpr {
    SqlExpr::Integer(n.into())
}

impl Analyzer<'_> {
    /// The session zone (validated when the plan starts, see sql::plan).
    pub(in crate::sql) fn session_zone(&self) -> String {
        session_zone_id(self.session).unwrap_or_else(|_| "UTC".into())
    }

    /// A timestamp with time zone's wall time, as a timestamp(p) (extract fields, formats).
    pub(in crate::sql) fn wall_time(&self, t: &Typed) -> Typed {
        match t.ty {
            TrinoType::TimestampTz(p) => Typed::new(
                QM_TZ_LOCAL.call([t.sql.clone(), int(p)]),
                TrinoType::Timestamp(p),
            ),
            _ => t.clone(),
        }
    }

    /// A date or timestamp as a timestamp with time zone in the session zone (Trino's
    /// implicit coercion); a timestamp with time zone as it is.
    pub(in crate::sql) fn zoned(&self, t: &Typed) -> Option<Typed> {
        let zone = SqlExpr::text(self.session_zone());
        Some(match t.ty {
            TrinoType::TimestampTz(_) => t.clone(),
            TrinoType::Timestamp(p) => Typed::new(
                QM_TZ_FROM_TS.call([t.sql.clone(), zone, int(p)]),
                TrinoType::TimestampTz(p),
            ),
            TrinoType::Date => Typed::new(
                QM_TZ_FROM_TS.call([t.sql.clone(), zone, int(0)]),
                TrinoType::TimestampTz(0),
            ),
            TrinoType::Unknown => Typed::new(SqlExpr::Null, TrinoType::TimestampTz(3)),
            _ => return None,
        })
    }

    /// Comparison operands: when one is a timestamp with time zone and the other a date or
    /// timestamp, the other becomes one in the session zone, as Trino coerces it.
    pub(in crate::sql) fn zoned_operands(&self, l: Typed, r: Typed) -> (Typed, Typed) {
        let tz = |t: &Typed| matches!(t.ty, TrinoType::TimestampTz(_));
        let other = |t: &Typed| matches!(t.ty, TrinoType::Timestamp(_) | TrinoType::Date);
        if tz(&l) && other(&r) {
            let r = self.zoned(&r).unwrap_or(r);
            (l, r)
        } else if other(&l) && tz(&r) {
            let l = self.zoned(&l).unwrap_or(l);
            (l, r)
        } else {
            (l, r)
        }
    }

    /// CAST/TRY_CAST where the source or the target is a timestamp with time zone.
    pub(in crate::sql) fn zoned_cast(
        &mut self,
        t: Typed,
        target: &TrinoType,
        try_cast: bool,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        use TrinoType::*;
        let zone = SqlExpr::text(self.session_zone());
        let value = t.sql.clone();
        let sql = match (&t.ty, target) {
            (Unknown, _) => SqlExpr::Null,
            (TimestampTz(p), TimestampTz(q)) if q >= p => value,
            (TimestampTz(_), TimestampTz(q)) => QM_TZ_ROUND.call([value, int(*q)]),
            (Varchar(_) | Char(_), TimestampTz(q)) => {
                QM_TZ_FROM_VARCHAR.call([value, int(*q), zone, int(try_cast)])
            }
            (Timestamp(_) | Date, TimestampTz(q)) => QM_TZ_FROM_TS.call([value, zone, int(*q)]),
            (TimestampTz(p), Timestamp(q)) if q >= p => QM_TZ_LOCAL.call([value, int(*q)]),
            (TimestampTz(_), Timestamp(q)) => {
                QM_TZ_LOCAL.call([QM_TZ_ROUND.call([value, int(*q)]), int(*q)])
            }
            (TimestampTz(_), Date) => {
                builtin::SUBSTR.call([QM_TZ_LOCAL.call([value, int(0)]), int(1), int(10)])
            }
            (TimestampTz(p), Varchar(None)) => QM_TZ_TEXT.call([value, int(*p)]),
            // Too long for varchar(n) fails ("Value … cannot be represented as varchar(n)").
            (TimestampTz(p), Varchar(Some(n))) => QM_CAST.call([
                QM_TZ_TEXT.call([value, int(*p)]),
                SqlExpr::text("varchar"),
                SqlExpr::text(format!("varchar:{n}")),
                int(try_cast),
            ]),
            (from, _) => {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    at,
                    format!("Cannot cast {from} to {target}"),
                ));
            }
        };
        Ok(Typed::new(sql, target.clone()))
    }

    /// `x AT TIME ZONE zone` (docs functions/datetime "Time zone conversion"): the same
    /// instant shown in another zone; a timestamp is first taken in the session zone.
    pub(in crate::sql) fn at_time_zone(
        &mut self,
        timestamp: &Expr,
        time_zone: &Expr,
        at: Option<Position>,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        let t = self.expr(timestamp, cx)?;
        let z = zone_operand(self.expr(time_zone, cx)?);
        if !(z.ty.is_string() || z.ty == TrinoType::Unknown) {
            return Err(error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Type of time zone must be varchar: actual type {}", z.ty),
            ));
        }
        if let Some(shifted) = querymesh_functions::datetime::time_of_day::at_time_zone(&t, &z) {
            return Ok(shifted);
        }
        let Some(zoned) = (match t.ty {
            TrinoType::Timestamp(_) | TrinoType::TimestampTz(_) => self.zoned(&t),
            _ => None,
        }) else {
            return Err(error_at(
                ErrorName::TypeMismatch,
                at,
                format!(
                    "Type of value must be a time or timestamp with or without time zone (actual {})",
                    t.ty
                ),
            ));
        };
        // An unknown zone fails in qm_tz_at with Trino's INVALID_FUNCTION_ARGUMENT.
        Ok(Typed::new(QM_TZ_AT.call([zoned.sql, z.sql]), zoned.ty))
    }

    /// A zone given as a literal is checked now, as Trino folds it while planning.
    pub(in crate::sql) fn check_zone_literal(
        &self,
        z: &Typed,
        at: Option<Position>,
    ) -> Result<(), TrinoError> {
        let literal = match &z.sql {
            SqlExpr::Text(name) => Some(name.clone()),
            // A lowering that still writes text.
            other => string_literal(&other.to_string()),
        };
        if let Some(name) = literal
            && let Err(m) = zones::zone(&name)
        {
            return Err(error_at(ErrorName::NotSupported, at, m));
        }
        Ok(())
    }
}

/// The text of a plain SQL string literal `'…'`.
pub(in crate::sql) fn string_literal(sql: &str) -> Option<String> {
    let inner = sql.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars().peekable();
    let mut out = String::new();
    while let Some(c) = chars.next() {
        if c == '\'' && chars.next() != Some('\'') {
            return None;
        }
        out.push(c);
    }
    Some(out)
}
