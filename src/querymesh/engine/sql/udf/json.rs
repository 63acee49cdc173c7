//! JSON values for the `json` type and the json_* functions (Trino docs functions/json).
//!
//! A JSON text is read once with serde_json into [`Json`], which keeps what Trino's Jackson
//! parser sees: members in document order (duplicates too) and every number's text as written
//! (json_extract_scalar returns `1.50` for `1.50`). Two printers follow Trino:
//! - [`Json::canonical`]: json_parse / `JSON '…'` (JsonFunctions.jsonParse, Jackson's
//!   SORTED_MAPPER): no whitespace, object keys sorted (the last of duplicates wins), integers
//!   as written, other numbers as Java's `Double.toString`;
//! - [`Json::compact`]: json_extract's copy of a sub-value (Jackson `copyCurrentStructure`):
//!   the same, in document order.
//!
//! Strings are escaped as Jackson escapes them: `"`, `\`, and control characters (`\n`, `\t`,
//! `\r`, `\b`, `\f`, others as `\u00XX`); everything else as is.

use std::fmt::Write as _;

use rusqlite::Connection;
use rusqlite::types::{Value, ValueRef};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{FLAGS, fail, reserve};
use crate::querymesh::engine::error::ErrorName;
use crate::querymesh::engine::types::TrinoType;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// The number's text as written (serde_json checked its grammar).
    Number(String),
    String(String),
    Array(Vec<Json>),
    /// Members in document order, duplicates kept.
    Object(Vec<(String, Json)>),
}

/// Where a document's numbers are, in document order: serde_json hands the visitor only
/// their values, and visits them in the same order.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                out.push((start, i));
            }
            _ => i += 1,
        }
    }
    out
}

struct Seed<'n, 't, 's> {
    numbers: &'n mut std::slice::Iter<'t, &'s str>,
}

impl<'de> DeserializeSeed<'de> for Seed<'_, '_, '_> {
    type Value = Json;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_, '_, '_> {
    type Value = Json;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(
            self.numbers
                .next()
                .map_or_else(|| v.to_string(), |t| t.to_string()),
        ))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(
            self.numbers
                .next()
                .map_or_else(|| v.to_string(), |t| t.to_string()),
        ))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Number(
            self.numbers
                .next()
                .map_or_else(|| v.to_string(), |t| t.to_string()),
        ))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_string()))
    }

    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Seed {
            numbers: &mut *self.numbers,
        })? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Seed {
                numbers: &mut *self.numbers,
            })?;
            members.push((key, value));
        }
        Ok(Json::Object(members))
    }
}

impl Json {
    /// One JSON value, nothing after it but whitespace (serde_json refuses nesting deeper
    /// than 128, so the tree and its printers recurse at most that deep).
    pub fn parse(text: &str) -> Option<Json> {
        let spans = number_spans(text);
        let texts: Vec<&str> = spans
            .iter()
            .map(|&(a, b)| text.get(a..b).unwrap_or("0"))
            .collect();
        match Self::parse_with(text, &texts) {
            Err(e) if e.to_string().contains("number out of range") => {
                // Jackson reads 9.6E400 as an infinite double; serde_json refuses it. The
                // numbers keep their own texts, so a stand-in for serde_json is enough.
                let mut patched = String::with_capacity(text.len());
                let mut last = 0;
                for (&(a, b), t) in spans.iter().zip(&texts) {
                    if t.parse::<f64>().is_ok_and(f64::is_infinite) {
                        patched.push_str(text.get(last..a).unwrap_or(""));
                        patched.push('0');
                        last = b;
                    }
                }
                patched.push_str(text.get(last..).unwrap_or(""));
                Self::parse_with(&patched, &texts).ok()
            }
            other => other.ok(),
        }
    }

    fn parse_with(text: &str, numbers: &[&str]) -> Result<Json, serde_json::Error> {
        let mut numbers = numbers.iter();
        let mut de = serde_json::Deserializer::from_str(text);
        let value = Seed {
            numbers: &mut numbers,
        }
        .deserialize(&mut de)?;
        de.end()?;
        Ok(value)
    }

    /// Trino's json_parse text: sorted keys, duplicates folded (the last wins).
    pub fn canonical(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, true);
        out
    }

    /// json_extract's text of a sub-value: document order, duplicates kept.
    pub fn compact(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, false);
        out
    }

    fn write(&self, out: &mut String, sorted: bool) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(text) => out.push_str(&number_text(text)),
            Json::String(s) => write_string(out, s),
            Json::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out, sorted);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                let mut shown: Vec<&(String, Json)> = members.iter().collect();
                if sorted {
                    // Jackson's TreeMap: String.compareTo, UTF-16 code units.
                    shown.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
                    // Stable sort: among equal keys the last one written is the last here.
                    let mut folded: Vec<&(String, Json)> = Vec::with_capacity(shown.len());
                    for m in shown {
                        match folded.last_mut() {
                            Some(last) if last.0 == m.0 => *last = m,
                            _ => folded.push(m),
                        }
                    }
                    shown = folded;
                }
                for (i, (k, v)) in shown.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(out, k);
                    out.push(':');
                    v.write(out, sorted);
                }
                out.push('}');
            }
        }
    }

    /// The value as a number, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(t) => t.parse().ok(),
            _ => None,
        }
    }

    /// An integer number (no fraction or exponent written) that fits a bigint.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Number(t) if is_integer_text(t) => t.parse().ok(),
            _ => None,
        }
    }
}

