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

use std::collections::HashSet;

use querymesh_functions::entry::Kind;
use serde_json::Value;

use super::{Cursor, LikePattern, denied, missing_catalog};
use crate::error::{ErrorName, TrinoError, error_at};
use crate::sql::analyze::table_functions::LISTED as TABLE_FUNCTIONS;
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

/// Trino 476's own SHOW FUNCTIONS listing (written by scripts/trino_function_listing.py from
/// the pinned Trino): how Trino spells each signature (`array(t)`, `function(t,boolean)`),
/// the overloads it lists apart (`approx_distinct(boolean)`), the rows it lists twice (an
/// aliased function such as `ceil` / `ceiling`) and which rows have no description. The
/// stand-in lists the rows of the functions it has: the registry decides which, the listing
/// only how they read.
const TRINO_LISTING: &str = include_str!("trino_functions.tsv");

/// The listing's rows, in Trino's order (by name, then return type), each field as written.
fn trino_listing() -> impl Iterator<Item = Row> {
    TRINO_LISTING
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .filter_map(|line| {
            let mut fields = line.split('\t');
            let mut next = || fields.next().map(str::to_string);
            Some((
                next()?,
                next()?,
                next()?,
                next()?,
                next()? == "true",
                next()?,
            ))
        })
}

/// Every listed function the stand-in has: the registry's (minus the special forms, which
/// Trino does not list) and the built-in table functions, which Trino lists twice (once as
/// global functions, once from the path's `system.builtin`).
fn global_rows() -> Vec<Row> {
    let tables: HashSet<&str> = TABLE_FUNCTIONS.iter().map(|(name, _)| *name).collect();
    trino_listing()
        .filter(|row| {
            tables.contains(row.0.as_str())
                || querymesh_functions::registry::lookup(&row.0.to_ascii_lowercase())
                    .is_some_and(|f| f.kind != Kind::SpecialForm)
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_listing_is_a_row() {
        let lines = TRINO_LISTING
            .lines()
            .filter(|line| !line.starts_with('#') && !line.is_empty())
            .count();
        assert_eq!(trino_listing().count(), lines);
        assert!(lines > 800, "Trino 476 lists 811 rows, read {lines}");
    }

    /// A registry function Trino does not list is misnamed or not Trino's: SHOW FUNCTIONS
    /// would leave it out.
    #[test]
    fn every_registry_function_is_in_the_listing() {
        let listed: HashSet<String> = trino_listing()
            .map(|row| row.0.to_ascii_lowercase())
            .collect();
        for f in querymesh_functions::registry::all() {
            if f.kind != Kind::SpecialForm {
                assert!(
                    listed.contains(&f.name.to_ascii_lowercase()),
                    "{} is not in Trino's listing",
                    f.name
                );
            }
        }
        for (name, _) in TABLE_FUNCTIONS {
            assert!(listed.contains(*name), "{name} is not in Trino's listing");
        }
    }

    #[test]
    fn rows_read_as_trino_spells_them() {
        let rows = global_rows();
        let array_agg: Vec<&Row> = rows.iter().filter(|r| r.0 == "array_agg").collect();
        assert_eq!(array_agg.len(), 1);
        assert_eq!(
            (array_agg[0].1.as_str(), array_agg[0].2.as_str()),
            ("array(t)", "t")
        );
        // An aliased function's rows twice, and no description where Trino gives none.
        let bool_and: Vec<&Row> = rows.iter().filter(|r| r.0 == "bool_and").collect();
        assert_eq!(bool_and.len(), 2);
        assert!(bool_and.iter().all(|r| r.5.is_empty()));
    }
}
