//! The data policies in force, in words: what the startup banner, the console and the sign-in
//! page's cards say about them, so that nobody has to open a rules file to learn why a person
//! sees fewer rows or a masked column than Trino would show them.
//!
//! Read from the same rules file QueryMesh enforces (Trino's file-based access control; the
//! engine's `querymesh::engine::access` is the judge, this only describes). Only the `tables`
//! rules that take something away are described — a row filter, a column mask, a hidden
//! column, no privileges — and never by quoting an expression (the journal never does either),
//! except for the built-in demo rules, which the binary owns and so describes in plain words.

use std::path::Path;

use regex::Regex;
use serde_json::{Value, json};

use crate::config::Person;
use crate::querymesh::engine::access::{BUILTIN_DEMO_RULES, read_rules};

/// What the built-in demo rules (fixtures/querymesh-rules.json) take away, in words: its one
/// restricting rule filters `tpch.tiny.customer` to Europe's nations and masks `phone`.
const DEMO_EFFECTS: &[&str] = &["only EUROPE's customers (272 of 1,500)", "phone masked"];

/// The rules file in force and its restricting rules.
#[derive(Debug, Default)]
pub struct DataPolicies {
    /// `[querymesh] access_control` as configured; `None`: everyone reads everything.
    source: Option<String>,
    /// Every `tables` rule, in order: a person's first matching rule decides (Trino's order).
    rules: Vec<TableRule>,
}

/// One `tables` rule: whom and what it names, and what it takes away (empty: nothing).
#[derive(Debug)]
struct TableRule {
    position: usize,
    user: Option<String>,
    group: Option<String>,
    /// A rule for a role never matches: the sandbox's people have no Trino roles.
    role: bool,
    catalog: Option<String>,
    schema: Option<String>,
    table: Option<String>,
    effects: Vec<String>,
}

/// What one restricting rule does, and to whom.
#[derive(Debug, Clone, PartialEq)]
pub struct Restriction {
    /// The rule's position in `tables`, as the journal names it (`tables[N]`).
    pub rule: usize,
    /// Whom the rule names: "group demo-restricted", "user alan", "everyone".
    pub who: String,
    /// The tables it names: `catalog.schema.table`, `*` for a pattern left out.
    pub tables: String,
    /// "rows filtered", "phone masked", "ssn hidden", "no access".
    pub effects: Vec<String>,
}

impl DataPolicies {
    /// The policies of `[querymesh] access_control` (`None`: no file, nothing restricted). A
    /// file that cannot be read or parsed is described as restricting nothing: QueryMesh
    /// refuses to start on it, so it is never in force.
    pub fn load(access_control: Option<&Path>) -> Self {
        let Some(path) = access_control else {
            return Self::default();
        };
        let rules: Value = read_rules(path)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or(Value::Null);
        let builtin = path.as_os_str() == BUILTIN_DEMO_RULES;
        Self::from_rules(&path.display().to_string(), &rules, builtin)
    }

    fn from_rules(source: &str, rules: &Value, builtin: bool) -> Self {
        let text =
            |rule: &Value, key: &str| rule.get(key).and_then(Value::as_str).map(str::to_string);
        let tables = rules
            .get("tables")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let rules = tables
            .iter()
            .enumerate()
            .map(|(position, rule)| {
                let mut effects = effects(rule);
                if builtin && !effects.is_empty() {
                    effects = DEMO_EFFECTS.iter().map(|e| e.to_string()).collect();
                }
                TableRule {
                    position,
                    user: text(rule, "user"),
                    group: text(rule, "group"),
                    role: rule.get("role").is_some(),
                    catalog: text(rule, "catalog"),
                    schema: text(rule, "schema"),
                    table: text(rule, "table"),
                    effects,
                }
            })
            .collect();
        Self {
            source: Some(source.to_string()),
            rules,
        }
    }

    /// `[querymesh] access_control` as configured, when there is one.
    pub fn source(&self) -> Option<&str> {
        self.source.as_deref()
    }