fn is_integer_text(t: &str) -> bool {
    !t.contains(['.', 'e', 'E'])
}

/// A number as Jackson writes what it read: an integer as its digits (`-0` is 0), any other
/// number as the double it is, printed by `Double.toString` (`1.0E20`); one too large for a
/// double is written as Jackson writes infinity, the string "Infinity".
pub fn number_text(text: &str) -> String {
    if is_integer_text(text) {
        return if text == "-0" {
            "0".into()
        } else {
            text.into()
        };
    }
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() => super::java_double(x),
        Ok(x) if x > 0.0 => "\"Infinity\"".into(),
        Ok(_) => "\"-Infinity\"".into(),
        Err(_) => "null".into(),
    }
}

/// A JSON string as Jackson writes it.
pub fn write_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A SQL string as a JSON string's text (`CAST(varchar AS json)`).
pub fn string_text(s: &str) -> String {
    let mut out = String::new();
    write_string(&mut out, s);
    out
}

/// The canonical text of a JSON text, or None when it is not one JSON value.
pub fn canonical_text(text: &str) -> Option<String> {
    Json::parse(text).map(|j| j.canonical())
}

/// json_parse's error (JsonFunctions.jsonParse).
pub fn not_json(text: &str) -> rusqlite::Error {
    fail(
        ErrorName::InvalidFunctionArgument,
        format!("Cannot convert value to JSON: '{text}'"),
    )
}

pub(super) fn text_arg(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(super::java_double(r)),
        ValueRef::Null => None,
    }
}

/// Parses a function's JSON argument after asking the memory budget for its tree.
fn parse_arg(text: &str) -> rusqlite::Result<Option<Json>> {
    reserve(text.len())?;
    Ok(Json::parse(text))
}

/// A path of json_extract (JsonPathTokenizer): `$` followed by `.name` (letters, digits, `_`,
/// `:`), `[name]` (letters, digits, `_`) or `["quoted"]` (with `\"` and `\\`), one token each.
pub fn extract_path(path: &str) -> Result<Vec<String>, rusqlite::Error> {
    let invalid = || {
        fail(
            ErrorName::InvalidFunctionArgument,
            format!("Invalid JSON path: '{path}'"),
        )
    };
    let chars: Vec<char> = path.chars().collect();
    if chars.first() != Some(&'$') {
        return Err(invalid());
    }
    let unquoted = |c: char, colon: bool| c == '_' || c.is_alphanumeric() || (colon && c == ':');
    let mut tokens = Vec::new();
    let mut i = 1;
    while i < chars.len() {
        match chars[i] {
            '.' => {
                let start = i + 1;
                i = start;
                while i < chars.len() && unquoted(chars[i], true) {
                    i += 1;
                }
                if i == start {
                    return Err(invalid());
                }
                tokens.push(chars[start..i].iter().collect());
            }
            '[' => {
                i += 1;
                let token: String = if chars.get(i) == Some(&'"') {
                    i += 1;
                    let mut token = String::new();
                    loop {
                        match chars.get(i) {
                            None => return Err(invalid()),
                            Some('"') => break,
                            Some('\\') => match chars.get(i + 1) {
                                Some(c @ ('"' | '\\')) => {
                                    token.push(*c);
                                    i += 2;
                                }
                                _ => return Err(invalid()),
                            },
                            Some(c) => {
                                token.push(*c);
                                i += 1;
                            }
                        }
                    }
                    i += 1;
                    token
                } else {
                    let start = i;
                    while i < chars.len() && unquoted(chars[i], false) {
                        i += 1;
                    }
                    if i == start {
                        return Err(invalid());
                    }
                    chars[start..i].iter().collect()
                };
                if chars.get(i) != Some(&']') {
                    return Err(invalid());
                }
                i += 1;
                tokens.push(token);
            }
            _ => return Err(invalid()),
        }
    }
    Ok(tokens)
}

