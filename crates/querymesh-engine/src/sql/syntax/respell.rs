//! Trino spellings sqlparser cannot parse, rewritten in the token stream before parsing into
//! the spelling it parses to the same tree:
//!
//! - `trim(s, chars)` (StringFunctions.trim with code points): sqlparser takes the comma form
//!   only for some dialects; a quoted `"trim"` makes it an ordinary function call, which the
//!   analyzer maps back.
//! - `trim(LEADING FROM s)` (SqlBase.g4 `TRIM '(' (trimsSpecification? trimChar? FROM)?
//!   valueExpression ')'`, the characters left out): sqlparser wants an expression after the
//!   side word, so the FROM goes and `trim(LEADING s)` parses to the same tree.
//! - `normalize(s, NFKC)` (SqlBase.g4 `NORMALIZE '(' valueExpression (',' normalForm)? ')'`):
//!   the form is a word, not an expression; it becomes the string `'NFKC'` the function
//!   reads (querymesh-functions string/unicode_text.rs).
//! - `VALUES 1, 2` (SqlBase.g4 `VALUES expression (',' expression)*`, each a one-column row):
//!   sqlparser wants every row in parentheses, so each bare row gets them.
//! - `TABLE name` (SqlBase.g4 `queryPrimary: TABLE qualifiedName`, docs sql/select.md): the
//!   query `SELECT * FROM name`, its words placed where TABLE is.
//! - `IPADDRESS '10.0.0.1'` (SqlBase.g4 `identifier string`, a typed literal of a type
//!   sqlparser does not know, which it refuses to read as one): a call of a marked name,
//!   `"<mark>ipaddress"('10.0.0.1')`, which the analyzer reads back as the literal
//!   ([`literal_type`]).

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan, Whitespace, Word};

use super::token::{closing, is_keyword, is_significant, next_significant};

/// The opening parenthesis of a `trim(` call whose name is at `i`.
fn trim_call_open(tokens: &[TokenWithSpan], i: usize) -> Option<usize> {
    if !tokens.get(i).is_some_and(|t| is_keyword(t, Keyword::TRIM)) {
        return None;
    }
    next_significant(tokens, i + 1)
        .filter(|&open| tokens.get(open).map(|t| &t.token) == Some(&Token::LParen))
}

