//! `qm_chr`, `qm_codepoint` and `qm_translate`: strings as Unicode code points, with Trino's
//! refusals (StringFunctions).

use querymesh_values::error::ErrorName;
use rusqlite::Connection;

use crate::udf::{FLAGS, define, fail, int, reserve, text};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_CHR: SqliteFn = SqliteFn::new("qm_chr");
pub const QM_CODEPOINT: SqliteFn = SqliteFn::new("qm_codepoint");
pub const QM_TRANSLATE: SqliteFn = SqliteFn::new("qm_translate");

/// The one-character string of `n` (StringFunctions.chr): a surrogate, a negative number or
/// one past U+10FFFF is no code point.
pub fn chr(n: i64) -> Result<String, String> {
    u32::try_from(n)
        .ok()
        .and_then(char::from_u32)
        .map(String::from)
        .ok_or_else(|| format!("Not a valid Unicode code point: {n}"))
}

/// The code point of a one-character string (StringFunctions.codepoint).
pub fn codepoint(s: &str) -> Result<u32, &'static str> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(u32::from(c)),
        _ => Err("Input string must be a single character string"),
    }
}

/// `source` with each code point found in `from` replaced by the one at the same place in
/// `to`, or dropped when `to` is shorter; the first occurrence in `from` wins
/// (StringFunctions.translate).
pub fn translate(source: &str, from: &str, to: &str) -> String {
    let to: Vec<char> = to.chars().collect();
    let mut map: Vec<(char, Option<char>)> = Vec::new();
    for (i, c) in from.chars().enumerate() {
        if !map.iter().any(|(k, _)| *k == c) {
            map.push((c, to.get(i).copied()));
        }
    }
    source
        .chars()
        .filter_map(|c| match map.iter().find(|(k, _)| *k == c) {
            Some((_, to)) => *to,
            None => Some(c),
        })
        .collect()
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_CHR.name(), 1, FLAGS, |ctx| {
        int(ctx.get_raw(0))
            .map(|n| chr(n).map_err(|e| fail(ErrorName::InvalidFunctionArgument, e)))
            .transpose()
    })?;
    define(conn, QM_CODEPOINT.name(), 1, FLAGS, |ctx| {
        text(ctx.get_raw(0))
            .map(|s| codepoint(&s).map_err(|e| fail(ErrorName::InvalidFunctionArgument, e)))
            .transpose()
    })?;
    define(conn, QM_TRANSLATE.name(), 3, FLAGS, |ctx| {
        let (Some(source), Some(from), Some(to)) = (
            text(ctx.get_raw(0)),
            text(ctx.get_raw(1)),
            text(ctx.get_raw(2)),
        ) else {
            return Ok(None);
        };
        // Each code point becomes at most one of `to`'s, at most 4 bytes.
        reserve(source.chars().count().saturating_mul(4))?;
        Ok(Some(translate(&source, &from, &to)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // TestStringFunctions.testChr and the documentation's examples.
    #[test]
    fn chr_takes_every_code_point_and_refuses_the_rest() {
        assert_eq!(chr(65).as_deref(), Ok("A"));
        assert_eq!(chr(233).as_deref(), Ok("é"));
        assert_eq!(chr(128512).as_deref(), Ok("😀"));
        assert_eq!(chr(0).as_deref(), Ok("\0"));
        for bad in [-1, -5, 0xD800, 0xDFFF, 0x11_0000, i64::MAX] {
            assert_eq!(
                chr(bad),
                Err(format!("Not a valid Unicode code point: {bad}"))
            );
        }
    }

    #[test]
    fn codepoint_needs_exactly_one_character() {
        assert_eq!(codepoint("A"), Ok(65));
        assert_eq!(codepoint("😀"), Ok(128512));
        assert!(codepoint("").is_err());
        assert!(codepoint("ab").is_err());
    }

    // TestStringFunctions.testTranslate.
    #[test]
    fn translate_maps_drops_and_keeps_the_first_mapping() {
        assert_eq!(translate("abcd", "", ""), "abcd");
        assert_eq!(translate("abcd", "a", "z"), "zbcd");
        assert_eq!(translate("abcda", "a", "z"), "zbcdz");
        assert_eq!(translate("abcd", "bd", "x"), "axc");
        assert_eq!(translate("abcd", "bbd", "xy"), "axc");
        assert_eq!(translate("abcd", "b", "xy"), "axcd");
        assert_eq!(translate("banana", "an", "o"), "booo");
        assert_eq!(translate("façade", "ç", "c"), "facade");
        assert_eq!(translate("abcd", "c", "😂"), "ab😂d");
    }
}
