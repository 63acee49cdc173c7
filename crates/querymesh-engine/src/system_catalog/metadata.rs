//! `system.metadata`: the catalogs and their connectors, table comments, and the properties
//! each connector declares (Trino's `CatalogSystemTable`, `TableCommentSystemTable`, the
//! `*PropertiesSystemTable`s, `MaterializedViewSystemTable`). tpch and the stand-in's other
//! catalogs declare no properties and no comments, and there are no materialized views.

use super::{Cell, Rows, SYSTEM, SystemTable, VARCHAR, columns, listed_tables};
use crate::catalog::Catalogs;
use crate::types::TrinoType;

pub(super) fn tables() -> Vec<SystemTable> {
    let properties = |name| SystemTable {
        schema: "metadata",
        name,
        columns: columns(&[
            ("catalog_name", VARCHAR),
            ("property_name", VARCHAR),
            ("default_value", VARCHAR),
            ("type", VARCHAR),
            ("description", VARCHAR),
        ]),
        rows: Rows::Listing(|_| Vec::new()),
    };
    vec![
        properties("analyze_properties"),
        SystemTable {
            schema: "metadata",
            name: "catalogs",
            columns: columns(&[
                ("catalog_name", VARCHAR),
                ("connector_id", VARCHAR),
                ("connector_name", VARCHAR),
            ]),
            rows: Rows::Listing(catalog_rows),
        },
        properties("column_properties"),
        properties("materialized_view_properties"),
        SystemTable {
            schema: "metadata",
            name: "materialized_views",
            columns: columns(&[
                ("catalog_name", VARCHAR),
                ("schema_name", VARCHAR),
                ("name", VARCHAR),
                ("storage_catalog", VARCHAR),
                ("storage_schema", VARCHAR),
                ("storage_table", VARCHAR),
                ("freshness", VARCHAR),
                ("last_fresh_time", TrinoType::TimestampTz(9)),
                ("comment", VARCHAR),
                ("definition", VARCHAR),
            ]),
            rows: Rows::Listing(|_| Vec::new()),
        },
        properties("schema_properties"),
        SystemTable {
            schema: "metadata",
            name: "table_comments",
            columns: columns(&[
                ("catalog_name", VARCHAR),
                ("schema_name", VARCHAR),
                ("table_name", VARCHAR),
                ("comment", VARCHAR),
            ]),
            rows: Rows::Listing(comment_rows),
        },
        properties("table_properties"),
    ]
}

/// The connector behind each catalog: `tpch` and `system` as in Trino; a developer's catalog
/// is the stand-in's own source (a SQLite file, or CSV files loaded into SQLite), which Trino
/// has no connector for.
fn connector_name(catalog: &str) -> &'static str {
    match catalog {
        "tpch" => "tpch",
        SYSTEM => "system",
        _ => "sqlite",
    }
}

fn catalog_rows(catalogs: &Catalogs) -> Vec<Vec<Cell>> {
    catalogs
        .catalog_names()
        .map(|c| vec![Cell::text(c), Cell::text(c), Cell::text(connector_name(c))])
        .collect()
}

/// Every table without a comment, information_schema's included, as Trino lists them.
fn comment_rows(catalogs: &Catalogs) -> Vec<Vec<Cell>> {
    listed_tables(catalogs)
        .iter()
        .map(|t| {
            vec![
                Cell::text(&t.catalog),
                Cell::text(&t.schema),
                Cell::text(&t.name),
                Cell::Null,
            ]
        })
        .collect()
}
