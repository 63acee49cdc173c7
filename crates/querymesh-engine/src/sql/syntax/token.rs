//! The token helpers the token-level passes and the statements' readers share: the one copy
//! of "is this token significant", "is it the word W", "where is the `)` closing this `(`",
//! "a dotted name", Trino's `mismatched input` error, and the tokens a rewrite adds.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Span, Token, TokenWithSpan, Word};

use crate::error::{ErrorName, Position, TrinoError};

/// Whether a token is more than whitespace (comments are whitespace to sqlparser; its
/// tokenizer adds no EOF token, the parser does).
pub(crate) fn is_significant(t: &TokenWithSpan) -> bool {
    !matches!(t.token, Token::Whitespace(_) | Token::EOF)
}

/// The index of the first significant token at or after `from`.
pub(crate) fn next_significant(tokens: &[TokenWithSpan], from: usize) -> Option<usize> {
    (from..tokens.len()).find(|&i| tokens.get(i).is_some_and(is_significant))
}

/// Index of the `)` closing the `(` at `open`.
pub(crate) fn closing(tokens: &[TokenWithSpan], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate().skip(open) {
        match t.token {
            Token::LParen => depth += 1,
            Token::RParen => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// A word written without `"`: a keyword or a plain name.
pub(crate) fn unquoted_word(t: Option<&TokenWithSpan>) -> Option<&Word> {
    match t.map(|t| &t.token) {
        Some(Token::Word(w)) if w.quote_style.is_none() => Some(w),
        _ => None,
    }
}

/// Whether `t` is the unquoted word `word`, in any case.
pub(crate) fn word_is(t: &TokenWithSpan, word: &str) -> bool {
    is_word(Some(t), word)
}

/// Whether there is a token and it is the unquoted word `word`, in any case.
pub(crate) fn is_word(t: Option<&TokenWithSpan>, word: &str) -> bool {
    unquoted_word(t).is_some_and(|w| w.value.eq_ignore_ascii_case(word))
}

/// Whether `t` is the unquoted keyword `k` as sqlparser's tokenizer knows it.
pub(crate) fn is_keyword(t: &TokenWithSpan, k: Keyword) -> bool {
    unquoted_word(Some(t)).is_some_and(|w| w.keyword == k)
}

/// An unquoted word in upper case, as statements compare their keywords.
pub(crate) fn upper_word(t: Option<&TokenWithSpan>) -> Option<String> {
    unquoted_word(t).map(|w| w.value.to_ascii_uppercase())
}

/// Where a token starts.
pub(crate) fn at(t: &TokenWithSpan) -> Position {
    Position::from(t.span.start)
}

/// Where a token starts, if it has a place (a token a rewrite added may have none).
pub(crate) fn located(t: &TokenWithSpan) -> Option<Position> {
    Some(at(t)).filter(|p| p.line > 0)
}

/// A token as the person wrote it, as Trino quotes it in `mismatched input '…'`; `<EOF>` past
/// the end.
pub(crate) fn shown(t: Option<&TokenWithSpan>) -> String {
    t.map_or_else(|| "<EOF>".to_string(), |t| t.token.to_string())
}

/// Trino's parser message for a token its grammar cannot take there.
pub(crate) fn mismatched_message(t: Option<&TokenWithSpan>, expecting: &str) -> String {
    format!("mismatched input '{}'. Expecting: {expecting}", shown(t))
}

/// A SYNTAX_ERROR at `t`, or at `end` (the statement's end) when there is no token.
pub(crate) fn mismatched(t: Option<&TokenWithSpan>, end: Position, expecting: &str) -> TrinoError {
    TrinoError::at(
        ErrorName::SyntaxError,
        t.map_or(end, at),
        mismatched_message(t, expecting),
    )
}

/// The position just past the end of `sql`, where Trino reports an unexpected `<EOF>`.
pub(crate) fn end_of(sql: &str) -> Position {
    let line = sql.lines().count().max(1) as u64;
    let column = sql.lines().last().map_or(0, |l| l.chars().count()) as u64 + 1;
    Position::new(line, column)
}

/// `name` or `catalog.name` (any number of parts, each lower-cased) starting at token `i` of
/// the significant tokens; the index after it.
pub(crate) fn qualified_name(
    tokens: &[TokenWithSpan],
    mut i: usize,
    end: Position,
) -> Result<(String, usize), TrinoError> {
    let mut parts = Vec::new();
    loop {
        match tokens.get(i).map(|t| &t.token) {
            Some(Token::Word(w)) => parts.push(w.value.to_lowercase()),
            _ => return Err(mismatched(tokens.get(i), end, "<identifier>")),
        }
        i += 1;
        if tokens.get(i).is_some_and(|t| t.token == Token::Period) {
            i += 1;
        } else {
            break;
        }
    }
    Ok((parts.join("."), i))
}

/// A token a rewrite adds, placed at `span`.
pub(crate) fn token(t: Token, span: Span) -> TokenWithSpan {
    TokenWithSpan::new(t, span)
}

/// A word a rewrite adds: `quote_style` `Some('"')` for a delimited identifier, `keyword` as
/// the tokenizer would have read it (the parser reads that field, not the text).
pub(crate) fn word_token(
    value: String,
    quote_style: Option<char>,
    keyword: Keyword,
    span: Span,
) -> TokenWithSpan {
    token(
        Token::Word(Word {
            value,
            quote_style,
            keyword,
        }),
        span,
    )
}

/// A delimited identifier `"{mark}{text}"` a rewrite adds for the analysis to recognise: `mark`
/// is a private-use character no name the person writes starts with.
pub(crate) fn marker(mark: char, text: &str, span: Span) -> TokenWithSpan {
    word_token(format!("{mark}{text}"), Some('"'), Keyword::NoKeyword, span)
}

/// `sql` with the characters before byte `end` blanked out, line breaks kept: what is left
/// (the statement EXPLAIN explains, the query after inline routines) keeps every position it
/// has in the whole text.
pub(crate) fn blank_prefix(sql: &str, end: usize) -> String {
    let mut out = String::with_capacity(sql.len());
    for (i, c) in sql.char_indices() {
        if i < end && c != '\n' {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanking_keeps_positions() {
        let sql = "EXPLAIN (TYPE VALIDATE)\nSELECT é";
        let blanked = blank_prefix(sql, 24);
        assert_eq!(blanked.len(), sql.len());
        assert!(blanked.ends_with("\nSELECT é"));
        assert!(blanked[..23].chars().all(|c| c == ' '));
    }
}
