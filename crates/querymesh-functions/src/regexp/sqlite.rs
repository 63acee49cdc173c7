//! Trino's regular expression functions (docs functions/regexp), run with the `regex` crate.
//!
//! Trino compiles patterns with Joni (Java/Ruby syntax). The `regex` crate reads the same
//! syntax for everything apps commonly write (classes, `\d\w\s`, `\b`, anchors, groups, named
//! groups `(?<name>…)`, flags `(?i)`, Unicode classes), and matches in linear time. Where Java's
//! syntax has more — look-ahead/behind, back-references `\1`, atomic groups, possessive
//! quantifiers, `\Q…\E` — the crate refuses to compile the pattern, and so does the stand-in,
//! naming the construct, rather than match differently. Known differences left alone: `$`
//! matches only at the very end (Java also before a final line break) and `.` excludes only
//! `\n` (Java also `\r` and the Unicode line separators).
//!
//! Positions are in code points, 1-based, as Trino's; compiled patterns are cached per
//! statement while the pattern argument is constant (SQLite's auxiliary data).

use std::sync::Arc;

use querymesh_values::error::ErrorName;
use regex::{Captures, Regex, RegexBuilder};
use rusqlite::Connection;
use rusqlite::functions::Context;
use rusqlite::types::ValueRef;
use serde_json::Value;

use crate::udf::{FLAGS, define, fail, reserve};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_REGEXP_LIKE: SqliteFn = SqliteFn::new("qm_regexp_like");
pub const QM_REGEXP_COUNT: SqliteFn = SqliteFn::new("qm_regexp_count");
pub const QM_REGEXP_EXTRACT: SqliteFn = SqliteFn::new("qm_regexp_extract");
pub const QM_REGEXP_EXTRACT_ALL: SqliteFn = SqliteFn::new("qm_regexp_extract_all");
pub const QM_REGEXP_SPLIT: SqliteFn = SqliteFn::new("qm_regexp_split");
pub const QM_REGEXP_POSITION: SqliteFn = SqliteFn::new("qm_regexp_position");
pub const QM_REGEXP_REPLACE: SqliteFn = SqliteFn::new("qm_regexp_replace");
pub const QM_REGEXP_PIECES: SqliteFn = SqliteFn::new("qm_regexp_pieces");

/// Bounds what one pattern may compile to, so a pattern can't take the process's memory.
const COMPILED_SIZE_LIMIT: usize = 2 << 20;

fn invalid(text: impl Into<String>) -> rusqlite::Error {
    fail(ErrorName::InvalidFunctionArgument, text)
}

/// Java's possessive quantifiers (`a*+`, `a?+`, `a{2}+`): the crate would read `a*+` as
/// `(a*)+`, which matches where Java's doesn't, so they are found and refused first.
fn has_possessive_quantifier(pattern: &str) -> bool {
    let mut chars = pattern.chars().peekable();
    let (mut in_class, mut previous) = (false, None);
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                // `\p{Hiragana}+` is a class quantified, not a possessive `}+`.
                if matches!(chars.next(), Some('p' | 'P')) && chars.peek() == Some(&'{') {
                    chars.by_ref().find(|c| *c == '}');
                }
                previous = None;
                continue;
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '*' | '+' | '?' | '}' if !in_class => {
                let quantifier = !(c == '?' && previous == Some('('));
                if quantifier && chars.peek() == Some(&'+') {
                    return true;
                }
            }
            _ => {}
        }
        previous = Some(c);
    }
    false
}

