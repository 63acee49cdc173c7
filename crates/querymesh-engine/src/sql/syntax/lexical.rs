//! Places where Trino's grammar (`SqlBase.g4`) is stricter than sqlparser, checked on the
//! statement's significant tokens before parsing, each answered with Trino's SYNTAX_ERROR:
//!
//! - a zero-length delimited identifier `""` ("Zero-length delimited identifier not allowed";
//!   TestSqlParser `testEmptyIdentifier`-style cases);
//! - a name starting with a digit, `1e` or `1abc`: Trino's lexer reads one DIGIT_IDENTIFIER
//!   (`DIGIT (LETTER | DIGIT | '_')+`) and refuses it ("identifiers must not start with a
//!   digit; surround the identifier with double quotes"); `1.5e` is a decimal aliased `e`;
//! - a reserved word (docs `language/reserved.md`) right after AS, where an identifier must be:
//!   `SELECT 1 AS select`, `FROM nation AS from`;
//! - `count(DISTINCT *)`: `*` is an argument only on its own (`count(*)`);
//! - a predicate after a predicate: `predicated: valueExpression predicate?` takes one
//!   comparison, BETWEEN, IN, LIKE or IS per operand, so `1 < 2 = true` and `1 = 1 IS NULL`
//!   need parentheses in Trino;
//! - `WITH … DELETE`: after a WITH clause comes a query (`'(' | SELECT | TABLE | VALUES`);
//! - `CALL` without a procedure name.

use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::token::{self, at, closing, end_of, is_word, unquoted_word};
use crate::error::{ErrorName, TrinoError};

/// Trino 476's reserved words (docs/src/main/sphinx/language/reserved.md): never an
/// identifier unless double-quoted. (Later docs list PRIMARY too; Trino 476 takes it as a
/// name, as every word here was checked against it: `SELECT 1 AS <word>`.)
const RESERVED: &[&str] = &[
    "ALTER",
    "AND",
    "AS",
    "AUTO",
    "BETWEEN",
    "BY",
    "CASE",
    "CAST",
    "CONSTRAINT",
    "CREATE",
    "CROSS",
    "CUBE",
    "CURRENT_CATALOG",
    "CURRENT_DATE",
    "CURRENT_PATH",
    "CURRENT_ROLE",
    "CURRENT_SCHEMA",
    "CURRENT_TIME",
    "CURRENT_TIMESTAMP",
    "CURRENT_USER",
    "DEALLOCATE",
    "DELETE",
    "DESCRIBE",
    "DISTINCT",
    "DROP",
    "ELSE",
    "END",
    "ESCAPE",
    "EXCEPT",
    "EXISTS",
    "EXTRACT",
    "FALSE",
    "FOR",
    "FROM",
    "FULL",
    "GROUP",
    "GROUPING",
    "HAVING",
    "IN",
    "INNER",
    "INSERT",
    "INTERSECT",
    "INTO",
    "IS",
    "JOIN",
    "JSON_ARRAY",
    "JSON_EXISTS",
    "JSON_OBJECT",
    "JSON_QUERY",
    "JSON_TABLE",
    "JSON_VALUE",
    "LEFT",
    "LIKE",
    "LISTAGG",
    "LOCALTIME",
    "LOCALTIMESTAMP",
    "NATURAL",
    "NORMALIZE",
    "NOT",
    "NULL",
    "ON",
    "OR",
    "ORDER",
    "OUTER",
    "PREPARE",
    "RECURSIVE",
    "RIGHT",
    "ROLLUP",
    "SELECT",
    "SKIP",
    "TABLE",
    "THEN",
    "TRIM",
    "TRUE",
    "UESCAPE",
    "UNION",
    "UNNEST",
    "USING",
    "VALUES",
    "WHEN",
    "WHERE",
    "WITH",
];

