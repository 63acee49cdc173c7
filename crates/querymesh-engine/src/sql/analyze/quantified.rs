//! Quantified comparisons: `x op ALL (subquery)`, `x op ANY | SOME (subquery)` (VALUES is
//! respelled to a subquery, respell.rs). SQLite has neither, so each is two EXISTS over the
//! subquery's rows, with the three-valued logic of Trino's QuantifiedComparisonExpression
//! (docs functions/comparison "Quantified comparison predicates"): ALL is false when one
//! row compares false, else NULL when one compares NULL, else true (so true over no rows);
//! ANY is true when one row compares true, else NULL when one compares NULL, else false.

use querymesh_values::sqlite_expr::{FromItem, Select, SqlExpr};
use querymesh_values::sqlite_text::quote;
use querymesh_values::typed::Typed;
use sqlparser::ast::{BinaryOperator, Expr};

use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::location::operator_before;
use crate::sql::analyze::scope::ExprContext;
use crate::sql::analyze::{Analyzer, location};
use crate::types::TrinoType;

/// The alias of the subquery's rows inside the EXISTS tests.
const ROWS: &str = "qm_quantified";

impl Analyzer<'_> {
    pub(in crate::sql) fn quantified(
        &mut self,
        left: &Expr,
        op: &BinaryOperator,
        right: &Expr,
        all: bool,
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        let l = self.expr(left, cx)?;
        let Expr::Subquery(q) = right else {
            return Err(error_at(
                ErrorName::SyntaxError,
                location(right),
                "mismatched input: a quantified comparison takes a subquery",
            ));
        };
        let block = self.query(q, Some(cx.scope))?;
        // At the comparison's operator, Trino's node.
        let op_at = operator_before(self.tokens, location(right), op).or(location(right));
        let mismatch = |columns: &[(String, TrinoType)]| {
            let types: Vec<String> = columns.iter().map(|(_, t)| t.to_string()).collect();
            error_at(
                ErrorName::TypeMismatch,
                op_at,
                format!(
                    "Value expression and result of subquery must be of the same type: row({}) vs row({})",
                    l.ty,
                    types.join(", ")
                ),
            )
        };
        let [(_, ty)] = block.columns.as_slice() else {
            return Err(mismatch(&block.columns));
        };
        if !querymesh_values::coerce::comparable(&l.ty, ty) {
            return Err(mismatch(&block.columns));
        }
        let element = Typed::new(SqlExpr::column(Some(&quote(ROWS)), "c1"), ty.clone());
        let test = self.binary(l, location(left), op, element, right, at)?.sql;
        // `EXISTS (SELECT 1 FROM (subquery) AS rows WHERE condition)`.
        let exists = |condition: SqlExpr| {
            let rows = FromItem::query(block.sql.clone(), Some(ROWS.to_string()));
            SqlExpr::Exists(Box::new(
                Select::new(vec![SqlExpr::Integer(1)], vec![rows]).filter(condition),
            ))
        };
        let unknown = exists(SqlExpr::is_null(test.clone()));
        let (decisive, when_decided, otherwise) = if all {
            (exists(SqlExpr::negated(test)), 0, 1)
        } else {
            (exists(test), 1, 0)
        };
        let sql = SqlExpr::case_when(
            vec![
                (decisive, SqlExpr::Integer(when_decided)),
                (unknown, SqlExpr::Null),
            ],
            Some(SqlExpr::Integer(otherwise)),
        );
        Ok(Typed::new(sql, TrinoType::Boolean))
    }
}
