//! Trino's string functions where SQLite's differ, as `qm_*` SQLite functions: positions and
//! lengths in code points, case mapping of every code point, Java's whitespace for trim, and
//! replace/strpos/substr edge cases as trinodb/trino's `StringFunctions` computes them.

pub mod code_points;
pub mod metrics;
pub mod parts;
pub mod soundex;
pub mod split_to_map;
pub mod unicode_text;

use querymesh_values::error::ErrorName;
use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error};

use crate::udf::{FLAGS, define, fail, reserve};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_TRIM: SqliteFn = SqliteFn::new("qm_trim");
pub const QM_LIKE_CHECK: SqliteFn = SqliteFn::new("qm_like_check");

fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        _ => None,
    }
}

fn int(v: ValueRef<'_>) -> Option<i64> {
    match v {
        ValueRef::Integer(i) => Some(i),
        ValueRef::Real(r) => Some(r as i64),
        _ => None,
    }
}

/// `substr(s, start[, length])` (StringFunctions.substring): 1-based code points, a negative
/// start counts from the end, and 0, a start outside the string or a length ≤ 0 give ''.
pub fn substr(s: &str, start: i64, length: Option<i64>) -> String {
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len() as i64;
    if start == 0 || n == 0 || length.is_some_and(|l| l <= 0) {
        return String::new();
    }
    let from = if start > 0 { start - 1 } else { n + start };
    if from < 0 || from >= n {
        return String::new();
    }
    let to = match length {
        Some(l) => from.saturating_add(l).min(n),
        None => n,
    };
    chars[from as usize..to as usize].iter().collect()
}

/// `strpos(s, sub[, instance])`: the 1-based code point of the instance-th occurrence (from
/// the end when negative), 0 when there is none, 1 for an empty `sub`.
pub fn strpos(s: &str, sub: &str, instance: i64) -> Result<i64, Error> {
    if instance == 0 {
        return Err(fail(
            ErrorName::InvalidFunctionArgument,
            "'instance' must be a positive or negative number.",
        ));
    }
    if sub.is_empty() {
        return Ok(1);
    }
    // Overlapping occurrences count too (Slice.indexOf from the previous index + 1).
    let mut all = Vec::new();
    let mut from = 0;
    while let Some(i) = s.get(from..).and_then(|rest| rest.find(sub)) {
        all.push(from + i);
        from += i + s[from + i..].chars().next().map_or(1, char::len_utf8);
    }
    let wanted = instance.unsigned_abs() as usize;
    let index = if instance > 0 {
        all.get(wanted - 1)
    } else {
        all.len().checked_sub(wanted).and_then(|i| all.get(i))
    };
    Ok(index.map_or(0, |&byte| s[..byte].chars().count() as i64 + 1))
}

/// The bytes `replace(s, search, with)` gives, counted before it is built.
pub fn replaced_bytes(s: &str, search: &str, with: &str) -> usize {
    if search.is_empty() {
        return (s.chars().count().saturating_add(1))
            .saturating_mul(with.len())
            .saturating_add(s.len());
    }
    let matches = s.matches(search).count();
    (s.len() - matches * search.len()).saturating_add(matches.saturating_mul(with.len()))
}

/// `replace(s, search, with)`: an empty `search` puts `with` before every code point and at the
/// end, as Trino does.
pub fn replace(s: &str, search: &str, with: &str) -> String {
    if !search.is_empty() {
        return s.replace(search, with);
    }
    let mut out = String::with_capacity(replaced_bytes(s, search, with));
    out.push_str(with);
    for c in s.chars() {
        out.push(c);
        out.push_str(with);
    }
    out
}

/// Java's `Character.isWhitespace`, which Trino's trim uses: Unicode spaces except the
/// no-break ones, and the ASCII controls 0x09–0x0D and 0x1C–0x1F.
fn is_java_whitespace(c: char) -> bool {
    match c {
        '\u{A0}' | '\u{2007}' | '\u{202F}' => false,
        '\u{1C}'..='\u{1F}' => true,
        c => c.is_whitespace() && c != '\u{85}',
    }
}

/// trim (0), ltrim (1) or rtrim (2) of whitespace.
pub fn trim(s: &str, mode: i64) -> &str {
    match mode {
        1 => s.trim_start_matches(is_java_whitespace),
        2 => s.trim_end_matches(is_java_whitespace),
        _ => s.trim_matches(is_java_whitespace),
    }
}

