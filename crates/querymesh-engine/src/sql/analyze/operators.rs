//! Operators: comparisons and arithmetic with Trino's coercions (exact for decimal literals,
//! truncating and zero-checked division), date ± interval, and the parts of dates. CAST and
//! TRY_CAST are in casts.rs.

use querymesh_functions::array::build::array_concat;
use querymesh_functions::datetime::sqlite::{
    QM_ADD_MONTHS, QM_DATE_ADD, QM_DATE_DIFF, QM_DATE_PART,
};
use querymesh_functions::datetime::time_zone::sqlite::{QM_TZ_ADD, QM_TZ_DIFF, QM_TZ_OFFSET};
use querymesh_functions::udf::{
    QM_COMPLEX_EQ, QM_FAIL, QM_FDIV, QM_FMOD, QM_IDIV, QM_IMOD, QM_INT, QM_INT_OP, double_ops,
};
use querymesh_values::calendar;
use querymesh_values::coerce::{arithmetic, coerced, comparable, super_type};
use querymesh_values::sqlite_expr::{Affinity, BinaryOp, SqlExpr, builtin};
use querymesh_values::typed::{Constant, Typed};
use sqlparser::ast::{BinaryOperator, Expr};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::expr::mismatch;
use crate::sql::analyze::location::operator_before;
use crate::sql::analyze::scope::ExprContext;
use crate::sql::analyze::zoned::compare_key;
use crate::sql::analyze::{Analyzer, location};
use crate::types::TrinoType;

/// Runs of AND, OR or `||` longer than this are emitted balanced; shorter ones nest to the
/// left as written, so a GROUP BY key may match any prefix of the run.
const BALANCED_RUN: usize = 32;

/// `(a op b)`, … for a run of one associative operator, nested log2(n) deep.
pub(in crate::sql) fn balanced(op: BinaryOp, operands: &[SqlExpr]) -> SqlExpr {
    match operands {
        [] => SqlExpr::Null,
        [one] => one.clone(),
        _ => {
            let (l, r) = operands.split_at(operands.len() / 2);
            SqlExpr::binary(balanced(op, l), op, balanced(op, r))
        }
    }
}

/// The tree's operator for one of the associative operators a run is made of.
fn associative_op(op: &BinaryOperator) -> BinaryOp {
    match op {
        BinaryOperator::And => BinaryOp::And,
        BinaryOperator::Or => BinaryOp::Or,
        _ => BinaryOp::Concat,
    }
}

/// A balanced run; one of varbinary `||` is cast back to the BLOB SQLite's `||` does not make.
fn balanced_run(op: &BinaryOperator, operands: &[SqlExpr], ty: &TrinoType) -> SqlExpr {
    let sql = balanced(associative_op(op), operands);
    if *ty == TrinoType::Varbinary {
        SqlExpr::cast(sql, Affinity::Blob)
    } else {
        sql
    }
}

/// The tree's operator for an arithmetic operator's character.
fn arithmetic_op(op: char) -> BinaryOp {
    match op {
        '+' => BinaryOp::Add,
        '-' => BinaryOp::Subtract,
        '*' => BinaryOp::Multiply,
        '/' => BinaryOp::Divide,
        _ => BinaryOp::Remainder,
    }
}

