//! Every catalog's `information_schema` as Trino 476 has it (InformationSchemaTable.java):
//! schemata, tables, columns and views listed from the catalogs; table_privileges and the role
//! tables empty, as no catalog here keeps grants or roles. Constant tables inlined in the SQL,
//! made once when the engine opens.

use querymesh_values::sqlite_expr::SqlExpr;

use super::catalog::{Catalogs, ColumnMeta, SqliteTable, TableMeta};
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

/// Every catalog's `information_schema`, as Trino has it.
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
    let views_cols = [
        "table_catalog",
        "table_schema",
        "table_name",
        "view_definition",
    ]
    .map(varchar_column)
    .to_vec();
    let table_privileges_cols = [
        "grantor",
        "grantor_type",
        "grantee",
        "grantee_type",
        "table_catalog",
        "table_schema",
        "table_name",
        "privilege_type",
        "is_grantable",
        "with_hierarchy",
    ]
    .map(varchar_column)
    .to_vec();
    let roles_cols = vec![varchar_column("role_name")];
    let applicable_roles_cols = ["grantee", "grantee_type", "role_name", "is_grantable"]
        .map(varchar_column)
        .to_vec();
    let info_tables = [
        ("applicable_roles", &applicable_roles_cols),
        ("columns", &columns_cols),
        ("enabled_roles", &roles_cols),
        ("roles", &roles_cols),
        ("schemata", &schemata_cols),
        ("table_privileges", &table_privileges_cols),
        ("tables", &tables_cols),
        ("views", &views_cols),
    ];
    let catalog_names: Vec<String> = catalogs.catalog_names().map(str::to_string).collect();
    for catalog in catalog_names {
        let q = |s: &str| SqlExpr::text(s);
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
                sqlite: SqliteTable::default(),
            });
        }
        tables.sort_by(|a, b| (&a.schema, &a.name).cmp(&(&b.schema, &b.name)));
        let schemata_rows: Vec<Vec<SqlExpr>> =
            schemas.iter().map(|s| vec![q(&catalog), q(s)]).collect();
        let table_rows: Vec<Vec<SqlExpr>> = tables
            .iter()
            .map(|t| {
                let view = catalogs.view_sql(&catalog, &t.schema, &t.name).is_some();
                let kind = q(if view { "VIEW" } else { "BASE TABLE" });
                vec![q(&catalog), q(&t.schema), q(&t.name), kind, SqlExpr::Null]
            })
            .collect();
        let column_rows: Vec<Vec<SqlExpr>> = tables
            .iter()
            .flat_map(|t| {
                t.listed_columns().enumerate().map(|(i, c)| {
                    vec![
                        q(&catalog),
                        q(&t.schema),
                        q(&t.name),
                        q(&c.name),
                        SqlExpr::Integer(i64::try_from(i + 1).unwrap_or(i64::MAX)),
                        SqlExpr::Null,
                        q(if c.nullable { "YES" } else { "NO" }),
                        q(&c.ty.to_string()),
                        // comment, extra_info, column_comment: tpch and the CSV and SQLite
                        // catalogs have none.
                        SqlExpr::Null,
                        SqlExpr::Null,
                        SqlExpr::Null,
                    ]
                })
            })
            .collect();
        // A developer's SQLite views, with their queries as written there.
        let view_rows: Vec<Vec<SqlExpr>> = tables
            .iter()
            .filter_map(|t| {
                let create = catalogs.view_sql(&catalog, &t.schema, &t.name)?;
                let query = sql::view_query(create).unwrap_or(create).trim();
                Some(vec![q(&catalog), q(&t.schema), q(&t.name), q(query)])
            })
            .collect();
        for (name, cols, rows) in [
            ("applicable_roles", &applicable_roles_cols, Vec::new()),
            ("columns", &columns_cols, column_rows),
            ("enabled_roles", &roles_cols, Vec::new()),
            ("roles", &roles_cols, Vec::new()),
            ("schemata", &schemata_cols, schemata_rows),
            ("table_privileges", &table_privileges_cols, Vec::new()),
            ("tables", &tables_cols, table_rows),
            ("views", &views_cols, view_rows),
        ] {
            catalogs.add_table(TableMeta {
                catalog: catalog.clone(),
                schema: "information_schema".into(),
                name: name.into(),
                columns: cols.clone(),
                sqlite: SqliteTable::Rows(Box::new(inline_table(cols, rows))),
            });
        }
    }
}
