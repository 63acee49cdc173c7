//! Row filters and column masks (Trino's `ViewExpression`s of the file-based access control):
//! a base table read for a person whose first matching rule filters or masks it is read as the
//! derived table `(SELECT <mask or column> AS column, … FROM table WHERE <filter>)`, so every
//! later stage (types, `*`, joins, CTEs, subqueries, UNNEST) sees the table's own columns,
//! names and types.
//!
//! As in Trino's RelationPlanner.visitTable (`addRowFilters`, then `addColumnMasks`), the
//! filter reads the table's stored values and masks apply to what the query sees. Each
//! expression is analysed as Trino SQL in a scope of the table's columns only, under its
//! environment's user (`current_user`) or the person's; the tables its subqueries read are
//! read with the rule author's authority (not checked against, nor filtered for, the person).

use sqlparser::ast::Expr;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::analyze::{Analyzer, Typed, error_at, quote};
use super::coerce::super_type;
use super::dialect::TrinoDialect;
use super::scope::{Clause, Column, ExprContext, Relation, Scope};
use super::{cast_types, json_syntax, respell, syntax_error, tokens};
use crate::querymesh::engine::SessionContext;
use crate::querymesh::engine::access::TablePolicy;
use crate::querymesh::engine::catalog::{Catalogs, TableMeta};
use crate::querymesh::engine::error::{ErrorName, TrinoError};
use crate::querymesh::engine::types::TrinoType;

/// A filter or mask of the rules file, parsed when the rules load.
#[derive(Clone, Debug)]
pub struct PolicyExpression {
    expr: Expr,
    /// The expression's significant tokens, for errors placed in its text.
    tokens: Vec<TokenWithSpan>,
    /// `filter_environment` / `mask_environment` `user`: who `current_user` is in it.
    user: Option<String>,
}

impl PolicyExpression {
    /// Parses `text` as exactly one Trino expression (a syntax error otherwise).
    pub fn parse(text: &str, user: Option<String>) -> Result<Self, TrinoError> {
        let (mut all, significant) = tokens(text)?;
        respell::respell(&mut all);
        cast_types::replace_cast_types(&mut all);
        json_syntax::rewrite(&mut all);
        let mut parser = Parser::new(&TrinoDialect).with_tokens_with_locations(all);
        let expr = parser.parse_expr().map_err(|e| syntax_error(e, text))?;
        let next = parser.peek_token();
        if next.token != Token::EOF {
            return Err(error_at(
                ErrorName::SyntaxError,
                Some(next.span.start.into()),
                format!("mismatched input '{}'. Expecting: <EOF>", next.token),
            ));
        }
        Ok(Self {
            expr,
            tokens: significant,
            user,
        })
    }
}

/// Checks `policy` against `table` as a query reading it would apply it, for a rules file
/// refused at start rather than at a person's first query.
pub fn check(
    catalogs: &Catalogs,
    table: &TableMeta,
    policy: &TablePolicy<'_>,
) -> Result<(), TrinoError> {
    // `current_user` is a varchar whoever it is; the name does not change any type.
    let session = SessionContext {
        user: Some(String::new()),
        ..SessionContext::default()
    };
    let mut analyzer = Analyzer::new(catalogs, &session, &[]);
    analyzer.policy_source(table, policy).map(|_| ())
}

