//! The body of `POST /v1/querymesh/query`: `sql` (required) and `max_rows` (1–100,000,
//! default 100,000); unknown fields are ignored.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use serde_json::Value;

use super::refusal::Refusal;

pub const MAX_ROWS_LIMIT: u64 = 100_000;

/// The largest body the broker reads: room for QueryMesh's longest query text (1,000,000
/// characters, at most three bytes each) in its JSON.
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The body as read, or the refusal in the broker's shape: axum's own rejection is plain
/// text.
pub fn read_body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, Refusal> {
    body.map_err(|rejection| match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => Refusal::BodyTooLarge(MAX_BODY_BYTES),
        _ => Refusal::ValidationFailed(format!(
            "The body could not be read ({})",
            crate::http::describe(&rejection)
        )),
    })
}

#[derive(Debug, PartialEq)]
pub struct QueryRequest {
    pub sql: String,
    pub max_rows: usize,
}

impl QueryRequest {
    pub fn parse(body: &[u8]) -> Result<Self, Refusal> {
        let invalid = |cause: String| Refusal::ValidationFailed(cause);
        let value: Value = serde_json::from_slice(body).map_err(|e| {
            invalid(format!(
                "The body is not JSON ({e}); send {{\"sql\": \"SELECT …\", \"max_rows\": 1000}}"
            ))
        })?;
        let Value::Object(fields) = value else {
            return Err(invalid("The body must be a JSON object with `sql`".into()));
        };
        let sql = match fields.get("sql") {
            Some(Value::String(sql)) if !sql.trim().is_empty() => sql.clone(),
            Some(Value::String(_)) => return Err(invalid("`sql` is empty".into())),
            Some(other) => {
                return Err(invalid(format!(
                    "`sql` must be a string, not {}",
                    json_kind(other)
                )));
            }
            None => return Err(invalid("`sql` is required".into())),
        };
        let max_rows = match fields.get("max_rows") {
            None | Some(Value::Null) => MAX_ROWS_LIMIT,
            Some(Value::Number(n)) => match n.as_u64() {
                Some(rows @ 1..=MAX_ROWS_LIMIT) => rows,
                _ => {
                    return Err(invalid(format!(
                        "`max_rows` must be an integer from 1 to 100000, not {n}"
                    )));
                }
            },
            Some(other) => {
                return Err(invalid(format!(
                    "`max_rows` must be an integer from 1 to 100000, not {}",
                    json_kind(other)
                )));
            }
        };
        Ok(Self {
            sql,
            max_rows: max_rows as usize,
        })
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(body: &str) -> Result<QueryRequest, &'static str> {
        QueryRequest::parse(body.as_bytes()).map_err(|r| r.code())
    }

    #[test]
    fn accepts_the_spec_example_and_defaults() {
        let r = code(r#"{"sql": "SELECT 1", "max_rows": 1000, "extra": true}"#).unwrap();
        assert_eq!(
            r,
            QueryRequest {
                sql: "SELECT 1".into(),
                max_rows: 1000
            }
        );
        assert_eq!(code(r#"{"sql": "SELECT 1"}"#).unwrap().max_rows, 100_000);
    }

    #[test]
    fn refuses_what_the_spec_refuses() {
        for body in [
            "not json",
            "[]",
            "{}",
            r#"{"sql": ""}"#,
            r#"{"sql": "  "}"#,
            r#"{"sql": 1}"#,
            r#"{"sql": "SELECT 1", "max_rows": 0}"#,
            r#"{"sql": "SELECT 1", "max_rows": 100001}"#,
            r#"{"sql": "SELECT 1", "max_rows": -1}"#,
            r#"{"sql": "SELECT 1", "max_rows": 1.5}"#,
            r#"{"sql": "SELECT 1", "max_rows": "10"}"#,
        ] {
            assert_eq!(code(body).err(), Some("VALIDATION_FAILED"), "{body}");
        }
        assert_eq!(
            code(r#"{"sql": "SELECT 1", "max_rows": 100000}"#)
                .unwrap()
                .max_rows,
            100_000
        );
        assert_eq!(
            code(r#"{"sql": "SELECT 1", "max_rows": 1}"#)
                .unwrap()
                .max_rows,
            1
        );
    }
}