/// The words that end an operand and its predicate: a boolean connective or a clause.
const ENDS_PREDICATE: &[&str] = &[
    "AND",
    "OR",
    "NOT",
    "SELECT",
    "FROM",
    "WHERE",
    "GROUP",
    "BY",
    "HAVING",
    "ORDER",
    "LIMIT",
    "OFFSET",
    "FETCH",
    "UNION",
    "INTERSECT",
    "EXCEPT",
    "AS",
    "ON",
    "USING",
    "JOIN",
    "CROSS",
    "INNER",
    "LEFT",
    "RIGHT",
    "FULL",
    "NATURAL",
    "WHEN",
    "THEN",
    "ELSE",
    "END",
    "CASE",
    "WINDOW",
    "OVER",
    "FILTER",
    "WITH",
    "VALUES",
    "ASC",
    "DESC",
    "NULLS",
    "RETURNING",
    "PASSING",
    "ERROR",
    "EMPTY",
    "DEFAULT",
    "KEEP",
    "OMIT",
    "FORMAT",
];

/// What Trino expects after a complete select item, as its parser lists it.
const AFTER_SELECT_ITEM: &str = "'%', '*', '+', ',', '-', '.', '/', 'AND', 'AS', 'AT', 'EXCEPT', \
    'FETCH', 'FROM', 'GROUP', 'HAVING', 'INTERSECT', 'LIMIT', 'OFFSET', 'OR', 'ORDER', 'UNION', \
    'WHERE', 'WINDOW', '[', '||', <EOF>, <identifier>";

fn is_one_of(t: Option<&TokenWithSpan>, words: &[&str]) -> bool {
    unquoted_word(t).is_some_and(|w| words.iter().any(|k| w.value.eq_ignore_ascii_case(k)))
}

fn mismatched(t: &TokenWithSpan, expecting: &str) -> TrinoError {
    token::mismatched(Some(t), at(t), expecting)
}

/// Refuses what Trino's grammar or lexer refuses among `tokens` (the significant ones).
/// Statements the stand-in refuses as writes (CREATE, INSERT, …) are refused before this.
pub fn check(tokens: &[TokenWithSpan]) -> Result<(), TrinoError> {
    for (i, t) in tokens.iter().enumerate() {
        if let Token::Word(w) = &t.token
            && w.quote_style == Some('"')
            && w.value.is_empty()
        {
            return Err(TrinoError::at(
                ErrorName::SyntaxError,
                at(t),
                "Zero-length delimited identifier not allowed",
            ));
        }
        digit_identifier(t, tokens.get(i + 1))?;
        if is_word(Some(t), "MATCH_RECOGNIZE")
            && tokens.get(i + 1).map(|n| &n.token) == Some(&Token::LParen)
        {
            // Trino answers row pattern recognition (docs sql/match-recognize); the stand-in
            // says so by name rather than let the parser stumble on the word.
            return Err(TrinoError::at(
                ErrorName::NotSupported,
                at(t),
                "MATCH_RECOGNIZE (row pattern recognition) is not supported by the QueryMesh \
                 stand-in",
            ));
        }
        if is_word(Some(t), "AS")
            && let Some(next) = tokens.get(i + 1)
            && is_one_of(Some(next), RESERVED)
        {
            return Err(mismatched(next, "<identifier>"));
        }
        if is_word(Some(t), "DISTINCT")
            && i.checked_sub(1)
                .and_then(|p| tokens.get(p))
                .map(|p| &p.token)
                == Some(&Token::LParen)
            && let Some(star) = tokens.get(i + 1).filter(|s| s.token == Token::Mul)
        {
            return Err(mismatched(star, "<expression>"));
        }
    }
    chained_predicates(tokens)?;
    query_after_with(tokens)
}

/// `1e`, `1abc`, `1e5x`: a number run straight into a word, one DIGIT_IDENTIFIER to Trino.
fn digit_identifier(t: &TokenWithSpan, next: Option<&TokenWithSpan>) -> Result<(), TrinoError> {
    let Token::Number(n, _) = &t.token else {
        return Ok(());
    };
    let whole_digits = n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let touching = next.is_some_and(|w| {
        w.span.start == t.span.end && matches!(&w.token, Token::Word(w) if w.quote_style.is_none())
    });
    if whole_digits && touching {
        return Err(TrinoError::at(
            ErrorName::SyntaxError,
            at(t),
            "identifiers must not start with a digit; surround the identifier with double quotes",
        ));
    }
    Ok(())
}

