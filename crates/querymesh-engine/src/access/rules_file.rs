//! The rules file as written: its sections and rules as serde reads them, and what can be wrong
//! with it ([`AccessRulesError`], [`RulesProblem`], [`RuleProblem`]). Turning a rule into what
//! matching needs is `rules`; [`parse_section`] names the failing rule of a section.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde::de::IgnoredAny;

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
    /// A filter or mask that is not one Trino expression, or does not analyse against a
    /// table the rule names.
    #[error("{0}")]
    Expression(Box<InvalidExpression>),
    #[error("unknown privilege {0:?}; expected one of {known}", known = PRIVILEGES.join(", "))]
    Privilege(String),
}

/// A row filter or column mask refused: `what` is `row filter` or `mask of column "c"`, `table`
/// the table it was analysed against (none for a syntax error).
#[derive(Debug, thiserror::Error)]
#[error(
    "`table` {pattern:?}: the {what}{on} is not valid: {message}",
    on = table.as_ref().map(|t| format!(" on {t}")).unwrap_or_default()
)]
pub struct InvalidExpression {
    pub pattern: String,
    pub what: String,
    pub table: Option<String>,
    pub message: String,
}

/// The whole rules file.
#[derive(Deserialize)]
pub(super) struct RulesFile {
    pub(super) catalogs: Option<Vec<CatalogRuleSpec>>,
    pub(super) schemas: Option<Vec<SchemaRuleSpec>>,
    pub(super) tables: Option<Vec<TableRuleSpec>>,
    #[serde(flatten)]
    pub(super) other: BTreeMap<String, IgnoredAny>,
}

/// Sections of Trino's format that govern what the stand-in never does (impersonation aside,
/// which it never grants): accepted and ignored. Any other key is refused, so a typo does not
/// silently allow everything.
pub(super) const IGNORED_SECTIONS: [&str; 9] = [
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
pub(super) struct CatalogRuleSpec {
    pub(super) user: Option<String>,
    pub(super) role: Option<String>,
    pub(super) group: Option<String>,
    pub(super) catalog: Option<String>,
    pub(super) allow: CatalogAllow,
}

#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum CatalogAllow {
    Flag(bool),
    Level(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SchemaRuleSpec {
    pub(super) user: Option<String>,
    pub(super) role: Option<String>,
    pub(super) group: Option<String>,
    pub(super) catalog: Option<String>,
    pub(super) schema: Option<String>,
    pub(super) owner: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TableRuleSpec {
    pub(super) user: Option<String>,
    pub(super) role: Option<String>,
    pub(super) group: Option<String>,
    pub(super) catalog: Option<String>,
    pub(super) schema: Option<String>,
    pub(super) table: Option<String>,
    #[serde(default)]
    pub(super) privileges: Vec<String>,
    #[serde(default)]
    pub(super) columns: Vec<ColumnRuleSpec>,
    pub(super) filter: Option<String>,
    pub(super) filter_environment: Option<EnvironmentSpec>,
}

/// `filter_environment` / `mask_environment`: Trino's `ExpressionEnvironment`, whose only
/// field is the user the expression runs as.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EnvironmentSpec {
    pub(super) user: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ColumnRuleSpec {
    pub(super) name: String,
    #[serde(default = "yes")]
    pub(super) allow: bool,
    pub(super) mask: Option<String>,
    pub(super) mask_environment: Option<EnvironmentSpec>,
}

fn yes() -> bool {
    true
}

/// The privileges Trino's `tables` rules may grant.
pub(super) const PRIVILEGES: [&str; 6] = [
    "SELECT",
    "INSERT",
    "DELETE",
    "UPDATE",
    "OWNERSHIP",
    "GRANT_SELECT",
];

/// Parses each rule of a section, naming the failing one (`tables[2]: …`); `None` (no
/// section) stays `None`, since a missing section means something else than an empty one.
pub(super) fn parse_section<R, T>(
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
