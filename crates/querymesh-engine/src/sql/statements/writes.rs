//! Statements that would change data or metadata (DROP, CREATE, INSERT, DELETE, UPDATE,
//! TRUNCATE, ALTER TABLE): QueryMesh data is read-only, but Trino checks names, existence,
//! types and access before its connector says it cannot write, so the stand-in answers in the
//! same order (Trino 476's `DropTableTask`, `DropViewTask`, `DropSchemaTask`,
//! `CreateTableTask`, `RenameTableTask`, `AddColumnTask`, `DropColumnTask`,
//! `RenameColumnTask`, `SetPropertiesTask` and `StatementAnalyzer.visitInsert`,
//! `visitDelete`, `visitUpdate`, `visitCreateTableAsSelect`; docs sql/drop-table.md,
//! sql/insert.md, …). A statement that names what does not exist with IF [NOT] EXISTS ends
//! without output, as Trino's does; every other ends in the tpch connector's
//! `NOT_SUPPORTED: This connector does not support …`.
//!
//! Access follows Trino's file-based access control: existence first (as a query's tables
//! are), then "Access Denied" for a person the rules give no right to make the change, so no
//! one learns more than a SELECT on the same names tells.

use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::show::{Cursor, qualified_table};
use super::{session::SessionUpdate, show::denied};
use crate::SessionContext;
use crate::catalog::Catalogs;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::Plan;
use crate::types::TrinoType;

/// The write statements, by their first words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    DropTable,
    DropView,
    DropMaterializedView,
    DropSchema,
    CreateTable,
    CreateSchema,
    CreateView { replace: bool },
    Insert,
    Delete,
    Truncate,
    Update,
    AlterTable,
}

/// The write statement `tokens` start, and how many tokens its first words take; `None` for
/// a form not handled here (refused by its first word).
pub(super) fn recognise(tokens: &[TokenWithSpan]) -> Option<(Form, usize)> {
    let mut c = Cursor::new(tokens);
    let form = if c.keyword("DROP") {
        if c.keyword("TABLE") {
            Form::DropTable
        } else if c.keyword("VIEW") {
            Form::DropView
        } else if c.keyword("MATERIALIZED") && c.keyword("VIEW") {
            Form::DropMaterializedView
        } else if c.keyword("SCHEMA") {
            Form::DropSchema
        } else {
            return None;
        }
    } else if c.keyword("CREATE") {
        if c.keyword("TABLE") {
            Form::CreateTable
        } else if c.keyword("SCHEMA") {
            Form::CreateSchema
        } else {
            let replace = c.keyword("OR") && c.keyword("REPLACE");
            if !c.keyword("VIEW") {
                return None;
            }
            Form::CreateView { replace }
        }
    } else if c.keyword("INSERT") {
        c.keyword("INTO").then_some(Form::Insert)?
    } else if c.keyword("DELETE") {
        c.keyword("FROM").then_some(Form::Delete)?
    } else if c.keyword("TRUNCATE") {
        c.keyword("TABLE").then_some(Form::Truncate)?
    } else if c.keyword("UPDATE") {
        Form::Update
    } else if c.keyword("ALTER") && c.keyword("TABLE") {
        Form::AlterTable
    } else {
        return None;
    };
    Some((form, c.taken()))
}

/// The plan of a write statement whose first `taken` tokens read as `form`.
pub(crate) fn plan(
    form: Form,
    taken: usize,
    tokens: &[TokenWithSpan],
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let mut c = Cursor::after(tokens, taken);
    let w = Write {
        at: c.start(),
        sql,
        catalogs,
        session,
    };
    match form {
        Form::DropTable => w.drop_table(&mut c),
        Form::DropView => w.drop_view(&mut c, "View"),
        Form::DropMaterializedView => w.drop_view(&mut c, "Materialized view"),
        Form::DropSchema => w.drop_schema(&mut c),
        Form::CreateTable => w.create_table(&mut c),
        Form::CreateSchema => w.create_schema(&mut c),
        Form::CreateView { replace } => w.create_view(&mut c, replace),
        Form::Insert => w.insert(&mut c),
        Form::Delete => w.delete(&mut c),
        Form::Truncate => w.truncate(&mut c),
        Form::Update => w.update(&mut c),
        // A change ALTER TABLE names that is not handled here is refused by its first word.
        Form::AlterTable => w
            .alter_table(&mut c)
            .unwrap_or_else(|| Err(super::refused::altering_tables(w.at))),
    }
}

