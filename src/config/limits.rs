//! The broker's per-person limits as written: a default allowance per dimension and rules
//! covering people by sub, username or group (`[[broker.limits]]`, and the control API's
//! `PUT /sandbox/v1/limits`), checked the same way wherever they come from.

use serde::{Deserialize, Serialize};

/// The dimensions, by the names configuration, API and journal give them.
pub const QUERIES_PER_MINUTE: &str = "queries_per_minute";
pub const CONCURRENT_QUERIES: &str = "concurrent_queries";

/// The most a rule or the default may allow in one dimension (anything larger is a typo).
pub const MAX_ALLOWANCE: u32 = 1_000_000;
/// The most rules at once: each query checks them all.
pub const MAX_RULES: usize = 1_000;

/// One rule: whom it covers (anyone named by sub, username or group) and its allowance per
/// dimension. A dimension left out is not covered by the rule; 0 is unlimited (NYXDB).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitRule {
    /// Named in refusals and the journal (`rule`).
    pub name: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subs: Vec<String>,
    /// `preferred_username`s, compared without case.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub usernames: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queries_per_minute: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrent_queries: Option<u32>,
}

/// The allowances of a person no rule covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DefaultAllowances {
    /// At least 1: the floor that keeps one person from taking every place.
    pub concurrent_queries: u32,
    /// 0: unlimited.
    pub queries_per_minute: u32,
}

/// Checks rules against the default; `at` prefixes each error (a config key or an API field).
pub fn validate(default: &DefaultAllowances, rules: &[LimitRule], at: &str) -> Result<(), String> {
    if default.concurrent_queries == 0 {
        return Err(format!(
            "{at}: the default `concurrent_queries` must be at least 1 (a rule may say 0 for \
             unlimited)"
        ));
    }
    for (key, value) in [
        (CONCURRENT_QUERIES, default.concurrent_queries),
        (QUERIES_PER_MINUTE, default.queries_per_minute),
    ] {
        if value > MAX_ALLOWANCE {
            return Err(format!(
                "{at}: the default `{key}` must be at most {MAX_ALLOWANCE}, not {value}"
            ));
        }
    }
    if rules.len() > MAX_RULES {
        return Err(format!(
            "{at}: at most {MAX_RULES} rules, not {}",
            rules.len()
        ));
    }
    for (i, rule) in rules.iter().enumerate() {
        let here = format!("{at}[{i}]");
        if rule.name.trim().is_empty() || rule.name == "default" {
            return Err(format!(
                "{here}: `name` must be given and not \"default\" (that is the default's)"
            ));
        }
        if rules[..i].iter().any(|r| r.name == rule.name) {
            return Err(format!(
                "{here}: duplicate rule name {:?}: names tell refusals apart",
                rule.name
            ));
        }
        if rule.subs.is_empty() && rule.usernames.is_empty() && rule.groups.is_empty() {
            return Err(format!(
                "{here} ({}): covers nobody: give `subs`, `usernames` or `groups`",
                rule.name
            ));
        }
        if rule.queries_per_minute.is_none() && rule.concurrent_queries.is_none() {
            return Err(format!(
                "{here} ({}): allows nothing: give `{QUERIES_PER_MINUTE}` or \
                 `{CONCURRENT_QUERIES}` (0 is unlimited)",
                rule.name
            ));
        }
        for (key, value) in [
            (QUERIES_PER_MINUTE, rule.queries_per_minute),
            (CONCURRENT_QUERIES, rule.concurrent_queries),
        ] {
            if let Some(v) = value
                && v > MAX_ALLOWANCE
            {
                return Err(format!(
                    "{here} ({}): `{key}` must be at most {MAX_ALLOWANCE}, not {v}",
                    rule.name
                ));
            }
        }
    }
    Ok(())
}
