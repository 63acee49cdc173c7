//! Every catalog's `information_schema` (schemata, tables, columns), as Trino has it: constant
//! tables inlined in the SQL, made once when the engine opens.

use super::catalog::{Catalogs, ColumnMeta, TableMeta};
use super::sql;
use super::system_catalog::inline_table;
use super::types::TrinoType;

fn varchar_column(name: &str) -> ColumnMeta {
    ColumnMeta {
        name: name.into(),
        ty: TrinoType::Varchar(None),
        nullable: true,
        hidden: false,
    }
}

/// A varchar column Trino hides: read by name, not in `*` or any listing.
fn hidden_varchar_column(name: &str) -> ColumnMeta {
    ColumnMeta {
        hidden: true,
        ..varchar_column(name)
    }
}

/// Every catalog's `information_schema` (schemata, tables, columns), as Trino has it.
pub(super) fn add_information_schema(catalogs: &mut Catalogs) {
    let schemata_cols = vec![
        varchar_column("catalog_name"),
        varchar_column("schema_name"),
    ];
    let tables_cols = vec![
        varchar_column("table_catalog"),
        varchar_column("table_schema"),
        varchar_column("table_name"),
        varchar_column("table_type"),
        hidden_varchar_column("table_comment"),
    ];
    let mut columns_cols = vec![
        varchar_column("table_catalog"),
        varchar_column("table_schema"),
        varchar_column("table_name"),
        varchar_column("column_name"),
    ];
    columns_cols.push(ColumnMeta {
        name: "ordinal_position".into(),
        ty: TrinoType::BigInt,
        nullable: true,
        hidden: false,
    });
    columns_cols.extend([
        varchar_column("column_default"),
        varchar_column("is_nullable"),
        varchar_column("data_type"),
        // Trino's non-standard ones, which SQLAlchemy's Trino dialect reads.
        hidden_varchar_column("comment"),
        hidden_varchar_column("extra_info"),
        hidden_varchar_column("column_comment"),
    ]);
    let info_tables = [
        ("columns", &columns_cols),
        ("schemata", &schemata_cols),
        ("tables", &tables_cols),
    ];
    let catalog_names: Vec<String> = catalogs.catalog_names().map(str::to_string).collect();
    for catalog in catalog_names {
        let q = |s: &str| sql::sql_string(s);
        let mut schemas: Vec<String> = catalogs
            .schema_names(&catalog)
            .map(str::to_string)
            .collect();
        schemas.push("information_schema".into());
        schemas.sort();
        let mut tables: Vec<TableMeta> = catalogs
            .all_tables()
            .filter(|t| t.catalog == catalog && catalogs.is_listed(&t.catalog, &t.schema))
            .cloned()
            .collect();
        for (name, cols) in &info_tables {
            tables.push(TableMeta {
                catalog: catalog.clone(),
                schema: "information_schema".into(),
                name: name.to_string(),
                columns: (*cols).clone(),
                sqlite_name: String::new(),
            });
        }
        tables.sort_by(|a, b| (&a.schema, &a.name).cmp(&(&b.schema, &b.name)));
        let schemata_rows: Vec<Vec<String>> =
            schemas.iter().map(|s| vec![q(&catalog), q(s)]).collect();
        let table_rows: Vec<Vec<String>> = tables
            .iter()
            .map(|t| {
                let kind = q("BASE TABLE");
                vec![q(&catalog), q(&t.schema), q(&t.name), kind, "NULL".into()]
            })
            .collect();
        let column_rows: Vec<Vec<String>> = tables
            .iter()
            .flat_map(|t| {
                t.listed_columns().enumerate().map(|(i, c)| {
                    vec![
                        q(&catalog),
                        q(&t.schema),
                        q(&t.name),
                        q(&c.name),
                        (i + 1).to_string(),
                        "NULL".into(),
                        q(if c.nullable { "YES" } else { "NO" }),
                        q(&c.ty.to_string()),
                        // comment, extra_info, column_comment: tpch and the CSV and SQLite
                        // catalogs have none.
                        "NULL".into(),
                        "NULL".into(),
                        "NULL".into(),
                    ]
                })
            })
            .collect();
        for (name, cols, rows) in [
            ("columns", &columns_cols, column_rows),
            ("schemata", &schemata_cols, schemata_rows),
            ("tables", &tables_cols, table_rows),
        ] {
            catalogs.add_table(TableMeta {
                catalog: catalog.clone(),
                schema: "information_schema".into(),
                name: name.into(),
                columns: cols.clone(),
                sqlite_name: inline_table(cols, &rows),
            });
        }
    }
}
