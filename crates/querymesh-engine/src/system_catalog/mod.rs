//! The `system` catalog as Trino 476 has it: `jdbc` (what the JDBC driver's DatabaseMetaData
//! reads), `metadata` (catalogs, comments, properties) and `runtime` (the node, the queries),
//! with Trino's table and column names, types and order (Trino's `io.trino.connector.system`
//! tables). `system.information_schema` comes with every catalog's (information_schema.rs).
//!
//! Most tables are constants made once when the engine opens, inlined in the SQL like
//! information_schema's; what a person may see of them is filtered when a query reads them
//! ([`viewer_condition`]), as Trino lists them through `filterCatalogs` / `filterSchemas` /
//! `filterTables` / `filterColumns`. `runtime.nodes` and `runtime.queries` change while the
//! stand-in runs: their rows come from [`Runtime`] through the SQLite function
//! [`QM_SYSTEM_ROWS`] when the query runs, so a cached plan still reads them fresh.
//!
//! Trino's `runtime.tasks`, `runtime.transactions` and `runtime.optimizer_rule_stats` describe
//! a distributed engine's tasks, transactions and optimizer; the stand-in has none of them,
//! and listing them empty would not be what Trino shows (its own query's task and transaction
//! are always there), so they are left out.

mod jdbc;
mod jdbc_types;
mod metadata;
mod runtime;

pub use self::runtime::{QM_SYSTEM_ROWS, QueryRow, Runtime, RuntimeInfo};

use querymesh_values::sqlite_expr::{FromItem, Query, Select, SqlExpr, builtin};

use super::access::Viewer;
use super::catalog::{Catalogs, ColumnMeta, SqliteTable, TableMeta};
use super::types::TrinoType;

pub const SYSTEM: &str = "system";

/// A system table's columns: every one nullable, as Trino's system tables declare them.
fn columns(specs: &[(&str, TrinoType)]) -> Vec<ColumnMeta> {
    specs
        .iter()
        .map(|(name, ty)| ColumnMeta {
            hidden: false,
            name: name.to_string(),
            ty: ty.clone(),
            nullable: true,
        })
        .collect()
}

const VARCHAR: TrinoType = TrinoType::Varchar(None);
const BIGINT: TrinoType = TrinoType::BigInt;
const BOOLEAN: TrinoType = TrinoType::Boolean;

/// A SQL literal of the engine's stored form: text, integer, NULL.
#[derive(Clone, Debug)]
pub(super) enum Cell {
    Null,
    Text(String),
    Int(i64),
}

impl Cell {
    fn text(s: &str) -> Self {
        Self::Text(s.to_string())
    }

    fn opt_int(v: Option<i64>) -> Self {
        v.map_or(Self::Null, Self::Int)
    }

    fn sql(&self) -> SqlExpr {
        match self {
            Self::Null => SqlExpr::Null,
            Self::Text(s) => SqlExpr::text(s),
            Self::Int(i) => SqlExpr::Integer(*i),
        }
    }
}

/// `SELECT column1 AS "a", … FROM (VALUES …)`: a constant table inlined in the SQL; no rows
/// is one row of NULLs kept by nothing.
pub(crate) fn inline_table(columns: &[ColumnMeta], rows: Vec<Vec<SqlExpr>>) -> Select {
    if rows.is_empty() {
        return Select {
            columns: columns
                .iter()
                .map(|c| (SqlExpr::Null, Some(c.name.clone())))
                .collect(),
            filter: Some(SqlExpr::Integer(0)),
            ..Select::default()
        };
    }
    Select {
        columns: columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let value = SqlExpr::column(None, format!("column{}", i + 1));
                (value, Some(c.name.clone()))
            })
            .collect(),
        ..Select::star(FromItem::query(Query::Values(rows), None))
    }
}

fn cells_table(columns: &[ColumnMeta], rows: &[Vec<Cell>]) -> Select {
    let rows: Vec<Vec<SqlExpr>> = rows
        .iter()
        .map(|r| r.iter().map(Cell::sql).collect())
        .collect();
    inline_table(columns, rows)
}

/// One table of the system catalog: its columns, and how its rows are made.
struct SystemTable {
    schema: &'static str,
    name: &'static str,
    columns: Vec<ColumnMeta>,
    rows: Rows,
}

enum Rows {
    /// Rows computed from the catalogs once every table is known.
    Listing(fn(&Catalogs) -> Vec<Vec<Cell>>),
    /// Read from [`Runtime`] each time a query runs.
    Live,
}

fn system_tables() -> Vec<SystemTable> {
    let mut tables = jdbc::tables();
    tables.extend(metadata::tables());
    tables.extend(runtime::tables());
    tables
}

/// Declares the system catalog's tables, so information_schema lists them; their rows come
/// with [`fill_system_catalog`] once every catalog's tables are declared.
pub(super) fn declare_system_catalog(catalogs: &mut Catalogs) {
    for table in system_tables() {
        catalogs.add_table(TableMeta {
            catalog: SYSTEM.into(),
            schema: table.schema.into(),
            name: table.name.into(),
            columns: table.columns,
            sqlite: SqliteTable::default(),
        });
    }
}

/// Gives every system table its rows, from the catalogs as they are now complete.
pub(super) fn fill_system_catalog(catalogs: &mut Catalogs) {
    for table in system_tables() {
        let rows = match table.rows {
            Rows::Listing(rows) => cells_table(&table.columns, &rows(catalogs)),
            // Made per person when a query reads it ([`live_source`]); this one shows nobody's.
            Rows::Live => runtime::live_source(table.schema, table.name, &table.columns, ""),
        };
        catalogs.add_table(TableMeta {
            catalog: SYSTEM.into(),
            schema: table.schema.into(),
            name: table.name.into(),
            columns: table.columns,
            sqlite: SqliteTable::Rows(Box::new(rows)),
        });
    }
}