/// The value at `tokens` (JsonExtract: a token names an object member, or, when it is a
/// number, an array element), if there is one.
fn extract<'j>(json: &'j Json, tokens: &[String]) -> Option<&'j Json> {
    let mut at = json;
    for token in tokens {
        at = match at {
            Json::Object(members) => &members.iter().find(|(k, _)| k == token)?.1,
            Json::Array(items) => items.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(at)
}

/// json_extract_scalar's text of a value: a scalar's text as written, else none.
fn scalar_text(j: &Json) -> Option<String> {
    match j {
        Json::Bool(b) => Some(b.to_string()),
        Json::Number(t) => Some(t.clone()),
        Json::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// A JSON text and a path, both present: (json, path tokens). `None` when either is NULL or
/// the text is not JSON (JsonExtract answers NULL then).
fn json_and_path(
    ctx: &rusqlite::functions::Context<'_>,
) -> rusqlite::Result<Option<(Json, Vec<String>)>> {
    let (Some(text), Some(path)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) else {
        return Ok(None);
    };
    let tokens = extract_path(&path)?;
    Ok(parse_arg(&text)?.map(|j| (j, tokens)))
}

/// json_array_contains(json, value): the value's kind decides which elements can match
/// (JsonFunctions: a bigint matches integer tokens only, a double floating ones only).
fn array_contains(json: &Json, value: ValueRef<'_>, kind: &str) -> Option<bool> {
    let Json::Array(items) = json else {
        return None;
    };
    Some(items.iter().any(|item| match (kind, item, value) {
        ("boolean", Json::Bool(b), ValueRef::Integer(v)) => *b == (v != 0),
        ("bigint", Json::Number(_), ValueRef::Integer(v)) => item.as_i64() == Some(v),
        ("double", Json::Number(t), v) => {
            let x = match v {
                ValueRef::Real(x) => x,
                ValueRef::Integer(i) => i as f64,
                _ => return false,
            };
            !is_integer_text(t) && x.is_finite() && item.as_f64() == Some(x)
        }
        ("varchar", Json::String(s), ValueRef::Text(v)) => s.as_bytes() == v,
        _ => false,
    }))
}

/// json_array_get's broken semantics (docs functions/json: a string element comes back
/// unquoted, not as JSON), with negative indexes from the end.
fn array_get(json: &Json, index: i64) -> Option<String> {
    let Json::Array(items) = json else {
        return None;
    };
    let len = items.len() as i64;
    let i = if index < 0 {
        len.checked_add(index)?
    } else {
        index
    };
    match items.get(usize::try_from(i).ok()?)? {
        Json::Null => None,
        Json::String(s) => Some(s.clone()),
        other => Some(other.compact()),
    }
}

/// Registers the json_* functions' `qm_*` implementations.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    conn.create_scalar_function("qm_json_parse", 1, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(None);
        };
        reserve(text.len())?;
        canonical_text(&text)
            .map(Some)
            .ok_or_else(|| not_json(&text))
    })?;
    conn.create_scalar_function("qm_json_extract", 2, FLAGS, |ctx| {
        Ok(json_and_path(ctx)?.and_then(|(j, tokens)| extract(&j, &tokens).map(Json::compact)))
    })?;
    conn.create_scalar_function("qm_json_extract_scalar", 2, FLAGS, |ctx| {
        Ok(json_and_path(ctx)?.and_then(|(j, tokens)| extract(&j, &tokens).and_then(scalar_text)))
    })?;
    conn.create_scalar_function("qm_json_size", 2, FLAGS, |ctx| {
        Ok(json_and_path(ctx)?.and_then(|(j, tokens)| {
            extract(&j, &tokens).map(|v| match v {
                Json::Array(items) => items.len() as i64,
                Json::Object(members) => members.len() as i64,
                _ => 0,
            })
        }))
    })?;
    conn.create_scalar_function("qm_json_array_length", 1, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(None);
        };
        Ok(parse_arg(&text)?.and_then(|j| match j {
            Json::Array(items) => Some(items.len() as i64),
            _ => None,
        }))
    })?;
    conn.create_scalar_function("qm_json_array_contains", 3, FLAGS, |ctx| {
        let (Some(text), value) = (text_arg(ctx.get_raw(0)), ctx.get_raw(1)) else {
            return Ok(None);
        };
        if matches!(value, ValueRef::Null) {
            return Ok(None);
        }
        let kind: String = ctx.get(2)?;
        Ok(parse_arg(&text)?.and_then(|j| array_contains(&j, value, &kind)))
    })?;
    conn.create_scalar_function("qm_json_array_get", 2, FLAGS, |ctx| {
        let (Some(text), ValueRef::Integer(index)) = (text_arg(ctx.get_raw(0)), ctx.get_raw(1))
        else {
            return Ok(None);
        };
        Ok(parse_arg(&text)?.and_then(|j| array_get(&j, index)))
    })?;
    conn.create_scalar_function("qm_is_json_scalar", 1, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(None);
        };
        match parse_arg(&text)? {
            Some(j) => Ok(Some(!matches!(j, Json::Array(_) | Json::Object(_)))),
            None => Err(fail(
                ErrorName::InvalidFunctionArgument,
                format!("Invalid JSON value: {text}"),
            )),
        }
    })?;
    conn.create_scalar_function("qm_json_from", 2, FLAGS, |ctx| {
        let kind: String = ctx.get(1)?;
        Ok(scalar_to_json(ctx.get_raw(0), &kind))
    })?;
    conn.create_scalar_function("qm_json_to", 3, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(Value::Null);
        };
        let kind: String = ctx.get(1)?;
        let try_cast: bool = ctx.get(2)?;
        match json_to_scalar(&text, &kind) {
            Err(_) if try_cast => Ok(Value::Null),
            other => other,
        }
    })?;
    conn.create_scalar_function("qm_json_exists", 4, FLAGS, |ctx| {
        let (Some(input), Some(path)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let vars = text_arg(ctx.get_raw(2)).unwrap_or_default();
        let on_error: String = ctx.get(3)?;
        match sql_json_items(&input, &path, &vars)? {
            Ok(items) => Ok(Some(!items.is_empty())),
            Err(e) => match on_error.as_str() {
                "true" => Ok(Some(true)),
                "false" => Ok(Some(false)),
                "unknown" => Ok(None),
                _ => Err(e.error()),
            },
        }
    })?;
    conn.create_scalar_function("qm_json_value", 7, FLAGS, |ctx| {
        let (Some(input), Some(path)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) else {
            return Ok(Value::Null);
        };
        let vars = text_arg(ctx.get_raw(2)).unwrap_or_default();
        let kind: String = ctx.get(3)?;
        let (on_empty, on_error): (String, String) = (ctx.get(4)?, ctx.get(5)?);
        let outcome_only: bool = ctx.get(6)?;
        let outcome = json_value(&input, &path, &vars, &kind)?;
        if outcome_only {
            return Ok(Value::Integer(match outcome {
                Ok(_) => 0,
                Err(SqlJsonError::Empty(_)) if on_empty == "default" => 1,
                Err(SqlJsonError::Failed(_)) if on_error == "default" => 2,
                Err(_) => 0,
            }));
        }
        match outcome {
            Ok(v) => Ok(v),
            Err(SqlJsonError::Empty(e)) if on_empty == "error" => Err(e),
            Err(SqlJsonError::Empty(_)) => Ok(Value::Null),
            Err(e) if on_error == "error" => Err(e.error()),
            Err(_) => Ok(Value::Null),
        }
    })?;
    conn.create_scalar_function("qm_json_query", 7, FLAGS, |ctx| {
        let (Some(input), Some(path)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let vars = text_arg(ctx.get_raw(2)).unwrap_or_default();
        let wrapper: String = ctx.get(3)?;
        let omit_quotes: bool = ctx.get(4)?;
        let (on_empty, on_error): (String, String) = (ctx.get(5)?, ctx.get(6)?);
        let behave = |b: &str, e: rusqlite::Error| -> rusqlite::Result<Option<String>> {
            match b {
                "empty array" => Ok(Some("[]".into())),
                "empty object" => Ok(Some("{}".into())),
                "error" => Err(e),
                _ => Ok(None),
            }
        };
        let items = match sql_json_items(&input, &path, &vars)? {
            Ok(items) => items,
            Err(e) => return behave(&on_error, e.error()),
        };
        if items.is_empty() {
            return behave(
                &on_empty,
                fail(
                    ErrorName::JsonOutputConversionError,
                    "conversion from JSON failed: JSON path found no items",
                ),
            );
        }
        let wrap = match wrapper.as_str() {
            "unconditional" => true,
            "conditional" => {
                !(items.len() == 1 && matches!(items[0], Json::Array(_) | Json::Object(_)))
            }
            _ => false,
        };
        if wrap {
            return Ok(Some(Json::Array(items).compact()));
        }
        match items.as_slice() {
            [Json::String(s)] if omit_quotes => Ok(Some(s.clone())),
            [one] => Ok(Some(one.compact())),
            _ => behave(
                &on_error,
                fail(
                    ErrorName::JsonOutputConversionError,
                    "conversion from JSON failed: JSON path found multiple items",
                ),
            ),
        }
    })?;
    conn.create_scalar_function("qm_json_array", -1, FLAGS, |ctx| {
        let absent: bool = ctx.get(0)?;
        let mut out = String::from("[");
        let mut first = true;
        let mut i = 1;
        while i + 1 < ctx.len() {
            let kind: String = ctx.get(i)?;
            let value = ctx.get_raw(i + 1);
            i += 2;
            let Some(text) = element_json(value, &kind)? else {
                if absent {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                out.push_str("null");
                continue;
            };
            reserve(out.len() + text.len())?;
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str(&text);
        }
        out.push(']');
        Ok(out)
    })?;
    conn.create_scalar_function("qm_json_object", -1, FLAGS, |ctx| {
        let absent: bool = ctx.get(0)?;
        let unique: bool = ctx.get(1)?;
        let mut out = String::from("{");
        let mut keys = std::collections::HashSet::new();
        let mut first = true;
        let mut i = 2;
        while i + 2 < ctx.len() {
            let Some(key) = text_arg(ctx.get_raw(i)) else {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    "null value passed for JSON object key to JSON_OBJECT function",
                ));
            };
            let kind: String = ctx.get(i + 1)?;
            let value = element_json(ctx.get_raw(i + 2), &kind)?;
            i += 3;
            if value.is_none() && absent {
                continue;
            }
            if unique && !keys.insert(key.clone()) {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    "duplicate key passed to JSON_OBJECT function",
                ));
            }
            let value = value.unwrap_or_else(|| "null".into());
            reserve(out.len() + key.len() + value.len())?;
            if !first {
                out.push(',');
            }
            first = false;
            write_string(&mut out, &key);
            out.push(':');
            out.push_str(&value);
        }
        out.push('}');
        Ok(out)
    })?;
    conn.create_scalar_function("qm_json_from_complex", 2, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let ty = complex_type(&ctx.get::<String>(1)?)?;
        reserve(text.len().saturating_mul(2))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|_| {
            fail(
                ErrorName::GenericInternalError,
                "A complex value is not valid",
            )
        })?;
        Ok(Some(element_to_json(&value, &ty).compact()))
    })?;
    conn.create_scalar_function("qm_json_to_complex", 3, FLAGS, |ctx| {
        let Some(text) = text_arg(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let ty = complex_type(&ctx.get::<String>(1)?)?;
        let try_cast: bool = ctx.get(2)?;
        reserve(text.len().saturating_mul(2))?;
        let converted = Json::parse(&text)
            .ok_or_else(|| format!("Cannot cast to {ty}. Invalid JSON\n{text}"))
            .and_then(|j| {
                json_to_element(&j, &ty).map_err(|m| format!("Cannot cast to {ty}. {m}\n{text}"))
            });
        match converted {
            Ok(serde_json::Value::Null) => Ok(None),
            Ok(v) => Ok(Some(v.to_string())),
            Err(_) if try_cast => Ok(None),
            Err(m) => Err(fail(ErrorName::InvalidCastArgument, m)),
        }
    })?;
    Ok(())
}

