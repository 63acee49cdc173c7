//! Numbers with their units (Trino docs functions/conversion, "Formatting" and "Data size"):
//! `format_number` (FormatNumberFunction) and `parse_data_size` (DataSizeFunctions), run by
//! querymesh-functions/src/format/sqlite/units.rs.

use super::sqlite::units::{QM_FORMAT_NUMBER, QM_PARSE_DATA_SIZE};
use crate::entry::{FunctionDef, Typing, calls, scalar};

pub const FUNCTIONS: &[FunctionDef] = &[
    // bigint first: an integer argument takes that overload, a decimal or real the double one.
    scalar(
        "format_number",
        &[("bigint", "varchar"), ("double", "varchar")],
        Typing::Resolved,
        calls!(QM_FORMAT_NUMBER),
        "Formats large number using a unit symbol",
    ),
    scalar(
        "parse_data_size",
        &[("varchar(x)", "decimal(38,0)")],
        Typing::Resolved,
        calls!(QM_PARSE_DATA_SIZE),
        "Converts data size string to bytes",
    ),
    // DataSizeFunctions' alias of parse_data_size, kept by Trino 476 for Presto's users.
    scalar(
        "parse_presto_data_size",
        &[("varchar(x)", "decimal(38,0)")],
        Typing::Resolved,
        calls!(QM_PARSE_DATA_SIZE),
        "Converts data size string to bytes",
    ),
];
