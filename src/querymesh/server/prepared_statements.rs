//! Trino's prepared statements as its clients keep them (JDBC by default, the Python client
//! with `legacy_prepared_statements`): the server holds none. `PREPARE name FROM statement`
//! answers `X-Trino-Added-Prepare: name=<statement>`; the client then sends every statement it
//! holds in `X-Trino-Prepared-Statement: name=<statement>,…` with each request; `EXECUTE name
//! [USING v, …]` runs one of them; `DEALLOCATE PREPARE name` answers
//! `X-Trino-Deallocated-Prepare: name`. Names and statements travel URL-encoded.
//!
//! EXECUTE binds its values as `EXECUTE IMMEDIATE` does, so both ways share one binder.

use std::collections::HashMap;

use axum::http::HeaderMap;
use sqlparser::dialect::GenericDialect;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

use crate::querymesh::engine::error::{ErrorName, Position, TrinoError};
use crate::querymesh::engine::sql::describe::Described;

pub const PREPARED_STATEMENT_HEADER: &str = "x-trino-prepared-statement";
pub const ADDED_PREPARE_HEADER: &str = "x-trino-added-prepare";
pub const DEALLOCATED_PREPARE_HEADER: &str = "x-trino-deallocated-prepare";

/// One of the three statements about prepared statements.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    /// `PREPARE name FROM statement`.
    Prepare { name: String, statement: String },
    /// `EXECUTE name [USING …]`: `using` is the text from `USING` on, or empty.
    Execute { name: String, using: String },
    /// `DEALLOCATE PREPARE name`.
    Deallocate { name: String },
    /// `DESCRIBE OUTPUT name` or `DESCRIBE INPUT name`.
    Describe { name: String, described: Described },
}

/// What Trino answers (HTTP 400) for a header it cannot read.
pub const INVALID_HEADER: &str = "Invalid X-Trino-Prepared-Statement header";

/// The statements a request's client holds, by name; `None` when the header is malformed.
pub fn held(headers: &HeaderMap) -> Option<HashMap<String, String>> {
    let mut held = HashMap::new();
    for value in headers.get_all(PREPARED_STATEMENT_HEADER) {
        for entry in value.to_str().ok()?.split(',').map(str::trim) {
            if entry.is_empty() {
                continue;
            }
            let (name, statement) = entry.split_once('=')?;
            held.insert(decode(name), decode(statement));
        }
    }
    Some(held)
}

fn decode(text: &str) -> String {
    form_urlencoded::parse(format!("x={text}").as_bytes())
        .next()
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default()
}

fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// `X-Trino-Added-Prepare`'s value for a PREPARE.
pub fn added_header(name: &str, statement: &str) -> String {
    format!("{}={}", encode(name), encode(statement))
}

/// `X-Trino-Deallocated-Prepare`'s value for a DEALLOCATE PREPARE.
pub fn deallocated_header(name: &str) -> String {
    encode(name)
}

/// Trino's error for a name the client does not hold.
pub fn not_found(name: &str) -> TrinoError {
    TrinoError::new(
        ErrorName::NotFound,
        format!("Prepared statement not found: {name}"),
    )
}

/// How many `?` parameters `statement` has.
pub fn placeholders(statement: &str) -> usize {
    Tokenizer::new(&GenericDialect, statement)
        .tokenize()
        .map_or(0, |tokens| {
            tokens
                .iter()
                .filter(|t| matches!(t, Token::Placeholder(p) if p == "?"))
                .count()
        })
}

/// `EXECUTE IMMEDIATE` text running `statement` with the `USING …` text of an EXECUTE.
pub fn as_execute_immediate(statement: &str, using: &str) -> String {
    format!(
        "EXECUTE IMMEDIATE '{}' {using}",
        statement.replace('\'', "''")
    )
}

