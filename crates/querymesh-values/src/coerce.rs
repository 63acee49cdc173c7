//! Trino's implicit coercions: which types compare, their common super type, the result
//! type of arithmetic (Trino's decimal precision rules included), and the SQL of a value
//! coerced.

use super::calendar::stored_digits;
use super::sqlite_expr::{BinaryOp, SqlExpr, builtin};
use super::typed::Typed;
use crate::types::TrinoType;

fn integral_rank(t: &TrinoType) -> u8 {
    match t {
        TrinoType::TinyInt => 1,
        TrinoType::SmallInt => 2,
        TrinoType::Integer => 3,
        _ => 4,
    }
}

/// An integral or decimal type as a decimal (precision, scale).
fn as_decimal(t: &TrinoType) -> Option<(u8, u8)> {
    match t {
        TrinoType::TinyInt => Some((3, 0)),
        TrinoType::SmallInt => Some((5, 0)),
        TrinoType::Integer => Some((10, 0)),
        TrinoType::BigInt => Some((19, 0)),
        TrinoType::Decimal { precision, scale } => Some((*precision, *scale)),
        _ => None,
    }
}

fn decimal(precision: u32, scale: u32) -> TrinoType {
    TrinoType::Decimal {
        precision: precision.min(38) as u8,
        scale: scale.min(38) as u8,
    }
}

