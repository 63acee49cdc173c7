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
//! Row filters (`filter`, `filter_environment`) and column masks (`columns[].mask`,
//! `mask_environment`) of the first matching table rule shape what a query reads of the table
//! (see [`TablePolicy`] and the analyser's sql/analyze/policy.rs); each is parsed when the file loads and
//! analysed against every table its rule names once the catalogs are open
//! ([`AccessControl::load_for`]), so an invalid one stops the start naming its rule. Rules
//! naming a `role` never match: the sandbox has no roles.
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
mod policy_tests;
#[cfg(test)]
mod tests;

use std::path::Path;

use super::TableAccess;
use super::catalog::{Catalogs, TableMeta};
use super::error::{ErrorName, TrinoError};
use super::sql::{self, PolicyExpression};

use self::rules::{
    CatalogAccess, CatalogRule, SchemaRule, TableRule, catalog_rule, schema_rule,
    system_catalog_rule, table_rule,
};
pub use self::rules_file::{AccessRulesError, InvalidExpression, RuleProblem, RulesProblem};
use self::rules_file::{IGNORED_SECTIONS, RulesFile, parse_section};
pub use self::viewer::Viewer;

const INFORMATION_SCHEMA: &str = "information_schema";

/// The value of `[querymesh] access_control` that names the demo's rules built into the
/// binary (fixtures/querymesh-rules.json) instead of a file.
pub const BUILTIN_DEMO_RULES: &str = "builtin:demo";
const DEMO_RULES: &str = include_str!("../../../../fixtures/querymesh-rules.json");

/// What the first matching rule does to a table's rows and columns: its row filter and its
/// column masks, for the analyser to read the table through.
#[derive(Clone, Debug)]
pub struct TablePolicy<'r> {
    /// The rule's position in `tables`.
    pub rule: usize,
    pub filter: Option<&'r PolicyExpression>,
    /// (column as the rule writes it, mask).
    pub masks: Vec<(&'r str, &'r PolicyExpression)>,
}

impl TablePolicy<'_> {
    /// The filters applied, as the journal names them: the rule, never the expression.
    pub fn filter_names(&self) -> Vec<String> {
        self.filter
            .map(|_| vec![format!("tables[{}]", self.rule)])
            .unwrap_or_default()
    }

    /// The columns of `table` read through a mask, as the table names them.
    pub fn masked_columns(&self, table: &TableMeta) -> Vec<String> {
        table
            .columns
            .iter()
            .filter(|c| {
                self.masks
                    .iter()
                    .any(|(m, _)| m.eq_ignore_ascii_case(&c.name))
            })
            .map(|c| c.name.clone())
            .collect()
    }
}

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
    /// Tells rule sets apart in plan-cache keys ([`Viewer::key`]): one engine can serve
    /// several (tests do), and a plan follows from the rules as much as from the person.
    id: u64,
    catalogs: Option<Vec<CatalogRule>>,
    schemas: Option<Vec<SchemaRule>>,
    tables: Option<Vec<TableRule>>,
    /// The file has `queries` rules, which the stand-in does not evaluate: each person then
    /// sees only their own queries, the least any such rules allow.
    query_rules: bool,
}

fn next_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The text of the rules file at `path`, or the built-in demo's for [`BUILTIN_DEMO_RULES`].
pub fn read_rules(path: &Path) -> std::io::Result<String> {
    if path.as_os_str() == BUILTIN_DEMO_RULES {
        return Ok(DEMO_RULES.to_string());
    }
    std::fs::read_to_string(path)
}

impl AccessControl {
    pub fn allow_all() -> Self {
        Self {
            id: next_id(),
            catalogs: None,
            schemas: None,
            tables: None,
            query_rules: false,
        }
    }

    /// Trino's `filterViewQueryOwnedBy`: without `queries` rules, everyone sees everyone's
    /// queries (FileBasedSystemAccessControl); the stand-in reads no such rules, so with them
    /// a person sees only their own.
    pub fn may_view_queries_of(&self, viewer: &str, owner: &str) -> bool {
        !self.query_rules || viewer == owner
    }

    pub fn load(path: &Path) -> Result<Self, AccessRulesError> {
        let shown = path.display().to_string();
        let text = read_rules(path).map_err(|source| AccessRulesError::Read {
            path: shown.clone(),
            source,
        })?;
        Self::parse(&text).map_err(|problem| AccessRulesError::Invalid {
            path: shown,
            problem,
        })
    }

    /// [`AccessControl::load`], then every row filter and column mask analysed against each
    /// table of `catalogs` its rule names, as a query would apply it.
    pub fn load_for(path: &Path, catalogs: &Catalogs) -> Result<Self, AccessRulesError> {
        let rules = Self::load(path)?;
        rules
            .validate(catalogs)
            .map_err(|problem| AccessRulesError::Invalid {
                path: path.display().to_string(),
                problem,
            })?;
        Ok(rules)
    }

    /// Each filter and each mask, alone, on each table its rule names (information_schema
    /// aside, which the rules never shape). A rule naming no table was only parsed.
    pub fn validate(&self, catalogs: &Catalogs) -> Result<(), RulesProblem> {
        let Some(rules) = &self.tables else {
            return Ok(());
        };
        for rule in rules {
            let Some(policy) = rule.policy() else {
                continue;
            };
            let tables = catalogs
                .all_tables()
                .filter(|t| t.schema != INFORMATION_SCHEMA)
                // A tpch schema not generated yet has no rows to check an expression on.
                .filter(|t| catalogs.unavailable(&t.catalog, &t.schema).is_none())
                .filter(|t| rule.names(&t.catalog, &t.schema, &t.name));
            for table in tables {
                let filter = policy.filter.map(|f| {
                    let only = TablePolicy {
                        filter: Some(f),
                        masks: Vec::new(),
                        ..policy.clone()
                    };
                    ("row filter".to_string(), only)
                });
                let masks = policy.masks.iter().map(|&(column, m)| {
                    let only = TablePolicy {
                        filter: None,
                        masks: vec![(column, m)],
                        ..policy.clone()
                    };
                    (format!("mask of column {column:?}"), only)
                });
                for (what, only) in filter.into_iter().chain(masks) {
                    sql::check_policy(catalogs, table, &only).map_err(|e| RulesProblem::Rule {
                        section: "tables",
                        index: rule.index,
                        problem: RuleProblem::Expression(Box::new(InvalidExpression {
                            pattern: rule.table_pattern.clone(),
                            what,
                            table: Some(table.qualified_name()),
                            message: e.to_string(),
                        })),
                    })?;
                }
            }
        }
        Ok(())
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
        let query_rules = file.other.contains_key("queries");
        let mut catalogs = parse_section("catalogs", file.catalogs, catalog_rule)?;
        // Trino's file-based access control appends a rule giving everyone all access to the
        // `system` catalog after the file's catalog rules (FileBasedSystemAccessControl, "to
        // allow Trino Admin to access the system catalog"), so JDBC's metadata stays readable.
        if let Some(rules) = catalogs.as_mut() {
            let appended = system_catalog_rule().map_err(|problem| RulesProblem::Rule {
                section: "catalogs",
                index: rules.len(),
                problem,
            })?;
            rules.push(appended);
        }
        let schemas = parse_section("schemas", file.schemas, schema_rule)?;
        let mut tables = parse_section("tables", file.tables, table_rule)?;
        for (index, rule) in tables.iter_mut().flatten().enumerate() {
            rule.index = index;
        }
        Ok(Self {
            id: next_id(),
            catalogs,
            schemas,
            tables,
            query_rules,
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