impl Analyzer<'_> {
    /// A chain of binary operators (`a + b - c …`, `p AND q AND …`), which sqlparser nests
    /// to the left as deep as the chain is long: analysed in a loop (limits.rs), each
    /// operator as if on its own. A long run of AND, OR or `||` is emitted balanced, as SQLite
    /// refuses an expression tree deeper than 1000 and these operators are associative.
    pub(in crate::sql) fn binary_chain(
        &mut self,
        e: &Expr,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        let mut links: Vec<(&BinaryOperator, &Expr)> = Vec::new();
        let mut first = e;
        while let Expr::BinaryOp { left, op, right } = first {
            links.push((op, right));
            first = left;
        }
        // Every operator of the chain starts where its first operand does; Trino places its
        // node (and its errors) at the operator itself.
        let at = location(e);
        let mark = self.loose.len();
        let mut acc = self.expr(first, cx)?;
        // The operands of the current run of one associative operator, from its first.
        let mut run: Option<(&BinaryOperator, Vec<SqlExpr>)> = None;
        let mut left = Some(first);
        for (op, right) in links.into_iter().rev() {
            let r = self.expr(right, cx)?;
            if self.describing.is_some() {
                // A described statement's `?` takes the type of the other side.
                let parameter_type = |other: &Typed| match op {
                    BinaryOperator::And | BinaryOperator::Or => TrinoType::Boolean,
                    _ => other.ty.clone(),
                };
                if let Some(left) = left.take() {
                    self.parameter_coerced(left, &parameter_type(&r));
                }
                self.parameter_coerced(right, &parameter_type(&acc));
            }
            let associative = match op {
                BinaryOperator::And | BinaryOperator::Or => true,
                // `||` of arrays lowers to a function call, not to SQLite's `||`.
                BinaryOperator::StringConcat => ![&acc.ty, &r.ty]
                    .iter()
                    .any(|t| matches!(t, TrinoType::Array(_))),
                _ => false,
            };
            match &mut run {
                Some((run_op, operands)) if *run_op == op => operands.push(r.sql.clone()),
                _ => {
                    if let Some((run_op, operands)) = run.take()
                        && operands.len() > BALANCED_RUN
                    {
                        acc.sql = balanced_run(run_op, &operands, &acc.ty);
                    }
                    if associative {
                        run = Some((op, vec![acc.sql.clone(), r.sql.clone()]));
                    }
                }
            }
            let long = run
                .as_ref()
                .is_some_and(|(_, operands)| operands.len() > BALANCED_RUN);
            if long {
                // Only the result's type is needed until the run ends.
                let sql = std::mem::take(&mut acc.sql);
                let r = Typed {
                    sql: SqlExpr::Null,
                    ..r
                };
                let op_at = operator_before(self.tokens, location(right), op).or(at);
                acc = self.binary(acc, at, op, r, right, op_at)?;
                acc.sql = sql;
                continue;
            }
            let op_at = operator_before(self.tokens, location(right), op).or(at);
            acc = self.binary(acc, at, op, r, right, op_at)?;
            // A grouping key covers the columns inside it (GROUP BY a + b, SELECT a + b + c).
            if cx
                .group_keys
                .is_some_and(|keys| keys.contains(&acc.sql.to_string()))
            {
                self.loose.truncate(mark);
            }
        }
        if let Some((run_op, operands)) = run
            && operands.len() > BALANCED_RUN
        {
            acc.sql = balanced_run(run_op, &operands, &acc.ty);
        }
        Ok(acc)
    }

    /// `l op r`, `l` starting at `left_at`.
    pub(in crate::sql) fn binary(
        &mut self,
        l: Typed,
        left_at: Option<Position>,
        op: &BinaryOperator,
        r: Typed,
        right: &Expr,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        // Arrays, maps and rows of decimals compare their elements' unscaled values, so both
        // sides hold the common type's first (decimal.rs "Representation").
        let comparing = matches!(
            op,
            BinaryOperator::Eq
                | BinaryOperator::NotEq
                | BinaryOperator::Lt
                | BinaryOperator::LtEq
                | BinaryOperator::Gt
                | BinaryOperator::GtEq
        );
        let (l, r) = match super_type(&l.ty, &r.ty) {
            Some(target)
                if comparing
                    && l.ty != r.ty
                    && target.is_container()
                    && querymesh_values::decimal::holds_decimal(&target) =>
            {
                (
                    self.coerce_to(l, &target, at)?,
                    self.coerce_to(r, &target, at)?,
                )
            }
            _ => (l, r),
        };
        let (l, r) = self.zoned_operands(l, r);
        let cmp = |sym: &str, compare: BinaryOp| -> Result<Typed, TrinoError> {
            if let Some(t) = crate::sql::analyze::rows::comparison(&l, &r, sym, at) {
                return t;
            }
            // Arrays and rows compare by their JSON text: equality only.
            let ordering = !matches!(sym, "=" | "<>");
            // json values are equal when their canonical texts are (JsonOperators: equality
            // only; Trino 476: `JSON '[1, 2]' = JSON '[1,2]'` is true, `JSON '1.0' = JSON '1'`
            // false).
            if !ordering && l.ty == TrinoType::Json && r.ty == TrinoType::Json {
                return Ok(Typed::new(
                    SqlExpr::binary(l.sql.clone(), compare, r.sql.clone()),
                    TrinoType::Boolean,
                ));
            }
            // A color, a Bing tile or a geometry compares for equality only (ColorType,
            // BingTileType, GeometryType and SphericalGeographyType are not orderable).
            let unordered = |t: &TrinoType| t.is_container() || !t.is_orderable();
            if !comparable(&l.ty, &r.ty) || (ordering && (unordered(&l.ty) || unordered(&r.ty))) {
                return Err(mismatch(at, sym, &l.ty, &r.ty));
            }
            if l.ty.is_container() || r.ty.is_container() {
                let equal = QM_COMPLEX_EQ.call([l.sql.clone(), r.sql.clone()]);
                let sql = if compare == BinaryOp::NotEqual {
                    SqlExpr::negated(equal)
                } else {
                    equal
                };
                return Ok(Typed::new(sql, TrinoType::Boolean));
            }
            let target = super_type(&l.ty, &r.ty).unwrap_or(TrinoType::Unknown);
            let (lhs, rhs) = (
                compare_key(coerced(&l, &target), &target),
                compare_key(coerced(&r, &target), &target),
            );
            // NaN is the text 'NaN' (udf::real), equal to itself in SQLite but to nothing in
            // Trino (nan() = nan() is false, nan() <> nan() true); one NaN side makes the
            // plain comparison right already.
            let floating = |t: &TrinoType| matches!(t, TrinoType::Double | TrinoType::Real);
            if floating(&l.ty) && floating(&r.ty) && !ordering {
                let nan = || SqlExpr::text("NaN");
                let sql = if compare == BinaryOp::Equal {
                    let not_nan = SqlExpr::binary(lhs.clone(), BinaryOp::NotEqual, nan());
                    SqlExpr::binary(
                        SqlExpr::binary(lhs, BinaryOp::Equal, rhs.clone()),
                        BinaryOp::And,
                        SqlExpr::binary(not_nan, BinaryOp::Or, SqlExpr::is_null(rhs)),
                    )
                } else {
                    let nan_side = SqlExpr::binary(lhs.clone(), BinaryOp::Equal, nan());
                    SqlExpr::binary(
                        SqlExpr::binary(lhs, BinaryOp::NotEqual, rhs.clone()),
                        BinaryOp::Or,
                        SqlExpr::binary(nan_side, BinaryOp::And, SqlExpr::is_not_null(rhs)),
                    )
                };
                return Ok(Typed::new(sql, TrinoType::Boolean));
            }
            // Every ordering comparison with NaN is false (`nan() > 1`, DoubleOperators).
            if (floating(&l.ty) || floating(&r.ty)) && ordering {
                return Ok(Typed::new(
                    double_ops::ordering_sql(compare, (&l.ty, lhs), (&r.ty, rhs)),
                    TrinoType::Boolean,
                ));
            }
            Ok(Typed::new(
                SqlExpr::binary(lhs, compare, rhs),
                TrinoType::Boolean,
            ))
        };
        match op {
            BinaryOperator::Eq => cmp("=", BinaryOp::Equal),
            BinaryOperator::NotEq => cmp("<>", BinaryOp::NotEqual),
            BinaryOperator::Lt => cmp("<", BinaryOp::Less),
            BinaryOperator::LtEq => cmp("<=", BinaryOp::LessOrEqual),
            BinaryOperator::Gt => cmp(">", BinaryOp::Greater),
            BinaryOperator::GtEq => cmp(">=", BinaryOp::GreaterOrEqual),
            BinaryOperator::And | BinaryOperator::Or => {
                let connective = if *op == BinaryOperator::And {
                    BinaryOp::And
                } else {
                    BinaryOp::Or
                };
                for (t, place) in [(&l, None), (&r, Some(right))] {
                    if !matches!(t.ty, TrinoType::Boolean | TrinoType::Unknown) {
                        return Err(error_at(
                            ErrorName::TypeMismatch,
                            place.map_or(left_at, location),
                            format!(
                                "Logical expression term must evaluate to a boolean (actual: {})",
                                t.ty
                            ),
                        ));
                    }
                }
                Ok(Typed::new(
                    SqlExpr::binary(l.sql, connective, r.sql),
                    TrinoType::Boolean,
                ))
            }
            BinaryOperator::StringConcat => {
                // docs functions/array "Concatenation operator: ||": the array overloads, or
                // AMBIGUOUS_FUNCTION_CALL (array/concat_overloads.rs).
                if let Some(t) = array_concat(self, &[l.clone(), r.clone()], at)? {
                    return Ok(t);
                }
                // varbinary || varbinary (docs functions/binary "Binary operators").
                let binary = |t: &Typed| matches!(t.ty, TrinoType::Varbinary | TrinoType::Unknown);
                if binary(&l) && binary(&r) && [&l, &r].iter().any(|t| t.ty == TrinoType::Varbinary)
                {
                    return Ok(Typed::new(
                        querymesh_functions::binary_concat_sql(&[
                            l.sql.to_string(),
                            r.sql.to_string(),
                        ]),
                        TrinoType::Varbinary,
                    ));
                }
                // docs functions/string "concat" (string/concatenation.rs).
                querymesh_functions::string::concatenation::string_concat(&[&l, &r], at)?
                    .ok_or_else(|| {
                        error_at(
                            ErrorName::FunctionNotFound,
                            at,
                            format!(
                                "Unexpected parameters ({}, {}) for function concat",
                                l.ty, r.ty
                            ),
                        )
                    })
            }
            BinaryOperator::Plus | BinaryOperator::Minus => {
                let sym = if *op == BinaryOperator::Plus {
                    '+'
                } else {
                    '-'
                };
                if let Some(t) = self.temporal_arithmetic(sym, &l, &r, at)? {
                    return Ok(t);
                }
                self.numeric_op(sym, l, r, at)
            }
            BinaryOperator::Multiply => {
                match scaled_interval(&l, &r).or_else(|| scaled_interval(&r, &l)) {
                    Some(t) => Ok(t),
                    None => match fractionally_scaled('*', &l, &r)
                        .or_else(|| fractionally_scaled('*', &r, &l))
                    {
                        Some(t) => Ok(t),
                        None => self.numeric_op('*', l, r, at),
                    },
                }
            }
            BinaryOperator::Divide => match fractionally_scaled('/', &l, &r) {
                Some(t) => Ok(t),
                None => self.numeric_op('/', l, r, at),
            },
            BinaryOperator::Modulo => self.numeric_op('%', l, r, at),
            other => Err(error_at(
                ErrorName::SyntaxError,
                at,
                format!("mismatched input '{other}'"),
            )),
        }
    }

    pub(in crate::sql) fn numeric_op(
        &mut self,
        op: char,
        l: Typed,
        r: Typed,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        let ty = arithmetic(op, &l.ty, &r.ty)
            .ok_or_else(|| mismatch(at, &op.to_string(), &l.ty, &r.ty))?;
        // Exact decimals (decimal.rs): 0.06 - 0.01 is 0.05, folded; a double with a decimal
        // reads the decimal as the double Trino converts it to.
        if let TrinoType::Decimal { .. } = ty {
            return Ok(querymesh_values::decimal::arithmetic(op, &l, &r, &ty));
        }
        let (l, r) = if matches!(ty, TrinoType::Double | TrinoType::Real) {
            let (ls, rs) = (coerced(&l, &ty), coerced(&r, &ty));
            (Typed { sql: ls, ..l }, Typed { sql: rs, ..r })
        } else {
            (l, r)
        };
        // Integer constants fold (Q19's `1 + 10`), with Trino's overflow error
        // (IntegerOperators: "integer addition overflow: 2147483647 + 1").
        if let (Some(Constant::Int(a)), Some(Constant::Int(b)), true) = (
            &l.constant,
            &r.constant,
            ty.is_integral() && "+-*".contains(op),
        ) {
            let (a, b) = (*a, *b);
            let (value, operation) = match op {
                '+' => (a.checked_add(b), "addition"),
                '-' => (a.checked_sub(b), "subtraction"),
                _ => (a.checked_mul(b), "multiplication"),
            };
            let (lo, hi) = match ty {
                TrinoType::Integer => (i64::from(i32::MIN), i64::from(i32::MAX)),
                TrinoType::SmallInt => (i64::from(i16::MIN), i64::from(i16::MAX)),
                TrinoType::TinyInt => (i64::from(i8::MIN), i64::from(i8::MAX)),
                _ => (i64::MIN, i64::MAX),
            };
            return Ok(match value.filter(|v| (lo..=hi).contains(v)) {
                Some(v) => Typed {
                    sql: int_literal(v),
                    ty,
                    constant: Some(Constant::Int(v)),
                    bound: None,
                },
                // Raised where the value is computed, as Trino's folding leaves a failing
                // expression to run: `try(2147483647 + 1)` is NULL, not a failed query.
                None => Typed::new(
                    QM_FAIL.call([
                        SqlExpr::text("NUMERIC_VALUE_OUT_OF_RANGE"),
                        SqlExpr::text(format!("{ty} {operation} overflow: {a} {op} {b}")),
                    ]),
                    ty,
                ),
            });
        }
        let bound = matches!(ty, TrinoType::Double | TrinoType::Real)
            .then(|| querymesh_values::typed::arithmetic_bound(op, &l, &r))
            .flatten();
        let both_integral = l.ty.is_integral() && r.ty.is_integral();
        // The operands move into the new node: a chain of n links is built in n steps, not
        // copied at each (`a + b + … ` of 4,000 links, tests/sandbox statement_limits).
        let (l_ty, r_ty) = (l.ty, r.ty);
        let (ls, rs) = (l.sql, r.sql);
        let sql = match (op, &ty) {
            ('/', t) if t.is_integral() => QM_IDIV.call([ls, rs]),
            ('/', _) => QM_FDIV.call([ls, rs]),
            ('%', t) if t.is_integral() => QM_IMOD.call([ls, rs]),
            ('%', _) => QM_FMOD.call([ls, rs]),
            // SQLite multiplies two integers as integers; a double-typed result must not.
            (_, TrinoType::Double | TrinoType::Real) if both_integral => {
                let real = SqlExpr::cast(ls, Affinity::Real);
                SqlExpr::binary(real, arithmetic_op(op), rs)
            }
            // NaN survives (udf/double_ops.rs): `is_nan(infinity() - infinity())` is true.
            (_, TrinoType::Double | TrinoType::Real) => {
                double_ops::arithmetic_sql(arithmetic_op(op), (&l_ty, ls), (&r_ty, rs))
            }
            // Trino's integer arithmetic fails on overflow (Math.addExact and friends);
            // SQLite turns a 64-bit overflow into a REAL and knows no narrower integers.
            (_, t) if t.is_integral() => QM_INT_OP.call([
                ls,
                rs,
                SqlExpr::text(t.to_string()),
                SqlExpr::text(op.to_string()),
            ]),
            _ => SqlExpr::binary(ls, arithmetic_op(op), rs),
        };
        Ok(Typed::new(sql, ty).bounded(bound))
    }

    /// date ± interval (folded when both are literals), timestamp ± interval.
    pub(in crate::sql) fn temporal_arithmetic(
        &mut self,
        op: char,
        l: &Typed,
        r: &Typed,
        at: Option<Position>,
    ) -> Result<Option<Typed>, TrinoError> {
        if let Some(t) = querymesh_functions::datetime::time_of_day::arithmetic(op, l, r) {
            return Ok(Some(t));
        }
        let (base, iv) = match (&l.ty, &r.ty) {
            (
                TrinoType::Date | TrinoType::Timestamp(_) | TrinoType::TimestampTz(_),
                TrinoType::IntervalDayToSecond | TrinoType::IntervalYearToMonth,
            ) => (l, r),
            (
                TrinoType::IntervalDayToSecond | TrinoType::IntervalYearToMonth,
                TrinoType::Date | TrinoType::Timestamp(_) | TrinoType::TimestampTz(_),
            ) if op == '+' => (r, l),
            // The interval between two dates or timestamps, exact then truncated to the
            // millisecond (TimestampOperators.subtract; DateOperators.subtract is in days).
            (
                TrinoType::Date | TrinoType::Timestamp(_),
                TrinoType::Date | TrinoType::Timestamp(_),
            ) if op == '-' => {
                let p = |t: &TrinoType| match t {
                    TrinoType::Timestamp(p) => *p,
                    _ => 0,
                };
                let ty = TrinoType::Timestamp(p(&l.ty).max(p(&r.ty)));
                return Ok(Some(Typed::new(
                    QM_DATE_DIFF.call([
                        SqlExpr::text("millisecond"),
                        coerced(r, &ty),
                        coerced(l, &ty),
                        digits_literal(calendar::stored_digits(p(&ty))),
                    ]),
                    TrinoType::IntervalDayToSecond,
                )));
            }
            // The interval between two instants (TimestampWithTimeZoneOperators.subtract).
            (TrinoType::TimestampTz(_), TrinoType::TimestampTz(_)) if op == '-' => {
                return Ok(Some(Typed::new(
                    QM_TZ_DIFF.call([SqlExpr::text("millisecond"), r.sql.clone(), l.sql.clone()]),
                    TrinoType::IntervalDayToSecond,
                )));
            }
            (TrinoType::IntervalDayToSecond, TrinoType::IntervalDayToSecond)
            | (TrinoType::IntervalYearToMonth, TrinoType::IntervalYearToMonth) => {
                let constant = match (&l.constant, &r.constant) {
                    (Some(Constant::Months(a)), Some(Constant::Months(b))) => if op == '+' {
                        a.checked_add(*b)
                    } else {
                        a.checked_sub(*b)
                    }
                    .map(Constant::Months),
                    (Some(Constant::Millis(a)), Some(Constant::Millis(b))) => if op == '+' {
                        a.checked_add(*b)
                    } else {
                        a.checked_sub(*b)
                    }
                    .map(Constant::Millis),
                    _ => None,
                };
                return Ok(Some(Typed {
                    sql: SqlExpr::binary(l.sql.clone(), arithmetic_op(op), r.sql.clone()),
                    ty: l.ty.clone(),
                    constant,
                    bound: None,
                }));
            }
            _ => return Ok(None),
        };
        let sign = if op == '-' { -1 } else { 1 };
        let amount = match &iv.constant {
            Some(Constant::Months(m)) | Some(Constant::Millis(m)) => *m * sign,
            _ => return Err(not_supported(at, "Arithmetic with a computed interval")),
        };
        let months = iv.ty == TrinoType::IntervalYearToMonth;
        // With a zone: months by the wall time, day-to-second intervals on the instant
        // (TimestampWithTimeZoneOperators add the millis in the value's chronology).
        // A day-to-second interval gives at least milliseconds (TimestampPlusIntervalDayToSecond
        // returns timestamp(max(p, 3))); a year-to-month one keeps p.
        let at_least_millis = |p: u8| if months { p } else { p.max(3) };
        if let TrinoType::TimestampTz(p) = base.ty {
            let unit = if months { "month" } else { "millisecond" };
            let q = at_least_millis(p);
            return Ok(Some(Typed::new(
                QM_TZ_ADD.call([
                    SqlExpr::text(unit),
                    SqlExpr::Integer(amount),
                    base.sql.clone(),
                    SqlExpr::Integer(i64::from(q)),
                ]),
                TrinoType::TimestampTz(q),
            )));
        }
        match &base.ty {
            TrinoType::Date => {
                if !months && amount % 86_400_000 != 0 {
                    return Err(error_at(
                        ErrorName::InvalidFunctionArgument,
                        at,
                        "Cannot add hour, minute or second to a date",
                    ));
                }
                if let Some(Constant::Date(d)) = base.constant {
                    let folded = if months {
                        calendar::add_months(d, amount)
                    } else {
                        calendar::add_days(d, amount / 86_400_000)
                    }
                    .ok_or_else(|| {
                        error_at(
                            ErrorName::NumericValueOutOfRange,
                            at,
                            "Date is out of range",
                        )
                    })?;
                    return Ok(Some(Typed {
                        sql: SqlExpr::text(calendar::format_date(folded)),
                        ty: TrinoType::Date,
                        constant: Some(Constant::Date(folded)),
                        bound: None,
                    }));
                }
                let sql = if months {
                    QM_ADD_MONTHS.call([base.sql.clone(), SqlExpr::Integer(amount)])
                } else {
                    let days = SqlExpr::text(format!("{:+} days", amount / 86_400_000));
                    builtin::DATE.call([base.sql.clone(), days])
                };
                Ok(Some(Typed::new(sql, TrinoType::Date)))
            }
            _ => {
                let sql = if months {
                    let day = QM_ADD_MONTHS.call([base.sql.clone(), SqlExpr::Integer(amount)]);
                    let time = builtin::SUBSTR.call([base.sql.clone(), SqlExpr::Integer(11)]);
                    SqlExpr::binary(day, BinaryOp::Concat, time)
                } else {
                    // The stored digits past the millisecond are kept (qm_date_add).
                    let digits = match base.ty {
                        TrinoType::Timestamp(p) => calendar::stored_digits(p),
                        _ => 3,
                    };
                    QM_DATE_ADD.call([
                        SqlExpr::text("millisecond"),
                        SqlExpr::Integer(amount),
                        base.sql.clone(),
                        digits_literal(digits),
                    ])
                };
                let ty = match base.ty {
                    TrinoType::Timestamp(p) => TrinoType::Timestamp(at_least_millis(p)),
                    ref other => other.clone(),
                };
                Ok(Some(Typed::new(sql, ty)))
            }
        }
    }

    /// year(), month(), … and EXTRACT: bigint parts of a date or timestamp.
    pub(in crate::sql) fn date_part(
        &mut self,
        unit: &str,
        t: Typed,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        // A timestamp with time zone's fields are those of its wall time in its zone.
        if let TrinoType::TimestampTz(_) = t.ty {
            if let Some(part) = unit.strip_prefix("timezone_") {
                return Ok(Typed::new(
                    QM_TZ_OFFSET.call([t.sql, SqlExpr::text(part)]),
                    TrinoType::BigInt,
                ));
            }
            let local = self.wall_time(&t);
            return self.date_part(unit, local, at);
        }
        if let Some(part) = querymesh_functions::datetime::interval::part(unit, &t) {
            return Ok(part);
        }
        if querymesh_functions::datetime::time_of_day::is_time(&t.ty) {
            return querymesh_functions::datetime::time_of_day::part(unit, &t).ok_or_else(|| {
                error_at(
                    ErrorName::FunctionNotFound,
                    at,
                    format!("Unexpected parameters ({}) for function {unit}", t.ty),
                )
            });
        }
        let is_ts = matches!(t.ty, TrinoType::Timestamp(_));
        if !(t.ty == TrinoType::Date || is_ts) {
            return Err(error_at(
                ErrorName::FunctionNotFound,
                at,
                format!("Unexpected parameters ({}) for function {unit}", t.ty),
            ));
        }
        let sub = |from: i64, len: i64| {
            let digits = builtin::SUBSTR.call([
                t.sql.clone(),
                SqlExpr::Integer(from),
                SqlExpr::Integer(len),
            ]);
            SqlExpr::cast(digits, Affinity::Integer)
        };
        let sql = match unit {
            "year" => sub(1, 4),
            "month" => sub(6, 2),
            "day" => sub(9, 2),
            "hour" | "minute" | "second" | "millisecond" if is_ts => match unit {
                "hour" => sub(12, 2),
                "minute" => sub(15, 2),
                "second" => sub(18, 2),
                // The stored text has at least millisecond digits (calendar::stored_digits).
                _ => sub(21, 3),
            },
            // ExpressionAnalyzer.visitExtract: a date has no time fields.
            "hour" | "minute" | "second" | "millisecond" => {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    at,
                    format!("Cannot extract {} from date", unit.to_uppercase()),
                ));
            }
            other => QM_DATE_PART.call([SqlExpr::text(other), t.sql.clone()]),
        };
        Ok(Typed::new(sql, TrinoType::BigInt))
    }
}

