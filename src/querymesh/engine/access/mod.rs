//! Data policies in Trino's file-based access-control format (`security.config-file`), for
//! what a query reads: `catalogs` rules (allow all / read-only / none) and `tables` rules
//! (privileges, and columns with `allow: false`).
//!
//! As in Trino: in each section the first rule whose user, group and object patterns all match
//! decides; no matching rule denies; a missing section allows. Patterns are anchored regular
//! expressions, an omitted one matches everything. `information_schema` is always readable.
//! Selecting needs catalog access read-only or better and SELECT (or GRANT_SELECT) in the
//! first matching table rule, with none of the selected columns denied.
//!
//! Exploration shows only what the person may see, as Trino's `filterCatalogs`,
//! `filterSchemas`, `filterTables` and `filterColumns` decide (see [`Viewer`]); `schemas`
//! rules (`owner`) count there, since a schema owner sees all its tables.
//!
//! Not supported, and refused at start rather than silently ignored: row filters (`filter`)
//! and column masks (`mask`). Rules naming a `role` never match: the sandbox has no roles.
//!
//! # Layout
//!
//! - this file: [`User`] and [`AccessControl`], the rules in force and the check on a query's
//!   reads.
//! - `rules_file`: the file's sections and rules as written, and its errors.
//! - `rules`: the rules compiled for matching.
//! - `viewer`: [`Viewer`], what one person may see while exploring.

mod rules;
mod rules_file;
mod viewer;

#[cfg(test)]
mod tests;

use std::path::Path;

use super::TableAccess;
use super::error::{ErrorName, TrinoError};

use self::rules::{
    CatalogAccess, CatalogRule, SchemaRule, TableRule, catalog_rule, schema_rule, table_rule,
};
pub use self::rules_file::{AccessRulesError, RuleProblem, RulesProblem};
use self::rules_file::{IGNORED_SECTIONS, RulesFile, parse_section};
pub use self::viewer::Viewer;

const INFORMATION_SCHEMA: &str = "information_schema";

/// Who the rules judge: a user name (Trino's principal and session user) and the groups the
/// rules' `group` patterns match. The server says who that is; the rules need nothing more.
#[derive(Clone, Debug)]
pub struct User {
    pub name: String,
    pub groups: Vec<String>,
}

/// The rules in force; [`AccessControl::allow_all`] when none are configured. A missing
/// section allows everything, as Trino's defaults do (`ALLOW_ALL` catalog, schema-owner and
/// table rules).
pub struct AccessControl {
    catalogs: Option<Vec<CatalogRule>>,
    schemas: Option<Vec<SchemaRule>>,
    tables: Option<Vec<TableRule>>,
}

impl AccessControl {
    pub fn allow_all() -> Self {
        Self {
            catalogs: None,
            schemas: None,
            tables: None,
        }
    }

    pub fn load(path: &Path) -> Result<Self, AccessRulesError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| AccessRulesError::Read {
            path: shown.clone(),
            source,
        })?;
        Self::parse(&text).map_err(|problem| AccessRulesError::Invalid {
            path: shown,
            problem,
        })
    }

    pub fn parse(text: &str) -> Result<Self, RulesProblem> {
        let file: RulesFile = serde_json::from_str(text)?;
        if let Some(key) = file
            .other
            .keys()
            .find(|k| !IGNORED_SECTIONS.contains(&k.as_str()))
        {
            return Err(RulesProblem::UnknownSection(key.clone()));
        }
        let catalogs = parse_section("catalogs", file.catalogs, catalog_rule)?;
        let schemas = parse_section("schemas", file.schemas, schema_rule)?;
        let tables = parse_section("tables", file.tables, table_rule)?;
        Ok(Self {
            catalogs,
            schemas,
            tables,
        })
    }

    /// Refuses the first table of `reads` that `principal` may not select from, with Trino's
    /// PERMISSION_DENIED message.
    pub fn check_select(&self, principal: &User, reads: &[TableAccess]) -> Result<(), TrinoError> {
        for read in reads {
            if !self.can_select(principal, read) {
                return Err(TrinoError::new(
                    ErrorName::PermissionDenied,
                    format!(
                        "Access Denied: Cannot select from table {}.{}.{}",
                        read.catalog, read.schema, read.table
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Trino's `checkCanSelectFromColumns`: the catalog readable first (information_schema
    /// included), then the first matching table rule.
    fn can_select(&self, principal: &User, read: &TableAccess) -> bool {
        if self.catalog_access(principal, &read.catalog) < CatalogAccess::ReadOnly {
            return false;
        }
        if read.schema == INFORMATION_SCHEMA {
            return true;
        }
        let Some(rules) = &self.tables else {
            return true;
        };
        let rule = rules
            .iter()
            .find(|r| r.matches(principal, &read.catalog, &read.schema, &read.table));
        rule.is_some_and(|rule| {
            rule.select
                && read.columns.iter().all(|c| {
                    !rule
                        .denied_columns
                        .iter()
                        .any(|d| d.eq_ignore_ascii_case(c))
                })
        })
    }

    fn catalog_access(&self, principal: &User, catalog: &str) -> CatalogAccess {
        let Some(rules) = &self.catalogs else {
            return CatalogAccess::All;
        };
        rules
            .iter()
            .find(|r| r.subject.matches(principal) && r.catalog.is_match(catalog))
            .map_or(CatalogAccess::None, |r| r.access)
    }
}