impl Analyzer<'_> {
    /// The SQLite source reading `table` as `policy` shapes it, its columns named as the
    /// table's.
    pub(super) fn policy_source(
        &mut self,
        table: &TableMeta,
        policy: &TablePolicy<'_>,
    ) -> Result<String, TrinoError> {
        let alias = self.alias("p");
        let relation = Relation {
            names: vec![
                vec![table.name.clone()],
                vec![table.schema.clone(), table.name.clone()],
                vec![
                    table.catalog.clone(),
                    table.schema.clone(),
                    table.name.clone(),
                ],
            ],
            columns: table
                .columns
                .iter()
                .map(|c| Column {
                    name: c.name.clone(),
                    ty: c.ty.clone(),
                    sql: format!("{alias}.{}", quote(&c.name)),
                    read: None,
                    hidden: false,
                })
                .collect(),
        };
        let name = table.qualified_name();
        let condition = match policy.filter {
            None => String::new(),
            Some(filter) => {
                let t = self.policy_expression(filter, &relation)?;
                // StatementAnalyzer.analyzeRowFilter.
                if !matches!(t.ty, TrinoType::Boolean | TrinoType::Unknown) {
                    return Err(TrinoError::new(
                        ErrorName::TypeMismatch,
                        format!(
                            "Expected row filter for '{name}' to be of type BOOLEAN, but was {}",
                            t.ty
                        ),
                    ));
                }
                format!(" WHERE {}", t.sql)
            }
        };
        let mut items = Vec::with_capacity(relation.columns.len());
        for column in &relation.columns {
            let mask = policy
                .masks
                .iter()
                .find(|(c, _)| c.eq_ignore_ascii_case(&column.name));
            let sql = match mask {
                None => column.sql.clone(),
                Some((_, mask)) => {
                    let t = self.policy_expression(mask, &relation)?;
                    // StatementAnalyzer.analyzeColumnMask: the mask's type or one coercing to it.
                    if super_type(&t.ty, &column.ty).as_ref() != Some(&column.ty) {
                        return Err(TrinoError::new(
                            ErrorName::TypeMismatch,
                            format!(
                                "Expected column mask for '{name}.{}' to be of type {}, but was {}",
                                column.name, column.ty, t.ty
                            ),
                        ));
                    }
                    self.coerce_to(t, &column.ty, None)?.sql
                }
            };
            items.push(format!("{sql} AS {}", quote(&column.name)));
        }
        Ok(format!(
            "(SELECT {} FROM {} AS {alias}{condition})",
            items.join(", "),
            table.sqlite_name
        ))
    }

    /// A view of a developer's SQLite file is SQLite SQL the stand-in does not rewrite: one
    /// reading a table the person's rules filter or mask is refused rather than read around
    /// the policy (a rule on the view itself shapes it as any table).
    pub(super) fn refuse_shaped_view(&self, view: &TableMeta) -> Result<(), TrinoError> {
        let (Some(viewer), Some(reads)) = (
            self.session.viewer.as_ref(),
            self.catalogs
                .view_reads(&view.catalog, &view.schema, &view.name),
        ) else {
            return Ok(());
        };
        match reads.iter().find(|t| {
            viewer
                .table_policy(&view.catalog, &view.schema, t)
                .is_some()
        }) {
            None => Ok(()),
            // Trino's Access Denied messages name no place in the query.
            Some(table) => Err(TrinoError::new(
                ErrorName::PermissionDenied,
                format!(
                    "Access Denied: Cannot select from view {}: it reads table {}.{}.{table}, \
                     whose row filter or column masks the QueryMesh stand-in cannot apply \
                     inside a SQLite view",
                    view.qualified_name(),
                    view.catalog,
                    view.schema
                ),
            )),
        }
    }

    /// `e` typed over `relation` alone, `current_user` being its environment's user.
    fn policy_expression(
        &mut self,
        e: &PolicyExpression,
        relation: &Relation,
    ) -> Result<Typed, TrinoError> {
        let session = SessionContext {
            user: e.user.clone().or_else(|| self.session.user.clone()),
            // The rules do not apply again inside their own expressions.
            viewer: None,
            ..self.session.clone()
        };
        let mut nested = Analyzer::new(self.catalogs, &session, &e.tokens);
        // Aliases stay unique across the whole statement.
        nested.next_alias = self.next_alias;
        let scope = Scope::new(vec![relation.clone()], None);
        let cx = ExprContext {
            scope: &scope,
            clause: Clause::Where,
            in_aggregate: false,
            group_keys: None,
        };
        let typed = nested.expr(&e.expr, &cx);
        self.next_alias = nested.next_alias;
        typed
    }
}