/// `interval * n` with an integer n (IntervalDayTimeOperators / IntervalYearMonthOperators
/// multiply), folded when both are known so that date arithmetic can use it.
fn scaled_interval(iv: &Typed, n: &Typed) -> Option<Typed> {
    if !matches!(
        iv.ty,
        TrinoType::IntervalDayToSecond | TrinoType::IntervalYearToMonth
    ) || !n.ty.is_integral()
    {
        return None;
    }
    let constant = match (&iv.constant, &n.constant) {
        (Some(Constant::Months(m)), Some(Constant::Int(k))) => {
            m.checked_mul(*k).map(Constant::Months)
        }
        (Some(Constant::Millis(m)), Some(Constant::Int(k))) => {
            m.checked_mul(*k).map(Constant::Millis)
        }
        _ => None,
    };
    let sql = match &constant {
        Some(Constant::Months(v) | Constant::Millis(v)) => int_literal(*v),
        _ => QM_INT.call([
            SqlExpr::binary(iv.sql.clone(), BinaryOp::Multiply, n.sql.clone()),
            SqlExpr::text("bigint"),
            SqlExpr::text("multiplication"),
        ]),
    };
    Some(Typed {
        sql,
        ty: iv.ty.clone(),
        constant,
        bound: None,
    })
}