/// `CAST(x AS json)` of a scalar (JsonOperators / docs "Cast to JSON"): `kind` as qm_cast
/// names it.
fn scalar_to_json(v: ValueRef<'_>, kind: &str) -> Option<String> {
    let num = |v: ValueRef<'_>| match v {
        ValueRef::Integer(i) => Some(i as f64),
        ValueRef::Real(r) => Some(r),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    };
    let non_finite = |x: f64| {
        if x.is_nan() {
            "\"NaN\"".to_string()
        } else if x > 0.0 {
            "\"Infinity\"".to_string()
        } else {
            "\"-Infinity\"".to_string()
        }
    };
    if matches!(v, ValueRef::Null) {
        return None;
    }
    let (kind, arg) = kind.split_once(':').unwrap_or((kind, ""));
    Some(match kind {
        "varchar" => string_text(&text_arg(v)?),
        "boolean" => (num(v)? != 0.0).to_string(),
        "bigint" | "integer" | "smallint" | "tinyint" => match v {
            ValueRef::Integer(i) => i.to_string(),
            other => (num(other)?.round() as i64).to_string(),
        },
        "double" => {
            let x = num(v)?;
            if x.is_finite() {
                super::java_double(x)
            } else {
                non_finite(x)
            }
        }
        "real" => {
            let x = num(v)? as f32;
            if x.is_finite() {
                super::super::java_number::float_to_string(x)
            } else {
                non_finite(f64::from(x))
            }
        }
        "decimal" => {
            let scale = arg
                .split(':')
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            super::super::encode::decimal_text(num(v)?, scale)
        }
        _ => return None,
    })
}

