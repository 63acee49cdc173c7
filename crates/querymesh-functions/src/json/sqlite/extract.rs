//! json_extract and its kin (json_extract_scalar, json_size, json_array_*): the path of
//! json_extract (Trino's JsonPathTokenizer, not the SQL/JSON path language of `json_path`)
//! and what the functions read at it.

use querymesh_values::error::ErrorName;
use rusqlite::types::ValueRef;

use super::value::{Json, is_integer_text};
use super::{fail, parse_arg, text_arg};

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
pub(super) fn extract<'j>(json: &'j Json, tokens: &[String]) -> Option<&'j Json> {
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
pub(super) fn scalar_text(j: &Json) -> Option<String> {
    match j {
        Json::Bool(b) => Some(b.to_string()),
        Json::Number(t) => Some(t.clone()),
        Json::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// A JSON text and a path, both present: (json, path tokens). `None` when either is NULL or
/// the text is not JSON (JsonExtract answers NULL then).
pub(super) fn json_and_path(
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
pub(super) fn array_contains(json: &Json, value: ValueRef<'_>, kind: &str) -> Option<bool> {
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
pub(super) fn array_get(json: &Json, index: i64) -> Option<String> {
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
        // A number element keeps its text (Trino 476: `json_array_get('[1.50, 2]', 0)` is
        // 1.50, `json_array_get('[1e2]', 0)` 1e2); nested values are written compactly.
        Json::Number(text) => Some(text.clone()),
        other => Some(other.compact()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
