//! Unicode string literals, `U&'\0041\+01F600'` and `U&'#0041' UESCAPE '#'` (SqlBase.g4
//! UNICODE_STRING and `UESCAPE STRING`), decoded right after tokenizing as Trino's AstBuilder
//! decodes them: the escape character (`\` unless UESCAPE names another) followed by four hex
//! digits, `+` and six, or itself. sqlparser's tokenizer knows only the backslash, so the
//! dialect leaves the literal as `U`, `&` and a string, and this pass makes the three (and the
//! UESCAPE clause) one string token spanning them. Cases: TestSqlParser.testUnicodeString.

use sqlparser::tokenizer::{Span, Token, TokenWithSpan, Whitespace};

use crate::error::{ErrorName, Position, TrinoError};

/// Replaces every Unicode string literal of `tokens` (all of them, whitespace included) with
/// the plain string it stands for.
pub(crate) fn decode(tokens: &mut Vec<TokenWithSpan>) -> Result<(), TrinoError> {
    let mut i = 0;
    while i + 2 < tokens.len() {
        let Some(body) = literal_at(tokens, i) else {
            i += 1;
            continue;
        };
        let at = Position::from(tokens[i].span.start);
        let mut last = i + 2;
        let mut escape = '\\';
        if let Some((string, text)) = uescape_after(tokens, last) {
            escape = escape_character(&text)
                .map_err(|m| TrinoError::at(ErrorName::SyntaxError, at, m))?;
            last = string;
        }
        let decoded = decode_body(&body, escape)
            .map_err(|m| TrinoError::at(ErrorName::SyntaxError, at, m))?;
        let span = Span::new(tokens[i].span.start, tokens[last].span.end);
        tokens.splice(
            i..=last,
            [TokenWithSpan {
                token: Token::SingleQuotedString(decoded),
                span,
            }],
        );
        i += 1;
    }
    Ok(())
}

/// Numbers with digit separators and an exponent, `123_456.789e4`: Trino's lexer has no
/// separators in a DOUBLE_VALUE, so it reads a decimal `123_456.789` and then the identifier
/// `e4`, an alias (Trino 476 answers a decimal(9,3) column named `e4`). The token is split
/// the same way.
pub(crate) fn split_separated_exponents(tokens: &mut Vec<TokenWithSpan>) -> Result<(), TrinoError> {
    let mut i = 0;
    while i < tokens.len() {
        // Without a point it is no number at all: a DIGIT_IDENTIFIER.
        if let Token::Number(n, _) = &tokens[i].token
            && n.contains('_')
            && !n.contains('.')
            && n.contains(['e', 'E'])
        {
            return Err(TrinoError::at(
                ErrorName::SyntaxError,
                Position::from(tokens[i].span.start),
                "identifiers must not start with a digit; surround the identifier with double quotes",
            ));
        }
        let split = match &tokens[i].token {
            Token::Number(n, long) if n.contains('_') && n.contains('.') => n
                .find(['e', 'E'])
                .filter(|&e| n[e + 1..].chars().all(|c| c.is_ascii_digit()) && e + 1 < n.len())
                .map(|e| (n[..e].to_string(), n[e..].to_string(), *long)),
            _ => None,
        };
        if let Some((mantissa, exponent, long)) = split {
            let span = tokens[i].span;
            tokens.splice(
                i..=i,
                [
                    TokenWithSpan::new(Token::Number(mantissa, long), span),
                    TokenWithSpan::new(Token::Whitespace(Whitespace::Space), span),
                    super::token::word_token(
                        exponent,
                        None,
                        sqlparser::keywords::Keyword::NoKeyword,
                        span,
                    ),
                ],
            );
            i += 3;
        } else {
            i += 1;
        }
    }
    Ok(())
}

/// The body of a `U&'…'` starting at token `i`: `U` (any case, unquoted), `&` and a string,
/// each right after the other.
fn literal_at(tokens: &[TokenWithSpan], i: usize) -> Option<String> {
    let [u, amp, string] = tokens.get(i..i + 3)? else {
        return None;
    };
    let Token::Word(w) = &u.token else {
        return None;
    };
    let adjacent = |a: &TokenWithSpan, b: &TokenWithSpan| a.span.end == b.span.start;
    if w.quote_style.is_some()
        || !w.value.eq_ignore_ascii_case("u")
        || amp.token != Token::Ampersand
        || !adjacent(u, amp)
        || !adjacent(amp, string)
    {
        return None;
    }
    match &string.token {
        Token::SingleQuotedString(s) => Some(s.clone()),
        _ => None,
    }
}