/// `CAST(json AS kind)` (JsonOperators, JsonUtil.currentTokenAs…): JSON null is NULL, a
/// string or number converts as the SQL value would, an array or object is an error.
fn json_to_scalar(text: &str, kind: &str) -> rusqlite::Result<Value> {
    let shown_kind = match kind.split_once(':') {
        Some(("decimal", arg)) => {
            let (s, p) = super::cast::decimal_kind(arg);
            format!("decimal({p},{s})")
        }
        Some(("varchar", n)) => format!("varchar({n})"),
        Some((k, _)) => k.to_string(),
        None => kind.to_string(),
    };
    // JsonOperators.castToVarchar(x): a text longer than x is a bad cast of the JSON.
    if let Some(("varchar", n)) = kind.split_once(':') {
        let limit: usize = n.parse().unwrap_or(usize::MAX);
        return match json_to_scalar(text, "varchar")? {
            Value::Text(t) if t.chars().count() > limit => Err(fail(
                ErrorName::InvalidCastArgument,
                format!("Cannot cast '{text}' to {shown_kind}"),
            )),
            other => Ok(other),
        };
    }
    let cannot = || {
        fail(
            ErrorName::InvalidCastArgument,
            format!("Cannot cast '{text}' to {shown_kind}"),
        )
    };
    reserve(text.len())?;
    let json = Json::parse(text).ok_or_else(cannot)?;
    let to_kind = kind.split_once(':').map_or(kind, |(k, _)| k);
    match json {
        Json::Null => Ok(Value::Null),
        Json::Array(_) | Json::Object(_) => Err(cannot()),
        Json::String(s) => super::cast::cast(ValueRef::Text(s.as_bytes()), "varchar", kind),
        Json::Bool(b) => match to_kind {
            "varchar" => Ok(Value::Text(b.to_string())),
            _ => super::cast::cast(ValueRef::Integer(i64::from(b)), "boolean", kind),
        },
        Json::Number(t) if is_integer_text(&t) => match (to_kind, t.parse::<i64>()) {
            ("varchar", _) => Ok(Value::Text(number_text(&t))),
            (_, Ok(i)) => super::cast::cast(ValueRef::Integer(i), "bigint", kind),
            // Beyond a bigint: out of range for every integer type, a double for the rest.
            _ => match to_kind {
                "bigint" | "integer" | "smallint" | "tinyint" => Err(fail(
                    ErrorName::NumericValueOutOfRange,
                    format!("Out of range for {to_kind}: {t}"),
                )),
                _ => super::cast::cast(
                    ValueRef::Real(t.parse::<f64>().map_err(|_| cannot())?),
                    "double",
                    kind,
                ),
            },
        },
        Json::Number(t) => {
            let x: f64 = t.parse().map_err(|_| cannot())?;
            super::cast::cast(ValueRef::Real(x), "double", kind)
        }
    }
}

/// Why a SQL/JSON function found no value: the path found nothing (ON EMPTY applies), or
/// input, path or result failed (ON ERROR applies).
enum SqlJsonError {
    Empty(rusqlite::Error),
    Failed(rusqlite::Error),
}

impl SqlJsonError {
    fn error(self) -> rusqlite::Error {
        match self {
            SqlJsonError::Empty(e) | SqlJsonError::Failed(e) => e,
        }
    }
}

/// The items of an SQL/JSON path over an input text; the outer error is one no clause
/// handles (memory), the inner one is handled by ON ERROR.
fn sql_json_items(
    input: &str,
    path: &str,
    vars: &str,
) -> rusqlite::Result<Result<Vec<Json>, SqlJsonError>> {
    // The path was checked when the query was analysed; a failure here is the same refusal.
    let path = super::json_path::Path::parse(path).map_err(|_| {
        fail(
            ErrorName::InvalidPath,
            format!("Invalid JSON path: '{path}'"),
        )
    })?;
    let Some(json) = parse_arg(input)? else {
        return Ok(Err(SqlJsonError::Failed(fail(
            ErrorName::JsonInputConversionError,
            "conversion to JSON failed: ",
        ))));
    };
    // The PASSING values: a JSON object the analysis built (`{}` without PASSING).
    let vars = match parse_arg(vars)? {
        Some(Json::Object(members)) => members,
        _ => Vec::new(),
    };
    Ok(path.evaluate_with(&json, &vars).map_err(|e| {
        SqlJsonError::Failed(fail(
            ErrorName::PathEvaluationError,
            format!("path evaluation failed: structural error: {e}"),
        ))
    }))
}

