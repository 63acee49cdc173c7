//! `TABLE(exclude_columns(input => TABLE(t), columns => DESCRIPTOR(a, …)))` (docs
//! functions/table; ExcludeColumnsFunction, TestExcludeColumnsFunction): the input's
//! columns, in order, but those the descriptor names, matched without regard to case.
//! The input is a table (or WITH query) by name, or a query (`TABLE(SELECT …)`).
//!
//! Trino's errors, without a place: "COLUMNS descriptor is null", "COLUMNS descriptor
//! contains types", "Excluded columns: [x, y] not present in the table" (the missing names
//! lower-cased, in the descriptor's order) and "All columns are excluded".

use querymesh_values::sqlite_expr::Select as SqlSelect;
use sqlparser::ast::{FunctionArg, TableFactor};

use super::Output;
use super::arguments::Declared;
use super::arguments::{DescriptorArg, Kind, TableArg, Value, bind};
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::Analyzer;
use crate::sql::analyze::select::output_name;

const DECLARED: [Declared; 2] = [
    Declared {
        name: "INPUT",
        kind: Kind::Table,
        has_default: false,
    },
    Declared {
        name: "COLUMNS",
        kind: Kind::Descriptor,
        has_default: false,
    },
];

fn invalid(message: impl Into<String>) -> TrinoError {
    error_at(ErrorName::InvalidFunctionArgument, None, message)
}

impl Analyzer<'_> {
    pub(super) fn exclude_columns(
        &mut self,
        args: &[FunctionArg],
        at: Option<Position>,
    ) -> Result<Output, TrinoError> {
        let bound = bind(&DECLARED, args, at)?;
        let (Some(Some(Value::Table(input, _))), Some(Some(Value::Descriptor(columns)))) =
            (bound.first(), bound.get(1))
        else {
            return Err(invalid("Missing argument: INPUT"));
        };
        // The input first: a missing table is TABLE_NOT_FOUND before the descriptor's errors.
        let (factor, table_at) = match input {
            TableArg::Named(name, at) => (
                TableFactor::Table {
                    name: name.clone(),
                    alias: None,
                    args: None,
                    with_hints: Vec::new(),
                    version: None,
                    with_ordinality: false,
                    partitions: Vec::new(),
                    json_path: None,
                    sample: None,
                    index_directives: Vec::new(),
                    inheritance: None,
                },
                *at,
            ),
            TableArg::Query(query) => (
                TableFactor::Derived {
                    lateral: false,
                    subquery: Box::new((*query).clone()),
                    alias: None,
                    sample: None,
                },
                None,
            ),
        };
        let mut relations = Vec::new();
        // A missing catalog, schema or table is reported at `TABLE(`, as Trino places it.
        let source = self
            .table_factor(&factor, None, &mut relations)
            .map_err(|mut e| {
                if table_at.is_some()
                    && matches!(
                        e.name,
                        ErrorName::TableNotFound
                            | ErrorName::SchemaNotFound
                            | ErrorName::CatalogNotFound
                    )
                {
                    e.location = table_at;
                }
                e
            })?;
        let fields = match columns {
            DescriptorArg::Null => return Err(invalid("COLUMNS descriptor is null")),
            DescriptorArg::Fields(fields) => fields,
        };
        if fields.iter().any(|(_, typed)| *typed) {
            return Err(invalid("COLUMNS descriptor contains types"));
        }
        let input_columns: Vec<_> = relations
            .iter()
            .flat_map(|r| r.columns.iter())
            .filter(|c| !c.hidden && !c.unlisted)
            .collect();
        let mut excluded: Vec<&str> = Vec::new();
        for (name, _) in fields {
            if !excluded.contains(&name.as_str()) {
                excluded.push(name);
            }
        }
        let missing: Vec<&str> = excluded
            .iter()
            .copied()
            .filter(|name| !input_columns.iter().any(|c| c.name.to_lowercase() == *name))
            .collect();
        if !missing.is_empty() {
            return Err(invalid(format!(
                "Excluded columns: [{}] not present in the table",
                missing.join(", ")
            )));
        }
        let kept: Vec<_> = input_columns
            .into_iter()
            .filter(|c| !excluded.contains(&c.name.to_lowercase().as_str()))
            .collect();
        if kept.is_empty() {
            return Err(invalid("All columns are excluded"));
        }
        for c in &kept {
            self.use_column(c);
        }
        let outputs = kept
            .iter()
            .enumerate()
            .map(|(i, c)| (c.sql.clone(), Some(output_name(i + 1))))
            .collect();
        let select = SqlSelect {
            columns: outputs,
            from: vec![source],
            ..SqlSelect::default()
        };
        Ok(Output {
            sql: select.into(),
            columns: kept
                .iter()
                .map(|c| (c.name.clone(), c.ty.clone()))
                .collect(),
        })
    }
}
