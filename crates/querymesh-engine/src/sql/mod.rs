//! Trino SQL → SQLite: parse (sqlparser with [`dialect::TrinoDialect`]), analyse against the
//! catalogs (names, Trino types, Trino's refusals with `line L:C`), emit SQLite SQL whose
//! result columns are typed by the analysis (DESIGN.md "Inside the stand-in").
//!
//! # Layout
//!
//! Below this module, in crates of their own: Trino's values and their SQLite text
//! (`querymesh-values`: typed expressions, string literals, the element form, coercions,
//! decimals, dates) and the functions (`querymesh-functions`: the families and their
//! lowerings, which see a `LowerContext`, never the analyser; the `qm_*` SQLite functions).
//!
//! - The analysis (`analyze` and `analyze/`: the `Analyzer` and query blocks): `calls/` (a
//!   call's syntax, its resolution through the function registry, and the `LowerContext` the
//!   analyser gives lowerings), `expr`, `operators`, `predicates`, `casts`, `json_casts`,
//!   `complex`, `rows`, `literal`, `zoned`, `select`, `from`, `unnest`, `grouping_sets`,
//!   `order_by`, `policy`, `views`.
//! - Token-level checks before parsing: `lexical` (Trino's grammar where sqlparser is more
//!   lenient: reserved words as aliases, chained predicates, identifiers starting with a
//!   digit), `respell`, `json_syntax`.
//! - Statements other than queries: `show*`, [`describe`], `explain`, [`session`] (and
//!   `session_properties`, Trino's list), [`use_schema`], `execute_immediate`, `writes`
//!   (DDL and DML checked in Trino's order, then refused: the data is read-only), `call`
//!   (procedures); this file turns a statement into a plan.

mod analyze;
mod call;
mod calls;
mod cast_types;
mod casts;
mod complex;
pub mod describe;
pub mod dialect;
pub mod encode;
mod execute_immediate;
mod explain;
mod expr;
mod from;
mod grammar;
mod grouping_sets;
mod json_casts;
mod json_syntax;
mod json_table;
mod lexical;
mod limits;
mod literal;
mod operators;
mod order_by;
mod policy;
mod predicates;
mod quantified;
mod respell;
mod rows;
mod scope;
mod select;
pub mod session;
mod session_properties;
mod show;
mod show_create;
mod show_functions;
mod show_stats;
mod table_functions;
mod unnest;
pub mod use_schema;
mod views;
mod visible;
mod writes;
mod zoned;

/// The values' and functions' modules the product and the library's users name through the
/// engine.
pub use querymesh_functions::udf;
pub use querymesh_values::{calendar, decimal, java_number};

use serde_json::Value;
use sqlparser::ast::Statement;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

use super::catalog::Catalogs;
use super::error::{ErrorName, Position, TrinoError};
use super::types::TrinoType;
use super::{OutputColumn, SessionContext, TableAccess};
use crate::error::error_at;
use analyze::Analyzer;
use dialect::TrinoDialect;

pub use limits::sqlite_limit;
pub use policy::{PolicyExpression, check as check_policy};
pub use querymesh_values::sqlite_text::sql_string;
pub use views::view_query;

/// What running a statement does.
#[derive(Clone, Debug)]
pub enum Body {
    /// Run this SQLite SELECT; its columns are the plan's columns, in order.
    Sql(String),
    /// Answered from the catalogs (SHOW, DESCRIBE).
    Rows(Vec<Vec<Value>>),
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub columns: Vec<OutputColumn>,
    pub reads: Vec<TableAccess>,
    pub body: Body,
    /// USE: the session change the client is told to make.
    pub session_update: Option<use_schema::SessionUpdate>,
}

impl Plan {
    /// Trino's answer to a statement without output of its own (USE, PREPARE, …): one
    /// boolean `result`, true.
    pub fn without_output(session_update: Option<use_schema::SessionUpdate>) -> Self {
        Self {
            columns: vec![OutputColumn {
                name: "result".into(),
                ty: TrinoType::Boolean,
            }],
            reads: Vec::new(),
            body: Body::Rows(vec![vec![Value::Bool(true)]]),
            session_update,
        }
    }
}

/// `Expected: X, found: Y at Line: L, Column: C` → `line L:C: mismatched input 'Y'. Expecting: X`.
/// The position just past the end of `sql`, where Trino reports an unexpected `<EOF>`.
fn end_of(sql: &str) -> Position {
    let line = sql.lines().count().max(1) as u64;
    let column = sql.lines().last().map_or(0, |l| l.chars().count()) as u64 + 1;
    Position::new(line, column)
}

fn syntax_error(e: ParserError, sql: &str) -> TrinoError {
    syntax_error_near(e, sql, None)
}

