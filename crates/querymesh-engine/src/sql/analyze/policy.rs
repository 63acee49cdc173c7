//! Row filters and column masks (Trino's `ViewExpression`s of the file-based access control):
//! a base table read for a person whose first matching rule filters or masks it is read as the
//! derived table `(SELECT <mask or column> AS column, … FROM table WHERE <filter>)`, so every
//! later stage (types, `*`, joins, CTEs, subqueries, UNNEST) sees the table's own columns,
//! names and types.
//!
//! As in Trino's RelationPlanner.visitTable (`addRowFilters`, then `addColumnMasks`), the
//! filter reads the table's stored values and masks apply to what the query sees. Each
//! expression is analysed as Trino SQL in a scope of the table's columns only, with the table's
//! catalog and schema as defaults (the file-based rules' `ViewExpression`s carry them), as its
//! identity: the environment's `user` (with no groups: see [`Viewer::as_environment_user`])
//! or else whoever reads the table — StatementAnalyzer.analyzeRowFilter / analyzeColumnMask.
//! That identity is `current_user`, its rules filter and mask the tables the expression's
//! subqueries read (and so on down), and it must be allowed to select what they read
//! (Trino's access-denied message otherwise). A filter reached again for the same table and
//! reader while it is being analysed (directly or through others) is Trino's `Row filter for
//! '…' is recursive`; masks likewise. Any other failure inside is wrapped as Trino wraps it,
//! `Invalid row filter for '…': …`, at the table's place in the query.

use querymesh_values::coerce::super_type;
use querymesh_values::sqlite_expr::{FromItem, Select as SqlSelect, SqlExpr};
use querymesh_values::typed::Typed;
use sqlparser::ast::Expr;
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::SessionContext;
use crate::access::{TablePolicy, Viewer};
use crate::catalog::{Catalogs, TableMeta};
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::Analyzer;
use crate::sql::analyze::scope::{Clause, Column, ExprContext, Relation, Scope};
use crate::sql::syntax::dialect::TrinoDialect;
use crate::sql::syntax::{prepare_expression, syntax_error, tokenize};
use crate::types::TrinoType;

/// What is being analysed around a point of the analysis, for Trino's recursion checks
/// (`Analysis.registerTableForRowFiltering` / `registerTableForColumnMasking`, keyed by the
/// identity reading the table; views by name).
#[derive(Clone, Debug, PartialEq)]
pub(in crate::sql) enum Frame {
    Filter {
        table: String,
        reader: String,
    },
    Mask {
        table: String,
        column: String,
        reader: String,
    },
    View(String),
}

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
        let (mut all, significant) = tokenize(text)?;
        prepare_expression(&mut all);
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
    analyzer
        .policy_source(table, policy, None, None)
        .map(|_| ())
}

