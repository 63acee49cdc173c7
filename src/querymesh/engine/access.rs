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

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use regex::Regex;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use super::TableAccess;
use super::error::{ErrorName, TrinoError};

const INFORMATION_SCHEMA: &str = "information_schema";

/// Who the rules judge: a user name (Trino's principal and session user) and the groups the
/// rules' `group` patterns match. The server says who that is; the rules need nothing more.
#[derive(Clone, Debug)]
pub struct User {
    pub name: String,
    pub groups: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum AccessRulesError {
    #[error("cannot read the access-control rules {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("the access-control rules {path} are not valid: {problem}")]
    Invalid { path: String, problem: RulesProblem },
}

/// What is wrong with a rules file's text.
#[derive(Debug, thiserror::Error)]
pub enum RulesProblem {
    #[error("{0}")]
    Json(#[from] serde_json::Error),
    #[error(
        "unknown section {0:?}; expected catalogs, schemas, tables or one of {sections}",
        sections = IGNORED_SECTIONS.join(", ")
    )]
    UnknownSection(String),
    /// The rule at `index` of `section` (`tables[2]: …`).
    #[error("{section}[{index}]: {problem}")]
    Rule {
        section: &'static str,
        index: usize,
        problem: RuleProblem,
    },
}

/// What is wrong with one rule.
#[derive(Debug, thiserror::Error)]
pub enum RuleProblem {
    #[error("`{field}` {value:?}: {source}")]
    Pattern {
        field: &'static str,
        value: String,
        source: regex::Error,
    },
    #[error("`allow` is {0:?}; expected \"all\", \"read-only\" or \"none\"")]
    CatalogAllow(String),
    #[error("row filters (`filter`) are not supported by the QueryMesh stand-in")]
    RowFilter,
    #[error("column masks (`mask` on column {0:?}) are not supported by the QueryMesh stand-in")]
    ColumnMask(String),
    #[error("unknown privilege {0:?}; expected one of {known}", known = PRIVILEGES.join(", "))]
    Privilege(String),
}

/// The whole rules file.
#[derive(Deserialize)]
struct RulesFile {
    catalogs: Option<Vec<CatalogRuleSpec>>,
    schemas: Option<Vec<SchemaRuleSpec>>,
    tables: Option<Vec<TableRuleSpec>>,
    #[serde(flatten)]
    other: BTreeMap<String, IgnoredAny>,
}

