//! The organization IAM over HTTP: the code + PKCE flow, the tokens against its JWKS, the SSO
//! session, end-session, the internal API, and every bad input the issue names.

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE, COOKIE, LOCATION, SET_COOKIE};
use serde_json::Value;
use sha2::{Digest, Sha256};
use zero_sandbox::Sandbox;
use zero_sandbox::oidc::{CALLBACK_PATH, EDGE_CLIENT_ID, RealmEndpoints};
use zero_sandbox::platform::{IamTokens, Switch};

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

#[tokio::test]
async fn discovery_names_keycloaks_paths_and_unknown_realms_are_404() {
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    let client = support::client();
    let discovery: Value = client
        .get(format!(
            "{}/.well-known/openid-configuration",
            flow.endpoints.issuer
        ))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let e = &flow.endpoints;
    assert_eq!(discovery["issuer"], e.issuer.as_str());
    assert!(e.issuer.ends_with("/realms/acme"));
    assert_eq!(
        discovery["authorization_endpoint"],
        e.authorization.as_str()
    );
    assert_eq!(discovery["token_endpoint"], e.token.as_str());
    assert_eq!(discovery["jwks_uri"], e.certs.as_str());
    assert_eq!(discovery["userinfo_endpoint"], e.userinfo.as_str());
    assert_eq!(discovery["end_session_endpoint"], e.end_session.as_str());
    assert_eq!(discovery["code_challenge_methods_supported"][0], "S256");

    let realm: Value = client
        .get(&flow.endpoints.issuer)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(realm["realm"], "acme");

    let iam = sandbox.endpoints().iam_url();
    for path in [
        "/realms/other/.well-known/openid-configuration",
        "/realms/other/protocol/openid-connect/certs",
        "/realms/other/anything",
    ] {
        let response = client.get(format!("{iam}{path}")).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"], "Realm does not exist");
    }
}

#[tokio::test]
async fn the_whole_code_flow_gives_tokens_that_verify_against_the_realm_jwks() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let (page, auth_request) = flow.sign_in_page(&[]).await;
    for person in &sandbox.config().people {
        assert!(
            page.contains(&format!(r#"class="person-card" data-sub="{}""#, person.sub)),
            "a card for {}",
            person.sub
        );
    }
    assert!(page.contains("Ada Lovelace") && page.contains("ada@acme.example"));
    assert!(page.contains("Local sandbox"));

    let response = flow
        .authenticate(&[("auth_request", &auth_request), ("person", ADA)])
        .await;
    let set_cookie = response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("KEYCLOAK_IDENTITY="))
        .expect("the IAM's SSO cookie");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/realms/acme/"] {
        assert!(set_cookie.contains(attribute), "{set_cookie}");
    }
    let session_state = callback_query(&response, &flow.redirect_uri)["session_state"].clone();
    let code = flow.code_from(&response);

    let tokens = flow.tokens(&code).await;
    assert_eq!(tokens["token_type"], "Bearer");
    assert_eq!(tokens["expires_in"], 300);
    assert_eq!(tokens["session_state"], session_state.as_str());
    assert_eq!(tokens["scope"], "openid profile email querymesh");
    assert!(tokens["refresh_expires_in"].as_u64().unwrap() > 9 * 3600);

    let access = verify(
        &sandbox,
        tokens["access_token"].as_str().unwrap(),
        "querymesh",
    )
    .await;
    assert_eq!(access["sub"], ADA);
    assert_eq!(access["azp"], EDGE_CLIENT_ID);
    assert_eq!(access["typ"], "Bearer");
    assert_eq!(access["sid"], session_state.as_str());
    assert_eq!(access["scope"], "openid profile email querymesh");
    assert_eq!(access["email"], "ada@acme.example");
    assert_eq!(access["groups"][0], "analysts");
    assert_eq!(
        access["exp"].as_u64().unwrap() - access["iat"].as_u64().unwrap(),
        300
    );

    let id = verify(
        &sandbox,
        tokens["id_token"].as_str().unwrap(),
        EDGE_CLIENT_ID,
    )
    .await;
    assert_eq!(id["aud"], EDGE_CLIENT_ID);
    assert_eq!(id["nonce"], flow.nonce.as_str());
    assert_eq!(id["sid"], session_state.as_str());
    assert_eq!(id["name"], "Ada Lovelace");
    assert_eq!(id["email_verified"], true);
    assert_eq!(id["preferred_username"], "ada");
    assert!(id["auth_time"].as_u64().is_some());

    // Never the identity key.
    let kid = jsonwebtoken::decode_header(tokens["access_token"].as_str().unwrap())
        .unwrap()
        .kid
        .unwrap();
    assert!(
        sandbox
            .identity()
            .keys
            .published()
            .iter()
            .all(|k| k.kid != kid)
    );

    let userinfo: Value = support::client()
        .get(&flow.endpoints.userinfo)
        .bearer_auth(tokens["access_token"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(userinfo["sub"], ADA);
    assert_eq!(userinfo["name"], "Ada Lovelace");

    let refreshed = flow
        .refresh(tokens["refresh_token"].as_str().unwrap())
        .await;
    assert_eq!(refreshed.status(), StatusCode::OK);
    let refreshed: Value = refreshed.json().await.unwrap();
    let access = verify(
        &sandbox,
        refreshed["access_token"].as_str().unwrap(),
        "querymesh",
    )
    .await;
    assert_eq!(access["sid"], session_state.as_str());
    assert!(refreshed["id_token"].is_string());
}

#[tokio::test]
async fn a_person_without_email_gets_no_email_claims() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let code = flow.sign_in_as(GRACE).await;
    let tokens = flow.tokens(&code).await;
    let id = verify(
        &sandbox,
        tokens["id_token"].as_str().unwrap(),
        EDGE_CLIENT_ID,
    )
    .await;
    assert_eq!(id["name"], "Grace Hopper");
    assert!(id.get("email").is_none() && id.get("email_verified").is_none());
}

