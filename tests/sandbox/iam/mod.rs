//! The organization IAM over HTTP: a client's code + PKCE flow against it (the [`Flow`] helper),
//! its tokens against its JWKS, its SSO session, end-session, the internal API, and every bad
//! input.

mod authorization_code_flow;
mod authorization_errors;
mod discovery;
mod offline_access;
mod sign_in_page;
mod sign_in_page_in_a_browser;
mod single_sign_on;
mod token_endpoint_errors;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE, COOKIE, LOCATION, SET_COOKIE};
use serde_json::Value;
use sha2::{Digest, Sha256};
use zero_sandbox::Sandbox;
use zero_sandbox::oidc::{CALLBACK_PATH, EDGE_CLIENT_ID, RealmEndpoints};

use crate::support;

const ADA: &str = "3c0e8f1a-7d2b-4b6e-9f41-2a5c8d7e6b01";

const GRACE: &str = "7a2d9c4b-1e3f-4a5b-8c6d-0e1f2a3b4c02";

/// One browser's worth of sign-in: its PKCE pair, state and nonce, and the IAM's cookie.
pub struct Flow {
    pub endpoints: RealmEndpoints,
    pub redirect_uri: String,
    pub verifier: String,
    pub state: String,
    pub nonce: String,
    /// The `KEYCLOAK_IDENTITY=...` pair, once the IAM set it.
    pub sso_cookie: Option<String>,
    http: reqwest::Client,
}

impl Flow {
    pub fn new(sandbox: &Sandbox) -> Self {
        let verifier = B64.encode(rand_bytes());
        Self {
            endpoints: RealmEndpoints::new(sandbox.realm_url()),
            redirect_uri: format!("{}{CALLBACK_PATH}", sandbox.endpoints().edge_url()),
            verifier,
            state: B64.encode(rand_bytes()),
            nonce: B64.encode(rand_bytes()),
            sso_cookie: None,
            http: support::client(),
        }
    }

    pub fn challenge(&self) -> String {
        B64.encode(Sha256::digest(self.verifier.as_bytes()))
    }

    /// The authorization URL with these parameters replaced or (with `None`) removed.
    pub fn authorize_url(&self, changes: &[(&str, Option<&str>)]) -> String {
        let challenge = self.challenge();
        let mut params: Vec<(&str, String)> = vec![
            ("client_id", EDGE_CLIENT_ID.into()),
            ("redirect_uri", self.redirect_uri.clone()),
            ("response_type", "code".into()),
            ("scope", "openid profile email".into()),
            ("state", self.state.clone()),
            ("nonce", self.nonce.clone()),
            ("code_challenge", challenge),
            ("code_challenge_method", "S256".into()),
        ];
        for (name, value) in changes {
            params.retain(|(n, _)| n != name);
            if let Some(v) = value {
                params.push((name, v.to_string()));
            }
        }
        let query = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(params)
            .finish();
        format!("{}?{query}", self.endpoints.authorization)
    }

    pub async fn get(&self, url: &str) -> reqwest::Response {
        let mut request = self.http.get(url);
        if let Some(cookie) = &self.sso_cookie {
            request = request.header(COOKIE, cookie);
        }
        request.send().await.expect("the IAM answers")
    }

    pub async fn post_form(&self, url: &str, form: &[(&str, &str)]) -> reqwest::Response {
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        let mut request = self
            .http
            .post(url)
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(body);
        if let Some(cookie) = &self.sso_cookie {
            request = request.header(COOKIE, cookie);
        }
        request.send().await.expect("the IAM answers")
    }

