//! Numbers: integer division and remainder with Trino's errors, integer range checks, double
//! division, ROUND of integers and doubles (of decimals: decimals.rs), the one-argument math
//! functions, and Java's `Double.toString` that Trino prints a double with.

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::{Value, ValueRef};

use super::{FLAGS, fail, int, num, real};
use crate::udf::define;

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_IABS: SqliteFn = SqliteFn::new("qm_iabs");
pub const QM_JAVA_DOUBLE: SqliteFn = SqliteFn::new("qm_java_double");
pub const QM_ROUND_DOUBLE: SqliteFn = SqliteFn::new("qm_round_double");
pub const QM_ROUND_INTEGER: SqliteFn = SqliteFn::new("qm_round_integer");
pub const QM_FLOOR: SqliteFn = SqliteFn::new("qm_floor");
pub const QM_CEIL: SqliteFn = SqliteFn::new("qm_ceil");
pub const QM_SQRT: SqliteFn = SqliteFn::new("qm_sqrt");
pub const QM_LN: SqliteFn = SqliteFn::new("qm_ln");
pub const QM_LOG10: SqliteFn = SqliteFn::new("qm_log10");
pub const QM_EXP: SqliteFn = SqliteFn::new("qm_exp");
pub const QM_TRUNCATE: SqliteFn = SqliteFn::new("qm_truncate");
pub const QM_POWER: SqliteFn = SqliteFn::new("qm_power");
pub const QM_IDIV: SqliteFn = SqliteFn::new("qm_idiv");
pub const QM_IMOD: SqliteFn = SqliteFn::new("qm_imod");
pub const QM_FDIV: SqliteFn = SqliteFn::new("qm_fdiv");
pub const QM_FMOD: SqliteFn = SqliteFn::new("qm_fmod");
pub const QM_INT: SqliteFn = SqliteFn::new("qm_int");
/// `qm_int_op(a, b, type, op)`: `a op b` (`+`, `-`, `*`) of two integers of `type`, failing
/// as Trino's Math.addExact and friends do, naming the operands.
pub const QM_INT_OP: SqliteFn = SqliteFn::new("qm_int_op");
/// `qm_int_neg(a, type)`: `-a`, failing on the type's least value.
pub const QM_INT_NEG: SqliteFn = SqliteFn::new("qm_int_neg");
pub const QM_AT_LEAST: SqliteFn = SqliteFn::new("qm_at_least");

/// Java's `Double.toString`, which Trino uses to cast a double to varchar.
pub fn java_double(x: f64) -> String {
    querymesh_values::java_number::double_to_string(x)
}

/// MathFunctions.round(double, decimals): Java's `Math.round` of |x|·10^d, divided back, the
/// sign restored; NaN, infinities and values already integral at 10^d unchanged.
fn round_double(x: f64, decimals: i64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let factor = 10f64.powi(decimals.clamp(-400, 400) as i32);
    // From 2^52 on every double is an integer: Trino 476 answers such a value unchanged
    // (round(1E300, 2) is 1E300) rather than saturating at Long.MAX_VALUE.
    if (x * factor).abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    // For v ≥ 0, Math.round (ties toward +∞) is Rust's round (ties away from zero).
    let rounded = |v: f64| v.round().min(i64::MAX as f64);
    if x < 0.0 {
        -(rounded(-x * factor) / factor)
    } else {
        rounded(x * factor) / factor
    }
}

/// MathFunctions.roundLong: for d < 0, the nearest multiple of 10^-d, half away from zero;
/// outside `ty`'s range the result is NUMERIC_VALUE_OUT_OF_RANGE.
fn round_integer(n: i64, decimals: i64, ty: &str) -> rusqlite::Result<i64> {
    if decimals >= 0 {
        return Ok(n);
    }
    let overflow = || {
        fail(
            ErrorName::NumericValueOutOfRange,
            format!("numerical overflow: {n}"),
        )
    };
    let factor = u32::try_from(-decimals)
        .ok()
        .and_then(|e| 10i64.checked_pow(e))
        .ok_or_else(overflow)?;
    let (q, r) = (n / factor, n % factor);
    let q = if r.unsigned_abs() * 2 >= factor.unsigned_abs() {
        q + n.signum()
    } else {
        q
    };
    let rounded = q.checked_mul(factor).ok_or_else(overflow)?;
    let (lo, hi) = match ty {
        "integer" => (i64::from(i32::MIN), i64::from(i32::MAX)),
        "smallint" => (i64::from(i16::MIN), i64::from(i16::MAX)),
        "tinyint" => (i64::from(i8::MIN), i64::from(i8::MAX)),
        _ => (i64::MIN, i64::MAX),
    };
    if rounded < lo || rounded > hi {
        return Err(fail(
            ErrorName::NumericValueOutOfRange,
            format!("Out of range for {ty}: {rounded}"),
        ));
    }
    Ok(rounded)
}

