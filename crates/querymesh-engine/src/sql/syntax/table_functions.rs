//! The parts of a table function's invocation sqlparser cannot read (docs functions/table,
//! "Arguments"), made readable before parsing; added tokens carry the place of the tokens they
//! stand for, so error positions stay where they were written.
//!
//! - A table argument given as a query, `TABLE(SELECT …)`, gets a pair of parentheses:
//!   `TABLE((SELECT …))`, a subquery.
//! - A table argument's alias, `TABLE(t) [AS] r [(a, b)]`, becomes a query over the aliased
//!   table: `TABLE((SELECT * FROM t AS r (a, b)))`.
//! - A table argument's `PARTITION BY …`, `ORDER BY …` or `KEEP|PRUNE WHEN EMPTY` becomes a
//!   marker argument of `TABLE(…)` naming the clause, since the built-in functions' table
//!   arguments refuse them all (row semantics).
//! - A descriptor's field written with a type, `DESCRIPTOR(a bigint)`, becomes a marked
//!   field (`exclude_columns` refuses types).

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Span, Token, TokenWithSpan};

use super::token::{self, closing, is_significant, token, word_is, word_token};

/// Marks an identifier added here: the clause or typed field it stands for follows.
pub(crate) const MARK: char = '\u{F8FD}';

/// A keyword as the tokenizer makes it (the parser reads the `keyword` field).
fn keyword(value: &str, keyword: Keyword, span: Span) -> TokenWithSpan {
    word_token(value.to_string(), None, keyword, span)
}

fn marker(text: &str, span: Span) -> TokenWithSpan {
    token::marker(MARK, text, span)
}

/// Rewrites every table argument and descriptor in `tokens` (see the module's notes).
pub(crate) fn rewrite(tokens: &mut Vec<TokenWithSpan>) {
    if !tokens
        .iter()
        .any(|t| word_is(t, "TABLE") || word_is(t, "DESCRIPTOR"))
    {
        return;
    }
    // Worked on without the whitespace (the parser skips it); kept as it was when nothing
    // here applies.
    let original: Vec<TokenWithSpan> = tokens
        .iter()
        .filter(|t| is_significant(t))
        .cloned()
        .collect();
    let mut worked = original.clone();
    let mut i = 0;
    while i < worked.len() {
        if word_is(&worked[i], "TABLE") {
            table_argument(&mut worked, i);
        } else if word_is(&worked[i], "DESCRIPTOR") && in_invocation(&worked, i) {
            descriptor(&mut worked, i);
        }
        i += 1;
    }
    if worked != original {
        *tokens = worked;
    }
}

/// The index of the first `,` or `)` at depth 0 from `from` (the end of an argument).
fn argument_end(t: &[TokenWithSpan], from: usize) -> usize {
    let mut depth = 0usize;
    for (j, x) in t.iter().enumerate().skip(from) {
        match x.token {
            Token::LParen => depth += 1,
            Token::RParen if depth == 0 => return j,
            Token::RParen => depth -= 1,
            Token::Comma if depth == 0 => return j,
            _ => {}
        }
    }
    t.len()
}

/// `TABLE(…)` at `i`: wraps a query; then, if it is a table argument (a name or a query),
/// its alias or its clauses.
fn table_argument(t: &mut Vec<TokenWithSpan>, i: usize) {
    let open = i + 1;
    if t.get(open).map(|x| &x.token) != Some(&Token::LParen) {
        return;
    }
    if t.get(open + 1)
        .is_some_and(|q| ["SELECT", "WITH", "VALUES"].iter().any(|w| word_is(q, w)))
        && let Some(close) = closing(t, open)
    {
        let span = t[open].span;
        t.insert(close, token(Token::RParen, span));
        t.insert(open + 1, token(Token::LParen, span));
    }
    let Some(close) = closing(t, open) else {
        return;
    };
    let inner = &t[open + 1..close];
    let is_query = inner.first().map(|x| &x.token) == Some(&Token::LParen)
        && closing(t, open + 1) == Some(close - 1);
    let is_name = !inner.is_empty()
        && inner
            .iter()
            .all(|x| matches!(x.token, Token::Word(_) | Token::Period));
    if !(is_query || is_name) || !in_invocation(t, i) {
        return;
    }
    let end = argument_end(t, close + 1);
    if end <= close + 1 {
        return;
    }
    let clause = &t[close + 1..end];
    let find = |w: &str| clause.iter().find(|x| word_is(x, w)).map(|x| x.span);
    let kind = find("PARTITION")
        .map(|s| ("partition", s))
        .or_else(|| find("ORDER").map(|s| ("order", s)))
        .or_else(|| find("KEEP").or_else(|| find("PRUNE")).map(|s| ("empty", s)));
    let replacement: Vec<TokenWithSpan> = match kind {
        Some((kind, span)) => {
            let mut out: Vec<TokenWithSpan> = t[i..close].to_vec();
            out.push(token(Token::Comma, span));
            out.push(marker(kind, span));
            out.push(t[close].clone());
            out
        }
        None => {
            // `[AS] r [(a, …)]`: a query reading the aliased input.
            let span = t[open].span;
            let mut out = vec![
                t[i].clone(),
                t[open].clone(),
                token(Token::LParen, span),
                keyword("SELECT", Keyword::SELECT, span),
                token(Token::Mul, span),
                keyword("FROM", Keyword::FROM, span),
            ];
            out.extend(inner.iter().cloned());
            if !word_is(&clause[0], "AS") {
                out.push(keyword("AS", Keyword::AS, span));
            }
            out.extend(clause.iter().cloned());
            out.push(token(Token::RParen, span));
            out.push(t[close].clone());
            out
        }
    };
    t.splice(i..end, replacement);
}

