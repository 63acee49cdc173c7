//! Trino SQL → SQLite, in stages: the text's tokens checked and rewritten (`syntax`), the
//! statement they are read once (`statements`), a query parsed (sqlparser with
//! [`dialect::TrinoDialect`]) and analysed against the catalogs (names, Trino types, Trino's
//! refusals with `line L:C`) into a SQLite query tree (querymesh-values `sqlite_expr`: the
//! analysis builds nodes, never text), rendered once into the plan, whose result columns are
//! typed by the analysis (DESIGN.md "Inside the stand-in"). [`plan`] is the match over the
//! statement.
//!
//! # Layout
//!
//! Below this module, in crates of their own: Trino's values and their SQLite form
//! (`querymesh-values`: typed expressions and the SQLite expression tree, string literals,
//! the element form, coercions, decimals, dates) and the functions (`querymesh-functions`: the
//! families and their lowerings, which see a `LowerContext`, never the analyser; the `qm_*` SQLite
//! functions).
//!
//! - `syntax/`: the dialect ([`dialect`]), one copy of the token helpers (`token`, and
//!   `cursor`, the statements' reader), the checks before parsing (`lexical`: Trino's grammar
//!   where sqlparser is more lenient; `row_count`: LIMIT / OFFSET / FETCH) and the rewrites of
//!   what sqlparser cannot read (`respell`, `cast_types`, `json_syntax`, `json_table`,
//!   `table_functions`).
//! - `statements/`: `Statement`, one enum read once from the tokens, and one file per
//!   statement: `query` (parse and analysis of a query), `show/` (SHOW and DESCRIBE),
//!   `explain`, [`session`] (and `session/properties`, Trino's list), [`use_schema`],
//!   `execute_immediate`, `writes` (DDL and DML checked in Trino's order, then refused: the
//!   data is read-only), `call` (procedures), `refused` (by the first word), [`describe`]
//!   (DESCRIBE INPUT / OUTPUT of a prepared statement).
//! - `analyze` and `analyze/`: the analysis, one file per part of a query (the query and its
//!   blocks, FROM, expressions, `calls/`), each building the SQLite tree; its layout is in
//!   `analyze.rs`.
//! - `match_recognize/`: MATCH_RECOGNIZE's row pattern matching (the pattern, its program,
//!   the matcher over a partition), self-contained and not yet wired into the analysis.
//! - `limits` (how large a statement may be) and `encode` (values in Trino's JSON encoding,
//!   by the analysed type: what execution sends back).
//! - This file: the [`Plan`] a statement becomes, and [`plan`].

mod analyze;
pub mod encode;
mod limits;
// Not yet called: the analysis of MATCH_RECOGNIZE will be its first user.
#[allow(dead_code, unused_imports)]
pub(crate) mod match_recognize;
mod statements;
mod syntax;

/// The values' and functions' modules the product and the library's users name through the
/// engine.
pub use querymesh_functions::udf;
pub use querymesh_values::{calendar, decimal, java_number};

use statements::{Statement, call, execute_immediate, explain, query, show, writes};
/// The statements the product and the analysis name here.
pub use statements::{describe, session, use_schema};
/// Trino's dialect, which the product's other parsers (the rules file's) share.
pub use syntax::dialect;
/// The rewrites' marks the analysis reads back.
use syntax::{json_syntax, respell};

use serde_json::Value;

use super::catalog::Catalogs;
use super::error::TrinoError;
use super::{OutputColumn, SessionContext, TableAccess};
use statements::query::parse_query;

pub use analyze::policy::{PolicyExpression, check as check_policy};
pub use analyze::views::view_query;
pub use limits::sqlite_limit;
pub use querymesh_values::sqlite_text::sql_string;

/// What running a statement does.
#[derive(Clone, Debug)]
pub enum Body {
    /// Run this SQLite SELECT; its columns are the plan's columns, in order.
    Sql(String),
    /// Answered from the catalogs (SHOW, DESCRIBE).
    Rows(Vec<Vec<Value>>),
    /// Run this SQLite SELECT, whose columns are the plan's, and answer what `finish` makes of
    /// all its rows: Trino's estimates computed from a table's statistics.
    Derived { sql: String, finish: Finish },
}

/// Rows of values, as a statement answers them.
pub type Rows = Vec<Vec<Value>>;

