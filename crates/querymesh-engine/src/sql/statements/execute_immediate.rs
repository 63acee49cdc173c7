//! `EXECUTE IMMEDIATE '<statement>' USING v1, v2, …`: how Trino's clients bind parameters
//! (trino-python-client sends `cursor.execute(sql, params)` this way). Each `?` of the
//! statement, in order, takes the matching value; the bound statement is then planned as if it
//! had been sent itself.

use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

use crate::error::{ErrorName, Position, TrinoError};
use crate::sql::syntax::dialect::TrinoDialect;
use crate::sql::syntax::syntax_error;
use crate::sql::syntax::token::{at, word_is};

/// Whether the significant tokens start `EXECUTE IMMEDIATE`.
pub(super) fn recognise(tokens: &[TokenWithSpan]) -> bool {
    matches!(tokens, [execute, immediate, ..] if word_is(execute, "EXECUTE") && word_is(immediate, "IMMEDIATE"))
}

/// The statement with every `?` replaced by its value, as SQL text.
pub(crate) fn bind(sql: &str, tokens: &[TokenWithSpan]) -> Result<String, TrinoError> {
    let expecting_string = |token: Option<&TokenWithSpan>| {
        let (found, location) = match token {
            Some(t) => (t.token.to_string(), at(t)),
            None => ("<EOF>".to_string(), end_of(sql)),
        };
        TrinoError::at(
            ErrorName::SyntaxError,
            location,
            format!("mismatched input '{found}'. Expecting: <string>"),
        )
    };
    let statement = match tokens.get(2) {
        Some(TokenWithSpan {
            token: Token::SingleQuotedString(statement),
            ..
        }) => statement,
        other => return Err(expecting_string(other)),
    };
    let values: Vec<String> = match tokens.get(3) {
        None => Vec::new(),
        Some(using) if word_is(using, "USING") => {
            let mut parser =
                Parser::new(&TrinoDialect).with_tokens_with_locations(tokens[4..].to_vec());
            let values = parser
                .parse_comma_separated(Parser::parse_expr)
                .and_then(|values| parser.expect_token(&Token::EOF).map(|_| values))
                .map_err(|e| syntax_error(e, sql))?;
            values.iter().map(ToString::to_string).collect()
        }
        Some(other) => {
            return Err(TrinoError::at(
                ErrorName::SyntaxError,
                at(other),
                format!(
                    "mismatched input '{}'. Expecting: 'USING', <EOF>",
                    other.token
                ),
            ));
        }
    };

    let inner = Tokenizer::new(&TrinoDialect, statement)
        .tokenize_with_location()
        .map_err(|e| TrinoError::new(ErrorName::SyntaxError, e.to_string()))?;
    let parameters: Vec<&TokenWithSpan> = inner
        .iter()
        .filter(|t| matches!(&t.token, Token::Placeholder(p) if p == "?"))
        .collect();
    if parameters.len() != values.len() {
        return Err(TrinoError::at(
            ErrorName::InvalidParameterUsage,
            Position::new(1, 1),
            format!(
                "Incorrect number of parameters: expected {} but found {}",
                parameters.len(),
                values.len()
            ),
        ));
    }
    // Splice by position in the statement's own text, so its string literals stay as written.
    let mut bound =
        String::with_capacity(statement.len() + values.iter().map(String::len).sum::<usize>());
    let mut copied = 0;
    for (parameter, value) in parameters.iter().zip(&values) {
        let start = crate::sql::syntax::byte_offset(statement, at(parameter));
        bound.push_str(&statement[copied..start]);
        bound.push_str(value);
        copied = start + 1; // `?` is one byte
    }
    bound.push_str(&statement[copied..]);
    Ok(bound)
}

/// The position past the end of `sql`. Unlike `syntax::token::end_of` it counts a trailing
/// line break as starting a line, as Trino 476 does (`SELECT 1 FROM\n` fails at `line 2:1`);
/// making that one do so too would change the other statements' answers, so it waits for its
/// own change.
fn end_of(sql: &str) -> Position {
    let line = sql.matches('\n').count() as u64 + 1;
    let column = sql
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0) as u64
        + 1;
    Position::new(line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(sql: &str) -> Result<String, String> {
        let tokens: Vec<TokenWithSpan> = Tokenizer::new(&TrinoDialect, sql)
            .tokenize_with_location()
            .unwrap()
            .into_iter()
            .filter(|t| !matches!(t.token, Token::Whitespace(_)))
            .collect();
        assert!(recognise(&tokens));
        bind(sql, &tokens).map_err(|e| e.message())
    }

    #[test]
    fn parameters_are_bound_in_order_and_literals_kept() {
        assert_eq!(
            bound("EXECUTE IMMEDIATE 'SELECT ? WHERE name <> ''?'' AND x = ?' USING 7, 'O''Brien'")
                .unwrap(),
            "SELECT 7 WHERE name <> '?' AND x = 'O''Brien'"
        );
        assert_eq!(
            bound("EXECUTE IMMEDIATE 'SELECT ?\n  , ?' USING DATE '2020-01-02', NULL").unwrap(),
            "SELECT DATE '2020-01-02'\n  , NULL"
        );
        assert_eq!(bound("execute immediate 'SELECT 1'").unwrap(), "SELECT 1");
    }

    #[test]
    fn a_wrong_count_or_shape_is_refused() {
        let e = bound("EXECUTE IMMEDIATE 'SELECT ?, ?' USING 1").unwrap_err();
        assert_eq!(
            e,
            "line 1:1: Incorrect number of parameters: expected 2 but found 1"
        );
        assert!(
            bound("EXECUTE IMMEDIATE SELECT")
                .unwrap_err()
                .contains("Expecting: <string>")
        );
        assert!(bound("EXECUTE IMMEDIATE").unwrap_err().contains("'<EOF>'"));
        assert!(
            bound("EXECUTE IMMEDIATE 'SELECT 1' WITH 1")
                .unwrap_err()
                .contains("'USING'")
        );
    }
}
