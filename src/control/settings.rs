//! `switches`, `keys`, `clock`, `reset` and `events`.

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::Uri;
use serde_json::{Value, json};

use super::error::{ApiError, Body, Fields, QueryParams};
use super::{ControlState, event, sessions};
use crate::platform::journal::MAX_PAGE;
use crate::platform::{Ending, FaultScope, Source, Switch};

/// How `POST reset` ends sessions, in their `SESSION_ENDED`.
const RESET: Ending = Ending::new(Source::Control, "reset");

/// The switches by the names the API gives them.
const SWITCHES: [(&str, Switch); 4] = [
    ("querymesh_configured", Switch::QueryMeshConfigured),
    ("querymesh_enabled", Switch::QueryMeshEnabled),
    ("querymesh_scope", Switch::QueryMeshScope),
    ("identity_keys_available", Switch::IdentityKeysAvailable),
];

/// The default grace period of a rotated-out key: the few minutes the spec asks apps to keep
/// keys for, so an app that cached the JWKS still verifies identities signed just before.
const DEFAULT_GRACE_SECS: u64 = 600;
/// The most the clock moves in one step: ten years.
const MAX_ADVANCE_SECS: u64 = 10 * 365 * 24 * 3600;

fn switches_json(state: &ControlState) -> Value {
    let switches = &state.parts.switches;
    Value::Object(
        SWITCHES
            .iter()
            .map(|(name, switch)| (name.to_string(), switches.get(*switch).into()))
            .collect(),
    )
}

/// `GET switches`.
pub async fn switches(State(state): State<ControlState>) -> Json<Value> {
    Json(switches_json(&state))
}

/// `PATCH switches` {name: bool, …}: each named switch set, all or none.
pub async fn set_switches(
    State(state): State<ControlState>,
    Body(body): Body,
) -> Result<Json<Value>, ApiError> {
    let names: Vec<&str> = SWITCHES.iter().map(|(n, _)| *n).collect();
    let fields = Fields::parse(&body, &names)?;
    let mut changes = Vec::new();
    for (name, switch) in SWITCHES {
        if let Some(on) = fields.get::<bool>(name)? {
            changes.push((name, switch, on));
        }
    }
    for (name, switch, on) in changes {
        state.parts.switches.set(switch, on);
        state.record(event("SWITCH_CHANGED", json!({ "switch": name, "on": on })));
    }
    Ok(Json(switches_json(&state)))
}

fn keys_json(state: &ControlState) -> Value {
    let (current, retired) = state.parts.identity.keys.kids();
    let started = &state.parts.started_with_kids;
    let mut keys = vec![json!({
        "kid": current,
        "current": true,
        "in_app_environment": started.contains(&current),
    })];
    keys.extend(retired.iter().map(|(kid, until)| {
        json!({
            "kid": kid,
            "current": false,
            "published_until": until,
            "in_app_environment": started.contains(kid),
        })
    }));
    json!({ "current": current, "published": keys })
}

/// `GET keys`: the identity keys published at `/v1/jwks`, and which of them the app's
/// `NNUMBERS_IDENTITY_JWKS` holds.
pub async fn keys(State(state): State<ControlState>) -> Json<Value> {
    Json(keys_json(&state))
}

/// `POST keys/rotate` {grace_seconds?}: a new current key; the previous one stays published
/// for the grace period. The app's environment does not change, so its next identity has a
/// kid the app must fetch from `/v1/jwks` (the spec's unknown-kid path).
pub async fn rotate_key(
    State(state): State<ControlState>,
    Body(body): Body,
) -> Result<Json<Value>, ApiError> {
    let fields = Fields::parse(&body, &["grace_seconds"])?;
    let grace = fields
        .get::<u64>("grace_seconds")?
        .unwrap_or(DEFAULT_GRACE_SECS);
    if grace > MAX_ADVANCE_SECS {
        return Err(ApiError::Invalid(format!(
            "field `grace_seconds` must be at most {MAX_ADVANCE_SECS}, not {grace}"
        )));
    }
    let previous = state.parts.identity.keys.current().kid().to_string();
    let kid = state
        .parts
        .identity
        .keys
        .rotate(Duration::from_secs(grace))
        .map_err(|e| ApiError::KeysNotSaved(e.to_string()))?;
    state.record(event(
        "KEY_ROTATED",
        json!({ "kid": kid, "previous": previous, "grace_seconds": grace }),
    ));
    Ok(Json(keys_json(&state)))
}

fn clock_json(state: &ControlState) -> Value {
    let clock = &state.parts.clock;
    json!({ "now": clock.now(), "offset_seconds": clock.offset_secs() })
}

/// `GET clock`.
pub async fn clock(State(state): State<ControlState>) -> Json<Value> {
    Json(clock_json(&state))
}

