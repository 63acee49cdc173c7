//! The UserInfo endpoint (OIDC Core §5.3): the person behind a bearer access token.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use serde::Serialize;

use super::error::IamError;
use super::mint::{self, ACCESS_TYP, AccessClaims, PersonClaims};
use super::{IamState, Realm};

#[derive(Serialize)]
pub(super) struct UserInfo {
    sub: String,
    #[serde(flatten)]
    person: PersonClaims,
}

pub(super) async fn userinfo(
    _: Realm,
    State(iam): State<IamState>,
    headers: HeaderMap,
) -> Result<Json<UserInfo>, IamError> {
    let token = bearer(&headers)
        .ok_or_else(|| IamError::InvalidAccessToken("no bearer access token was sent".into()))?;
    let now = iam.now();
    let claims: AccessClaims = mint::verify(iam.parts(), token, ACCESS_TYP, now, true)
        .map_err(IamError::InvalidAccessToken)?;
    // Like Keycloak, a token whose SSO session has ended no longer speaks for anyone.
    let session = iam.inner.sso.get(&claims.sid, now).ok_or_else(|| {
        IamError::InvalidAccessToken("the session of this token has ended".into())
    })?;
    Ok(Json(UserInfo {
        sub: session.person.sub.clone(),
        person: PersonClaims::of(&session.person),
    }))
}

/// RFC 6750 §2.1: `Authorization: Bearer <token>`, scheme case-insensitive.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}
