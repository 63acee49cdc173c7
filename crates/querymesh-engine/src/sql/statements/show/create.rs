//! SHOW CREATE TABLE, SHOW CREATE SCHEMA, SHOW GRANTS and SHOW ROLES, as Trino 476 answers
//! them for catalogs that keep no grants or roles of their own (tpch, and the stand-in's CSV
//! and SQLite catalogs): the statement that would create the table or schema, and empty lists
//! of grants and roles with Trino's columns. See
//! https://trino.io/docs/476/sql/show-create-table.html and its siblings; the SQL is written
//! as Trino's `SqlFormatter` writes a `CreateTable` (three-space indent, `NOT NULL` for a
//! column the connector declares so).

use serde_json::Value;

use super::{
    Cursor, check_catalog, denied, existing_table, missing_catalog, qualified_table, rows,
};
use crate::catalog::Catalogs;
use crate::error::error_at;
use crate::error::{ErrorName, TrinoError};
use crate::sql::{Body, Plan};
use crate::types::TrinoType;
use crate::{OutputColumn, SessionContext};

/// After `SHOW CREATE`: TABLE, VIEW or SCHEMA.
pub(super) fn show_create(
    c: &mut Cursor<'_>,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    if c.keyword("TABLE") {
        return show_create_table(c, catalogs, session);
    }
    if c.keyword("VIEW") {
        return show_create_view(c, catalogs, session);
    }
    if c.keyword("SCHEMA") {
        return show_create_schema(c, catalogs, session);
    }
    Err(error_at(
        ErrorName::NotSupported,
        c.location(),
        "Only SHOW CREATE TABLE, SHOW CREATE VIEW and SHOW CREATE SCHEMA are supported",
    ))
}

fn show_create_table(
    c: &mut Cursor<'_>,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let name = c.name()?;
    c.end()?;
    let at = c.start();
    let (catalog, schema, table, meta) = existing_table(&name, at, catalogs, session)?;
    if catalogs.view_sql(&catalog, &schema, &table).is_some() {
        return Err(error_at(
            ErrorName::NotSupported,
            at,
            format!("Relation '{catalog}.{schema}.{table}' is a view, not a table"),
        ));
    }
    if let Some(viewer) = &session.viewer
        && !viewer.may_show_create_table(&catalog, &schema, &table)
    {
        return Err(denied(format!(
            "Cannot show create table for {catalog}.{schema}.{table}"
        )));
    }
    let columns: Vec<String> = meta
        .listed_columns()
        .map(|col| {
            let not_null = if col.nullable { "" } else { " NOT NULL" };
            format!("   {} {}{not_null}", identifier(&col.name), col.ty)
        })
        .collect();
    let sql = format!(
        "CREATE TABLE {}.{}.{} (\n{}\n)",
        identifier(&catalog),
        identifier(&schema),
        identifier(&table),
        columns.join(",\n")
    );
    Ok(one_statement("Create Table", sql))
}

/// A view of a developer's SQLite file: its query as written there (the stand-in keeps no
/// other text of it), after Trino's `CREATE VIEW name SECURITY INVOKER AS` (the stand-in reads
/// a view as the person reading it; views.rs).
fn show_create_view(
    c: &mut Cursor<'_>,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let name = c.name()?;
    c.end()?;
    let at = c.start();
    let (catalog, schema, view) = qualified_table(&name, at, session)?;
    existing_table(&name, at, catalogs, session).map_err(|e| match e.name {
        ErrorName::TableNotFound => error_at(
            ErrorName::TableNotFound,
            at,
            format!("View '{catalog}.{schema}.{view}' does not exist"),
        ),
        _ => e,
    })?;
    let Some(create) = catalogs.view_sql(&catalog, &schema, &view) else {
        return Err(error_at(
            ErrorName::NotSupported,
            at,
            format!("Relation '{catalog}.{schema}.{view}' is a table, not a view"),
        ));
    };
    if let Some(viewer) = &session.viewer
        && !viewer.may_show_create_table(&catalog, &schema, &view)
    {
        return Err(denied(format!(
            "Cannot show create view for {catalog}.{schema}.{view}"
        )));
    }
    let query = crate::sql::view_query(create).unwrap_or(create).trim();
    let sql = format!(
        "CREATE VIEW {}.{}.{} SECURITY INVOKER AS\n{query}",
        identifier(&catalog),
        identifier(&schema),
        identifier(&view)
    );
    Ok(one_statement("Create View", sql))
}

