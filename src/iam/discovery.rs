//! The realm's OpenID Provider metadata (OIDC Discovery §3) and its signing keys (RFC 7517).

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::pkce;
use super::{IamState, Realm};
use crate::oidc::{OFFLINE_SCOPE, QUERYMESH_SCOPE, RealmEndpoints};
use crate::platform::Switch;

pub(super) async fn openid_configuration(_: Realm, State(iam): State<IamState>) -> Json<Value> {
    let endpoints = RealmEndpoints::new(&iam.realm_url());
    let mut scopes = vec!["openid", "profile", "email", OFFLINE_SCOPE];
    if iam.parts().switches.get(Switch::QueryMeshScope) {
        scopes.push(QUERYMESH_SCOPE);
    }
    Json(json!({
        "issuer": endpoints.issuer,
        "authorization_endpoint": endpoints.authorization,
        "token_endpoint": endpoints.token,
        "userinfo_endpoint": endpoints.userinfo,
        "end_session_endpoint": endpoints.end_session,
        "jwks_uri": endpoints.certs,
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["ES256"],
        "userinfo_signing_alg_values_supported": ["none"],
        // A public client: no secret exists (runtime-protocol).
        "token_endpoint_auth_methods_supported": ["none"],
        "code_challenge_methods_supported": [pkce::S256],
        "scopes_supported": scopes,
        "claims_supported": [
            "iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "sid", "azp",
            "name", "email", "email_verified", "preferred_username", "groups"
        ],
        "prompt_values_supported": ["none", "login", "select_account", "consent"],
        "claims_parameter_supported": false,
        "request_parameter_supported": false,
        "request_uri_parameter_supported": false,
        "authorization_response_iss_parameter_supported": true,
        "frontchannel_logout_supported": false,
        "backchannel_logout_supported": false,
    }))
}

/// The realm's published keys; the IAM's own, never the identity's.
pub(super) async fn certs(_: Realm, State(iam): State<IamState>) -> Response {
    (
        [(header::CACHE_CONTROL, "no-cache")],
        Json(iam.parts().keys.jwks()),
    )
        .into_response()
}

/// `GET /realms/{slug}`: Keycloak's short description of the realm.
pub(super) async fn realm_info(_: Realm, State(iam): State<IamState>) -> Json<Value> {
    let endpoints = RealmEndpoints::new(&iam.realm_url());
    Json(json!({
        "realm": iam.slug(),
        "token-service": format!("{}/protocol/openid-connect", endpoints.issuer),
        "tokens-not-before": 0,
    }))
}
