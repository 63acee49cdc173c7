//! Property tests over the json value model, json_extract's path and the SQL/JSON path
//! language together: texts near JSON and paths near the language never panic.

use super::*;
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
        let Ok(lax) = crate::json::path::Path::parse(&path) else {
            return Ok(());
        };
        if let Some(j) = Json::parse(&text) {
            let _ = lax.evaluate(&j);
            let strict = crate::json::path::Path::parse(
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
            crate::json::path::Path::parse(&path),
            Json::parse(&text),
        ) {
            let _ = p.evaluate(&j);
        }
    }
}
