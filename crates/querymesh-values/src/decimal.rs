//! Exact decimals: `decimal(p, s)` up to 38 digits as Trino computes them (DecimalType,
//! DecimalOperators, DecimalCasts, DecimalSumAggregation, DecimalAverageAggregation).
//!
//! # Representation inside SQLite
//!
//! A decimal(p, s) is its unscaled value u (the value is u / 10^s), as Trino holds it:
//! - short, p ≤ 18: a SQLite INTEGER holding u (Trino's own short decimal is a `long`);
//! - long, 19 ≤ p ≤ 38: a 16-byte BLOB, u as an i128 in big-endian two's complement with
//!   the sign bit flipped, so that SQLite's BLOB order (memcmp) is numeric order.
//!
//! Both keep SQLite's own `=`, `<`, ORDER BY, GROUP BY, DISTINCT, min and max right for values
//! of one decimal type; the analysis coerces both sides of a comparison to one type first
//! ([`coerce`]). Inside arrays, maps and rows (the *element form*) a short decimal is the
//! JSON number u and a long one the JSON string of u's digits: reading a short element back
//! gives its top-level form, a long one goes through `qm_dec_of_digits`.
//!
//! Arithmetic whose operands and result are short and cannot leave 64 bits (`+`, `-`, `*`,
//! rescaling by a power of ten) stays plain SQL on integers, so SQLite computes it at native
//! speed; division, remainder, rounding and anything long go through the `qm_dec_*` functions
//! (querymesh-functions/src/udf/decimals.rs), which compute in i128 with checked arithmetic: an overflow past 38
//! digits is Trino's `NUMERIC_VALUE_OUT_OF_RANGE` "Decimal overflow", never a panic.

use rusqlite::types::{Value, ValueRef};

use super::sqlite_expr::{Affinity, BinaryOp, SqlExpr, UnaryOp, runtime};
use super::typed::{Constant, Typed};
use crate::types::TrinoType;

/// Trino's `Decimals.MAX_PRECISION`.
pub const MAX_PRECISION: u32 = 38;
/// Trino's `Decimals.MAX_SHORT_PRECISION`: beyond it a decimal is a BLOB here.
pub const MAX_SHORT_PRECISION: u8 = 18;

pub fn is_short(precision: u8) -> bool {
    precision <= MAX_SHORT_PRECISION
}

/// 10^n, for n ≤ 38.
pub fn ten_to(n: u32) -> Option<i128> {
    10i128.checked_pow(n)
}

/// Whether u has more than `precision` digits.
pub fn overflows(u: i128, precision: u32) -> bool {
    ten_to(precision.min(MAX_PRECISION)).is_none_or(|limit| u.unsigned_abs() >= limit as u128)
}

/// The 16 bytes of a long decimal.
pub fn to_blob(u: i128) -> [u8; 16] {
    ((u as u128) ^ (1u128 << 127)).to_be_bytes()
}

fn from_blob(b: &[u8]) -> Option<i128> {
    let bytes: [u8; 16] = b.try_into().ok()?;
    Some((u128::from_be_bytes(bytes) ^ (1u128 << 127)) as i128)
}

/// The SQLite value of u as a decimal of `precision` digits.
pub fn to_sqlite(u: i128, precision: u8) -> Value {
    match i64::try_from(u) {
        Ok(small) if is_short(precision) => Value::Integer(small),
        _ => Value::Blob(to_blob(u).to_vec()),
    }
}

/// The unscaled value of a stored decimal: an INTEGER (short, or an integer read at scale
/// 0), a BLOB (long), or the digits of a long decimal's element form.
pub fn read(v: ValueRef<'_>) -> Option<i128> {
    match v {
        ValueRef::Integer(i) => Some(i128::from(i)),
        ValueRef::Blob(b) => from_blob(b),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    }
}

/// u / 10^s as Trino writes a decimal: exactly `scale` fraction digits, a zero before the
/// point, no `-0` (DecimalType's text, `SqlDecimal.toString`).
pub fn format(u: i128, scale: u32) -> String {
    let sign = if u < 0 { "-" } else { "" };
    let digits = format!("{:0width$}", u.unsigned_abs(), width = scale as usize + 1);
    let (whole, fraction) = digits.split_at(digits.len() - scale as usize);
    if scale == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    }
}

/// Divides by 10^k rounding HALF_UP (ties away from zero), as BigDecimal.setScale(…,
/// HALF_UP) and Trino's `Decimals.rescale` do.
fn shrink(u: i128, k: u32) -> i128 {
    let Some(divisor) = ten_to(k) else { return 0 };
    let (q, r) = (u / divisor, u % divisor);
    // |r| ≥ divisor / 2 without overflow: 2|r| ≥ divisor.
    if r.unsigned_abs() * 2 >= divisor as u128 {
        q + u.signum()
    } else {
        q
    }
}

