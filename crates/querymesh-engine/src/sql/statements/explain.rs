//! `EXPLAIN [(option, …)] statement`: the statement is analysed exactly as if it ran — its
//! errors, positions and access checks are the statement's own — and the answer is one
//! `Query Plan` varchar row, as Trino's (`EXPLAIN (TYPE VALIDATE)`: one `Valid` boolean row).
//! The plan describes what the stand-in does: the output, the tables and columns it reads and
//! the SQLite statement it runs; there is no distributed plan to show, and the text says so
//! rather than imitate one. `EXPLAIN ANALYZE`, `FORMAT GRAPHVIZ` and `TYPE IO` are refused.
//!
//! Options (Trino's SqlBase.g4 `explainOption`): `FORMAT (TEXT | GRAPHVIZ | JSON)` and
//! `TYPE (LOGICAL | DISTRIBUTED | VALIDATE | IO)`, comma-separated.

use serde_json::{Value, json};
use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::catalog::Catalogs;
use crate::error::{ErrorName, TrinoError};
use crate::sql::syntax::token::{at, blank_prefix, end_of, mismatched, upper_word};
use crate::sql::{Body, Plan};
use crate::types::TrinoType;
use crate::{OutputColumn, SessionContext};

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Text,
    Json,
}

/// Byte offset in `sql` of a token's start.
fn offset(sql: &str, t: &TokenWithSpan) -> usize {
    let (line, column) = (t.span.start.line as usize, t.span.start.column as usize);
    let line_start: usize = sql
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &sql[line_start.min(sql.len())..];
    line_start
        + rest
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(rest.len(), |(i, _)| i)
}

/// Whether `tokens` are an EXPLAIN statement.
pub(super) fn recognise(tokens: &[TokenWithSpan]) -> bool {
    upper_word(tokens.first()).as_deref() == Some("EXPLAIN")
}

/// Plans an EXPLAIN statement.
pub(crate) fn plan(
    tokens: &[TokenWithSpan],
    sql: &str,
    catalogs: &Catalogs,
    session: &SessionContext,
) -> Result<Plan, TrinoError> {
    let end = end_of(sql);
    let mut i = 1;
    if upper_word(tokens.get(i)).as_deref() == Some("ANALYZE") {
        return Err(TrinoError::at(
            ErrorName::NotSupported,
            at(&tokens[i]),
            "EXPLAIN ANALYZE is not supported by the QueryMesh stand-in: it has no distributed execution to report on",
        ));
    }
    let (mut format, mut validate) = (Format::Text, false);
    if tokens.get(i).is_some_and(|t| t.token == Token::LParen) {
        i += 1;
        loop {
            let option = upper_word(tokens.get(i));
            let value = upper_word(tokens.get(i + 1));
            match (option.as_deref(), value.as_deref()) {
                (Some("FORMAT"), Some("TEXT")) => format = Format::Text,
                (Some("FORMAT"), Some("JSON")) => format = Format::Json,
                (Some("TYPE"), Some("LOGICAL" | "DISTRIBUTED")) => validate = false,
                (Some("TYPE"), Some("VALIDATE")) => validate = true,
                (Some("FORMAT"), Some("GRAPHVIZ")) | (Some("TYPE"), Some("IO")) => {
                    return Err(TrinoError::at(
                        ErrorName::NotSupported,
                        at(&tokens[i + 1]),
                        format!(
                            "EXPLAIN ({} {}) is not supported by the QueryMesh stand-in",
                            option.unwrap_or_default(),
                            value.unwrap_or_default()
                        ),
                    ));
                }
                (Some("FORMAT"), _) => {
                    return Err(mismatched(
                        tokens.get(i + 1),
                        end,
                        "'GRAPHVIZ', 'JSON', 'TEXT'",
                    ));
                }
                (Some("TYPE"), _) => {
                    return Err(mismatched(
                        tokens.get(i + 1),
                        end,
                        "'DISTRIBUTED', 'IO', 'LOGICAL', 'VALIDATE'",
                    ));
                }
                _ => return Err(mismatched(tokens.get(i), end, "'FORMAT', 'TYPE'")),
            }
            i += 2;
            match tokens.get(i).map(|t| &t.token) {
                Some(Token::Comma) => i += 1,
                Some(Token::RParen) => {
                    i += 1;
                    break;
                }
                _ => return Err(mismatched(tokens.get(i), end, "')', ','")),
            }
        }
    }
    let Some(statement_start) = tokens.get(i) else {
        return Err(mismatched(
            None,
            end,
            "'SELECT', 'WITH', 'VALUES', 'SHOW', 'DESCRIBE'",
        ));
    };
    let explained = blank_prefix(sql, offset(sql, statement_start));
    let inner = crate::sql::plan(catalogs, &explained, session)?;
    let (column, value) = if validate {
        (
            OutputColumn {
                name: "Valid".into(),
                ty: TrinoType::Boolean,
            },
            Value::Bool(true),
        )
    } else {
        // Trino answers the plan as a one-row VALUES of a varchar literal, so the column's
        // type is the literal's: varchar of the text's length in characters (ExplainRewrite).
        let text = describe(&inner, format);
        let length = u32::try_from(text.chars().count()).unwrap_or(u32::MAX);
        (
            OutputColumn {
                name: "Query Plan".into(),
                ty: TrinoType::Varchar(Some(length)),
            },
            Value::from(text),
        )
    };
    Ok(Plan {
        columns: vec![column],
        reads: inner.reads,
        body: Body::Rows(vec![vec![value]]),
        session_update: None,
    })
}

fn describe(plan: &Plan, format: Format) -> String {
    let sqlite = match &plan.body {
        Body::Sql(sql) | Body::Derived { sql, .. } => Some(sql.as_str()),
        Body::Rows(_) => None,
    };
    if format == Format::Json {
        return json!({
            "engine": "zero-sandbox QueryMesh stand-in (SQLite)",
            "columns": plan.columns.iter().map(|c| json!({"name": c.name, "type": c.ty.to_string()})).collect::<Vec<_>>(),
            "reads": plan.reads.iter().map(|r| json!({
                "catalog": r.catalog, "schema": r.schema, "table": r.table, "columns": r.columns,
            })).collect::<Vec<_>>(),
            "sqlite": sqlite,
        })
        .to_string();
    }
    let names: Vec<&str> = plan.columns.iter().map(|c| c.name.as_str()).collect();
    let layout: Vec<String> = plan
        .columns
        .iter()
        .map(|c| format!("{}:{}", c.name, c.ty))
        .collect();
    let mut text = format!(
        "QueryMesh stand-in plan (zero-sandbox: one SQLite statement, no distributed plan)\n\
         Output[columnNames = [{}]]\n    Layout: [{}]\n",
        names.join(", "),
        layout.join(", ")
    );
    for r in &plan.reads {
        text.push_str(&format!(
            "TableScan[table = {}:{}:{}]\n    Columns: [{}]\n",
            r.catalog,
            r.schema,
            r.table,
            r.columns.join(", ")
        ));
    }
    match sqlite {
        Some(sql) => text.push_str(&format!("SQLite:\n    {sql}\n")),
        None => text.push_str("Values (answered from the catalogs)\n"),
    }
    text
}
