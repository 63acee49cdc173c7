//! SHOW FUNCTIONS [FROM|IN [catalog.]schema] [LIKE p [ESCAPE c]] (Trino docs
//! sql/show-functions), as Trino 476's ShowQueriesRewrite answers it: the rows are a VALUES
//! list, so each text column is a `varchar(n)` as long as its longest value in the whole list,
//! before the LIKE filter; an empty list is an empty query of plain `varchar` columns, whose
//! pattern is never looked at.
//!
//! - Without FROM: the global functions (the registry and the built-in table functions), then
//!   the functions of the session path's one schema, `system.builtin`, which holds the table
//!   functions again — so Trino lists each table function twice.
//! - `FROM system.builtin`: the table functions alone. Any other schema, existing or not, has
//!   no functions: an empty answer, never CATALOG_NOT_FOUND or SCHEMA_NOT_FOUND.

use querymesh_functions::entry::{FunctionDef, Kind};
use serde_json::Value;

use super::{Cursor, LikePattern, denied, missing_catalog};
use crate::error::{ErrorName, TrinoError, error_at};
use crate::sql::table_functions::LISTED as TABLE_FUNCTIONS;
use crate::sql::{Body, Plan};
use crate::types::TrinoType;
use crate::{OutputColumn, SessionContext};

/// The columns, in order.
const COLUMNS: [&str; 6] = [
    "Function",
    "Return Type",
    "Argument Types",
    "Function Type",
    "Deterministic",
    "Description",
];

/// One listed row: name, return type, argument types, function type, deterministic,
/// description.
type Row = (String, String, String, String, bool, String);

/// SHOW FUNCTIONS, after its first two keywords.
pub(super) fn show_functions(
    c: &mut Cursor<'_>,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let at = c.start();
    let schema = if c.keyword("FROM") || c.keyword("IN") {
        Some(c.name()?)
    } else {
        None
    };
    let like = c.like_text()?;
    c.end()?;
    let rows = match schema {
        None => global_rows(),
        Some(parts) => {
            // MetadataUtil.createCatalogSchemaName, with errors at the statement's start.
            let (catalog, schema) = match parts.as_slice() {
                [s] => (
                    session.catalog.clone().ok_or_else(|| missing_catalog(at))?,
                    s.clone(),
                ),
                [c, s] => (c.clone(), s.clone()),
                _ => {
                    return Err(error_at(
                        ErrorName::SyntaxError,
                        at,
                        format!("Too many parts in schema name: {}", parts.join(".")),
                    ));
                }
            };
            // checkCanShowFunctions: the schema must be one the person may see.
            if session
                .viewer
                .as_ref()
                .is_some_and(|v| !v.sees_schema(&catalog, &schema))
            {
                return Err(denied(format!(
                    "Cannot show functions of schema {catalog}.{schema}"
                )));
            }
            if catalog == "system" && schema == "builtin" {
                table_function_rows()
            } else {
                Vec::new()
            }
        }
    };
    if rows.is_empty() {
        return Ok(listing(unsized_columns(), Vec::new()));
    }
    let pattern = match like {
        Some((pattern, escape)) => Some(LikePattern::new(&pattern, escape.as_deref())?),
        None => None,
    };
    let columns = sized_columns(&rows);
    let values = rows
        .into_iter()
        .filter(|r| pattern.as_ref().is_none_or(|p| p.matches(&r.0)))
        .map(|(name, returns, args, kind, deterministic, description)| {
            vec![
                Value::from(name),
                Value::from(returns),
                Value::from(args),
                Value::from(kind),
                Value::from(deterministic),
                Value::from(description),
            ]
        })
        .collect();
    Ok(listing(columns, values))
}

/// The names of Trino's functions that have two (`ceil` and `ceiling`, `parse_data_size` and
/// `parse_presto_data_size`, …): Trino 476 lists every row of each such name twice (asked of
/// the pinned Trino with SHOW FUNCTIONS).
const LISTED_TWICE: &[&str] = &[
    "any_value",
    "arbitrary",
    "bool_and",
    "ceil",
    "ceiling",
    "day",
    "day_of_month",
    "day_of_week",
    "day_of_year",
    "dow",
    "doy",
    "every",
    "parse_data_size",
    "parse_presto_data_size",
    "pow",
    "power",
    "rand",
    "random",
    "stddev",
    "stddev_samp",
    "var_samp",
    "variance",
    "week",
    "week_of_year",
    "year_of_week",
    "yow",
];

/// Every listed function of the registry (an aliased name's rows twice), each table function
/// among them after the scalar functions of its name (Trino orders by name, then return type:
/// `unknown` sorts last), and the table functions once more from the path's `system.builtin`.
fn global_rows() -> Vec<Row> {
    let registry: Vec<&FunctionDef> = querymesh_functions::registry::all()
        .into_iter()
        .filter(|f| f.kind != Kind::SpecialForm)
        .collect();
    let mut rows = Vec::new();
    let mut tables = table_function_rows().into_iter().peekable();
    for f in registry {
        while let Some(table) = tables.next_if(|t| t.0.as_str() < f.name) {
            rows.push(table);
        }
        let times = if LISTED_TWICE.contains(&f.name) { 2 } else { 1 };
        for (args, returns) in f.signatures {
            let row = (
                f.name.to_string(),
                returns.to_string(),
                args.to_string(),
                f.kind.shown().to_string(),
                f.deterministic,
                querymesh_functions::registry::description(f, args).to_string(),
            );
            rows.extend(std::iter::repeat_n(row, times));
        }
        while let Some(table) = tables.next_if(|t| t.0 == f.name) {
            rows.push(table);
        }
    }
    rows.extend(tables);
    rows.extend(table_function_rows());
    rows
}

/// The built-in table functions: return type `unknown`, function type `table`, not
/// deterministic, no description (as Trino 476 lists them).
fn table_function_rows() -> Vec<Row> {
    TABLE_FUNCTIONS
        .iter()
        .map(|(name, args)| {
            (
                name.to_string(),
                "unknown".to_string(),
                args.to_string(),
                "table".to_string(),
                false,
                String::new(),
            )
        })
        .collect()
}

fn sized_columns(rows: &[Row]) -> Vec<OutputColumn> {
    let longest = |text: fn(&Row) -> &str| {
        let n = rows
            .iter()
            .map(|r| text(r).chars().count())
            .max()
            .unwrap_or(0);
        TrinoType::Varchar(Some(u32::try_from(n).unwrap_or(u32::MAX)))
    };
    let types = [
        longest(|r| &r.0),
        longest(|r| &r.1),
        longest(|r| &r.2),
        longest(|r| &r.3),
        TrinoType::Boolean,
        longest(|r| &r.5),
    ];
    COLUMNS
        .iter()
        .zip(types)
        .map(|(name, ty)| OutputColumn {
            name: name.to_string(),
            ty,
        })
        .collect()
}

/// QueryUtil.emptyQuery's columns: plain varchar, and the boolean.
fn unsized_columns() -> Vec<OutputColumn> {
    COLUMNS
        .iter()
        .map(|name| OutputColumn {
            name: name.to_string(),
            ty: if *name == "Deterministic" {
                TrinoType::Boolean
            } else {
                TrinoType::Varchar(None)
            },
        })
        .collect()
}

fn listing(columns: Vec<OutputColumn>, values: Vec<Vec<Value>>) -> Plan {
    Plan {
        columns,
        reads: Vec::new(),
        session_update: None,
        body: Body::Rows(values),
    }
}