/// u at scale `from` re-expressed at scale `to`, HALF_UP when digits are dropped; `None` on
/// overflow of i128.
pub fn rescale(u: i128, from: u32, to: u32) -> Option<i128> {
    if to >= from {
        u.checked_mul(ten_to(to - from)?)
    } else if from - to > MAX_PRECISION {
        Some(0)
    } else {
        Some(shrink(u, from - to))
    }
}

/// a / b rounded HALF_UP; `None` when b is 0.
pub fn divide_half_up(a: i128, b: i128) -> Option<i128> {
    if b == 0 {
        return None;
    }
    let (q, r) = (a.checked_div(b)?, a.checked_rem(b)?);
    // |r| / |b| ≥ 1/2, compared without overflow.
    let (r, b_abs) = (r.unsigned_abs(), b.unsigned_abs());
    if r >= b_abs - r {
        let away = if (a < 0) == (b < 0) { 1 } else { -1 };
        q.checked_add(away)
    } else {
        Some(q)
    }
}

/// Reads a decimal number's text (`-12.5`, `.5`, `1e3`, `+7`) exactly at `scale`, rounding
/// HALF_UP; `None` when it is not a number or does not fit in i128.
pub fn parse(text: &str, scale: u32) -> Option<i128> {
    let t = text.trim();
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i32>().ok()?),
        None => (t, 0),
    };
    let (negative, unsigned) = match mantissa.as_bytes().first()? {
        b'-' => (true, &mantissa[1..]),
        b'+' => (false, &mantissa[1..]),
        _ => (false, mantissa),
    };
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    if whole.is_empty() && fraction.is_empty()
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let digits = format!("{whole}{fraction}");
    let digits = digits.trim_start_matches('0');
    // value = digits × 10^-own_scale; at the target scale, `drop` digits go (HALF_UP).
    let own_scale = fraction.len() as i64 - i64::from(exponent);
    let drop = own_scale - i64::from(scale);
    let u: i128 = if digits.is_empty() {
        0
    } else if drop > 0 {
        let drop = usize::try_from(drop).ok()?;
        if drop > digits.len() {
            0
        } else {
            let (kept, dropped) = digits.split_at(digits.len() - drop);
            let base: i128 = if kept.is_empty() {
                0
            } else {
                kept.parse().ok()?
            };
            let up = dropped.as_bytes().first().is_some_and(|d| *d >= b'5');
            if up { base.checked_add(1)? } else { base }
        }
    } else {
        let up = u32::try_from(-drop).ok()?;
        digits.parse::<i128>().ok()?.checked_mul(ten_to(up)?)?
    };
    Some(if negative { -u } else { u })
}

/// The exact value of a double at `scale`, HALF_UP, as Trino's double → decimal casts read
/// it (`BigDecimal.valueOf(double)`: the shortest digits that read back, Double.toString's).
pub fn from_double(x: f64, scale: u32) -> Option<i128> {
    if !x.is_finite() {
        return None;
    }
    parse(&format!("{x:e}"), scale)
}

/// u / 10^s as the nearest double (Trino's decimal → double: exact digits, one rounding).
pub fn to_double(u: i128, scale: u32) -> f64 {
    format!("{u}e-{scale}").parse().unwrap_or(f64::NAN)
}

// --- The analysis side: SQL for decimal values ---

/// The precision and scale of a decimal type, or of an integral type as the decimal Trino
/// coerces it to (tinyint → decimal(3,0), …, bigint → decimal(19,0)).
pub fn parts(t: &TrinoType) -> Option<(u8, u8)> {
    match t {
        TrinoType::TinyInt => Some((3, 0)),
        TrinoType::SmallInt => Some((5, 0)),
        TrinoType::Integer => Some((10, 0)),
        TrinoType::BigInt => Some((19, 0)),
        TrinoType::Decimal { precision, scale } => Some((*precision, *scale)),
        _ => None,
    }
}

/// Whether a type is or holds a decimal (an array, map or row of them).
pub fn holds_decimal(t: &TrinoType) -> bool {
    match t {
        TrinoType::Decimal { .. } => true,
        TrinoType::Array(e) => holds_decimal(e),
        TrinoType::Map(k, v) => holds_decimal(k) || holds_decimal(v),
        TrinoType::Row(fields) => fields.iter().any(|(_, f)| holds_decimal(f)),
        _ => false,
    }
}

/// A decimal constant as SQL: the INTEGER of a short one, the BLOB literal of a long one.
pub fn literal_sql(u: i128, precision: u8) -> SqlExpr {
    match i64::try_from(u) {
        Ok(small) if is_short(precision) => SqlExpr::Integer(small),
        _ => SqlExpr::Blob(to_blob(u).to_vec()),
    }
}