/// The query reading `table` for `user` when it is one of the live runtime tables.
pub fn live_source(table: &TableMeta, user: Option<&str>) -> Option<Select> {
    if table.catalog != SYSTEM || table.schema != "runtime" {
        return None;
    }
    Some(runtime::live_source(
        &table.schema,
        &table.name,
        &table.columns,
        user.unwrap_or(""),
    ))
}

/// Every listed schema of `catalog` with its `information_schema`, sorted.
fn schemas_of<'a>(catalogs: &'a Catalogs, catalog: &'a str) -> Vec<&'a str> {
    let mut schemas: Vec<&str> = catalogs.schema_names(catalog).collect();
    if !schemas.contains(&"information_schema") {
        schemas.push("information_schema");
    }
    schemas.sort_unstable();
    schemas
}

/// The tables of listed schemas, in catalog, schema, name order (a tpch schema listed before
/// it is generated, `sf1`, …, has its tables' metadata already, as Trino lists them).
fn listed_tables(catalogs: &Catalogs) -> Vec<TableMeta> {
    let mut tables: Vec<TableMeta> = catalogs
        .all_tables()
        .filter(|t| catalogs.is_listed(&t.catalog, &t.schema))
        .cloned()
        .collect();
    tables.sort_by(|a, b| (&a.catalog, &a.schema, &a.name).cmp(&(&b.catalog, &b.schema, &b.name)));
    tables
}

/// The condition keeping only what `viewer` may see of system table `table`, or `None` when
/// the table lists nothing that access rules hide.
pub fn viewer_condition(
    catalogs: &Catalogs,
    viewer: &Viewer,
    table: &TableMeta,
) -> Option<SqlExpr> {
    if table.catalog != SYSTEM {
        return None;
    }
    let catalogs_seen = || -> Vec<Vec<&str>> {
        catalogs
            .catalog_names()
            .filter(|c| viewer.sees_catalog(c))
            .map(|c| vec![c])
            .collect()
    };
    let schemas_seen = || -> Vec<Vec<&str>> {
        catalogs
            .catalog_names()
            .filter(|c| viewer.sees_catalog(c))
            .flat_map(|c| {
                schemas_of(catalogs, c)
                    .into_iter()
                    .filter(move |s| viewer.sees_schema(c, s))
                    .map(move |s| vec![c, s])
            })
            .collect()
    };
    let tables_seen = || -> Vec<TableMeta> {
        listed_tables(catalogs)
            .into_iter()
            .filter(|t| viewer.sees_catalog(&t.catalog))
            .filter(|t| viewer.sees_table(&t.catalog, &t.schema, &t.name))
            .collect()
    };
    let table_rows = |tables: &[TableMeta]| -> Vec<Vec<String>> {
        tables
            .iter()
            .map(|t| vec![t.catalog.clone(), t.schema.clone(), t.name.clone()])
            .collect()
    };
    let (columns, rows): (&[&str], Vec<Vec<String>>) =
        match (table.schema.as_str(), table.name.as_str()) {
            ("jdbc", "catalogs") => (&["table_cat"], owned(catalogs_seen())),
            ("metadata", "catalogs") => (&["catalog_name"], owned(catalogs_seen())),
            ("jdbc", "schemas") => (&["table_catalog", "table_schem"], owned(schemas_seen())),
            ("jdbc", "tables") => (
                &["table_cat", "table_schem", "table_name"],
                table_rows(&tables_seen()),
            ),
            ("metadata", "table_comments") => (
                &["catalog_name", "schema_name", "table_name"],
                table_rows(&tables_seen()),
            ),
            ("jdbc", "columns") => {
                let tables = tables_seen();
                let rows = tables
                    .iter()
                    .flat_map(|t| {
                        t.listed_columns()
                            .filter(move |c| {
                                viewer.sees_column(&t.catalog, &t.schema, &t.name, &c.name)
                            })
                            .map(move |c| {
                                vec![
                                    t.catalog.clone(),
                                    t.schema.clone(),
                                    t.name.clone(),
                                    c.name.clone(),
                                ]
                            })
                    })
                    .collect();
                (
                    &["table_cat", "table_schem", "table_name", "column_name"],
                    rows,
                )
            }
            _ => return None,
        };
    Some(in_list(columns, &rows))
}

fn owned(rows: Vec<Vec<&str>>) -> Vec<Vec<String>> {
    rows.into_iter()
        .map(|r| r.into_iter().map(str::to_string).collect())
        .collect()
}

/// Whether a row's `columns` hold one of `rows`, or a condition that keeps nothing for an
/// empty list. Several columns compare as one JSON array of their texts, which SQLite looks
/// up in the list as it would the row value `(a, b)` in `VALUES`.
pub(crate) fn in_list<S: AsRef<str>>(columns: &[&str], rows: &[Vec<S>]) -> SqlExpr {
    if rows.is_empty() {
        return SqlExpr::Integer(0);
    }
    let key = |cells: Vec<SqlExpr>| match <[SqlExpr; 1]>::try_from(cells) {
        Ok([one]) => one,
        Err(cells) => builtin::JSON_ARRAY.call(cells),
    };
    let operand = key(columns.iter().map(|c| SqlExpr::column(None, *c)).collect());
    let list = rows
        .iter()
        .map(|r| key(r.iter().map(|v| SqlExpr::text(v.as_ref())).collect()))
        .collect();
    SqlExpr::InList {
        operand: Box::new(operand),
        list,
        negated: false,
    }
}

#[cfg(test)]
mod tests;
