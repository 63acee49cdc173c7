//! The edge over real HTTP, in front of the echo app: the reserved paths, sign-in and sign-out, the
//! identity header, what is forwarded to the app, streaming, and an app that fails.

mod app_connections;
mod app_failures;
mod browser_sign_in;
mod forwarding;
mod identity_header;
mod requests_the_edge_answers;
mod reserved_path_spellings;
mod sign_in;
mod sign_out;
mod streaming;

use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use reqwest::header::COOKIE;
use serde_json::Value;
use zero_sandbox::Sandbox;
use zero_sandbox::identity::Audience;

use crate::support::{self, client, edge, location};

/// What the echo app received for `GET path` sent with `cookie` and `extra` headers.
async fn echoed(
    sandbox: &Sandbox,
    path: &str,
    cookie: Option<&str>,
    extra: &[(&str, &str)],
) -> Value {
    let mut request = client().get(edge(sandbox, path));
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    for (name, value) in extra {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("the edge answers");
    assert_eq!(response.status(), 200);
    response.json().await.expect("the echo app's JSON")
}

fn query_param(url: &str, name: &str) -> Option<String> {
    let url = reqwest::Url::parse(url).ok()?;
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

fn audience(sandbox: &Sandbox) -> Audience {
    Audience::from_config(sandbox.config())
}

/// The identity checked by an independent verifier (jsonwebtoken) with the app's environment.
fn jsonwebtoken_claims(sandbox: &Sandbox, token: &str) -> Value {
    let env = sandbox.env();
    let jwks: jsonwebtoken::jwk::JwkSet = serde_json::from_str(&env.identity_jwks).unwrap();
    let kid = jsonwebtoken::decode_header(token).unwrap().kid.unwrap();
    let key = DecodingKey::from_jwk(jwks.find(&kid).unwrap()).unwrap();
    let mut validation = Validation::new(Algorithm::ES256);
    validation.leeway = 60;
    validation.set_issuer(&[env.identity_issuer.as_str()]);
    validation.set_audience(&[env.app_id.as_str()]);
    let claims = jsonwebtoken::decode::<Value>(token, &key, &validation)
        .expect("jsonwebtoken verifies the identity")
        .claims;
    assert_eq!(claims["org"], env.org_id);
    claims
}

/// Drives the flow up to (not including) the edge's callback; returns the callback URL and
/// the login cookie that binds it to this "browser".
pub async fn callback_url(sandbox: &Sandbox, person: &str) -> (String, String) {
    let http = client();
    let login = http
        .get(edge(sandbox, "/.nnumbers/auth/login"))
        .send()
        .await
        .unwrap();
    let login_cookie = support::cookie_pairs(&login);
    let page = http.get(location(&login)).send().await.unwrap();
    let html = page.text().await.unwrap();
    let auth_request = support::hidden_input(&html, "auth_request").expect("auth_request");
    let sub = sandbox.config().person(person).unwrap().sub.clone();
    let chosen = http
        .post(format!(
            "{}/login-actions/authenticate",
            sandbox.realm_url()
        ))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(support::encode_form(&[
            ("auth_request", auth_request.as_str()),
            ("person", &sub),
        ]))
        .send()
        .await
        .unwrap();
    assert_eq!(chosen.status(), 302);
    (location(&chosen), login_cookie)
}

/// What the echo app received for `GET path` with these headers (values as raw bytes).
async fn echoed_bytes(sandbox: &Sandbox, path: &str, headers: &[(&str, &[u8])]) -> Value {
    let mut request = client().get(edge(sandbox, path));
    for (name, value) in headers {
        let value = reqwest::header::HeaderValue::from_bytes(value).unwrap();
        request = request.header(*name, value);
    }
    let response = request.send().await.expect("the edge answers");
    assert_eq!(response.status(), 200);
    response.json().await.expect("the echo app's JSON")
}
