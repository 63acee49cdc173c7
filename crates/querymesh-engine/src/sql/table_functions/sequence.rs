//! `TABLE(sequence(start => 0, stop, step => 1))` (docs functions/table; SequenceFunction,
//! TestSequenceFunction): the bigints from `start` to `stop` by `step`, `stop` included when
//! reachable, in one column `sequential_number`.
//!
//! The arguments are constant bigint expressions (TYPE_MISMATCH for any type that does not
//! coerce to bigint, EXPRESSION_NOT_CONSTANT for a subquery); their values are checked where
//! they are computed, by `qm_table_sequence_last` (querymesh-functions/src/table), which fails
//! with Trino's errors ("Start is null", "Step must be positive for sequence [1, 5]", …) and
//! gives the last value. A recursive query then counts from `start` to that value: it never
//! steps past it, so no value overflows, and SQLite holds one row of it at a time.

use querymesh_values::coerce::super_type;
use sqlparser::ast::{Expr, FunctionArg};

use super::super::analyze::{Analyzer, location};
use super::super::scope::{Clause, ExprContext, Scope};
use super::Output;
use super::arguments::{Declared, Kind, Value, bind};
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::types::TrinoType;

const DECLARED: [Declared; 3] = [
    Declared {
        name: "START",
        kind: Kind::Scalar,
        has_default: true,
    },
    Declared {
        name: "STOP",
        kind: Kind::Scalar,
        has_default: false,
    },
    Declared {
        name: "STEP",
        kind: Kind::Scalar,
        has_default: true,
    },
];

/// The defaults of START and STEP.
const DEFAULTS: [&str; 3] = ["0", "NULL", "1"];

impl Analyzer<'_> {
    pub(super) fn sequence(
        &mut self,
        args: &[FunctionArg],
        at: Option<Position>,
    ) -> Result<Output, TrinoError> {
        let bound = bind(&DECLARED, args, at)?;
        let mut values = Vec::with_capacity(DECLARED.len());
        for (value, default) in bound.iter().zip(DEFAULTS) {
            values.push(match value {
                Some(Value::Scalar(e)) => self.constant_bigint(e)?,
                _ => default.to_string(),
            });
        }
        let [start, stop, step] = [&values[0], &values[1], &values[2]];
        let q = self.alias("seq");
        let sql = format!(
            "(WITH RECURSIVE {q}(n, last, step) AS (\
             SELECT s, qm_table_sequence_last(s, e, st), st \
             FROM (SELECT {start} AS s, {stop} AS e, {step} AS st) \
             UNION ALL SELECT n + step, last, step FROM {q} WHERE n <> last) \
             SELECT n AS \"c1\" FROM {q})"
        );
        Ok(Output {
            sql,
            columns: vec![("sequential_number".to_string(), TrinoType::BigInt)],
        })
    }

    /// A scalar argument declared bigint: a constant expression of a type that coerces to
    /// bigint, as SQLite text (StatementAnalyzer's ConstantEvaluator checks).
    fn constant_bigint(&mut self, e: &Expr) -> Result<String, TrinoError> {
        let mut inner = e;
        while let Expr::Nested(x) | Expr::UnaryOp { expr: x, .. } = inner {
            inner = x;
        }
        if matches!(inner, Expr::Subquery(_) | Expr::Exists { .. }) {
            return Err(error_at(
                ErrorName::ExpressionNotConstant,
                self.opening_parenthesis_before(location(e)),
                "Constant expression cannot contain a subquery",
            ));
        }
        let scope = Scope::new(Vec::new(), None);
        let cx = ExprContext {
            scope: &scope,
            clause: Clause::Values,
            in_aggregate: false,
            group_keys: None,
        };
        let value = self.expr(e, &cx)?;
        if super_type(&value.ty, &TrinoType::BigInt) != Some(TrinoType::BigInt) {
            return Err(error_at(
                ErrorName::TypeMismatch,
                location(e),
                format!("Cannot cast type {} to bigint", value.ty),
            ));
        }
        Ok(value.sql.to_string())
    }

    /// Where a subquery starts for Trino: its opening parenthesis, the last one before `at`
    /// (sqlparser places it at its SELECT).
    fn opening_parenthesis_before(&self, at: Option<Position>) -> Option<Position> {
        let at = at?;
        self.tokens
            .iter()
            .rev()
            .filter(|t| t.token == sqlparser::tokenizer::Token::LParen)
            .map(|t| Position::from(t.span.start))
            .find(|p| (p.line, p.column) < (at.line, at.column))
            .or(Some(at))
    }
}
