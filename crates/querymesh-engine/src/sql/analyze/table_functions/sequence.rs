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

use querymesh_functions::table::sqlite::QM_TABLE_SEQUENCE_LAST;
use querymesh_values::coerce::super_type;
use querymesh_values::sqlite_expr::{
    BinaryOp, CommonTable, CompoundOp, FromItem, Query, Select as SqlSelect, SqlExpr,
};
use sqlparser::ast::{Expr, FunctionArg};

use super::Output;
use super::arguments::{Declared, Kind, Value, bind};
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::scope::{Clause, ExprContext, Scope};
use crate::sql::analyze::select::output_name;
use crate::sql::analyze::{Analyzer, location};
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

/// The defaults of START, STOP and STEP.
const DEFAULTS: [SqlExpr; 3] = [SqlExpr::Integer(0), SqlExpr::Null, SqlExpr::Integer(1)];

/// `WITH RECURSIVE q(n, last, step) AS (SELECT s, qm_table_sequence_last(s, e, st), st FROM
/// (SELECT start AS s, stop AS e, step AS st) UNION ALL SELECT n + step, last, step FROM q
/// WHERE n <> last) SELECT n AS "c1" FROM q`: the numbers from START by STEP up to the last
/// one not past STOP, which the function computes once (and checks the arguments).
fn counting(q: &str, bounds: Vec<SqlExpr>) -> Query {
    let name = |n: &str| SqlExpr::column(None, n);
    let arguments = SqlSelect {
        columns: bounds
            .into_iter()
            .zip(["s", "e", "st"])
            .map(|(value, alias)| (value, Some(alias.to_string())))
            .collect(),
        ..SqlSelect::default()
    };
    let last = QM_TABLE_SEQUENCE_LAST.call([name("s"), name("e"), name("st")]);
    let base = SqlSelect::new(
        vec![name("s"), last, name("st")],
        vec![FromItem::query(arguments.into(), None)],
    );
    let read = || FromItem::Table {
        name: q.to_string(),
        alias: None,
    };
    let next = SqlExpr::binary(name("n"), BinaryOp::Add, name("step"));
    let step = SqlSelect::new(vec![next, name("last"), name("step")], vec![read()])
        .filter(SqlExpr::binary(name("n"), BinaryOp::NotEqual, name("last")));
    let numbers = SqlSelect {
        columns: vec![(name("n"), Some(output_name(1)))],
        from: vec![read()],
        ..SqlSelect::default()
    };
    Query::With {
        recursive: true,
        ctes: vec![CommonTable {
            name: q.to_string(),
            columns: ["n", "last", "step"].map(String::from).to_vec(),
            materialized: false,
            query: Query::Compound {
                op: CompoundOp::UnionAll,
                terms: vec![base, step],
                limit: None,
                offset: None,
            },
        }],
        body: Box::new(numbers.into()),
    }
}

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
                _ => default,
            });
        }
        let q = self.alias("seq");
        Ok(Output {
            sql: counting(&q, values),
            columns: vec![("sequential_number".to_string(), TrinoType::BigInt)],
        })
    }

    /// A scalar argument declared bigint: a constant expression of a type that coerces to
    /// bigint (StatementAnalyzer's ConstantEvaluator checks).
    fn constant_bigint(&mut self, e: &Expr) -> Result<SqlExpr, TrinoError> {
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
        Ok(value.sql)
    }

    /// Where a subquery starts for Trino: its opening parenthesis, the last one before `at`
    /// (sqlparser places it at its SELECT).
    pub(in crate::sql) fn opening_parenthesis_before(
        &self,
        at: Option<Position>,
    ) -> Option<Position> {
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