/// `POST clock` {advance_seconds}: the platform's time moves forward (identities, IAM tokens,
/// SSO sessions, platform sessions); it never goes back but by `reset`.
pub async fn advance_clock(
    State(state): State<ControlState>,
    Body(body): Body,
) -> Result<Json<Value>, ApiError> {
    let fields = Fields::parse(&body, &["advance_seconds"])?;
    let by: u64 = fields
        .get("advance_seconds")?
        .ok_or_else(|| ApiError::Invalid("field `advance_seconds` is required".into()))?;
    if by == 0 || by > MAX_ADVANCE_SECS {
        return Err(ApiError::Invalid(format!(
            "field `advance_seconds` must be from 1 to {MAX_ADVANCE_SECS}, not {by}"
        )));
    }
    state.parts.clock.advance(Duration::from_secs(by));
    state.record(event("CLOCK_ADVANCED", json!({ "advance_seconds": by })));
    Ok(Json(clock_json(&state)))
}

/// `POST reset`: sessions ended, people, switches, faults, limits, the clock and the identity
/// keys back to the configuration (the keys the app's `NNUMBERS_IDENTITY_JWKS` was made
/// from). With `?sid=`: that session and its faults; with `?sub=`: that person's sessions,
/// sign-in and faults (theirs and their sessions'); keys stay. The journal always stays.
pub async fn reset(State(state): State<ControlState>, uri: Uri) -> Result<Json<Value>, ApiError> {
    let params = QueryParams::parse(uri.query(), &["sid", "sub"])?;
    let parts = &state.parts;
    let answer = match (params.get("sid"), params.get("sub")) {
        (Some(_), Some(_)) => {
            return Err(ApiError::Invalid(
                "give one of the query parameters `sid` or `sub`, not both".into(),
            ));
        }
        (Some(sid), None) => {
            let faults = parts
                .faults
                .remove_where(|r| r.scope == FaultScope::Sid(sid.to_string()));
            let ended = usize::from(parts.sessions.end_with(sid, RESET));
            json!({ "scope": { "sid": sid }, "sessions_ended": ended, "faults_removed": faults })
        }
        (None, Some(sub)) => {
            let sids: Vec<String> = parts
                .sessions
                .list()
                .into_iter()
                .filter(|s| s.person.sub == sub)
                .map(|s| s.sid)
                .collect();
            let faults = parts.faults.remove_where(|r| match &r.scope {
                FaultScope::Sub(s) => s == sub,
                FaultScope::Sid(s) => sids.contains(s),
                FaultScope::Everyone => false,
            });
            let ended = sessions::end_person(&state, sub);
            json!({ "scope": { "sub": sub }, "sessions_ended": ended, "faults_removed": faults })
        }
        (None, None) => {
            // The platform sessions first, so the count is theirs; then the IAM's sign-ins.
            let ended = parts.sessions.end_all(RESET);
            parts.iam.end_all_sessions();
            let faults = parts.faults.remove_where(|_| true);
            parts.people.reset();
            parts.switches.reset(&parts.config.querymesh);
            parts.clock.reset();
            parts.limits.reset();
            // The app verifies with the JWKS its environment was given at start: identities
            // signed after a reset must carry a kid from it, or every later test fails.
            let keys = &parts.identity.keys;
            let before = keys.kids();
            keys.restore(&parts.started_with_keys)
                .map_err(|e| ApiError::KeysNotSaved(e.to_string()))?;
            let keys_restored = keys.kids() != before;
            json!({
                "scope": "everything",
                "sessions_ended": ended,
                "faults_removed": faults,
                "keys_restored": keys_restored,
            })
        }
    };
    state.record(event("RESET", answer.clone()));
    Ok(Json(answer))
}

/// `GET events?since=&type=&sub=&limit=`: the journal after the cursor `since` (0: from the
/// oldest kept), with `next` to pass as `since` next time and how many were `dropped`.
pub async fn events(State(state): State<ControlState>, uri: Uri) -> Result<Json<Value>, ApiError> {
    let params = QueryParams::parse(uri.query(), &["since", "type", "sub", "limit"])?;
    let since = params.number("since")?.unwrap_or(0);
    let limit = params.number("limit")?.unwrap_or(MAX_PAGE as u64);
    if limit == 0 || limit > MAX_PAGE as u64 {
        return Err(ApiError::Invalid(format!(
            "query parameter `limit` must be from 1 to {MAX_PAGE}, not {limit}"
        )));
    }
    let page =
        state
            .parts
            .journal
            .read(since, params.get("type"), params.get("sub"), limit as usize);
    Ok(Json(serde_json::to_value(page).unwrap_or(Value::Null)))
}
