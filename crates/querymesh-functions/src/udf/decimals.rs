//! The `qm_dec_*` functions: exact decimal arithmetic, rounding, conversions, casts and the
//! sum / avg aggregates on the representation querymesh-values/src/decimal.rs describes (an INTEGER for a
//! short decimal, a 16-byte BLOB for a long one), in i128 with checked arithmetic.

use querymesh_values::decimal::{
    self, MAX_PRECISION, divide_half_up, format, overflows, read, rescale, to_sqlite,
};
use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::runtime;
use rusqlite::functions::{Aggregate, Context, WindowAggregate};
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error};

use super::{FLAGS, fail, java_double};
use crate::udf::{define, define_window};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_DEC_ABS: SqliteFn = SqliteFn::new("qm_dec_abs");
pub const QM_DEC_SUM: SqliteFn = SqliteFn::new("qm_dec_sum");
pub const QM_DEC_AVG: SqliteFn = SqliteFn::new("qm_dec_avg");
pub const QM_DEC_SIGN: SqliteFn = SqliteFn::new("qm_dec_sign");
pub const QM_DEC_ROUND: SqliteFn = SqliteFn::new("qm_dec_round");
pub const QM_DEC_INTEGRAL: SqliteFn = SqliteFn::new("qm_dec_integral");

/// DecimalOperators / DecimalSumAggregation: a result past 38 digits.
fn overflow() -> Error {
    fail(ErrorName::NumericValueOutOfRange, "Decimal overflow")
}

fn small(ctx: &Context<'_>, i: usize) -> rusqlite::Result<u32> {
    let n: i64 = ctx.get(i)?;
    Ok(n.clamp(0, i64::from(MAX_PRECISION)) as u32)
}

fn precision(ctx: &Context<'_>, i: usize) -> rusqlite::Result<u8> {
    Ok(small(ctx, i)?.max(1) as u8)
}

/// The checked result of an operation as a decimal of `p` digits.
fn result(u: Option<i128>, p: u8) -> rusqlite::Result<Value> {
    match u {
        Some(u) if !overflows(u, u32::from(p)) => Ok(to_sqlite(u, p)),
        _ => Err(overflow()),
    }
}

/// `a op b` at the result's scale `s` (DecimalOperators: add/subtract rescale both sides,
/// multiply adds the scales, divide rounds HALF_UP, modulus keeps the dividend's sign).
fn operate(op: &str, (a, sa): (i128, u32), (b, sb): (i128, u32), s: u32) -> rusqlite::Result<i128> {
    let up = |u: i128, from: u32| rescale(u, from, s).ok_or_else(overflow);
    match op {
        "+" => up(a, sa)?.checked_add(up(b, sb)?).ok_or_else(overflow),
        "-" => up(a, sa)?.checked_sub(up(b, sb)?).ok_or_else(overflow),
        "*" => {
            let product = a.checked_mul(b).ok_or_else(overflow)?;
            rescale(product, sa + sb, s).ok_or_else(overflow)
        }
        "/" => {
            if b == 0 {
                return Err(fail(ErrorName::DivisionByZero, "Division by zero"));
            }
            // a·10^(s − sa + sb) / b, rounded HALF_UP, is the quotient at scale s; the
            // dividend may pass 128 bits (as Trino's Int128 division allows), so it is 256.
            match (s + sb).checked_sub(sa) {
                Some(k) => scaled_quotient(a, k, b).ok_or_else(overflow),
                None => {
                    let a = rescale(a, sa, s + sb).ok_or_else(overflow)?;
                    divide_half_up(a, b).ok_or_else(overflow)
                }
            }
        }
        _ => {
            if b == 0 {
                return Err(fail(ErrorName::DivisionByZero, "Division by zero"));
            }
            let (a, b) = (up(a, sa)?, up(b, sb)?);
            a.checked_rem(b).ok_or_else(overflow)
        }
    }
}

