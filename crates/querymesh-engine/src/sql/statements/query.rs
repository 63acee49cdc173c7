//! A query (SELECT, WITH, VALUES, TABLE): the syntax stage's checks and rewrites, sqlparser's
//! parse of exactly one query, then the analysis, whose SQLite SELECT the plan runs.

use std::sync::Arc;

use sqlparser::ast::{Query, Statement};
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::TokenWithSpan;

use crate::catalog::Catalogs;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::routines::Routines;
use crate::sql::analyze::{self, Analyzer};
use crate::sql::syntax::dialect::TrinoDialect;
use crate::sql::syntax::token::blank_prefix;
use crate::sql::syntax::{self, lexical, syntax_error_near, tokenize};
use crate::sql::{Body, Plan};
use crate::{OutputColumn, SessionContext, TableAccess};

/// Plans the query `sql`: `all_tokens` every token, `tokens` the significant ones.
pub(crate) fn plan(
    catalogs: &Catalogs,
    session: &SessionContext,
    sql: &str,
    all_tokens: Vec<TokenWithSpan>,
    tokens: &[TokenWithSpan],
) -> Result<Plan, TrinoError> {
    plan_calling(
        catalogs,
        session,
        sql,
        all_tokens,
        tokens,
        Routines::default(),
        0,
    )
}

/// Plans `WITH FUNCTION … query`: the routines read and compiled, then the query after them
/// (the routines' text blanked, so positions stay the statement's) with them in scope.
pub(crate) fn plan_with_routines(
    catalogs: &Catalogs,
    session: &SessionContext,
    sql: &str,
    tokens: &[TokenWithSpan],
) -> Result<Plan, TrinoError> {
    let (specs, query_start) = syntax::routines::parse(sql, tokens)?;
    let rest = blank_prefix(sql, query_start);
    let (all_tokens, tokens) = tokenize(&rest)?;
    syntax::check_one_statement(&tokens)?;
    let mut next_alias = 0;
    let routines = analyze::routines::compile(&specs, sql, catalogs, session, &mut next_alias)?;
    plan_calling(
        catalogs, session, &rest, all_tokens, &tokens, routines, next_alias,
    )
}

fn plan_calling(
    catalogs: &Catalogs,
    session: &SessionContext,
    sql: &str,
    all_tokens: Vec<TokenWithSpan>,
    tokens: &[TokenWithSpan],
    routines: Routines,
    next_alias: u32,
) -> Result<Plan, TrinoError> {
    lexical::check(tokens)?;
    let first_at = tokens.first().map(|t| Position::from(t.span.start));
    let query = parse_query_tokens(sql, all_tokens, tokens, first_at)?;
    let mut analyzer = Analyzer::new(catalogs, session, tokens);
    analyzer.routines = Arc::new(routines);
    analyzer.next_alias = next_alias;
    let block = analyzer.query(&query, None)?;
    if let Some(refusal) = analyzer.planning_refusal {
        return Err(Arc::unwrap_or_clone(refusal));
    }
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
pub(crate) fn merged_reads(reads: Vec<TableAccess>) -> Vec<TableAccess> {
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
pub(crate) fn parse_query(sql: &str) -> Result<(Box<Query>, Vec<TokenWithSpan>), TrinoError> {
    let (all_tokens, tokens) = tokenize(sql)?;
    let first_at = tokens.first().map(|t| Position::from(t.span.start));
    let query = parse_query_tokens(sql, all_tokens, &tokens, first_at)?;
    Ok((query, tokens))
}

/// The checks before parsing, the rewrites, and the parse of `sql` as exactly one query.
pub(crate) fn parse_query_tokens(
    sql: &str,
    mut all_tokens: Vec<TokenWithSpan>,
    tokens: &[TokenWithSpan],
    first_at: Option<Position>,
) -> Result<Box<Query>, TrinoError> {
    syntax::prepare_query(sql, &mut all_tokens, tokens)?;
    let mut parser = Parser::new(&TrinoDialect)
        .with_recursion_limit(crate::sql::limits::PARSER_RECURSION_LIMIT)
        .with_tokens_with_locations(all_tokens);
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