/// Whether the operand at one nesting level has had its predicate, and whether a BETWEEN
/// still waits for its AND.
#[derive(Clone, Copy, Default)]
struct Level {
    predicate: bool,
    between_needs_and: bool,
}

fn is_comparison(token: &Token) -> bool {
    matches!(
        token,
        Token::Eq | Token::Neq | Token::Lt | Token::Gt | Token::LtEq | Token::GtEq
    )
}

/// A second predicate on one operand: `1 < 2 = true`, `1 = 1 IS NULL`, `x IN (1) = y`.
fn chained_predicates(tokens: &[TokenWithSpan]) -> Result<(), TrinoError> {
    let mut levels = vec![Level::default()];
    let mut i = 0;
    while let Some(t) = tokens.get(i) {
        match &t.token {
            Token::LParen | Token::LBracket => levels.push(Level::default()),
            Token::RParen | Token::RBracket => {
                if levels.len() > 1 {
                    levels.pop();
                }
            }
            Token::Comma | Token::Arrow | Token::SemiColon => {
                if let Some(level) = levels.last_mut() {
                    *level = Level::default();
                }
            }
            token => {
                let Some(level) = levels.last_mut() else {
                    return Ok(());
                };
                let next = tokens.get(i + 1);
                let negated =
                    is_word(Some(t), "NOT") && is_one_of(next, &["BETWEEN", "IN", "LIKE"]);
                let starts_predicate = is_comparison(token)
                    || negated
                    || is_one_of(Some(t), &["BETWEEN", "IN", "LIKE", "IS"]);
                if starts_predicate {
                    if level.predicate {
                        return Err(mismatched(t, AFTER_SELECT_ITEM));
                    }
                    level.predicate = true;
                    if negated {
                        i += 1;
                    }
                    let head = tokens.get(i);
                    if is_word(head, "BETWEEN") {
                        level.between_needs_and = true;
                    } else if is_word(head, "IS") {
                        // IS [NOT] NULL | IS [NOT] DISTINCT FROM: its words are its own.
                        i += 1;
                        if is_word(tokens.get(i), "NOT") {
                            i += 1;
                        }
                        if is_word(tokens.get(i), "DISTINCT") && is_word(tokens.get(i + 1), "FROM")
                        {
                            i += 1;
                        }
                    }
                } else if is_word(Some(t), "AND") && level.between_needs_and {
                    level.between_needs_and = false;
                } else if is_one_of(Some(t), ENDS_PREDICATE) {
                    *level = Level::default();
                }
            }
        }
        i += 1;
    }
    Ok(())
}

/// `WITH x AS (…) DELETE …`: what follows the WITH clause must be a query.
fn query_after_with(tokens: &[TokenWithSpan]) -> Result<(), TrinoError> {
    if !is_word(tokens.first(), "WITH") {
        return Ok(());
    }
    let mut i = 1;
    if is_word(tokens.get(i), "RECURSIVE") {
        i += 1;
    }
    loop {
        // name [(columns)] AS (query)
        if !matches!(tokens.get(i).map(|t| &t.token), Some(Token::Word(_))) {
            return Ok(());
        }
        i += 1;
        if tokens.get(i).map(|t| &t.token) == Some(&Token::LParen) {
            let Some(close) = closing(tokens, i) else {
                return Ok(());
            };
            i = close + 1;
        }
        if !is_word(tokens.get(i), "AS") {
            return Ok(());
        }
        i += 1;
        if tokens.get(i).map(|t| &t.token) != Some(&Token::LParen) {
            return Ok(());
        }
        let Some(close) = closing(tokens, i) else {
            return Ok(());
        };
        i = close + 1;
        if tokens.get(i).map(|t| &t.token) == Some(&Token::Comma) {
            i += 1;
            continue;
        }
        break;
    }
    match tokens.get(i) {
        Some(t)
            if unquoted_word(Some(t)).is_some()
                && !is_one_of(Some(t), &["SELECT", "TABLE", "VALUES"]) =>
        {
            Err(mismatched(t, "'(', 'SELECT', 'TABLE', 'VALUES'"))
        }
        _ => Ok(()),
    }
}

