//! The tokens of a row pattern's text, as Trino's lexer (SqlBase.g4) splits them.

use super::error::PatternError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token {
    /// A name; `delimited` when written in double quotes.
    Identifier {
        name: String,
        delimited: bool,
    },
    /// INTEGER_VALUE: decimal (with `_` between digits), `0x…`, `0o…` or `0b…`.
    Integer(u64),
    LeftParen,
    RightParen,
    Comma,
    Bar,
    Caret,
    Dollar,
    Star,
    Plus,
    Question,
    LeftBrace,
    RightBrace,
    /// `{-`, one token in Trino's lexer: `{ -` is not an exclusion.
    ExclusionStart,
    /// `-}`.
    ExclusionEnd,
    End,
}

/// A token, where it starts in the text and the text it was read from.
#[derive(Clone, Debug)]
pub(super) struct Spanned {
    pub token: Token,
    pub offset: usize,
    pub text: String,
}

/// The largest integer literal Trino reads (a BIGINT).
const MAX_LITERAL: u64 = i64::MAX as u64;

pub(super) fn tokenize(text: &str) -> Result<Vec<Spanned>, PatternError> {
    let mut tokens = Vec::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        let rest = &text[at..];
        let Some(first) = rest.chars().next() else {
            break;
        };
        if first.is_whitespace() {
            at += first.len_utf8();
            continue;
        }
        if rest.starts_with("--") {
            at += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if let Some(comment) = rest.strip_prefix("/*") {
            let Some(close) = comment.find("*/") else {
                return Err(PatternError::syntax(
                    "token recognition error at: '/*'",
                    start,
                ));
            };
            at += close + 4;
            continue;
        }
        let (token, length) = match first {
            '"' => delimited_identifier(rest, start)?,
            '`' => {
                return Err(PatternError::syntax(
                    "backquoted identifiers are not supported; use double quotes to quote identifiers",
                    start,
                ));
            }
            c if c.is_ascii_alphabetic() || c == '_' => {
                let length = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                let name = rest[..length].to_owned();
                let token = Token::Identifier {
                    name,
                    delimited: false,
                };
                (token, length)
            }
            c if c.is_ascii_digit() => integer(rest, start)?,
            '{' if rest.starts_with("{-") => (Token::ExclusionStart, 2),
            '-' if rest.starts_with("-}") => (Token::ExclusionEnd, 2),
            '{' => (Token::LeftBrace, 1),
            '}' => (Token::RightBrace, 1),
            '(' => (Token::LeftParen, 1),
            ')' => (Token::RightParen, 1),
            ',' => (Token::Comma, 1),
            '|' => (Token::Bar, 1),
            '^' => (Token::Caret, 1),
            '$' => (Token::Dollar, 1),
            '*' => (Token::Star, 1),
            '+' => (Token::Plus, 1),
            '?' => (Token::Question, 1),
            other => {
                return Err(PatternError::syntax(
                    format!("token recognition error at: '{other}'"),
                    start,
                ));
            }
        };
        at += length;
        tokens.push(Spanned {
            token,
            offset: start,
            text: text[start..at].to_owned(),
        });
    }
    tokens.push(Spanned {
        token: Token::End,
        offset: text.len(),
        text: "<EOF>".to_owned(),
    });
    Ok(tokens)
}

/// `"…"`, with `""` standing for one quote.
fn delimited_identifier(rest: &str, start: usize) -> Result<(Token, usize), PatternError> {
    let mut name = String::new();
    let mut chars = rest.char_indices().skip(1).peekable();
    while let Some((index, c)) = chars.next() {
        if c != '"' {
            name.push(c);
            continue;
        }
        if chars.peek().is_some_and(|&(_, next)| next == '"') {
            chars.next();
            name.push('"');
            continue;
        }
        if name.is_empty() {
            return Err(PatternError::syntax(
                "Zero-length delimited identifier not allowed",
                start,
            ));
        }
        let token = Token::Identifier {
            name,
            delimited: true,
        };
        return Ok((token, index + 1));
    }
    Err(PatternError::syntax(
        "token recognition error at: '\"'",
        start,
    ))
}

/// An INTEGER_VALUE; digits running into letters are Trino's DIGIT_IDENTIFIER error.
fn integer(rest: &str, start: usize) -> Result<(Token, usize), PatternError> {
    let word_length = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let word = &rest[..word_length];
    let (radix, digits) = match word.get(..2).map(str::to_ascii_lowercase).as_deref() {
        Some("0x") => (16, &word[2..]),
        Some("0o") => (8, &word[2..]),
        Some("0b") => (2, &word[2..]),
        _ => (10, word),
    };
    let well_formed = !digits.is_empty()
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__")
        && digits.chars().all(|c| c == '_' || c.is_digit(radix));
    if !well_formed {
        return Err(PatternError::syntax(
            "identifiers must not start with a digit; surround the identifier with double quotes",
            start,
        ));
    }
    let value = u64::from_str_radix(&digits.replace('_', ""), radix)
        .ok()
        .filter(|value| *value <= MAX_LITERAL)
        .ok_or_else(|| PatternError::syntax(format!("Invalid numeric literal: {word}"), start))?;
    Ok((Token::Integer(value), word_length))
}
