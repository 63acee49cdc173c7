//! Trino's SQL dialect for sqlparser, which has none (trino-facts.md "sqlparser and Trino
//! SQL"): identifiers are delimited only with `"` (a backtick is a syntax error), `LIMIT a, b`
//! is not Trino, aggregates take `FILTER (WHERE …)`, `x -> x + 1` is a lambda, and integer
//! literals may be written `1_000` or `0x1F`.

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

    /// `EXTRACT(DAY_OF_WEEK FROM x)` and Trino's other ExtractField names; the analyzer
    /// refuses any it does not know, as Trino's parser does.
    fn allow_extract_custom(&self) -> bool {
        true
    }

    fn supports_filter_during_aggregation(&self) -> bool {
        true
    }

    /// `GROUP BY ROLLUP (…)`, `CUBE (…)`, `GROUPING SETS (…)` (SqlBase.g4 `groupingElement`).
    fn supports_group_by_expr(&self) -> bool {
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

    /// `1_000` (SqlBase.g4 DECIMAL_INTEGER: `DIGIT ('_'? DIGIT)*`); without this sqlparser
    /// reads `SELECT 1_000` as `1` aliased `_000`.
    fn supports_numeric_literal_underscores(&self) -> bool {
        true
    }

    /// `(row).*` (SqlBase.g4 `primaryExpression '.' ASTERISK`): a row's fields as columns.
    fn supports_select_expr_star(&self) -> bool {
        true
    }

    /// `t.* AS (a, b)`: the list arrives as one marked alias (`wildcard_aliases`); any other
    /// alias after a wildcard is refused by the analysis, as Trino's grammar refuses it.
    fn supports_select_wildcard_with_alias(&self) -> bool {
        true
    }

    /// `0x1F`, `0o17`, `0b101` are integers in Trino (HEXADECIMAL_, OCTAL_, BINARY_INTEGER).
    fn supports_non_decimal_integer_literals(&self) -> bool {
        true
    }
}
