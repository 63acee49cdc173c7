//! Trino spellings sqlparser cannot parse, rewritten in the token stream before parsing into
//! the spelling it parses to the same tree:
//!
//! - `trim(s, chars)` (StringFunctions.trim with code points): sqlparser takes the comma form
//!   only for some dialects; a quoted `"trim"` makes it an ordinary function call, which the
//!   analyzer maps back.
//! - `VALUES 1, 2` (SqlBase.g4 `VALUES expression (',' expression)*`, each a one-column row):
//!   sqlparser wants every row in parentheses, so each bare row gets them.

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan};

fn is_significant(t: &TokenWithSpan) -> bool {
    !matches!(t.token, Token::Whitespace(_) | Token::EOF)
}

fn next_significant(tokens: &[TokenWithSpan], from: usize) -> Option<usize> {
    (from..tokens.len()).find(|&i| tokens.get(i).is_some_and(is_significant))
}

fn is_keyword(t: &TokenWithSpan, k: Keyword) -> bool {
    matches!(&t.token, Token::Word(w) if w.quote_style.is_none() && w.keyword == k)
}

/// Index of the `)` closing the `(` at `open`.
fn closing(tokens: &[TokenWithSpan], open: usize) -> Option<usize> {
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

/// `trim(a, b)` → `"trim"(a, b)`: a comma at the call's top level, and no FROM or side word.
fn quote_comma_trim(tokens: &mut [TokenWithSpan]) {
    for i in 0..tokens.len() {
        if !tokens.get(i).is_some_and(|t| is_keyword(t, Keyword::TRIM)) {
            continue;
        }
        let Some(open) = next_significant(tokens, i + 1) else {
            continue;
        };
        if tokens.get(open).map(|t| &t.token) != Some(&Token::LParen) {
            continue;
        }
        let Some(close) = closing(tokens, open) else {
            continue;
        };
        let mut depth = 0usize;
        let mut comma = false;
        let mut sql_form = false;
        for t in tokens.get(open + 1..close).unwrap_or_default() {
            match &t.token {
                Token::LParen => depth += 1,
                Token::RParen => depth = depth.saturating_sub(1),
                Token::Comma if depth == 0 => comma = true,
                _ if depth == 0
                    && [
                        Keyword::FROM,
                        Keyword::BOTH,
                        Keyword::LEADING,
                        Keyword::TRAILING,
                    ]
                    .iter()
                    .any(|k| is_keyword(t, *k)) =>
                {
                    sql_form = true
                }
                _ => {}
            }
        }
        if comma
            && !sql_form
            && let Some(Token::Word(w)) = tokens.get_mut(i).map(|t| &mut t.token)
        {
            w.quote_style = Some('"');
            w.keyword = Keyword::NoKeyword;
        }
    }
}

/// What ends a VALUES list at its own level.
fn ends_values(t: &TokenWithSpan) -> bool {
    matches!(t.token, Token::RParen | Token::SemiColon)
        || [
            Keyword::ORDER,
            Keyword::LIMIT,
            Keyword::OFFSET,
            Keyword::FETCH,
            Keyword::UNION,
            Keyword::INTERSECT,
            Keyword::EXCEPT,
            Keyword::AS,
        ]
        .iter()
        .any(|k| is_keyword(t, *k))
}

/// Puts each bare row of every `VALUES` list in parentheses.
fn parenthesize_values(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 0;
    while i < tokens.len() {
        if !tokens
            .get(i)
            .is_some_and(|t| is_keyword(t, Keyword::VALUES))
        {
            i += 1;
            continue;
        }
        // Each row: from its first significant token to the comma or end at its level.
        let mut row_start = next_significant(tokens, i + 1);
        while let Some(start) = row_start {
            let Some(first) = tokens.get(start) else {
                break;
            };
            if ends_values(first) && first.token != Token::LParen {
                break;
            }
            let bare = first.token != Token::LParen;
            let mut depth = 0usize;
            let mut end = start;
            let mut next = None;
            while let Some(t) = tokens.get(end) {
                // Brackets nest as parentheses do: `VALUES ARRAY[1, 2], ARRAY[3]` is two rows.
                match t.token {
                    Token::LParen | Token::LBracket => depth += 1,
                    Token::RParen if depth == 0 => break,
                    Token::RParen | Token::RBracket => depth = depth.saturating_sub(1),
                    Token::Comma if depth == 0 => {
                        next = Some(end);
                        break;
                    }
                    _ if depth == 0 && end > start && ends_values(t) => break,
                    Token::EOF => break,
                    _ => {}
                }
                end += 1;
            }
            // `end` is the comma or the end of the list; trailing whitespace stays outside.
            let mut last = end;
            while last > start && !tokens.get(last - 1).is_some_and(is_significant) {
                last -= 1;
            }
            let mut shift = 0;
            if bare && last > start {
                let span_open = tokens[start].span;
                let span_close = tokens[last - 1].span;
                tokens.insert(last, TokenWithSpan::new(Token::RParen, span_close));
                tokens.insert(start, TokenWithSpan::new(Token::LParen, span_open));
                shift = 2;
            }
            row_start = next.and_then(|comma| next_significant(tokens, comma + shift + 1));
            i = end + shift;
        }
        i += 1;
    }
}

/// Rewrites `tokens` (the whole stream, whitespace included) for sqlparser.
pub fn respell(tokens: &mut Vec<TokenWithSpan>) {
    quote_comma_trim(tokens);
    parenthesize_values(tokens);
}