/// `CALL` must name a procedure (`CALL qualifiedName '(' …`), before it is refused.
pub fn procedure_name(tokens: &[TokenWithSpan], sql: &str) -> Result<(), TrinoError> {
    if !is_word(tokens.first(), "CALL") {
        return Ok(());
    }
    match tokens.get(1) {
        None => Err(TrinoError::at(
            ErrorName::SyntaxError,
            end_of(sql),
            "mismatched input '<EOF>'. Expecting: <identifier>",
        )),
        Some(name) if !matches!(name.token, Token::Word(_)) || is_one_of(Some(name), RESERVED) => {
            Err(mismatched(name, "<identifier>"))
        }
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(sql: &str) -> Option<String> {
        let (_, tokens) = super::super::tokenize(sql).ok()?;
        procedure_name(&tokens, sql)
            .and_then(|()| check(&tokens))
            .err()
            .map(|e| e.message())
    }

    /// Each answer is the real Trino 476's (asked with trino-q); the rules are SqlBase.g4's.
    #[test]
    fn refuses_what_trinos_grammar_refuses() {
        for (sql, expected) in [
            (
                "SELECT 1 AS \"\", 2",
                "1:13: Zero-length delimited identifier not allowed",
            ),
            (
                "SELECT \"\" FROM nation",
                "1:8: Zero-length delimited identifier not allowed",
            ),
            ("SELECT 1e", "1:8: identifiers must not start with a digit"),
            (
                "SELECT 1abc",
                "1:8: identifiers must not start with a digit",
            ),
            (
                "SELECT 1 AS select",
                "1:13: mismatched input 'select'. Expecting: <identifier>",
            ),
            (
                "SELECT 1 AS auto",
                "1:13: mismatched input 'auto'. Expecting: <identifier>",
            ),
            (
                "SELECT n.name FROM nation AS select",
                "1:30: mismatched input 'select'. Expecting: <identifier>",
            ),
            (
                "SELECT count(DISTINCT *) FROM nation",
                "1:23: mismatched input '*'",
            ),
            ("SELECT 1 < 2 = true", "1:14: mismatched input '='"),
            ("SELECT 1 = 1 IS NULL", "1:14: mismatched input 'IS'"),
            ("SELECT 1 IN (1) = true", "1:17: mismatched input '='"),
            (
                "SELECT 3 BETWEEN 1 AND 5 = true",
                "1:26: mismatched input '='",
            ),
            ("SELECT 'a' LIKE 'a' = true", "1:21: mismatched input '='"),
            (
                "WITH x AS (SELECT 1) DELETE FROM nation",
                "1:22: mismatched input 'DELETE'. Expecting: '(', 'SELECT', 'TABLE', 'VALUES'",
            ),
            (
                "call",
                "1:5: mismatched input '<EOF>'. Expecting: <identifier>",
            ),
            (
                "call 1",
                "1:6: mismatched input '1'. Expecting: <identifier>",
            ),
        ] {
            let refused = refusal(sql).unwrap_or_default();
            assert!(refused.contains(expected), "{sql}: {refused}");
        }
    }

    #[test]
    fn takes_what_trinos_grammar_takes() {
        for sql in [
            "SELECT 1.5e",
            "SELECT 1 AS \"select\"",
            "SELECT (1 < 2) = true",
            "SELECT 1 = 1 AND 2 = 2 OR 3 BETWEEN 1 AND 5 AND 4 IS NOT NULL",
            "SELECT x IS NOT DISTINCT FROM y AND y NOT IN (1, 2) FROM t",
            "SELECT CASE WHEN a = b THEN c = d ELSE e < f END",
            "SELECT filter(ARRAY[1], x -> x = 1), if(a = b, c = d)",
            "SELECT count(*), count(DISTINCT x) FROM t WHERE a = b",
            "SELECT CAST(1 AS varchar) = '1'",
            "WITH x AS (SELECT 1), y (a) AS (SELECT 2) SELECT * FROM x",
            "call system.runtime.kill_query('x')",
        ] {
            assert_eq!(refusal(sql), None, "{sql}");
        }
    }
}
