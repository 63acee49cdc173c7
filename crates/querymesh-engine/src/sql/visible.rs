//! `information_schema` and the `system` catalog's listings as the person may see it: Trino lists its rows through the same
//! filters as SHOW (`filterSchemas` for `schemata`, `filterTables` for `tables`,
//! `filterColumns` for `columns`), so a table hidden from SHOW TABLES is absent here too.
//!
//! The engine builds each catalog's information_schema tables once, for everyone; a viewer
//! reads them through a filter listing what they may see.

use querymesh_values::sqlite_expr::{SqlExpr, builtin};

use crate::access::Viewer;
use crate::catalog::{Catalogs, TableMeta};
use crate::system_catalog;

const INFORMATION_SCHEMA: &str = "information_schema";

/// Whether a row's `columns` hold one of `rows`, or a condition that keeps nothing for an
/// empty list. Several columns compare as one JSON array of their texts, which SQLite looks
/// up in the list as it would the row value `(a, b)` in `VALUES`.
fn in_list(columns: &[&str], rows: &[Vec<&str>]) -> SqlExpr {
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
        .map(|r| key(r.iter().map(|v| SqlExpr::text(*v)).collect()))
        .collect();
    SqlExpr::InList {
        operand: Box::new(operand),
        list,
        negated: false,
    }
}

/// The SQLite source for `table`: itself, or for an information_schema table the rows
/// `viewer` may see.
pub fn source(
    catalogs: &Catalogs,
    viewer: Option<&Viewer>,
    user: Option<&str>,
    table: &TableMeta,
) -> String {
    if let Some(live) = system_catalog::live_source(table, user) {
        return live;
    }
    if let Some(condition) =
        viewer.and_then(|v| system_catalog::viewer_condition(catalogs, v, table))
    {
        return format!("(SELECT * FROM {} WHERE {condition})", table.sqlite_name);
    }
    let Some(viewer) = viewer.filter(|_| table.schema == INFORMATION_SCHEMA) else {
        return table.sqlite_name.clone();
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
        _ => return table.sqlite_name.clone(),
    };
    format!("(SELECT * FROM {} WHERE {condition})", table.sqlite_name)
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
        assert_eq!(in_list(&["a"], &[]).to_string(), "0");
    }
}