/// `UESCAPE '<c>'` after the literal ending at token `last`: the index of its string, and
/// the string.
fn uescape_after(tokens: &[TokenWithSpan], last: usize) -> Option<(usize, String)> {
    let next = |from: usize| {
        (from..tokens.len()).find(|&k| {
            !matches!(
                tokens[k].token,
                Token::Whitespace(
                    Whitespace::Space
                        | Whitespace::Newline
                        | Whitespace::Tab
                        | Whitespace::SingleLineComment { .. }
                        | Whitespace::MultiLineComment(_)
                )
            )
        })
    };
    let word = next(last + 1)?;
    let Token::Word(w) = &tokens[word].token else {
        return None;
    };
    if w.quote_style.is_some() || !w.value.eq_ignore_ascii_case("uescape") {
        return None;
    }
    let string = next(word + 1)?;
    match &tokens[string].token {
        Token::SingleQuotedString(text) => Some((string, text.clone())),
        _ => None,
    }
}

/// The character UESCAPE names, or Trino's refusal of it.
fn escape_character(text: &str) -> Result<char, String> {
    let mut chars = text.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        if text.is_empty() {
            return Err("Empty Unicode escape character".to_string());
        }
        return Err(format!("Invalid Unicode escape character: {text}"));
    };
    if c.is_ascii_hexdigit() || c == '+' || c == '\'' || c == '"' || c.is_whitespace() {
        return Err(format!("Invalid Unicode escape character: {text}"));
    }
    Ok(c)
}

/// The literal's text with its escapes decoded (AstBuilder.decodeUnicodeLiteral's states).
fn decode_body(body: &str, escape: char) -> Result<String, String> {
    let mut out = String::with_capacity(body.len());
    let mut escaped = false;
    let mut digits = String::new();
    let mut needed = 0usize;
    for c in body.chars() {
        if needed > 0 {
            if !c.is_ascii_hexdigit() {
                return Err(format!("Incomplete escape sequence: {digits}"));
            }
            digits.push(c);
            if digits.len() == needed {
                out.push(code_point(&digits)?);
                digits.clear();
                needed = 0;
            }
        } else if escaped {
            escaped = false;
            if c == escape {
                out.push(escape);
            } else if c == '+' {
                needed = 6;
            } else if c.is_ascii_hexdigit() {
                digits.push(c);
                needed = 4;
            } else {
                return Err(format!("Invalid hexadecimal digit: {c}"));
            }
        } else if c == escape {
            escaped = true;
        } else {
            out.push(c);
        }
    }
    if escaped || needed > 0 {
        return Err(format!("Incomplete escape sequence: {digits}"));
    }
    Ok(out)
}

fn code_point(digits: &str) -> Result<char, String> {
    let value = u32::from_str_radix(digits, 16)
        .map_err(|_| format!("Invalid escaped character: {digits}"))?;
    if (0xD800..=0xDFFF).contains(&value) {
        return Err(format!(
            "Invalid escaped character: {digits}. Escaped character is a surrogate. Use '\\+123456' instead."
        ));
    }
    char::from_u32(value).ok_or_else(|| format!("Invalid escaped character: {digits}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_decode_as_trinos_parser_decodes_them() {
        // TestSqlParser.testUnicodeString.
        assert_eq!(
            decode_body(r"\0041\+01F600", '\\').as_deref(),
            Ok("A\u{1F600}")
        );
        assert_eq!(
            decode_body("ABC###8Bd5", '#').as_deref(),
            Ok("ABC#\u{8bd5}")
        );
        assert_eq!(decode_body(r"a\b", '#').as_deref(), Ok(r"a\b"));
        assert_eq!(
            decode_body(r"hello\6dB\8Bd5", '\\'),
            Err("Incomplete escape sequence: 6dB".into())
        );
        assert_eq!(
            decode_body(r"hello\6D4B\8Bd", '\\'),
            Err("Incomplete escape sequence: 8Bd".into())
        );
        assert_eq!(
            decode_body(r"hello\K6B", '\\'),
            Err("Invalid hexadecimal digit: K".into())
        );
        assert_eq!(
            decode_body(r"hello\+FFFFFD", '\\'),
            Err("Invalid escaped character: FFFFFD".into())
        );
        assert_eq!(
            decode_body(r"hello\DBFF", '\\'),
            Err("Invalid escaped character: DBFF. Escaped character is a surrogate. Use '\\+123456' instead.".into())
        );
        assert_eq!(
            decode_body(r"abc\", '\\'),
            Err("Incomplete escape sequence: ".into())
        );
        assert_eq!(
            escape_character(""),
            Err("Empty Unicode escape character".into())
        );
        assert_eq!(
            escape_character("+"),
            Err("Invalid Unicode escape character: +".into())
        );
        assert_eq!(
            escape_character("%%"),
            Err("Invalid Unicode escape character: %%".into())
        );
        assert_eq!(
            escape_character("1"),
            Err("Invalid Unicode escape character: 1".into())
        );
        assert_eq!(escape_character("#"), Ok('#'));
    }
}
