//! Double operators that keep NaN. SQLite turns a NaN its arithmetic makes into NULL and reads
//! the text 'NaN' (how NaN travels, `udf::real`) as 0, and orders that text above every
//! number; Trino's DoubleOperators keep NaN through arithmetic and answer false for every
//! comparison with it (docs functions/comparison, functions/math "nan()").
//!
//! The engine keeps SQLite's own operators on the fast path and reaches these only where
//! SQLite would be wrong (querymesh-engine `sql/analyze/operators.rs`).

use querymesh_values::types::TrinoType;

use rusqlite::Connection;
use rusqlite::types::{Value, ValueRef};

use super::{FLAGS, define, num, real};

use querymesh_values::sqlite_expr::builtin::{AVG, COALESCE, NULLIF, SUM, TOTAL};
use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr, SqliteFn};

pub const QM_DOUBLE_ARITH: SqliteFn = SqliteFn::new("qm_double_arith");
pub const QM_DOUBLE_CMP: SqliteFn = SqliteFn::new("qm_double_cmp");
pub const QM_DOUBLE_EXTREME: SqliteFn = SqliteFn::new("qm_double_extreme");
pub const QM_NAN_APART: SqliteFn = SqliteFn::new("qm_nan_apart");

/// Registers `qm_double_arith`, `qm_double_cmp`, `qm_nan_apart` and `qm_double_extreme`
/// (`max` of doubles is SQLite's own, aggregate/mod.rs).
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // qm_double_arith(op, a, b): a + b, a - b or a * b as Java computes them.
    define(conn, QM_DOUBLE_ARITH.name(), 3, FLAGS, |ctx| {
        let op: String = ctx.get(0)?;
        Ok(match (num(ctx.get_raw(1)), num(ctx.get_raw(2))) {
            (Some(a), Some(b)) => real(arith(&op, a, b)),
            _ => Value::Null,
        })
    })?;
    // qm_double_cmp(op, a, b): <, <=, > or >=, false when either side is NaN.
    define(conn, QM_DOUBLE_CMP.name(), 3, FLAGS, |ctx| {
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

/// Whether a double operand may hold NaN: anything but a number literal (`9e999` included)
/// and SQLite's own numeric aggregates.
pub fn may_be_nan(ty: &TrinoType, sql: &SqlExpr) -> bool {
    matches!(ty, TrinoType::Double | TrinoType::Real)
        && sql.number_literal().is_none()
        && !is_numeric_aggregate(sql)
}

/// A call of SQLite's own sum, total or avg: their answer is a number or NULL, never the
/// text 'NaN' (they read that text as 0), so `sum(x) > 300` in a HAVING (TPC-H q18) needs no
/// NaN check. (A window's sum is not taken for one.)
fn is_numeric_aggregate(sql: &SqlExpr) -> bool {
    let (SqlExpr::Call(function, _) | SqlExpr::Aggregate { function, .. }) = sql else {
        return false;
    };
    [SUM, TOTAL, AVG].contains(function)
}

/// A column reference or a literal: cheap enough to read twice.
fn is_plain(sql: &SqlExpr) -> bool {
    sql.number_literal().is_some() || matches!(sql, SqlExpr::Column { .. })
}

/// `l compare r` for an ordering comparison (<, <=, >, >=) with a double side, false with
/// NaN. SQLite is wrong only when the greater side is NaN (its text orders above every
/// number), so only that side is checked: not at all for a number literal, inline for a
/// column, through `qm_double_cmp` otherwise (a correlated subquery is not run twice).
pub fn ordering_sql(
    compare: BinaryOp,
    l: (&TrinoType, SqlExpr),
    r: (&TrinoType, SqlExpr),
) -> SqlExpr {
    let greater = match compare {
        BinaryOp::Greater | BinaryOp::GreaterOrEqual => &l,
        _ => &r,
    };
    if !may_be_nan(greater.0, &greater.1) {
        return SqlExpr::binary(l.1, compare, r.1);
    }
    if is_plain(&greater.1) {
        let not_nan = SqlExpr::binary(greater.1.clone(), BinaryOp::NotEqual, SqlExpr::text("NaN"));
        SqlExpr::binary(SqlExpr::binary(l.1, compare, r.1), BinaryOp::And, not_nan)
    } else {
        QM_DOUBLE_CMP.call([SqlExpr::text(compare.symbol()), l.1, r.1])
    }
}

/// How long two operands may be rendered and still be written twice by `arithmetic_sql`.
const REPEATED_OPERANDS_LIMIT: usize = 512;

/// `l op r` (+, -, *) of doubles: SQLite's own operator, and where it answers NULL (a NULL
/// operand, or the NaN of `infinity() - infinity()`) `qm_double_arith`, which keeps NaN. An
/// operand computed by a function may be the text 'NaN', which SQLite would read as 0: it
/// enters the fast path as NULL.
pub fn arithmetic_sql(op: BinaryOp, l: (&TrinoType, SqlExpr), r: (&TrinoType, SqlExpr)) -> SqlExpr {
    let exact = |l: SqlExpr, r: SqlExpr| QM_DOUBLE_ARITH.call([SqlExpr::text(op.symbol()), l, r]);
    // The fast path writes each operand twice, so nested arithmetic would grow as 2^depth
    // (`x + x + … + x`); past a few hundred bytes the function alone, each operand once.
    if rendered_longer_than(&[&l.1, &r.1], REPEATED_OPERANDS_LIMIT) {
        return exact(l.1, r.1);
    }
    let fast = |side: &(&TrinoType, SqlExpr)| {
        if let Some(fast) = fast_part(&side.1) {
            fast.clone()
        } else if may_be_nan(side.0, &side.1) && !is_plain(&side.1) {
            NULLIF.call([side.1.clone(), SqlExpr::text("NaN")])
        } else {
            side.1.clone()
        }
    };
    let fast_path = SqlExpr::binary(fast(&l), op, fast(&r));
    COALESCE.call([fast_path, exact(l.1, r.1)])
}

/// The fast part of an `arithmetic_sql` result, `coalesce(FAST, qm_double_arith(…))`:
/// SQLite's own arithmetic, NULL exactly when the whole is NULL or NaN and never the text
/// 'NaN'. An enclosing operator's fast path takes it as it is, so a tree of arithmetic runs as
/// one SQLite expression with one coalesce at its top (TPC-H q1), and the functions run only
/// where SQLite's answer is NULL.
fn fast_part(sql: &SqlExpr) -> Option<&SqlExpr> {
    match sql {
        SqlExpr::Call(COALESCE, args) => match args.as_slice() {
            [
                fast @ SqlExpr::Binary(..),
                SqlExpr::Call(QM_DOUBLE_ARITH, _),
            ] => Some(fast),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `exprs` rendered one after another take more than `limit` bytes; rendering stops
/// once they do.
fn rendered_longer_than(exprs: &[&SqlExpr], limit: usize) -> bool {
    struct Budget(usize);
    impl std::fmt::Write for Budget {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 = self.0.checked_sub(s.len()).ok_or(std::fmt::Error)?;
            Ok(())
        }
    }
    let mut budget = Budget(limit);
    exprs
        .iter()
        .any(|e| std::fmt::Write::write_fmt(&mut budget, format_args!("{e}")).is_err())
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
    use querymesh_values::sqlite_expr::builtin::MAX;

    #[test]
    fn nan_survives_arithmetic_and_fails_every_order() {
        assert!(arith("-", f64::INFINITY, f64::INFINITY).is_nan());
        assert!(arith("*", 0.0, f64::INFINITY).is_nan());
        assert!(!compare(">", f64::NAN, 1.0));
        assert!(!compare("<=", 1.0, f64::NAN));
        assert!(!compare(">=", f64::NAN, f64::NAN));
        assert!(compare("<", 1.0, 2.0));
    }

    fn column(name: &str) -> SqlExpr {
        SqlExpr::column(None, name)
    }

    #[test]
    fn nested_arithmetic_grows_linearly_past_the_limit() {
        let double = TrinoType::Double;
        let mut sql = column("x");
        for _ in 0..64 {
            sql = arithmetic_sql(BinaryOp::Add, (&double, sql), (&double, column("x")));
        }
        // 64 levels written twice each would be 2^64 bytes; once each past the limit.
        let text = sql.to_string();
        assert!(
            text.len() < 64 * 40 + 2 * REPEATED_OPERANDS_LIMIT,
            "{} bytes",
            text.len()
        );
        assert!(text.starts_with("qm_double_arith('+', "));
    }

    #[test]
    fn a_tree_of_arithmetic_has_one_fast_expression() {
        let double = TrinoType::Double;
        let integer = TrinoType::Integer;
        let inner = arithmetic_sql(
            BinaryOp::Subtract,
            (&integer, SqlExpr::Integer(1)),
            (&double, column("d")),
        );
        let outer = arithmetic_sql(BinaryOp::Multiply, (&double, column("e")), (&double, inner));
        // The outer fast path nests the inner one: no nullif, no function on the way.
        assert!(
            outer
                .to_string()
                .starts_with("coalesce((\"e\" * (1 - \"d\")), qm_double_arith('*', \"e\", "),
            "{outer}"
        );
        assert_eq!(
            fast_part(&outer).map(ToString::to_string).as_deref(),
            Some("(\"e\" * (1 - \"d\"))")
        );
        // Anything else is not taken apart.
        let exact = QM_DOUBLE_ARITH.call([SqlExpr::text("+"), column("a"), column("b")]);
        assert_eq!(fast_part(&COALESCE.call([column("a"), column("b")])), None);
        assert_eq!(fast_part(&exact), None);
    }

    #[test]
    fn sqlites_sums_are_never_nan_text() {
        let double = TrinoType::Double;
        let quantity = SqlExpr::column(Some("t1"), "quantity");
        let x = || column("x");
        assert!(!may_be_nan(&double, &SUM.call([quantity.clone()])));
        assert!(!may_be_nan(&double, &SqlExpr::aggregate(AVG, true, [x()])));
        assert!(!may_be_nan(&double, &SqlExpr::Real(f64::INFINITY)));
        let sum_plus_max = SqlExpr::binary(SUM.call([x()]), BinaryOp::Add, MAX.call([x()]));
        assert!(may_be_nan(&double, &sum_plus_max));
        assert!(may_be_nan(&double, &MAX.call([x()])));
        assert!(may_be_nan(&double, &quantity));
        assert!(!may_be_nan(&TrinoType::BigInt, &quantity));
    }

    #[test]
    fn orderings_check_the_greater_side_for_nan() {
        let double = TrinoType::Double;
        let plain = ordering_sql(
            BinaryOp::Less,
            (&double, column("a")),
            (&double, SqlExpr::Real(1.5)),
        );
        assert_eq!(plain.to_string(), "(\"a\" < 1.5)");
        let inline = ordering_sql(
            BinaryOp::Greater,
            (&double, column("a")),
            (&double, SqlExpr::Real(1.5)),
        );
        assert_eq!(inline.to_string(), "((\"a\" > 1.5) AND (\"a\" <> 'NaN'))");
        let computed = ordering_sql(
            BinaryOp::LessOrEqual,
            (&double, column("a")),
            (&double, MAX.call([column("b")])),
        );
        assert_eq!(
            computed.to_string(),
            "qm_double_cmp('<=', \"a\", max(\"b\"))"
        );
    }

    #[test]
    fn extremes_pass_over_nan_unless_all_are_nan() {
        // greatest(1.5E0, nan()) is 1.5; greatest(nan(), nan()) NaN (Trino 476).
        assert_eq!(extreme(true, &[1.5, f64::NAN]), Some(1.5));
        assert_eq!(extreme(false, &[f64::NAN, 2.0, 1.0]), Some(1.0));
        assert!(extreme(true, &[f64::NAN, f64::NAN]).is_some_and(f64::is_nan));
    }
}