/// What every check needs: where the statement starts (Trino places its errors there), the
/// text, the catalogs and the person.
struct Write<'a> {
    at: Option<Position>,
    sql: &'a str,
    catalogs: &'a Catalogs,
    session: &'a SessionContext,
}

/// The tpch connector's refusal (`ConnectorMetadata`'s defaults), placed nowhere as Trino's.
fn connector_refuses(what: &str) -> TrinoError {
    TrinoError::new(
        ErrorName::NotSupported,
        format!("This connector does not support {what}"),
    )
}

/// The end of a statement without output, with Trino's `updateType`: Trino 476 sends a DDL
/// statement's answer without columns or rows.
fn done(update_type: &'static str) -> Plan {
    Plan {
        columns: Vec::new(),
        reads: Vec::new(),
        body: crate::sql::Body::Rows(Vec::new()),
        session_update: Some(SessionUpdate::Nothing { update_type }),
    }
}

impl Write<'_> {
    fn fail(&self, name: ErrorName, message: String) -> TrinoError {
        error_at(name, self.at, message)
    }

    /// `if exists` (or `if not exists`) consumed.
    fn if_exists(c: &mut Cursor<'_>, not: bool) -> Result<bool, TrinoError> {
        if !c.keyword("IF") {
            return Ok(false);
        }
        if not && !c.keyword("NOT") {
            return Err(c.error());
        }
        if c.keyword("EXISTS") {
            Ok(true)
        } else {
            Err(c.error())
        }
    }

    fn table_name(&self, c: &mut Cursor<'_>) -> Result<(String, String, String), TrinoError> {
        let name = c.name()?;
        qualified_table(&name, self.at, self.session)
    }

    fn is_table(&self, (c, s, t): &(String, String, String)) -> bool {
        self.catalogs.table(c, s, t).is_some() && self.catalogs.view_sql(c, s, t).is_none()
    }

    fn is_view(&self, (c, s, t): &(String, String, String)) -> bool {
        self.catalogs.view_sql(c, s, t).is_some()
    }

    fn shown((c, s, t): &(String, String, String)) -> String {
        format!("{c}.{s}.{t}")
    }

    /// Access Denied unless the person may change the table.
    fn check_table_access(
        &self,
        table: &(String, String, String),
        denial: impl FnOnce(&str) -> String,
    ) -> Result<(), TrinoError> {
        let (c, s, t) = table;
        match &self.session.viewer {
            Some(v) if !v.may_change_table(c, s, t) => Err(denied(denial(&Self::shown(table)))),
            _ => Ok(()),
        }
    }

    fn check_schema_access(
        &self,
        catalog: &str,
        schema: &str,
        denial: String,
    ) -> Result<(), TrinoError> {
        match &self.session.viewer {
            Some(v) if !v.may_change_schema(catalog, schema) => Err(denied(denial)),
            _ => Ok(()),
        }
    }

    /// An existing table (not a view), or TABLE_NOT_FOUND as Trino words it.
    fn existing_table(&self, c: &mut Cursor<'_>) -> Result<(String, String, String), TrinoError> {
        let table = self.table_name(c)?;
        if !self.is_table(&table) {
            return Err(self.fail(
                ErrorName::TableNotFound,
                format!("Table '{}' does not exist", Self::shown(&table)),
            ));
        }
        Ok(table)
    }

    /// DropTableTask: a view or missing table first, then access, then the connector.
    fn drop_table(&self, c: &mut Cursor<'_>) -> Result<Plan, TrinoError> {
        let if_exists = Self::if_exists(c, false)?;
        let table = self.table_name(c)?;
        c.end()?;
        let name = Self::shown(&table);
        if self.is_view(&table) {
            return Err(self.fail(
                ErrorName::GenericUserError,
                format!(
                    "Table '{name}' does not exist, but a view with that name exists. \
                     Did you mean DROP VIEW {name}?"
                ),
            ));
        }
        if !self.is_table(&table) {
            if if_exists {
                return Ok(done("DROP TABLE"));
            }
            return Err(self.fail(
                ErrorName::TableNotFound,
                format!("Table '{name}' does not exist"),
            ));
        }
        self.check_table_access(&table, |t| format!("Cannot drop table {t}"))?;
        Err(connector_refuses("dropping tables"))
    }

    /// DropViewTask (and DropMaterializedViewTask: no catalog here has materialized views).
    fn drop_view(&self, c: &mut Cursor<'_>, kind: &str) -> Result<Plan, TrinoError> {
        let if_exists = Self::if_exists(c, false)?;
        let view = self.table_name(c)?;
        c.end()?;
        let name = Self::shown(&view);
        let materialized = kind != "View";
        if materialized || !self.is_view(&view) {
            if if_exists {
                return Ok(done(if materialized {
                    "DROP MATERIALIZED VIEW"
                } else {
                    "DROP VIEW"
                }));
            }
            let message = if self.is_table(&view) {
                format!(
                    "{kind} '{name}' does not exist, but a table with that name exists. \
                     Did you mean DROP TABLE {name}?"
                )
            } else {
                format!("{kind} '{name}' does not exist")
            };
            return Err(self.fail(ErrorName::GenericUserError, message));
        }
        self.check_table_access(&view, |v| format!("Cannot drop view {v}"))?;
        Err(connector_refuses("dropping views"))
    }

    /// DropSchemaTask: a missing schema, then a non-empty one (unless CASCADE), access, the
    /// connector.
    fn drop_schema(&self, c: &mut Cursor<'_>) -> Result<Plan, TrinoError> {
        let if_exists = Self::if_exists(c, false)?;
        let name = c.name()?;
        let cascade = c.keyword("CASCADE");
        if !cascade {
            c.keyword("RESTRICT");
        }
        c.end()?;
        let (catalog, schema) = self.schema_name(&name)?;
        if !self.catalogs.has_schema(&catalog, &schema) {
            if if_exists {
                return Ok(done("DROP SCHEMA"));
            }
            return Err(self.fail(
                ErrorName::SchemaNotFound,
                format!("Schema '{catalog}.{schema}' does not exist"),
            ));
        }
        if !cascade && self.catalogs.tables_in(&catalog, &schema).next().is_some() {
            return Err(self.fail(
                ErrorName::SchemaNotEmpty,
                format!("Cannot drop non-empty schema '{schema}'"),
            ));
        }
        self.check_schema_access(
            &catalog,
            &schema,
            format!("Cannot drop schema {catalog}.{schema}"),
        )?;
        Err(connector_refuses("dropping schemas"))
    }

    /// `s` or `c.s`, completed from the session (MetadataUtil.createCatalogSchemaName).
    fn schema_name(&self, name: &[String]) -> Result<(String, String), TrinoError> {
        match name {
            [s] => {
                let catalog = self.session.catalog.clone().ok_or_else(|| {
                    self.fail(
                        ErrorName::MissingCatalogName,
                        "Catalog must be specified when session catalog is not set".into(),
                    )
                })?;
                Ok((catalog, s.clone()))
            }
            [c, s] => Ok((c.clone(), s.clone())),
            _ => Err(self.fail(
                ErrorName::SyntaxError,
                format!("Too many parts in schema name: {}", name.join(".")),
            )),
        }
    }

    /// CreateSchemaTask: catalog, an existing schema, then the connector.
    fn create_schema(&self, c: &mut Cursor<'_>) -> Result<Plan, TrinoError> {
        let if_not_exists = Self::if_exists(c, true)?;
        let name = c.name()?;
        let (catalog, schema) = self.schema_name(&name)?;
        if !self.catalogs.has_catalog(&catalog) {
            return Err(self.catalog_not_found(&catalog));
        }
        if self.catalogs.has_schema(&catalog, &schema) {
            if if_not_exists {
                return Ok(done("CREATE SCHEMA"));
            }
            return Err(self.fail(
                ErrorName::SchemaAlreadyExists,
                format!("Schema '{catalog}.{schema}' already exists"),
            ));
        }
        self.check_schema_access(
            &catalog,
            &schema,
            format!("Cannot create schema {catalog}.{schema}"),
        )?;
        Err(connector_refuses("creating schemas"))
    }

    /// CreateViewTask: the catalog, a table of that name, the query and its column names,
    /// access, then the connector.
    fn create_view(&self, c: &mut Cursor<'_>, _replace: bool) -> Result<Plan, TrinoError> {
        let view = self.table_name(c)?;
        if !self.catalogs.has_catalog(&view.0) {
            return Err(self.catalog_not_found(&view.0));
        }
        let name = Self::shown(&view);
        if self.is_table(&view) {
            return Err(self.fail(
                ErrorName::TableAlreadyExists,
                format!("Table already exists: '{name}'"),
            ));
        }
        while !c.keyword("AS") {
            if c.take().is_none() {
                return Err(c.error());
            }
        }
        let query = self.query_from(c)?;
        self.check_column_names(&query)?;
        self.check_schema_access(&view.0, &view.1, format!("Cannot create view {name}"))?;
        Err(connector_refuses("creating views"))
    }

    /// Every column of a query that makes a table or view named (StatementAnalyzer's
    /// validateColumns): an unnamed one is MISSING_COLUMN_NAME.
    fn check_column_names(&self, query: &Plan) -> Result<(), TrinoError> {
        for (i, column) in query.columns.iter().enumerate() {
            if column.name == format!("_col{i}") {
                return Err(self.fail(
                    ErrorName::MissingColumnName,
                    format!("Column name not specified at position {}", i + 1),
                ));
            }
        }
        Ok(())
    }

    fn catalog_not_found(&self, catalog: &str) -> TrinoError {
        self.fail(
            ErrorName::CatalogNotFound,
            format!("Catalog '{catalog}' not found"),
        )
    }

    /// CreateTableTask (with columns) and visitCreateTableAsSelect (AS query).
    fn create_table(&self, c: &mut Cursor<'_>) -> Result<Plan, TrinoError> {
        let if_not_exists = Self::if_exists(c, true)?;
        let table = self.table_name(c)?;
        if !self.catalogs.has_catalog(&table.0) {
            return Err(self.catalog_not_found(&table.0));
        }
        let exists = self.catalogs.table(&table.0, &table.1, &table.2).is_some();
        let name = Self::shown(&table);
        if c.keyword("AS") {
            return self.create_table_as(c, &table, exists, if_not_exists);
        }
        if exists {
            if if_not_exists {
                return Ok(done("CREATE TABLE"));
            }
            return Err(self.fail(
                ErrorName::TableAlreadyExists,
                format!("Table '{name}' already exists"),
            ));
        }
        self.check_columns(c)?;
        c.keyword("COMMENT").then(|| c.take());
        self.check_properties(c, &table.0)?;
        self.check_schema_access(&table.0, &table.1, format!("Cannot create table {name}"))?;
        Err(connector_refuses("creating tables"))
    }

    /// `( name type [NOT NULL] [COMMENT '…'] [WITH (…)], … )`: each type known, each name once
    /// (CreateTableTask). A `LIKE table` element is left to the connector's refusal.
    fn check_columns(&self, c: &mut Cursor<'_>) -> Result<(), TrinoError> {
        if !matches!(c.take().map(|t| &t.token), Some(Token::LParen)) {
            return Err(c.error());
        }
        let mut seen: Vec<String> = Vec::new();
        loop {
            if c.keyword("LIKE") {
                skip_element(c);
            } else {
                let at = c.location();
                let column = match c.take().map(|t| &t.token) {
                    Some(Token::Word(w)) => w.value.to_lowercase(),
                    _ => return Err(c.error()),
                };
                let type_text = skip_element(c);
                let spelled = type_text
                    .split_once(" NOT NULL")
                    .map_or(type_text.as_str(), |(t, _)| t)
                    .split(" COMMENT ")
                    .next()
                    .unwrap_or_default()
                    .split(" WITH ")
                    .next()
                    .unwrap_or_default()
                    .trim();
                if TrinoType::parse(spelled).is_err() {
                    // Placed at the column's definition, as Trino 476 places it.
                    return Err(error_at(
                        ErrorName::TypeNotFound,
                        at,
                        format!("Unknown type '{spelled}' for column '{column}'"),
                    ));
                }
                if seen.contains(&column) {
                    return Err(error_at(
                        ErrorName::DuplicateColumnName,
                        at,
                        format!("Column name '{column}' specified more than once"),
                    ));
                }
                seen.push(column);
            }
            match c.take().map(|t| &t.token) {
                Some(Token::Comma) => continue,
                Some(Token::RParen) => return Ok(()),
                _ => return Err(c.error()),
            }
        }
    }

    /// `WITH (name = value, …)`: no catalog here has table properties, so the first named is
    /// INVALID_TABLE_PROPERTY, placed at its name (TablePropertyManager).
    fn check_properties(&self, c: &mut Cursor<'_>, catalog: &str) -> Result<(), TrinoError> {
        if !c.keyword("WITH") {
            return Ok(());
        }
        if !matches!(c.take().map(|t| &t.token), Some(Token::LParen)) {
            return Err(c.error());
        }
        self.invalid_property(c, catalog)
    }

    fn invalid_property(&self, c: &mut Cursor<'_>, catalog: &str) -> Result<(), TrinoError> {
        let at = c.location();
        match c.take().map(|t| &t.token) {
            Some(Token::Word(w)) => Err(error_at(
                ErrorName::InvalidTableProperty,
                at,
                format!(
                    "Catalog '{catalog}' table property '{}' does not exist",
                    w.value.to_lowercase()
                ),
            )),
            _ => Err(c.error()),
        }
    }

    /// visitCreateTableAsSelect: an existing table, access, the query, its column names,
    /// then the connector.
    fn create_table_as(
        &self,
        c: &mut Cursor<'_>,
        table: &(String, String, String),
        exists: bool,
        if_not_exists: bool,
    ) -> Result<Plan, TrinoError> {
        let name = Self::shown(table);
        if exists {
            if if_not_exists {
                // Trino answers `rows` 0 here, as an insert of nothing.
                return Ok(inserted_nothing());
            }
            return Err(self.fail(
                ErrorName::TableAlreadyExists,
                format!("Destination table '{name}' already exists"),
            ));
        }
        self.check_schema_access(&table.0, &table.1, format!("Cannot create table {name}"))?;
        let query = self.query_from(c)?;
        self.check_column_names(&query)?;
        Err(connector_refuses("creating tables with data"))
    }

    /// The query from the cursor to the end, analysed as Trino analyses it: its errors keep
    /// their places in the statement (the text before it is blanked, not cut).
    fn query_from(&self, c: &mut Cursor<'_>) -> Result<Plan, TrinoError> {
        let Some(start) = c.location() else {
            return Err(c.error());
        };
        crate::sql::plan(self.catalogs, &blank_before(self.sql, start), self.session)
    }

    /// visitInsert: the query first, then the table, access, the columns, their types, and
    /// the connector.
    fn insert(&self, c: &mut Cursor<'_>) -> Result<Plan, TrinoError> {
        let table = self.table_name(c)?;
        let mut columns: Option<Vec<String>> = None;
        if matches!(c.peek().map(|t| &t.token), Some(Token::LParen)) {
            // `(a, b) SELECT …` names columns; `(SELECT …)` is the query.
            let names = self.column_list(c);
            if names.is_some() {
                columns = names;
            }
        }
        let query = self.query_from(c)?;
        let name = Self::shown(&table);
        if self.is_view(&table) {
            return Err(self.fail(
                ErrorName::NotSupported,
                "Inserting into views is not supported".into(),
            ));
        }
        let Some(meta) = self
            .catalogs
            .table(&table.0, &table.1, &table.2)
            .filter(|_| self.is_table(&table))
        else {
            return Err(self.fail(
                ErrorName::TableNotFound,
                format!("Table '{name}' does not exist"),
            ));
        };
        self.check_table_access(&table, |t| format!("Cannot insert into table {t}"))?;
        let listed: Vec<_> = meta.listed_columns().collect();
        let targets: Vec<&TrinoType> = match &columns {
            None => listed.iter().map(|c| &c.ty).collect(),
            Some(names) => {
                let mut seen: Vec<&str> = Vec::new();
                let mut types = Vec::new();
                for column in names {
                    let Some(found) = listed.iter().find(|c| &c.name == column) else {
                        return Err(self.fail(
                            ErrorName::ColumnNotFound,
                            format!("Insert column name does not exist in target table: {column}"),
                        ));
                    };
                    if seen.contains(&column.as_str()) {
                        return Err(self.fail(
                            ErrorName::DuplicateColumnName,
                            format!("Insert column name is specified more than once: {column}"),
                        ));
                    }
                    seen.push(column);
                    types.push(&found.ty);
                }
                types
            }
        };
        let query_types: Vec<&TrinoType> = query.columns.iter().map(|c| &c.ty).collect();
        let matching = targets.len() == query_types.len()
            && targets
                .iter()
                .zip(&query_types)
                .all(|(table, query)| insertable(query, table));
        if !matching {
            let list = |types: &[&TrinoType]| {
                types
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(self.fail(
                ErrorName::TypeMismatch,
                format!(
                    "Insert query has mismatched column types: Table: [{}], Query: [{}]",
                    list(&targets),
                    list(&query_types)
                ),
            ));
        }
        Err(connector_refuses("inserts"))
    }

    /// `(a, b, …)` of plain names, consumed; `None` (nothing consumed) when the parenthesis
    /// opens something else.
    fn column_list(&self, c: &mut Cursor<'_>) -> Option<Vec<String>> {
        let mut probe = Cursor::new(c.rest());
        probe.take();
        let mut names = Vec::new();
        loop {
            match probe.take().map(|t| &t.token) {
                Some(Token::Word(w)) if w.quote_style.is_some() || !is_query_word(&w.value) => {
                    names.push(w.value.to_lowercase());
                }
                _ => return None,
            }
            match probe.take().map(|t| &t.token) {
                Some(Token::Comma) => continue,
                Some(Token::RParen) => break,
                _ => return None,
            }
        }
        for _ in 0..probe.taken() {
            c.take();
        }
        Some(names)
    }

    /// visitDelete: the table, access, then the connector (Trino 476's tpch connector refuses
    /// before the WHERE clause is analysed).
    fn delete(&self, c: &mut Cursor<'_>) -> Result<Plan, TrinoError> {
        let table = self.table_name(c)?;
        if self.is_view(&table) {
            return Err(self.fail(
                ErrorName::NotSupported,
                "Deleting from views is not supported".into(),
            ));
        }
        if !self.is_table(&table) {
            return Err(self.fail(
                ErrorName::TableNotFound,
                format!("Table '{}' does not exist", Self::shown(&table)),
            ));
        }
        self.check_table_access(&table, |t| format!("Cannot delete from table {t}"))?;
        Err(connector_refuses("modifying table rows"))
    }

    /// TruncateTableTask: the table, access, the connector.
    fn truncate(&self, c: &mut Cursor<'_>) -> Result<Plan, TrinoError> {
        let table = self.existing_table(c)?;
        c.end()?;
        self.check_table_access(&table, |t| format!("Cannot truncate table {t}"))?;
        Err(connector_refuses("truncating tables"))
    }

    /// visitUpdate: the table, each SET target column, then the connector.
    fn update(&self, c: &mut Cursor<'_>) -> Result<Plan, TrinoError> {
        let table = self.existing_table(c)?;
        if !c.keyword("SET") {
            return Err(c.error());
        }
        let meta = self.catalogs.table(&table.0, &table.1, &table.2);
        let mut columns: Vec<String> = Vec::new();
        loop {
            let at = c.location();
            let column = match c.take().map(|t| &t.token) {
                Some(Token::Word(w)) => w.value.to_lowercase(),
                _ => return Err(c.error()),
            };
            if meta.and_then(|m| m.column(&column)).is_none() {
                return Err(error_at(
                    ErrorName::ColumnNotFound,
                    at,
                    format!("The UPDATE SET target column {column} doesn't exist"),
                ));
            }
            columns.push(column);
            skip_element(c);
            if !matches!(c.take().map(|t| &t.token), Some(Token::Comma)) {
                break;
            }
        }
        self.check_table_access(&table, |t| {
            format!(
                "Cannot update columns [{}] in table {t}",
                columns.join(", ")
            )
        })?;
        Err(connector_refuses("modifying table rows"))
    }

    /// ALTER TABLE: SET PROPERTIES, RENAME TO, ADD COLUMN, DROP COLUMN, RENAME COLUMN.
    fn alter_table(&self, c: &mut Cursor<'_>) -> Option<Result<Plan, TrinoError>> {
        let if_exists = match Self::if_exists(c, false) {
            Ok(b) => b,
            Err(e) => return Some(Err(e)),
        };
        let table = match self.table_name(c) {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        if c.keyword("SET") {
            if !c.keyword("PROPERTIES") {
                return None;
            }
            // SetPropertiesTask: the catalog, then the properties, before the table.
            if !self.catalogs.has_catalog(&table.0) {
                return Some(Err(self.catalog_not_found(&table.0)));
            }
            return Some(
                self.invalid_property(c, &table.0)
                    .map(|()| done("SET PROPERTIES")),
            );
        }
        let missing = !self.is_table(&table);
        let change = if c.keyword("RENAME") {
            if c.keyword("TO") {
                Change::RenameTable
            } else if c.keyword("COLUMN") {
                Change::RenameColumn
            } else {
                return None;
            }
        } else if c.keyword("ADD") && c.keyword("COLUMN") {
            Change::AddColumn
        } else if c.keyword("DROP") && c.keyword("COLUMN") {
            Change::DropColumn
        } else {
            return None;
        };
        if missing {
            if if_exists {
                return Some(Ok(done(change.update_type())));
            }
            return Some(Err(self.fail(
                ErrorName::TableNotFound,
                format!("Table '{}' does not exist", Self::shown(&table)),
            )));
        }
        Some(self.alter(c, &table, change))
    }

    fn alter(
        &self,
        c: &mut Cursor<'_>,
        table: &(String, String, String),
        change: Change,
    ) -> Result<Plan, TrinoError> {
        let meta = self.catalogs.table(&table.0, &table.1, &table.2);
        let has_column = |column: &str| meta.and_then(|m| m.column(column)).is_some();
        match change {
            Change::RenameTable => {
                let target = self.table_name(c)?;
                c.end()?;
                if self
                    .catalogs
                    .table(&target.0, &target.1, &target.2)
                    .is_some()
                {
                    return Err(self.fail(
                        ErrorName::TableAlreadyExists,
                        format!("Target table '{}' already exists", Self::shown(&target)),
                    ));
                }
                self.check_table_access(table, |t| {
                    format!("Cannot rename table from {t} to {}", Self::shown(&target))
                })?;
                Err(connector_refuses("renaming tables"))
            }
            Change::AddColumn => {
                let if_not_exists = Self::if_exists(c, true)?;
                let column = c.name()?.join(".");
                if has_column(&column) {
                    if if_not_exists {
                        return Ok(done(change.update_type()));
                    }
                    return Err(self.fail(
                        ErrorName::ColumnAlreadyExists,
                        format!("Column '{column}' already exists"),
                    ));
                }
                self.check_table_access(table, |t| format!("Cannot add a column to table {t}"))?;
                Err(connector_refuses("adding columns"))
            }
            Change::DropColumn | Change::RenameColumn => {
                let if_exists = Self::if_exists(c, false)?;
                let column = c.name()?.join(".");
                if !has_column(&column) {
                    if if_exists {
                        return Ok(done(change.update_type()));
                    }
                    return Err(self.fail(
                        ErrorName::ColumnNotFound,
                        format!("Column '{column}' does not exist"),
                    ));
                }
                if change == Change::DropColumn {
                    self.check_table_access(table, |t| {
                        format!("Cannot drop a column from table {t}")
                    })?;
                    return Err(connector_refuses("dropping columns"));
                }
                self.check_table_access(table, |t| format!("Cannot rename a column in table {t}"))?;
                Err(connector_refuses("renaming columns"))
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Change {
    RenameTable,
    AddColumn,
    DropColumn,
    RenameColumn,
}

impl Change {
    fn update_type(self) -> &'static str {
        match self {
            Self::RenameTable => "RENAME TABLE",
            Self::AddColumn => "ADD COLUMN",
            Self::DropColumn => "DROP COLUMN",
            Self::RenameColumn => "RENAME COLUMN",
        }
    }
}

/// `CREATE TABLE IF NOT EXISTS t AS …` of an existing table: Trino's `rows` 0.
fn inserted_nothing() -> Plan {
    Plan {
        columns: vec![crate::OutputColumn {
            name: "rows".into(),
            ty: TrinoType::BigInt,
        }],
        reads: Vec::new(),
        body: crate::sql::Body::Rows(vec![vec![serde_json::Value::from(0)]]),
        session_update: Some(SessionUpdate::Nothing {
            update_type: "CREATE TABLE",
        }),
    }
}

fn is_query_word(word: &str) -> bool {
    ["SELECT", "WITH", "VALUES", "TABLE"]
        .iter()
        .any(|w| word.eq_ignore_ascii_case(w))
}

/// Trino's insert rule (StatementAnalyzer.typesMatchForInsert, `TypeCoercion.isCompatible`):
/// a value fits a column when it coerces to it or both are numbers, or both are text.
fn insertable(query: &TrinoType, table: &TrinoType) -> bool {
    if query == table || *query == TrinoType::Unknown {
        return true;
    }
    let text = |t: &TrinoType| matches!(t, TrinoType::Varchar(_) | TrinoType::Char(_));
    (query.is_numeric() && table.is_numeric())
        || (text(query) && text(table))
        || querymesh_values::coerce::super_type(query, table).as_ref() == Some(table)
}

/// Skips one comma-separated element (to the next `,` or `)` at its depth), returning its
/// tokens as text joined by single spaces.
fn skip_element(c: &mut Cursor<'_>) -> String {
    let mut depth = 0usize;
    let mut text = String::new();
    while let Some(token) = c.peek() {
        match token.token {
            Token::Comma | Token::RParen if depth == 0 => break,
            Token::Word(ref w) if depth == 0 && w.value.eq_ignore_ascii_case("WHERE") => break,
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ => {}
        }
        let spelled = token.token.to_string();
        if !text.is_empty()
            && !matches!(token.token, Token::LParen | Token::RParen | Token::Comma)
            && !text.ends_with('(')
        {
            text.push(' ');
        }
        text.push_str(&spelled);
        c.take();
    }
    text
}

/// `sql` with everything before `start` blanked (line breaks kept), so a part of the
/// statement analyses with its errors at their places in the whole.
pub(super) fn blank_before(sql: &str, start: Position) -> String {
    blank_outside(sql, start, None)
}

/// `sql` with everything outside `[start, end)` blanked (line breaks kept); no `end`: to the
/// end of `sql`.
pub(super) fn blank_outside(sql: &str, start: Position, end: Option<Position>) -> String {
    let (mut line, mut column) = (1u64, 1u64);
    sql.chars()
        .map(|ch| {
            let here = (line, column);
            let outside = here < (start.line, start.column)
                || end.is_some_and(|end| here >= (end.line, end.column));
            if ch == '\n' {
                line += 1;
                column = 1;
                return ch;
            }
            column += 1;
            if outside { ' ' } else { ch }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_of_a_statement_keeps_its_place() {
        assert_eq!(
            blank_before("INSERT INTO t\nSELECT 1", Position::new(2, 1)),
            "             \nSELECT 1"
        );
        assert_eq!(blank_before("ab cd", Position::new(1, 4)), "   cd");
        assert_eq!(
            blank_outside("ab cd ef", Position::new(1, 4), Some(Position::new(1, 6))),
            "   cd   "
        );
    }

    /// Trino 476: `INSERT INTO tpch.tiny.region VALUES (1.5, 'x', 'y')` passes the type check
    /// (the connector refuses), `VALUES ('a', 'x', 'y')` does not.
    #[test]
    fn numbers_fit_numbers_and_text_fits_text() {
        assert!(insertable(&TrinoType::Double, &TrinoType::BigInt));
        assert!(insertable(
            &TrinoType::Varchar(Some(60)),
            &TrinoType::Varchar(Some(25))
        ));
        assert!(!insertable(
            &TrinoType::Varchar(Some(1)),
            &TrinoType::BigInt
        ));
        assert!(!insertable(&TrinoType::Integer, &TrinoType::Varchar(None)));
    }
}
