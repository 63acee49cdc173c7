//! `SHOW STATS FOR table`: a table's statistics as Trino's tpch connector reports them for
//! `tpch.tiny`, where they are exact (https://trino.io/docs/476/sql/show-stats.html; checked
//! against Trino 476): per column, `data_size` the summed length of its *distinct* values (text
//! columns only), `distinct_values_count`, `nulls_fraction`, and `low_value`/`high_value` as
//! varchar (numbers and dates only); then one row with `row_count`. Computed by a query over
//! the table, so the person needs SELECT on it, as for Trino's.
//!
//! `SHOW STATS FOR (query)` is Trino's cost-based estimate. For a query that only picks a
//! table's columns (and sorts), the estimate is the table's statistics of those columns
//! (ProjectStatsRule and SortStatsRule pass them through; checked against Trino 476). For
//! constant rows, which Trino folds into one VALUES node, the statistics are the rows'
//! (constant_stats.rs). Any other query (filters, joins, aggregations), whose estimate the
//! stand-in has no model for, is refused.

use sqlparser::tokenizer::Token;

use super::constant_stats::{constant_query, show_constant_stats};
use super::{Cursor, existing_table};
use crate::SessionContext;
use crate::catalog::Catalogs;
use crate::catalog::ColumnMeta;
use crate::error::{ErrorName, TrinoError, error_at};
use crate::sql::{Plan, plan};
use crate::types::TrinoType;

/// After `SHOW STATS`: `FOR table`.
pub(super) fn show_stats(
    c: &mut Cursor<'_>,
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    if !c.keyword("FOR") {
        return Err(c.error());
    }
    let at = c.location();
    let (name, projection) = if c.peek().is_some_and(|t| t.token == Token::LParen) {
        if let Some(query) = constant_query(c, sql) {
            return show_constant_stats(query, catalogs, session);
        }
        match projection_query(c) {
            Some(found) => found,
            None => {
                return Err(error_at(
                    ErrorName::NotSupported,
                    at,
                    "SHOW STATS FOR a query (Trino's cost-based estimates) is not supported by \
                     the QueryMesh stand-in beyond a table's columns in any order and constant \
                     rows",
                ));
            }
        }
    } else {
        (c.name()?, None)
    };
    c.end()?;
    // Trino places none of these errors.
    let (catalog, schema, table, meta) = existing_table(&name, None, catalogs, session)?;
    // A listed tpch schema not generated yet has metadata but no rows to count.
    if let Some(message) = catalogs.unavailable(&catalog, &schema) {
        return Err(error_at(ErrorName::TableNotFound, None, message));
    }
    let columns: Vec<&ColumnMeta> = match &projection {
        None => meta.listed_columns().collect(),
        Some(names) => {
            let mut picked = Vec::new();
            for name in names {
                let column = meta.column(name).ok_or_else(|| {
                    TrinoError::new(
                        ErrorName::ColumnNotFound,
                        format!("Column '{name}' cannot be resolved"),
                    )
                })?;
                picked.push(column);
            }
            picked
        }
    };
    let from = format!(
        "{}.{}.{}",
        quoted(&catalog),
        quoted(&schema),
        quoted(&table)
    );
    let rows: Vec<String> = columns
        .into_iter()
        .map(|column| column_row(&column.name, &column.ty, &from))
        .collect();
    with_row_count(rows, &from, catalogs, session)
}

/// SHOW STATS's table: the columns' `rows` (queries of seven columns) and the row count of
/// `from`.
pub(super) fn with_row_count(
    mut rows: Vec<String>,
    from: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    rows.push(format!(
        "SELECT CAST(NULL AS varchar), CAST(NULL AS double), CAST(NULL AS double), \
         CAST(NULL AS double), CAST(count(*) AS double), CAST(NULL AS varchar), \
         CAST(NULL AS varchar) FROM {from}"
    ));
    let sql = format!(
        "SELECT * FROM ({}) AS stats(column_name, data_size, distinct_values_count, \
         nulls_fraction, row_count, low_value, high_value)",
        rows.join(" UNION ALL ")
    );
    plan(catalogs, &sql, session)
}

/// `(SELECT a, b FROM t [ORDER BY …])` or `(SELECT * FROM t …)`: a projection of one table's
/// columns, whose statistics are the table's (Trino's StatsCalculator passes a projection of
/// columns and a sort through unchanged: ProjectStatsRule, SortStatsRule); `None` for any other
/// query. The table's name, and the columns in order (`None`: all, for `*`).
fn projection_query(c: &mut Cursor<'_>) -> Option<(Vec<String>, Option<Vec<String>>)> {
    let mut probe = Cursor::new(c.rest());
    probe.take();
    if !probe.keyword("SELECT") {
        return None;
    }
    let columns = if matches!(probe.peek().map(|t| &t.token), Some(Token::Mul)) {
        probe.take();
        None
    } else {
        let mut names = Vec::new();
        loop {
            match probe.take().map(|t| &t.token) {
                Some(Token::Word(w)) => names.push(w.value.to_lowercase()),
                _ => return None,
            }
            match probe.peek().map(|t| &t.token) {
                Some(Token::Comma) => {
                    probe.take();
                }
                _ => break,
            }
        }
        Some(names)
    };
    if !probe.keyword("FROM") {
        return None;
    }
    let table = probe.name().ok()?;
    if probe.keyword("ORDER") {
        if !probe.keyword("BY") {
            return None;
        }
        // Sort keys only: any other clause after them changes the statistics.
        let mut depth = 0usize;
        while let Some(token) = probe.peek() {
            match &token.token {
                Token::RParen if depth == 0 => break,
                Token::LParen => depth += 1,
                Token::RParen => depth -= 1,
                Token::Word(w)
                    if depth == 0
                        && ["LIMIT", "OFFSET", "FETCH"]
                            .iter()
                            .any(|k| w.value.eq_ignore_ascii_case(k)) =>
                {
                    return None;
                }
                _ => {}
            }
            probe.take();
        }
    }
    if !matches!(probe.take().map(|t| &t.token), Some(Token::RParen)) {
        return None;
    }
    for _ in 0..probe.taken() {
        c.take();
    }
    Some((table, columns))
}

/// One column's row.
fn column_row(name: &str, ty: &TrinoType, from: &str) -> String {
    let column = quoted(name);
    let data_size = if ty.is_string() {
        format!(
            "(SELECT CAST(sum(length(v)) AS double) FROM (SELECT DISTINCT {column} AS v FROM {from}))"
        )
    } else {
        "CAST(NULL AS double)".into()
    };
    let ordered = ty.is_numeric() || *ty == TrinoType::Date;
    let (low, high) = if matches!(ty, TrinoType::Double | TrinoType::Real) {
        // Statistics print a double as Java's Double.toString (`874.89`), not as CAST to
        // varchar writes it (`8.7489E2`); format('%s', …) is that text.
        (
            format!("format('%s', min({column}))"),
            format!("format('%s', max({column}))"),
        )
    } else if ordered {
        (
            format!("CAST(min({column}) AS varchar)"),
            format!("CAST(max({column}) AS varchar)"),
        )
    } else {
        (
            "CAST(NULL AS varchar)".into(),
            "CAST(NULL AS varchar)".into(),
        )
    };
    format!(
        "SELECT CAST({} AS varchar), {data_size}, CAST(count(DISTINCT {column}) AS double), \
         CASE WHEN count(*) = 0 THEN NULL \
         ELSE CAST(count(*) - count({column}) AS double) / count(*) END, \
         CAST(NULL AS double), {low}, {high} FROM {from}",
        querymesh_values::sqlite_text::sql_string(name)
    )
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