#[tokio::test]
async fn a_second_authorization_skips_the_page_until_end_session() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let code = flow.sign_in_as(ADA).await;
    let first = flow.tokens(&code).await;

    // The app signed out and the person signs in again: no page while the SSO lasts.
    let response = flow.get(&flow.authorize_url(&[])).await;
    let code = flow.code_from(&response);
    let second = flow.tokens(&code).await;
    assert_eq!(second["session_state"], first["session_state"]);

    // prompt=login shows the page with "Continue as" and "Use another account".
    let (page, auth_request) = flow.sign_in_page(&[("prompt", Some("login"))]).await;
    assert!(page.contains("Continue as") && page.contains("Use another account"));
    let response = flow
        .authenticate(&[("auth_request", &auth_request), ("person", ADA)])
        .await;
    let same = flow.tokens(&flow.code_from(&response)).await;
    assert_eq!(same["session_state"], first["session_state"]);

    // End-session with only the browser's cookie (any site can link there): the IAM asks
    // first and ends nothing, as Keycloak does; a forged confirmation is asked again.
    let response = flow.get(&flow.endpoints.end_session).await;
    assert_eq!(response.status(), StatusCode::OK);
    let question = response.text().await.unwrap();
    assert!(question.contains("Do you want to sign out"), "{question}");
    let confirm = support::hidden_input(&question, "confirm").expect("a confirmation code");
    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(response.status(), StatusCode::FOUND, "the SSO still lasts");
    let forged = flow
        .post_form(&flow.endpoints.end_session, &[("confirm", "guessed")])
        .await;
    assert!(
        forged
            .text()
            .await
            .unwrap()
            .contains("Do you want to sign out")
    );
    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(response.status(), StatusCode::FOUND, "the SSO still lasts");

    // Confirmed: a page, the cookie cleared, the tokens dead.
    let response = flow
        .post_form(&flow.endpoints.end_session, &[("confirm", &confirm)])
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response
            .headers()
            .get_all(SET_COOKIE)
            .iter()
            .any(|c| c.to_str().unwrap().contains("Max-Age=0"))
    );
    assert!(response.text().await.unwrap().contains("signed out"));

    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(response.status(), StatusCode::OK, "the page is back");
    let (status, error, _) =
        error_of(flow.refresh(first["refresh_token"].as_str().unwrap()).await).await;
    assert_eq!(
        (status, error.as_str()),
        (StatusCode::BAD_REQUEST, "invalid_grant")
    );
    let userinfo = support::client()
        .get(&flow.endpoints.userinfo)
        .bearer_auth(first["access_token"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(userinfo.status(), StatusCode::UNAUTHORIZED);
    assert!(
        userinfo.headers()["www-authenticate"]
            .to_str()
            .unwrap()
            .contains(r#"error="invalid_token""#)
    );
}

#[tokio::test]
async fn prompt_none_without_sso_is_login_required_and_sso_expires() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let response = flow
        .get(&flow.authorize_url(&[("prompt", Some("none"))]))
        .await;
    let query = callback_query(&response, &flow.redirect_uri);
    assert_eq!(query["error"], "login_required");
    assert_eq!(query["state"], flow.state);

    flow.sign_in_as(ADA).await;
    let hours = u64::from(sandbox.config().iam.sso_session_hours);
    sandbox
        .iam()
        .advance_clock(Duration::from_secs(hours * 3600));
    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "an expired SSO shows the page"
    );
}