/// `interval * x` or `interval / x` for a decimal, double or (dividing) integer x, which
/// Trino takes as a double (IntervalDayTimeOperators.multiplyByDouble, divideByDouble).
fn fractionally_scaled(op: char, iv: &Typed, n: &Typed) -> Option<Typed> {
    let as_double = match n.ty {
        TrinoType::Decimal { scale, .. } => {
            querymesh_values::decimal::to_double_sql(n, scale, false)
        }
        ref t if t.is_numeric() => SqlExpr::cast(n.sql.clone(), Affinity::Real),
        _ => return None,
    };
    querymesh_functions::datetime::interval::scaled(op, iv, n, as_double.to_string())
}

/// An integer constant as SQLite reads it: SQLite parses `-9223372036854775808` as the
/// negation of a number too large for an integer, so i64::MIN is written as a difference.
fn int_literal(v: i64) -> SqlExpr {
    if v == i64::MIN {
        SqlExpr::binary(
            SqlExpr::Integer(i64::MIN + 1),
            BinaryOp::Subtract,
            SqlExpr::Integer(1),
        )
    } else {
        SqlExpr::Integer(v)
    }
}

/// A count of fraction digits (at most 12) as a literal.
fn digits_literal(digits: usize) -> SqlExpr {
    SqlExpr::Integer(i64::try_from(digits).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_runs_nest_balanced_and_the_smallest_integer_is_a_difference() {
        let operands: Vec<SqlExpr> = (1..=4).map(SqlExpr::Integer).collect();
        assert_eq!(
            balanced(BinaryOp::And, &operands).to_string(),
            "((1 AND 2) AND (3 AND 4))"
        );
        assert_eq!(
            int_literal(i64::MIN).to_string(),
            "(-9223372036854775807 - 1)"
        );
        assert_eq!(int_literal(-5).to_string(), "-5");
    }
}
