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

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use regex::Regex;
use serde::Deserialize;

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

/// A name with `${VARIABLE}`s (Trino's `ResourceGroupNameTemplate`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Template {
    raw: String,
    parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Text(String),
    Variable(String),
}

impl Template {
    fn parse(raw: &str) -> Self {
        let mut parts = Vec::new();
        let mut rest = raw;
        while let Some(start) = rest.find("${") {
            let after = &rest[start + 2..];
            let Some(end) = after.find('}') else { break };
            let name = &after[..end];
            let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && name.chars().all(|c| c.is_ascii_alphanumeric());
            if !valid {
                parts.push(Part::Text(rest[..start + 2].to_string()));
                rest = after;
                continue;
            }
            if start > 0 {
                parts.push(Part::Text(rest[..start].to_string()));
            }
            parts.push(Part::Variable(name.to_string()));
            rest = &after[end + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_string()));
        }
        Self {
            raw: raw.to_string(),
            parts,
        }
    }

    fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable(v) => Some(v.as_str()),
            Part::Text(_) => None,
        })
    }

    fn expand(&self, variables: &HashMap<String, String>) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.as_str(),
                Part::Variable(v) => variables.get(v).map_or("", String::as_str),
            })
            .collect()
    }
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

const QUERY_TYPES: [&str; 10] = [
    "SELECT",
    "EXPLAIN",
    "DESCRIBE",
    "INSERT",
    "UPDATE",
    "MERGE",
    "DELETE",
    "ANALYZE",
    "DATA_DEFINITION",
    "ALTER_TABLE_EXECUTE",
];

/// The query type a selector's `queryType` matches, from the statement's leading keywords
/// (Trino's `StatementUtils`; the resource-groups doc lists which statement is which).
pub fn query_type(sql: &str) -> &'static str {
    let words: Vec<String> = sql
        .split(|c: char| c.is_whitespace() || c == '(')
        .filter(|w| !w.is_empty())
        .take(3)
        .map(str::to_ascii_uppercase)
        .collect();
    let word = |i: usize| words.get(i).map_or("", String::as_str);
    match word(0) {
        "EXPLAIN" if word(1) == "ANALYZE" => "SELECT",
        "EXPLAIN" => "EXPLAIN",
        "DESCRIBE" | "DESC" | "SHOW" => "DESCRIBE",
        "INSERT" => "INSERT",
        "CREATE"
            if words.iter().any(|w| w == "TABLE") && sql.to_ascii_uppercase().contains(" AS ") =>
        {
            "INSERT"
        }
        "REFRESH" => "INSERT",
        "UPDATE" => "UPDATE",
        "MERGE" => "MERGE",
        "DELETE" => "DELETE",
        "ANALYZE" => "ANALYZE",
        "ALTER" if sql.to_ascii_uppercase().contains(" EXECUTE") => "ALTER_TABLE_EXECUTE",
        "CREATE" | "ALTER" | "DROP" | "GRANT" | "REVOKE" | "DENY" | "USE" | "SET" | "RESET"
        | "PREPARE" | "DEALLOCATE" | "START" | "COMMIT" | "ROLLBACK" | "CALL" | "COMMENT"
        | "TRUNCATE" => "DATA_DEFINITION",
        _ => "SELECT",
    }
}