fn unary_math(conn: &Connection, name: &'static str, f: fn(f64) -> f64) -> rusqlite::Result<()> {
    define(conn, name, 1, FLAGS, move |ctx| {
        Ok(num(ctx.get_raw(0)).map_or(Value::Null, |x| real(f(x))))
    })
}

/// Registers the number functions on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    register_division(conn)?;
    register_integer_checks(conn)?;
    register_rounding(conn)?;
    register_math(conn)
}

/// `qm_idiv`, `qm_imod`, `qm_fdiv`, `qm_fmod`: division and remainder (decimals: querymesh-functions/src/udf/decimals.rs).
fn register_division(conn: &Connection) -> rusqlite::Result<()> {
    let division_by_zero = || fail(ErrorName::DivisionByZero, "Division by zero");
    define(conn, QM_IDIV.name(), 2, FLAGS, move |ctx| {
        let (Some(a), Some(b)) = (int(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        if b == 0 {
            return Err(division_by_zero());
        }
        a.checked_div(b).map(Some).ok_or_else(|| {
            fail(
                ErrorName::NumericValueOutOfRange,
                "bigint division overflow",
            )
        })
    })?;
    define(conn, QM_IMOD.name(), 2, FLAGS, move |ctx| {
        let (Some(a), Some(b)) = (int(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        if b == 0 {
            return Err(division_by_zero());
        }
        Ok(Some(a.wrapping_rem(b)))
    })?;
    define(conn, QM_FDIV.name(), 2, FLAGS, |ctx| {
        Ok(match (num(ctx.get_raw(0)), num(ctx.get_raw(1))) {
            (Some(a), Some(b)) => real(a / b),
            _ => Value::Null,
        })
    })?;
    define(conn, QM_FMOD.name(), 2, FLAGS, |ctx| {
        Ok(match (num(ctx.get_raw(0)), num(ctx.get_raw(1))) {
            (Some(a), Some(b)) => real(a % b),
            _ => Value::Null,
        })
    })?;
    Ok(())
}

/// `qm_int` and `qm_at_least`: an integer checked against its type's range or a lower bound.
fn register_integer_checks(conn: &Connection) -> rusqlite::Result<()> {
    // qm_iabs(x, type): MathFunctions.abs of an integer type, whose minimum has no absolute
    // value in the type (SQLite's abs() would fail or widen).
    define(conn, QM_IABS.name(), 2, FLAGS, |ctx| {
        let Some(x) = int(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let ty = ctx.get::<String>(1)?;
        let min = match ty.as_str() {
            "integer" => i64::from(i32::MIN),
            "smallint" => i64::from(i16::MIN),
            "tinyint" => i64::from(i8::MIN),
            _ => i64::MIN,
        };
        if x == min {
            return Err(fail(
                ErrorName::NumericValueOutOfRange,
                format!("Value {min} is out of range for abs({ty})"),
            ));
        }
        Ok(Some(x.abs()))
    })?;
    define(conn, QM_INT.name(), 3, FLAGS, |ctx| {
        let (lo, hi) = match ctx.get::<String>(1)?.as_str() {
            "integer" => (i64::from(i32::MIN), i64::from(i32::MAX)),
            "smallint" => (i64::from(i16::MIN), i64::from(i16::MAX)),
            "tinyint" => (i64::from(i8::MIN), i64::from(i8::MAX)),
            _ => (i64::MIN, i64::MAX),
        };
        match ctx.get_raw(0) {
            ValueRef::Integer(i) if (lo..=hi).contains(&i) => Ok(Some(i)),
            ValueRef::Null => Ok(None),
            // A whole REAL inside the range is an integer a source stored as REAL; SQLite's
            // answer to a 64-bit overflow is a REAL of 2^63 or more, outside every range.
            ValueRef::Real(x)
                if x.fract() == 0.0 && x.abs() < 9.2e18 && (lo..=hi).contains(&(x as i64)) =>
            {
                Ok(Some(x as i64))
            }
            _ => Err(fail(
                ErrorName::NumericValueOutOfRange,
                format!(
                    "{} {} overflow",
                    ctx.get::<String>(1)?,
                    ctx.get::<String>(2)?
                ),
            )),
        }
    })?;
    define(conn, QM_INT_OP.name(), 4, FLAGS, |ctx| {
        let (Some(a), Some(b)) = (whole(ctx.get_raw(0)), whole(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let ty = ctx.get::<String>(2)?;
        let op = ctx.get::<String>(3)?;
        let (result, operation) = match op.as_str() {
            "+" => (a.checked_add(b), "addition"),
            "-" => (a.checked_sub(b), "subtraction"),
            _ => (a.checked_mul(b), "multiplication"),
        };
        match result.filter(|r| in_range(&ty, *r)) {
            Some(r) => Ok(Some(r)),
            None => Err(fail(
                ErrorName::NumericValueOutOfRange,
                format!("{ty} {operation} overflow: {a} {op} {b}"),
            )),
        }
    })?;
    define(conn, QM_INT_NEG.name(), 2, FLAGS, |ctx| {
        let Some(a) = whole(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let ty = ctx.get::<String>(1)?;
        match a.checked_neg().filter(|r| in_range(&ty, *r)) {
            Some(r) => Ok(Some(r)),
            None => Err(fail(
                ErrorName::NumericValueOutOfRange,
                format!("{ty} negation overflow: {a}"),
            )),
        }
    })?;
    define(conn, QM_AT_LEAST.name(), 3, FLAGS, |ctx| {
        match ctx.get_raw(0) {
            ValueRef::Integer(n) if n < ctx.get::<i64>(1)? => Err(fail(
                ErrorName::InvalidFunctionArgument,
                ctx.get::<String>(2)?,
            )),
            ValueRef::Integer(n) => Ok(Some(n)),
            _ => Ok(None),
        }
    })?;
    Ok(())
}

/// `qm_round_double`, `qm_round_integer`: ROUND (of a decimal: querymesh-functions/src/udf/decimals.rs);
/// `qm_java_double`: a double as Java's `Double.toString` writes it, where Trino prints a
/// double that way rather than as its cast to varchar does (render, statistics).
fn register_rounding(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_JAVA_DOUBLE.name(), 1, FLAGS, |ctx| {
        Ok(num(ctx.get_raw(0)).map(java_double))
    })?;
    define(conn, QM_ROUND_DOUBLE.name(), 2, FLAGS, |ctx| {
        Ok(match (num(ctx.get_raw(0)), int(ctx.get_raw(1))) {
            (Some(x), Some(d)) => real(round_double(x, d)),
            _ => Value::Null,
        })
    })?;
    define(conn, QM_ROUND_INTEGER.name(), 3, FLAGS, |ctx| {
        let ty: String = ctx.get(2)?;
        match (int(ctx.get_raw(0)), int(ctx.get_raw(1))) {
            (Some(n), Some(d)) => round_integer(n, d, &ty).map(Some),
            _ => Ok(None),
        }
    })?;
    Ok(())
}

/// `qm_floor` … `qm_truncate` and `qm_power`.
fn register_math(conn: &Connection) -> rusqlite::Result<()> {
    unary_math(conn, QM_FLOOR.name(), f64::floor)?;
    unary_math(conn, QM_CEIL.name(), f64::ceil)?;
    unary_math(conn, QM_SQRT.name(), f64::sqrt)?;
    unary_math(conn, QM_LN.name(), f64::ln)?;
    unary_math(conn, QM_LOG10.name(), f64::log10)?;
    unary_math(conn, QM_EXP.name(), f64::exp)?;
    unary_math(conn, QM_TRUNCATE.name(), f64::trunc)?;
    define(conn, QM_POWER.name(), 2, FLAGS, |ctx| {
        Ok(match (num(ctx.get_raw(0)), num(ctx.get_raw(1))) {
            (Some(a), Some(b)) => real(a.powf(b)),
            _ => Value::Null,
        })
    })?;
    Ok(())
}

/// An integer operand: an INTEGER, or a whole REAL a source stored as one; `None` for NULL.
fn whole(value: ValueRef<'_>) -> Option<i64> {
    match value {
        ValueRef::Integer(i) => Some(i),
        ValueRef::Real(x) if x.fract() == 0.0 && x.abs() < 9.2e18 => Some(x as i64),
        _ => None,
    }
}

/// Whether `value` fits the integer type named `ty`.
fn in_range(ty: &str, value: i64) -> bool {
    match ty {
        "integer" => i32::try_from(value).is_ok(),
        "smallint" => i16::try_from(value).is_ok(),
        "tinyint" => i8::try_from(value).is_ok(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_double_printing() {
        assert_eq!(java_double(17.0), "17.0");
        assert_eq!(java_double(532348211.65), "5.3234821165E8");
        assert_eq!(java_double(1e7), "1.0E7");
        assert_eq!(java_double(0.0001), "1.0E-4");
    }
}