    /// GET authorize; expects the sign-in page and returns (page, auth_request).
    pub async fn sign_in_page(&self, changes: &[(&str, Option<&str>)]) -> (String, String) {
        let response = self.get(&self.authorize_url(changes)).await;
        assert_eq!(response.status(), StatusCode::OK, "the sign-in page");
        let page = response.text().await.unwrap();
        let auth_request = attribute_after(&page, r#"name="auth_request" value=""#);
        (page, auth_request)
    }

    /// Posts the page's form; keeps the SSO cookie it sets.
    pub async fn authenticate(&mut self, form: &[(&str, &str)]) -> reqwest::Response {
        let action = format!("{}/login-actions/authenticate", self.endpoints.issuer);
        let response = self.post_form(&action, form).await;
        if let Some(cookie) = sso_cookie_set(&response) {
            self.sso_cookie = Some(cookie);
        }
        response
    }

    /// Signs in as `sub` through the page; returns the code from the callback redirect.
    pub async fn sign_in_as(&mut self, sub: &str) -> String {
        let (_, auth_request) = self.sign_in_page(&[]).await;
        let response = self
            .authenticate(&[("auth_request", &auth_request), ("person", sub)])
            .await;
        self.code_from(&response)
    }

    /// Checks a redirect to the callback (state, session_state, iss) and returns its code.
    pub fn code_from(&self, response: &reqwest::Response) -> String {
        assert_eq!(response.status(), StatusCode::FOUND);
        let query = callback_query(response, &self.redirect_uri);
        assert_eq!(query.get("state"), Some(&self.state));
        assert_eq!(query.get("iss"), Some(&self.endpoints.issuer));
        assert!(query.contains_key("session_state"));
        query.get("code").cloned().expect("a code")
    }

    pub async fn exchange(&self, code: &str, verifier: Option<&str>) -> reqwest::Response {
        let mut form = vec![
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", &self.redirect_uri),
            ("client_id", EDGE_CLIENT_ID),
        ];
        if let Some(v) = verifier {
            form.push(("code_verifier", v));
        }
        self.post_form(&self.endpoints.token, &form).await
    }

    pub async fn tokens(&self, code: &str) -> Value {
        let response = self.exchange(code, Some(&self.verifier)).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
        response.json().await.unwrap()
    }

    /// Signs in as `sub` and exchanges the code.
    pub async fn signed_in_tokens(&mut self, sub: &str) -> Value {
        let code = self.sign_in_as(sub).await;
        self.tokens(&code).await
    }

    pub async fn refresh(&self, refresh_token: &str) -> reqwest::Response {
        self.post_form(
            &self.endpoints.token,
            &[
                ("grant_type", "refresh_token"),
                ("refresh_token", refresh_token),
                ("client_id", EDGE_CLIENT_ID),
            ],
        )
        .await
    }
}

fn rand_bytes() -> [u8; 32] {
    rand::random()
}

/// The value of the attribute that follows `marker` in `page`.
pub fn attribute_after(page: &str, marker: &str) -> String {
    let start = page.find(marker).expect("the marker is in the page") + marker.len();
    let end = page[start..].find('"').expect("a closing quote") + start;
    page[start..end].to_string()
}

/// The `KEYCLOAK_IDENTITY=value` pair a response sets, if any (not a clearing one).
pub fn sso_cookie_set(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("KEYCLOAK_IDENTITY=") && !v.contains("Max-Age=0"))
        .map(|v| v.split(';').next().unwrap_or_default().to_string())
}

/// The query of a redirect to `redirect_uri`.
pub fn callback_query(
    response: &reqwest::Response,
    redirect_uri: &str,
) -> std::collections::HashMap<String, String> {
    let location = response.headers()[LOCATION].to_str().unwrap();
    let (base, query) = location.split_once('?').expect("a query");
    assert_eq!(base, redirect_uri);
    form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect()
}

/// Verifies a realm token with an independent library against the realm's published JWKS.
async fn verify(sandbox: &Sandbox, token: &str, audience: &str) -> Value {
    let endpoints = RealmEndpoints::new(sandbox.realm_url());
    let jwks: jsonwebtoken::jwk::JwkSet = support::client()
        .get(&endpoints.certs)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let header = jsonwebtoken::decode_header(token).unwrap();
    let kid = header.kid.expect("a kid");
    let jwk = jwks.find(&kid).expect("the kid is in the realm's JWKS");
    let mut validation = Validation::new(Algorithm::ES256);
    validation.set_issuer(&[&endpoints.issuer]);
    validation.set_audience(&[audience]);
    jsonwebtoken::decode::<Value>(token, &DecodingKey::from_jwk(jwk).unwrap(), &validation)
        .expect("the token verifies")
        .claims
}

async fn error_of(response: reqwest::Response) -> (StatusCode, String, String) {
    let status = response.status();
    let body: Value = response.json().await.expect("an OAuth error is JSON");
    (
        status,
        body["error"].as_str().unwrap_or_default().to_string(),
        body["error_description"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    )
}
