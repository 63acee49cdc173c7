//! `qm_normalize` (Unicode normalization forms, UAX #15, as java.text.Normalizer applies
//! them) and `qm_word_stem` (Snowball stemmers, as Lucene's that Trino's WordStemFunction runs).

use std::borrow::Cow;

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::UnicodeNormalization;

use crate::udf::{FLAGS, define, fail, reserve, text};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_NORMALIZE: SqliteFn = SqliteFn::new("qm_normalize");
pub const QM_WORD_STEM: SqliteFn = SqliteFn::new("qm_word_stem");

/// `s` in normal form `form` (NFC, NFD, NFKC or NFKD).
fn normalized(s: &str, form: &str) -> Option<String> {
    Some(match form {
        "NFC" => s.nfc().collect(),
        "NFD" => s.nfd().collect(),
        "NFKC" => s.nfkc().collect(),
        "NFKD" => s.nfkd().collect(),
        _ => return None,
    })
}

/// What word_stem does with a language code (WordStemFunction.STEMMERS).
enum Language {
    Stems(Algorithm),
    /// German2: German after `ae`, `oe`, `ue` are read as `ä`, `ö`, `ü`.
    German2,
    /// A language Trino stems (with Lucene's Catalan, Basque, Armenian, Irish or Lithuanian
    /// stemmer) and the stand-in has no stemmer for.
    Unavailable,
    Unknown,
}

fn language(code: &str) -> Language {
    use Algorithm::*;
    Language::Stems(match code {
        "da" => Danish,
        "de" => return Language::German2,
        "en" => English,
        "es" => Spanish,
        "fi" => Finnish,
        "fr" => French,
        "hu" => Hungarian,
        "it" => Italian,
        "nl" => Dutch,
        "no" => Norwegian,
        "pt" => Portuguese,
        "ro" => Romanian,
        "ru" => Russian,
        "sv" => Swedish,
        "tr" => Turkish,
        "ca" | "eu" | "hy" | "ir" | "lt" => return Language::Unavailable,
        _ => return Language::Unknown,
    })
}

/// Snowball's german2 prelude: `ae`, `oe` and `ue` become `ä`, `ö` and `ü`, except the `u` of
/// `qu`.
fn german2_prelude(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        let umlaut = match (c, chars.peek()) {
            ('q', Some('u')) => {
                out.push('q');
                out.push('u');
                chars.next();
                continue;
            }
            ('a', Some('e')) => Some('ä'),
            ('o', Some('e')) => Some('ö'),
            ('u', Some('e')) => Some('ü'),
            _ => None,
        };
        match umlaut {
            Some(u) => {
                out.push(u);
                chars.next();
            }
            None => out.push(c),
        }
    }
    out
}

/// The stem of `word` in language `code`, or Trino's refusal.
fn word_stem(word: &str, code: &str) -> Result<String, rusqlite::Error> {
    let (algorithm, word): (Algorithm, Cow<'_, str>) = match language(code) {
        Language::Stems(a) => (a, Cow::Borrowed(word)),
        Language::German2 => (Algorithm::German, Cow::Owned(german2_prelude(word))),
        Language::Unavailable => {
            return Err(fail(
                ErrorName::NotSupported,
                format!("word_stem in language '{code}' is not supported by the stand-in"),
            ));
        }
        Language::Unknown => {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                format!("Unknown stemmer language: {code}"),
            ));
        }
    };
    // The generated stemmers index the word by byte; a fault in one must not end the process.
    std::panic::catch_unwind(|| Stemmer::create(algorithm).stem(&word).into_owned()).map_err(|_| {
        fail(
            ErrorName::GenericInternalError,
            "The stemmer failed on this word",
        )
    })
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_NORMALIZE.name(), 2, FLAGS, |ctx| {
        let (Some(s), Some(form)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        // NFKD grows a code point to at most 18 (U+FDFA).
        reserve(s.len().saturating_mul(18))?;
        Ok(normalized(&s, &form))
    })?;
    define(conn, QM_WORD_STEM.name(), 2, FLAGS, |ctx| {
        let (Some(word), Some(code)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        reserve(word.len().saturating_mul(2))?;
        word_stem(&word, &code).map(Some)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Trino 476's answers (docs functions/string normalize, word_stem).
    #[test]
    fn normal_forms() {
        assert_eq!(normalized("ﬁ", "NFC").as_deref(), Some("ﬁ"));
        assert_eq!(normalized("ﬁ", "NFKC").as_deref(), Some("fi"));
        assert_eq!(normalized("①", "NFKD").as_deref(), Some("1"));
        assert_eq!(normalized("e\u{301}", "NFC").as_deref(), Some("é"));
        assert_eq!(normalized("é", "NFD").map(|s| s.chars().count()), Some(2));
    }

    #[test]
    fn stems_as_lucenes_snowball_stemmers() {
        let stem = |w: &str, l: &str| word_stem(w, l).ok();
        for (word, stemmed) in [
            ("running", "run"),
            ("cats", "cat"),
            ("generously", "generous"),
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("sky", "sky"),
            ("dying", "die"),
            ("knightly", "knight"),
            ("Running", "Run"),
            ("", ""),
        ] {
            assert_eq!(stem(word, "en").as_deref(), Some(stemmed), "{word}");
        }
        assert_eq!(stem("laufen", "de").as_deref(), Some("lauf"));
        assert_eq!(stem("Häuser", "de").as_deref(), Some("Haus"));
        assert_eq!(stem("Haeuser", "de").as_deref(), Some("Haus"));
        assert_eq!(stem("Schuesse", "de").as_deref(), Some("Schuss"));
        assert_eq!(stem("maisons", "fr").as_deref(), Some("maison"));
        assert!(word_stem("running", "xx").is_err());
    }
}
