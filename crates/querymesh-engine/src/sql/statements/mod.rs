//! The second stage: which statement the tokens are, read once into a [`Statement`], and the
//! statements other than queries planned from the same tokens, one file each:
//!
//! - `query`: a query (SELECT, WITH, VALUES, TABLE): parsed by sqlparser after the syntax
//!   stage's rewrites, then analysed (the analysis stage, `sql/analyze`).
//! - `show` (and `show/`: `create`, `functions`, `stats`): SHOW and DESCRIBE, answered from the
//!   catalogs and the function registry.
//! - `explain`: EXPLAIN, the statement analysed as if it ran.
//! - [`session`] (and `session/properties`, Trino's list): SET / RESET / SHOW SESSION, SET TIME
//!   ZONE.
//! - USE, in [`use_schema`].
//! - `execute_immediate`: EXECUTE IMMEDIATE, its parameters bound, then planned as sent.
//! - `writes`: DDL and DML checked in Trino's order, then refused (the data is read-only).
//! - `call`: CALL (procedures).
//! - `refused`: the statements refused by their first word.
//! - DESCRIBE INPUT / OUTPUT of a prepared statement, in [`describe`] (the server's PREPARE,
//!   EXECUTE and DEALLOCATE carry the prepared statements in the client's headers).
//!
//! The statement's reader stops at its first words: each file reads the rest with the
//! syntax stage's [`Cursor`](crate::sql::syntax::cursor::Cursor) or token helpers, in the
//! order Trino checks syntax, names and access.

pub(crate) mod call;
pub mod describe;
pub(crate) mod execute_immediate;
pub(crate) mod explain;
pub(crate) mod query;
mod refused;
pub mod session;
pub(crate) mod show;
pub mod use_schema;
pub(crate) mod writes;

use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::error::{Position, TrinoError};
use crate::sql::syntax::lexical;

/// One Trino statement, as its first words name it.
#[derive(Debug)]
pub(crate) enum Statement {
    /// `EXECUTE IMMEDIATE 'statement' [USING value, …]`.
    ExecuteImmediate,
    /// `USE [catalog.]schema`.
    Use,
    /// `EXPLAIN [(option, …)] statement`.
    Explain,
    /// SET / RESET / SHOW SESSION, SET TIME ZONE.
    Session(session::Form),
    /// DDL or DML: `form`, read from the first `taken` tokens.
    Write { form: writes::Form, taken: usize },
    /// `CALL procedure(arguments)`.
    Call,
    /// A statement refused by its first word, with Trino's error.
    Refused(TrinoError),
    /// SHOW …, or DESCRIBE (`describe`) a table.
    Show { describe: bool },
    /// Anything else: a query, for sqlparser to parse.
    Query,
}

impl Statement {
    /// Reads the statement `tokens` (the significant ones of `sql`) start; the few syntax
    /// errors found before the statement is known (a CALL without a procedure name) are
    /// Trino's.
    pub(crate) fn parse(tokens: &[TokenWithSpan], sql: &str) -> Result<Self, TrinoError> {
        if execute_immediate::recognise(tokens) {
            return Ok(Self::ExecuteImmediate);
        }
        if use_schema::recognise(tokens) {
            return Ok(Self::Use);
        }
        if explain::recognise(tokens) {
            return Ok(Self::Explain);
        }
        if let Some(form) = session::recognise(tokens) {
            return Ok(Self::Session(form));
        }
        lexical::procedure_name(tokens, sql)?;
        if let Some((form, taken)) = writes::recognise(tokens) {
            return Ok(Self::Write { form, taken });
        }
        if call::recognise(tokens) {
            return Ok(Self::Call);
        }
        if let Some(first) = tokens.first()
            && let Token::Word(w) = &first.token
            && let Some(refusal) =
                refused::refusal(&w.value, Some(Position::from(first.span.start)))
        {
            return Ok(Self::Refused(refusal));
        }
        if let Some(describe) = show::recognise(tokens) {
            return Ok(Self::Show { describe });
        }
        Ok(Self::Query)
    }
}