/// [`syntax_error`], placed at `fallback` when sqlparser's message names no place.
fn syntax_error_near(e: ParserError, sql: &str, fallback: Option<Position>) -> TrinoError {
    let message = match e {
        ParserError::ParserError(m) | ParserError::TokenizerError(m) => m,
        ParserError::RecursionLimitExceeded => return limits::too_large(),
    };
    let (text, location) = match message.rsplit_once(" at Line: ") {
        Some((text, loc)) => {
            let mut nums = loc
                .split(", Column: ")
                .map(|n| n.trim().parse::<u64>().ok());
            let line = nums.next().flatten();
            let column = nums.next().flatten();
            (
                text.to_string(),
                line.zip(column).map(|(l, c)| Position::new(l, c)),
            )
        }
        None => (message.clone(), fallback),
    };
    // sqlparser's "Expected an expression, found: FROM" (a select list left empty) places
    // itself at the token after FROM; `fallback` has found FROM itself.
    let (text, location) = match text.strip_prefix("Expected an expression, found: ") {
        Some(found) => (
            format!("Expected: <expression>, found: {found}"),
            fallback.or(location),
        ),
        None => (text, location),
    };
    let text = match text
        .strip_prefix("Expected: ")
        .and_then(|t| t.rsplit_once(", found: "))
    {
        Some((expected, "EOF")) => {
            return TrinoError::at(
                ErrorName::SyntaxError,
                end_of(sql),
                format!("mismatched input '<EOF>'. Expecting: {expected}"),
            );
        }
        Some((expected, found)) => {
            // Trino names the end of the statement <EOF>.
            let expected = expected.replace("end of statement", "<EOF>");
            format!("mismatched input '{found}'. Expecting: {expected}")
        }
        None => text,
    };
    error_at(ErrorName::SyntaxError, location, text)
}

/// The Trino-like refusal of a statement that would write or change the session's database.
fn refuse_statement(word: &str, at: Option<Position>) -> Option<TrinoError> {
    let not_supported = |what: &str| {
        Some(error_at(
            ErrorName::NotSupported,
            at,
            format!("This connector does not support {what}: QueryMesh data is read-only"),
        ))
    };
    match word.to_ascii_uppercase().as_str() {
        "INSERT" => not_supported("inserts"),
        "UPDATE" | "DELETE" | "MERGE" | "TRUNCATE" => not_supported("modifying table rows"),
        "CREATE" => not_supported("creating tables, views or schemas"),
        "DROP" => not_supported("dropping tables, views or schemas"),
        "ALTER" | "COMMENT" => not_supported("altering tables"),
        "GRANT" | "REVOKE" | "DENY" => not_supported("changing privileges"),
        "ATTACH" | "DETACH" | "PRAGMA" | "VACUUM" | "REINDEX" | "REPLACE" | "UPSERT" | "BEGIN"
        | "SAVEPOINT" | "RELEASE" => Some(error_at(
            ErrorName::SyntaxError,
            at,
            format!(
                "mismatched input '{word}'. Expecting: 'SELECT', 'WITH', 'VALUES', 'SHOW', 'DESCRIBE'"
            ),
        )),
        "SET" | "RESET" | "ANALYZE" | "CALL" | "EXECUTE" | "PREPARE" | "DEALLOCATE" | "START"
        | "COMMIT" | "ROLLBACK" => Some(error_at(
            ErrorName::NotSupported,
            at,
            format!(
                "{} statements are not supported by the QueryMesh stand-in",
                word.to_ascii_uppercase()
            ),
        )),
        _ => None,
    }
}

/// All tokens (for the parser) and the significant ones (for the checks before parsing).
fn tokens(sql: &str) -> Result<(Vec<TokenWithSpan>, Vec<TokenWithSpan>), TrinoError> {
    let all = Tokenizer::new(&TrinoDialect, sql)
        .tokenize_with_location()
        .map_err(|e| syntax_error(ParserError::TokenizerError(e.to_string()), sql))?;
    let significant = all
        .iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_) | Token::EOF))
        .cloned()
        .collect();
    Ok((all, significant))
}

