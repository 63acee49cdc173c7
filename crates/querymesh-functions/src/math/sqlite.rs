//! The rest of Trino's math library (MathFunctions) and its bitwise functions
//! (BitwiseFunctions): trigonometry, logarithms, floating point tests, base conversion,
//! random numbers and shifts, computed as Java computes them.

use querymesh_values::decimal;
use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;
use rusqlite::types::Value;

use crate::udf::{FLAGS, define, fail, int, num, real, text};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_DEC_TRUNCATE: SqliteFn = SqliteFn::new("qm_dec_truncate");
pub const QM_ACOS: SqliteFn = SqliteFn::new("qm_acos");
pub const QM_ASIN: SqliteFn = SqliteFn::new("qm_asin");
pub const QM_ATAN: SqliteFn = SqliteFn::new("qm_atan");
pub const QM_COS: SqliteFn = SqliteFn::new("qm_cos");
pub const QM_COSH: SqliteFn = SqliteFn::new("qm_cosh");
pub const QM_SIN: SqliteFn = SqliteFn::new("qm_sin");
pub const QM_SINH: SqliteFn = SqliteFn::new("qm_sinh");
pub const QM_TAN: SqliteFn = SqliteFn::new("qm_tan");
pub const QM_TANH: SqliteFn = SqliteFn::new("qm_tanh");
pub const QM_CBRT: SqliteFn = SqliteFn::new("qm_cbrt");
pub const QM_DEGREES: SqliteFn = SqliteFn::new("qm_degrees");
pub const QM_RADIANS: SqliteFn = SqliteFn::new("qm_radians");
pub const QM_LOG2: SqliteFn = SqliteFn::new("qm_log2");
pub const QM_LOG: SqliteFn = SqliteFn::new("qm_log");
pub const QM_ATAN2: SqliteFn = SqliteFn::new("qm_atan2");
pub const QM_FABS: SqliteFn = SqliteFn::new("qm_fabs");
pub const QM_SIGNUM: SqliteFn = SqliteFn::new("qm_signum");
pub const QM_IS_NAN: SqliteFn = SqliteFn::new("qm_is_nan");
pub const QM_IS_FINITE: SqliteFn = SqliteFn::new("qm_is_finite");
pub const QM_IS_INFINITE: SqliteFn = SqliteFn::new("qm_is_infinite");
pub const QM_NAN: SqliteFn = SqliteFn::new("qm_nan");
pub const QM_TO_BASE: SqliteFn = SqliteFn::new("qm_to_base");
pub const QM_FROM_BASE: SqliteFn = SqliteFn::new("qm_from_base");
pub const QM_RANDOM: SqliteFn = SqliteFn::new("qm_random");
pub const QM_RANDOM_BELOW: SqliteFn = SqliteFn::new("qm_random_below");
pub const QM_RANDOM_BETWEEN: SqliteFn = SqliteFn::new("qm_random_between");
pub const QM_BIT_COUNT: SqliteFn = SqliteFn::new("qm_bit_count");
pub const QM_BITWISE_LEFT_SHIFT: SqliteFn = SqliteFn::new("qm_bitwise_left_shift");
pub const QM_BITWISE_RIGHT_SHIFT: SqliteFn = SqliteFn::new("qm_bitwise_right_shift");
pub const QM_BITWISE_RIGHT_SHIFT_ARITHMETIC: SqliteFn =
    SqliteFn::new("qm_bitwise_right_shift_arithmetic");

fn unary(conn: &Connection, name: &'static str, f: fn(f64) -> f64) -> rusqlite::Result<()> {
    define(conn, name, 1, FLAGS, move |ctx| {
        Ok(num(ctx.get_raw(0)).map_or(Value::Null, |x| real(f(x))))
    })
}

fn binary(conn: &Connection, name: &'static str, f: fn(f64, f64) -> f64) -> rusqlite::Result<()> {
    define(conn, name, 2, FLAGS, move |ctx| {
        Ok(match (num(ctx.get_raw(0)), num(ctx.get_raw(1))) {
            (Some(a), Some(b)) => real(f(a, b)),
            _ => Value::Null,
        })
    })
}

fn test(conn: &Connection, name: &'static str, f: fn(f64) -> bool) -> rusqlite::Result<()> {
    define(conn, name, 1, FLAGS, move |ctx| {
        Ok(num(ctx.get_raw(0)).map(f))
    })
}

fn invalid(text: impl Into<String>) -> rusqlite::Error {
    fail(ErrorName::InvalidFunctionArgument, text)
}

/// MathFunctions.checkRadix: Character.MIN_RADIX to MAX_RADIX.
fn radix(r: i64) -> rusqlite::Result<u32> {
    u32::try_from(r)
        .ok()
        .filter(|r| (2..=36).contains(r))
        .ok_or_else(|| invalid("Radix must be between 2 and 36"))
}

