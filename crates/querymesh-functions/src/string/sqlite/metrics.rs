//! String distances and checks (Trino docs functions/string): levenshtein_distance,
//! hamming_distance (both in code points) and luhn_check, with Trino's refusals.

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use crate::udf::{FLAGS, define, fail};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_LEVENSHTEIN: SqliteFn = SqliteFn::new("qm_levenshtein");
pub const QM_HAMMING: SqliteFn = SqliteFn::new("qm_hamming");
pub const QM_LUHN_CHECK: SqliteFn = SqliteFn::new("qm_luhn_check");

/// StringFunctions.levenshteinDistance refuses inputs whose product of lengths is past this.
const LEVENSHTEIN_LIMIT: usize = 1_000_000;

fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
        _ => None,
    }
}

fn invalid(text: &str) -> rusqlite::Error {
    fail(ErrorName::InvalidFunctionArgument, text)
}

fn levenshtein(a: &[char], b: &[char]) -> i64 {
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()] as i64
}

/// LuhnCheckFunction: false for the empty string, an error for anything but digits.
fn luhn(s: &str) -> rusqlite::Result<bool> {
    if s.is_empty() {
        return Ok(false);
    }
    let mut sum = 0;
    for (i, b) in s.bytes().rev().enumerate() {
        if !b.is_ascii_digit() {
            return Err(invalid("Input contains non-digit character"));
        }
        let mut n = u32::from(b - b'0');
        if i % 2 == 1 {
            n *= 2;
            if n > 9 {
                n -= 9;
            }
        }
        sum += n;
    }
    Ok(sum % 10 == 0)
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_LEVENSHTEIN.name(), 2, FLAGS, |ctx| {
        let (Some(a), Some(b)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        if a.len().saturating_mul(b.len()) > LEVENSHTEIN_LIMIT {
            return Err(invalid(
                "The combined inputs for Levenshtein distance are too large",
            ));
        }
        Ok(Some(levenshtein(&a, &b)))
    })?;
    define(conn, QM_HAMMING.name(), 2, FLAGS, |ctx| {
        let (Some(a), Some(b)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        if a.chars().count() != b.chars().count() {
            return Err(invalid(
                "The input strings to hamming_distance function must have the same length",
            ));
        }
        Ok(Some(
            a.chars().zip(b.chars()).filter(|(x, y)| x != y).count() as i64,
        ))
    })?;
    define(conn, QM_LUHN_CHECK.name(), 1, FLAGS, |ctx| {
        text(ctx.get_raw(0)).map(|s| luhn(&s)).transpose()
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_code_points() {
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(levenshtein(&chars("kitten"), &chars("sitting")), 3);
        assert_eq!(levenshtein(&chars(""), &chars("abc")), 3);
        assert_eq!(levenshtein(&chars("über"), &chars("uber")), 1);
        assert!(luhn("79927398713").unwrap());
        assert!(!luhn("79927398714").unwrap());
        assert!(!luhn("").unwrap());
        assert!(luhn("12a").is_err());
    }
}
