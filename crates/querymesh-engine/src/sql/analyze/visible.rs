//! `information_schema` and the `system` catalog's listings as the person may see it: Trino lists its rows through the same
//! filters as SHOW (`filterSchemas` for `schemata`, `filterTables` for `tables`,
//! `filterColumns` for `columns`), so a table hidden from SHOW TABLES is absent here too.
//!
//! The engine builds each catalog's information_schema tables once, for everyone; a viewer
//! reads them through a filter listing what they may see.

use querymesh_values::sqlite_expr::{FromItem, Select, SqlExpr};

use crate::access::Viewer;
use crate::catalog::{Catalogs, SqliteTable, TableMeta};
use crate::system_catalog::{self, in_list};

const INFORMATION_SCHEMA: &str = "information_schema";

/// `table` as its catalog gives it to SQLite (`"db"."t"`, or a constant table inlined), under
/// `alias`.
pub fn catalog_table(table: &TableMeta, alias: Option<String>) -> FromItem {
    match &table.sqlite {
        SqliteTable::Attached { database, table } => FromItem::Attached {
            database: database.clone(),
            table: table.clone(),
            alias,
        },
        SqliteTable::Rows(select) => FromItem::Subquery {
            select: select.clone(),
            alias,
        },
    }
}

/// `table` as SQLite reads it under `alias`: itself, or for an information_schema or system
/// table the rows `viewer` may see.
pub fn source(
    catalogs: &Catalogs,
    viewer: Option<&Viewer>,
    user: Option<&str>,
    table: &TableMeta,
    alias: Option<String>,
) -> FromItem {
    let rows = |select: Select| FromItem::Subquery {
        select: Box::new(select),
        alias: alias.clone(),
    };
    let seen =
        |condition: SqlExpr| rows(Select::star(catalog_table(table, None)).filter(condition));
    if let Some(live) = system_catalog::live_source(table, user) {
        return rows(live);
    }
    if let Some(condition) =
        viewer.and_then(|v| system_catalog::viewer_condition(catalogs, v, table))
    {
        return seen(condition);
    }
    let Some(viewer) = viewer.filter(|_| table.schema == INFORMATION_SCHEMA) else {
        return catalog_table(table, alias);
    };
    let catalog = table.catalog.as_str();
    let tables: Vec<&TableMeta> = catalogs
        .all_tables()
        .filter(|t| t.catalog == catalog && viewer.sees_table(catalog, &t.schema, &t.name))
        .collect();
    let condition = match table.name.as_str() {
        "schemata" => {
            let schemas: Vec<Vec<&str>> = catalogs
                .schema_names(catalog)
                .filter(|s| viewer.sees_schema(catalog, s))
                .map(|s| vec![s])
                .collect();
            in_list(&["schema_name"], &schemas)
        }
        "tables" | "views" => {
            let rows: Vec<Vec<&str>> = tables
                .iter()
                .map(|t| vec![t.schema.as_str(), t.name.as_str()])
                .collect();
            in_list(&["table_schema", "table_name"], &rows)
        }
        "columns" => {
            let rows: Vec<Vec<&str>> = tables
                .iter()
                .flat_map(|t| {
                    t.listed_columns()
                        .filter(|c| viewer.sees_column(catalog, &t.schema, &t.name, &c.name))
                        .map(|c| vec![t.schema.as_str(), t.name.as_str(), c.name.as_str()])
                })
                .collect();
            in_list(&["table_schema", "table_name", "column_name"], &rows)
        }
        _ => return catalog_table(table, alias),
    };
    seen(condition)
}

#[cfg(test)]
mod tests {
    use super::in_list;

    #[test]
    fn several_columns_compare_as_one_array_of_their_texts() {
        assert_eq!(
            in_list(&["a"], &[vec!["x"], vec!["y"]]).to_string(),
            "(\"a\" IN ('x', 'y'))"
        );
        assert_eq!(
            in_list(&["a", "b"], &[vec!["x", "it's"]]).to_string(),
            "(json_array(\"a\", \"b\") IN (json_array('x', 'it''s')))"
        );
        assert_eq!(in_list::<&str>(&["a"], &[]).to_string(), "0");
    }
}