/// Whether the token at `i` is inside a table function's argument list: the parentheses of
/// `TABLE(name(…))` (elsewhere `TABLE(t) x` is left for the parser to refuse, as Trino's does).
fn in_invocation(t: &[TokenWithSpan], i: usize) -> bool {
    let mut depth = 0usize;
    let mut open = None;
    for j in (0..i).rev() {
        match t[j].token {
            Token::RParen => depth += 1,
            Token::LParen if depth == 0 => {
                open = Some(j);
                break;
            }
            Token::LParen => depth -= 1,
            _ => {}
        }
    }
    let Some(open) = open else {
        return false;
    };
    let mut name_start = open;
    while name_start > 0 && matches!(t[name_start - 1].token, Token::Word(_) | Token::Period) {
        name_start -= 1;
    }
    name_start < open
        && name_start >= 2
        && t[name_start - 1].token == Token::LParen
        && word_is(&t[name_start - 2], "TABLE")
}

/// `DESCRIPTOR(…)` at `i`: each field written with more than its name becomes a marker
/// holding the name.
fn descriptor(t: &mut Vec<TokenWithSpan>, i: usize) {
    let open = i + 1;
    if t.get(open).map(|x| &x.token) != Some(&Token::LParen) {
        return;
    }
    let Some(close) = closing(t, open) else {
        return;
    };
    let mut out = Vec::new();
    let mut start = open + 1;
    while start < close {
        let end = argument_end(t, start).min(close);
        match &t[start..end] {
            [first, _, ..] => {
                let name = match &first.token {
                    Token::Word(w) => w.value.clone(),
                    other => other.to_string(),
                };
                out.push(marker(&name, first.span));
            }
            field => out.extend(field.iter().cloned()),
        }
        if end < close {
            out.push(t[end].clone());
        }
        start = end + 1;
    }
    t.splice(open + 1..close, out);
}

#[cfg(test)]
mod tests {
    use sqlparser::tokenizer::Tokenizer;

    use super::{MARK, rewrite};
    use crate::sql::syntax::dialect::TrinoDialect;

    fn rewritten(sql: &str) -> String {
        let mut tokens = Tokenizer::new(&TrinoDialect, sql)
            .tokenize_with_location()
            .unwrap_or_default();
        rewrite(&mut tokens);
        tokens
            .iter()
            .filter(|t| super::is_significant(t))
            .map(|t| t.token.to_string())
            .collect::<Vec<_>>()
            .join(" ")
            .replace(MARK, "~")
    }

    #[test]
    fn table_arguments_become_names_or_queries_sqlparser_reads() {
        assert_eq!(
            rewritten("f(input => TABLE(SELECT 1 a), x => TABLE(t))"),
            "f ( input => TABLE ( ( SELECT 1 a ) ) , x => TABLE ( t ) )"
        );
        assert_eq!(
            rewritten("TABLE(f(TABLE(t) AS r(a, b), 1))"),
            "TABLE ( f ( TABLE ( ( SELECT * FROM t AS r ( a , b ) ) ) , 1 ) )"
        );
        assert_eq!(
            rewritten("TABLE(s.f(TABLE(s.t) PARTITION BY a))"),
            "TABLE ( s . f ( TABLE ( s . t , \"~partition\" ) ) )"
        );
        assert_eq!(
            rewritten("TABLE(f(x => TABLE(t) KEEP WHEN EMPTY))"),
            "TABLE ( f ( x => TABLE ( t , \"~empty\" ) ) )"
        );
        // Outside an invocation's arguments nothing is rewritten.
        assert_eq!(
            rewritten("SELECT * FROM TABLE(t) x WHERE a = 1"),
            "SELECT * FROM TABLE ( t ) x WHERE a = 1"
        );
        assert_eq!(
            rewritten("SELECT * FROM (SELECT 1) s, TABLE(t) x"),
            "SELECT * FROM ( SELECT 1 ) s , TABLE ( t ) x"
        );
        assert_eq!(
            rewritten("SELECT * FROM TABLE(seq(stop => 1)) s"),
            "SELECT * FROM TABLE ( seq ( stop => 1 ) ) s"
        );
    }

    #[test]
    fn a_typed_descriptor_field_is_marked() {
        assert_eq!(
            rewritten("TABLE(f(c => DESCRIPTOR(a bigint, b)))"),
            "TABLE ( f ( c => DESCRIPTOR ( \"~a\" , b ) ) )"
        );
        assert_eq!(
            rewritten("TABLE(f(c => DESCRIPTOR(a, b)))"),
            "TABLE ( f ( c => DESCRIPTOR ( a , b ) ) )"
        );
        assert_eq!(
            rewritten("SELECT DESCRIPTOR(a bigint)"),
            "SELECT DESCRIPTOR ( a bigint )"
        );
    }
}