/// `trim(a, b)` → `"trim"(a, b)`: a comma at the call's top level, and no FROM or side word.
fn quote_comma_trim(tokens: &mut [TokenWithSpan]) {
    for i in 0..tokens.len() {
        let Some(open) = trim_call_open(tokens, i) else {
            continue;
        };
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

/// `trim(BOTH FROM s)` → `trim(BOTH s)`.
fn drop_trim_side_from(tokens: &mut [TokenWithSpan]) {
    for i in 0..tokens.len() {
        let Some(open) = trim_call_open(tokens, i) else {
            continue;
        };
        let Some(side) = next_significant(tokens, open + 1) else {
            continue;
        };
        let is_side = tokens.get(side).is_some_and(|t| {
            [Keyword::BOTH, Keyword::LEADING, Keyword::TRAILING]
                .iter()
                .any(|k| is_keyword(t, *k))
        });
        if !is_side {
            continue;
        }
        if let Some(from) = next_significant(tokens, side + 1)
            && let Some(t) = tokens.get_mut(from)
            && is_keyword(t, Keyword::FROM)
        {
            t.token = Token::Whitespace(Whitespace::Space);
        }
    }
}

/// `normalize(s, NFD)` → `normalize(s, 'NFD')`.
fn quote_normal_form(tokens: &mut [TokenWithSpan]) {
    for i in 0..tokens.len() {
        let is_normalize = tokens.get(i).is_some_and(|t| {
            matches!(&t.token, Token::Word(w) if w.quote_style.is_none()
                && w.value.eq_ignore_ascii_case("normalize"))
        });
        if !is_normalize {
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
        // The last significant token before `)`, after a comma.
        let Some(form) = (open + 1..close)
            .rev()
            .find(|&j| tokens.get(j).is_some_and(is_significant))
        else {
            continue;
        };
        let after_comma = (open + 1..form)
            .rev()
            .find(|&j| tokens.get(j).is_some_and(is_significant))
            .is_some_and(|j| tokens.get(j).map(|t| &t.token) == Some(&Token::Comma));
        if let Some(t) = tokens.get_mut(form)
            && after_comma
            && let Token::Word(w) = &t.token
            && w.quote_style.is_none()
            && ["NFC", "NFD", "NFKC", "NFKD"].contains(&w.value.to_ascii_uppercase().as_str())
        {
            t.token = Token::SingleQuotedString(w.value.to_ascii_uppercase());
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

/// `x > ALL (VALUES 1, 2)` → `x > ALL (SELECT * FROM (VALUES 1, 2))`: sqlparser takes only
/// a SELECT or WITH query after a quantifier, Trino any query (SqlBase.g4
/// `comparisonOperator comparisonQuantifier '(' query ')'`).
fn quantified_values(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 0;
    while i < tokens.len() {
        let quantifier = tokens.get(i).is_some_and(|t| {
            [Keyword::ALL, Keyword::ANY, Keyword::SOME]
                .iter()
                .any(|k| is_keyword(t, *k))
        });
        let after_comparison = (0..i)
            .rev()
            .find(|&p| tokens.get(p).is_some_and(is_significant))
            .and_then(|p| tokens.get(p))
            .is_some_and(|t| {
                matches!(
                    t.token,
                    Token::Eq | Token::Neq | Token::Lt | Token::Gt | Token::LtEq | Token::GtEq
                )
            });
        let open = next_significant(tokens, i + 1);
        let values = open.and_then(|o| next_significant(tokens, o + 1));
        if !(quantifier && after_comparison)
            || open.and_then(|o| tokens.get(o)).map(|t| &t.token) != Some(&Token::LParen)
            || !values
                .and_then(|v| tokens.get(v))
                .is_some_and(|t| is_keyword(t, Keyword::VALUES))
        {
            i += 1;
            continue;
        }
        let (Some(open), Some(values)) = (open, values) else {
            break;
        };
        let Some(close) = closing(tokens, open) else {
            break;
        };
        let span = tokens[values].span;
        let word = |w: &str| TokenWithSpan::new(Token::make_keyword(w), span);
        let space = || TokenWithSpan::new(Token::Whitespace(Whitespace::Space), span);
        tokens.insert(close, TokenWithSpan::new(Token::RParen, span));
        let prefix = [
            word("SELECT"),
            space(),
            TokenWithSpan::new(Token::Mul, span),
            space(),
            word("FROM"),
            space(),
            TokenWithSpan::new(Token::LParen, span),
        ];
        let added = prefix.len();
        tokens.splice(values..values, prefix);
        i = values + added;
    }
}

/// What `GROUP BY DISTINCT` is respelled to: a first grouping element no Trino text can
/// spell (a placeholder token named as a keyword), which select.rs reads back.
pub const GROUP_BY_DISTINCT: &str = "DISTINCT";

/// `GROUP BY ALL | DISTINCT` (SqlBase.g4 `GROUP BY setQuantifier? groupingElement …`):
/// sqlparser reads `GROUP BY ALL` as DuckDB's and has no DISTINCT there. ALL, the default,
/// is dropped; DISTINCT becomes the marker element `GROUP_BY_DISTINCT` and a comma.
fn group_by_quantifier(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 0;
    while i < tokens.len() {
        let by = tokens.get(i).is_some_and(|t| is_keyword(t, Keyword::GROUP))
            && next_significant(tokens, i + 1)
                .and_then(|b| tokens.get(b))
                .is_some_and(|t| is_keyword(t, Keyword::BY));
        let quantifier = if by {
            next_significant(tokens, i + 1).and_then(|b| next_significant(tokens, b + 1))
        } else {
            None
        };
        let Some(q) = quantifier else {
            i += 1;
            continue;
        };
        let span = tokens[q].span;
        if is_keyword(&tokens[q], Keyword::ALL) {
            tokens[q] = TokenWithSpan::new(Token::Whitespace(Whitespace::Space), span);
        } else if is_keyword(&tokens[q], Keyword::DISTINCT) {
            tokens[q] = TokenWithSpan::new(Token::Placeholder(GROUP_BY_DISTINCT.into()), span);
            tokens.insert(q + 1, TokenWithSpan::new(Token::Comma, span));
        }
        i = q + 1;
    }
}

/// Marks the name of a typed literal's call.
const LITERAL_MARK: char = '\u{F8FD}';

/// The types whose literals sqlparser cannot read.
const LITERAL_TYPES: [&str; 1] = ["ipaddress"];

/// The type a call's name stands for, when it is a typed literal's marked name.
pub fn literal_type(name: &str) -> Option<&str> {
    name.strip_prefix(LITERAL_MARK)
}

/// `IPADDRESS 'x'` → `"<mark>ipaddress"('x')`, the parentheses spanning the string.
fn mark_typed_literals(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 0;
    while i < tokens.len() {
        let type_name = match &tokens[i].token {
            Token::Word(w)
                if w.quote_style.is_none()
                    && LITERAL_TYPES
                        .iter()
                        .any(|t| w.value.eq_ignore_ascii_case(t)) =>
            {
                w.value.to_lowercase()
            }
            _ => {
                i += 1;
                continue;
            }
        };
        let Some(string) = next_significant(tokens, i + 1)
            .filter(|&j| matches!(tokens[j].token, Token::SingleQuotedString(_)))
        else {
            i += 1;
            continue;
        };
        tokens[i].token = Token::Word(Word {
            value: format!("{LITERAL_MARK}{type_name}"),
            quote_style: Some('"'),
            keyword: Keyword::NoKeyword,
        });
        let span = tokens[string].span;
        tokens.insert(string + 1, TokenWithSpan::new(Token::RParen, span));
        tokens.insert(string, TokenWithSpan::new(Token::LParen, span));
        i = string + 3;
    }
}

/// `TABLE name` where a query's primary stands (first, after `(`, a set operation or the
/// WITH queries) → `SELECT * FROM name`; `TABLE(…)` is a table function, left as it is.
fn table_queries(tokens: &mut Vec<TokenWithSpan>) {
    let mut i = 0;
    while i < tokens.len() {
        let primary = is_keyword(&tokens[i], Keyword::TABLE)
            && next_significant(tokens, i + 1)
                .and_then(|n| tokens.get(n))
                .is_some_and(|t| matches!(t.token, Token::Word(_)))
            && match tokens[..i].iter().rev().find(|t| is_significant(t)) {
                None => true,
                Some(previous) => {
                    matches!(previous.token, Token::LParen | Token::RParen)
                        || [
                            Keyword::UNION,
                            Keyword::INTERSECT,
                            Keyword::EXCEPT,
                            Keyword::ALL,
                            Keyword::DISTINCT,
                        ]
                        .iter()
                        .any(|k| is_keyword(previous, *k))
                }
            };
        if !primary {
            i += 1;
            continue;
        }
        let span = tokens[i].span;
        let space = || TokenWithSpan::new(Token::Whitespace(Whitespace::Space), span);
        let spelled = [
            TokenWithSpan::new(Token::make_keyword("SELECT"), span),
            space(),
            TokenWithSpan::new(Token::Mul, span),
            space(),
            TokenWithSpan::new(Token::make_keyword("FROM"), span),
        ];
        tokens.splice(i..=i, spelled);
        i += 5;
        // The name is placed at TABLE too, as Trino places the Table node ("Table … does not
        // exist" at 1:1).
        let mut expect_word = true;
        while let Some(n) = next_significant(tokens, i) {
            let part = match tokens[n].token {
                Token::Word(_) => expect_word,
                Token::Period => !expect_word,
                _ => false,
            };
            if !part {
                break;
            }
            tokens[n].span = span;
            expect_word = !expect_word;
            i = n + 1;
        }
    }
}

/// Rewrites `tokens` (the whole stream, whitespace included) for sqlparser.
pub fn respell(tokens: &mut Vec<TokenWithSpan>) {
    table_queries(tokens);
    mark_typed_literals(tokens);
    quote_comma_trim(tokens);
    drop_trim_side_from(tokens);
    quote_normal_form(tokens);
    group_by_quantifier(tokens);
    quantified_values(tokens);
    parenthesize_values(tokens);
}
