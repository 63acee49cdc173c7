//! The OpenID Connect contract between the platform (edge, broker) and the organization IAM:
//! the Keycloak paths, the public client, the QueryMesh scope, and the relying-party client
//! that exchanges codes and refreshes tokens over HTTP.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde::Deserialize;

use crate::http::{HttpClient, read_body};

/// The platform's public login client: no secret exists (runtime-protocol, "What the
/// Application Never Receives").
pub const EDGE_CLIENT_ID: &str = "nnumbers-edge";
/// What the edge asks for at sign-in.
pub const LOGIN_SCOPES: &str = "openid profile email";
/// OIDC Core §11: asks for a refresh token that outlives the sign-in session (Keycloak's
/// "offline token", in its default client scopes).
pub const OFFLINE_SCOPE: &str = "offline_access";
/// The realm's client scope that QueryMesh requires; present in the access token's `scope`
/// unless the realm is configured without it.
pub const QUERYMESH_SCOPE: &str = "querymesh";
/// The audience QueryMesh's JWT authenticator requires.
pub const QUERYMESH_AUDIENCE: &str = "querymesh";
/// Where the edge receives the authorization response.
pub use crate::reserved_paths::CALLBACK_PATH;

/// A realm's endpoints, at Keycloak's paths under `{iam}/realms/{slug}`.
#[derive(Clone, Debug)]
pub struct RealmEndpoints {
    /// The realm URL: the issuer of every IAM token.
    pub issuer: String,
    pub authorization: String,
    pub token: String,
    pub certs: String,
    pub userinfo: String,
    pub end_session: String,
}

impl RealmEndpoints {
    pub fn new(realm_url: &str) -> Self {
        let oidc = format!("{realm_url}/protocol/openid-connect");
        Self {
            issuer: realm_url.to_string(),
            authorization: format!("{oidc}/auth"),
            token: format!("{oidc}/token"),
            certs: format!("{oidc}/certs"),
            userinfo: format!("{oidc}/userinfo"),
            end_session: format!("{oidc}/logout"),
        }
    }
}

/// A token endpoint's successful answer (RFC 6749 §5.1, OIDC Core §3.1.3.3).
#[derive(Clone, Deserialize)]
pub struct TokenResponse {
    pub access_token: String,
    #[serde(default)]
    pub token_type: String,
    #[serde(default)]
    pub expires_in: u64,
    #[serde(default)]
    pub refresh_token: Option<String>,
    #[serde(default)]
    pub refresh_expires_in: Option<u64>,
    #[serde(default)]
    pub id_token: Option<String>,
    #[serde(default)]
    pub scope: Option<String>,
    #[serde(default)]
    pub session_state: Option<String>,
}

impl std::fmt::Debug for TokenResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenResponse")
            .field("expires_in", &self.expires_in)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OidcError {
    #[error("the IAM did not answer: {0}")]
    Unreachable(String),
    /// An RFC 6749 §5.2 error: the grant is not (or no longer) valid.
    #[error("the IAM refused: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Refused {
        error: String,
        description: Option<String>,
    },
    #[error("the IAM answered outside the protocol: {0}")]
    Protocol(String),
}

#[derive(Deserialize)]
struct ErrorResponse {
    error: String,
    #[serde(default)]
    error_description: Option<String>,
}

/// The platform's side of the IAM: code exchange and refresh, as a public client.
#[derive(Clone, Debug)]
pub struct OidcClient {
    http: HttpClient,
    pub endpoints: RealmEndpoints,
}

impl OidcClient {
    pub fn new(http: HttpClient, realm_url: &str) -> Self {
        Self {
            http,
            endpoints: RealmEndpoints::new(realm_url),
        }
    }

    /// The authorization code grant with PKCE (RFC 6749 §4.1.3, RFC 7636 §4.5).
    pub async fn exchange_code(
        &self,
        code: &str,
        redirect_uri: &str,
        code_verifier: &str,
    ) -> Result<TokenResponse, OidcError> {
        self.token_request(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirect_uri),
            ("client_id", EDGE_CLIENT_ID),
            ("code_verifier", code_verifier),
        ])
        .await
    }

    /// The refresh token grant (RFC 6749 §6).
    pub async fn refresh(&self, refresh_token: &str) -> Result<TokenResponse, OidcError> {
        self.token_request(&[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("client_id", EDGE_CLIENT_ID),
        ])
        .await
    }

    async fn token_request(&self, form: &[(&str, &str)]) -> Result<TokenResponse, OidcError> {
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let request = Request::post(&self.endpoints.token)
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::ACCEPT, "application/json")
            .body(Body::from(body))
            .map_err(|e| OidcError::Protocol(e.to_string()))?;
        let response = self
            .http
            .request(request)
            .await
            .map_err(|e| OidcError::Unreachable(e.to_string()))?;
        let status = response.status();
        let bytes = read_body(response.into_body(), 1 << 20)
            .await
            .map_err(|e| OidcError::Unreachable(e.to_string()))?;
        if status == StatusCode::OK {
            return serde_json::from_slice(&bytes).map_err(|e| OidcError::Protocol(e.to_string()));
        }
        match serde_json::from_slice::<ErrorResponse>(&bytes) {
            Ok(e) if status.is_client_error() => Err(OidcError::Refused {
                error: e.error,
                description: e.error_description,
            }),
            _ => Err(OidcError::Unreachable(format!("HTTP {status}"))),
        }
    }
}
