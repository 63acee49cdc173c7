//! Trino's built-in table functions (docs functions/table), invoked in FROM as
//! `TABLE(name(arguments)) [AS alias [(columns)]]`:
//!
//! - `sequence(start => 0, stop, step => 1)`: one bigint column `sequential_number`
//!   (SequenceFunction), a recursive SQLite query that holds one row at a time; its rows are
//!   the query's to hold, under its memory budget, as any other result.
//! - `exclude_columns(input => TABLE(t), columns => DESCRIPTOR(a, …))`: the input's columns
//!   but those named (ExcludeColumnsFunction).
//!
//! Names resolve as Trino 476 resolves them: `name` or `system.builtin.name`, in any case;
//! anything else is FUNCTION_NOT_FOUND "Table function 'x' not registered".

mod arguments;
mod exclude_columns;
mod sequence;
use crate::sql::syntax::table_functions as tokens;

use sqlparser::ast::{Expr, FunctionArguments, ObjectName, ObjectNamePart, TableAlias};

use querymesh_values::sqlite_expr::{FromItem, Query, SqlExpr};

use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::scope::{Column, Relation};
use crate::sql::analyze::select::output_name;
use crate::sql::analyze::{Analyzer, ident_location, ident_name, location};
use crate::types::TrinoType;

/// What SHOW FUNCTIONS lists of them: name and argument types, by name.
pub(in crate::sql) const LISTED: &[(&str, &str)] = &[
    ("exclude_columns", "unknown, unknown"),
    ("sequence", "bigint, bigint, bigint"),
];

/// A table function's result before its alias: SQLite text of the form `(SELECT … AS "c1",
/// …)` and its columns' names and types.
struct Output {
    /// The rows, columns `"c1"`, ….
    sql: Query,
    columns: Vec<(String, TrinoType)>,
}

impl Analyzer<'_> {
    /// `TABLE(expr) [AS alias]` in FROM; `relations` gains its relation.
    pub(in crate::sql) fn table_function(
        &mut self,
        expr: &Expr,
        alias: Option<&TableAlias>,
        relations: &mut Vec<Relation>,
    ) -> Result<FromItem, TrinoError> {
        let Expr::Function(call) = expr else {
            return Err(error_at(
                ErrorName::SyntaxError,
                location(expr),
                "mismatched input. Expecting: <identifier>",
            ));
        };
        let at = location(&call.name).or_else(|| location(expr));
        let args: &[sqlparser::ast::FunctionArg] = match &call.args {
            FunctionArguments::List(list) => &list.args,
            _ => &[],
        };
        let output = match builtin_name(&call.name).as_deref() {
            Some("sequence") => self.sequence(args, at)?,
            Some("exclude_columns") => self.exclude_columns(args, at)?,
            _ => {
                return Err(error_at(
                    ErrorName::FunctionNotFound,
                    at,
                    format!(
                        "Table function '{}' not registered",
                        written_name(&call.name)
                    ),
                ));
            }
        };
        let sql_alias = self.alias("t");
        let columns: Vec<Column> = output
            .columns
            .into_iter()
            .enumerate()
            .map(|(i, (name, ty))| Column {
                name,
                ty,
                sql: SqlExpr::column(Some(&sql_alias), output_name(i + 1)),
                read: None,
                hidden: false,
                unlisted: false,
                planning_refusal: None,
            })
            .collect();
        relations.push(self.table_function_alias(columns, alias)?);
        Ok(FromItem::query(output.sql, Some(sql_alias)))
    }

    /// The result's relation: no name without an alias; an alias's column names in their
    /// canonical form, unquoted ones upper-cased (Trino 476 answers
    /// `TABLE(sequence(stop => 2)) AS s(n)` with a column `N`).
    fn table_function_alias(
        &self,
        mut columns: Vec<Column>,
        alias: Option<&TableAlias>,
    ) -> Result<Relation, TrinoError> {
        let Some(alias) = alias else {
            return Ok(Relation {
                names: Vec::new(),
                columns,
            });
        };
        if !alias.columns.is_empty() {
            if alias.columns.len() != columns.len() {
                return Err(error_at(
                    ErrorName::MismatchedColumnAliases,
                    self.table_keyword_before(ident_location(&alias.name)),
                    format!(
                        "Column alias list has {} entries but table function has {} proper columns",
                        alias.columns.len(),
                        columns.len()
                    ),
                ));
            }
            for (c, a) in columns.iter_mut().zip(&alias.columns) {
                c.name = match a.name.quote_style {
                    Some(_) => a.name.value.clone(),
                    None => a.name.value.to_uppercase(),
                };
            }
        }
        Ok(Relation {
            names: vec![vec![ident_name(&alias.name)]],
            columns,
        })
    }

    /// Where the relation starts: the last `TABLE` keyword before `at` (the syntax tree keeps
    /// no place for it).
    fn table_keyword_before(&self, at: Option<Position>) -> Option<Position> {
        let at = at?;
        self.tokens
            .iter()
            .rev()
            .filter(|t| {
                matches!(&t.token, sqlparser::tokenizer::Token::Word(w)
                    if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("TABLE"))
            })
            .map(|t| Position::from(t.span.start))
            .find(|p| (p.line, p.column) < (at.line, at.column))
            .or(Some(at))
    }
}

/// The built-in table function a name resolves to: `name`, or `system.builtin.name`.
fn builtin_name(name: &ObjectName) -> Option<String> {
    let parts: Vec<String> = name
        .0
        .iter()
        .map(|p| match p {
            ObjectNamePart::Identifier(i) => ident_name(i),
            other => other.to_string().to_lowercase(),
        })
        .collect();
    match parts.as_slice() {
        [name] => Some(name.clone()),
        [catalog, schema, name] if catalog == "system" && schema == "builtin" => Some(name.clone()),
        _ => None,
    }
    .filter(|n| LISTED.iter().any(|(listed, _)| listed == n))
}

/// The name as Trino's message writes it: each part lower-cased, dotted.
fn written_name(name: &ObjectName) -> String {
    name.0
        .iter()
        .map(|p| match p {
            ObjectNamePart::Identifier(i) => ident_name(i),
            other => other.to_string().to_lowercase(),
        })
        .collect::<Vec<_>>()
        .join(".")
}