    /// Every rule that takes something away, in the file's order.
    pub fn restrictions(&self) -> Vec<Restriction> {
        self.rules
            .iter()
            .filter(|r| !r.effects.is_empty())
            .map(TableRule::restriction)
            .collect()
    }

    /// What the rules take away from `person`: each restricting rule that is the first to
    /// match them for the tables it names (an earlier rule naming them and at least those
    /// tables decides instead, as in Trino).
    pub fn for_person(&self, person: &Person) -> Vec<Restriction> {
        self.rules
            .iter()
            .enumerate()
            .filter(|(i, rule)| {
                !rule.effects.is_empty()
                    && rule.matches(person)
                    && !self.rules[..*i]
                        .iter()
                        .any(|earlier| earlier.matches(person) && earlier.covers(rule))
            })
            .map(|(_, rule)| rule.restriction())
            .collect()
    }

    /// One line for the banner: the source and each restriction with whom it hits.
    pub fn headline(&self, people: &[Person]) -> String {
        let Some(source) = &self.source else {
            return "none: everyone reads everything".into();
        };
        let restrictions: Vec<String> = self
            .restrictions()
            .iter()
            .map(|r| {
                let hit: Vec<&str> = people
                    .iter()
                    .filter(|p| self.for_person(p).iter().any(|mine| mine.rule == r.rule))
                    .map(Person::display_name)
                    .collect();
                let whom = if hit.is_empty() {
                    format!("{} (nobody configured)", r.who)
                } else {
                    format!("{} ({})", r.who, hit.join(", "))
                };
                format!("{}: {} for {whom}", r.tables, r.effects.join(", "))
            })
            .collect();
        if restrictions.is_empty() {
            format!("{source}: nothing filtered or masked")
        } else {
            format!("{source}: {}", restrictions.join("; "))
        }
    }

    /// The restrictions as the control API answers them (`querymesh/policies`), each with the
    /// subs of the configured people it hits.
    pub fn restrictions_json(&self, people: &[Person]) -> Value {
        self.restrictions()
            .into_iter()
            .map(|r| {
                let subs: Vec<&str> = people
                    .iter()
                    .filter(|p| self.for_person(p).iter().any(|mine| mine.rule == r.rule))
                    .map(|p| p.sub.as_str())
                    .collect();
                json!({
                    "rule": r.rule,
                    "for": r.who,
                    "tables": r.tables,
                    "effects": r.effects,
                    "people": subs,
                })
            })
            .collect()
    }
}

/// What a `tables` rule takes away, generically: no privileges, a row filter, masked and
/// hidden columns.
fn effects(rule: &Value) -> Vec<String> {
    let mut effects = Vec::new();
    if rule
        .get("privileges")
        .and_then(Value::as_array)
        .is_some_and(Vec::is_empty)
    {
        effects.push("no access".to_string());
    }
    if rule.get("filter").is_some() {
        effects.push("rows filtered".to_string());
    }
    for column in rule
        .get("columns")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = column.get("name").and_then(Value::as_str).unwrap_or("?");
        if column.get("allow").and_then(Value::as_bool) == Some(false) {
            effects.push(format!("{name} hidden"));
        } else if column.get("mask").is_some() {
            effects.push(format!("{name} masked"));
        }
    }
    effects
}

/// An anchored pattern, as the rules file's are; one that does not compile matches nothing
/// (QueryMesh would have refused the file).
fn matches(pattern: &Option<String>, value: &str) -> bool {
    match pattern {
        None => true,
        Some(p) => Regex::new(&format!("^(?:{p})$")).is_ok_and(|re| re.is_match(value)),
    }
}

impl TableRule {
    /// The rule names `person`: their sub (QueryMesh's user, from the token's `sub`) and any
    /// of their groups, with or without Keycloak's leading `/`.
    fn matches(&self, person: &Person) -> bool {
        !self.role
            && matches(&self.user, &person.sub)
            && (self.group.is_none()
                || person.groups.iter().any(|g| {
                    matches(&self.group, g) || matches(&self.group, g.trim_start_matches('/'))
                }))
    }

