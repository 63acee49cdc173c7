//! Trino's file-based resource-group configuration (`resource-groups.config-file`), read and
//! checked as Trino's `FileResourceGroupConfigurationManager` reads it: `rootGroups` (each
//! group's limits and `subGroups`, names templated with `${USER}`, `${SOURCE}` and the named
//! groups of the selectors' regexes), `selectors` (first match wins) and the global
//! `cpuQuotaPeriod` / `physicalDataScanQuotaPeriod`.
//!
//! What the stand-in enforces: `hardConcurrencyLimit`, `maxQueued`, `schedulingPolicy`,
//! `schedulingWeight` and `softConcurrencyLimit` (in `weighted` scheduling, as Trino's
//! `computeSchedulingWeight` uses it). Memory, CPU and data-scan limits are accepted and checked
//! for form (the engine bounds memory per query and in all by its own `[querymesh]` keys), as
//! Trino would read them, but they do not queue queries here.
//!
//! Without a file, the stand-in runs [`ResourceGroups::per_person`]: root `global` with one
//! `${USER}` sub-group per person, the one selector placing every query there.
//!
//! # Layout
//!
//! - this file: the groups and selectors in force, and where a query goes ([`ResourceGroups::select`]).
//! - `file`: the file as written, checked into them (every problem named).
//! - `template`: group names with `${VARIABLE}`s.
//! - `query_type`: the statement types `queryType` matches.

mod file;
mod query_type;
mod template;

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::path::Path;

use regex::Regex;

pub use self::query_type::query_type;
use self::template::Template;

/// A file that cannot be used, naming the problem; the stand-in refuses to start with it.
#[derive(Debug, thiserror::Error)]
#[error("resource groups {origin}: {message}")]
pub struct ResourceGroupsError {
    origin: String,
    message: String,
}

/// How a group hands its free places to its sub-groups (Trino's `SchedulingPolicy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Sub-groups take turns, in the order they first had queries waiting.
    Fair,
    /// Sub-groups below their `softConcurrencyLimit` first, then in proportion to
    /// `schedulingWeight` (Trino picks stochastically; the stand-in deterministically, by
    /// smooth weighted round robin, so tests are repeatable).
    Weighted,
    /// The sub-group running least relative to its weight's share goes next.
    WeightedFair,
    /// By query priority; the stand-in has no `query_priority` property, so first in, first out.
    QueryPriority,
}

/// One group's limits, once its name is expanded.
#[derive(Clone, Debug)]
pub struct GroupLimits {
    pub hard_concurrency: usize,
    pub soft_concurrency: usize,
    pub max_queued: usize,
    pub policy: Policy,
    pub weight: u64,
}

/// A group of the file: its name (maybe a template) and limits, and its sub-groups.
#[derive(Clone, Debug)]
struct GroupSpec {
    name: Template,
    limits: GroupLimits,
    sub_groups: Vec<GroupSpec>,
}

/// One selector: every rule given must match (a logical AND).
#[derive(Clone, Debug)]
struct Selector {
    user: Option<Regex>,
    user_group: Option<Regex>,
    original_user: Option<Regex>,
    authenticated_user: Option<Regex>,
    source: Option<Regex>,
    query_type: Option<String>,
    client_tags: Vec<String>,
    /// A `selectorResourceEstimate`: Trino matches it against the client's
    /// `X-Trino-Resource-Estimate`, which the stand-in does not read, so it never matches.
    needs_estimate: bool,
    group: Vec<Template>,
}

/// What a query is placed by (Trino's `SelectionCriteria`).
#[derive(Clone, Debug, Default)]
pub struct Criteria {
    /// The session user.
    pub user: String,
    /// The user's groups.
    pub groups: Vec<String>,
    /// `X-Trino-Source`.
    pub source: Option<String>,
    /// `X-Trino-Client-Tags`.
    pub client_tags: Vec<String>,
    /// The statement's query type (see [`query_type`]).
    pub query_type: &'static str,
}

#[cfg(test)]
impl Criteria {
    /// A SELECT by `user`, with nothing else said.
    pub fn user(user: &str) -> Self {
        Self {
            user: user.to_string(),
            query_type: "SELECT",
            ..Self::default()
        }
    }
}

/// Where a query goes: its group's id (the expanded names from the root) and each level's
/// limits, root first.
#[derive(Clone, Debug)]
pub struct Placement {
    pub id: Vec<String>,
    pub limits: Vec<GroupLimits>,
}