/// The 256-bit product of two u128s as (high, low).
fn wide_mul(a: u128, b: u128) -> (u128, u128) {
    let (a1, a0) = (a >> 64, a & u128::from(u64::MAX));
    let (b1, b0) = (b >> 64, b & u128::from(u64::MAX));
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    let mid = (p00 >> 64) + (p01 & u128::from(u64::MAX)) + (p10 & u128::from(u64::MAX));
    let low = (p00 & u128::from(u64::MAX)) | (mid << 64);
    let high = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (high, low)
}

/// (high·2^128 + low) / d and the remainder, for d < 2^127; `None` when the quotient
/// needs more than 128 bits.
fn wide_div(high: u128, low: u128, d: u128) -> Option<(u128, u128)> {
    if d == 0 || high >= d {
        return None;
    }
    let (mut q, mut r) = (0u128, high);
    for i in (0..128).rev() {
        // r < d < 2^127, so the shift cannot lose a bit.
        r = (r << 1) | ((low >> i) & 1);
        q <<= 1;
        if r >= d {
            r -= d;
            q |= 1;
        }
    }
    Some((q, r))
}

/// a·10^k / b rounded HALF_UP, through 256 bits; `None` when it does not fit i128.
fn scaled_quotient(a: i128, k: u32, b: i128) -> Option<i128> {
    let (high, low) = wide_mul(a.unsigned_abs(), decimal::ten_to(k)? as u128);
    let d = b.unsigned_abs();
    if d >= 1u128 << 127 {
        return None;
    }
    let (q, r) = wide_div(high, low, d)?;
    let q = if r >= d - r { q.checked_add(1)? } else { q };
    let q = i128::try_from(q).ok()?;
    Some(if (a < 0) != (b < 0) { -q } else { q })
}

/// ROUND(x, d) HALF_UP on u at scale s, the result at scale `out` (RoundN keeps s, Round
/// makes 0).
fn round(u: i128, s: u32, d: i64, out: u32) -> Option<i128> {
    let d = d.clamp(-(i64::from(MAX_PRECISION) + 1), i64::from(s));
    let kept = if d >= i64::from(s) {
        u
    } else {
        let k = u32::try_from(i64::from(s) - d).ok()?;
        if k > MAX_PRECISION {
            0
        } else {
            let factor = decimal::ten_to(k)?;
            divide_half_up(u, factor)?.checked_mul(factor)?
        }
    };
    rescale(kept, s, out)
}

/// floor, ceil and truncate of u at scale s, as an integer (scale 0).
fn integral(u: i128, s: u32, mode: &str) -> Option<i128> {
    let factor = decimal::ten_to(s)?;
    let (q, r) = (u / factor, u % factor);
    Some(match mode {
        "floor" if r < 0 => q - 1,
        "ceil" if r > 0 => q + 1,
        _ => q,
    })
}

/// `kind`'s name as Trino's messages write it (`DECIMAL(12, 2)`, `BIGINT`, `VARCHAR`).
fn shown_kind(kind: &str) -> String {
    match kind.split_once(':') {
        Some(("decimal", arg)) => {
            let (s, p) = super::cast::decimal_kind(arg);
            format!("DECIMAL({p}, {s})")
        }
        Some((k, _)) => k.to_uppercase(),
        None => kind.to_uppercase(),
    }
}

