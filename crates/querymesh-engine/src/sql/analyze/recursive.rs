//! `WITH RECURSIVE t (a, …) AS (base UNION ALL step)`, as Trino plans it: the step is
//! expanded `max_recursion_depth` times (10 by default, the session property can change it),
//! each expansion reading the one before, and the union of them is `t` — and if one more
//! step would still give rows, the query fails with Trino's "Recursion depth limit exceeded"
//! instead of answering short (RelationPlanner.planRecursiveCte and its check).
//!
//! Trino's rules, in its words: column aliases are required, the body is `UNION [ALL]` of a
//! base that doesn't name `t` and a step that does, and the step's types must coerce to the
//! base's.

use std::collections::HashMap;

use querymesh_functions::udf::QM_FAIL;
use querymesh_values::coerce::super_type;
use querymesh_values::sqlite_expr::{
    CommonTable, CompoundOp, FromItem, Query as SqlQuery, Select as SqlSelect, SqlExpr,
};
use sqlparser::ast::{Cte as CteAst, SetExpr, SetOperator, SetQuantifier};

use super::{Analyzer, Cte, ident_location, ident_name, location};
use crate::error::{ErrorName, TrinoError, error_at};
use crate::sql::analyze::scope::Scope;
use crate::sql::analyze::select::output_column;

/// `name AS [MATERIALIZED] (query)`.
fn common_table(name: &str, materialized: bool, query: SqlQuery) -> CommonTable {
    CommonTable {
        name: name.to_string(),
        columns: Vec::new(),
        materialized,
        query,
    }
}

/// A CTE read whole, by its name.
fn read(name: &str) -> FromItem {
    FromItem::Table {
        name: name.to_string(),
        alias: None,
    }
}

/// The session's `max_recursion_depth` (checked by SET SESSION), else Trino's 10.
pub fn max_recursion_depth(session: &crate::SessionContext) -> usize {
    session
        .properties
        .iter()
        .rev()
        .find(|(n, _)| n == "max_recursion_depth")
        .and_then(|(_, v)| v.parse().ok())
        .filter(|d| (1..=crate::sql::session::MAX_RECURSION_DEPTH).contains(d))
        .unwrap_or(10)
}

/// Whether `cte` names itself in the right side of a `UNION ALL` body (a CTE of a WITH
/// RECURSIVE that doesn't is an ordinary one).
pub fn is_recursive(cte: &CteAst) -> bool {
    let SetExpr::SetOperation { right, .. } = cte.query.body.as_ref() else {
        return false;
    };
    let name = ident_name(&cte.alias.name);
    right
        .to_string()
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == name)
}

impl Analyzer<'_> {
    /// The SQLite CTEs (`name AS (…)`) that compute recursive `cte`, the last one its union,
    /// and the CTE the rest of the query reads.
    pub(super) fn recursive_cte(
        &mut self,
        cte: &CteAst,
        outer: Option<&Scope<'_>>,
        depth: usize,
    ) -> Result<(Vec<CommonTable>, Cte), TrinoError> {
        let name = ident_name(&cte.alias.name);
        if cte.alias.columns.is_empty() {
            // Trino places it at the WITH query, which starts at its name.
            return Err(error_at(
                ErrorName::MissingColumnAliases,
                ident_location(&cte.alias.name),
                "missing column aliases in recursive WITH query",
            ));
        }
        let body = cte.query.body.as_ref();
        // UNION (DISTINCT): Trino expands the step as for UNION ALL, each expansion reading
        // all the rows of the one before, and unites the expansions without repeats.
        let (base, step, union_op) = match body {
            SetExpr::SetOperation {
                op: SetOperator::Union,
                set_quantifier,
                left,
                right,
            } if cte.query.order_by.is_none() && cte.query.limit_clause.is_none() => {
                let word = match set_quantifier {
                    SetQuantifier::All => CompoundOp::UnionAll,
                    SetQuantifier::None | SetQuantifier::Distinct => CompoundOp::Union,
                    _ => {
                        return Err(error_at(
                            ErrorName::NotSupported,
                            location(cte.query.as_ref()),
                            "recursive query must be a UNION of a base and a step",
                        ));
                    }
                };
                (left, right, word)
            }
            _ => {
                return Err(error_at(
                    ErrorName::NotSupported,
                    location(cte.query.as_ref()),
                    "recursive query must be a UNION of a base and a step without ORDER BY or LIMIT",
                ));
            }
        };
        let base_block = self.set_expr(base, outer)?;
        if cte.alias.columns.len() != base_block.columns.len() {
            return Err(error_at(
                ErrorName::MismatchedColumnAliases,
                location(cte.query.as_ref()),
                format!(
                    "WITH query name '{name}' has {} column aliases but the query has {} columns",
                    cte.alias.columns.len(),
                    base_block.columns.len()
                ),
            ));
        }
        let columns: Vec<_> = cte
            .alias
            .columns
            .iter()
            .zip(&base_block.columns)
            .map(|(a, (_, ty))| (ident_name(&a.name), ty.clone()))
            .collect();
        let mut parts = Vec::new();
        let mut previous = self.alias("w");
        parts.push(common_table(&previous, false, base_block.sql));
        let mut levels = vec![previous.clone()];
        // depth + 1 expansions: the last must be empty.
        for level in 0..=depth {
            let mut frame = HashMap::new();
            frame.insert(
                name.clone(),
                Cte {
                    sqlite_name: previous.clone(),
                    columns: columns.clone(),
                    origins: Vec::new(),
                },
            );
            self.ctes.push(frame);
            let step_block = self.set_expr(step, outer);
            self.ctes.pop();
            let step_block = step_block?;
            let fits = step_block.columns.len() == columns.len()
                && step_block
                    .columns
                    .iter()
                    .zip(&columns)
                    .all(|((_, s), (_, b))| super_type(s, b).as_ref() == Some(b));
            if !fits {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    location(step.as_ref()),
                    "recursion step relation output type is not coercible to recursion base",
                ));
            }
            let this = self.alias("w");
            if level < depth {
                parts.push(common_table(&this, false, step_block.sql));
                levels.push(this.clone());
            } else {
                // One step past the limit: any row there is Trino's failure.
                let message = format!(
                    "Recursion depth limit exceeded ({depth}). Use 'max_recursion_depth' session property to modify the limit."
                );
                // Materialized, so that SQLite can't move the check into the step's join and
                // fail on a pair of rows the join would have dropped.
                parts.push(common_table(&this, true, step_block.sql));
                let checked = self.alias("w");
                let failure = QM_FAIL.call([
                    SqlExpr::text("NOT_SUPPORTED"),
                    SqlExpr::text(message),
                    output_column(1),
                ]);
                let check = SqlSelect::star(read(&this)).filter(failure);
                parts.push(common_table(&checked, false, check.into()));
                levels.push(checked);
            }
            previous = this;
        }
        let union = self.alias("w");
        let selects = levels.iter().map(|l| SqlSelect::star(read(l))).collect();
        let levels_union = SqlQuery::Compound {
            op: union_op,
            terms: selects,
            limit: None,
            offset: None,
        };
        parts.push(common_table(&union, false, levels_union));
        Ok((
            parts,
            Cte {
                sqlite_name: union,
                columns,
                origins: Vec::new(),
            },
        ))
    }
}
