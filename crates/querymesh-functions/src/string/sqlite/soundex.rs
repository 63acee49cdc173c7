//! `qm_soundex`: American Soundex as Apache commons-codec's `Soundex.US_ENGLISH` computes it,
//! which Trino's `soundex` calls.

use querymesh_values::error::ErrorName;
use rusqlite::Connection;

use crate::udf::{FLAGS, define, fail, text};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_SOUNDEX: SqliteFn = SqliteFn::new("qm_soundex");

/// The digit of each letter A–Z (commons-codec's US_ENGLISH_MAPPING_STRING); `0` for vowels
/// and the letters that are never coded.
const MAPPING: &[u8; 26] = b"01230120022455012623010202";

/// The code of `s`: its letters kept and upper-cased, the first kept as it is, then the
/// digits of the rest — vowels (`0`) unstored but breaking a run, H and W skipped as if absent,
/// a digit equal to the one before unstored — padded with zeros to four characters. An empty
/// string (or one without letters) is empty; a letter outside A–Z is refused, as commons-codec
/// refuses it ("The character is not mapped").
pub fn soundex(s: &str) -> Result<String, String> {
    // SoundexUtils.clean: Java's Character.isLetter on UTF-16 units (so no letter outside the
    // Basic Multilingual Plane), upper-cased in the English locale.
    let cleaned: String = s
        .chars()
        .filter(|c| u32::from(*c) <= 0xFFFF && c.is_alphabetic())
        .collect::<String>()
        .to_uppercase();
    let mut letters = cleaned.chars();
    let Some(first) = letters.next() else {
        return Ok(String::new());
    };
    let map = |c: char| -> Result<u8, String> {
        let index = i64::from(u32::from(c)) - i64::from(b'A');
        usize::try_from(index)
            .ok()
            .and_then(|i| MAPPING.get(i).copied())
            .ok_or_else(|| format!("The character is not mapped: {c} (index={index})"))
    };
    let mut out = String::from(first);
    let mut last = map(first)?;
    for c in letters {
        if out.len() == 4 {
            break;
        }
        if c == 'H' || c == 'W' {
            continue;
        }
        let digit = map(c)?;
        if digit != b'0' && digit != last {
            out.push(char::from(digit));
        }
        last = digit;
    }
    while out.chars().count() < 4 {
        out.push('0');
    }
    Ok(out)
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_SOUNDEX.name(), 1, FLAGS, |ctx| {
        text(ctx.get_raw(0))
            .map(|s| soundex(&s).map_err(|e| fail(ErrorName::InvalidFunctionArgument, e)))
            .transpose()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // commons-codec's SoundexTest and the documentation's examples.
    #[test]
    fn american_soundex_as_commons_codec_computes_it() {
        for (word, code) in [
            ("Robert", "R163"),
            ("Rupert", "R163"),
            ("Rubin", "R150"),
            ("Ashcraft", "A261"),
            ("Ashcroft", "A261"),
            ("Tymczak", "T522"),
            ("Pfister", "P236"),
            ("Honeyman", "H555"),
            ("a", "A000"),
            ("", ""),
            ("123", ""),
            ("O'Hara", "O600"),
        ] {
            assert_eq!(soundex(word).as_deref(), Ok(code), "{word}");
        }
        assert_eq!(
            soundex("Émile"),
            Err("The character is not mapped: É (index=136)".to_string())
        );
    }
}
