//! CAST and TRY_CAST: Trino's conversions between types, inline where SQLite's own forms are
//! exact and through `qm_cast` otherwise.

use querymesh_functions::datetime::time_of_day;
use querymesh_functions::udf::QM_CAST;
use querymesh_values::coerce::{char_as_varchar, coerced};
use querymesh_values::sqlite_expr::{Affinity, BinaryOp, SqlExpr, builtin};
use querymesh_values::typed::Typed;

use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::Analyzer;
use crate::types::TrinoType;

/// The kind name `qm_cast` understands for a type.
fn cast_kind(t: &TrinoType) -> String {
    match t {
        TrinoType::Decimal { precision, scale } => format!("decimal:{scale}:{precision}"),
        TrinoType::Varchar(_) | TrinoType::Char(_) => "varchar".into(),
        TrinoType::Timestamp(p) => format!("timestamp:{p}"),
        other => other.raw_type().to_string(),
    }
}

fn rank_le(a: &TrinoType, b: &TrinoType) -> bool {
    let rank = |t: &TrinoType| match t {
        TrinoType::TinyInt => 1,
        TrinoType::SmallInt => 2,
        TrinoType::Integer => 3,
        _ => 4,
    };
    rank(a) <= rank(b)
}

impl Analyzer<'_> {
    pub(in crate::sql) fn cast(
        &mut self,
        t: Typed,
        target: &TrinoType,
        try_cast: bool,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        use TrinoType::*;
        if let Some(sql) = querymesh_functions::ipaddress::cast_sql(&t, target, try_cast) {
            return Ok(Typed::new(sql, target.clone()));
        }
        if let Some(sql) = querymesh_functions::setdigest::cast_sql(&t, target) {
            return Ok(Typed::new(sql, target.clone()));
        }
        if let Some(cast) = querymesh_functions::geospatial::cast_sql(&t, target) {
            return cast
                .map(|sql| Typed::new(sql, target.clone()))
                .map_err(|m| error_at(ErrorName::TypeMismatch, at, m));
        }
        if let Some(cast) = querymesh_functions::sketch::cast_sql(&t, target) {
            return cast
                .map(|sql| Typed::new(sql, target.clone()))
                .ok_or_else(|| {
                    error_at(
                        ErrorName::TypeMismatch,
                        at,
                        format!("Cannot cast {} to {target}", t.ty),
                    )
                });
        }
        let complex = |t: &TrinoType| t.is_container() || matches!(t, Json | Uuid | Varbinary);
        if complex(&t.ty) || complex(target) {
            return self.complex_cast(t, target, try_cast, at);
        }
        if time_of_day::is_time(&t.ty) || time_of_day::is_time(target) {
            return time_of_day::cast_sql(&t, target, try_cast, &self.session_zone())
                .map(|sql| Typed::new(sql, target.clone()))
                .ok_or_else(|| {
                    error_at(
                        ErrorName::TypeMismatch,
                        at,
                        format!("Cannot cast {} to {target}", t.ty),
                    )
                });
        }
        // IntervalDayTimeOperators / IntervalYearMonthOperators castToSlice.
        if let (Varchar(None), Some(sql)) = (
            target,
            querymesh_functions::datetime::interval::text_sql(&t),
        ) {
            return Ok(Typed::new(sql, target.clone()));
        }
        if matches!(t.ty, TimestampTz(_)) || matches!(target, TimestampTz(_)) {
            return self.zoned_cast(t, target, try_cast, at);
        }
        let from = t.ty.clone();
        let via_udf = |t: &Typed| {
            let to = match target {
                Varchar(Some(n)) => format!("varchar:{n}"),
                other => cast_kind(other),
            };
            QM_CAST.call([
                t.sql.clone(),
                SqlExpr::text(cast_kind(&t.ty)),
                SqlExpr::text(to),
                SqlExpr::Integer(i64::from(try_cast)),
            ])
        };
        let allowed = match (&from, target) {
            (a, b) if a == b => {
                return Ok(Typed {
                    ty: target.clone(),
                    ..t
                });
            }
            (Unknown, _) => return Ok(Typed::new(SqlExpr::Null, target.clone())),
            (a, b) if a.is_numeric() && b.is_numeric() => true,
            // Only strings become chars ("Cannot cast integer to char(3)").
            (a, Char(_)) => matches!(a, Varchar(_) | Char(_)),
            (a, Varchar(_))
                if a.is_numeric()
                    || matches!(a, Boolean | Date | Timestamp(_) | Varchar(_) | Char(_)) =>
            {
                true
            }
            (Char(_), _) => false,
            (Varchar(_), b) if b.is_numeric() || matches!(b, Boolean | Date | Timestamp(_)) => true,
            (Boolean, b) if b.is_numeric() => true,
            (a, Boolean) if a.is_numeric() => true,
            (Date, Timestamp(_)) | (Timestamp(_), Date) | (Timestamp(_), Timestamp(_)) => true,
            _ => false,
        };
        if !allowed {
            return Err(error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Cannot cast {from} to {target}"),
            ));
        }
        // The first `length` characters.
        let prefix = |sql: SqlExpr, length: u32| {
            builtin::SUBSTR.call([sql, SqlExpr::Integer(1), SqlExpr::Integer(length.into())])
        };
        let sql = match (&from, target) {
            // Exact (decimal.rs); to a double, the conversion implicit coercion uses.
            (Decimal { scale, .. }, Double | Real) => {
                querymesh_values::decimal::to_double_sql(&t, *scale, *target == Real)
            }
            (Decimal { .. }, _) | (_, Decimal { .. }) => via_udf(&t),
            (a, b) if a.is_integral() && b.is_integral() && rank_le(a, b) => t.sql,
            (a, Double) if a.is_integral() => SqlExpr::cast(t.sql, Affinity::Real),
            // A real is a float: qm_cast rounds (CAST(16777217 AS real) is 16777216).
            (a, Real) if a.is_integral() => via_udf(&t),
            (Real, Double) => t.sql,
            (Double, Real) => via_udf(&t),
            (a, Varchar(None)) if a.is_integral() => SqlExpr::cast(t.sql, Affinity::Text),
            // A char becomes a varchar with its padding (TestCharacterStringCasts); a
            // string becomes a char(n) cut to n characters, stored without trailing spaces
            // (docs language/types "CHAR").
            (Char(n), Varchar(None)) => char_as_varchar(t.sql, *n),
            (Char(n), Varchar(Some(m))) => prefix(char_as_varchar(t.sql, *n), *m),
            (Varchar(_) | Char(_), Char(n)) => {
                builtin::RTRIM.call([prefix(t.sql, *n), SqlExpr::text(" ")])
            }
            (Varchar(_), Varchar(None)) | (Date, Varchar(None)) => t.sql,
            // varchar to a shorter varchar truncates; anything else must fit (qm_cast).
            (Varchar(_), Varchar(Some(n))) => prefix(t.sql, *n),
            (Date, Timestamp(_)) => coerced(&t, target),
            (Timestamp(_), Date) => prefix(t.sql, 10),
            // To a lower precision Trino rounds (qm_cast); to a higher one only digits grow.
            (Timestamp(p), Timestamp(q)) if q >= p => coerced(&t, target),
            (Boolean, b) if b.is_integral() => t.sql,
            (a, Boolean) if a.is_numeric() => {
                SqlExpr::binary(t.sql, BinaryOp::NotEqual, SqlExpr::Integer(0))
            }
            _ => via_udf(&t),
        };
        Ok(Typed::new(sql, target.clone()))
    }
}