/// The type both sides coerce to, if Trino has one.
pub fn super_type(a: &TrinoType, b: &TrinoType) -> Option<TrinoType> {
    use TrinoType::*;
    if a == b {
        return Some(a.clone());
    }
    match (a, b) {
        (Unknown, t) | (t, Unknown) => Some(t.clone()),
        (x, y) if x.is_integral() && y.is_integral() => {
            Some(if integral_rank(x) >= integral_rank(y) {
                x.clone()
            } else {
                y.clone()
            })
        }
        (Double, y) | (y, Double) if y.is_numeric() => Some(Double),
        (Real, y) | (y, Real) if y.is_numeric() => Some(Real),
        (x, y) if x.is_numeric() && y.is_numeric() => {
            let (p1, s1) = as_decimal(x)?;
            let (p2, s2) = as_decimal(y)?;
            let scale = s1.max(s2) as u32;
            let int_digits = (p1 - s1).max(p2 - s2) as u32;
            Some(decimal(int_digits + scale, scale))
        }
        (Varchar(x), Varchar(y)) => Some(Varchar(x.zip(*y).map(|(x, y)| x.max(y)))),
        // Trino's TypeCoercion widens varchar(x) to char(max(x, y)), an unbounded varchar to
        // char(65536) (`'abc' = CAST('abc' AS char(5))` compares as chars, docs language/types
        // "CHAR").
        (Varchar(x), Char(y)) | (Char(y), Varchar(x)) => {
            Some(Char(x.unwrap_or(CHAR_MAX_LENGTH).max(*y)))
        }
        (Char(x), Char(y)) => Some(Char(*x.max(y))),
        (Date, Timestamp(p)) | (Timestamp(p), Date) => Some(Timestamp(*p)),
        (Timestamp(p), Timestamp(q)) => Some(Timestamp(*p.max(q))),
        (TimestampTz(p), TimestampTz(q)) => Some(TimestampTz(*p.max(q))),
        (Time(p), Time(q)) => Some(Time(*p.max(q))),
        (TimeTz(p), TimeTz(q)) => Some(TimeTz(*p.max(q))),
        (Array(x), Array(y)) => Some(Array(Box::new(super_type(x, y)?))),
        // A P4HyperLogLog is a HyperLogLog kept dense (TypeCoercion: P4HyperLogLog →
        // HyperLogLog, the same bytes).
        (P4HyperLogLog, HyperLogLog) | (HyperLogLog, P4HyperLogLog) => Some(HyperLogLog),
        (Map(kx, vx), Map(ky, vy)) => Some(Map(
            Box::new(super_type(kx, ky)?),
            Box::new(super_type(vx, vy)?),
        )),
        (Row(x), Row(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .map(|((nx, tx), (ny, ty))| {
                let name = if nx == ny { nx.clone() } else { None };
                Some((name, super_type(tx, ty)?))
            })
            .collect::<Option<Vec<_>>>()
            .map(Row),
        _ => None,
    }
}

/// The result type of `a op b` for `+ - * / %` on numbers.
pub fn arithmetic(op: char, a: &TrinoType, b: &TrinoType) -> Option<TrinoType> {
    use TrinoType::*;
    if !(a.is_numeric() || *a == Unknown) || !(b.is_numeric() || *b == Unknown) {
        return None;
    }
    match (a, b) {
        (Unknown, Unknown) => Some(Integer),
        // A NULL beside a decimal binds as decimal(1,0), the smallest decimal: `NULL * 2.5`
        // is a decimal(3,1), `NULL + 12.345` a decimal(6,3) (Trino 476's typeof).
        (Unknown, Decimal { .. }) => arithmetic(op, &decimal(1, 0), b),
        (Decimal { .. }, Unknown) => arithmetic(op, a, &decimal(1, 0)),
        (Unknown, t) | (t, Unknown) => Some(t.clone()),
        (x, y) if x.is_integral() && y.is_integral() => super_type(x, y),
        (Double, _) | (_, Double) => Some(Double),
        (Real, _) | (_, Real) => Some(Real),
        _ => {
            let (p1, s1) = as_decimal(a)?;
            let (p2, s2) = as_decimal(b)?;
            let (p1, s1, p2, s2) = (p1 as u32, s1 as u32, p2 as u32, s2 as u32);
            Some(match op {
                '+' | '-' => {
                    let s = s1.max(s2);
                    decimal((p1 - s1).max(p2 - s2) + s + 1, s)
                }
                '*' => decimal(p1 + p2, s1 + s2),
                '/' => {
                    let s = s1.max(s2);
                    decimal(p1 - s1 + s2 + s, s)
                }
                _ => {
                    let s = s1.max(s2);
                    decimal((p1 - s1).min(p2 - s2) + s, s)
                }
            })
        }
    }
}

/// Whether Trino compares values of these types (after implicit coercion). Arrays and rows
/// compare by their JSON text, so only where equal values have equal texts (complex.rs).
pub fn comparable(l: &TrinoType, r: &TrinoType) -> bool {
    super_type(l, r).is_some_and(|t| match t {
        TrinoType::Array(_) | TrinoType::Row(_) => super::element::same_representation(l, r),
        // SphericalGeographyType is neither comparable nor orderable.
        TrinoType::Map(..) | TrinoType::Json | TrinoType::SphericalGeography => false,
        // SetDigest, HyperLogLog, qdigest, tdigest: no equality (Trino 476: `Cannot apply
        // operator: HyperLogLog = HyperLogLog`).
        t if t.is_sketch() => false,
        _ => true,
    })
}

/// The SQL of `t` as a value of `target` when Trino coerces it implicitly (comparisons, a
/// widening cast): a date gains midnight, a timestamp the fraction digits of a more precise
/// one, so that the stored texts compare as the values do.
pub fn coerced(t: &Typed, target: &TrinoType) -> SqlExpr {
    // A decimal on either side: integers and narrower decimals rescale, doubles divide.
    if let Some(sql) = super::decimal::coerce(t, target) {
        return sql;
    }
    let zeros = |n: usize| SqlExpr::text("0".repeat(n));
    let concat = |suffix: SqlExpr| SqlExpr::binary(t.sql.clone(), BinaryOp::Concat, suffix);
    match (&t.ty, target) {
        (TrinoType::Date, TrinoType::Timestamp(p)) => concat(SqlExpr::text(format!(
            " 00:00:00.{}",
            "0".repeat(stored_digits(*p))
        ))),
        (TrinoType::Timestamp(from), TrinoType::Timestamp(to))
            if stored_digits(*to) > stored_digits(*from) =>
        {
            concat(zeros(stored_digits(*to) - stored_digits(*from)))
        }
        // A char is stored without its trailing spaces (Trino's Chars.trimTrailingSpaces);
        // its padding is put back where it becomes a varchar (`char_as_varchar`).
        (TrinoType::Varchar(_), TrinoType::Char(_)) => {
            builtin::RTRIM.call([t.sql.clone(), SqlExpr::text(" ")])
        }
        (TrinoType::Char(n), TrinoType::Varchar(_)) => char_as_varchar(t.sql.clone(), *n),
        _ => t.sql.clone(),
    }
}

/// The longest char Trino knows (CharType.MAX_LENGTH).
pub const CHAR_MAX_LENGTH: u32 = 65_536;

/// A char(n) value as the varchar Trino casts it to: padded with spaces to n characters
/// (`CAST(CAST('ab' AS char(4)) AS varchar)` is 'ab  ', TestCharacterStringCasts).
pub fn char_as_varchar(sql: SqlExpr, length: u32) -> SqlExpr {
    // NULL stays NULL (SQLite's printf would read it as '').
    let padding = SqlExpr::binary(
        SqlExpr::Integer(i64::from(length)),
        BinaryOp::Subtract,
        builtin::LENGTH.call([sql.clone()]),
    );
    let spaces = builtin::PRINTF.call([SqlExpr::text("%*s"), padding, SqlExpr::text("")]);
    SqlExpr::binary(sql, BinaryOp::Concat, spaces)
}

#[cfg(test)]
mod null_beside_decimal_tests {
    use super::*;

    /// Trino 476: `typeof(NULL + 12.345)`, `typeof(NULL * 12.345)`, `typeof(2.5 / NULL)`.
    #[test]
    fn a_null_beside_a_decimal_is_a_decimal_1_0() {
        assert_eq!(
            arithmetic('+', &TrinoType::Unknown, &decimal(5, 3)),
            Some(decimal(6, 3))
        );
        assert_eq!(
            arithmetic('*', &TrinoType::Unknown, &decimal(5, 3)),
            Some(decimal(6, 3))
        );
        assert_eq!(
            arithmetic('/', &decimal(2, 1), &TrinoType::Unknown),
            Some(decimal(2, 1))
        );
        assert_eq!(
            arithmetic('%', &TrinoType::Unknown, &decimal(2, 1)),
            Some(decimal(2, 1))
        );
    }
}
