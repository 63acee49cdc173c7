//! The rules compiled for matching: each pattern an anchored [`Regex`], each rule's privileges
//! reduced to what the checks ask ([`TableRule`]), and who a rule applies to ([`Subject`]).

use regex::Regex;

use super::rules_file::{
    CatalogAllow, CatalogRuleSpec, EnvironmentSpec, InvalidExpression, PRIVILEGES, RuleProblem,
    SchemaRuleSpec, TableRuleSpec,
};
use super::{TablePolicy, User};
use crate::sql::PolicyExpression;

/// `allow` of a catalog rule: `"all"`, `"read-only"`, `"none"`, or the older booleans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum CatalogAccess {
    None,
    ReadOnly,
    All,
}

/// Who a rule applies to.
pub(super) struct Subject {
    user: Regex,
    group: Option<Regex>,
    /// A rule for a role never matches: the sandbox's people have no Trino roles.
    role: bool,
}

impl Subject {
    pub(super) fn matches(&self, principal: &User) -> bool {
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

pub(super) struct CatalogRule {
    pub(super) subject: Subject,
    pub(super) catalog: Regex,
    pub(super) access: CatalogAccess,
}

/// Who a rule is for and the schemas it names: what schema and table rules share.
pub(super) struct SchemaScope {
    subject: Subject,
    catalog: Regex,
    schema: Regex,
}

impl SchemaScope {
    /// The rule is for `principal` and names `catalog`.`schema`.
    pub(super) fn applies_to(&self, principal: &User, catalog: &str, schema: &str) -> bool {
        self.subject.matches(principal)
            && self.catalog.is_match(catalog)
            && self.schema.is_match(schema)
    }
}

pub(super) struct SchemaRule {
    pub(super) scope: SchemaScope,
    pub(super) owner: bool,
}

pub(super) struct TableRule {
    pub(super) scope: SchemaScope,
    table: Regex,
    pub(super) select: bool,
    /// Any privilege at all: enough to see the table (Trino's `checkAnyTablePermission`).
    pub(super) any_privilege: bool,
    /// A privilege beyond SELECT and GRANT_SELECT: every column is shown, even denied ones.
    pub(super) beyond_select: bool,
    /// OWNERSHIP: SHOW CREATE TABLE, among others.
    pub(super) ownership: bool,
    pub(super) denied_columns: Vec<String>,
    /// Its position in the `tables` section, which names it in errors and in the journal.
    pub(super) index: usize,
    /// `table` as written, for errors.
    pub(super) table_pattern: String,
    pub(super) filter: Option<PolicyExpression>,
    /// (column as written, mask); Trino matches the column name ignoring case.
    pub(super) masks: Vec<(String, PolicyExpression)>,
}

impl TableRule {
    /// The rule names `catalog`.`schema`.`table`, whoever asks.
    pub(super) fn names(&self, catalog: &str, schema: &str, table: &str) -> bool {
        self.scope.catalog.is_match(catalog)
            && self.scope.schema.is_match(schema)
            && self.table.is_match(table)
    }

    /// What the rule does to the rows and columns of a table it applies to, if anything.
    pub(super) fn policy(&self) -> Option<TablePolicy<'_>> {
        (self.filter.is_some() || !self.masks.is_empty()).then(|| TablePolicy {
            rule: self.index,
            filter: self.filter.as_ref(),
            masks: self.masks.iter().map(|(c, m)| (c.as_str(), m)).collect(),
        })
    }

    pub(super) fn matches(
        &self,
        principal: &User,
        catalog: &str,
        schema: &str,
        table: &str,
    ) -> bool {
        self.scope.applies_to(principal, catalog, schema) && self.table.is_match(table)
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

/// Who a rule applies to and the catalogs it names, which every section's rules have.
fn subject_and_catalog(
    user: Option<&str>,
    group: Option<&str>,
    role: Option<&str>,
    catalog: Option<&str>,
) -> Result<(Subject, Regex), RuleProblem> {
    let subject = Subject {
        user: pattern("user", user)?,
        group: group.map(|g| pattern("group", Some(g))).transpose()?,
        role: role.is_some(),
    };
    Ok((subject, pattern("catalog", catalog)?))
}

pub(super) fn catalog_rule(spec: CatalogRuleSpec) -> Result<CatalogRule, RuleProblem> {
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
    let (subject, catalog) = subject_and_catalog(
        spec.user.as_deref(),
        spec.group.as_deref(),
        spec.role.as_deref(),
        spec.catalog.as_deref(),
    )?;
    Ok(CatalogRule {
        subject,
        catalog,
        access,
    })
}

/// Everyone, all access, catalog `system`: what Trino appends to a file's catalog rules.
pub(super) fn system_catalog_rule() -> Result<CatalogRule, RuleProblem> {
    catalog_rule(CatalogRuleSpec {
        user: None,
        role: None,
        group: None,
        catalog: Some("system".into()),
        allow: CatalogAllow::Flag(true),
    })
}

pub(super) fn schema_rule(spec: SchemaRuleSpec) -> Result<SchemaRule, RuleProblem> {
    let (subject, catalog) = subject_and_catalog(
        spec.user.as_deref(),
        spec.group.as_deref(),
        spec.role.as_deref(),
        spec.catalog.as_deref(),
    )?;
    Ok(SchemaRule {
        scope: SchemaScope {
            subject,
            catalog,
            schema: pattern("schema", spec.schema.as_deref())?,
        },
        owner: spec.owner,
    })
}

pub(super) fn table_rule(spec: TableRuleSpec) -> Result<TableRule, RuleProblem> {
    let table_pattern = spec.table.clone().unwrap_or_else(|| ".*".into());
    let expression = |what: String, text: &str, env: Option<EnvironmentSpec>| {
        PolicyExpression::parse(text, env.and_then(|e| e.user)).map_err(|e| {
            RuleProblem::Expression(Box::new(InvalidExpression {
                pattern: table_pattern.clone(),
                what,
                table: None,
                message: e.to_string(),
            }))
        })
    };
    let filter = spec
        .filter
        .as_deref()
        .map(|f| expression("row filter".into(), f, spec.filter_environment))
        .transpose()?;
    let mut masks = Vec::new();
    for c in &spec.columns {
        if let Some(mask) = &c.mask {
            let env = c.mask_environment.as_ref().map(|e| EnvironmentSpec {
                user: e.user.clone(),
            });
            let what = format!("mask of column {:?}", c.name);
            masks.push((c.name.clone(), expression(what, mask, env)?));
        }
    }
    if let Some(p) = spec
        .privileges
        .iter()
        .find(|p| !PRIVILEGES.contains(&p.as_str()))
    {
        return Err(RuleProblem::Privilege(p.clone()));
    }
    let (subject, catalog) = subject_and_catalog(
        spec.user.as_deref(),
        spec.group.as_deref(),
        spec.role.as_deref(),
        spec.catalog.as_deref(),
    )?;
    Ok(TableRule {
        scope: SchemaScope {
            subject,
            catalog,
            schema: pattern("schema", spec.schema.as_deref())?,
        },
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
        ownership: spec.privileges.iter().any(|p| p == "OWNERSHIP"),
        denied_columns: spec
            .columns
            .into_iter()
            .filter(|c| !c.allow)
            .map(|c| c.name)
            .collect(),
        index: 0,
        table_pattern,
        filter,
        masks,
    })
}