/// Sections of Trino's format that govern what the stand-in never does (impersonation aside,
/// which it never grants): accepted and ignored. Any other key is refused, so a typo does not
/// silently allow everything.
const IGNORED_SECTIONS: [&str; 9] = [
    "queries",
    "impersonation",
    "principals",
    "system_information",
    "system_session_properties",
    "catalog_session_properties",
    "functions",
    "procedures",
    "authorization",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogRuleSpec {
    user: Option<String>,
    role: Option<String>,
    group: Option<String>,
    catalog: Option<String>,
    allow: CatalogAllow,
}

/// `allow` of a catalog rule: `"all"`, `"read-only"`, `"none"`, or the older booleans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum CatalogAccess {
    None,
    ReadOnly,
    All,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum CatalogAllow {
    Flag(bool),
    Level(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SchemaRuleSpec {
    user: Option<String>,
    role: Option<String>,
    group: Option<String>,
    catalog: Option<String>,
    schema: Option<String>,
    owner: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableRuleSpec {
    user: Option<String>,
    role: Option<String>,
    group: Option<String>,
    catalog: Option<String>,
    schema: Option<String>,
    table: Option<String>,
    #[serde(default)]
    privileges: Vec<String>,
    #[serde(default)]
    columns: Vec<ColumnRuleSpec>,
    filter: Option<String>,
    filter_environment: Option<Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColumnRuleSpec {
    name: String,
    #[serde(default = "yes")]
    allow: bool,
    mask: Option<String>,
    mask_environment: Option<Value>,
}

fn yes() -> bool {
    true
}

/// Who a rule applies to.
struct Subject {
    user: Regex,
    group: Option<Regex>,
    /// A rule for a role never matches: the sandbox's people have no Trino roles.
    role: bool,
}

impl Subject {
    fn matches(&self, principal: &User) -> bool {
        if self.role || !self.user.is_match(&principal.name) {
            return false;
        }
        match &self.group {
            None => true,
            // Keycloak's group mapper may write full paths (`/analysts`); match either form.
            Some(group) => principal
                .groups
                .iter()
                .any(|g| group.is_match(g) || group.is_match(g.trim_start_matches('/'))),
        }
    }
}

struct CatalogRule {
    subject: Subject,
    catalog: Regex,
    access: CatalogAccess,
}

struct SchemaRule {
    subject: Subject,
    catalog: Regex,
    schema: Regex,
    owner: bool,
}

struct TableRule {
    subject: Subject,
    catalog: Regex,
    schema: Regex,
    table: Regex,
    select: bool,
    /// Any privilege at all: enough to see the table (Trino's `checkAnyTablePermission`).
    any_privilege: bool,
    /// A privilege beyond SELECT and GRANT_SELECT: every column is shown, even denied ones.
    beyond_select: bool,
    denied_columns: Vec<String>,
}

impl TableRule {
    fn matches(&self, principal: &User, catalog: &str, schema: &str, table: &str) -> bool {
        self.subject.matches(principal)
            && self.catalog.is_match(catalog)
            && self.schema.is_match(schema)
            && self.table.is_match(table)
    }
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

/// What one person may see while exploring: SHOW, DESCRIBE and `information_schema` list
/// only this, as Trino's file-based system access control filters them.
#[derive(Clone)]
pub struct Viewer {
    rules: Arc<AccessControl>,
    principal: User,
}

impl std::fmt::Debug for Viewer {
    // Who is looking stays out of logs and debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Viewer(..)")
    }
}

impl Viewer {
    /// `None` when no rules are configured: everyone sees everything.
    pub fn of(rules: &Arc<AccessControl>, principal: &User) -> Option<Self> {
        let unrestricted =
            rules.catalogs.is_none() && rules.schemas.is_none() && rules.tables.is_none();
        (!unrestricted).then(|| Self {
            rules: rules.clone(),
            principal: principal.clone(),
        })
    }

    /// Tells viewers apart for caches: what they see depends on their name and groups only.
    pub fn key(&self) -> String {
        let mut groups = self.principal.groups.clone();
        groups.sort();
        format!("{}\n{}", self.principal.name, groups.join("\n"))
    }

    fn catalog_access(&self, catalog: &str) -> CatalogAccess {
        self.rules.catalog_access(&self.principal, catalog)
    }

    /// `filterCatalogs` (and `checkCanShowSchemas`): read-only access or better. Trino also
    /// wants some rule granting anything in the catalog, which its default for the
    /// `catalog_session_properties` section (ignored here) always supplies.
    pub fn sees_catalog(&self, catalog: &str) -> bool {
        self.catalog_access(catalog) >= CatalogAccess::ReadOnly
    }

    /// `filterSchemas` (and `checkCanShowTables`): the catalog readable and some schema rule
    /// making the person an owner, or some table rule granting any privilege, in the schema.
    pub fn sees_schema(&self, catalog: &str, schema: &str) -> bool {
        if !self.sees_catalog(catalog) {
            return false;
        }
        if schema == INFORMATION_SCHEMA {
            return true;
        }
        let p = &self.principal;
        let owner_somewhere = self.rules.schemas.as_ref().is_none_or(|rules| {
            rules.iter().any(|r| {
                r.owner
                    && r.subject.matches(p)
                    && r.catalog.is_match(catalog)
                    && r.schema.is_match(schema)
            })
        });
        let granted_somewhere = self.rules.tables.as_ref().is_none_or(|rules| {
            rules.iter().any(|r| {
                r.any_privilege
                    && r.subject.matches(p)
                    && r.catalog.is_match(catalog)
                    && r.schema.is_match(schema)
            })
        });
        owner_somewhere || granted_somewhere
    }

    /// Trino's `isSchemaOwner`: catalog access `all` and the first matching schema rule.
    fn owns_schema(&self, catalog: &str, schema: &str) -> bool {
        if self.catalog_access(catalog) < CatalogAccess::All {
            return false;
        }
        match &self.rules.schemas {
            None => true,
            Some(rules) => rules
                .iter()
                .find(|r| {
                    r.subject.matches(&self.principal)
                        && r.catalog.is_match(catalog)
                        && r.schema.is_match(schema)
                })
                .is_some_and(|r| r.owner),
        }
    }

    /// The first table rule matching, or `Ok(None)` when there are no table rules (all
    /// privileges); `Err(())` when none matches (no privilege).
    fn table_rule(
        &self,
        catalog: &str,
        schema: &str,
        table: &str,
    ) -> Result<Option<&TableRule>, ()> {
        match &self.rules.tables {
            None => Ok(None),
            Some(rules) => rules
                .iter()
                .find(|r| r.matches(&self.principal, catalog, schema, table))
                .map(Some)
                .ok_or(()),
        }
    }

    /// `checkCanShowColumns` (SHOW COLUMNS, DESCRIBE): any privilege on the table.
    pub fn may_show_columns(&self, catalog: &str, schema: &str, table: &str) -> bool {
        self.any_table_privilege(catalog, schema, table)
    }

    /// Trino's `checkAnyTablePermission`: catalog readable and any privilege on the table.
    fn any_table_privilege(&self, catalog: &str, schema: &str, table: &str) -> bool {
        if !self.sees_catalog(catalog) {
            return false;
        }
        if schema == INFORMATION_SCHEMA {
            return true;
        }
        match self.table_rule(catalog, schema, table) {
            Ok(None) => true,
            Ok(Some(rule)) => rule.any_privilege,
            Err(()) => false,
        }
    }

    /// `filterTables` (and `checkCanShowColumns`): the schema's owner, or any privilege on it.
    pub fn sees_table(&self, catalog: &str, schema: &str, table: &str) -> bool {
        self.owns_schema(catalog, schema) || self.any_table_privilege(catalog, schema, table)
    }

    /// `filterColumns`: none without any privilege on the table; all with a privilege beyond
    /// SELECT; otherwise all but the columns with `allow: false`.
    pub fn sees_column(&self, catalog: &str, schema: &str, table: &str, column: &str) -> bool {
        if !self.any_table_privilege(catalog, schema, table) {
            return false;
        }
        if schema == INFORMATION_SCHEMA {
            return true;
        }
        match self.table_rule(catalog, schema, table) {
            Ok(None) => true,
            Ok(Some(rule)) => {
                rule.beyond_select
                    || !rule
                        .denied_columns
                        .iter()
                        .any(|d| d.eq_ignore_ascii_case(column))
            }
            Err(()) => false,
        }
    }
}

fn pattern(field: &'static str, value: Option<&str>) -> Result<Regex, RuleProblem> {
    let value = value.unwrap_or(".*");
    Regex::new(&format!("^(?:{value})$")).map_err(|source| RuleProblem::Pattern {
        field,
        value: value.to_string(),
        source,
    })
}

fn subject(
    user: Option<&str>,
    group: Option<&str>,
    role: Option<&str>,
) -> Result<Subject, RuleProblem> {
    Ok(Subject {
        user: pattern("user", user)?,
        group: group.map(|g| pattern("group", Some(g))).transpose()?,
        role: role.is_some(),
    })
}

fn catalog_rule(spec: CatalogRuleSpec) -> Result<CatalogRule, RuleProblem> {
    let access = match spec.allow {
        CatalogAllow::Flag(true) => CatalogAccess::All,
        CatalogAllow::Flag(false) => CatalogAccess::None,
        CatalogAllow::Level(level) => match level.as_str() {
            "all" => CatalogAccess::All,
            "read-only" => CatalogAccess::ReadOnly,
            "none" => CatalogAccess::None,
            other => {
                return Err(RuleProblem::CatalogAllow(other.to_string()));
            }
        },
    };
    Ok(CatalogRule {
        subject: subject(
            spec.user.as_deref(),
            spec.group.as_deref(),
            spec.role.as_deref(),
        )?,
        catalog: pattern("catalog", spec.catalog.as_deref())?,
        access,
    })
}

fn schema_rule(spec: SchemaRuleSpec) -> Result<SchemaRule, RuleProblem> {
    Ok(SchemaRule {
        subject: subject(
            spec.user.as_deref(),
            spec.group.as_deref(),
            spec.role.as_deref(),
        )?,
        catalog: pattern("catalog", spec.catalog.as_deref())?,
        schema: pattern("schema", spec.schema.as_deref())?,
        owner: spec.owner,
    })
}

const PRIVILEGES: [&str; 6] = [
    "SELECT",
    "INSERT",
    "DELETE",
    "UPDATE",
    "OWNERSHIP",
    "GRANT_SELECT",
];

fn table_rule(spec: TableRuleSpec) -> Result<TableRule, RuleProblem> {
    if spec.filter.is_some() || spec.filter_environment.is_some() {
        return Err(RuleProblem::RowFilter);
    }
    if let Some(c) = spec
        .columns
        .iter()
        .find(|c| c.mask.is_some() || c.mask_environment.is_some())
    {
        return Err(RuleProblem::ColumnMask(c.name.clone()));
    }
    if let Some(p) = spec
        .privileges
        .iter()
        .find(|p| !PRIVILEGES.contains(&p.as_str()))
    {
        return Err(RuleProblem::Privilege(p.clone()));
    }
    Ok(TableRule {
        subject: subject(
            spec.user.as_deref(),
            spec.group.as_deref(),
            spec.role.as_deref(),
        )?,
        catalog: pattern("catalog", spec.catalog.as_deref())?,
        schema: pattern("schema", spec.schema.as_deref())?,
        table: pattern("table", spec.table.as_deref())?,
        select: spec
            .privileges
            .iter()
            .any(|p| p == "SELECT" || p == "GRANT_SELECT"),
        any_privilege: !spec.privileges.is_empty(),
        beyond_select: spec
            .privileges
            .iter()
            .any(|p| p != "SELECT" && p != "GRANT_SELECT"),
        denied_columns: spec
            .columns
            .into_iter()
            .filter(|c| !c.allow)
            .map(|c| c.name)
            .collect(),
    })
}

/// Parses each rule of a section, naming the failing one (`tables[2]: …`); `None` (no
/// section) stays `None`, since a missing section means something else than an empty one.
fn parse_section<R, T>(
    section: &'static str,
    rules: Option<Vec<R>>,
    parse: fn(R) -> Result<T, RuleProblem>,
) -> Result<Option<Vec<T>>, RulesProblem> {
    rules
        .map(|rules| {
            rules
                .into_iter()
                .enumerate()
                .map(|(index, r)| {
                    parse(r).map_err(|problem| RulesProblem::Rule {
                        section,
                        index,
                        problem,
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(name: &str, groups: &[&str]) -> User {
        User {
            name: name.into(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
        }
    }

    fn read(table: &str, columns: &[&str]) -> TableAccess {
        TableAccess {
            catalog: "tpch".into(),
            schema: "tiny".into(),
            table: table.into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
        }
    }

    const RULES: &str = r#"{
        "catalogs": [
            {"group": "contractors", "allow": "none"},
            {"catalog": "tpch", "allow": "read-only"}
        ],
        "tables": [
            {"user": "alan", "table": "nation", "privileges": []},
            {"group": "analysts", "table": "customer", "privileges": ["SELECT"],
             "columns": [{"name": "phone", "allow": false}]},
            {"group": "analysts", "privileges": ["SELECT"]},
            {"table": "region", "privileges": ["SELECT"]}
        ]
    }"#;

    #[test]
    fn first_matching_rule_decides() {
        let ac = AccessControl::parse(RULES).unwrap();
        let ada = person("ada", &["analysts"]);
        assert!(ac.check_select(&ada, &[read("nation", &["name"])]).is_ok());
        let alan = person("alan", &["analysts"]);
        let e = ac
            .check_select(&alan, &[read("nation", &["name"])])
            .unwrap_err();
        assert_eq!(e.name, ErrorName::PermissionDenied);
        assert_eq!(
            e.message(),
            "Access Denied: Cannot select from table tpch.tiny.nation"
        );
    }

    #[test]
    fn no_matching_rule_denies_and_denied_columns_deny() {
        let ac = AccessControl::parse(RULES).unwrap();
        let grace = person("grace", &["engineering"]);
        assert!(ac.check_select(&grace, &[read("region", &[])]).is_ok());
        assert!(ac.check_select(&grace, &[read("nation", &[])]).is_err());
        let ada = person("ada", &["/analysts"]);
        assert!(
            ac.check_select(&ada, &[read("customer", &["name"])])
                .is_ok()
        );
        assert!(
            ac.check_select(&ada, &[read("customer", &["name", "phone"])])
                .is_err()
        );
    }

    #[test]
    fn catalog_none_denies_and_information_schema_is_exempt_from_table_rules() {
        let ac = AccessControl::parse(RULES).unwrap();
        let eve = person("eve", &["contractors", "analysts"]);
        assert!(ac.check_select(&eve, &[read("nation", &[])]).is_err());
        let mut info = read("tables", &[]);
        info.schema = INFORMATION_SCHEMA.into();
        // Trino checks the catalog before the information_schema exemption.
        assert!(ac.check_select(&eve, &[info.clone()]).is_err());
        let alan = person("alan", &[]);
        assert!(ac.check_select(&alan, &[read("nation", &[])]).is_err());
        assert!(ac.check_select(&alan, &[info]).is_ok());
    }

    fn viewer(rules: &str, who: &User) -> Viewer {
        Viewer::of(&Arc::new(AccessControl::parse(rules).unwrap()), who).unwrap()
    }

    #[test]
    fn viewers_see_what_trinos_filters_let_through() {
        let ada = viewer(RULES, &person("ada", &["analysts"]));
        assert!(ada.sees_catalog("tpch"));
        assert!(ada.sees_schema("tpch", "tiny"));
        assert!(ada.sees_table("tpch", "tiny", "nation"));
        assert!(ada.sees_column("tpch", "tiny", "customer", "name"));
        assert!(!ada.sees_column("tpch", "tiny", "customer", "phone"));
        // Alan's nation rule grants nothing: nation is hidden, region is not.
        let alan = viewer(RULES, &person("alan", &[]));
        assert!(!alan.sees_table("tpch", "tiny", "nation"));
        assert!(!alan.may_show_columns("tpch", "tiny", "nation"));
        assert!(alan.sees_table("tpch", "tiny", "region"));
        assert!(alan.sees_table("tpch", "information_schema", "tables"));
        let eve = viewer(RULES, &person("eve", &["contractors"]));
        assert!(!eve.sees_catalog("tpch"));
        assert!(!eve.sees_schema("tpch", "information_schema"));
        // No rule reaches the catalog "other": catalog access none.
        assert!(!ada.sees_catalog("other"));
    }

    #[test]
    fn schema_owners_see_every_table_and_other_privileges_every_column() {
        let rules = r#"{
            "schemas": [{"user": "olga", "schema": "tiny", "owner": true}],
            "tables": [
                {"user": "olga", "table": "region", "privileges": []},
                {"user": "dan", "table": "customer", "privileges": ["SELECT", "DELETE"],
                 "columns": [{"name": "phone", "allow": false}]},
                {"user": "dan", "table": "orders", "privileges": ["SELECT"]}
            ]
        }"#;
        let olga = viewer(rules, &person("olga", &[]));
        assert!(olga.sees_schema("tpch", "tiny"));
        assert!(olga.sees_table("tpch", "tiny", "region"));
        assert!(!olga.sees_column("tpch", "tiny", "region", "name"));
        let dan = viewer(rules, &person("dan", &[]));
        assert!(dan.sees_column("tpch", "tiny", "customer", "phone"));
        assert!(dan.sees_schema("tpch", "tiny"));
        // Neither owner nor granted anything: the schema is hidden, information_schema not.
        let zed = viewer(rules, &person("zed", &[]));
        assert!(!zed.sees_schema("tpch", "tiny"));
        assert!(zed.sees_schema("tpch", "information_schema"));
        assert!(!dan.sees_table("tpch", "tiny", "nation"));
        assert!(Viewer::of(&Arc::new(AccessControl::allow_all()), &person("x", &[])).is_none());
    }

    #[test]
    fn missing_sections_allow_and_patterns_are_anchored() {
        let ac =
            AccessControl::parse(r#"{"tables": [{"table": "nat", "privileges": ["SELECT"]}]}"#)
                .unwrap();
        let p = person("x", &[]);
        assert!(ac.check_select(&p, &[read("nation", &[])]).is_err());
        assert!(
            AccessControl::parse("{}")
                .unwrap()
                .check_select(&p, &[read("nation", &[])])
                .is_ok()
        );
    }

    #[test]
    fn filters_masks_and_typos_are_refused() {
        for bad in [
            r#"{"tables": [{"filter": "true", "privileges": ["SELECT"]}]}"#,
            r#"{"tables": [{"columns": [{"name": "a", "mask": "'x'"}]}]}"#,
            r#"{"tables": [{"privileges": ["SELEKT"]}]}"#,
            r#"{"catalogs": [{"allow": "maybe"}]}"#,
            r#"{"tabels": []}"#,
            r#"{"tables": [{"table": "(", "privileges": []}]}"#,
        ] {
            assert!(AccessControl::parse(bad).is_err(), "{bad}");
        }
    }
}