/// Joni (Java syntax) knows the inline flags i, m, s and x only: `(?u)a` is refused with
/// "undefined group option" where the crate would take it.
fn has_undefined_group_option(pattern: &str) -> bool {
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class && chars.peek() == Some(&'?') => {
                chars.next();
                let flags: String = chars
                    .clone()
                    .take_while(|c| c.is_ascii_alphabetic() || *c == '-')
                    .collect();
                let ends = chars.clone().nth(flags.chars().count());
                if !flags.is_empty()
                    && matches!(ends, Some(')' | ':'))
                    && flags
                        .chars()
                        .any(|f| !matches!(f, 'i' | 'm' | 's' | 'x' | '-'))
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

fn compile(pattern: &str) -> Result<Regex, rusqlite::Error> {
    if has_undefined_group_option(pattern) {
        return Err(invalid("undefined group option"));
    }
    if has_possessive_quantifier(pattern) {
        return Err(invalid(
            "Invalid regular expression (the sandbox matches with the Rust regex crate, \
             which has no look-around, back-references or possessive quantifiers): \
             possessive quantifier",
        ));
    }
    RegexBuilder::new(pattern)
        .size_limit(COMPILED_SIZE_LIMIT)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => invalid("Regular expression is too large"),
            other => invalid(format!(
                "Invalid regular expression (the sandbox matches with the Rust regex crate, \
                 which has no look-around, back-references or possessive quantifiers): {}",
                first_line(&other.to_string())
            )),
        })
}

fn first_line(s: &str) -> String {
    s.lines()
        .filter(|l| l.starts_with("error:"))
        .map(|l| l.trim_start_matches("error:").trim().to_string())
        .next()
        .unwrap_or_else(|| s.lines().last().unwrap_or("").trim().to_string())
}

fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        ValueRef::Null => None,
    }
}

fn int(v: ValueRef<'_>) -> Option<i64> {
    match v {
        ValueRef::Integer(i) => Some(i),
        ValueRef::Real(r) => Some(r as i64),
        _ => None,
    }
}

/// The compiled pattern of argument `i`, cached while it is the same value.
fn pattern(ctx: &Context<'_>, i: usize) -> rusqlite::Result<Option<Arc<Regex>>> {
    if matches!(ctx.get_raw(i), ValueRef::Null) {
        return Ok(None);
    }
    ctx.get_or_create_aux(i as i32, |v| -> Result<Regex, rusqlite::Error> {
        compile(&text(v).unwrap_or_default())
    })
    .map(Some)
}

/// Trino's check of a group argument (JoniRegexpFunctions.validateGroup).
fn group_index(re: &Regex, group: i64) -> rusqlite::Result<usize> {
    let groups = re.captures_len() - 1;
    if group < 0 || group as usize > groups {
        return Err(invalid(format!(
            "Pattern has {groups} groups. Cannot access group {group}"
        )));
    }
    Ok(group as usize)
}

fn chars_before(s: &str, byte: usize) -> i64 {
    s[..byte].chars().count() as i64
}

/// A replacement string in Trino's (Java's) syntax — `$n`, `${name}`, `\` escaping the next
/// character — expanded for one match.
enum Piece {
    Text(String),
    Group(usize),
}

fn parse_replacement(re: &Regex, replacement: &str) -> rusqlite::Result<Vec<Piece>> {
    let groups = re.captures_len() - 1;
    let mut pieces = Vec::new();
    let mut literal = String::new();
    let mut chars = replacement.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(escaped) => literal.push(escaped),
                None => return Err(invalid("character to be escaped is missing")),
            },
            '$' => {
                let index = if chars.peek() == Some(&'{') {
                    chars.next();
                    let name: String = chars.by_ref().take_while(|&c| c != '}').collect();
                    re.capture_names()
                        .position(|n| n == Some(name.as_str()))
                        .ok_or_else(|| invalid(format!("No group with name {{{name}}}")))?
                } else {
                    // Java reads digits while the number is still a group (Matcher.appendReplacement).
                    let Some(first) = chars.peek().and_then(|c| c.to_digit(10)) else {
                        return Err(invalid("Illegal group reference"));
                    };
                    chars.next();
                    let mut index = first as usize;
                    if index > groups {
                        return Err(invalid(format!("No group {index}")));
                    }
                    while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                        let next = index * 10 + d as usize;
                        if next > groups {
                            break;
                        }
                        index = next;
                        chars.next();
                    }
                    index
                };
                if !literal.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut literal)));
                }
                pieces.push(Piece::Group(index));
            }
            other => literal.push(other),
        }
    }
    if !literal.is_empty() {
        pieces.push(Piece::Text(literal));
    }
    Ok(pieces)
}

fn expand(pieces: &[Piece], caps: &Captures<'_>, out: &mut String) {
    for piece in pieces {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Group(i) => out.push_str(caps.get(*i).map_or("", |m| m.as_str())),
        }
    }
}