/// CAST between a decimal and another type, when `from` or `to` is a decimal kind
/// (`decimal:scale:precision`); `None` leaves the cast to cast.rs.
pub(super) fn cast(value: ValueRef<'_>, from: &str, to: &str) -> Option<rusqlite::Result<Value>> {
    let kind_of = |k: &str| k.split_once(':').map_or(k, |(k, _)| k).to_string();
    let (from_kind, to_kind) = (kind_of(from), kind_of(to));
    if to_kind == "decimal" {
        let arg = to.split_once(':').map_or("", |(_, a)| a);
        let (s, p) = super::cast::decimal_kind(arg);
        return Some(to_decimal(value, from, &from_kind, s as u32, p as u8));
    }
    if from_kind != "decimal" {
        return None;
    }
    let arg = from.split_once(':').map_or("", |(_, a)| a);
    let (s, _) = super::cast::decimal_kind(arg);
    let s = s as u32;
    let u = read(value)?;
    let text = format(u, s);
    Some(match to_kind.as_str() {
        "bigint" | "integer" | "smallint" | "tinyint" => {
            let (lo, hi) = match to_kind.as_str() {
                "bigint" => (i128::from(i64::MIN), i128::from(i64::MAX)),
                "integer" => (i128::from(i32::MIN), i128::from(i32::MAX)),
                "smallint" => (i128::from(i16::MIN), i128::from(i16::MAX)),
                _ => (i128::from(i8::MIN), i128::from(i8::MAX)),
            };
            // DecimalCasts rounds HALF_UP ("Cannot cast '…' to TINYINT" past the range).
            match rescale(u, s, 0).filter(|n| (lo..=hi).contains(n)) {
                Some(n) => Ok(Value::Integer(n as i64)),
                None => Err(fail(
                    ErrorName::InvalidCastArgument,
                    format!("Cannot cast '{text}' to {}", to_kind.to_uppercase()),
                )),
            }
        }
        "double" => Ok(Value::Real(decimal::to_double(u, s))),
        "real" => Ok(Value::Real(f64::from(
            format!("{u}e-{s}").parse::<f32>().unwrap_or(f32::NAN),
        ))),
        "boolean" => Ok(Value::Integer(i64::from(u != 0))),
        "varchar" => {
            let limit = to
                .split_once(':')
                .and_then(|(_, n)| n.parse::<usize>().ok());
            match limit {
                Some(n) if text.chars().count() > n => Err(fail(
                    ErrorName::InvalidCastArgument,
                    format!("Value {text} cannot be represented as varchar({n})"),
                )),
                _ => Ok(Value::Text(text)),
            }
        }
        _ => Err(fail(
            ErrorName::NotSupported,
            format!("Cannot cast decimal to {to_kind}"),
        )),
    })
}

/// CAST(value AS decimal(p, s)) from the analysed kind `from` (TestDecimalCasts' messages).
fn to_decimal(
    value: ValueRef<'_>,
    from: &str,
    from_kind: &str,
    s: u32,
    p: u8,
) -> rusqlite::Result<Value> {
    if matches!(value, ValueRef::Null) {
        return Ok(Value::Null);
    }
    let target = format!("DECIMAL({p}, {s})");
    let cannot = |shown: &str| {
        fail(
            ErrorName::InvalidCastArgument,
            format!("Cannot cast {} '{shown}' to {target}", shown_kind(from)),
        )
    };
    let fits = |u: Option<i128>| u.filter(|u| !overflows(*u, u32::from(p)));
    let u = match from_kind {
        "decimal" => {
            let (fs, _) = super::cast::decimal_kind(from.split_once(':').map_or("", |(_, a)| a));
            let u = read(value).ok_or_else(|| cannot(""))?;
            fits(rescale(u, fs as u32, s)).ok_or_else(|| cannot(&format(u, fs as u32)))?
        }
        "varchar" => {
            let text = crate::udf::text(value).unwrap_or_default();
            let not_number = || {
                fail(
                    ErrorName::InvalidCastArgument,
                    format!("Cannot cast VARCHAR '{text}' to {target}. Value is not a number."),
                )
            };
            // A syntactically valid number too large for i128 is too large for 38 digits.
            // Unlike the integer casts, Trino's decimal parser takes no surrounding spaces
            // (`CAST(' 12.5 ' AS decimal(4, 1))` is not a number).
            let t = text.as_str();
            if t.trim() != t {
                return Err(not_number());
            }
            let u = decimal::parse(t, s);
            if u.is_none() && !looks_numeric(t) {
                return Err(not_number());
            }
            fits(u).ok_or_else(|| {
                fail(
                    ErrorName::InvalidCastArgument,
                    format!("Cannot cast VARCHAR '{text}' to {target}. Value too large."),
                )
            })?
        }
        "double" | "real" => {
            let x = super::num(value).unwrap_or(f64::NAN);
            let (u, shown) = if from_kind == "real" {
                let f = x as f32;
                let u = f
                    .is_finite()
                    .then(|| decimal::parse(&format!("{f:e}"), s))
                    .flatten();
                (u, querymesh_values::java_number::float_to_string(f))
            } else {
                (decimal::from_double(x, s), java_double(x))
            };
            // What fits in Trino's 128-bit value but not in 38 digits fails on rescaling,
            // past the precision check ("Decimal overflow": CAST(1E38 AS decimal(38, 0))).
            if u.is_some_and(|u| overflows(u, 38)) {
                return Err(fail(ErrorName::NumericValueOutOfRange, "Decimal overflow"));
            }
            fits(u).ok_or_else(|| cannot(&shown))?
        }
        "boolean" => {
            let b = super::int(value).unwrap_or(0) != 0;
            fits(rescale(i128::from(b), 0, s)).ok_or_else(|| cannot(&b.to_string()))?
        }
        _ => {
            let n = read(value).ok_or_else(|| cannot(""))?;
            fits(rescale(n, 0, s)).ok_or_else(|| cannot(&n.to_string()))?
        }
    };
    Ok(to_sqlite(u, p))
}

