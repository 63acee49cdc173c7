//! Group names with `${VARIABLE}`s, expanded per query.

use std::collections::HashMap;

/// A name with `${VARIABLE}`s (Trino's `ResourceGroupNameTemplate`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Template {
    pub(super) raw: String,
    parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Text(String),
    Variable(String),
}

impl Template {
    pub(super) fn parse(raw: &str) -> Self {
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

    pub(super) fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable(v) => Some(v.as_str()),
            Part::Text(_) => None,
        })
    }

    pub(super) fn expand(&self, variables: &HashMap<String, String>) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Text(t) => t.as_str(),
                Part::Variable(v) => variables.get(v).map_or("", String::as_str),
            })
            .collect()
    }
}
