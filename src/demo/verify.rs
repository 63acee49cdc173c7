//! The spec's five checks on the identity the demo received, one by one, so the page can show
//! each as passed or failed (runtime-protocol, "The Identity of Who Signed In").

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde::Serialize;
use serde_json::{Value, json};

use super::DemoState;
use crate::identity::jws::{self, Header};
use crate::identity::{
    Audience, CLOCK_TOLERANCE_SECS, IDENTITY_HEADER, IDENTITY_TYP, IdentityClaims, IdentityError,
    check_validity, unix_now, verify_identity,
};

#[derive(Serialize)]
pub struct Check {
    pub name: &'static str,
    pub passed: bool,
    pub detail: String,
}

/// What the demo concluded about one identity.
#[derive(Serialize)]
pub struct Report {
    /// The JOSE header and the payload as received, decoded for display (not trusted).
    pub header: Option<Value>,
    pub claims: Option<Value>,
    pub checks: Vec<Check>,
    /// All five checks passed: the request is this person's.
    pub accepted: bool,
}

/// The request's identity: `Ok(None)` when absent (anonymous), `Err` when it cannot even be
/// one value (the edge never sends two).
pub fn received_identity(headers: &HeaderMap) -> Result<Option<String>, &'static str> {
    let values: Vec<_> = headers.get_all(IDENTITY_HEADER).iter().collect();
    match values.as_slice() {
        [] => Ok(None),
        [one] => one
            .to_str()
            .map(|v| Some(v.to_string()))
            .map_err(|_| "the identity header is not text"),
        _ => Err("more than one identity header arrived"),
    }
}

/// `GET /api/identity`: what this request carried and whether it checks out.
pub async fn identity(State(state): State<DemoState>, headers: HeaderMap) -> Json<Value> {
    match received_identity(&headers) {
        Ok(None) => Json(json!({ "received": false })),
        Ok(Some(token)) => {
            let report = check(&state, &token).await;
            Json(json!({ "received": true, "report": report }))
        }
        Err(problem) => Json(json!({ "received": true, "problem": problem })),
    }
}

/// Runs every check, even after one fails, so the page can show them all.
pub async fn check(state: &DemoState, token: &str) -> Report {
    let header = decode_part::<Header>(token, 0);
    let claims_value = decode_part::<Value>(token, 1);
    let kid = header.as_ref().and_then(|h| h.kid.clone());
    let keys = state.keys.for_kid(kid.as_deref()).await;
    let env = &state.env;

    let signature = jws::verify::<IdentityClaims>(token, &keys, Some(IDENTITY_TYP));
    let mut checks = vec![Check {
        name: "signature",
        passed: signature.is_ok(),
        detail: match &signature {
            Ok(_) => format!(
                "ES256, typ {IDENTITY_TYP}, kid {} is in NNUMBERS_IDENTITY_JWKS",
                kid.as_deref().unwrap_or("?")
            ),
            Err(e) => e.to_string(),
        },
    }];
    let claim = |name: &str| {
        claims_value
            .as_ref()
            .and_then(|c| c.get(name).cloned())
            .unwrap_or(Value::Null)
    };
    for (name, key, expected, env_name) in [
        (
            "iss",
            "iss",
            &env.identity_issuer,
            "NNUMBERS_IDENTITY_ISSUER",
        ),
        ("aud", "aud", &env.app_id, "NNUMBERS_APP_ID"),
        ("org", "org", &env.org_id, "NNUMBERS_ORG_ID"),
    ] {
        let got = claim(key);
        let passed = got.as_str() == Some(expected.as_str());
        checks.push(Check {
            name,
            passed,
            detail: if passed {
                format!("equals {env_name}")
            } else {
                format!("{got} is not {env_name} ({expected:?})")
            },
        });
    }
    checks.push(validity_check(
        claim("iat").as_u64(),
        claim("nbf").as_u64(),
        claim("exp").as_u64(),
    ));

    let audience = Audience {
        issuer: env.identity_issuer.clone(),
        app_id: env.app_id.clone(),
        org_id: env.org_id.clone(),
        org_slug: String::new(),
    };
    // The verdict comes from the library's single verifier; the checks above explain it.
    let accepted = verify_identity(token, &keys, &audience, unix_now()).is_ok()
        && checks.iter().all(|c| c.passed);
    Report {
        header: header.and_then(|h| serde_json::to_value(h).ok()),
        claims: claims_value,
        checks,
        accepted,
    }
}

fn validity_check(iat: Option<u64>, nbf: Option<u64>, exp: Option<u64>) -> Check {
    let now = unix_now();
    let (passed, detail) = match (iat, nbf, exp) {
        (Some(iat), Some(nbf), Some(exp)) => match check_validity(iat, nbf, exp, now) {
            Ok(()) => (
                true,
                format!(
                    "valid now (±{CLOCK_TOLERANCE_SECS} s); expires in {} s",
                    exp as i64 - now as i64
                ),
            ),
            Err(IdentityError::NotYetValid(nbf)) => {
                (false, format!("not valid for another {} s", nbf - now))
            }
            Err(IdentityError::Expired(exp)) => (false, format!("expired {} s ago", now - exp)),
            Err(other) => (false, other.to_string()),
        },
        _ => (false, "iat, nbf or exp is missing".to_string()),
    };
    Check {
        name: "nbf/exp",
        passed,
        detail,
    }
}

/// One part of a compact JWS, decoded without verifying anything: for display only.
fn decode_part<T: serde::de::DeserializeOwned>(token: &str, index: usize) -> Option<T> {
    let part = token.split('.').nth(index)?;
    serde_json::from_slice(&B64.decode(part).ok()?).ok()
}