fn show_create_schema(
    c: &mut Cursor<'_>,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let name = c.name()?;
    c.end()?;
    let at = c.start();
    let (catalog, schema) = match name.as_slice() {
        [s] => (
            session.catalog.clone().ok_or_else(|| missing_catalog(at))?,
            s.clone(),
        ),
        [c, s] => (c.clone(), s.clone()),
        _ => {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "Too many parts in schema name",
            ));
        }
    };
    check_catalog(catalogs, &catalog, at)?;
    if !catalogs.has_schema(&catalog, &schema) {
        return Err(error_at(
            ErrorName::SchemaNotFound,
            at,
            format!("Schema '{catalog}.{schema}' does not exist"),
        ));
    }
    if let Some(viewer) = &session.viewer
        && !viewer.may_show_create_schema(&catalog, &schema)
    {
        return Err(denied(format!(
            "Cannot show create schema for {catalog}.{schema}"
        )));
    }
    let sql = format!(
        "CREATE SCHEMA {}.{}",
        identifier(&catalog),
        identifier(&schema)
    );
    Ok(one_statement("Create Schema", sql))
}

/// `SHOW GRANTS [ON [TABLE] name]`: no catalog here keeps grants, so none, in Trino's
/// columns (its rewrite reads information_schema.table_privileges).
pub(super) fn show_grants(
    c: &mut Cursor<'_>,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    if c.keyword("ON") {
        c.keyword("TABLE");
        let at = c.location();
        let name = c.name()?;
        existing_table(&name, at, catalogs, session)?;
    }
    c.end()?;
    Ok(rows(
        &[
            "Grantor",
            "Grantor Type",
            "Grantee",
            "Grantee Type",
            "Catalog",
            "Schema",
            "Table",
            "Privilege",
            "Grantable",
            "With Hierarchy",
        ],
        Vec::new(),
        Vec::new(),
    ))
}

/// `SHOW [CURRENT] ROLES`: no catalog here has roles.
pub(super) fn show_roles(c: &mut Cursor<'_>) -> Result<Plan, TrinoError> {
    c.end()?;
    Ok(rows(&["Role"], Vec::new(), Vec::new()))
}

/// `SHOW ROLE GRANTS [FROM catalog]`: no system roles, so none; no catalog here manages
/// roles (Trino 476: "Catalog 'tpch' does not support role management").
pub(super) fn show_role_grants(
    c: &mut Cursor<'_>,
    catalogs: &Catalogs,
) -> Result<Plan, TrinoError> {
    if !c.keyword("GRANTS") {
        return Err(c.error());
    }
    if c.keyword("FROM") || c.keyword("IN") {
        let at = c.start();
        let catalog = c.name()?.join(".");
        c.end()?;
        super::check_catalog(catalogs, &catalog, at)?;
        return Err(error_at(
            ErrorName::NotSupported,
            at,
            format!("Catalog '{catalog}' does not support role management"),
        ));
    }
    c.end()?;
    Ok(rows(&["Role Grants"], Vec::new(), Vec::new()))
}

/// One row, one column typed as Trino types the literal its rewrite selects: `varchar(n)`.
fn one_statement(column: &str, sql: String) -> Plan {
    Plan {
        columns: vec![OutputColumn {
            name: column.into(),
            ty: TrinoType::Varchar(Some(sql.chars().count() as u32)),
        }],
        reads: Vec::new(),
        session_update: None,
        body: Body::Rows(vec![vec![Value::from(sql)]]),
    }
}

/// A name as Trino's formatter writes it: as it is when it reads as a plain identifier, else
/// double-quoted (`Identifier`'s `delimited`).
fn identifier(name: &str) -> String {
    let mut chars = name.chars();
    let plain = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ':' | '@'));
    if plain {
        name.to_string()
    } else {
        querymesh_values::sqlite_text::quote(name)
    }
}

#[cfg(test)]
mod tests {
    use super::identifier;

    #[test]
    fn names_are_quoted_only_when_they_do_not_read_as_identifiers() {
        assert_eq!(identifier("nationkey"), "nationkey");
        assert_eq!(identifier("_x1"), "_x1");
        assert_eq!(identifier("1x"), "\"1x\"");
        assert_eq!(identifier("my col"), "\"my col\"");
        assert_eq!(identifier("a\"b"), "\"a\"\"b\"");
    }
}
