//! The file as Trino's `FileResourceGroupConfigurationManager` reads it, checked and turned
//! into [`ResourceGroups`]: every problem named, as the stand-in refuses to start with it.

use std::collections::BTreeSet;

use regex::Regex;
use serde::Deserialize;

use super::query_type::QUERY_TYPES;
use super::template::Template;
use super::{GroupLimits, GroupSpec, Policy, ResourceGroups, Selector};

// Every key Trino 476's `ManagerSpec`, `ResourceGroupSpec` and `SelectorSpec` read, and no
// other: the physical-data-scan limits of later Trino documentation are refused, as Trino 476
// refuses them ("Unrecognized field hardPhysicalDataScanLimit").

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ManagerFile {
    root_groups: Vec<GroupFile>,
    #[serde(default)]
    selectors: Vec<SelectorFile>,
    cpu_quota_period: Option<String>,
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
    is_number_in(text, &["ns", "us", "ms", "s", "m", "h", "d"])
}

/// `10GB`, `512MB`, `1.5TB`: airlift's `DataSize`.
fn is_data_size(text: &str) -> bool {
    is_number_in(text, &["B", "kB", "MB", "GB", "TB", "PB"])
}

/// A decimal number followed by one of `units` (spaces around allowed), as airlift parses
/// its `Duration` and `DataSize`.
fn is_number_in(text: &str, units: &[&str]) -> bool {
    let text = text.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    number.parse::<f64>().is_ok() && units.contains(&unit.trim())
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
    /// The file's text read and checked; the error names the problem.
    pub(super) fn from_json(text: &str) -> Result<Self, String> {
        let file: ManagerFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if let Some(p) = &file.cpu_quota_period
            && !is_duration(p)
        {
            return Err(format!(
                "`cpuQuotaPeriod` {p:?} is not a duration such as \"1h\""
            ));
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
