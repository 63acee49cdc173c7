//! `CALL procedure(arguments)` as Trino 476's `CallTask` answers it: the name completed from
//! the session (a missing catalog is CATALOG_NOT_FOUND), a procedure no catalog registers is
//! PROCEDURE_NOT_FOUND "Procedure not registered: schema.name", then the arguments, named or
//! positional, each required one present (INVALID_ARGUMENTS) and of the argument's type
//! (TYPE_MISMATCH), then the procedure. The only procedure here is Trino's
//! `system.runtime.kill_query(query_id, message)` (docs connector/system.md): a query the
//! person cannot see in `system.runtime.queries` is NOT_FOUND "Target query not found: …", as
//! in Trino for one that does not exist; the stand-in cannot kill one from SQL (its client
//! cancels it), and says so.

use querymesh_functions::udf::QM_FAIL;
use querymesh_values::sqlite_expr::{BinaryOp, FromItem, Select, SqlExpr};
use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::show::{Cursor, check_catalog};
use super::writes::blank_outside;
use crate::SessionContext;
use crate::catalog::Catalogs;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::{Body, Plan};
use crate::types::TrinoType;

/// kill_query's arguments, in order, as Trino names them (KillQueryProcedure): required first.
const KILL_QUERY_ARGUMENTS: [&str; 2] = ["QUERY_ID", "MESSAGE"];

/// Whether `tokens` are a CALL statement.
pub(super) fn recognise(tokens: &[TokenWithSpan]) -> bool {
    Cursor::new(tokens).keyword("CALL")
}

/// Plans a CALL statement.
pub(crate) fn plan(
    tokens: &[TokenWithSpan],
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    call(&mut Cursor::after(tokens, 1), sql, catalogs, session)
}

fn call(
    c: &mut Cursor<'_>,
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let at = c.start();
    let name = c.name()?;
    let missing_schema = || {
        error_at(
            ErrorName::MissingSchemaName,
            at,
            "Schema must be specified when session schema is not set",
        )
    };
    let missing_catalog = || {
        error_at(
            ErrorName::MissingCatalogName,
            at,
            "Catalog must be specified when session catalog is not set",
        )
    };
    let (catalog, schema, procedure) = match name.as_slice() {
        [p] => (
            session.catalog.clone().ok_or_else(missing_catalog)?,
            session.schema.clone().ok_or_else(missing_schema)?,
            p.clone(),
        ),
        [s, p] => (
            session.catalog.clone().ok_or_else(missing_catalog)?,
            s.clone(),
            p.clone(),
        ),
        [cat, s, p] => (cat.clone(), s.clone(), p.clone()),
        _ => return Err(c.error()),
    };
    let arguments = arguments(c)?;
    check_catalog(catalogs, &catalog, at)?;
    if (catalog.as_str(), schema.as_str(), procedure.as_str())
        != ("system", "runtime", "kill_query")
    {
        return Err(TrinoError::new(
            ErrorName::ProcedureNotFound,
            format!("Procedure not registered: {schema}.{procedure}"),
        ));
    }
    let values = bind(&arguments, at, sql, catalogs, session)?;
    let query_id = values.first().cloned().flatten().unwrap_or_default();
    kill_query(&query_id, catalogs, session)
}

/// One argument as written: its name when named, where it starts and ends (token indexes).
struct Argument {
    name: Option<String>,
    at: Option<Position>,
    literal: Option<String>,
    start: Position,
    end: Option<Position>,
}

/// `( [name =>] expression, … )`, to the end of the statement.
fn arguments(c: &mut Cursor<'_>) -> Result<Vec<Argument>, TrinoError> {
    if !matches!(c.take().map(|t| &t.token), Some(Token::LParen)) {
        return Err(c.error());
    }
    let mut list = Vec::new();
    if matches!(c.peek().map(|t| &t.token), Some(Token::RParen)) {
        c.take();
        c.end()?;
        return Ok(list);
    }
    loop {
        let rest = c.rest();
        let named = match (
            rest.first().map(|t| &t.token),
            rest.get(1).map(|t| &t.token),
        ) {
            (Some(Token::Word(w)), Some(Token::RArrow)) => Some(w.value.to_uppercase()),
            _ => None,
        };
        if named.is_some() {
            c.take();
            c.take();
        }
        let Some(start) = c.location() else {
            return Err(c.error());
        };
        let first = c.peek().map(|t| t.token.clone());
        let mut depth = 0usize;
        let mut count = 0usize;
        let mut end = None;
        while let Some(token) = c.peek() {
            match token.token {
                Token::Comma | Token::RParen if depth == 0 => break,
                Token::LParen => depth += 1,
                Token::RParen => depth -= 1,
                _ => {}
            }
            end = Some(Position::from(token.span.end));
            count += 1;
            c.take();
        }
        let literal = match (first, count) {
            (Some(Token::SingleQuotedString(s)), 1) => Some(s),
            _ => None,
        };
        list.push(Argument {
            name: named,
            at: Some(start),
            literal,
            start,
            end,
        });
        match c.take().map(|t| &t.token) {
            Some(Token::Comma) => continue,
            Some(Token::RParen) => break,
            _ => return Err(c.error()),
        }
    }
    c.end()?;
    Ok(list)
}