/// Java's `Long.toString(value, radix)`: lowercase digits, a leading `-` when negative.
fn to_base(value: i64, radix: u32) -> String {
    let mut n = value.unsigned_abs();
    let mut digits = Vec::new();
    loop {
        let d = (n % u64::from(radix)) as u32;
        digits.push(char::from_digit(d, radix).unwrap_or('?'));
        n /= u64::from(radix);
        if n == 0 {
            break;
        }
    }
    if value < 0 {
        digits.push('-');
    }
    digits.iter().rev().collect()
}

/// BitwiseFunctions.bitCount.
fn bit_count(n: i64, bits: i64) -> rusqlite::Result<i64> {
    if bits == 64 {
        return Ok(i64::from(n.count_ones()));
    }
    if !(2..=64).contains(&bits) {
        return Err(invalid(format!(
            "Bits specified in bit_count must be between 2 and 64, got {bits}"
        )));
    }
    let low = (1i64 << (bits - 1)) - 1;
    if n > low || n < !low {
        return Err(invalid(format!(
            "Number must be representable with the bits specified. {n} cannot be represented with {bits} bits"
        )));
    }
    Ok(i64::from((n & ((1i64 << bits) - 1)).count_ones()))
}

/// The mask of a `bits`-wide integer type (64: all of them).
fn mask(bits: i64) -> i64 {
    if bits >= 64 { -1 } else { (1i64 << bits) - 1 }
}

/// BitwiseFunctions.bitwiseLeftShift*: Java's `<<` (the shift taken mod 64, 64 and more
/// give 0), the result's sign bit within the type extended.
fn left_shift(value: i64, shift: i64, bits: i64) -> i64 {
    if shift >= 64 {
        return 0;
    }
    let shifted = value.wrapping_shl((shift & 63) as u32);
    if bits >= 64 {
        return shifted;
    }
    let sign = 1i64 << (bits - 1);
    if shifted & sign != 0 {
        shifted | !mask(bits)
    } else {
        shifted & mask(bits)
    }
}

/// BitwiseFunctions.bitwiseRightShift*: Java's `>>>` of the value's bits within its type.
fn right_shift(value: i64, shift: i64, bits: i64) -> i64 {
    if shift >= 64 {
        return 0;
    }
    if shift == 0 {
        return value;
    }
    (((value & mask(bits)) as u64) >> (shift & 63)) as i64
}

/// BitwiseFunctions.bitwiseRightShiftArithmetic*: Java's `>>`.
fn right_shift_arithmetic(value: i64, shift: i64) -> i64 {
    if shift >= 64 {
        return if value >= 0 { 0 } else { -1 };
    }
    value >> (shift & 63)
}

/// MathFunctions.TruncateN of the unscaled `u` at scale `s`: the digits after the `d`-th
/// decimal place set to zero (toward zero); all of them when none of the `p - s` integer
/// digits survive.
fn truncate_decimal(u: i128, p: i64, s: i64, d: i64) -> i128 {
    if p - s + d <= 0 {
        return 0;
    }
    if d >= s {
        return u;
    }
    match u32::try_from(s - d).ok().and_then(decimal::ten_to) {
        Some(factor) => u - u % factor,
        None => 0,
    }
}

/// Registers the math and bitwise functions on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // qm_dec_truncate(x, scale, digits, precision): the result has x's type.
    define(conn, QM_DEC_TRUNCATE.name(), 4, FLAGS, |ctx| {
        let (Some(u), Some(d)) = (decimal::read(ctx.get_raw(0)), int(ctx.get_raw(2))) else {
            return Ok(Value::Null);
        };
        let (s, p): (i64, i64) = (ctx.get(1)?, ctx.get(3)?);
        let p8 = u8::try_from(p).unwrap_or(38);
        Ok(decimal::to_sqlite(truncate_decimal(u, p, s, d), p8))
    })?;
    register_doubles(conn)?;
    register_bases(conn)?;
    register_random(conn)?;
    register_bitwise(conn)
}

fn register_doubles(conn: &Connection) -> rusqlite::Result<()> {
    unary(conn, QM_ACOS.name(), f64::acos)?;
    unary(conn, QM_ASIN.name(), f64::asin)?;
    unary(conn, QM_ATAN.name(), f64::atan)?;
    unary(conn, QM_COS.name(), f64::cos)?;
    unary(conn, QM_COSH.name(), f64::cosh)?;
    unary(conn, QM_SIN.name(), f64::sin)?;
    unary(conn, QM_SINH.name(), f64::sinh)?;
    unary(conn, QM_TAN.name(), f64::tan)?;
    unary(conn, QM_TANH.name(), f64::tanh)?;
    unary(conn, QM_CBRT.name(), f64::cbrt)?;
    // Math.toDegrees / toRadians multiply by the same constants as Rust's.
    unary(conn, QM_DEGREES.name(), f64::to_degrees)?;
    unary(conn, QM_RADIANS.name(), f64::to_radians)?;
    // MathFunctions.log2 and log divide natural logarithms (not Math's log2).
    unary(conn, QM_LOG2.name(), |x| x.ln() / 2f64.ln())?;
    binary(conn, QM_LOG.name(), |b, x| x.ln() / b.ln())?;
    binary(conn, QM_ATAN2.name(), f64::atan2)?;
    unary(conn, QM_FABS.name(), f64::abs)?;
    // Java's Math.signum: NaN and signed zeros are themselves (Rust's signum answers ±1).
    unary(conn, QM_SIGNUM.name(), |x| {
        if x == 0.0 || x.is_nan() {
            x
        } else {
            x.signum()
        }
    })?;
    test(conn, QM_IS_NAN.name(), f64::is_nan)?;
    test(conn, QM_IS_FINITE.name(), f64::is_finite)?;
    test(conn, QM_IS_INFINITE.name(), f64::is_infinite)?;
    define(conn, QM_NAN.name(), 0, FLAGS, |_| Ok(real(f64::NAN)))?;
    Ok(())
}

