//! `qm_split_to_map` and `qm_split_to_multimap`: a string split into entries, each entry into
//! a key and a value, as Trino's SplitToMapFunction and SplitToMultimapFunction split it. A
//! map is a JSON array of `[key, value]` pairs (docs/complex-design.md).

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use serde_json::Value;

use crate::udf::{FLAGS, define, fail, reserve, text};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_SPLIT_TO_MAP: SqliteFn = SqliteFn::new("qm_split_to_map");
pub const QM_SPLIT_TO_MULTIMAP: SqliteFn = SqliteFn::new("qm_split_to_multimap");

/// What splitting refuses, with Trino's messages (split_to_multimap quotes no bad entry).
#[derive(Debug, PartialEq)]
enum SplitError {
    EmptyEntryDelimiter,
    EmptyKeyValueDelimiter,
    SameDelimiters,
    BadEntry { entry: String, quoted: bool },
    DuplicateKey(String),
}

impl SplitError {
    fn message(&self) -> String {
        match self {
            Self::EmptyEntryDelimiter => "entryDelimiter is empty".into(),
            Self::EmptyKeyValueDelimiter => "keyValueDelimiter is empty".into(),
            Self::SameDelimiters => {
                "entryDelimiter and keyValueDelimiter must not be the same".into()
            }
            Self::BadEntry { entry, quoted } => {
                let entry = if *quoted {
                    format!("'{entry}'")
                } else {
                    entry.clone()
                };
                format!(
                    "Key-value delimiter must appear exactly once in each entry. Bad input: {entry}"
                )
            }
            Self::DuplicateKey(key) => format!("Duplicate keys ({key}) are not allowed"),
        }
    }
}

/// The (key, value) entries of `s`, in order: entries are separated by `entry_delimiter`
/// (one trailing delimiter ends the string without an empty entry), and each holds
/// `key_value_delimiter` exactly once.
fn entries<'a>(
    s: &'a str,
    entry_delimiter: &str,
    key_value_delimiter: &str,
    quoted: bool,
) -> Result<Vec<(&'a str, &'a str)>, SplitError> {
    if entry_delimiter.is_empty() {
        return Err(SplitError::EmptyEntryDelimiter);
    }
    if key_value_delimiter.is_empty() {
        return Err(SplitError::EmptyKeyValueDelimiter);
    }
    if entry_delimiter == key_value_delimiter {
        return Err(SplitError::SameDelimiters);
    }
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        let (entry, next) = match rest.split_once(entry_delimiter) {
            Some((entry, next)) => (entry, Some(next)),
            None => (rest, None),
        };
        let bad = || SplitError::BadEntry {
            entry: entry.to_string(),
            quoted,
        };
        let (key, value) = entry.split_once(key_value_delimiter).ok_or_else(bad)?;
        if value.contains(key_value_delimiter) {
            return Err(bad());
        }
        out.push((key, value));
        match next {
            Some(next) => rest = next,
            None => break,
        }
    }
    Ok(out)
}

/// split_to_map: each key once.
fn split_to_map(s: &str, entry: &str, key_value: &str) -> Result<Value, SplitError> {
    let mut pairs: Vec<Value> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (key, value) in entries(s, entry, key_value, true)? {
        if !seen.insert(key) {
            return Err(SplitError::DuplicateKey(key.to_string()));
        }
        pairs.push(Value::Array(vec![key.into(), value.into()]));
    }
    Ok(Value::Array(pairs))
}

/// split_to_multimap: each key with its values in order of appearance.
fn split_to_multimap(s: &str, entry: &str, key_value: &str) -> Result<Value, SplitError> {
    let mut keys: Vec<&str> = Vec::new();
    let mut values: std::collections::HashMap<&str, Vec<Value>> = Default::default();
    for (key, value) in entries(s, entry, key_value, false)? {
        let slot = values.entry(key).or_insert_with(|| {
            keys.push(key);
            Vec::new()
        });
        slot.push(value.into());
    }
    let pairs = keys
        .into_iter()
        .map(|k| {
            let vs = values.remove(k).unwrap_or_default();
            Value::Array(vec![k.into(), Value::Array(vs)])
        })
        .collect();
    Ok(Value::Array(pairs))
}

type Splitter = fn(&str, &str, &str) -> Result<Value, SplitError>;

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    let functions: [(&'static str, Splitter); 2] = [
        (QM_SPLIT_TO_MAP.name(), split_to_map),
        (QM_SPLIT_TO_MULTIMAP.name(), split_to_multimap),
    ];
    for (name, split) in functions {
        define(conn, name, 3, FLAGS, move |ctx| {
            let (Some(s), Some(entry), Some(key_value)) = (
                text(ctx.get_raw(0)),
                text(ctx.get_raw(1)),
                text(ctx.get_raw(2)),
            ) else {
                return Ok(None);
            };
            // The map's text is at most a few times the string's.
            reserve(s.len().saturating_mul(3).saturating_add(16))?;
            let map = split(&s, &entry, &key_value)
                .map_err(|e| fail(ErrorName::InvalidFunctionArgument, e.message()))?;
            Ok(Some(map.to_string()))
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // Trino 476 (docs functions/string split_to_map / split_to_multimap, and answers of the
    // real engine for the edge cases).
    #[test]
    fn splits_as_trino_does() {
        let map = |s| split_to_map(s, ",", "=").map(|v| v.to_string());
        assert_eq!(map("a=1,b=2"), Ok(r#"[["a","1"],["b","2"]]"#.into()));
        assert_eq!(map("a=1,b="), Ok(r#"[["a","1"],["b",""]]"#.into()));
        assert_eq!(map("a=1,"), Ok(r#"[["a","1"]]"#.into()));
        assert_eq!(map(""), Ok("[]".into()));
        assert_eq!(map("=1"), Ok(r#"[["","1"]]"#.into()));
        let multimap = |s| split_to_multimap(s, ",", "=").map(|v| v.to_string());
        assert_eq!(
            multimap("a=1,b=2,a=3"),
            Ok(r#"[["a",["1","3"]],["b",["2"]]]"#.into())
        );
        assert_eq!(multimap("a=1,a=1"), Ok(r#"[["a",["1","1"]]]"#.into()));
    }

    #[test]
    fn refuses_as_trino_does() {
        let message = |r: Result<Value, SplitError>| r.map_err(|e| e.message()).err();
        assert_eq!(
            message(split_to_map("a=1,a=2", ",", "=")).as_deref(),
            Some("Duplicate keys (a) are not allowed")
        );
        assert_eq!(
            message(split_to_map("a=1,b", ",", "=")).as_deref(),
            Some("Key-value delimiter must appear exactly once in each entry. Bad input: 'b'")
        );
        assert_eq!(
            message(split_to_multimap("a=1=2", ",", "=")).as_deref(),
            Some("Key-value delimiter must appear exactly once in each entry. Bad input: a=1=2")
        );
        assert_eq!(
            message(split_to_map("a=1,,b=2", ",", "=")).as_deref(),
            Some("Key-value delimiter must appear exactly once in each entry. Bad input: ''")
        );
        assert_eq!(
            message(split_to_map("a", "", "=")).as_deref(),
            Some("entryDelimiter is empty")
        );
        assert_eq!(
            message(split_to_map("a", ",", "")).as_deref(),
            Some("keyValueDelimiter is empty")
        );
        assert_eq!(
            message(split_to_multimap("a", "=", "=")).as_deref(),
            Some("entryDelimiter and keyValueDelimiter must not be the same")
        );
    }
}
