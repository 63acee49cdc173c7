//! Trino's SQL dialect for sqlparser, which has none (trino-facts.md "sqlparser and Trino
//! SQL"): identifiers are delimited only with `"` (a backtick is a syntax error), `LIMIT a, b`
//! is not Trino, aggregates take `FILTER (WHERE …)`, and `x -> x + 1` is a lambda.

use sqlparser::dialect::Dialect;

#[derive(Debug, Default, Clone, Copy)]
pub struct TrinoDialect;

impl Dialect for TrinoDialect {
    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        ch == '"'
    }

    fn is_identifier_start(&self, ch: char) -> bool {
        ch.is_alphabetic() || ch == '_'
    }

    fn is_identifier_part(&self, ch: char) -> bool {
        ch.is_alphabetic() || ch.is_ascii_digit() || ch == '_'
    }

    fn supports_filter_during_aggregation(&self) -> bool {
        true
    }

    fn supports_lambda_functions(&self) -> bool {
        true
    }

    fn supports_limit_comma(&self) -> bool {
        false
    }

    fn supports_window_function_null_treatment_arg(&self) -> bool {
        true
    }
}
