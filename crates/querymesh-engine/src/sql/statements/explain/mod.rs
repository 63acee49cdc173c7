//! `EXPLAIN [(option, …)] statement`: the statement is analysed exactly as if it ran — its
//! errors, positions and access checks are the statement's own — and the answer is one
//! `Query Plan` varchar row, as Trino's (`EXPLAIN (TYPE VALIDATE)`: one `Valid` boolean row).
//!
//! - `shapes`: the statements whose plan Trino 476 prints node for node as the stand-in can
//!   (constant rows, a tpch.tiny table's columns, a count per key of one, SHOW CATALOGS),
//!   built as Trino's plan; `trino_plan`: that plan printed as text, JSON or Graphviz, logical
//!   or distributed, or as the IO plan (`TYPE IO`: the tables read and the estimates).
//! - `own_plan`: any other statement's plan is the stand-in's own (the SQLite statement it
//!   runs), said so in its first line; Graphviz and `TYPE IO` are refused for those.
//! - `assignment_order`: the order Trino prints a table scan's columns in.
//!
//! `EXPLAIN ANALYZE` is refused. Options (Trino's SqlBase.g4 `explainOption`):
//! `FORMAT (TEXT | GRAPHVIZ | JSON)` and `TYPE (LOGICAL | DISTRIBUTED | VALIDATE | IO)`,
//! comma-separated.

mod assignment_order;
mod own_plan;
mod shapes;
mod trino_plan;

use serde_json::Value;
use sqlparser::tokenizer::{Token, TokenWithSpan};
use trino_plan::PlanType;

use crate::catalog::Catalogs;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::syntax::byte_offset;
use crate::sql::syntax::token::{at, blank_prefix, end_of, mismatched, upper_word};
use crate::sql::{Body, Plan};
use crate::types::TrinoType;
use crate::{OutputColumn, SessionContext};

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Text,
    Json,
    Graphviz,
}

/// EXPLAIN's TYPE option.
#[derive(Clone, Copy, PartialEq)]
enum Type {
    Logical,
    Distributed,
    Validate,
    Io,
}

/// `EXPLAIN (TYPE VALIDATE)`: the statement analysed, one `Valid` row.
fn validated(inner: Plan) -> Plan {
    Plan {
        columns: vec![OutputColumn {
            name: "Valid".into(),
            ty: TrinoType::Boolean,
        }],
        reads: inner.reads,
        body: Body::Rows(vec![vec![Value::Bool(true)]]),
        session_update: None,
    }
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
    // The first of each option counts, as in Trino 476 (`(TYPE IO, TYPE LOGICAL)` is IO).
    let (mut format, mut plan_type) = (None, None);
    // Where FORMAT GRAPHVIZ and TYPE IO were asked for: refused there when the plan is the
    // stand-in's own.
    let (mut graphviz_at, mut io_at) = (None, None);
    if tokens.get(i).is_some_and(|t| t.token == Token::LParen) {
        i += 1;
        loop {
            let option = upper_word(tokens.get(i));
            let value = upper_word(tokens.get(i + 1));
            let place = tokens.get(i + 1).map(at);
            match (option.as_deref(), value.as_deref()) {
                (Some("FORMAT"), Some("TEXT")) => _ = format.get_or_insert(Format::Text),
                (Some("FORMAT"), Some("JSON")) => _ = format.get_or_insert(Format::Json),
                (Some("FORMAT"), Some("GRAPHVIZ")) => {
                    if format.is_none() {
                        (format, graphviz_at) = (Some(Format::Graphviz), place);
                    }
                }
                (Some("TYPE"), Some("LOGICAL")) => _ = plan_type.get_or_insert(Type::Logical),
                (Some("TYPE"), Some("DISTRIBUTED")) => {
                    _ = plan_type.get_or_insert(Type::Distributed);
                }
                (Some("TYPE"), Some("VALIDATE")) => _ = plan_type.get_or_insert(Type::Validate),
                (Some("TYPE"), Some("IO")) => {
                    if plan_type.is_none() {
                        (plan_type, io_at) = (Some(Type::Io), place);
                    }
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
    let explained = blank_prefix(
        sql,
        byte_offset(sql, Position::from(statement_start.span.start)),
    );
    let inner = crate::sql::plan(catalogs, &explained, session)?;
    let format = format.unwrap_or(Format::Text);
    let plan_type = match plan_type.unwrap_or(Type::Distributed) {
        Type::Logical => PlanType::Logical,
        Type::Distributed => PlanType::Distributed,
        Type::Io => PlanType::Io,
        Type::Validate => return Ok(validated(inner)),
    };
    let (column, value) = {
        // Trino answers the plan as a one-row VALUES of a varchar literal, so the column's
        // type is the literal's: varchar of the text's length in characters (ExplainRewrite).
        let trino = shapes::trino_plan(&explained, &inner);
        let text = match (trino, format) {
            // Trino prints the IO plan as JSON whatever the format asked (Graphviz fails).
            (Some(trino), Format::Text | Format::Json) if plan_type == PlanType::Io => trino.io(),
            (_, _) if plan_type == PlanType::Io => {
                return Err(error_at(
                    ErrorName::NotSupported,
                    io_at,
                    "EXPLAIN (TYPE IO) is not supported by the QueryMesh stand-in beyond \
                     constant rows, a tpch table's columns, a count per key and SHOW CATALOGS, \
                     in JSON",
                ));
            }
            (Some(trino), Format::Text) => trino.text(plan_type),
            (Some(trino), Format::Json) => trino.json(plan_type),
            (Some(trino), Format::Graphviz) => trino.graphviz(plan_type),
            (None, Format::Graphviz) => {
                return Err(error_at(
                    ErrorName::NotSupported,
                    graphviz_at,
                    "EXPLAIN (FORMAT GRAPHVIZ) is not supported by the QueryMesh stand-in beyond \
                     constant rows, a tpch table's columns, a count per key and SHOW CATALOGS",
                ));
            }
            (None, format) => own_plan::describe(&inner, format),
        };
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