/// Each of kill_query's arguments' value (`None`: NULL or not given), checked as CallTask
/// checks them.
fn bind(
    arguments: &[Argument],
    at: Option<Position>,
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Vec<Option<String>>, TrinoError> {
    let mut slots: Vec<Option<&Argument>> = vec![None; KILL_QUERY_ARGUMENTS.len()];
    let named = arguments.iter().any(|a| a.name.is_some());
    for (i, argument) in arguments.iter().enumerate() {
        let slot = match &argument.name {
            Some(name) => KILL_QUERY_ARGUMENTS
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| {
                    error_at(
                        ErrorName::InvalidArguments,
                        argument.at,
                        format!("Unknown argument name: {name}"),
                    )
                })?,
            None if named => {
                return Err(error_at(
                    ErrorName::InvalidArguments,
                    at,
                    "Named and positional arguments cannot be mixed",
                ));
            }
            None if i >= KILL_QUERY_ARGUMENTS.len() => {
                return Err(error_at(
                    ErrorName::InvalidArguments,
                    at,
                    "Too many arguments for procedure",
                ));
            }
            None => i,
        };
        slots[slot] = Some(argument);
    }
    if slots[0].is_none() {
        return Err(error_at(
            ErrorName::InvalidArguments,
            at,
            format!(
                "Required procedure argument '{}' is missing",
                KILL_QUERY_ARGUMENTS[0]
            ),
        ));
    }
    slots
        .into_iter()
        .map(|slot| match slot {
            None => Ok(None),
            Some(argument) => value(argument, sql, catalogs, session),
        })
        .collect()
}

/// An argument's varchar value: its type from the analysis (anything but text or NULL is
/// TYPE_MISMATCH "Cannot cast type t to varchar", at the argument); a string literal's text.
fn value(
    argument: &Argument,
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Option<String>, TrinoError> {
    let expression = blank_outside(sql, argument.start, argument.end);
    // `SELECT` written over the blanked `CALL name(` keeps the argument where it was.
    let query = format!("SELECT{}", expression.get(6..).unwrap_or_default());
    let plan = crate::sql::plan(catalogs, &query, session)?;
    let ty = plan.columns.first().map(|c| c.ty.clone());
    match ty {
        Some(TrinoType::Varchar(_)) | Some(TrinoType::Char(_)) | Some(TrinoType::Unknown) => {}
        Some(other) => {
            return Err(error_at(
                ErrorName::TypeMismatch,
                argument.at,
                format!("Cannot cast type {other} to varchar"),
            ));
        }
        None => return Ok(None),
    }
    if argument.literal.is_none() {
        return Err(error_at(
            ErrorName::NotSupported,
            argument.at,
            "A procedure argument other than a literal is not supported by the QueryMesh stand-in",
        ));
    }
    Ok(argument.literal.clone())
}

/// KillQueryProcedure: the query looked up among those the person sees in
/// `system.runtime.queries` when the statement runs.
fn kill_query(
    query_id: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let quoted = crate::sql::sql_string(query_id);
    let lookup = crate::sql::plan(
        catalogs,
        &format!("SELECT count(*) FROM system.runtime.queries WHERE query_id = {quoted}"),
        session,
    )?;
    let Body::Sql(found) = lookup.body else {
        return Err(TrinoError::new(
            ErrorName::GenericInternalError,
            "the query list is not a query",
        ));
    };
    let n = || SqlExpr::column(None, "n");
    let not_found = || SqlExpr::binary(n(), BinaryOp::Equal, SqlExpr::Integer(0));
    let failure = QM_FAIL.call([
        SqlExpr::iff(
            not_found(),
            SqlExpr::text("NOT_FOUND"),
            SqlExpr::text("NOT_SUPPORTED"),
        ),
        SqlExpr::iff(
            not_found(),
            SqlExpr::text(format!("Target query not found: {query_id}")),
            SqlExpr::text(
                "Killing a query with CALL is not supported by the QueryMesh stand-in: \
                 cancel it from its client",
            ),
        ),
        n(),
    ]);
    // The lookup is a plan's SQLite text (sql/mod.rs `Body::Sql`), not a tree.
    let count = SqlExpr::from(format!("({found})"));
    let counted = Select {
        columns: vec![(count, Some("n".to_string()))],
        ..Select::default()
    };
    let sql = Select::new(
        vec![failure],
        vec![FromItem::Subquery {
            select: Box::new(counted),
            alias: None,
        }],
    );
    Ok(Plan {
        columns: vec![crate::OutputColumn {
            name: "result".into(),
            ty: TrinoType::Boolean,
        }],
        reads: lookup.reads,
        body: Body::Sql(sql.to_string()),
        session_update: None,
    })
}
