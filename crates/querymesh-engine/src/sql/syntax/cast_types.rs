//! Complex type names in CAST / TRY_CAST, which sqlparser cannot read (trino-facts.md
//! "sqlparser and Trino SQL": `CAST(x AS array(bigint))`, named `ROW(x integer, …)` types parse
//! wrongly in every dialect). Before parsing, each such type text after `AS` is replaced by one
//! delimited identifier carrying the text, spanning the tokens it replaces (so every later
//! `line L:C` is unchanged); [`placeholder_type`] reads it back in the cast analysis.

use sqlparser::tokenizer::{Span, Token, TokenWithSpan};

use super::token::{marker, word_is};

use crate::types::TrinoType;

/// Marks a placeholder's identifier, so that it is never taken for a name the person wrote.
const MARK: char = '\u{F8FF}';

/// Words whose presence in a type text means sqlparser cannot read it (or reads it as
/// something else): the complex types, the types the stand-in adds, and the interval types
/// (sqlparser takes `INTERVAL DAY TO SECOND` for the start of an interval literal).
const COMPLEX_WORDS: [&str; 8] = [
    "array",
    "interval",
    "map",
    "row",
    "json",
    "varbinary",
    "uuid",
    "qdigest",
];

/// Replaces the complex type texts of every CAST and TRY_CAST in `tokens` (all tokens,
/// whitespace included) with placeholders. One pass with a stack of open parentheses, so a
/// long or deeply nested statement costs no more than its length.
pub fn replace_cast_types(tokens: &mut Vec<TokenWithSpan>) {
    let mut ranges = cast_type_ranges(tokens);
    // A range inside or across another (a cast written in a type text, which no type is)
    // would be stale once the other is replaced: the first of each overlap is kept, and the
    // analysis refuses what is left.
    ranges.sort_unstable();
    let mut kept: Vec<(usize, usize)> = Vec::new();
    for (start, end) in ranges {
        if start < end && end <= tokens.len() && kept.last().is_none_or(|&(_, e)| start >= e) {
            kept.push((start, end));
        }
    }
    // From the end, so that the earlier ranges keep their indexes.
    for (start, end) in kept.into_iter().rev() {
        let text: String = tokens[start..end]
            .iter()
            .map(|t| t.token.to_string())
            .collect();
        let span = Span::new(tokens[start].span.start, tokens[end - 1].span.end);
        let placeholder = marker(MARK, text.trim(), span);
        tokens.splice(start..end, [placeholder]);
    }
}

/// One open parenthesis: whether it is a CAST's, and where the type text after its `AS`
/// starts.
struct Open {
    cast: bool,
    type_start: Option<usize>,
}

/// The token ranges of the complex type texts of all casts, in order.
fn cast_type_ranges(tokens: &[TokenWithSpan]) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    // The last significant token: a CAST word makes the next `(` a cast's.
    let mut after_cast = false;
    for (j, t) in tokens.iter().enumerate() {
        match &t.token {
            Token::Whitespace(_) => continue,
            Token::LParen => stack.push(Open {
                cast: after_cast,
                type_start: None,
            }),
            Token::RParen => {
                if let Some(Open {
                    cast: true,
                    type_start: Some(start),
                }) = stack.pop()
                    && let Some(range) = type_range(tokens, start, j)
                {
                    ranges.push(range);
                }
            }
            _ if word_is(t, "as") => {
                if let Some(open) = stack.last_mut().filter(|o| o.cast) {
                    open.type_start = Some(j + 1);
                }
            }
            _ => {}
        }
        after_cast = word_is(t, "cast") || word_is(t, "try_cast");
    }
    ranges
}

/// The type text between `start` and the closing parenthesis at `close`, trimmed of
/// whitespace, when it names a complex type.
fn type_range(tokens: &[TokenWithSpan], start: usize, close: usize) -> Option<(usize, usize)> {
    let blank = |j: usize| matches!(tokens[j].token, Token::Whitespace(_));
    let start = (start..close).find(|&j| !blank(j))?;
    let mut end = close;
    while end > start && blank(end - 1) {
        end -= 1;
    }
    let complex = tokens[start..end]
        .iter()
        .any(|t| COMPLEX_WORDS.iter().any(|w| word_is(t, w)));
    complex.then_some((start, end))
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
    use super::*;
    use crate::sql::dialect::TrinoDialect;
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
                ("row(a int)".to_string(), 2, 45)
            ]
        );
    }
}