// The file as written; every key Trino's `ManagerSpec`, `ResourceGroupSpec` and
// `SelectorSpec` read, and no other.

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ManagerFile {
    root_groups: Vec<GroupFile>,
    #[serde(default)]
    selectors: Vec<SelectorFile>,
    cpu_quota_period: Option<String>,
    physical_data_scan_quota_period: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct GroupFile {
    name: String,
    soft_memory_limit: String,
    max_queued: i64,
    soft_concurrency_limit: Option<i64>,
    hard_concurrency_limit: Option<i64>,
    /// The old name of `hardConcurrencyLimit`, still read by Trino.
    max_running: Option<i64>,
    scheduling_policy: Option<String>,
    scheduling_weight: Option<i64>,
    sub_groups: Option<Vec<GroupFile>>,
    /// Accepted: the stand-in has no JMX to export to.
    #[allow(dead_code)]
    jmx_export: Option<bool>,
    soft_cpu_limit: Option<String>,
    hard_cpu_limit: Option<String>,
    soft_physical_data_scan_limit: Option<String>,
    hard_physical_data_scan_limit: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SelectorFile {
    user: Option<String>,
    user_group: Option<String>,
    original_user: Option<String>,
    authenticated_user: Option<String>,
    source: Option<String>,
    query_type: Option<String>,
    client_tags: Option<Vec<String>>,
    selector_resource_estimate: Option<serde_json::Value>,
    group: String,
}

/// `1h`, `30m`, `2.5s`: airlift's `Duration`.
fn is_duration(text: &str) -> bool {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    number.parse::<f64>().is_ok() && ["ns", "us", "ms", "s", "m", "h", "d"].contains(&unit.trim())
}

/// `10GB`, `512MB`, `1.5TB`: airlift's `DataSize`.
fn is_data_size(text: &str) -> bool {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    number.parse::<f64>().is_ok() && ["B", "kB", "MB", "GB", "TB", "PB"].contains(&unit.trim())
}

/// `80%` (up to three digits and decimals, Trino's `PERCENT_PATTERN`) or a data size.
fn is_memory_limit(text: &str) -> bool {
    match text.strip_suffix('%') {
        Some(number) => {
            let whole = number.split('.').next().unwrap_or_default();
            (1..=3).contains(&whole.len()) && number.parse::<f64>().is_ok()
        }
        None => is_data_size(text),
    }
}

/// A Java regex of a selector, matched against the whole value as `Matcher.matches()` does.
fn whole_match(field: &str, index: usize, pattern: &str) -> Result<Regex, String> {
    Regex::new(&format!("^(?:{pattern})$")).map_err(|e| {
        format!("selectors[{index}]: `{field}` {pattern:?} is not a valid regular expression: {e}")
    })
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
        let file: ManagerFile = serde_json::from_str(text).map_err(|e| error(e.to_string()))?;
        Self::from_file(file).map_err(error)
    }

    fn from_file(file: ManagerFile) -> Result<Self, String> {
        for (key, period) in [
            ("cpuQuotaPeriod", &file.cpu_quota_period),
            (
                "physicalDataScanQuotaPeriod",
                &file.physical_data_scan_quota_period,
            ),
        ] {
            if let Some(p) = period
                && !is_duration(p)
            {
                return Err(format!("`{key}` {p:?} is not a duration such as \"1h\""));
            }
        }
        if file.root_groups.is_empty() {
            return Err("`rootGroups` is empty: no query could run".into());
        }
        let roots = groups(&file.root_groups, "", file.cpu_quota_period.is_some())?;
        let mut selectors = Vec::new();
        for (i, s) in file.selectors.into_iter().enumerate() {
            selectors.push(selector(i, s, &roots)?);
        }
        Ok(Self { roots, selectors })
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

fn groups(files: &[GroupFile], parent: &str, cpu_period: bool) -> Result<Vec<GroupSpec>, String> {
    let mut specs: Vec<GroupSpec> = Vec::new();
    for file in files {
        let path = if parent.is_empty() {
            file.name.clone()
        } else {
            format!("{parent}.{}", file.name)
        };
        let spec = group(file, &path, cpu_period)?;
        if specs.iter().any(|s| s.name == spec.name) {
            return Err(if parent.is_empty() {
                format!("duplicated root group: {}", file.name)
            } else {
                format!("group {parent}: duplicated sub group: {}", file.name)
            });
        }
        specs.push(spec);
    }
    Ok(specs)
}

fn group(file: &GroupFile, path: &str, cpu_period: bool) -> Result<GroupSpec, String> {
    let at = |message: String| format!("group {path}: {message}");
    if file.name.is_empty() {
        return Err(at("`name` is empty".into()));
    }
    let count = |key: &str, value: i64| {
        usize::try_from(value).map_err(|_| at(format!("`{key}` is negative ({value})")))
    };
    let max_queued = count("maxQueued", file.max_queued)?;
    let hard = match (file.hard_concurrency_limit, file.max_running) {
        (Some(hard), _) => count("hardConcurrencyLimit", hard)?,
        (None, Some(running)) => count("maxRunning", running)?,
        (None, None) => return Err(at("missing required property `hardConcurrencyLimit`".into())),
    };
    let soft = match file.soft_concurrency_limit {
        Some(soft) => {
            let soft = count("softConcurrencyLimit", soft)?;
            if soft > hard {
                return Err(at(format!(
                    "`hardConcurrencyLimit` ({hard}) must be greater than or equal to \
                     `softConcurrencyLimit` ({soft})"
                )));
            }
            soft
        }
        None => hard,
    };
    if !is_memory_limit(&file.soft_memory_limit) {
        return Err(at(format!(
            "`softMemoryLimit` {:?} is neither a percentage (\"10%\") nor a data size (\"1GB\")",
            file.soft_memory_limit
        )));
    }
    for (key, value) in [
        ("softCpuLimit", &file.soft_cpu_limit),
        ("hardCpuLimit", &file.hard_cpu_limit),
    ] {
        if let Some(v) = value
            && !is_duration(v)
        {
            return Err(at(format!(
                "`{key}` {v:?} is not a duration such as \"1h\""
            )));
        }
    }
    for (key, value) in [
        (
            "softPhysicalDataScanLimit",
            &file.soft_physical_data_scan_limit,
        ),
        (
            "hardPhysicalDataScanLimit",
            &file.hard_physical_data_scan_limit,
        ),
    ] {
        if let Some(v) = value
            && !is_data_size(v)
        {
            return Err(at(format!(
                "`{key}` {v:?} is not a data size such as \"10GB\""
            )));
        }
    }
    // Trino's validateRootGroups.
    if (file.soft_cpu_limit.is_some() || file.hard_cpu_limit.is_some()) && !cpu_period {
        return Err(at(
            "`cpuQuotaPeriod` must be specified to use CPU limits".into()
        ));
    }
    if file.soft_cpu_limit.is_some() && file.hard_cpu_limit.is_none() {
        return Err(at(
            "must specify `hardCpuLimit` in addition to `softCpuLimit`".into(),
        ));
    }
    let policy = match file
        .scheduling_policy
        .as_deref()
        .map(str::to_ascii_lowercase)
    {
        None => None,
        Some(p) => Some(match p.as_str() {
            "fair" => Policy::Fair,
            "weighted" => Policy::Weighted,
            "weighted_fair" => Policy::WeightedFair,
            "query_priority" => Policy::QueryPriority,
            _ => {
                return Err(at(format!(
                    "`schedulingPolicy` {p:?} is not one of fair, weighted, weighted_fair, \
                     query_priority"
                )));
            }
        }),
    };
    let weight = match file.scheduling_weight {
        None => 1,
        Some(w) if w > 0 => w as u64,
        Some(w) => return Err(at(format!("`schedulingWeight` must be positive, not {w}"))),
    };
    let subs = file.sub_groups.as_deref().unwrap_or_default();
    match policy {
        Some(Policy::Weighted | Policy::WeightedFair) => {
            let weighted = subs
                .iter()
                .filter(|s| s.scheduling_weight.is_some())
                .count();
            if weighted != 0 && weighted != subs.len() {
                return Err(format!(
                    "must specify scheduling weight for all sub-groups of '{path}' or none of them"
                ));
            }
        }
        Some(Policy::Fair | Policy::QueryPriority)
            if subs.iter().any(|s| s.scheduling_weight.is_some()) =>
        {
            return Err(format!(
                "must use 'weighted' or 'weighted_fair' scheduling policy if specifying \
                 scheduling weight for '{path}'"
            ));
        }
        _ => {}
    }
    Ok(GroupSpec {
        name: Template::parse(&file.name),
        limits: GroupLimits {
            hard_concurrency: hard,
            soft_concurrency: soft,
            max_queued,
            policy: policy.unwrap_or(Policy::Fair),
            weight,
        },
        sub_groups: groups(subs, path, cpu_period)?,
    })
}

fn selector(i: usize, file: SelectorFile, roots: &[GroupSpec]) -> Result<Selector, String> {
    let regex = |field: &str, value: &Option<String>| {
        value
            .as_deref()
            .map(|p| whole_match(field, i, p))
            .transpose()
    };
    let user = regex("user", &file.user)?;
    let user_group = regex("userGroup", &file.user_group)?;
    let original_user = regex("originalUser", &file.original_user)?;
    let authenticated_user = regex("authenticatedUser", &file.authenticated_user)?;
    let source = regex("source", &file.source)?;
    if let Some(t) = &file.query_type
        && !QUERY_TYPES.iter().any(|q| q.eq_ignore_ascii_case(t))
    {
        return Err(format!(
            "selectors[{i}]: selector specifies an invalid query type: {t} (one of {})",
            QUERY_TYPES.join(", ")
        ));
    }
    // Trino's StaticSelector: the group's variables must be USER, SOURCE or a named group of
    // the user or source regexes, each defined once.
    let mut variables: BTreeSet<String> = ["USER".to_string(), "SOURCE".to_string()].into();
    for regex in [&user, &original_user, &authenticated_user, &source]
        .into_iter()
        .flatten()
    {
        for name in regex.capture_names().flatten() {
            if !variables.insert(name.to_string()) {
                return Err(format!(
                    "selectors[{i}]: multiple definitions found for variable ${{{name}}}"
                ));
            }
        }
    }
    let group: Vec<Template> = file.group.split('.').map(Template::parse).collect();
    if let Some(unresolved) = group
        .iter()
        .flat_map(Template::variables)
        .find(|v| !variables.contains(*v))
    {
        return Err(format!(
            "selectors[{i}]: unresolved variable ${{{unresolved}}} in resource group ID '{}', \
             available: {}",
            file.group,
            variables.iter().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    // Trino's validateSelectors: every segment names a group below the previous one…
    let mut level = roots;
    let mut so_far = String::new();
    for segment in &group {
        so_far.push_str(&segment.raw);
        let Some(spec) = level.iter().find(|g| g.name == *segment) else {
            return Err(format!(
                "selectors[{i}]: selector refers to nonexistent group: {so_far}"
            ));
        };
        so_far.push('.');
        level = &spec.sub_groups;
    }
    // …and queries go only to leaves: Trino fails each query placed in a group with
    // sub-groups ("It is not a leaf group"); refused here at start instead.
    if !level.is_empty() {
        return Err(format!(
            "selectors[{i}]: group {} has sub-groups: queries can run only in a leaf group",
            file.group
        ));
    }
    Ok(Selector {
        user,
        user_group,
        original_user,
        authenticated_user,
        source,
        query_type: file.query_type,
        client_tags: file.client_tags.unwrap_or_default(),
        needs_estimate: file.selector_resource_estimate.is_some(),
        group,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trino's documentation example (docs/src/main/sphinx/admin/resource-groups-example.json).
    const DOC_EXAMPLE: &str = include_str!("../../../../fixtures/resource-groups.json");

    fn criteria(user: &str, groups: &[&str], source: Option<&str>, tags: &[&str]) -> Criteria {
        Criteria {
            user: user.into(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            source: source.map(Into::into),
            client_tags: tags.iter().map(|t| t.to_string()).collect(),
            query_type: "SELECT",
        }
    }

    fn placed(groups: &ResourceGroups, c: &Criteria) -> String {
        display_id(&groups.select(c).expect("a selector matches").id)
    }

    #[test]
    fn the_documentation_example_places_queries_as_the_doc_says() {
        let groups = ResourceGroups::parse(DOC_EXAMPLE, "doc example").expect("accepted");
        // "The first selector matches queries from bob and places them in the admin group."
        assert_eq!(placed(&groups, &criteria("bob", &[], None, &[])), "admin");
        // "The second … from admin user group …"
        assert_eq!(
            placed(&groups, &criteria("ada", &["admin"], None, &[])),
            "admin"
        );
        // DDL from a pipeline source; other pipeline queries per user.
        let mut ddl = criteria("ada", &[], Some("nightly-pipeline"), &[]);
        ddl.query_type = "DATA_DEFINITION";
        assert_eq!(placed(&groups, &ddl), "global.data_definition");
        assert_eq!(
            placed(
                &groups,
                &criteria("ada", &[], Some("nightly-pipeline"), &[])
            ),
            "global.pipeline.pipeline_ada"
        );
        // "Consider a query with a source jdbc#powerfulbi, user kayla, and client tags hipri
        // and fast. This query is routed to the global.adhoc.bi-powerfulbi.kayla group."
        assert_eq!(
            placed(
                &groups,
                &criteria("kayla", &[], Some("jdbc#powerfulbi"), &["hipri", "fast"])
            ),
            "global.adhoc.bi-powerfulbi.kayla"
        );
        // Without the tag: the catch-all per-user adhoc group.
        assert_eq!(
            placed(
                &groups,
                &criteria("kayla", &[], Some("jdbc#powerfulbi"), &[])
            ),
            "global.adhoc.other.kayla"
        );
        let admin = groups
            .select(&criteria("bob", &[], None, &[]))
            .expect("placed");
        assert_eq!(admin.limits[0].hard_concurrency, 50);
        assert_eq!(admin.limits[0].policy, Policy::QueryPriority);
    }

    #[test]
    fn the_first_matching_selector_wins_and_none_matching_is_none() {
        let text = r#"{
            "rootGroups": [
                {"name": "a", "softMemoryLimit": "1GB", "hardConcurrencyLimit": 1, "maxQueued": 1},
                {"name": "b", "softMemoryLimit": "1GB", "hardConcurrencyLimit": 1, "maxQueued": 1}
            ],
            "selectors": [
                {"user": "ada|grace", "group": "a"},
                {"user": "ada", "group": "b"},
                {"source": "cli", "group": "b"}
            ]
        }"#;
        let groups = ResourceGroups::parse(text, "t.json").expect("accepted");
        assert_eq!(placed(&groups, &criteria("ada", &[], None, &[])), "a");
        assert_eq!(
            placed(&groups, &criteria("linus", &[], Some("cli"), &[])),
            "b"
        );
        // Java's `matches()`: the whole value, so "adam" is not "ada".
        assert!(groups.select(&criteria("adam", &[], None, &[])).is_none());
        assert!(
            groups
                .select(&criteria("linus", &[], Some("cli2"), &[]))
                .is_none()
        );
    }

    #[test]
    fn templates_expand_user_and_source() {
        let text = r#"{
            "rootGroups": [{"name": "global", "softMemoryLimit": "100%", "hardConcurrencyLimit": 9,
                "maxQueued": 9, "subGroups": [{"name": "${SOURCE}-${USER}",
                "softMemoryLimit": "10%", "hardConcurrencyLimit": 1, "maxQueued": 1}]}],
            "selectors": [{"group": "global.${SOURCE}-${USER}"}]
        }"#;
        let groups = ResourceGroups::parse(text, "t.json").expect("accepted");
        assert_eq!(
            placed(&groups, &criteria("ada", &[], Some("cli"), &[])),
            "global.cli-ada"
        );
        assert_eq!(
            placed(&groups, &criteria("ada", &[], None, &[])),
            "global.-ada"
        );
    }

    #[test]
    fn a_file_that_cannot_work_is_refused_naming_the_problem() {
        let root = |extra: &str| {
            format!(
                r#"{{"rootGroups": [{{"name": "g", "softMemoryLimit": "10%",
                "hardConcurrencyLimit": 2, "maxQueued": 1 {extra}}}],
                "selectors": [{{"group": "g"}}]}}"#
            )
        };
        for (text, expected) in [
            (root(r#", "colour": 1"#), "unknown field `colour`"),
            (
                root(r#", "softConcurrencyLimit": 3"#),
                "greater than or equal",
            ),
            (
                root(r#", "schedulingPolicy": "random""#),
                "`schedulingPolicy`",
            ),
            (root(r#", "softCpuLimit": "1h""#), "cpuQuotaPeriod"),
            (
                root(
                    r#", "subGroups": [{"name": "s", "softMemoryLimit": "1%",
                    "hardConcurrencyLimit": 1, "maxQueued": 1, "schedulingWeight": 2}],
                    "schedulingPolicy": "fair""#,
                ),
                "must use 'weighted' or 'weighted_fair'",
            ),
            (
                r#"{"rootGroups": [{"name": "g", "softMemoryLimit": "lots",
                    "hardConcurrencyLimit": 1, "maxQueued": 1}]}"#
                    .to_string(),
                "`softMemoryLimit`",
            ),
            (
                r#"{"rootGroups": [{"name": "g", "softMemoryLimit": "1GB", "maxQueued": 1}]}"#
                    .to_string(),
                "hardConcurrencyLimit",
            ),
            (
                r#"{"rootGroups": [{"name": "g", "softMemoryLimit": "1GB",
                    "hardConcurrencyLimit": 1, "maxQueued": 1}],
                    "selectors": [{"user": "(", "group": "g"}]}"#
                    .to_string(),
                "selectors[0]: `user` \"(\" is not a valid regular expression",
            ),
            (
                r#"{"rootGroups": [{"name": "g", "softMemoryLimit": "1GB",
                    "hardConcurrencyLimit": 1, "maxQueued": 1}],
                    "selectors": [{"group": "g.missing"}]}"#
                    .to_string(),
                "selector refers to nonexistent group: g.missing",
            ),
            (
                r#"{"rootGroups": [{"name": "g", "softMemoryLimit": "1GB",
                    "hardConcurrencyLimit": 1, "maxQueued": 1}],
                    "selectors": [{"group": "g.${toolname}"}]}"#
                    .to_string(),
                "unresolved variable ${toolname}",
            ),
            (
                r#"{"rootGroups": [{"name": "g", "softMemoryLimit": "1GB",
                    "hardConcurrencyLimit": 1, "maxQueued": 1}],
                    "selectors": [{"queryType": "SELEKT", "group": "g"}]}"#
                    .to_string(),
                "invalid query type: SELEKT",
            ),
        ] {
            let error = ResourceGroups::parse(&text, "rg.json").expect_err(expected);
            let message = error.to_string();
            assert!(
                message.starts_with("resource groups rg.json: "),
                "{message}"
            );
            assert!(message.contains(expected), "{expected:?} not in {message}");
        }
    }

    #[test]
    fn statements_have_trino_s_query_types() {
        for (sql, kind) in [
            ("SELECT 1", "SELECT"),
            ("  with x as (select 1) select * from x", "SELECT"),
            ("(SELECT 1)", "SELECT"),
            ("EXPLAIN SELECT 1", "EXPLAIN"),
            ("EXPLAIN ANALYZE SELECT 1", "SELECT"),
            ("SHOW TABLES", "DESCRIBE"),
            ("DESCRIBE nation", "DESCRIBE"),
            ("USE tpch.tiny", "DATA_DEFINITION"),
            ("SET SESSION a = 1", "DATA_DEFINITION"),
            ("PREPARE q FROM SELECT 1", "DATA_DEFINITION"),
            ("INSERT INTO t VALUES 1", "INSERT"),
            ("DELETE FROM t", "DELETE"),
        ] {
            assert_eq!(query_type(sql), kind, "{sql}");
        }
    }
}
