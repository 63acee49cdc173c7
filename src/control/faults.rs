//! `faults`: rules that make the broker's query path fail on purpose — a refusal code of the
//! spec, a delay, a verbatim answer, or a QueryMesh that hangs up mid-answer — for everyone,
//! one person (`sub`) or one session (`sid`), the next N times or with a probability.

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::error::{ApiError, Body, Fields, PathParam, QueryParams};
use super::{ControlState, event};
use crate::broker::{INJECTABLE_CODES, Refusal};
use crate::platform::{FaultKind, FaultScope, NewFault};

/// The longest delay a rule may ask for: ten minutes, past any QueryMesh timeout.
const MAX_DELAY_MS: u64 = 600_000;
/// The largest verbatim body a rule may carry.
const MAX_ANSWER_BODY: usize = 64 * 1024;

const FIELDS: [&str; 9] = [
    "code",
    "status",
    "body",
    "delay_ms",
    "hangup",
    "times",
    "probability",
    "seed",
    "scope",
];

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::BadFault(message.into())
}

/// `POST faults`.
pub async fn add(State(state): State<ControlState>, Body(body): Body) -> Response {
    let rule = parse(&state, &body).and_then(|new| {
        state
            .parts
            .faults
            .add(new)
            .map_err(|e| ApiError::Invalid(e.to_string()))
    });
    match rule {
        Ok(rule) => {
            let rule = serde_json::to_value(&rule).unwrap_or(Value::Null);
            state.record(event(
                "FAULT_ADDED",
                json!({ "rule": rule["id"], "scope": rule["scope"] }),
            ));
            (StatusCode::CREATED, Json(rule)).into_response()
        }
        Err(e) => e.into_response(),
    }
}

