//! Complex type names in CAST / TRY_CAST, which sqlparser cannot read (trino-facts.md
//! "sqlparser and Trino SQL": `CAST(x AS array(bigint))`, named `ROW(x integer, …)` types parse
//! wrongly in every dialect). Before parsing, each such type text after `AS` is replaced by one
//! delimited identifier carrying the text, spanning the tokens it replaces (so every later
//! `line L:C` is unchanged); [`placeholder_type`] reads it back in the cast analysis.

use sqlparser::tokenizer::{Span, Token, TokenWithSpan, Word};

use crate::querymesh::engine::types::TrinoType;

/// Marks a placeholder's identifier, so that it is never taken for a name the person wrote.
const MARK: char = '\u{F8FF}';

/// Words whose presence in a type text means sqlparser cannot read it (or reads it as
/// something else): the complex types and the types the stand-in adds.
const COMPLEX_WORDS: [&str; 6] = ["array", "map", "row", "json", "varbinary", "uuid"];

fn is_word(t: &Token, word: &str) -> bool {
    matches!(t, Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(word))
}

/// Replaces the complex type texts of every CAST and TRY_CAST in `tokens` (all tokens,
/// whitespace included) with placeholders.
pub fn replace_cast_types(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 0;
    while i < tokens.len() {
        if let Some((start, end)) = cast_type_range(tokens, i) {
            let text: String = tokens[start..end]
                .iter()
                .map(|t| t.token.to_string())
                .collect();
            let span = Span::new(tokens[start].span.start, tokens[end - 1].span.end);
            let placeholder = TokenWithSpan::new(
                Token::Word(Word {
                    value: format!("{MARK}{}", text.trim()),
                    quote_style: Some('"'),
                    keyword: sqlparser::keywords::Keyword::NoKeyword,
                }),
                span,
            );
            tokens.splice(start..end, [placeholder]);
        }
        i += 1;
    }
}

/// For the CAST / TRY_CAST starting at token `i`: the token range of its type text, when that
/// text names a complex type.
fn cast_type_range(tokens: &[TokenWithSpan], i: usize) -> Option<(usize, usize)> {
    let t = &tokens.get(i)?.token;
    if !(is_word(t, "cast") || is_word(t, "try_cast")) {
        return None;
    }
    let significant = |from: usize| {
        (from..tokens.len()).find(|&j| !matches!(tokens[j].token, Token::Whitespace(_)))
    };
    let open = significant(i + 1)?;
    if tokens[open].token != Token::LParen {
        return None;
    }
    // The AS at depth 1 of this CAST, then the type text to its closing parenthesis.
    let mut depth = 0usize;
    let mut type_start = None;
    for j in open..tokens.len() {
        match &tokens[j].token {
            Token::LParen => depth += 1,
            Token::RParen => {
                depth -= 1;
                if depth == 0 {
                    let start = type_start?;
                    let start = significant(start).filter(|s| *s < j)?;
                    let mut end = j;
                    while end > start && matches!(tokens[end - 1].token, Token::Whitespace(_)) {
                        end -= 1;
                    }
                    let complex = tokens[start..end]
                        .iter()
                        .any(|t| COMPLEX_WORDS.iter().any(|w| is_word(&t.token, w)));
                    return complex.then_some((start, end));
                }
            }
            tok if depth == 1 && is_word(tok, "as") => type_start = Some(j + 1),
            _ => {}
        }
    }
    None
}

/// The type text a placeholder carries (`None` for an identifier the person wrote).
pub fn placeholder_text(quoted_identifier: &str) -> Option<&str> {
    quoted_identifier.strip_prefix(MARK)
}

/// The type a placeholder names, or Trino's `Unknown type: …`.
pub fn placeholder_type(text: &str) -> Result<TrinoType, String> {
    TrinoType::parse(text)
}

#[cfg(test)]
mod tests {
    use super::super::dialect::TrinoDialect;
    use super::*;
    use sqlparser::tokenizer::Tokenizer;

    #[test]
    fn replaces_complex_cast_types_keeping_positions() {
        let sql =
            "SELECT CAST(x AS array(\n bigint)), CAST(y AS bigint), TRY_CAST(z AS row(a int))";
        let Ok(mut tokens) = Tokenizer::new(&TrinoDialect, sql).tokenize_with_location() else {
            panic!("tokenizes");
        };
        replace_cast_types(&mut tokens);
        let placeholders: Vec<(String, u64, u64)> = tokens
            .iter()
            .filter_map(|t| match &t.token {
                Token::Word(w) => placeholder_text(&w.value)
                    .map(|text| (text.to_string(), t.span.start.line, t.span.start.column)),
                _ => None,
            })
            .collect();
        assert_eq!(
            placeholders,
            vec![
                ("array(\n bigint)".to_string(), 1, 18),
                ("row(a int)".to_string(), 2, 42)
            ]
        );
    }
}
