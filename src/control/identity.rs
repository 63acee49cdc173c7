//! `identity/latest` and `identity/check`: an identity decoded, with the spec's five checks
//! (runtime-protocol, "The Identity of Who Signed In": signature, iss, aud, org, nbf/exp with
//! 60 s of tolerance) made against this sandbox's published keys, issuer, app and organization.
//! What the console's identity panel shows. A pasted token is never logged or journaled.

use axum::Json;
use axum::extract::State;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::{Map, Value, json};

use super::ControlState;
use super::error::{ApiError, Body, Fields};
use crate::identity::jws;
use crate::identity::{IDENTITY_TYP, check_validity};

/// The longest token taken: an identity is well under 2 KiB; a pasted page is not one.
const MAX_TOKEN_CHARS: usize = 16 * 1024;

/// `GET identity/latest`: the identity the edge signed last (for any session), decoded and
/// checked, with the token itself; `{"identity": null}` before the first.
pub async fn latest(State(state): State<ControlState>) -> Json<Value> {
    let Some(token) = state.parts.sessions.latest_identity() else {
        return Json(json!({ "identity": null }));
    };
    match report(&state, &token) {
        Ok(mut report) => {
            if let Value::Object(map) = &mut report {
                map.insert("token".into(), token.as_ref().into());
            }
            Json(json!({ "identity": report }))
        }
        // The platform signed it: it always decodes.
        Err(e) => Json(json!({ "identity": null, "message": e.to_string() })),
    }
}

/// `POST identity/check` {token}: any token decoded and checked as an app checks it.
pub async fn check(
    State(state): State<ControlState>,
    Body(body): Body,
) -> Result<Json<Value>, ApiError> {
    let fields = Fields::parse(&body, &["token"])?;
    let token: String = fields
        .get("token")?
        .ok_or_else(|| ApiError::Invalid("field `token` (a compact JWS) is required".into()))?;
    report(&state, token.trim()).map(Json)
}

/// The JSON object of one base64url part, or what is wrong with it (never the part itself).
fn json_part(part: &str, which: &str) -> Result<Map<String, Value>, ApiError> {
    let bytes = B64.decode(part).map_err(|_| {
        ApiError::Invalid(format!(
            "the token's {which} is not unpadded base64url (a compact JWS is \
             header.payload.signature)"
        ))
    })?;
    match serde_json::from_slice(&bytes) {
        Ok(Value::Object(map)) => Ok(map),
        _ => Err(ApiError::Invalid(format!(
            "the token's {which} is not a JSON object"
        ))),
    }
}

fn check_result(name: &str, ok: bool, detail: String) -> Value {
    json!({ "check": name, "ok": ok, "detail": detail })
}

/// The decoded header and claims, the seconds left before `exp`, and each of the five checks.
fn report(state: &ControlState, token: &str) -> Result<Value, ApiError> {
    if token.chars().count() > MAX_TOKEN_CHARS {
        return Err(ApiError::Invalid(format!(
            "field `token` is longer than {MAX_TOKEN_CHARS} characters: not an identity"
        )));
    }
    let parts: Vec<&str> = token.split('.').collect();
    let [header, payload, _signature] = parts[..] else {
        return Err(ApiError::Invalid(format!(
            "the token has {} dot-separated part(s); a compact JWS has three \
             (header.payload.signature)",
            parts.len()
        )));
    };
    let header = json_part(header, "header")?;
    let claims = json_part(payload, "payload")?;
    let audience = &state.parts.identity.audience;
    let now = state.parts.clock.now();

    let signature = match jws::verify::<Value>(
        token,
        &state.parts.identity.keys.published(),
        Some(IDENTITY_TYP),
    ) {
        Ok(_) => check_result(
            "signature",
            true,
            "ES256, signed by a key the broker publishes at /v1/jwks".into(),
        ),
        Err(e) => check_result("signature", false, e.to_string()),
    };
    let text = |name: &str| claims.get(name).and_then(Value::as_str);
    let equal = |check: &str, claim: &str, expected: &str, env: &str| match text(claim) {
        Some(got) if got == expected => check_result(check, true, format!("{claim} is {env}")),
        Some(got) => check_result(
            check,
            false,
            format!("{claim} {got:?} is not {env} ({expected:?})"),
        ),
        None => check_result(check, false, format!("the identity has no `{claim}` claim")),
    };
    let number = |name: &str| claims.get(name).and_then(Value::as_u64);
    let validity = match (number("iat"), number("nbf"), number("exp")) {
        (Some(iat), Some(nbf), Some(exp)) => match check_validity(iat, nbf, exp, now) {
            Ok(()) => check_result(
                "validity",
                true,
                format!("nbf {nbf} to exp {exp}, now {now}, with 60 s of tolerance"),
            ),
            Err(e) => check_result("validity", false, e.to_string()),
        },
        _ => check_result(
            "validity",
            false,
            "the identity lacks one of the numeric claims iat, nbf, exp".into(),
        ),
    };
    let checks = vec![
        signature,
        equal("iss", "iss", &audience.issuer, "NNUMBERS_IDENTITY_ISSUER"),
        equal("aud", "aud", &audience.app_id, "NNUMBERS_APP_ID"),
        equal("org", "org", &audience.org_id, "NNUMBERS_ORG_ID"),
        validity,
    ];
    let valid = checks.iter().all(|c| c["ok"] == true);
    let seconds_left = number("exp").map(|exp| i128::from(exp) - i128::from(now));
    Ok(json!({
        "header": header,
        "claims": claims,
        "now": now,
        "seconds_left": seconds_left.and_then(|s| i64::try_from(s).ok()),
        "valid": valid,
        "checks": checks,
    }))
}