fn parse(state: &ControlState, body: &[u8]) -> Result<NewFault, ApiError> {
    let fields = Fields::parse(body, &FIELDS)?;
    let code: Option<String> = fields.get("code")?;
    let status: Option<u16> = fields.get("status")?;
    let answer: Option<String> = fields.get("body")?;
    let delay_ms: Option<u64> = fields.get("delay_ms")?;
    let hangup: Option<bool> = fields.get("hangup")?;
    let kinds = [
        code.is_some(),
        delay_ms.is_some(),
        code.is_none() && status.is_some(),
        hangup.is_some(),
    ];
    match kinds.iter().filter(|k| **k).count() {
        0 => {
            return Err(bad(
                "a fault rule needs one of `code`, `delay_ms`, `status` (with `body`) or `hangup`",
            ));
        }
        1 => {}
        _ => {
            return Err(bad(
                "a fault rule does one thing: give only one of `code`, `delay_ms`, `status` \
                 (with `body`) or `hangup`",
            ));
        }
    }
    let kind = if let Some(code) = code {
        if answer.is_some() {
            return Err(bad("field `body` goes with `status`, not with `code`"));
        }
        if Refusal::injected(&code, status, 0).is_none() {
            return Err(bad(
                match INJECTABLE_CODES.iter().find(|(c, _)| *c == code) {
                    Some((_, statuses)) => format!(
                        "field `status`: {code} comes with {}, not {}",
                        statuses
                            .iter()
                            .map(u16::to_string)
                            .collect::<Vec<_>>()
                            .join(" or "),
                        status.unwrap_or_default()
                    ),
                    None => format!(
                        "field `code`: {code:?} is not a refusal code of the spec; the codes are {}",
                        INJECTABLE_CODES
                            .iter()
                            .map(|(c, _)| *c)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                },
            ));
        }
        FaultKind::Code { code, status }
    } else if let Some(delay_ms) = delay_ms {
        if delay_ms == 0 || delay_ms > MAX_DELAY_MS {
            return Err(bad(format!(
                "field `delay_ms` must be from 1 to {MAX_DELAY_MS}, not {delay_ms}"
            )));
        }
        FaultKind::Delay { delay_ms }
    } else if let Some(status) = status {
        if !(200..=599).contains(&status) {
            return Err(bad(format!(
                "field `status` must be an HTTP status from 200 to 599, not {status}"
            )));
        }
        let body = answer.clone().unwrap_or_default();
        if body.len() > MAX_ANSWER_BODY {
            return Err(bad(format!(
                "field `body` is longer than {MAX_ANSWER_BODY} bytes"
            )));
        }
        FaultKind::Answer { status, body }
    } else {
        if hangup != Some(true) {
            return Err(bad(
                "field `hangup` must be true (delete the rule to stop it)",
            ));
        }
        FaultKind::Hangup
    };
    if answer.is_some() && !matches!(kind, FaultKind::Answer { .. }) {
        return Err(bad("field `body` goes with `status`"));
    }
    let times: Option<u32> = fields.get("times")?;
    if times == Some(0) {
        return Err(bad(
            "field `times` must be at least 1 (or left out: until deleted)",
        ));
    }
    let probability: Option<f64> = fields.get("probability")?;
    if let Some(p) = probability
        && !(p > 0.0 && p <= 1.0)
    {
        return Err(bad(format!(
            "field `probability` must be above 0 and at most 1, not {p}"
        )));
    }
    let seed: Option<u64> = fields.get("seed")?;
    if seed.is_some() && probability.is_none() {
        return Err(bad("field `seed` goes with `probability`"));
    }
    let scope = scope(state, fields.raw("scope"))?;
    Ok(NewFault {
        kind,
        scope,
        times,
        probability,
        seed,
    })
}

/// `"everyone"` (the default), `{"sub": …}` (a known person, or one with a live session) or
/// `{"sid": …}` (a live session).
fn scope(state: &ControlState, value: Option<Value>) -> Result<FaultScope, ApiError> {
    let Some(value) = value else {
        return Ok(FaultScope::Everyone);
    };
    if value == "everyone" {
        return Ok(FaultScope::Everyone);
    }
    if let Value::String(other) = &value {
        return Err(bad(format!(
            "field `scope`: {other:?} is not a scope; use \"everyone\", {{\"sub\": …}} or {{\"sid\": …}}"
        )));
    }
    let fields = Fields::nested("scope", value, &["sub", "sid"])?;
    let sub: Option<String> = fields.get("sub")?;
    let sid: Option<String> = fields.get("sid")?;
    let parts = &state.parts;
    match (sub, sid) {
        (Some(sub), None) => {
            let known = parts.people.find(&sub).is_some_and(|p| p.sub == sub)
                || parts.sessions.list().iter().any(|s| s.person.sub == sub);
            if known {
                Ok(FaultScope::Sub(sub))
            } else {
                Err(ApiError::UnknownPerson(sub))
            }
        }
        (None, Some(sid)) => {
            if parts.sessions.is_alive(&sid) {
                Ok(FaultScope::Sid(sid))
            } else {
                Err(ApiError::UnknownSession(sid))
            }
        }
        _ => Err(bad(
            "field `scope` takes exactly one of `scope.sub` or `scope.sid`",
        )),
    }
}

/// `GET faults`.
pub async fn list(State(state): State<ControlState>) -> Json<Value> {
    Json(json!({ "faults": state.parts.faults.list() }))
}

/// `DELETE faults` (every rule, or with `?sub=` / `?sid=` those of that scope).
pub async fn clear(State(state): State<ControlState>, uri: Uri) -> Result<Json<Value>, ApiError> {
    let params = QueryParams::parse(uri.query(), &["sub", "sid"])?;
    let (sub, sid) = (params.get("sub"), params.get("sid"));
    let removed = state
        .parts
        .faults
        .remove_where(|rule| match (&rule.scope, sub, sid) {
            (_, None, None) => true,
            (FaultScope::Sub(s), Some(sub), _) => s == sub,
            (FaultScope::Sid(s), _, Some(sid)) => s == sid,
            _ => false,
        });
    state.record(event("FAULTS_CLEARED", json!({ "removed": removed })));
    Ok(Json(json!({ "removed": removed })))
}

/// `DELETE faults/{id}`.
pub async fn remove(
    State(state): State<ControlState>,
    PathParam(id): PathParam,
) -> Result<Json<Value>, ApiError> {
    let found = id
        .parse::<u64>()
        .ok()
        .filter(|id| state.parts.faults.remove(*id));
    match found {
        Some(id) => {
            state.record(event("FAULT_REMOVED", json!({ "rule": id })));
            Ok(Json(json!({ "removed": 1 })))
        }
        None => Err(ApiError::UnknownFault(id)),
    }
}