impl Analyzer<'_> {
    /// The SQLite source reading `table` (whose rows come from `view`, a view expanded by
    /// views.rs, or else the table itself) as `policy` shapes it, its columns named as the
    /// table's. `at` is where the query names the table, for errors.
    pub(in crate::sql) fn policy_source(
        &mut self,
        table: &TableMeta,
        policy: &TablePolicy<'_>,
        view: Option<SqlSelect>,
        at: Option<Position>,
    ) -> Result<SqlSelect, TrinoError> {
        let alias = self.alias("p");
        let from = match view {
            Some(view) => FromItem::Subquery {
                select: Box::new(view),
                alias: Some(alias.clone()),
            },
            // The table as its catalog names it (`"db"."t"`).
            None => crate::sql::analyze::visible::catalog_table(table, Some(alias.clone())),
        };
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
                    sql: SqlExpr::column(Some(&alias), c.name.clone()),
                    read: None,
                    hidden: false,
                    unlisted: false,
                    planning_refusal: None,
                })
                .collect(),
        };
        let name = table.qualified_name();
        let reader = self.session.user.clone().unwrap_or_default();
        let condition = match policy.filter {
            None => None,
            Some(filter) => {
                let frame = Frame::Filter {
                    table: name.clone(),
                    reader: reader.clone(),
                };
                let what = (
                    ErrorName::InvalidRowFilter,
                    format!("Row filter for '{name}'"),
                    format!("Invalid row filter for '{name}'"),
                );
                let t = self.framed_expression(filter, &relation, table, frame, at, what)?;
                // StatementAnalyzer.analyzeRowFilter, at the table in the query.
                if !matches!(t.ty, TrinoType::Boolean | TrinoType::Unknown) {
                    return Err(error_at(
                        ErrorName::TypeMismatch,
                        at,
                        format!(
                            "Expected row filter for '{name}' to be of type BOOLEAN, but was {}",
                            t.ty
                        ),
                    ));
                }
                Some(t.sql)
            }
        };
        let mut items = Vec::with_capacity(relation.columns.len());
        for column in &relation.columns {
            let mask = policy
                .masks
                .iter()
                .find(|(c, _)| c.eq_ignore_ascii_case(&column.name));
            let sql = match mask {
                None => SqlExpr::column(Some(&alias), column.name.clone()),
                Some((_, mask)) => {
                    let frame = Frame::Mask {
                        table: name.clone(),
                        column: column.name.clone(),
                        reader: reader.clone(),
                    };
                    let what = (
                        ErrorName::InvalidColumnMask,
                        format!("Column mask for '{name}.{}'", column.name),
                        format!("Invalid column mask for '{name}.{}'", column.name),
                    );
                    let t = self.framed_expression(mask, &relation, table, frame, at, what)?;
                    // StatementAnalyzer.analyzeColumnMask: the mask's type or one coercing to it.
                    if super_type(&t.ty, &column.ty).as_ref() != Some(&column.ty) {
                        return Err(error_at(
                            ErrorName::TypeMismatch,
                            at,
                            format!(
                                "Expected column mask for '{name}.{}' to be of type {}, but was {}",
                                column.name, column.ty, t.ty
                            ),
                        ));
                    }
                    self.coerce_to(t, &column.ty, None)?.sql
                }
            };
            items.push((sql, Some(column.name.clone())));
        }
        Ok(SqlSelect {
            columns: items,
            from: vec![from],
            filter: condition,
            ..SqlSelect::default()
        })
    }

    /// [`Analyzer::policy_expression`] inside `frame`: Trino's recursion error if the frame is
    /// open already, and any failure but an access denial (which Trino raises after analysis,
    /// unwrapped) wrapped as `<invalid>: <message>` with its error name, at `at`. `what` is
    /// (recursion's error name, `<subject>` of "<subject> is recursive", `<invalid>`).
    fn framed_expression(
        &mut self,
        e: &PolicyExpression,
        relation: &Relation,
        table: &TableMeta,
        frame: Frame,
        at: Option<Position>,
        what: (ErrorName, String, String),
    ) -> Result<Typed, TrinoError> {
        let (recursive, subject, invalid) = what;
        if self.frames.contains(&frame) {
            return Err(error_at(recursive, at, format!("{subject} is recursive")));
        }
        self.frames.push(frame);
        let typed = self.policy_expression(e, relation, table);
        self.frames.pop();
        typed.map_err(|e| match e.name {
            ErrorName::PermissionDenied => e,
            // At start (no place in a query) the expression's own place is the better one.
            name => error_at(name, at.or(e.location), format!("{invalid}: {}", e.text)),
        })
    }

    /// `e` typed over `relation` alone, as its identity: the environment's user, or whoever
    /// reads `table` (`current_user`, the rules applied to what it reads, the tables it reads
    /// checked). Unqualified names resolve in `table`'s catalog and schema.
    fn policy_expression(
        &mut self,
        e: &PolicyExpression,
        relation: &Relation,
        table: &TableMeta,
    ) -> Result<Typed, TrinoError> {
        let viewer: Option<Viewer> = match &e.user {
            Some(user) => self
                .session
                .viewer
                .as_ref()
                .map(|v| v.as_environment_user(user)),
            None => self.session.viewer.clone(),
        };
        let session = SessionContext {
            user: e.user.clone().or_else(|| self.session.user.clone()),
            viewer,
            catalog: Some(table.catalog.clone()),
            schema: Some(table.schema.clone()),
            ..self.session.clone()
        };
        let mut nested = Analyzer::new(self.catalogs, &session, &e.tokens);
        // Aliases stay unique across the whole statement; the frames and the stack are the
        // statement's.
        nested.next_alias = self.next_alias;
        nested.stack = self.stack;
        nested.frames = std::mem::take(&mut self.frames);
        let scope = Scope::new(vec![relation.clone()], None);
        let cx = ExprContext {
            scope: &scope,
            clause: Clause::Where,
            in_aggregate: false,
            group_keys: None,
        };
        let typed = nested.expr(&e.expr, &cx);
        self.next_alias = nested.next_alias;
        self.frames = std::mem::take(&mut nested.frames);
        let typed = typed?;
        if let Some(viewer) = &session.viewer {
            viewer.check_select(&nested.reads)?;
        }
        Ok(typed)
    }
}
