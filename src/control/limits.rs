//! `limits`: the broker's per-person limits while running. `GET` shows the default, the rules
//! and what each person gets now; `PUT` replaces the default and the rules, checked as
//! `[broker]` is. The new limits apply at each query's next admission; running queries keep
//! their places.

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use super::error::{ApiError, Body, Fields};
use super::{ControlState, event};
use crate::broker::limits::{Allowance, Person};
use crate::config::{DefaultAllowances, LimitRule};

fn allowance_json(a: &Allowance) -> Value {
    json!({ "allowed": a.allowed, "rule": a.rule })
}

fn limits_json(state: &ControlState) -> Value {
    let limits = &state.parts.limits;
    let (default, rules) = limits.get();
    let people: Vec<Value> = state
        .parts
        .people
        .list()
        .iter()
        .map(|p| {
            let person = Person {
                sub: &p.sub,
                username: p.profile.preferred_username.as_deref(),
                groups: &p.groups,
            };
            let (per_minute, concurrent) = limits.effective(&person);
            json!({
                "sub": p.sub,
                "queries_per_minute": allowance_json(&per_minute),
                "concurrent_queries": allowance_json(&concurrent),
            })
        })
        .collect();
    json!({
        "default": default,
        "rules": rules,
        "max_concurrent_queries": state.parts.config.broker.max_concurrent_queries,
        "effective": people,
    })
}

/// `GET limits`: the default, the rules, and each person's allowances now (`allowed` null is
/// unlimited; `rule` is the deciding rule or "default").
pub async fn get(State(state): State<ControlState>) -> Json<Value> {
    Json(limits_json(&state))
}

/// `PUT limits` {default: {concurrent_queries, queries_per_minute}, rules: [...]}: both
/// replaced at once, or neither.
pub async fn put(
    State(state): State<ControlState>,
    Body(body): Body,
) -> Result<Json<Value>, ApiError> {
    let fields = Fields::parse(&body, &["default", "rules"])?;
    let default = fields.raw("default").ok_or_else(|| {
        ApiError::Invalid(
            "field `default` is required (the allowances of anyone no rule covers)".into(),
        )
    })?;
    // Named fields first, so an unknown one is named as such.
    let default_fields = Fields::nested(
        "default",
        default,
        &["concurrent_queries", "queries_per_minute"],
    )?;
    let default = DefaultAllowances {
        concurrent_queries: default_fields.get("concurrent_queries")?.ok_or_else(|| {
            ApiError::Invalid("field `default.concurrent_queries` is required".into())
        })?,
        queries_per_minute: default_fields.get("queries_per_minute")?.ok_or_else(|| {
            ApiError::Invalid("field `default.queries_per_minute` is required".into())
        })?,
    };
    let rules: Vec<LimitRule> = match fields.raw("rules") {
        None => {
            return Err(ApiError::Invalid(
                "field `rules` is required ([] for none)".into(),
            ));
        }
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| {
                serde_json::from_value(item)
                    .map_err(|e| ApiError::Invalid(format!("field `rules[{i}]`: {e}")))
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(ApiError::Invalid("field `rules` must be an array".into())),
    };
    let names: Vec<String> = rules.iter().map(|r| r.name.clone()).collect();
    state
        .parts
        .limits
        .replace(default, rules, "rules")
        .map_err(ApiError::Invalid)?;
    state.record(event(
        "LIMITS_CHANGED",
        json!({ "default": default, "rules": names }),
    ));
    Ok(Json(limits_json(&state)))
}