/// json_value: the one scalar item the path finds, as a value of `kind` (qm_cast's names).
fn json_value(
    input: &str,
    path: &str,
    vars: &str,
    kind: &str,
) -> rusqlite::Result<Result<Value, SqlJsonError>> {
    let result_error = |m: &str| {
        SqlJsonError::Failed(fail(
            ErrorName::JsonValueResultError,
            format!("cannot extract SQL scalar from JSON: {m}"),
        ))
    };
    let items = match sql_json_items(input, path, vars)? {
        Ok(items) => items,
        Err(e) => return Ok(Err(e)),
    };
    let item = match items.as_slice() {
        [] => {
            return Ok(Err(SqlJsonError::Empty(fail(
                ErrorName::JsonValueResultError,
                "cannot extract SQL scalar from JSON: JSON path found no items",
            ))));
        }
        [one] => one,
        _ => return Ok(Err(result_error("JSON path found multiple items"))),
    };
    let to_kind = kind.split_once(':').map_or(kind, |(k, _)| k);
    let converted = match item {
        Json::Null => return Ok(Ok(Value::Null)),
        Json::Array(_) | Json::Object(_) => {
            return Ok(Err(result_error(
                "JSON path found an item that cannot be converted to an SQL value",
            )));
        }
        Json::String(s) => super::cast::cast(ValueRef::Text(s.as_bytes()), "varchar", kind),
        Json::Bool(b) if to_kind == "varchar" => {
            super::cast::cast(ValueRef::Text(b.to_string().as_bytes()), "varchar", kind)
        }
        Json::Bool(b) => super::cast::cast(ValueRef::Integer(i64::from(*b)), "boolean", kind),
        Json::Number(t) if to_kind == "varchar" => {
            // An exact number keeps its digits (a decimal's text); a double prints as Java's.
            let text = if t.contains(['e', 'E']) {
                number_text(t)
            } else {
                t.clone()
            };
            super::cast::cast(ValueRef::Text(text.as_bytes()), "varchar", kind)
        }
        Json::Number(t) => match t.parse::<i64>() {
            Ok(i) if is_integer_text(t) => super::cast::cast(ValueRef::Integer(i), "bigint", kind),
            _ => match t.parse::<f64>() {
                Ok(x) => super::cast::cast(ValueRef::Real(x), "double", kind),
                Err(_) => return Ok(Err(result_error("JSON path found a number out of range"))),
            },
        },
    };
    Ok(converted.map_err(SqlJsonError::Failed))
}

/// json_array / json_object's JSON text of one value of `kind`: `json` (a JSON value, or
/// JSON text given FORMAT JSON, embedded), `varchar` (a JSON string), `boolean`, numbers;
/// `None` for NULL.
fn element_json(v: ValueRef<'_>, kind: &str) -> rusqlite::Result<Option<String>> {
    if matches!(v, ValueRef::Null) {
        return Ok(None);
    }
    if kind == "json" {
        let Some(text) = text_arg(v) else {
            return Ok(None);
        };
        reserve(text.len())?;
        return Json::parse(&text)
            .map(|j| Some(j.compact()))
            .ok_or_else(|| {
                fail(
                    ErrorName::JsonInputConversionError,
                    "conversion to JSON failed: ",
                )
            });
    }
    Ok(scalar_to_json(v, kind))
}

fn complex_type(text: &str) -> rusqlite::Result<TrinoType> {
    TrinoType::parse(text).map_err(|m| fail(ErrorName::GenericInternalError, m))
}