    /// This rule names at least `other`'s tables: each pattern left out or written the same.
    fn covers(&self, other: &TableRule) -> bool {
        let wider =
            |mine: &Option<String>, theirs: &Option<String>| mine.is_none() || mine == theirs;
        wider(&self.catalog, &other.catalog)
            && wider(&self.schema, &other.schema)
            && wider(&self.table, &other.table)
    }

    fn restriction(&self) -> Restriction {
        let who = match (&self.user, &self.group) {
            (Some(user), Some(group)) => format!("user {user} in group {group}"),
            (Some(user), None) => format!("user {user}"),
            (None, Some(group)) => format!("group {group}"),
            (None, None) => "everyone".into(),
        };
        let part = |p: &Option<String>| p.clone().unwrap_or_else(|| "*".into());
        Restriction {
            rule: self.position,
            who,
            tables: format!(
                "{}.{}.{}",
                part(&self.catalog),
                part(&self.schema),
                part(&self.table)
            ),
            effects: self.effects.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(username: &str, groups: &[&str]) -> Person {
        let entry = json!({
            "sub": username,
            "preferred_username": username,
            "groups": groups,
        });
        serde_json::from_value(entry).expect("a person")
    }

    #[test]
    fn the_built_in_rules_restrict_only_the_demo_group() {
        let policies = DataPolicies::load(Some(Path::new(BUILTIN_DEMO_RULES)));
        let dana = person("dana", &["demo-restricted"]);
        let ada = person("ada", &["analysts", "engineering"]);
        let margaret = person("margaret", &["admins"]);
        let mine = policies.for_person(&dana);
        assert_eq!(mine.len(), 1, "{mine:?}");
        assert_eq!(mine[0].tables, "tpch.*.customer");
        assert_eq!(mine[0].who, "group demo-restricted");
        assert_eq!(mine[0].effects, DEMO_EFFECTS);
        assert!(policies.for_person(&ada).is_empty());
        assert!(policies.for_person(&margaret).is_empty());
        let headline = policies.headline(&[ada, dana]);
        assert!(
            headline.starts_with("builtin:demo: tpch.*.customer: only EUROPE's"),
            "{headline}"
        );
        assert!(
            headline.ends_with("for group demo-restricted (dana)"),
            "{headline}"
        );
    }

    #[test]
    fn a_file_is_described_generically_and_earlier_rules_decide() {
        let rules = json!({"tables": [
            {"user": "root", "privileges": ["SELECT"]},
            {"group": "hr", "catalog": "db", "table": "people", "privileges": ["SELECT"],
             "filter": "x", "columns": [{"name": "ssn", "allow": false}, {"name": "pay", "mask": "0"}]},
            {"table": "secrets", "privileges": []},
            {"role": "auditor", "privileges": []},
            {"privileges": ["SELECT"]}
        ]});
        let policies = DataPolicies::from_rules("rules.json", &rules, false);
        let all = policies.restrictions();
        assert_eq!(all.len(), 3);
        assert_eq!(
            all[0].effects,
            ["rows filtered", "ssn hidden", "pay masked"]
        );
        assert_eq!(all[0].tables, "db.*.people");
        assert_eq!(all[1].effects, ["no access"]);
        assert_eq!(all[1].who, "everyone");
        let hr = person("eve", &["/hr"]);
        let rules_of =
            |p: &Person| -> Vec<usize> { policies.for_person(p).iter().map(|r| r.rule).collect() };
        assert_eq!(rules_of(&hr), [1, 2]);
        // root's first rule names every table: nothing later applies to them.
        assert_eq!(rules_of(&person("root", &["hr"])), Vec::<usize>::new());
        assert_eq!(
            DataPolicies::load(None).headline(&[]),
            "none: everyone reads everything"
        );
    }
}
