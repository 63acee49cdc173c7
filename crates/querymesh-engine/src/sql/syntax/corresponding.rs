//! `UNION [ALL | DISTINCT] CORRESPONDING` (and INTERSECT, EXCEPT; SqlBase.g4 `setQuantifier?
//! CORRESPONDING`): sqlparser reads the same matching of columns by name as `BY NAME`
//! (DuckDB's spelling), so the word becomes those two, spanning it; the analysis gives them
//! Trino's meaning (set_operations.rs). `CORRESPONDING BY (columns)` is refused as Trino 476
//! refuses it.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan, Whitespace};

use super::token::{next_significant, word_is, word_token};
use crate::error::{ErrorName, Position, TrinoError};

/// Rewrites every CORRESPONDING after a set operation in `tokens` (all, whitespace included).
pub(crate) fn rewrite(tokens: &mut Vec<TokenWithSpan>) -> Result<(), TrinoError> {
    let mut i = 0;
    while i < tokens.len() {
        if !word_is(&tokens[i], "corresponding") {
            i += 1;
            continue;
        }
        let Some(operation) = set_operation_before(tokens, i) else {
            i += 1;
            continue;
        };
        if next_significant(tokens, i + 1).is_some_and(|k| word_is(&tokens[k], "by")) {
            return Err(TrinoError::at(
                ErrorName::NotSupported,
                Position::from(tokens[operation].span.start),
                "CORRESPONDING with columns is unsupported",
            ));
        }
        let span = tokens[i].span;
        tokens.splice(
            i..=i,
            [
                word_token("BY".into(), None, Keyword::BY, span),
                TokenWithSpan::new(Token::Whitespace(Whitespace::Space), span),
                word_token("NAME".into(), None, Keyword::NAME, span),
            ],
        );
        i += 3;
    }
    Ok(())
}

/// The UNION, INTERSECT or EXCEPT a CORRESPONDING at `i` follows (through ALL or DISTINCT).
fn set_operation_before(tokens: &[TokenWithSpan], i: usize) -> Option<usize> {
    let mut k = i;
    loop {
        k = (0..k)
            .rev()
            .find(|&j| super::token::is_significant(&tokens[j]))?;
        let t = &tokens[k];
        if word_is(t, "all") || word_is(t, "distinct") {
            continue;
        }
        return ["union", "intersect", "except"]
            .iter()
            .any(|w| word_is(t, w))
            .then_some(k);
    }
}
