//! Double operators that keep NaN. SQLite turns a NaN its arithmetic makes into NULL and reads
//! the text 'NaN' (how NaN travels, `udf::real`) as 0, and orders that text above every
//! number; Trino's DoubleOperators keep NaN through arithmetic and answer false for every
//! comparison with it (docs functions/comparison, functions/math "nan()").
//!
//! The engine keeps SQLite's own operators on the fast path and reaches these only where
//! SQLite would be wrong (querymesh-engine `sql/operators.rs`).

use querymesh_values::types::TrinoType;
use std::collections::BTreeMap;

use rusqlite::Connection;
use rusqlite::functions::{Aggregate, Context, WindowAggregate};
use rusqlite::types::{Value, ValueRef};

use super::{FLAGS, define, define_window, num, real};

/// Registers `qm_double_arith`, `qm_double_cmp`, `qm_nan_apart` and `qm_double_extreme`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // qm_double_arith(op, a, b): a + b, a - b or a * b as Java computes them.
    define(conn, "qm_double_arith", 3, FLAGS, |ctx| {
        let op: String = ctx.get(0)?;
        Ok(match (num(ctx.get_raw(1)), num(ctx.get_raw(2))) {
            (Some(a), Some(b)) => real(arith(&op, a, b)),
            _ => Value::Null,
        })
    })?;
    // qm_double_cmp(op, a, b): <, <=, > or >=, false when either side is NaN.
    define(conn, "qm_double_cmp", 3, FLAGS, |ctx| {
        let op: String = ctx.get(0)?;
        Ok(match (num(ctx.get_raw(1)), num(ctx.get_raw(2))) {
            (Some(a), Some(b)) => Some(compare(&op, a, b)),
            _ => None,
        })
    })?;
    // qm_nan_apart(x): x, or for NaN an empty blob, which equals no double (`x IN (…)`).
    define(conn, "qm_nan_apart", 1, FLAGS, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Text(b"NaN") => Value::Blob(Vec::new()),
            ValueRef::Null => Value::Null,
            ValueRef::Integer(i) => Value::Integer(i),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
        })
    })?;
    // qm_double_extreme(largest, x, …): greatest / least of doubles, NULL with a NULL
    // argument, NaN only when every argument is NaN (TestConditions / greatest, Trino 476).
    define(conn, "qm_double_extreme", -1, FLAGS, |ctx| {
        let largest: bool = ctx.get(0)?;
        let mut values = Vec::with_capacity(ctx.len().saturating_sub(1));
        for i in 1..ctx.len() {
            match num(ctx.get_raw(i)) {
                Some(x) => values.push(x),
                None => return Ok(Value::Null),
            }
        }
        Ok(extreme(largest, &values).map_or(Value::Null, real))
    })?;
    define_window(conn, "qm_double_max", 1, FLAGS, DoubleMax)
}

/// `max(x)` of doubles: the largest number, NaN only when every value is NaN (`max(x)` over
/// nan(), 1, 2 is 2.0 in Trino 476). A window's frame takes values back out, so the state
/// counts each value (in f64::total_cmp's order) and the NaNs.
struct DoubleMax;

#[derive(Default)]
struct Seen {
    numbers: BTreeMap<i64, u64>,
    nans: u64,
}

/// A key whose integer order is f64::total_cmp's.
fn ordered(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

fn unordered(key: i64) -> f64 {
    f64::from_bits((key ^ ((((key >> 63) as u64) >> 1) as i64)) as u64)
}

impl Aggregate<Seen, Value> for DoubleMax {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<Seen> {
        Ok(Seen::default())
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Seen) -> rusqlite::Result<()> {
        match num(ctx.get_raw(0)) {
            Some(x) if x.is_nan() => acc.nans += 1,
            // -0.0 and 0.0 are one value (Java's max answers whichever came; both print 0.0
            // or -0.0 alike here).
            Some(x) => *acc.numbers.entry(ordered(x)).or_insert(0) += 1,
            None => {}
        }
        Ok(())
    }

    fn finalize(&self, _: &mut Context<'_>, mut acc: Option<Seen>) -> rusqlite::Result<Value> {
        self.value(acc.as_mut())
    }
}

impl WindowAggregate<Seen, Value> for DoubleMax {
    fn value(&self, acc: Option<&mut Seen>) -> rusqlite::Result<Value> {
        Ok(match acc {
            Some(seen) => match seen.numbers.last_key_value() {
                Some((key, _)) => Value::Real(unordered(*key)),
                None if seen.nans > 0 => real(f64::NAN),
                None => Value::Null,
            },
            None => Value::Null,
        })
    }

    fn inverse(&self, ctx: &mut Context<'_>, acc: &mut Seen) -> rusqlite::Result<()> {
        match num(ctx.get_raw(0)) {
            Some(x) if x.is_nan() => acc.nans = acc.nans.saturating_sub(1),
            Some(x) => {
                let key = ordered(x);
                if let Some(n) = acc.numbers.get_mut(&key) {
                    *n -= 1;
                    if *n == 0 {
                        acc.numbers.remove(&key);
                    }
                }
            }
            None => {}
        }
        Ok(())
    }
}

/// Whether a double operand may hold NaN: anything but a numeric literal (`9e999` included).
pub fn may_be_nan(ty: &TrinoType, sql: &str) -> bool {
    matches!(ty, TrinoType::Double | TrinoType::Real)
        && sql.trim_matches(['(', ')']).parse::<f64>().is_err()
}

/// A column reference or a literal: cheap enough to read twice.
fn is_plain(sql: &str) -> bool {
    sql.parse::<f64>().is_ok()
        || sql
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'"'))
}