/// A decimal constant as a typed literal.
pub fn literal(u: i128, precision: u8, scale: u8) -> Typed {
    Typed {
        sql: literal_sql(u, precision),
        ty: TrinoType::Decimal { precision, scale },
        constant: Some(Constant::Decimal(u, u32::from(scale))),
        bound: None,
    }
}

/// The exact value a constant holds, as (unscaled, scale).
pub fn constant_value(c: &Option<Constant>) -> Option<(i128, u32)> {
    match c {
        Some(Constant::Int(n)) => Some((i128::from(*n), 0)),
        Some(Constant::Decimal(u, s)) => Some((*u, *s)),
        _ => None,
    }
}

/// The SQL of `t` as a value of `target` where Trino coerces implicitly and a decimal is on
/// either side: integer → decimal, decimal → wider decimal, decimal → double / real. `None`
/// when neither is a decimal (or nothing changes).
pub fn coerce(t: &Typed, target: &TrinoType) -> Option<SqlExpr> {
    let (to_p, to_s) = match target {
        TrinoType::Decimal { precision, scale } => (*precision, *scale),
        TrinoType::Double | TrinoType::Real => {
            let TrinoType::Decimal { scale, .. } = t.ty else {
                return None;
            };
            return Some(to_double_sql(t, scale, *target == TrinoType::Real));
        }
        _ => return None,
    };
    let (from_p, from_s) = parts(&t.ty)?;
    if (from_p, from_s) == (to_p, to_s) && matches!(t.ty, TrinoType::Decimal { .. }) {
        return None;
    }
    if let Some((u, s)) = constant_value(&t.constant)
        && let Some(v) = rescale(u, s, u32::from(to_s))
    {
        return Some(literal_sql(v, to_p));
    }
    let k = u32::from(to_s.saturating_sub(from_s));
    let same_form = is_short(to_p) == (is_short(from_p) || t.ty.is_integral());
    Some(if is_short(to_p) && same_form {
        // Both short: the target's precision bounds the product, so 64 bits hold it.
        scaled(t.sql.clone(), u32::from(from_s), u32::from(to_s))
    } else if !is_short(to_p) && !is_short(from_p) && !t.ty.is_integral() && k == 0 {
        t.sql.clone()
    } else {
        runtime::QM_DEC_RESCALE.call([
            t.sql.clone(),
            SqlExpr::Integer(i64::from(from_s)),
            SqlExpr::Integer(i64::from(to_s)),
            SqlExpr::Integer(i64::from(to_p)),
        ])
    })
}

/// The SQL of a number as a double where a function reads doubles (a decimal converted, any
/// other number as it is).
pub fn as_double(t: &Typed) -> SqlExpr {
    match t.ty {
        TrinoType::Decimal { scale, .. } => to_double_sql(t, scale, false),
        _ => t.sql.clone(),
    }
}

/// A decimal as a double (or real): folded for a constant, plain SQL for a short one.
pub fn to_double_sql(t: &Typed, scale: u8, real: bool) -> SqlExpr {
    if let Some(Constant::Decimal(u, s)) = t.constant {
        let x = to_double(u, s);
        return SqlExpr::Real(if real { f64::from(x as f32) } else { x });
    }
    let short = matches!(t.ty, TrinoType::Decimal { precision, .. } if is_short(precision));
    if short && !real {
        if scale == 0 {
            SqlExpr::cast(t.sql.clone(), Affinity::Real)
        } else {
            // DecimalCasts.shortDecimalToDouble: (double) unscaled / 10^scale.
            SqlExpr::binary(
                t.sql.clone(),
                BinaryOp::Divide,
                SqlExpr::Real(10f64.powi(i32::from(scale))),
            )
        }
    } else {
        runtime::QM_DEC_TO_DOUBLE.call([
            t.sql.clone(),
            SqlExpr::Integer(i64::from(scale)),
            SqlExpr::Integer(i64::from(real)),
        ])
    }
}