/// Analyses one Trino statement into a plan.
pub fn plan(catalogs: &Catalogs, sql: &str, session: &SessionContext) -> Result<Plan, TrinoError> {
    // A session zone Trino does not know fails every query ("Time zone not supported: …").
    zoned::session_zone_id(session)?;
    let (all_tokens, tokens) = tokens(sql)?;
    let Some(first) = tokens.first() else {
        return Err(TrinoError::at(
            ErrorName::SyntaxError,
            Position::new(1, 1),
            "mismatched input '<EOF>'. Expecting: 'SELECT', 'WITH', 'VALUES', 'SHOW', 'DESCRIBE'",
        ));
    };
    // Trino takes exactly one statement, without a terminating semicolon.
    if let Some(semi) = tokens.iter().find(|t| t.token == Token::SemiColon) {
        return Err(TrinoError::at(
            ErrorName::SyntaxError,
            Position::from(semi.span.start),
            "mismatched input ';'. Expecting: <EOF>",
        ));
    }
    // Trino's lexer has no `==`: it reads `=` `=` and refuses the second.
    if let Some(double) = tokens.iter().find(|t| t.token == Token::DoubleEq) {
        let at = Position::from(double.span.start);
        return Err(TrinoError::at(
            ErrorName::SyntaxError,
            Position::new(at.line, at.column + 1),
            "mismatched input '='. Expecting: <expression>",
        ));
    }
    if execute_immediate::is_execute_immediate(&tokens) {
        let bound = execute_immediate::bind(sql, &tokens)?;
        return plan(catalogs, &bound, session);
    }
    if let Some(used) = use_schema::plan(&tokens, sql, catalogs, session) {
        return used;
    }
    if let Some(explained) = explain::plan(&tokens, sql, catalogs, session) {
        return explained;
    }
    if let Some(changed) = session::plan(&tokens, sql, session) {
        return changed;
    }
    lexical::procedure_name(&tokens, sql)?;
    if let Some(written) = writes::plan(&tokens, sql, catalogs, session) {
        return written;
    }
    if let Some(called) = call::plan(&tokens, sql, catalogs, session) {
        return called;
    }
    let first_at = Some(Position::from(first.span.start));
    if let Token::Word(w) = &first.token
        && let Some(refusal) = refuse_statement(&w.value, first_at)
    {
        return Err(refusal);
    }
    if let Some(shown) = show::plan(&tokens, catalogs, session) {
        return shown;
    }
    lexical::check(&tokens)?;
    let query = parse_query_tokens(sql, all_tokens, &tokens, first_at)?;
    let mut analyzer = Analyzer::new(catalogs, session, &tokens);
    let block = analyzer.query(&query, None)?;
    let reads = merged_reads(analyzer.reads);
    Ok(Plan {
        columns: block
            .columns
            .into_iter()
            .enumerate()
            .map(|(i, (name, ty))| OutputColumn {
                name: analyze::shown_name(name, i),
                ty,
            })
            .collect(),
        reads,
        body: Body::Sql(block.sql.to_string()),
        session_update: None,
    })
}

/// The analysis's table reads, one per table, their columns, filters and masks merged.
fn merged_reads(reads: Vec<TableAccess>) -> Vec<TableAccess> {
    let mut merged: Vec<TableAccess> = Vec::new();
    for read in reads {
        match merged
            .iter_mut()
            .find(|r| r.catalog == read.catalog && r.schema == read.schema && r.table == read.table)
        {
            Some(existing) => {
                for c in read.columns {
                    if !existing.columns.contains(&c) {
                        existing.columns.push(c);
                    }
                }
                for f in read.filters {
                    if !existing.filters.contains(&f) {
                        existing.filters.push(f);
                    }
                }
                for m in read.masks {
                    if !existing.masks.contains(&m) {
                        existing.masks.push(m);
                    }
                }
            }
            None => merged.push(read),
        }
    }
    merged
}

/// The one query of `sql` (a view's SELECT, read as Trino SQL) and its significant tokens.
fn parse_query(sql: &str) -> Result<(Box<sqlparser::ast::Query>, Vec<TokenWithSpan>), TrinoError> {
    let (all_tokens, tokens) = tokens(sql)?;
    let first_at = tokens.first().map(|t| Position::from(t.span.start));
    let query = parse_query_tokens(sql, all_tokens, &tokens, first_at)?;
    Ok((query, tokens))
}

/// The checks before parsing, the respelling, and the parse of `sql` as exactly one query.
fn parse_query_tokens(
    sql: &str,
    mut all_tokens: Vec<TokenWithSpan>,
    tokens: &[TokenWithSpan],
    first_at: Option<Position>,
) -> Result<Box<sqlparser::ast::Query>, TrinoError> {
    grammar::check_row_count_clauses(tokens, sql)?;
    limits::check_chains(tokens)?;
    respell::respell(&mut all_tokens);
    cast_types::replace_cast_types(&mut all_tokens);
    json_table::grammar::rewrite(&mut all_tokens)?;
    json_syntax::rewrite(&mut all_tokens);
    table_functions::tokens::rewrite(&mut all_tokens);
    let mut parser = Parser::new(&TrinoDialect).with_tokens_with_locations(all_tokens);
    let statements = parser.parse_statements().map_err(|e| {
        // A few of sqlparser's errors name no place: the culprit is the last token taken
        // that reads as what the message says it found.
        let found = match &e {
            ParserError::ParserError(m) => m
                .rsplit_once("found: ")
                .and_then(|(_, f)| f.split(" at Line: ").next())
                .map(str::to_string),
            _ => None,
        };
        let place = found.and_then(|found| {
            (0..=parser.get_current_index())
                .rev()
                .map(|i| parser.token_at(i))
                .find(|t| t.token.to_string().eq_ignore_ascii_case(&found))
                .map(|t| Position::from(t.span.start))
                .filter(|at| at.line > 0)
        });
        syntax_error_near(e, sql, place)
    })?;
    let mut statements = statements;
    if statements.len() != 1 {
        return Err(error_at(
            ErrorName::SyntaxError,
            first_at,
            "Exactly one statement is expected",
        ));
    }
    let Some(Statement::Query(query)) = statements.pop() else {
        return Err(error_at(
            ErrorName::NotSupported,
            first_at,
            "Only SELECT queries, SHOW and DESCRIBE are supported: QueryMesh data is read-only",
        ));
    };
    analyze::refuse_parenthesized_with(&query.body)?;
    Ok(query)
}