/// A number element as a JSON number item.
fn number_item(v: &serde_json::Value) -> Option<f64> {
    match v {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => s.parse().ok(),
        serde_json::Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

/// A double (or real) as the JSON Trino's cast writes: Java's text, non-finite as strings.
fn double_item(x: f64, real: bool) -> Json {
    if !x.is_finite() {
        let name = if x.is_nan() {
            "NaN"
        } else if x > 0.0 {
            "Infinity"
        } else {
            "-Infinity"
        };
        return Json::String(name.into());
    }
    if real {
        Json::Number(super::super::java_number::float_to_string(x as f32))
    } else {
        Json::Number(super::java_double(x))
    }
}

/// `CAST(array/map/row AS json)` (ArrayToJsonCast, MapToJsonCast, RowToJsonCast): a value
/// in element form (complex-design.md) as JSON. A map's keys are sorted (MapToJsonCast's
/// TreeMap); a row with field names is an object in field order, one without an array.
fn element_to_json(v: &serde_json::Value, ty: &TrinoType) -> Json {
    use serde_json::Value as V;
    match (ty, v) {
        (_, V::Null) => Json::Null,
        (TrinoType::Boolean, v) => Json::Bool(number_item(v).is_some_and(|x| x != 0.0)),
        (t, V::Number(n)) if t.is_integral() => Json::Number(n.as_i64().map_or_else(
            || n.as_f64().unwrap_or(0.0).round().to_string(),
            |i| i.to_string(),
        )),
        (TrinoType::Double, v) => number_item(v).map_or(Json::Null, |x| double_item(x, false)),
        (TrinoType::Real, v) => number_item(v).map_or(Json::Null, |x| double_item(x, true)),
        (TrinoType::Decimal { scale, .. }, v) => number_item(v).map_or(Json::Null, |x| {
            Json::Number(super::super::encode::decimal_text(x, *scale))
        }),
        (TrinoType::Json, V::String(text)) => Json::parse(text).unwrap_or(Json::Null),
        (TrinoType::Array(e), V::Array(items)) => {
            Json::Array(items.iter().map(|i| element_to_json(i, e)).collect())
        }
        (TrinoType::Map(k, val), V::Array(pairs)) => {
            let mut members: Vec<(String, Json)> = pairs
                .iter()
                .filter_map(|pair| {
                    let key = match element_to_json(pair.get(0)?, k) {
                        Json::String(s) => s,
                        other => other.compact(),
                    };
                    Some((key, element_to_json(pair.get(1)?, val)))
                })
                .collect();
            members.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            Json::Object(members)
        }
        (TrinoType::Row(fields), V::Array(items)) => {
            let values = items
                .iter()
                .zip(fields)
                .map(|(i, (_, t))| element_to_json(i, t));
            if fields.iter().all(|(name, _)| name.is_some()) {
                Json::Object(
                    fields
                        .iter()
                        .map(|(name, _)| name.clone().unwrap_or_default())
                        .zip(values)
                        .collect(),
                )
            } else {
                Json::Array(values.collect())
            }
        }
        (_, V::String(s)) => Json::String(s.clone()),
        (_, V::Bool(b)) => Json::Bool(*b),
        (_, V::Number(n)) => Json::Number(n.to_string()),
        _ => Json::Null,
    }
}

/// A scalar JSON item as the element of type `ty` (JsonToArrayCast and friends read each
/// element as the scalar cast from json would).
fn scalar_element(j: &Json, ty: &TrinoType) -> Result<serde_json::Value, String> {
    let kind = match ty {
        TrinoType::Varchar(_) | TrinoType::Char(_) => "varchar".to_string(),
        TrinoType::Decimal { precision, scale } => format!("decimal:{scale}:{precision}"),
        t => t.raw_type().to_string(),
    };
    let value = json_to_scalar(&j.canonical(), &kind).map_err(|e| {
        let text = e.to_string();
        text.rsplit_once('!')
            .map_or(text.clone(), |(_, m)| m.to_string())
    })?;
    Ok(match value {
        Value::Null => serde_json::Value::Null,
        Value::Integer(i) => serde_json::Value::from(i),
        Value::Real(x) => serde_json::Number::from_f64(x).map_or_else(
            || serde_json::Value::from(x.to_string()),
            serde_json::Value::Number,
        ),
        Value::Text(t) => serde_json::Value::from(t),
        Value::Blob(_) => serde_json::Value::Null,
    })
}

/// `CAST(json AS array/map/row)` (docs "Cast from JSON"): the element form of the value.
fn json_to_element(j: &Json, ty: &TrinoType) -> Result<serde_json::Value, String> {
    use serde_json::Value as V;
    let got = |j: &Json| {
        let text = j.compact();
        text.chars().take(1).collect::<String>()
    };
    match (ty, j) {
        (TrinoType::Json, j) => Ok(V::String(j.canonical())),
        (_, Json::Null) => Ok(V::Null),
        (TrinoType::Array(e), Json::Array(items)) => items
            .iter()
            .map(|i| json_to_element(i, e))
            .collect::<Result<Vec<_>, _>>()
            .map(V::Array),
        (TrinoType::Array(_), other) => {
            Err(format!("Expected a json array, but got {}", got(other)))
        }
        (TrinoType::Map(k, v), Json::Object(members)) => {
            let mut pairs: Vec<V> = Vec::with_capacity(members.len());
            let mut seen: Vec<V> = Vec::with_capacity(members.len());
            for (key, value) in members {
                let key = scalar_element(&Json::String(key.clone()), k)?;
                if key.is_null() {
                    return Err("Map keys cannot be null".into());
                }
                if seen.contains(&key) {
                    return Err(format!("Duplicate map keys are not allowed: {key}"));
                }
                seen.push(key.clone());
                pairs.push(V::Array(vec![key, json_to_element(value, v)?]));
            }
            Ok(V::Array(pairs))
        }
        (TrinoType::Map(..), other) => {
            Err(format!("Expected a json object, but got {}", got(other)))
        }
        (TrinoType::Row(fields), Json::Array(items)) => {
            if items.len() != fields.len() {
                return Err(format!(
                    "Expected a json array with {} elements, but got {}",
                    fields.len(),
                    items.len()
                ));
            }
            items
                .iter()
                .zip(fields)
                .map(|(i, (_, t))| json_to_element(i, t))
                .collect::<Result<Vec<_>, _>>()
                .map(V::Array)
        }
        (TrinoType::Row(fields), Json::Object(members)) => fields
            .iter()
            .map(|(name, t)| {
                let name = name.as_deref().unwrap_or_default();
                let found = members.iter().rev().find(|(k, _)| k == name).or_else(|| {
                    members
                        .iter()
                        .rev()
                        .find(|(k, _)| k.eq_ignore_ascii_case(name))
                });
                match found {
                    Some((_, v)) => json_to_element(v, t),
                    None => Ok(V::Null),
                }
            })
            .collect::<Result<Vec<_>, _>>()
            .map(V::Array),
        (TrinoType::Row(_), other) => Err(format!(
            "Expected a json array or object, but got {}",
            got(other)
        )),
        (TrinoType::Boolean, j) => {
            let v = scalar_element(j, ty)?;
            Ok(match v {
                V::Number(n) => V::from(n.as_i64().unwrap_or(0)),
                other => other,
            })
        }
        (t, j) => scalar_element(j, t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_text_is_json_parse_s() {
        // JsonFunctions.jsonParse: SORTED_MAPPER, no whitespace, doubles as Java prints them.
        for (input, canonical) in [
            ("[1, 2, 3]", "[1,2,3]"),
            (
                r#"{"b": 1, "a": {"d": [], "c": null}}"#,
                r#"{"a":{"c":null,"d":[]},"b":1}"#,
            ),
            (r#"{"a": 1, "a": 2}"#, r#"{"a":2}"#),
            (
                "[1.0, 1.50, 1e2, -0, 1e20, 0.0001]",
                "[1.0,1.5,100.0,0,1.0E20,1.0E-4]",
            ),
            (r#""tab\there \u00e9 \u0001""#, "\"tab\\there é \\u0001\""),
            ("  true ", "true"),
            ("92233720368547758071", "92233720368547758071"),
        ] {
            assert_eq!(canonical_text(input).as_deref(), Some(canonical), "{input}");
        }
        for bad in ["", "INVALID", r#""x": 1"#, "[1,]", "1 2", "{'a':1}"] {
            assert_eq!(canonical_text(bad), None, "{bad}");
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(canonical_text(&deep), None);
    }

    #[test]
    fn extract_paths_follow_json_path_tokenizer() {
        assert_eq!(
            extract_path(r#"$.a[0]["b c"][d].e:f"#).ok(),
            Some(vec![
                "a".into(),
                "0".into(),
                "b c".into(),
                "d".into(),
                "e:f".into()
            ])
        );
        for bad in [
            "", " ", ".", "null", "$.", "$[", "$[]", "$.a b", r#"$["a]"#, "$[a.b]",
        ] {
            assert!(extract_path(bad).is_err(), "{bad}");
        }
        let j = Json::parse(r#"{"a": [10, {"b": "x"}], "0": 5}"#).unwrap_or(Json::Null);
        let tokens = |p: &str| extract_path(p).unwrap_or_default();
        assert_eq!(
            extract(&j, &tokens("$.a[1].b")),
            Some(&Json::String("x".into()))
        );
        assert_eq!(extract(&j, &tokens("$.0")), Some(&Json::Number("5".into())));
        assert_eq!(extract(&j, &tokens("$.a[2]")), None);
    }

    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        /// Texts near JSON: its characters in any order, so that many parse.
        fn jsonish() -> impl Strategy<Value = String> {
            prop::collection::vec(
                prop::sample::select(vec![
                    "[",
                    "]",
                    "{",
                    "}",
                    ",",
                    ":",
                    "\"a\"",
                    "\"\\u00e9\"",
                    "1",
                    "-0",
                    "1.50",
                    "2e400",
                    "true",
                    "null",
                    " ",
                    "\"",
                    "\\",
                ]),
                0..24,
            )
            .prop_map(|parts| parts.concat())
        }

        fn pathish() -> impl Strategy<Value = String> {
            prop::collection::vec(
                prop::sample::select(vec![
                    "$",
                    ".a",
                    ".\"b\"",
                    ".*",
                    "..a",
                    "[",
                    "]",
                    "0",
                    "1",
                    "-1",
                    "last",
                    " - ",
                    " to ",
                    ",",
                    "[*]",
                    "?(",
                    "@",
                    " == ",
                    " > ",
                    ")",
                    "(",
                    "&&",
                    "||",
                    "!",
                    "exists(",
                    ".size()",
                    ".type()",
                    ".floor()",
                    "\"x\"",
                    "true",
                    "null",
                    " starts with ",
                ]),
                0..12,
            )
            .prop_map(|parts| format!("lax {}", parts.concat()))
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

            /// Paths near the language, over documents near JSON: never a panic, and strict
            /// mode finds nothing lax mode would not.
            #[test]
            fn paths_evaluate_without_panicking(path in pathish(), text in jsonish()) {
                let Ok(lax) = super::super::super::json_path::Path::parse(&path) else {
                    return Ok(());
                };
                if let Some(j) = Json::parse(&text) {
                    let _ = lax.evaluate(&j);
                    let strict = super::super::super::json_path::Path::parse(
                        &path.replacen("lax", "strict", 1),
                    );
                    if let Ok(strict) = strict {
                        let _ = strict.evaluate(&j);
                    }
                }
            }

            /// Never a panic; a canonical text is a fixed point of json_parse.
            #[test]
            fn parsing_never_panics_and_canonical_text_is_stable(text in jsonish()) {
                if let Some(canonical) = canonical_text(&text) {
                    prop_assert_eq!(canonical_text(&canonical), Some(canonical.clone()));
                }
            }

            #[test]
            fn arbitrary_text_and_paths_never_panic(text in any::<String>(), path in any::<String>()) {
                let _ = canonical_text(&text);
                let _ = extract_path(&path);
                if let (Ok(p), Some(j)) = (
                    super::super::super::json_path::Path::parse(&path),
                    Json::parse(&text),
                ) {
                    let _ = p.evaluate(&j);
                }
            }
        }
    }
}