/// The resource groups of one stand-in, as configured.
#[derive(Clone, Debug)]
pub struct ResourceGroups {
    roots: Vec<GroupSpec>,
    selectors: Vec<Selector>,
}

/// The group id as Trino writes it: the names joined with dots.
pub fn display_id(id: &[String]) -> String {
    id.join(".")
}

impl ResourceGroups {
    /// Reads the file at `path`.
    pub fn load(path: &Path) -> Result<Self, ResourceGroupsError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ResourceGroupsError {
            origin: origin.clone(),
            message: format!("cannot be read: {e}"),
        })?;
        Self::parse(&text, &origin)
    }

    /// Reads a file's text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self, ResourceGroupsError> {
        let error = |message: String| ResourceGroupsError {
            origin: origin.to_string(),
            message,
        };
        Self::from_json(text).map_err(error)
    }

    /// The default: Trino's per-user groups as the stand-in ran before any file, root `global`
    /// with `running`/`queued` for everyone together and one `${USER}` group per person.
    pub fn per_person(
        running: usize,
        queued: usize,
        running_per_person: usize,
        queued_per_person: usize,
    ) -> Self {
        let limits = |hard, max_queued| GroupLimits {
            hard_concurrency: hard,
            soft_concurrency: hard,
            max_queued,
            policy: Policy::Fair,
            weight: 1,
        };
        let user = GroupSpec {
            name: Template::parse("${USER}"),
            limits: limits(running_per_person, queued_per_person),
            sub_groups: Vec::new(),
        };
        let global = GroupSpec {
            name: Template::parse("global"),
            limits: limits(running, queued),
            sub_groups: vec![user],
        };
        Self {
            roots: vec![global],
            selectors: vec![Selector {
                user: None,
                user_group: None,
                original_user: None,
                authenticated_user: None,
                source: None,
                query_type: None,
                client_tags: Vec::new(),
                needs_estimate: false,
                group: vec![Template::parse("global"), Template::parse("${USER}")],
            }],
        }
    }

    /// The group of the first selector that matches, or `None` (Trino's QUERY_REJECTED).
    pub fn select(&self, criteria: &Criteria) -> Option<Placement> {
        let selector = self.selectors.iter().find(|s| s.matches(criteria))?;
        let mut variables = HashMap::new();
        // Named groups of the regexes become variables (Trino's `PatternMatcher`).
        for (regex, value) in [
            (&selector.user, Some(criteria.user.as_str())),
            (&selector.original_user, Some(criteria.user.as_str())),
            (&selector.authenticated_user, Some(criteria.user.as_str())),
            (&selector.source, criteria.source.as_deref()),
        ] {
            if let (Some(regex), Some(value)) = (regex, value)
                && let Some(captures) = regex.captures(value)
            {
                for name in regex.capture_names().flatten() {
                    if let Some(m) = captures.name(name) {
                        variables.insert(name.to_string(), m.as_str().to_string());
                    }
                }
            }
        }
        variables
            .entry("USER".into())
            .or_insert_with(|| criteria.user.clone());
        variables
            .entry("SOURCE".into())
            .or_insert_with(|| criteria.source.clone().unwrap_or_default());
        let mut id = Vec::new();
        let mut limits = Vec::new();
        let mut level = &self.roots;
        for segment in &selector.group {
            // Checked at start: every segment names a group.
            let spec = level.iter().find(|g| g.name == *segment)?;
            id.push(segment.expand(&variables));
            limits.push(spec.limits.clone());
            level = &spec.sub_groups;
        }
        Some(Placement { id, limits })
    }
}

impl Selector {
    fn matches(&self, c: &Criteria) -> bool {
        let is = |regex: &Option<Regex>, value: Option<&str>| match regex {
            None => true,
            Some(r) => value.is_some_and(|v| r.is_match(v)),
        };
        !self.needs_estimate
            && is(&self.user, Some(&c.user))
            && is(&self.original_user, Some(&c.user))
            && is(&self.authenticated_user, Some(&c.user))
            && is(&self.source, c.source.as_deref())
            && self
                .user_group
                .as_ref()
                .is_none_or(|r| c.groups.iter().any(|g| r.is_match(g)))
            && self
                .query_type
                .as_ref()
                .is_none_or(|t| t.eq_ignore_ascii_case(c.query_type))
            && self.client_tags.iter().all(|t| c.client_tags.contains(t))
    }
}