#[tokio::test]
async fn end_session_returns_only_to_the_edge_and_ends_platform_sessions() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let code = flow.sign_in_as(ADA).await;
    let tokens = flow.tokens(&code).await;
    let sso = tokens["session_state"].as_str().unwrap().to_string();
    let person = sandbox.config().people[0].clone();
    let platform_tokens = IamTokens {
        access_token: String::new(),
        access_expires_at: 0,
        refresh_token: None,
        id_token: None,
    };
    let (_, platform_sid) = sandbox
        .sessions()
        .create(person, platform_tokens, Some(sso.clone()));

    let id_token = tokens["id_token"].as_str().unwrap();
    let evil = flow
        .get(&format!(
            "{}?id_token_hint={id_token}&post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F",
            flow.endpoints.end_session
        ))
        .await;
    assert_eq!(evil.status(), StatusCode::BAD_REQUEST);
    assert!(evil.headers().get(LOCATION).is_none());
    assert!(sandbox.sessions().is_alive(&platform_sid), "nothing ended");

    // The edge ends it server-side with the ID token as hint: no cookie involved.
    let edge = sandbox.endpoints().edge_url();
    let without_cookie = Flow::new(&sandbox);
    let response = without_cookie
        .post_form(
            &flow.endpoints.end_session,
            &[
                ("id_token_hint", id_token),
                ("post_logout_redirect_uri", &format!("{edge}/")),
                ("state", "s1"),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::FOUND);
    assert_eq!(response.headers()[LOCATION], format!("{edge}/?state=s1"));
    assert!(!sandbox.sessions().is_alive(&platform_sid));
    let response = flow.get(&flow.authorize_url(&[])).await;
    assert_eq!(response.status(), StatusCode::OK, "the page is back");
}

#[tokio::test]
async fn the_internal_api_ends_every_sso_session_of_a_person() {
    let sandbox = support::start().await;
    let mut browser_a = Flow::new(&sandbox);
    let mut browser_b = Flow::new(&sandbox);
    let a = browser_a.signed_in_tokens(ADA).await;
    let b = browser_b.signed_in_tokens(ADA).await;
    let mut other = Flow::new(&sandbox);
    let g = other.signed_in_tokens(GRACE).await;

    assert_eq!(sandbox.iam().end_sessions_of(ADA), 2);
    for tokens in [&a, &b] {
        let response = browser_a
            .refresh(tokens["refresh_token"].as_str().unwrap())
            .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    }
    let response = other.refresh(g["refresh_token"].as_str().unwrap()).await;
    assert_eq!(
        response.status(),
        StatusCode::OK,
        "Grace is still signed in"
    );
    assert!(
        sandbox
            .iam()
            .end_sso_session(g["session_state"].as_str().unwrap())
    );
    assert!(
        !sandbox
            .iam()
            .end_sso_session(g["session_state"].as_str().unwrap())
    );
    assert_eq!(sandbox.iam().end_sessions_of(ADA), 0);
}

