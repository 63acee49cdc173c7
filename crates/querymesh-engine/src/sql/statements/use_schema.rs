//! `USE catalog.schema` and `USE schema`: Trino's `UseTask`. Nothing runs; the answer tells
//! the client to change its session (`X-Trino-Set-Catalog` / `X-Trino-Set-Schema` response
//! headers, which the Python client and the CLI apply to the queries that follow), with the
//! single `result: true` row Trino gives every statement that has no output of its own.
//!
//! Checks in Trino's order and words: a session catalog for `USE schema`
//! (MISSING_CATALOG_NAME), the catalog (CATALOG_NOT_FOUND), access to it, the schema
//! (NOT_FOUND `Schema does not exist: c.s`), access to it.

use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::SessionContext;
use crate::catalog::Catalogs;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::Plan;
use crate::sql::syntax::token::{at, end_of, is_word, mismatched};

pub use super::session::SessionUpdate;

/// An identifier as Trino canonicalises it for catalogs and schemas: lower case.
fn identifier(t: Option<&TokenWithSpan>) -> Option<String> {
    match t.map(|t| &t.token) {
        Some(Token::Word(w)) => Some(w.value.to_lowercase()),
        _ => None,
    }
}

/// Whether `tokens` are a USE statement.
pub(super) fn recognise(tokens: &[TokenWithSpan]) -> bool {
    is_word(tokens.first(), "USE")
}

/// Plans a USE statement.
pub(crate) fn plan(
    tokens: &[TokenWithSpan],
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    use_statement(tokens, end_of(sql), catalogs, session)
}

fn use_statement(
    tokens: &[TokenWithSpan],
    end: Position,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let statement_at = tokens.first().map(at);
    let first =
        identifier(tokens.get(1)).ok_or_else(|| mismatched(tokens.get(1), end, "<identifier>"))?;
    let named = match tokens.get(2).map(|t| &t.token) {
        None => None,
        Some(Token::Period) => {
            let schema = identifier(tokens.get(3))
                .ok_or_else(|| mismatched(tokens.get(3), end, "<identifier>"))?;
            if let Some(extra) = tokens.get(4) {
                return Err(mismatched(Some(extra), end, "<EOF>"));
            }
            Some(schema)
        }
        Some(_) => return Err(mismatched(tokens.get(2), end, "'.', <EOF>")),
    };
    let (catalog, schema, named_catalog) = match named {
        Some(schema) => (first.clone(), schema, Some(first)),
        None => {
            let catalog = session.catalog.clone().ok_or_else(|| {
                error_at(
                    ErrorName::MissingCatalogName,
                    statement_at,
                    "Catalog must be specified when session catalog is not set",
                )
            })?;
            (catalog, first, None)
        }
    };
    let viewer = session.viewer.as_ref();
    if !catalogs.has_catalog(&catalog) {
        return Err(TrinoError::new(
            ErrorName::CatalogNotFound,
            format!("Catalog '{catalog}' not found"),
        ));
    }
    if viewer.is_some_and(|v| !v.sees_catalog(&catalog)) {
        return Err(TrinoError::new(
            ErrorName::PermissionDenied,
            format!("Access Denied: Cannot access catalog {catalog}"),
        ));
    }
    if !catalogs.has_schema(&catalog, &schema) {
        return Err(TrinoError::new(
            ErrorName::NotFound,
            format!("Schema does not exist: {catalog}.{schema}"),
        ));
    }
    if viewer.is_some_and(|v| !v.sees_schema(&catalog, &schema)) {
        return Err(TrinoError::new(
            ErrorName::PermissionDenied,
            format!("Access Denied: Cannot access schema: {catalog}.{schema}"),
        ));
    }
    Ok(Plan::without_output(Some(SessionUpdate::Use {
        catalog: named_catalog,
        schema,
    })))
}