/// Case mapping code point by code point (Java's `Character.toLowerCase(int)`): a character
/// whose full mapping is several characters (ß → SS) stays as it is.
pub fn map_case(s: &str, upper: bool) -> String {
    if s.is_ascii() {
        return if upper {
            s.to_ascii_uppercase()
        } else {
            s.to_ascii_lowercase()
        };
    }
    s.chars()
        .map(|c| {
            let mut mapped: Vec<char> = if upper {
                c.to_uppercase().collect()
            } else {
                c.to_lowercase().collect()
            };
            match mapped.len() {
                1 => mapped.pop().unwrap_or(c),
                _ => c,
            }
        })
        .collect()
}

/// Checks a LIKE pattern against its escape as Trino's LikePattern does.
pub fn check_like_escape(pattern: &str, escape: &str) -> Result<(), String> {
    let mut escapes = escape.chars();
    let (Some(e), None) = (escapes.next(), escapes.next()) else {
        return Err("Escape string must be a single character".into());
    };
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == e {
            match chars.next() {
                Some(n) if n == '%' || n == '_' || n == e => {}
                _ => {
                    return Err(
                        "Escape character must be followed by '%', '_' or the escape character itself"
                            .into(),
                    );
                }
            }
        }
    }
    Ok(())
}

fn arg(ctx: &Context<'_>, i: usize) -> Option<String> {
    text(ctx.get_raw(i))
}

/// Registers the string functions on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, "qm_substr", -1, FLAGS, |ctx| {
        let s = arg(ctx, 0);
        let start = int(ctx.get_raw(1));
        let length = if ctx.len() > 2 {
            int(ctx.get_raw(2)).map(Some)
        } else {
            Some(None)
        };
        Ok(match (s, start, length) {
            (Some(s), Some(start), Some(length)) => Some(substr(&s, start, length)),
            _ => None,
        })
    })?;
    define(conn, "qm_strpos", 3, FLAGS, |ctx| {
        match (arg(ctx, 0), arg(ctx, 1), int(ctx.get_raw(2))) {
            (Some(s), Some(sub), Some(instance)) => strpos(&s, &sub, instance).map(Some),
            _ => Ok(None),
        }
    })?;
    define(conn, "qm_replace", 3, FLAGS, |ctx| {
        Ok(match (arg(ctx, 0), arg(ctx, 1), arg(ctx, 2)) {
            (Some(s), Some(search), Some(with)) => {
                reserve(replaced_bytes(&s, &search, &with))?;
                Some(replace(&s, &search, &with))
            }
            _ => None,
        })
    })?;
    define(conn, QM_TRIM.name(), 2, FLAGS, |ctx| {
        Ok(match (arg(ctx, 0), int(ctx.get_raw(1))) {
            (Some(s), Some(mode)) => Some(trim(&s, mode).to_string()),
            _ => None,
        })
    })?;
    for (name, upper) in [("qm_lower", false), ("qm_upper", true)] {
        define(conn, name, 1, FLAGS, move |ctx| {
            let Some(s) = arg(ctx, 0) else {
                return Ok(None);
            };
            // A case mapping can grow a code point's encoding by one byte at most.
            reserve(s.len().saturating_add(s.len() / 2))?;
            Ok(Some(map_case(&s, upper)))
        })?;
    }
    define(conn, QM_LIKE_CHECK.name(), 2, FLAGS, |ctx| {
        match (arg(ctx, 0), arg(ctx, 1)) {
            (Some(pattern), Some(escape)) => check_like_escape(&pattern, &escape)
                .map(|()| Value::Integer(1))
                .map_err(|m| fail(ErrorName::InvalidFunctionArgument, m)),
            _ => Ok(Value::Null),
        }
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substr_and_strpos_follow_trino() {
        assert_eq!(substr("Quadratically", -5, Some(3)), "cal");
        assert_eq!(substr("Quadratically", -14, None), "");
        assert_eq!(substr("Quadratically", 5, Some(100)), "ratically");
        assert_eq!(strpos("abcabc", "a", -1).ok(), Some(4));
        assert_eq!(strpos("aaa", "aa", 2).ok(), Some(2));
        assert_eq!(replace("ab", "", "-"), "-a-b-");
        for (s, search, with) in [
            ("ab", "", "-"),
            ("aXbXc", "X", "yy"),
            ("ééé", "é", ""),
            ("", "", "é"),
        ] {
            assert_eq!(
                replaced_bytes(s, search, with),
                replace(s, search, with).len()
            );
        }
        assert_eq!(map_case("straße", true), "STRAßE");
        assert_eq!(trim("\u{A0}x\t", 0), "\u{A0}x");
    }
}