#[tokio::test]
async fn the_querymesh_switch_is_read_at_every_issue() {
    let mut config = support::test_config();
    config.querymesh.scope = false;
    let sandbox = support::start_with(config).await;
    let mut flow = Flow::new(&sandbox);
    let tokens = flow.signed_in_tokens(ADA).await;
    assert_eq!(tokens["scope"], "openid profile email");
    let access = verify(
        &sandbox,
        tokens["access_token"].as_str().unwrap(),
        EDGE_CLIENT_ID,
    )
    .await;
    assert!(!access["scope"].as_str().unwrap().contains("querymesh"));
    assert!(
        !access["aud"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "querymesh")
    );

    sandbox.switches().set(Switch::QueryMeshScope, true);
    let refreshed: Value = flow
        .refresh(tokens["refresh_token"].as_str().unwrap())
        .await
        .json()
        .await
        .unwrap();
    let access = verify(
        &sandbox,
        refreshed["access_token"].as_str().unwrap(),
        "querymesh",
    )
    .await;
    assert_eq!(access["scope"], "openid profile email querymesh");
}

#[tokio::test]
async fn a_custom_person_signs_in_and_an_empty_sub_is_refused() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let (_, auth_request) = flow.sign_in_page(&[]).await;
    let response = flow
        .authenticate(&[
            ("auth_request", &auth_request),
            ("custom", "1"),
            ("sub", "   "),
            ("name", "Nobody"),
        ])
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(response.headers().get(LOCATION).is_none(), "no code issued");
    let page = response.text().await.unwrap();
    assert!(page.contains("needs a sub"), "a clear message");
    assert!(page.contains(r#"value="Nobody""#), "what was typed is kept");

    // The same pending request still works.
    let response = flow
        .authenticate(&[
            ("auth_request", &auth_request),
            ("custom", "1"),
            ("sub", "dev-42"),
            ("name", "Devi Custom"),
            ("email", "devi@example.com"),
            ("email_verified", "true"),
            ("groups", "analysts, , admins"),
        ])
        .await;
    let tokens = flow.tokens(&flow.code_from(&response)).await;
    let id = verify(
        &sandbox,
        tokens["id_token"].as_str().unwrap(),
        EDGE_CLIENT_ID,
    )
    .await;
    assert_eq!(id["sub"], "dev-42");
    assert_eq!(id["email_verified"], true);
    assert_eq!(id["groups"], serde_json::json!(["analysts", "admins"]));

    let (page, _) = flow.sign_in_page(&[("prompt", Some("login"))]).await;
    assert!(
        page.contains(r#"data-sub="dev-42""#),
        "remembered as a card"
    );
}

#[tokio::test]
async fn a_bad_client_or_redirect_uri_gets_a_page_and_never_a_redirect() {
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    for changes in [
        vec![("client_id", Some("someone-else"))],
        vec![("client_id", None)],
        vec![(
            "redirect_uri",
            Some("https://evil.example/.nnumbers/auth/callback"),
        )],
        vec![("redirect_uri", Some(&*format!("{}/", flow.redirect_uri)))],
        vec![("redirect_uri", None)],
        // Still checked first when everything else is wrong too.
        vec![
            ("redirect_uri", Some("https://evil.example/")),
            ("code_challenge", None),
        ],
    ] {
        let response = flow.get(&flow.authorize_url(&changes)).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{changes:?}");
        assert!(response.headers().get(LOCATION).is_none(), "{changes:?}");
        assert!(
            response.headers()[CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html")
        );
    }
}

#[tokio::test]
async fn bad_authorization_requests_go_back_with_an_oauth_error() {
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    for (changes, expected) in [
        (vec![("code_challenge", None)], "invalid_request"),
        (vec![("code_challenge_method", None)], "invalid_request"),
        (
            vec![("code_challenge_method", Some("plain"))],
            "invalid_request",
        ),
        (
            vec![("code_challenge", Some("too-short"))],
            "invalid_request",
        ),
        (
            vec![("response_type", Some("token"))],
            "unsupported_response_type",
        ),
        (vec![("scope", Some("profile"))], "invalid_scope"),
        (vec![("prompt", Some("none login"))], "invalid_request"),
    ] {
        let response = flow.get(&flow.authorize_url(&changes)).await;
        assert_eq!(response.status(), StatusCode::FOUND, "{changes:?}");
        let query = callback_query(&response, &flow.redirect_uri);
        assert_eq!(query["error"], expected, "{changes:?}");
        assert_eq!(query["state"], flow.state);
        assert!(!query["error_description"].is_empty());
        assert!(!query.contains_key("code"));
    }
}

#[tokio::test]
async fn bad_token_requests_get_rfc6749_errors() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);

    // A wrong verifier, then the right one: the code was spent by the first attempt.
    let code = flow.sign_in_as(ADA).await;
    let wrong = B64.encode(Sha256::digest(b"another verifier"));
    let (status, error, _) = error_of(flow.exchange(&code, Some(&wrong)).await).await;
    assert_eq!(
        (status, error.as_str()),
        (StatusCode::BAD_REQUEST, "invalid_grant")
    );
    let (_, error, _) = error_of(flow.exchange(&code, Some(&flow.verifier)).await).await;
    assert_eq!(error, "invalid_grant");

    // No verifier at all.
    let code = flow.get(&flow.authorize_url(&[])).await;
    let code = flow.code_from(&code);
    let (_, error, description) = error_of(flow.exchange(&code, None).await).await;
    assert_eq!(error, "invalid_grant");
    assert!(description.contains("code_verifier"));

    // Reuse: refused, and the refresh token of the first use is revoked.
    let code = flow.code_from(&flow.get(&flow.authorize_url(&[])).await);
    let tokens = flow.tokens(&code).await;
    let (_, error, description) = error_of(flow.exchange(&code, Some(&flow.verifier)).await).await;
    assert_eq!(error, "invalid_grant");
    assert!(description.contains("already used"));
    let (_, error, _) = error_of(
        flow.refresh(tokens["refresh_token"].as_str().unwrap())
            .await,
    )
    .await;
    assert_eq!(error, "invalid_grant");

    // Expired: codes last 60 seconds.
    let code = flow.code_from(&flow.get(&flow.authorize_url(&[])).await);
    sandbox.iam().advance_clock(Duration::from_secs(61));
    let (_, error, description) = error_of(flow.exchange(&code, Some(&flow.verifier)).await).await;
    assert_eq!(error, "invalid_grant");
    assert!(description.contains("expired"));

    // A redirect_uri that differs from the authorization request's.
    let code = flow.code_from(&flow.get(&flow.authorize_url(&[])).await);
    let localhost = flow.redirect_uri.replace("127.0.0.1", "localhost");
    let response = flow
        .post_form(
            &flow.endpoints.token,
            &[
                ("grant_type", "authorization_code"),
                ("code", &code),
                ("redirect_uri", &localhost),
                ("client_id", EDGE_CLIENT_ID),
                ("code_verifier", &flow.verifier),
            ],
        )
        .await;
    assert_eq!(error_of(response).await.1, "invalid_grant");

    let token = &flow.endpoints.token;
    for (form, status, expected) in [
        (
            vec![
                ("grant_type", "authorization_code"),
                ("code", "x"),
                ("client_id", "someone-else"),
            ],
            StatusCode::UNAUTHORIZED,
            "invalid_client",
        ),
        (
            vec![("grant_type", "authorization_code"), ("code", "x")],
            StatusCode::UNAUTHORIZED,
            "invalid_client",
        ),
        (
            vec![
                ("grant_type", "refresh_token"),
                ("refresh_token", "not-a-token"),
                ("client_id", EDGE_CLIENT_ID),
            ],
            StatusCode::BAD_REQUEST,
            "invalid_grant",
        ),
        (
            vec![("grant_type", "password"), ("client_id", EDGE_CLIENT_ID)],
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
        ),
        (
            vec![("client_id", EDGE_CLIENT_ID)],
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
        (
            vec![
                ("grant_type", "authorization_code"),
                ("client_id", EDGE_CLIENT_ID),
            ],
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
        (
            vec![
                ("grant_type", "refresh_token"),
                ("grant_type", "refresh_token"),
                ("client_id", EDGE_CLIENT_ID),
            ],
            StatusCode::BAD_REQUEST,
            "invalid_request",
        ),
    ] {
        let response = flow.post_form(token, &form).await;
        assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
        let (got_status, error, _) = error_of(response).await;
        assert_eq!((got_status, error.as_str()), (status, expected), "{form:?}");
    }
}

#[tokio::test]
async fn an_unknown_or_expired_sign_in_request_gets_a_clear_page() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let response = flow
        .authenticate(&[("auth_request", "made-up"), ("person", ADA)])
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(response.headers().get(LOCATION).is_none());
    assert!(response.text().await.unwrap().contains("expired"));

    let (_, auth_request) = flow.sign_in_page(&[]).await;
    sandbox.iam().advance_clock(Duration::from_secs(601));
    let response = flow
        .authenticate(&[("auth_request", &auth_request), ("person", ADA)])
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(flow.sso_cookie.is_none(), "nobody signed in");

    let (_, auth_request) = flow.sign_in_page(&[]).await;
    let response = flow
        .authenticate(&[("auth_request", &auth_request), ("person", "nobody")])
        .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(response.text().await.unwrap().contains("Nobody with sub"));
}

#[tokio::test]
async fn the_page_assets_are_served_and_pages_are_never_framed() {
    let sandbox = support::start().await;
    let flow = Flow::new(&sandbox);
    let response = flow.get(&flow.authorize_url(&[])).await;
    let headers = response.headers();
    assert_eq!(headers["x-frame-options"], "DENY");
    assert!(
        headers["content-security-policy"]
            .to_str()
            .unwrap()
            .contains("frame-ancestors 'none'")
    );
    let iam = sandbox.endpoints().iam_url();
    for (file, kind) in [("signin.css", "text/css"), ("signin.js", "text/javascript")] {
        let response = flow.get(&format!("{iam}/resources/signin/{file}")).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert!(
            response.headers()[CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with(kind)
        );
    }
    let response = flow
        .get(&format!("{iam}/resources/signin/layout.html"))
        .await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_authorization_endpoint_takes_post_too() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    flow.sign_in_as(ADA).await;
    let url = flow.authorize_url(&[]);
    let (_, query) = url.split_once('?').unwrap();
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let form: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let response = flow.post_form(&flow.endpoints.authorization, &form).await;
    let code = flow.code_from(&response);
    assert_eq!(flow.tokens(&code).await["token_type"], "Bearer");
}

#[tokio::test]
async fn the_public_client_may_name_itself_in_basic_and_a_secret_is_ignored() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let code = flow.sign_in_as(ADA).await;
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", &flow.redirect_uri),
            ("code_verifier", &flow.verifier),
            ("client_secret", "there-is-none"),
        ])
        .finish();
    let response = support::client()
        .post(&flow.endpoints.token)
        .basic_auth(EDGE_CLIENT_ID, Some("there-is-none"))
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_account_page_shows_who_is_signed_in_and_signs_out() {
    let sandbox = support::start().await;
    let mut flow = Flow::new(&sandbox);
    let account = format!("{}/account", flow.endpoints.issuer);
    let page = flow.get(&account).await.text().await.unwrap();
    assert!(page.contains("Nobody is signed in"));

    flow.sign_in_as(ADA).await;
    let page = flow.get(&account).await.text().await.unwrap();
    assert!(page.contains("Ada Lovelace"));
    let action = attribute_after(&page, r#"<form method="post" action=""#);
    assert_eq!(action, "/realms/acme/protocol/openid-connect/logout");

    let confirm = support::hidden_input(&page, "confirm").expect("the form carries its code");
    let iam = sandbox.endpoints().iam_url();
    let response = flow
        .post_form(&format!("{iam}{action}"), &[("confirm", &confirm)])
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let page = flow.get(&account).await.text().await.unwrap();
    assert!(page.contains("Nobody is signed in"));
}
