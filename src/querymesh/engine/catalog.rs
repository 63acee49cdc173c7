//! What the stand-in knows of its data: catalogs → schemas → tables → columns with Trino
//! types, and where each table lives in SQLite. The analyzer resolves names against it; the
//! data loaders (tpch, the developer's SQLite and CSV sources) fill it.

use std::collections::{BTreeMap, BTreeSet};

use super::types::TrinoType;

#[derive(Clone, Debug, PartialEq)]
pub struct ColumnMeta {
    /// Lower-case, as Trino reports it.
    pub name: String,
    pub ty: TrinoType,
    pub nullable: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableMeta {
    pub catalog: String,
    pub schema: String,
    pub name: String,
    /// In `SELECT *` order.
    pub columns: Vec<ColumnMeta>,
    /// The table's name in SQLite, quoted and qualified, ready to emit: `"tpch_tiny"."nation"`.
    /// Its columns are named as in `columns`.
    pub sqlite_name: String,
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
}

impl Catalogs {
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

    pub fn catalog_names(&self) -> impl Iterator<Item = &str> {
        self.schemas.keys().map(String::as_str)
    }

    pub fn has_catalog(&self, catalog: &str) -> bool {
        self.schemas.contains_key(catalog)
    }

    pub fn schema_names(&self, catalog: &str) -> impl Iterator<Item = &str> {
        self.schemas
            .get(catalog)
            .into_iter()
            .flat_map(|s| s.iter().map(String::as_str))
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