/// The command `sql` is, `None` when it is none of them (then the engine plans it).
pub fn recognize(sql: &str) -> Option<Result<Command, TrinoError>> {
    // Every statement comes through here: tokenize only those that may be one of these.
    let mentions = |word: &str| {
        sql.as_bytes()
            .windows(word.len())
            .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
    };
    if !mentions("PREPARE") && !mentions("EXECUTE") && !mentions("DESCRIBE") {
        return None;
    }
    let tokens = Tokenizer::new(&GenericDialect, sql)
        .tokenize_with_location()
        .ok()?;
    let tokens: Vec<TokenWithSpan> = tokens
        .into_iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_)))
        .collect();
    let word = |i: usize| match tokens.get(i).map(|t| &t.token) {
        Some(Token::Word(w)) if w.quote_style.is_none() => Some(w.value.to_ascii_uppercase()),
        _ => None,
    };
    let name = |i: usize| -> Result<String, TrinoError> {
        match tokens.get(i).map(|t| &t.token) {
            Some(Token::Word(w)) if w.quote_style.is_none() => Ok(w.value.to_lowercase()),
            Some(Token::Word(w)) => Ok(w.value.clone()),
            other => Err(mismatched(
                sql,
                tokens.get(i),
                other.is_none(),
                "<identifier>",
            )),
        }
    };
    let rest = |i: usize| tokens.get(i).map(|t| &sql[offset(sql, t)..]);
    match (word(0).as_deref(), word(1).as_deref()) {
        (Some("PREPARE"), _) => Some((|| {
            let name = name(1)?;
            if word(2).as_deref() != Some("FROM") {
                return Err(mismatched(sql, tokens.get(2), tokens.len() <= 2, "'FROM'"));
            }
            let statement = rest(3)
                .map(|s| s.trim().trim_end_matches(';').trim_end().to_string())
                .filter(|s| !s.is_empty())
                .ok_or_else(|| mismatched(sql, None, true, "<query>"))?;
            Ok(Command::Prepare { name, statement })
        })()),
        (Some("EXECUTE"), Some("IMMEDIATE")) => None,
        (Some("EXECUTE"), _) => Some((|| {
            let name = name(1)?;
            let using = match word(2).as_deref() {
                None if tokens.len() <= 2 => String::new(),
                Some("USING") => rest(2).unwrap_or_default().to_string(),
                _ => return Err(mismatched(sql, tokens.get(2), false, "'USING', <EOF>")),
            };
            Ok(Command::Execute { name, using })
        })()),
        (Some("DEALLOCATE"), Some("PREPARE")) => Some((|| {
            let name = name(2)?;
            if let Some(extra) = tokens.get(3) {
                return Err(mismatched(sql, Some(extra), false, "<EOF>"));
            }
            Ok(Command::Deallocate { name })
        })()),
        // `DESCRIBE output` and `DESCRIBE output.t` describe tables.
        (Some("DESCRIBE"), Some(which @ ("OUTPUT" | "INPUT")))
            if tokens
                .get(2)
                .is_some_and(|t| matches!(t.token, Token::Word(_))) =>
        {
            let described = match which {
                "OUTPUT" => Described::Output,
                _ => Described::Input,
            };
            Some((|| {
                let name = name(2)?;
                if let Some(extra) = tokens.get(3) {
                    return Err(mismatched(sql, Some(extra), false, "<EOF>"));
                }
                Ok(Command::Describe { name, described })
            })())
        }
        _ => None,
    }
}

/// Byte offset of `token` in `sql` (its span is line and column, 1-based, in characters).
fn offset(sql: &str, token: &TokenWithSpan) -> usize {
    let Position { line, column } = token.span.start.into();
    let line_start: usize = sql
        .split_inclusive('\n')
        .take(line.saturating_sub(1) as usize)
        .map(str::len)
        .sum();
    sql[line_start..]
        .char_indices()
        .nth(column.saturating_sub(1) as usize)
        .map_or(sql.len(), |(i, _)| line_start + i)
}