/// `l sym r` for an ordering comparison (<, <=, >, >=) with a double side, false with NaN.
/// SQLite is wrong only when the greater side is NaN (its text orders above every number), so
/// only that side is checked: not at all for a number literal, inline for a column, through
/// `qm_double_cmp` otherwise (a correlated subquery is not run twice).
pub fn ordering_sql(sym: &str, l: (&TrinoType, &str), r: (&TrinoType, &str)) -> String {
    let greater = if sym.starts_with('>') { l } else { r };
    if !may_be_nan(greater.0, greater.1) {
        return format!("({} {sym} {})", l.1, r.1);
    }
    if is_plain(greater.1) {
        format!("({} {sym} {} AND {} <> 'NaN')", l.1, r.1, greater.1)
    } else {
        format!("qm_double_cmp('{sym}', {}, {})", l.1, r.1)
    }
}

/// `l op r` (+, -, *) of doubles: SQLite's own operator, and where it answers NULL (a NULL
/// operand, or the NaN of `infinity() - infinity()`) `qm_double_arith`, which keeps NaN. An
/// operand computed by a function may be the text 'NaN', which SQLite would read as 0: it
/// enters the fast path as NULL.
pub fn arithmetic_sql(op: char, l: (&TrinoType, &str), r: (&TrinoType, &str)) -> String {
    let fast = |side: (&TrinoType, &str)| {
        if may_be_nan(side.0, side.1) && !is_plain(side.1) && !side.1.starts_with("coalesce((") {
            format!("nullif({}, 'NaN')", side.1)
        } else {
            side.1.to_string()
        }
    };
    format!(
        "coalesce(({} {op} {}), qm_double_arith('{op}', {}, {}))",
        fast(l),
        fast(r),
        l.1,
        r.1
    )
}

fn arith(op: &str, a: f64, b: f64) -> f64 {
    match op {
        "+" => a + b,
        "-" => a - b,
        _ => a * b,
    }
}

fn compare(op: &str, a: f64, b: f64) -> bool {
    match op {
        "<" => a < b,
        "<=" => a <= b,
        ">" => a > b,
        _ => a >= b,
    }
}

fn extreme(largest: bool, values: &[f64]) -> Option<f64> {
    let numbers = values.iter().copied().filter(|x| !x.is_nan());
    let best = if largest {
        numbers.reduce(f64::max)
    } else {
        numbers.reduce(f64::min)
    };
    best.or_else(|| values.first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_survives_arithmetic_and_fails_every_order() {
        assert!(arith("-", f64::INFINITY, f64::INFINITY).is_nan());
        assert!(arith("*", 0.0, f64::INFINITY).is_nan());
        assert!(!compare(">", f64::NAN, 1.0));
        assert!(!compare("<=", 1.0, f64::NAN));
        assert!(!compare(">=", f64::NAN, f64::NAN));
        assert!(compare("<", 1.0, 2.0));
    }

    #[test]
    fn ordered_keys_keep_the_order_of_doubles() {
        let xs = [
            f64::NEG_INFINITY,
            -2.5,
            -0.0,
            0.0,
            1e-300,
            3.0,
            f64::INFINITY,
        ];
        for pair in xs.windows(2) {
            assert!(ordered(pair[0]) < ordered(pair[1]));
        }
        for x in xs {
            assert_eq!(unordered(ordered(x)).to_bits(), x.to_bits());
        }
    }

    #[test]
    fn extremes_pass_over_nan_unless_all_are_nan() {
        // greatest(1.5E0, nan()) is 1.5; greatest(nan(), nan()) NaN (Trino 476).
        assert_eq!(extreme(true, &[1.5, f64::NAN]), Some(1.5));
        assert_eq!(extreme(false, &[f64::NAN, 2.0, 1.0]), Some(1.0));
        assert!(extreme(true, &[f64::NAN, f64::NAN]).is_some_and(f64::is_nan));
    }
}
