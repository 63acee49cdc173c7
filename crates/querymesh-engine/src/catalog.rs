//! What the stand-in knows of its data: catalogs → schemas → tables → columns with Trino
//! types, and where each table lives in SQLite. The analyzer resolves names against it; the
//! data loaders (tpch, the developer's SQLite and CSV sources) fill it.

use std::collections::{BTreeMap, BTreeSet};

use querymesh_values::sqlite_expr::Select;

use super::types::TrinoType;

#[derive(Clone, Debug, PartialEq)]
pub struct ColumnMeta {
    /// Lower-case, as Trino reports it.
    pub name: String,
    pub ty: TrinoType,
    pub nullable: bool,
    /// A Trino hidden column: read by name, never listed (`*`, DESCRIBE, information_schema,
    /// system.jdbc), as information_schema.columns' `comment`.
    pub hidden: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableMeta {
    pub catalog: String,
    pub schema: String,
    pub name: String,
    /// In `SELECT *` order.
    pub columns: Vec<ColumnMeta>,
    /// Where SQLite reads its rows, its columns named as in `columns`.
    pub sqlite: SqliteTable,
}

/// Where SQLite reads a catalog table's rows.
#[derive(Clone, Debug, PartialEq)]
pub enum SqliteTable {
    /// A table of an attached database: `"tpch_tiny"."nation"`.
    Attached { database: String, table: String },
    /// A query computing them: information_schema's and the system catalog's constant
    /// tables, the live runtime tables.
    Rows(Box<Select>),
}

impl Default for SqliteTable {
    /// A table declared before its rows are made (information_schema.rs, system_catalog).
    fn default() -> Self {
        SqliteTable::Rows(Box::default())
    }
}

impl TableMeta {
    /// The columns a listing shows: all but the hidden ones, in order.
    pub fn listed_columns(&self) -> impl Iterator<Item = &ColumnMeta> {
        self.columns.iter().filter(|c| !c.hidden)
    }
}

impl TableMeta {
    pub fn column(&self, name: &str) -> Option<&ColumnMeta> {
        self.columns.iter().find(|c| c.name == name)
    }

    pub fn qualified_name(&self) -> String {
        format!("{}.{}.{}", self.catalog, self.schema, self.name)
    }
}

/// Every catalog, schema and table, keyed by lower-case names.
#[derive(Clone, Debug, Default)]
pub struct Catalogs {
    schemas: BTreeMap<String, BTreeSet<String>>,
    tables: BTreeMap<(String, String, String), TableMeta>,
    /// Schemas that answer queries but are not listed (SHOW SCHEMAS, information_schema), as
    /// Trino's tpch connector answers `sf<N>` schemas it does not list.
    unlisted: BTreeSet<(String, String)>,
    /// Schemas listed without their data yet, with the message a query naming them gets.
    unavailable: BTreeMap<(String, String), String>,
    /// The tables of its schema each view of a developer's SQLite file reads.
    view_reads: BTreeMap<(String, String, String), Vec<String>>,
    /// The `CREATE VIEW` statement of each view of a developer's SQLite file.
    view_sql: BTreeMap<(String, String, String), String>,
}

impl Catalogs {
    /// Records that view `catalog`.`schema`.`view` reads `tables` of its schema.
    pub fn add_view_reads(&mut self, catalog: &str, schema: &str, view: &str, tables: Vec<String>) {
        self.view_reads
            .insert((catalog.into(), schema.into(), view.into()), tables);
    }

    /// Records the `CREATE VIEW` statement of view `catalog`.`schema`.`view`.
    pub fn add_view_sql(&mut self, catalog: &str, schema: &str, view: &str, sql: String) {
        self.view_sql
            .insert((catalog.into(), schema.into(), view.into()), sql);
    }

    /// The `CREATE VIEW` statement of a view of a developer's SQLite file.
    pub fn view_sql(&self, catalog: &str, schema: &str, name: &str) -> Option<&str> {
        self.view_sql
            .get(&(catalog.into(), schema.into(), name.into()))
            .map(String::as_str)
    }

    /// The tables of its schema a view reads; `None` for a table.
    pub fn view_reads(&self, catalog: &str, schema: &str, name: &str) -> Option<&[String]> {
        self.view_reads
            .get(&(catalog.into(), schema.into(), name.into()))
            .map(Vec::as_slice)
    }

    pub fn add_schema(&mut self, catalog: &str, schema: &str) {
        self.schemas
            .entry(catalog.to_string())
            .or_default()
            .insert(schema.to_string());
    }

    pub fn add_table(&mut self, table: TableMeta) {
        self.add_schema(&table.catalog, &table.schema);
        let key = (
            table.catalog.clone(),
            table.schema.clone(),
            table.name.clone(),
        );
        self.tables.insert(key, table);
    }

    /// Makes `catalog.schema` answer queries without being listed.
    pub fn unlist_schema(&mut self, catalog: &str, schema: &str) {
        self.unlisted
            .insert((catalog.to_string(), schema.to_string()));
    }

    /// Lists `catalog.schema` with no tables yet: a query naming it fails with `message`.
    pub fn add_unavailable_schema(&mut self, catalog: &str, schema: &str, message: String) {
        self.add_schema(catalog, schema);
        self.unavailable
            .insert((catalog.to_string(), schema.to_string()), message);
    }

    /// Why a query on `catalog.schema` cannot run although the name is right: a tpch schema
    /// not generated yet (listed or not, as Trino answers any `sf<N>`).
    pub fn unavailable(&self, catalog: &str, schema: &str) -> Option<String> {
        if let Some(message) = self
            .unavailable
            .get(&(catalog.to_string(), schema.to_string()))
        {
            return Some(message.clone());
        }
        let generatable = catalog == "tpch"
            && !self.has_schema(catalog, schema)
            && super::tpch::generate::scale_of(schema).is_some();
        generatable.then(|| super::tpch::not_generated(schema))
    }

    /// Whether `catalog.schema` is listed (SHOW SCHEMAS, information_schema).
    pub fn is_listed(&self, catalog: &str, schema: &str) -> bool {
        !self
            .unlisted
            .contains(&(catalog.to_string(), schema.to_string()))
    }

    pub fn catalog_names(&self) -> impl Iterator<Item = &str> {
        self.schemas.keys().map(String::as_str)
    }

    pub fn has_catalog(&self, catalog: &str) -> bool {
        self.schemas.contains_key(catalog)
    }

    /// The listed schemas of `catalog`.
    pub fn schema_names<'a>(&'a self, catalog: &'a str) -> impl Iterator<Item = &'a str> {
        self.schemas
            .get(catalog)
            .into_iter()
            .flat_map(|s| s.iter().map(String::as_str))
            .filter(move |s| self.is_listed(catalog, s))
    }

    pub fn has_schema(&self, catalog: &str, schema: &str) -> bool {
        self.schemas
            .get(catalog)
            .is_some_and(|s| s.contains(schema))
    }

    pub fn table(&self, catalog: &str, schema: &str, table: &str) -> Option<&TableMeta> {
        self.tables
            .get(&(catalog.to_string(), schema.to_string(), table.to_string()))
    }

    pub fn tables_in<'a>(
        &'a self,
        catalog: &'a str,
        schema: &'a str,
    ) -> impl Iterator<Item = &'a TableMeta> {
        self.tables
            .values()
            .filter(move |t| t.catalog == catalog && t.schema == schema)
    }

    pub fn all_tables(&self) -> impl Iterator<Item = &TableMeta> {
        self.tables.values()
    }
}