/// `l op r` for `+ - * / %` with a decimal result type `ty` (coerce.rs `arithmetic`),
/// folded when both sides are constants and the result is exact.
pub fn arithmetic(op: char, l: &Typed, r: &Typed, ty: &TrinoType) -> Typed {
    let TrinoType::Decimal {
        precision: p,
        scale: s,
    } = *ty
    else {
        return Typed::new("NULL", ty.clone());
    };
    let (Some((lp, ls)), Some((rp, rs))) = (parts(&l.ty), parts(&r.ty)) else {
        return Typed::new("NULL", ty.clone());
    };
    let scale = u32::from(s);
    if let (Some(a), Some(b)) = (constant_value(&l.constant), constant_value(&r.constant))
        && let Some(u) = exact_op(op, a, b, scale)
        && !overflows(u, u32::from(p))
    {
        return literal(u, p, s);
    }
    let all_short = is_short(p) && is_short(lp) && is_short(rp);
    let sql = match op {
        // Both sides at the result's scale; the result's precision bounds the sum.
        '+' | '-' if all_short => SqlExpr::binary(
            scaled(l.sql.clone(), u32::from(ls), scale),
            if op == '+' {
                BinaryOp::Add
            } else {
                BinaryOp::Subtract
            },
            scaled(r.sql.clone(), u32::from(rs), scale),
        ),
        // p = p1 + p2 ≤ 18 and s = s1 + s2: the integers' product is the result.
        '*' if all_short => SqlExpr::binary(l.sql.clone(), BinaryOp::Multiply, r.sql.clone()),
        _ => runtime::QM_DEC_OP.call([
            SqlExpr::text(op.to_string()),
            l.sql.clone(),
            SqlExpr::Integer(i64::from(ls)),
            r.sql.clone(),
            SqlExpr::Integer(i64::from(rs)),
            SqlExpr::Integer(i64::from(s)),
            SqlExpr::Integer(i64::from(p)),
        ]),
    };
    Typed::new(sql, ty.clone())
}

/// `sql` multiplied up from scale `from` to `to` (a short decimal's integer).
fn scaled(sql: SqlExpr, from: u32, to: u32) -> SqlExpr {
    if to > from {
        SqlExpr::binary(
            sql,
            BinaryOp::Multiply,
            SqlExpr::Integer(10i64.pow(to - from)),
        )
    } else {
        sql
    }
}

/// `a op b` on exact values at the result's `scale`; `None` when not exact here (division,
/// remainder) or overflowing.
pub fn exact_op(op: char, (a, sa): (i128, u32), (b, sb): (i128, u32), scale: u32) -> Option<i128> {
    let up = |u: i128, from: u32| {
        if scale >= from {
            rescale(u, from, scale)
        } else {
            None
        }
    };
    match op {
        '+' => up(a, sa)?.checked_add(up(b, sb)?),
        '-' => up(a, sa)?.checked_sub(up(b, sb)?),
        '*' => up(a.checked_mul(b)?, sa + sb),
        _ => None,
    }
}

/// `-t` for a decimal.
pub fn negate(t: &Typed) -> Typed {
    let TrinoType::Decimal { precision, scale } = t.ty else {
        return t.clone();
    };
    if let Some(Constant::Decimal(u, _)) = t.constant {
        return literal(-u, precision, scale);
    }
    let sql = if is_short(precision) {
        SqlExpr::Unary(UnaryOp::Negate, Box::new(t.sql.clone()))
    } else {
        runtime::QM_DEC_NEG.call([t.sql.clone()])
    };
    Typed::new(sql, t.ty.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blob_order_is_numeric_order() {
        let values = [
            -(10i128.pow(38) - 1),
            -12345678901234567890,
            -1,
            0,
            1,
            99,
            10i128.pow(38) - 1,
        ];
        for w in values.windows(2) {
            assert!(to_blob(w[0]) < to_blob(w[1]), "{} < {}", w[0], w[1]);
            assert_eq!(from_blob(&to_blob(w[0])), Some(w[0]));
        }
    }

    #[test]
    fn text_and_rounding() {
        assert_eq!(format(-5, 2), "-0.05");
        assert_eq!(format(1230, 2), "12.30");
        assert_eq!(format(7, 0), "7");
        assert_eq!(parse("1.005", 2), Some(101));
        assert_eq!(parse("-1.005", 2), Some(-101));
        assert_eq!(parse(".01", 3), Some(10));
        assert_eq!(parse("1e3", 1), Some(10000));
        assert_eq!(parse("2.5E-1", 1), Some(3));
        assert_eq!(parse("abc", 1), None);
        assert_eq!(parse("1.2.3", 1), None);
        assert_eq!(parse("", 1), None);
        assert_eq!(parse("-", 1), None);
        assert_eq!(rescale(-25, 1, 0), Some(-3));
        assert_eq!(rescale(24, 1, 0), Some(2));
        assert_eq!(divide_half_up(-5, 2), Some(-3));
        assert_eq!(divide_half_up(5, -2), Some(-3));
        assert_eq!(divide_half_up(4, 3), Some(1));
        assert_eq!(divide_half_up(1, 0), None);
        assert_eq!(divide_half_up(i128::MIN, -1), None);
        // TestDecimalCasts.testDoubleToLongDecimalCasts: Double.toString's digits.
        assert_eq!(
            from_double(1234567890123456789012345.0, 0),
            Some(1234567890123456800000000)
        );
        assert_eq!(to_double(5, 2), 0.05);
        assert!(overflows(10i128.pow(38), 38));
        assert!(!overflows(10i128.pow(38) - 1, 38));
    }
}