/// Whether a text has a number's shape (digits, one point, a sign, an exponent).
fn looks_numeric(t: &str) -> bool {
    let body = t.trim_start_matches(['-', '+']);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    !(whole.is_empty() && fraction.is_empty())
        && whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
        && exponent.is_none_or(|e| e.trim_start_matches(['-', '+']).parse::<u64>().is_ok())
}

/// sum(decimal(p, s)) → decimal(38, s) (DecimalSumAggregation), also over a window.
struct Sum;

/// `qm_dec_sum` over `values` at once (a frame computed per row, window/rows_frame.rs).
pub(crate) fn sum_of(values: &[ValueRef<'_>]) -> rusqlite::Result<Value> {
    let mut total: Option<i128> = None;
    for v in values {
        if let Some(u) = read(*v) {
            total = Some(total.unwrap_or(0).checked_add(u).ok_or_else(overflow)?);
        }
    }
    match total {
        Some(u) => result(Some(u), 38),
        None => Ok(Value::Null),
    }
}

impl Aggregate<Option<i128>, Value> for Sum {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<Option<i128>> {
        Ok(None)
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Option<i128>) -> rusqlite::Result<()> {
        if let Some(u) = read(ctx.get_raw(0)) {
            *acc = Some(acc.unwrap_or(0).checked_add(u).ok_or_else(overflow)?);
        }
        Ok(())
    }

    fn finalize(&self, _: &mut Context<'_>, acc: Option<Option<i128>>) -> rusqlite::Result<Value> {
        match acc.flatten() {
            Some(u) => result(Some(u), 38),
            None => Ok(Value::Null),
        }
    }
}

impl WindowAggregate<Option<i128>, Value> for Sum {
    fn value(&self, acc: Option<&mut Option<i128>>) -> rusqlite::Result<Value> {
        match acc.and_then(|a| *a) {
            Some(u) => result(Some(u), 38),
            None => Ok(Value::Null),
        }
    }

    fn inverse(&self, ctx: &mut Context<'_>, acc: &mut Option<i128>) -> rusqlite::Result<()> {
        if let Some(u) = read(ctx.get_raw(0)) {
            *acc = Some(acc.unwrap_or(0).checked_sub(u).ok_or_else(overflow)?);
        }
        Ok(())
    }
}

/// avg(decimal(p, s)) → decimal(p, s): the sum divided by the count, HALF_UP
/// (DecimalAverageAggregation). `qm_dec_avg(x, p)` answers in p's representation; the
/// one-argument form, which SQLite's DISTINCT needs, answers a long decimal's BLOB that
/// `qm_dec_rescale` then gives p's.
struct Average {
    with_precision: bool,
}

struct Running {
    sum: i128,
    count: i128,
    precision: u8,
}

impl Running {
    fn average(&self) -> rusqlite::Result<Value> {
        if self.count == 0 {
            return Ok(Value::Null);
        }
        result(divide_half_up(self.sum, self.count), self.precision)
    }
}

impl Aggregate<Running, Value> for Average {
    fn init(&self, ctx: &mut Context<'_>) -> rusqlite::Result<Running> {
        Ok(Running {
            sum: 0,
            count: 0,
            precision: if self.with_precision {
                precision(ctx, 1)?
            } else {
                38
            },
        })
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Running) -> rusqlite::Result<()> {
        if let Some(u) = read(ctx.get_raw(0)) {
            acc.sum = acc.sum.checked_add(u).ok_or_else(overflow)?;
            acc.count += 1;
        }
        Ok(())
    }

    fn finalize(&self, _: &mut Context<'_>, acc: Option<Running>) -> rusqlite::Result<Value> {
        acc.map_or(Ok(Value::Null), |a| a.average())
    }
}

impl WindowAggregate<Running, Value> for Average {
    fn value(&self, acc: Option<&mut Running>) -> rusqlite::Result<Value> {
        acc.map_or(Ok(Value::Null), |a| a.average())
    }

    fn inverse(&self, ctx: &mut Context<'_>, acc: &mut Running) -> rusqlite::Result<()> {
        if let Some(u) = read(ctx.get_raw(0)) {
            acc.sum = acc.sum.checked_sub(u).ok_or_else(overflow)?;
            acc.count -= 1;
        }
        Ok(())
    }
}

/// Registers the `qm_dec_*` functions on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // qm_dec_rescale(x, from scale, to scale, to precision): an implicit widening.
    define(conn, runtime::QM_DEC_RESCALE.name(), 4, FLAGS, |ctx| {
        let Some(u) = read(ctx.get_raw(0)) else {
            return Ok(Value::Null);
        };
        result(
            rescale(u, small(ctx, 1)?, small(ctx, 2)?),
            precision(ctx, 3)?,
        )
    })?;
    // qm_dec_op(op, a, a's scale, b, b's scale, scale, precision).
    define(conn, runtime::QM_DEC_OP.name(), 7, FLAGS, |ctx| {
        let (Some(a), Some(b)) = (read(ctx.get_raw(1)), read(ctx.get_raw(3))) else {
            return Ok(Value::Null);
        };
        let op: String = ctx.get(0)?;
        let s = small(ctx, 5)?;
        let u = operate(&op, (a, small(ctx, 2)?), (b, small(ctx, 4)?), s)?;
        result(Some(u), precision(ctx, 6)?)
    })?;
    define(conn, runtime::QM_DEC_NEG.name(), 1, FLAGS, |ctx| {
        Ok(read(ctx.get_raw(0)).map_or(Value::Null, |u| to_sqlite(-u, 38)))
    })?;
    // qm_dec_abs(x, precision).
    define(conn, QM_DEC_ABS.name(), 2, FLAGS, |ctx| {
        let Some(u) = read(ctx.get_raw(0)) else {
            return Ok(Value::Null);
        };
        result(Some(u.abs()), precision(ctx, 1)?)
    })?;
    define(conn, QM_DEC_SIGN.name(), 1, FLAGS, |ctx| {
        Ok(read(ctx.get_raw(0)).map(|u| u.signum() as i64))
    })?;
    // qm_dec_to_double(x, scale, as real).
    define(conn, runtime::QM_DEC_TO_DOUBLE.name(), 3, FLAGS, |ctx| {
        let Some(u) = read(ctx.get_raw(0)) else {
            return Ok(Value::Null);
        };
        let s = small(ctx, 1)?;
        let real: bool = ctx.get(2)?;
        Ok(Value::Real(if real {
            f64::from(format!("{u}e-{s}").parse::<f32>().unwrap_or(f32::NAN))
        } else {
            decimal::to_double(u, s)
        }))
    })?;
    // qm_dec_round(x, scale, digits, result scale, result precision).
    define(conn, QM_DEC_ROUND.name(), 5, FLAGS, |ctx| {
        let (Some(u), Some(d)) = (read(ctx.get_raw(0)), super::int(ctx.get_raw(2))) else {
            return Ok(Value::Null);
        };
        let rounded = round(u, small(ctx, 1)?, d, small(ctx, 3)?);
        result(rounded, precision(ctx, 4)?)
    })?;
    // qm_dec_integral(x, scale, 'floor' | 'ceil' | 'truncate', result precision).
    define(conn, QM_DEC_INTEGRAL.name(), 4, FLAGS, |ctx| {
        let Some(u) = read(ctx.get_raw(0)) else {
            return Ok(Value::Null);
        };
        let mode: String = ctx.get(2)?;
        result(integral(u, small(ctx, 1)?, &mode), precision(ctx, 3)?)
    })?;
    // The element form of a long decimal (its digits) and back.
    define(conn, runtime::QM_DEC_DIGITS.name(), 1, FLAGS, |ctx| {
        Ok(read(ctx.get_raw(0)).map(|u| u.to_string()))
    })?;
    define(conn, runtime::QM_DEC_OF_DIGITS.name(), 1, FLAGS, |ctx| {
        Ok(read(ctx.get_raw(0)).map_or(Value::Null, |u| to_sqlite(u, 38)))
    })?;
    let window = FLAGS;
    define_window(conn, QM_DEC_SUM.name(), 1, window, Sum)?;
    define_window(
        conn,
        QM_DEC_AVG.name(),
        1,
        window,
        Average {
            with_precision: false,
        },
    )?;
    define_window(
        conn,
        QM_DEC_AVG.name(),
        2,
        window,
        Average {
            with_precision: true,
        },
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(o: &str, a: (i128, u32), b: (i128, u32), s: u32) -> Result<i128, String> {
        operate(o, a, b, s).map_err(|e| e.to_string())
    }

    #[test]
    fn operators_as_decimal_operators() {
        // TestDecimalOperators.testDivide: 1 / 3 = 0 at scale 0, 2 / 3 = 1 (HALF_UP).
        assert_eq!(op("/", (1, 0), (3, 0), 0), Ok(0));
        assert_eq!(op("/", (2, 0), (3, 0), 0), Ok(1));
        // DECIMAL '1.0' / DECIMAL '0.3' = 3.3 (scale 1).
        assert_eq!(op("/", (10, 1), (3, 1), 1), Ok(33));
        assert_eq!(op("%", (-35, 1), (10, 1), 1), Ok(-5));
        // DECIMAL '200000000000000000000000000000000000' / DECIMAL '0.30': a 256-bit dividend.
        assert_eq!(
            op("/", (2 * 10i128.pow(35), 0), (30, 2), 2),
            Ok(66666666666666666666666666666666666667)
        );
        assert_eq!(op("/", (-9, 0), (5, 0), 0), Ok(-2));
        assert!(op("/", (1, 0), (0, 0), 0).is_err_and(|e| e.contains("Division by zero")));
        assert!(op("*", (i128::MAX, 0), (2, 0), 0).is_err_and(|e| e.contains("Decimal overflow")));
        assert_eq!(round(12345, 2, 1, 2), Some(12350));
        assert_eq!(round(-12345, 2, 0, 0), Some(-123));
        assert_eq!(round(12355, 2, -1, 2), Some(12000));
        assert_eq!(integral(-15, 1, "floor"), Some(-2));
        assert_eq!(integral(-15, 1, "ceil"), Some(-1));
        assert_eq!(integral(15, 1, "truncate"), Some(1));
        assert!(looks_numeric("1e40"));
        assert!(!looks_numeric("1e"));
        assert!(!looks_numeric("foo"));
    }
}
