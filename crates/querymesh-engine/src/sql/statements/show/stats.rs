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
use super::{Cursor, existing_table, filtered_stats};
use crate::SessionContext;
use crate::catalog::Catalogs;
use crate::catalog::ColumnMeta;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::syntax::byte_offset;
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
    let refused = || {
        error_at(
            ErrorName::NotSupported,
            at,
            "SHOW STATS FOR a query (Trino's cost-based estimates) is not supported by the \
             QueryMesh stand-in beyond a table's columns in any order, filtered by comparisons \
             of its columns with literals, and constant rows",
        )
    };
    let (name, projection, conjuncts) = if c.peek().is_some_and(|t| t.token == Token::LParen) {
        if let Some(query) = constant_query(c, sql) {
            return show_constant_stats(query, catalogs, session);
        }
        let Some(query) = projection_query(c) else {
            // The query's own errors first, as Trino's (it analyses before it estimates).
            if let Some((start, end)) = parenthesized(c) {
                analyse_in_place(sql, start, end, catalogs, session)?;
            }
            return Err(refused());
        };
        if query.conjuncts.is_some() {
            analyse_in_place(sql, query.start, query.end, catalogs, session)?;
        }
        (query.table, query.columns, query.conjuncts)
    } else {
        (c.name()?, None, None)
    };
    c.end()?;
    // Trino places none of these errors.
    let (catalog, schema, table, meta) = existing_table(&name, None, catalogs, session)?;
    // A listed tpch schema not generated yet has metadata but no rows to count.
    if let Some(message) = catalogs.unavailable(&catalog, &schema) {
        return Err(error_at(ErrorName::TableNotFound, None, message));
    }
    let listed: Vec<&ColumnMeta> = meta.listed_columns().collect();
    let shown: Vec<usize> = match &projection {
        None => (0..listed.len()).collect(),
        Some(names) => {
            let mut picked = Vec::new();
            for name in names {
                let column = listed.iter().position(|c| c.name == *name).ok_or_else(|| {
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
    // The system and information_schema tables have no statistics: Trino's estimate of them,
    // filtered or not, is unknown (nulls).
    if catalog == "system" || schema == "information_schema" {
        let names: Vec<String> = shown.iter().map(|&i| listed[i].name.clone()).collect();
        // SELECT on the table is needed all the same, as for every SHOW STATS.
        let read = crate::TableAccess {
            catalog: catalog.clone(),
            schema: schema.clone(),
            table: table.clone(),
            columns: names.clone(),
            ..Default::default()
        };
        return Ok(unknown_statistics(names, read));
    }
    let table_name = format!(
        "{}.{}.{}",
        quoted(&catalog),
        quoted(&schema),
        quoted(&table)
    );
    let Some(conjuncts) = conjuncts else {
        let rows: Vec<String> = shown
            .iter()
            .map(|&i| column_row(&listed[i].name, &listed[i].ty, &table_name, None))
            .collect();
        return with_row_count(rows, &table_name, catalogs, session);
    };
    // Other connectors estimate otherwise (the system tables have no statistics).
    let filter = filtered_stats::resolve(&conjuncts, &listed, &catalog, &table)
        .filter(|_| catalog == "tpch")
        .ok_or_else(refused)?;
    // The statistics of every column (a filter reads some that are not shown), of the rows
    // of the orders' statuses the connector selects, if it does.
    let (from, partition) = match &filter.statuses {
        None => (table_name, None),
        Some(statuses) => {
            let listed: Vec<String> = statuses.iter().map(|s| format!("'{s}'")).collect();
            let kept = if listed.is_empty() {
                "false".to_string()
            } else {
                format!("orderstatus IN ({})", listed.join(", "))
            };
            (
                format!("(SELECT * FROM {table_name} WHERE {kept})"),
                Some("orderstatus"),
            )
        }
    };
    let rows: Vec<String> = listed
        .iter()
        .map(|column| column_row(&column.name, &column.ty, &from, partition))
        .collect();
    let table_stats = with_row_count(rows, &from, catalogs, session)?;
    filtered_stats::estimated(table_stats, &listed, shown, filter)
}

/// SHOW STATS's table when nothing is known: a row of nulls per column, then the row count's.
fn unknown_statistics(names: Vec<String>, read: crate::TableAccess) -> Plan {
    let mut rows: Vec<Vec<serde_json::Value>> = names
        .into_iter()
        .map(|name| {
            let mut row = vec![serde_json::Value::from(name)];
            row.extend(std::iter::repeat_n(serde_json::Value::Null, 6));
            row
        })
        .collect();
    rows.push(vec![serde_json::Value::Null; 7]);
    let double = |name: &str| crate::OutputColumn {
        name: name.into(),
        ty: TrinoType::Double,
    };
    let varchar = |name: &str| crate::OutputColumn {
        name: name.into(),
        ty: TrinoType::Varchar(None),
    };
    Plan {
        columns: vec![
            varchar("column_name"),
            double("data_size"),
            double("distinct_values_count"),
            double("nulls_fraction"),
            double("row_count"),
            varchar("low_value"),
            varchar("high_value"),
        ],
        reads: vec![read],
        body: crate::sql::Body::Rows(rows),
        session_update: None,
    }
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

/// Analyses the query between `start` and `end` where it stands in the statement, so that its
/// errors are Trino's, placed there.
fn analyse_in_place(
    sql: &str,
    start: Position,
    end: Position,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<(), TrinoError> {
    let text = sql
        .get(byte_offset(sql, start)..byte_offset(sql, end))
        .unwrap_or_default();
    let padding = "\n".repeat((start.line as usize).saturating_sub(1))
        + &" ".repeat((start.column as usize).saturating_sub(1));
    plan(catalogs, &(padding + text), session).map(|_| ())
}

/// Where the text inside the parentheses `c` is at starts and ends, if they close.
fn parenthesized(c: &Cursor<'_>) -> Option<(Position, Position)> {
    let mut probe = Cursor::new(c.rest());
    probe.take();
    let start = Position::from(probe.peek()?.span.start);
    let mut depth = 0usize;
    while let Some(token) = probe.take() {
        match token.token {
            Token::LParen => depth += 1,
            Token::RParen if depth == 0 => return Some((start, Position::from(token.span.start))),
            Token::RParen => depth -= 1,
            _ => {}
        }
    }
    None
}

/// A query of one table's columns, maybe filtered, inside SHOW STATS.
struct ProjectionQuery {
    table: Vec<String>,
    /// In order; `None`: all, for `*`.
    columns: Option<Vec<String>>,
    /// The WHERE clause's conjuncts, if it has one.
    conjuncts: Option<Vec<filtered_stats::Conjunct>>,
    /// Where the query's text starts and ends in the statement (inside its parentheses).
    start: Position,
    end: Position,
}

/// `(SELECT a, b FROM t [WHERE …] [ORDER BY …])` or `(SELECT * FROM t …)`: a projection of one
/// table's columns, whose statistics are the table's (Trino's StatsCalculator passes a
/// projection of columns and a sort through unchanged: ProjectStatsRule, SortStatsRule), or
/// their estimate after the filter; `None` for any other query.
fn projection_query(c: &mut Cursor<'_>) -> Option<ProjectionQuery> {
    let mut probe = Cursor::new(c.rest());
    probe.take();
    let start = Position::from(probe.peek()?.span.start);
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
    // An alias names nothing the filter may use here (its columns are unqualified).
    let aliased = probe.keyword("AS");
    if let Some(Token::Word(w)) = probe.peek().map(|t| &t.token)
        && (aliased
            || !["WHERE", "ORDER"]
                .iter()
                .any(|k| w.value.eq_ignore_ascii_case(k)))
    {
        probe.take();
    } else if aliased {
        return None;
    }
    let conjuncts = if probe.keyword("WHERE") {
        Some(filtered_stats::conjuncts(&mut probe)?)
    } else {
        None
    };
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
    let end = Position::from(probe.peek()?.span.start);
    if !matches!(probe.take().map(|t| &t.token), Some(Token::RParen)) {
        return None;
    }
    for _ in 0..probe.taken() {
        c.take();
    }
    Some(ProjectionQuery {
        table,
        columns,
        conjuncts,
        start,
        end,
    })
}

/// One column's row. Over a tpch connector's `partition` (the column whose values split the
/// rows into its statistics files), a text's data size is summed over the partitions and
/// only the partition column has a distinct count (tpch's StatisticsEstimator).
fn column_row(name: &str, ty: &TrinoType, from: &str, partition: Option<&str>) -> String {
    let column = quoted(name);
    let data_size = if ty.is_string() {
        let within = partition
            .map(|p| format!("{}, ", quoted(p)))
            .unwrap_or_default();
        format!(
            "(SELECT CAST(sum(length(v)) AS double) FROM (SELECT DISTINCT {within}{column} AS v \
             FROM {from}))"
        )
    } else {
        "CAST(NULL AS double)".into()
    };
    let distinct = match partition {
        Some(p) if p != name => "CAST(NULL AS double)".to_string(),
        _ => format!("CAST(count(DISTINCT {column}) AS double)"),
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
        "SELECT CAST({} AS varchar), {data_size}, {distinct}, \
         CASE WHEN count(*) = 0 THEN NULL \
         ELSE CAST(count(*) - count({column}) AS double) / count(*) END, \
         CAST(NULL AS double), {low}, {high} FROM {from}",
        querymesh_values::sqlite_text::sql_string(name)
    )
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
