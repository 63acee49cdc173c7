//! Double operators that keep NaN. SQLite turns a NaN its arithmetic makes into NULL and reads
//! the text 'NaN' (how NaN travels, `udf::real`) as 0, and orders that text above every
//! number; Trino's DoubleOperators keep NaN through arithmetic and answer false for every
//! comparison with it (docs functions/comparison, functions/math "nan()").
//!
//! The engine keeps SQLite's own operators on the fast path and reaches these only where
//! SQLite would be wrong (querymesh-engine `sql/operators.rs`).

use querymesh_values::types::TrinoType;

use rusqlite::Connection;
use rusqlite::types::{Value, ValueRef};

use super::{FLAGS, define, num, real};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_DOUBLE_EXTREME: SqliteFn = SqliteFn::new("qm_double_extreme");
pub const QM_NAN_APART: SqliteFn = SqliteFn::new("qm_nan_apart");

/// Registers `qm_double_arith`, `qm_double_cmp`, `qm_nan_apart` and `qm_double_extreme`
/// (`max` of doubles is SQLite's own, aggregate/mod.rs).
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
    define(conn, QM_NAN_APART.name(), 1, FLAGS, |ctx| {
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
    define(conn, QM_DOUBLE_EXTREME.name(), -1, FLAGS, |ctx| {
        let largest: bool = ctx.get(0)?;
        let mut values = Vec::with_capacity(ctx.len().saturating_sub(1));
        for i in 1..ctx.len() {
            match num(ctx.get_raw(i)) {
                Some(x) => values.push(x),
                None => return Ok(Value::Null),
            }
        }
        Ok(extreme(largest, &values).map_or(Value::Null, real))
    })
}

/// Whether a double operand may hold NaN: anything but a numeric literal (`9e999` included).
pub fn may_be_nan(ty: &TrinoType, sql: &str) -> bool {
    matches!(ty, TrinoType::Double | TrinoType::Real)
        && sql.trim_matches(['(', ')']).parse::<f64>().is_err()
        && !is_numeric_aggregate(sql)
}

/// A call of SQLite's own sum, total or avg over the whole of `sql`: their answer is a number
/// or NULL, never the text 'NaN' (they read that text as 0), so `sum(x) > 300` in a HAVING
/// (TPC-H q18) needs no NaN check.
fn is_numeric_aggregate(sql: &str) -> bool {
    let Some(open) = sql.find('(') else {
        return false;
    };
    if !matches!(&sql[..open], "sum" | "total" | "avg") || !sql.ends_with(')') {
        return false;
    }
    // The parenthesis opened after the name must be the one that closes `sql`.
    closing(sql, open) == Some(sql.len() - 1)
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

/// How long two operands may be and still be written twice by `arithmetic_sql`.
const REPEATED_OPERANDS_LIMIT: usize = 512;

/// `l op r` (+, -, *) of doubles: SQLite's own operator, and where it answers NULL (a NULL
/// operand, or the NaN of `infinity() - infinity()`) `qm_double_arith`, which keeps NaN. An
/// operand computed by a function may be the text 'NaN', which SQLite would read as 0: it
/// enters the fast path as NULL.
pub fn arithmetic_sql(op: char, l: (&TrinoType, &str), r: (&TrinoType, &str)) -> String {
    // The fast path writes each operand twice, so nested arithmetic would grow as 2^depth
    // (`x + x + … + x`); past a few hundred bytes the function alone, each operand once.
    if l.1.len() + r.1.len() > REPEATED_OPERANDS_LIMIT {
        return format!("qm_double_arith('{op}', {}, {})", l.1, r.1);
    }
    let fast = |side: (&TrinoType, &str)| {
        if let Some(fast) = fast_part(side.1) {
            fast.to_string()
        } else if may_be_nan(side.0, side.1) && !is_plain(side.1) {
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

/// The fast part of an `arithmetic_sql` result, `coalesce((FAST), qm_double_arith(…))` (in
/// parentheses or not): SQLite's own arithmetic, NULL exactly when the whole is NULL or NaN
/// and never the text 'NaN'. An enclosing operator's fast path takes it as it is, so a tree
/// of arithmetic runs as one SQLite expression with one coalesce at its top (TPC-H q1), and
/// the functions run only where SQLite's answer is NULL.
fn fast_part(sql: &str) -> Option<&str> {
    let mut whole = sql;
    while whole.starts_with('(') && closing(whole, 0) == Some(whole.len() - 1) {
        whole = &whole[1..whole.len() - 1];
    }
    let open = "coalesce(".len() - 1;
    if !whole.starts_with("coalesce((") || closing(whole, open) != Some(whole.len() - 1) {
        return None;
    }
    let fast_end = closing(whole, open + 1)?;
    whole[fast_end + 1..]
        .starts_with(", qm_double_arith('")
        .then(|| &whole[open + 1..=fast_end])
}

/// The index of the `)` closing the `(` at `open`, quoted text skipped.
fn closing(sql: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    for (i, b) in sql.bytes().enumerate().skip(open) {
        match (quote, b) {
            (Some(q), b) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(b),
            (None, b'(') => depth += 1,
            (None, b')') => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
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
    fn nested_arithmetic_grows_linearly_past_the_limit() {
        let mut sql = "x".to_string();
        for _ in 0..64 {
            sql = arithmetic_sql('+', (&TrinoType::Double, &sql), (&TrinoType::Double, "x"));
        }
        // 64 levels written twice each would be 2^64 bytes; once each past the limit.
        assert!(
            sql.len() < 64 * 40 + 2 * REPEATED_OPERANDS_LIMIT,
            "{} bytes",
            sql.len()
        );
        assert!(sql.starts_with("qm_double_arith('+', "));
    }

    #[test]
    fn a_tree_of_arithmetic_has_one_fast_expression() {
        let double = TrinoType::Double;
        let inner = arithmetic_sql('-', (&TrinoType::Integer, "1"), (&double, "d"));
        let outer = arithmetic_sql('*', (&double, "e"), (&double, &format!("({inner})")));
        // The outer fast path nests the inner one: no nullif, no function on the way.
        assert!(outer.starts_with("coalesce((e * (1 - d)), qm_double_arith('*', e, "));
        assert_eq!(fast_part(&format!("({outer})")), Some("(e * (1 - d))"));
        // Anything else is not taken apart.
        assert_eq!(fast_part("coalesce((a), b)"), None);
        assert_eq!(
            fast_part("coalesce((a), qm_double_arith('+', a, b)) + 1"),
            None
        );
        assert_eq!(fast_part("qm_double_arith('+', a, b)"), None);
    }

    #[test]
    fn sqlites_sums_are_never_nan_text() {
        let double = TrinoType::Double;
        assert!(!may_be_nan(&double, "sum(t1.\"quantity\")"));
        assert!(!may_be_nan(&double, "avg(DISTINCT x)"));
        assert!(may_be_nan(&double, "sum(x) + max(y)"));
        assert!(may_be_nan(&double, "sum(x) OVER (w)"));
        assert!(may_be_nan(&double, "sum(')') + x)"));
        assert!(may_be_nan(&double, "max(x)"));
        assert!(may_be_nan(&double, "t1.\"quantity\""));
    }

    #[test]
    fn extremes_pass_over_nan_unless_all_are_nan() {
        // greatest(1.5E0, nan()) is 1.5; greatest(nan(), nan()) NaN (Trino 476).
        assert_eq!(extreme(true, &[1.5, f64::NAN]), Some(1.5));
        assert_eq!(extreme(false, &[f64::NAN, 2.0, 1.0]), Some(1.0));
        assert!(extreme(true, &[f64::NAN, f64::NAN]).is_some_and(f64::is_nan));
    }
}
