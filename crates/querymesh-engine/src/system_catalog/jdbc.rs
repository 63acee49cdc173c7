//! `system.jdbc`: the tables the JDBC driver's `TrinoDatabaseMetaData` reads (getCatalogs,
//! getSchemas, getTables, getColumns, getTypeInfo, getTableTypes, getProcedures, …), with the
//! columns of Trino's `io.trino.connector.system.jdbc` tables in their order. The tables
//! Trino fills only for features the stand-in lacks (procedures, user-defined types,
//! attributes, super tables and types, pseudo columns) are empty there too.

use super::jdbc_types::{TYPE_INFO, jdbc_facts};

use super::{
    BIGINT, BOOLEAN, Cell, Rows, SystemTable, VARCHAR, columns, listed_tables, schemas_of,
};
use crate::catalog::Catalogs;

pub(super) fn tables() -> Vec<SystemTable> {
    let table = |name, specs: &[(&str, _)], rows| SystemTable {
        schema: "jdbc",
        name,
        columns: columns(specs),
        rows,
    };
    let none = Rows::Listing(|_| Vec::new());
    vec![
        table(
            "attributes",
            &[
                ("type_cat", VARCHAR),
                ("type_schem", VARCHAR),
                ("type_name", VARCHAR),
                ("attr_name", VARCHAR),
                ("data_type", BIGINT),
                ("attr_type_name", VARCHAR),
                ("attr_size", BIGINT),
                ("decimal_digits", BIGINT),
                ("num_prec_radix", BIGINT),
                ("nullable", BIGINT),
                ("remarks", VARCHAR),
                ("attr_def", VARCHAR),
                ("sql_data_type", BIGINT),
                ("sql_datetime_sub", BIGINT),
                ("char_octet_length", BIGINT),
                ("ordinal_position", BIGINT),
                ("is_nullable", VARCHAR),
                ("scope_catalog", VARCHAR),
                ("scope_schema", VARCHAR),
                ("scope_table", VARCHAR),
                ("source_data_type", BIGINT),
            ],
            Rows::Listing(|_| Vec::new()),
        ),
        table(
            "catalogs",
            &[("table_cat", VARCHAR)],
            Rows::Listing(catalog_rows),
        ),
        table(
            "columns",
            &[
                ("table_cat", VARCHAR),
                ("table_schem", VARCHAR),
                ("table_name", VARCHAR),
                ("column_name", VARCHAR),
                ("data_type", BIGINT),
                ("type_name", VARCHAR),
                ("column_size", BIGINT),
                ("buffer_length", BIGINT),
                ("decimal_digits", BIGINT),
                ("num_prec_radix", BIGINT),
                ("nullable", BIGINT),
                ("remarks", VARCHAR),
                ("column_def", VARCHAR),
                ("sql_data_type", BIGINT),
                ("sql_datetime_sub", BIGINT),
                ("char_octet_length", BIGINT),
                ("ordinal_position", BIGINT),
                ("is_nullable", VARCHAR),
                ("scope_catalog", VARCHAR),
                ("scope_schema", VARCHAR),
                ("scope_table", VARCHAR),
                ("source_data_type", BIGINT),
                ("is_autoincrement", VARCHAR),
                ("is_generatedcolumn", VARCHAR),
            ],
            Rows::Listing(column_rows),
        ),
        table(
            "procedure_columns",
            &[
                ("procedure_cat", VARCHAR),
                ("procedure_schem", VARCHAR),
                ("procedure_name", VARCHAR),
                ("column_name", VARCHAR),
                ("column_type", BIGINT),
                ("data_type", BIGINT),
                ("type_name", VARCHAR),
                ("precision", BIGINT),
                ("length", BIGINT),
                ("scale", BIGINT),
                ("radix", BIGINT),
                ("nullable", BIGINT),
                ("remarks", VARCHAR),
                ("column_def", VARCHAR),
                ("sql_data_type", BIGINT),
                ("sql_datetime_sub", BIGINT),
                ("char_octet_length", BIGINT),
                ("ordinal_position", BIGINT),
                ("is_nullable", VARCHAR),
                ("specific_name", VARCHAR),
            ],
            Rows::Listing(|_| Vec::new()),
        ),
        table(
            "procedures",
            &[
                ("procedure_cat", VARCHAR),
                ("procedure_schem", VARCHAR),
                ("procedure_name", VARCHAR),
                ("remarks", VARCHAR),
                ("procedure_type", BIGINT),
                ("specific_name", VARCHAR),
            ],
            Rows::Listing(|_| Vec::new()),
        ),
        table(
            "pseudo_columns",
            &[
                ("table_cat", VARCHAR),
                ("table_schem", VARCHAR),
                ("table_name", VARCHAR),
                ("column_name", VARCHAR),
                ("data_type", BIGINT),
                ("column_size", BIGINT),
                ("decimal_digits", BIGINT),
                ("num_prec_radix", BIGINT),
                ("column_usage", VARCHAR),
                ("remarks", VARCHAR),
                ("char_octet_length", BIGINT),
                // BIGINT in Trino 476, although JDBC describes IS_NULLABLE as a string.
                ("is_nullable", BIGINT),
            ],
            Rows::Listing(|_| Vec::new()),
        ),
        table(
            "schemas",
            &[("table_schem", VARCHAR), ("table_catalog", VARCHAR)],
            Rows::Listing(schema_rows),
        ),
        table(
            "super_tables",
            &[
                ("table_cat", VARCHAR),
                ("table_schem", VARCHAR),
                ("table_name", VARCHAR),
                ("supertable_name", VARCHAR),
            ],
            Rows::Listing(|_| Vec::new()),
        ),
        table(
            "super_types",
            &[
                ("type_cat", VARCHAR),
                ("type_schem", VARCHAR),
                ("type_name", VARCHAR),
                ("supertype_cat", VARCHAR),
                ("supertype_schem", VARCHAR),
                ("supertype_name", VARCHAR),
            ],
            Rows::Listing(|_| Vec::new()),
        ),
        table(
            "table_types",
            &[("table_type", VARCHAR)],
            Rows::Listing(|_| vec![vec![Cell::text("TABLE")], vec![Cell::text("VIEW")]]),
        ),
        table(
            "tables",
            &[
                ("table_cat", VARCHAR),
                ("table_schem", VARCHAR),
                ("table_name", VARCHAR),
                ("table_type", VARCHAR),
                ("remarks", VARCHAR),
                ("type_cat", VARCHAR),
                ("type_schem", VARCHAR),
                ("type_name", VARCHAR),
                ("self_referencing_col_name", VARCHAR),
                ("ref_generation", VARCHAR),
            ],
            Rows::Listing(table_rows),
        ),
        table(
            "types",
            &[
                ("type_name", VARCHAR),
                ("data_type", BIGINT),
                ("precision", BIGINT),
                ("literal_prefix", VARCHAR),
                ("literal_suffix", VARCHAR),
                ("create_params", VARCHAR),
                ("nullable", BIGINT),
                ("case_sensitive", BOOLEAN),
                ("searchable", BIGINT),
                ("unsigned_attribute", BOOLEAN),
                ("fixed_prec_scale", BOOLEAN),
                ("auto_increment", BOOLEAN),
                ("local_type_name", VARCHAR),
                ("minimum_scale", BIGINT),
                ("maximum_scale", BIGINT),
                ("sql_data_type", BIGINT),
                ("sql_datetime_sub", BIGINT),
                ("num_prec_radix", BIGINT),
            ],
            Rows::Listing(type_rows),
        ),
        table(
            "udts",
            &[
                ("type_cat", VARCHAR),
                ("type_schem", VARCHAR),
                ("type_name", VARCHAR),
                ("class_name", VARCHAR),
                // VARCHAR in Trino 476, although JDBC describes DATA_TYPE as an int.
                ("data_type", VARCHAR),
                ("remarks", VARCHAR),
                ("base_type", VARCHAR),
            ],
            none,
        ),
    ]
}