/// `string` with every match replaced by `pieces`, its size asked of the query's budget
/// before it is built.
fn replace_all(re: &Regex, s: &str, pieces: &[Piece]) -> rusqlite::Result<String> {
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for caps in re.captures_iter(s) {
        let Some(m) = caps.get(0) else { continue };
        out.push_str(&s[last..m.start()]);
        expand(pieces, &caps, &mut out);
        last = m.end();
        if out.len() > s.len() + 4096 {
            reserve(out.len())?;
        }
    }
    out.push_str(&s[last..]);
    Ok(out)
}

fn json_strings<'a>(items: impl Iterator<Item = Option<&'a str>>) -> rusqlite::Result<String> {
    let values: Vec<Value> = items.map(|s| s.map_or(Value::Null, Value::from)).collect();
    let text = Value::Array(values).to_string();
    reserve(text.len())?;
    Ok(text)
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_REGEXP_LIKE.name(), 2, FLAGS, |ctx| {
        let (Some(s), Some(re)) = (text(ctx.get_raw(0)), pattern(ctx, 1)?) else {
            return Ok(None);
        };
        Ok(Some(re.is_match(&s)))
    })?;
    define(conn, QM_REGEXP_COUNT.name(), 2, FLAGS, |ctx| {
        let (Some(s), Some(re)) = (text(ctx.get_raw(0)), pattern(ctx, 1)?) else {
            return Ok(None);
        };
        Ok(Some(re.find_iter(&s).count() as i64))
    })?;
    // qm_regexp_extract(s, pattern, group): NULL when nothing matches or the group took part
    // in no match.
    define(conn, QM_REGEXP_EXTRACT.name(), 3, FLAGS, |ctx| {
        let (Some(s), Some(re), Some(group)) =
            (text(ctx.get_raw(0)), pattern(ctx, 1)?, int(ctx.get_raw(2)))
        else {
            return Ok(None);
        };
        let group = group_index(&re, group)?;
        Ok(re
            .captures(&s)
            .and_then(|c| c.get(group))
            .map(|m| m.as_str().to_string()))
    })?;
    define(conn, QM_REGEXP_EXTRACT_ALL.name(), 3, FLAGS, |ctx| {
        let (Some(s), Some(re), Some(group)) =
            (text(ctx.get_raw(0)), pattern(ctx, 1)?, int(ctx.get_raw(2)))
        else {
            return Ok(None);
        };
        let group = group_index(&re, group)?;
        let all: Vec<Option<String>> = re
            .captures_iter(&s)
            .map(|c| c.get(group).map(|m| m.as_str().to_string()))
            .collect();
        json_strings(all.iter().map(|s| s.as_deref())).map(Some)
    })?;
    define(conn, QM_REGEXP_SPLIT.name(), 2, FLAGS, |ctx| {
        let (Some(s), Some(re)) = (text(ctx.get_raw(0)), pattern(ctx, 1)?) else {
            return Ok(None);
        };
        json_strings(re.split(&s).map(Some)).map(Some)
    })?;
    // qm_regexp_position(s, pattern, start, occurrence): -1 when not found.
    define(conn, QM_REGEXP_POSITION.name(), 4, FLAGS, |ctx| {
        let (Some(s), Some(re), Some(start), Some(occurrence)) = (
            text(ctx.get_raw(0)),
            pattern(ctx, 1)?,
            int(ctx.get_raw(2)),
            int(ctx.get_raw(3)),
        ) else {
            return Ok(None);
        };
        if start < 1 {
            return Err(invalid("start position cannot be smaller than 1"));
        }
        if occurrence < 1 {
            return Err(invalid("occurrence cannot be smaller than 1"));
        }
        let Some((mut at, _)) = s.char_indices().nth((start - 1) as usize) else {
            return Ok(Some(-1));
        };
        // From `start` with the text before it still in view (a `\b` there sees it), as
        // Java's Matcher.find(start) does.
        let mut found = -1;
        let mut seen = 0;
        while let Some(m) = re.find_at(&s, at) {
            seen += 1;
            if seen == occurrence {
                found = chars_before(&s, m.start()) + 1;
                break;
            }
            at = if m.end() > m.start() {
                m.end()
            } else {
                match s[m.end()..].chars().next() {
                    Some(c) => m.end() + c.len_utf8(),
                    None => break,
                }
            };
        }
        Ok(Some(found))
    })?;
    define(conn, QM_REGEXP_REPLACE.name(), 3, FLAGS, |ctx| {
        let (Some(s), Some(re), Some(replacement)) =
            (text(ctx.get_raw(0)), pattern(ctx, 1)?, text(ctx.get_raw(2)))
        else {
            return Ok(None);
        };
        let pieces = parse_replacement(&re, &replacement)?;
        replace_all(&re, &s, &pieces).map(Some)
    })?;
    // The text around and between matches, and each match's groups, alternating:
    // `["", ["n", "ew"], " ", ["y", "ork"], ""]` — what regexp_replace with a lambda folds.
    define(conn, QM_REGEXP_PIECES.name(), 2, FLAGS, |ctx| {
        let (Some(s), Some(re)) = (text(ctx.get_raw(0)), pattern(ctx, 1)?) else {
            return Ok(None);
        };
        let mut pieces = Vec::new();
        let mut last = 0;
        for caps in re.captures_iter(&s) {
            let Some(m) = caps.get(0) else { continue };
            pieces.push(Value::from(&s[last..m.start()]));
            let groups: Vec<Value> = caps
                .iter()
                .skip(1)
                .map(|g| g.map_or(Value::Null, |g| Value::from(g.as_str())))
                .collect();
            pieces.push(Value::Array(groups));
            last = m.end();
        }
        pieces.push(Value::from(&s[last..]));
        let text = Value::Array(pieces).to_string();
        reserve(text.len())?;
        Ok(Some(text))
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replaced(pattern: &str, s: &str, replacement: &str) -> String {
        let re = compile(pattern).unwrap();
        let pieces = parse_replacement(&re, replacement).unwrap();
        replace_all(&re, s, &pieces).unwrap()
    }

    #[test]
    fn replacements_read_javas_group_references() {
        // docs functions/regexp regexp_replace.
        assert_eq!(replaced("(\\d+)", "1a 2b 14m", "3c$1"), "3c1a 3c2b 3c14m");
        assert_eq!(replaced("(\\w)", "ab", "\\$1"), "$1$1");
        assert_eq!(replaced("(?<x>b)", "abc", "[${x}]"), "a[b]c");
        // Java's Matcher reads `$12` as group 1 then "2" when there is no group 12.
        assert_eq!(replaced("(a)", "a", "$12"), "a2");
        let re = compile("(a)").unwrap();
        assert!(parse_replacement(&re, "$2").is_err());
        assert!(parse_replacement(&re, "$x").is_err());
        assert!(parse_replacement(&re, "\\").is_err());
    }

    #[test]
    fn what_java_has_and_the_crate_has_not_is_refused() {
        for pattern in [
            "a(?=b)", "(?<=a)b", "(a)\\1", "a*+", "a++b", "a{2}+", "(?>a)", "\\Qa\\E", "[a-",
        ] {
            assert!(compile(pattern).is_err(), "{pattern}");
        }
        for pattern in ["a+?", "(?:a)+", "[+*]+", "\\++", "a*b+"] {
            assert!(compile(pattern).is_ok(), "{pattern}");
        }
        assert!(compile("(?i)straße").is_ok());
    }

    #[test]
    fn joni_reads_unicode_classes_and_refuses_unknown_flags() {
        // Trino 476: regexp_like('ひらがな', '\p{Hiragana}+') is true; '(?u)a' fails with
        // "undefined group option" (Joni's Java syntax knows i, m, s and x).
        assert!(compile("\\p{Hiragana}+").is_ok());
        assert!(compile("\\p{L}+x").is_ok());
        for pattern in ["(?u)a", "(?U)a", "(?iu:a)"] {
            assert!(compile(pattern).is_err(), "{pattern}");
        }
        for pattern in ["(?i)a", "(?i-s)a", "(?x:a)", "(?<n>a)", "(?:a)", "[(?u)]"] {
            assert!(compile(pattern).is_ok(), "{pattern}");
        }
    }
}
