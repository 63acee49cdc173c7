//! The value model of the json type: [`Json`], read once from a JSON text with serde_json
//! keeping what Trino's Jackson parser sees (members in document order, duplicates too, and
//! every number's text as written), and its two printers:
//! - [`Json::canonical`]: json_parse / `JSON '…'` (JsonFunctions.jsonParse, Jackson's
//!   SORTED_MAPPER): no whitespace, object keys sorted (the last of duplicates wins), integers
//!   as written, other numbers as Java's `Double.toString`;
//! - [`Json::compact`]: json_extract's copy of a sub-value (Jackson `copyCurrentStructure`):
//!   the same, in document order.
//!
//! Strings are escaped as Jackson escapes them: `"`, `\`, and control characters (`\n`, `\t`,
//! `\r`, `\b`, `\f`, others as `\u00XX`); everything else as is.

use std::fmt::Write as _;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

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

pub(super) fn is_integer_text(t: &str) -> bool {
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
        Ok(x) if x.is_finite() => crate::udf::java_double(x),
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
}