fn mismatched(
    sql: &str,
    token: Option<&TokenWithSpan>,
    at_end: bool,
    expecting: &str,
) -> TrinoError {
    let (found, location) = match token {
        Some(t) if !at_end => (t.token.to_string(), Position::from(t.span.start)),
        _ => {
            let lines: Vec<&str> = sql.split('\n').collect();
            let last = lines.last().map_or(0, |l| l.chars().count());
            (
                "<EOF>".to_string(),
                Position::new(lines.len() as u64, last as u64 + 1),
            )
        }
    };
    TrinoError::at(
        ErrorName::SyntaxError,
        location,
        format!("mismatched input '{found}'. Expecting: {expecting}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_three_commands_are_recognized() {
        assert_eq!(
            recognize("PREPARE My_Query FROM SELECT * FROM nation WHERE regionkey = ?;"),
            Some(Ok(Command::Prepare {
                name: "my_query".into(),
                statement: "SELECT * FROM nation WHERE regionkey = ?".into()
            }))
        );
        assert_eq!(
            recognize("EXECUTE q USING 1, 'x'"),
            Some(Ok(Command::Execute {
                name: "q".into(),
                using: "USING 1, 'x'".into()
            }))
        );
        assert_eq!(
            recognize("execute q"),
            Some(Ok(Command::Execute {
                name: "q".into(),
                using: String::new()
            }))
        );
        assert_eq!(
            recognize("DEALLOCATE PREPARE q"),
            Some(Ok(Command::Deallocate { name: "q".into() }))
        );
        assert_eq!(
            recognize("describe output q"),
            Some(Ok(Command::Describe {
                name: "q".into(),
                described: Described::Output
            }))
        );
        assert_eq!(
            recognize("DESCRIBE INPUT \"Q\""),
            Some(Ok(Command::Describe {
                name: "Q".into(),
                described: Described::Input
            }))
        );
        // A table named `output`, or `input`, is described as a table.
        assert_eq!(recognize("DESCRIBE output"), None);
        assert_eq!(recognize("DESCRIBE input"), None);
        assert_eq!(recognize("DESCRIBE output.nation"), None);
        assert_eq!(recognize("EXECUTE IMMEDIATE 'SELECT 1'"), None);
        assert_eq!(recognize("SELECT 1"), None);
    }

    #[test]
    fn malformed_commands_are_syntax_errors_at_their_place() {
        for (sql, message) in [
            (
                "PREPARE q SELECT 1",
                "line 1:11: mismatched input 'SELECT'. Expecting: 'FROM'",
            ),
            (
                "PREPARE q FROM",
                "line 1:15: mismatched input '<EOF>'. Expecting: <query>",
            ),
            (
                "EXECUTE 1",
                "line 1:9: mismatched input '1'. Expecting: <identifier>",
            ),
            (
                "DEALLOCATE PREPARE q x",
                "line 1:22: mismatched input 'x'. Expecting: <EOF>",
            ),
            (
                "DESCRIBE OUTPUT q x",
                "line 1:19: mismatched input 'x'. Expecting: <EOF>",
            ),
        ] {
            let error = recognize(sql).expect("recognized").expect_err("refused");
            assert_eq!(error.name, ErrorName::SyntaxError, "{sql}");
            assert_eq!(error.message(), message, "{sql}");
        }
    }

    #[test]
    fn the_header_round_trips_names_and_statements() {
        let statement = "SELECT name FROM nation WHERE name = 'a,b=c' AND regionkey = ?";
        let mut headers = HeaderMap::new();
        let value = format!("{},other=SELECT+1", added_header("q", statement));
        headers.insert(
            PREPARED_STATEMENT_HEADER,
            HeaderValue::from_str(&value).expect("a header value"),
        );
        let statements = held(&headers).expect("parses");
        assert_eq!(statements.get("q").map(String::as_str), Some(statement));
        assert_eq!(
            statements.get("other").map(String::as_str),
            Some("SELECT 1")
        );
        headers.insert(
            PREPARED_STATEMENT_HEADER,
            HeaderValue::from_static("nonsense"),
        );
        assert!(held(&headers).is_none());
    }

    #[test]
    fn execute_binds_through_execute_immediate() {
        assert_eq!(
            as_execute_immediate("SELECT * FROM t WHERE a = 'x' AND b = ?", "USING 2"),
            "EXECUTE IMMEDIATE 'SELECT * FROM t WHERE a = ''x'' AND b = ?' USING 2"
        );
    }
}