fn catalog_rows(catalogs: &Catalogs) -> Vec<Vec<Cell>> {
    catalogs
        .catalog_names()
        .map(|c| vec![Cell::text(c)])
        .collect()
}

fn schema_rows(catalogs: &Catalogs) -> Vec<Vec<Cell>> {
    catalogs
        .catalog_names()
        .flat_map(|c| {
            schemas_of(catalogs, c)
                .into_iter()
                .map(move |s| vec![Cell::text(s), Cell::text(c)])
        })
        .collect()
}

/// `TableJdbcTable`: a view of a developer's SQLite file is a VIEW, everything else a TABLE;
/// no table has a comment.
fn table_rows(catalogs: &Catalogs) -> Vec<Vec<Cell>> {
    listed_tables(catalogs)
        .iter()
        .map(|t| {
            let is_view = catalogs
                .view_reads(&t.catalog, &t.schema, &t.name)
                .is_some();
            let mut row = vec![
                Cell::text(&t.catalog),
                Cell::text(&t.schema),
                Cell::text(&t.name),
                Cell::text(if is_view { "VIEW" } else { "TABLE" }),
            ];
            row.extend(std::iter::repeat_n(Cell::Null, 6));
            row
        })
        .collect()
}

/// `ColumnJdbcTable.addColumnRows`: each column's JDBC type code and sizes by its Trino type,
/// `buffer_length` 0, and nullability as the connector declares it.
fn column_rows(catalogs: &Catalogs) -> Vec<Vec<Cell>> {
    let tables = listed_tables(catalogs);
    tables
        .iter()
        .flat_map(|t| {
            t.listed_columns().enumerate().map(move |(i, c)| {
                let facts = jdbc_facts(&c.ty);
                let mut row = vec![
                    Cell::text(&t.catalog),
                    Cell::text(&t.schema),
                    Cell::text(&t.name),
                    Cell::text(&c.name),
                    Cell::Int(facts.data_type),
                    Cell::Text(c.ty.to_string()),
                    Cell::opt_int(facts.column_size),
                    Cell::Int(0),
                    Cell::opt_int(facts.decimal_digits),
                    Cell::opt_int(facts.num_prec_radix),
                    Cell::Int(i64::from(c.nullable)),
                    Cell::Null,
                    Cell::Null,
                    Cell::Null,
                    Cell::Null,
                    Cell::opt_int(facts.char_octet_length),
                    Cell::Int(i as i64 + 1),
                    Cell::text(if c.nullable { "YES" } else { "NO" }),
                ];
                row.extend(std::iter::repeat_n(Cell::Null, 6));
                row
            })
        })
        .collect()
}

fn type_rows(_: &Catalogs) -> Vec<Vec<Cell>> {
    TYPE_INFO
        .iter()
        .map(|t| {
            let flag = |b: Option<bool>| Cell::opt_int(b.map(i64::from));
            vec![
                Cell::text(t.name),
                Cell::Int(t.data_type),
                Cell::opt_int(t.precision),
                Cell::Null,
                Cell::Null,
                Cell::Null,
                // typeNullable
                Cell::Int(1),
                flag(Some(false)),
                Cell::Int(t.searchable),
                flag(None),
                flag(Some(false)),
                flag(None),
                Cell::Null,
                Cell::Int(0),
                Cell::Int(0),
                Cell::Null,
                Cell::Null,
                Cell::opt_int(t.num_prec_radix),
            ]
        })
        .collect()
}