/// What a [`Body::Derived`] makes of its query's rows; rows of another shape than it was
/// planned for are the stand-in's fault (GENERIC_INTERNAL_ERROR), never another answer.
#[derive(Clone)]
pub struct Finish(
    pub std::sync::Arc<dyn Fn(Rows) -> Result<Rows, crate::error::InternalError> + Send + Sync>,
);

impl std::fmt::Debug for Finish {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Finish(..)")
    }
}

impl Body {
    /// The SQLite SELECT it runs, if it runs one.
    pub fn sqlite_sql(&self) -> Option<&str> {
        match self {
            Body::Sql(sql) | Body::Derived { sql, .. } => Some(sql),
            Body::Rows(_) => None,
        }
    }
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
    /// Trino's answer to a statement without output of its own (USE, PREPARE, SET SESSION,
    /// …): no columns and no rows (Trino 476 sends `"columns": []`), its update type saying
    /// what it did.
    pub fn without_output(session_update: Option<use_schema::SessionUpdate>) -> Self {
        Self {
            columns: Vec::new(),
            reads: Vec::new(),
            body: Body::Rows(Vec::new()),
            session_update,
        }
    }
}

/// The session a statement runs under: `session`, with the properties of a leading `WITH
/// SESSION` clause set (its errors are the plan's to report).
pub fn statement_session(sql: &str, session: &SessionContext) -> Option<SessionContext> {
    let head = sql.trim_start().get(..4)?;
    if !head.eq_ignore_ascii_case("with") {
        return None;
    }
    let (_, tokens) = syntax::tokenize(sql).ok()?;
    // Only the properties matter here; the plan reports the clause's errors.
    session::with_session::with_session(&tokens, sql, session, &|_| true)
        .ok()
        .flatten()
        .map(|(changed, _)| changed)
}

/// Analyses one Trino statement into a plan: its tokens, the statement they are, and that
/// statement's plan.
pub fn plan(catalogs: &Catalogs, sql: &str, session: &SessionContext) -> Result<Plan, TrinoError> {
    // A session zone Trino does not know fails every query ("Time zone not supported: …").
    analyze::zoned::session_zone_id(session)?;
    let (all_tokens, tokens) = syntax::tokenize(sql)?;
    let nesting = limits::nesting(&tokens);
    limits::check_nesting(nesting)?;
    let plan = limits::with_stack_for(nesting, || {
        plan_tokens(catalogs, sql, session, all_tokens, &tokens)
    })?;
    limits::check_output_depth(&plan.columns)?;
    Ok(plan)
}

/// [`plan`] of the statement's tokens, on a stack that holds its nesting.
fn plan_tokens(
    catalogs: &Catalogs,
    sql: &str,
    session: &SessionContext,
    all_tokens: Vec<sqlparser::tokenizer::TokenWithSpan>,
    tokens: &[sqlparser::tokenizer::TokenWithSpan],
) -> Result<Plan, TrinoError> {
    let is_catalog = |name: &str| catalogs.has_catalog(name);
    if let Some((changed, query)) =
        session::with_session::with_session(tokens, sql, session, &is_catalog)?
    {
        // The query, where it stands, under the properties the clause sets.
        let Some(start) = tokens.get(query) else {
            return Err(syntax::token::mismatched(
                None,
                syntax::token::end_of(sql),
                "',', 'WITH', <query>",
            ));
        };
        let offset = syntax::byte_offset(sql, crate::error::Position::from(start.span.start));
        return plan(
            catalogs,
            &syntax::token::blank_prefix(sql, offset),
            &changed,
        );
    }
    if syntax::routines::recognise(tokens) {
        return query::plan_with_routines(catalogs, session, sql, tokens);
    }
    syntax::check_one_statement(tokens)?;
    match Statement::parse(tokens, sql)? {
        Statement::ExecuteImmediate => {
            let bound = execute_immediate::bind(sql, tokens)?;
            plan(catalogs, &bound, session)
        }
        Statement::Use => use_schema::plan(tokens, sql, catalogs, session),
        Statement::Explain => explain::plan(tokens, sql, catalogs, session),
        Statement::Session(form) => session::plan(form, tokens, sql, session, &|name| {
            catalogs.has_catalog(name)
        }),
        Statement::Write { form, taken } => {
            writes::plan(form, taken, tokens, sql, catalogs, session)
        }
        Statement::Call => call::plan(tokens, sql, catalogs, session),
        Statement::Refused(refusal) => Err(refusal),
        Statement::Show { describe } => show::plan(describe, tokens, sql, catalogs, session),
        Statement::Query => query::plan(catalogs, session, sql, all_tokens, tokens),
    }
}