/// `qm_to_base`, `qm_from_base`: MathFunctions.toBase / fromBase.
fn register_bases(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_TO_BASE.name(), 2, FLAGS, |ctx| {
        match (int(ctx.get_raw(0)), int(ctx.get_raw(1))) {
            (Some(v), Some(r)) => Ok(Some(to_base(v, radix(r)?))),
            _ => Ok(None),
        }
    })?;
    define(conn, QM_FROM_BASE.name(), 2, FLAGS, |ctx| {
        let (Some(s), Some(r)) = (text(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        // Long.parseLong: an optional sign, then at least one digit, within 64 bits; Rust's
        // from_str_radix reads the same.
        i64::from_str_radix(&s, radix(r)?)
            .map(Some)
            .map_err(|_| invalid(format!("Not a valid base-{r} number: {s}")))
    })?;
    Ok(())
}

/// `qm_random`, `qm_random_below`, `qm_random_between`: not deterministic, so SQLite calls
/// them once per row.
fn register_random(conn: &Connection) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8;
    define(conn, QM_RANDOM.name(), 0, flags, |_| {
        Ok(Value::Real(rand::random::<f64>()))
    })?;
    define(conn, QM_RANDOM_BELOW.name(), 1, flags, |ctx| {
        let Some(n) = int(ctx.get_raw(0)) else {
            return Ok(None);
        };
        if n <= 0 {
            return Err(invalid("bound must be positive"));
        }
        Ok(Some(rand::random_range(0..n)))
    })?;
    define(conn, QM_RANDOM_BETWEEN.name(), 2, flags, |ctx| {
        let (Some(m), Some(n)) = (int(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        if m >= n {
            return Err(invalid("start value must be less than stop value"));
        }
        Ok(Some(rand::random_range(m..n)))
    })?;
    Ok(())
}

fn register_bitwise(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_BIT_COUNT.name(), 2, FLAGS, |ctx| {
        match (int(ctx.get_raw(0)), int(ctx.get_raw(1))) {
            (Some(n), Some(bits)) => bit_count(n, bits).map(Some),
            _ => Ok(None),
        }
    })?;
    // (value, shift, bits of the value's type)
    define(conn, QM_BITWISE_LEFT_SHIFT.name(), 3, FLAGS, |ctx| {
        let bits: i64 = ctx.get(2)?;
        Ok(match (int(ctx.get_raw(0)), int(ctx.get_raw(1))) {
            (Some(v), Some(s)) => Some(left_shift(v, s, bits)),
            _ => None,
        })
    })?;
    define(conn, QM_BITWISE_RIGHT_SHIFT.name(), 3, FLAGS, |ctx| {
        let bits: i64 = ctx.get(2)?;
        Ok(match (int(ctx.get_raw(0)), int(ctx.get_raw(1))) {
            (Some(v), Some(s)) => Some(right_shift(v, s, bits)),
            _ => None,
        })
    })?;
    define(
        conn,
        QM_BITWISE_RIGHT_SHIFT_ARITHMETIC.name(),
        2,
        FLAGS,
        |ctx| {
            Ok(match (int(ctx.get_raw(0)), int(ctx.get_raw(1))) {
                (Some(v), Some(s)) => Some(right_shift_arithmetic(v, s)),
                _ => None,
            })
        },
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_long_to_string_in_a_radix() {
        assert_eq!(to_base(2, 2), "10");
        assert_eq!(to_base(-2, 2), "-10");
        assert_eq!(to_base(0, 16), "0");
        assert_eq!(to_base(i64::MIN, 16), "-8000000000000000");
        assert_eq!(to_base(35, 36), "z");
    }

    #[test]
    fn shifts_within_the_type() {
        // TestBitwiseFunctions.testBitwiseLeftShift / RightShift.
        assert_eq!(left_shift(7, 2, 8), 28);
        assert_eq!(left_shift(-7, 2, 8), -28);
        assert_eq!(left_shift(1, 7, 8), -128);
        assert_eq!(left_shift(1, 8, 8), 0);
        assert_eq!(right_shift(-8, 1, 8), 124);
        assert_eq!(right_shift(-8, 1, 64), i64::MAX - 3);
        assert_eq!(right_shift_arithmetic(-8, 1), -4);
        assert_eq!(right_shift_arithmetic(-8, 70), -1);
    }
}
