//! The edge over real HTTP, in front of the echo app: the reserved paths, the session cookie,
//! the identity header, the proxy's hygiene and streaming, and every bad input of the issue.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CACHE_CONTROL, COOKIE, HOST, LOCATION, ORIGIN, SET_COOKIE};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;
use zero_sandbox::Sandbox;
use zero_sandbox::identity::{Audience, unix_now, verify_identity};
use zero_sandbox::oidc::RealmEndpoints;

use crate::echo_app::{BIG_LEN, EchoApp, header_values};
use crate::support::{self, SignedIn, client, location, sign_in, sign_in_returning};

/// A sandbox whose app is a fresh echo app.
async fn start_with_echo() -> (Sandbox, EchoApp) {
    let echo = EchoApp::start().await;
    let mut config = support::test_config();
    config.app.url = Some(echo.url.clone());
    (support::start_with(config).await, echo)
}

fn edge(sandbox: &Sandbox, path: &str) -> String {
    format!("{}{path}", sandbox.endpoints().edge_url())
}

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

// ---------------------------------------------------------------- reserved paths

#[tokio::test]
async fn context_and_anonymous_session_are_203_no_store() {
    let (sandbox, _echo) = start_with_echo().await;
    let config = sandbox.config();
    for (path, check) in [("/.nnumbers/v1/context", 0), ("/.nnumbers/auth/session", 1)] {
        let response = client().get(edge(&sandbox, path)).send().await.unwrap();
        assert_eq!(
            response.status(),
            StatusCode::NON_AUTHORITATIVE_INFORMATION,
            "{path}"
        );
        assert_eq!(response.headers()[CACHE_CONTROL], "no-store", "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["organization"]["id"], config.organization.id.as_str());
        assert_eq!(
            body["organization"]["slug"],
            config.organization.slug.as_str()
        );
        if check == 0 {
            assert_eq!(body["app"]["id"], config.app.id.as_str());
            assert_eq!(body["auth"]["login_path"], "/.nnumbers/auth/login");
            assert_eq!(body["auth"]["logout_path"], "/.nnumbers/auth/logout");
        } else {
            assert!(body["user"].is_null());
        }
    }
}

#[tokio::test]
async fn other_reserved_paths_are_404_from_the_edge() {
    let (sandbox, _echo) = start_with_echo().await;
    for path in [
        "/.nnumbers/",
        "/.nnumbers",
        "/.nnumbers/nope",
        "/.nnumbers/auth/session/",
        "/.NNumbers/auth/session",
        "/%2Ennumbers/nope",
        "/app/../.nnumbers/x",
    ] {
        let response = client().get(edge(&sandbox, path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "NOT_FOUND", "{path}: answered by the edge");
    }
    // A known path with another method is the edge's too, never the app's.
    let response = client()
        .post(edge(&sandbox, "/.nnumbers/v1/context"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 405);
    let response = client()
        .get(edge(&sandbox, "/.nnumbers/auth/logout"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 405);
}

#[tokio::test]
async fn login_redirects_to_the_iam_with_state_nonce_and_pkce() {
    let (sandbox, _echo) = start_with_echo().await;
    let port = sandbox.endpoints().edge.port();
    let authorization = &RealmEndpoints::new(sandbox.realm_url()).authorization;
    let mut states = Vec::new();
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        let response = client()
            .get(edge(&sandbox, "/.nnumbers/auth/login?return_to=/x"))
            .header(HOST, &host)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 302);
        assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
        let to = location(&response);
        assert!(to.starts_with(&format!("{authorization}?")), "{to}");
        let param = |name| query_param(&to, name).unwrap_or_else(|| panic!("{name} in {to}"));
        assert_eq!(param("response_type"), "code");
        assert_eq!(param("client_id"), "nnumbers-edge");
        assert_eq!(
            param("redirect_uri"),
            format!("http://{host}/.nnumbers/auth/callback")
        );
        assert!(param("scope").split(' ').any(|s| s == "openid"));
        assert_eq!(param("code_challenge_method"), "S256");
        assert_eq!(param("code_challenge").len(), 43);
        assert!(param("state").len() >= 43 && param("nonce").len() >= 43);
        states.push(param("state"));
    }
    assert_ne!(states[0], states[1], "every sign-in has its own state");
}

#[tokio::test]
async fn return_to_accepts_only_a_local_path() {
    let (sandbox, _echo) = start_with_echo().await;
    let (_, to) = sign_in_returning(&sandbox, "ada", "/reports?year=2024").await;
    assert_eq!(to, "/reports?year=2024");
    for bad in [
        "//evil.example",
        "/\\evil.example",
        "%2F%2Fevil.example",
        "https://evil.example",
        "javascript:alert(1)",
        "/\t/evil.example",
        "evil.example",
    ] {
        let (_, to) = sign_in_returning(&sandbox, "ada", bad).await;
        assert_eq!(to, "/", "return_to {bad:?}");
    }
}

#[tokio::test]
async fn callback_with_a_bad_or_replayed_state_or_code_is_400_without_a_session() {
    let (sandbox, _echo) = start_with_echo().await;
    let http = client();
    let sessions_before = sandbox.sessions().list().len();

    for query in ["", "?code=x", "?state=made-up&code=x"] {
        let response = http
            .get(edge(&sandbox, &format!("/.nnumbers/auth/callback{query}")))
            .header(ACCEPT, "text/html")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 400, "{query}");
        assert!(response.headers().get(SET_COOKIE).is_none());
        let page = response.text().await.unwrap();
        assert!(
            page.contains("does not belong to a sign-in in progress"),
            "{page}"
        );
    }

    // A real callback URL works once; replayed, it is refused.
    let (callback, login_cookie) = callback_url(&sandbox, "ada").await;
    let first = http
        .get(&callback)
        .header(COOKIE, &login_cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(first.status(), 302);
    let replay = http
        .get(&callback)
        .header(COOKIE, &login_cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(replay.status(), 400);
    assert!(replay.headers().get(SET_COOKIE).is_none());
    let body: Value = replay.json().await.unwrap();
    assert_eq!(body["code"], "SIGN_IN_FAILED");

    // A used code under a fresh, valid state: the IAM refuses it.
    let code = query_param(&callback, "code").unwrap();
    let (fresh, login_cookie) = callback_url(&sandbox, "ada").await;
    let state = query_param(&fresh, "state").unwrap();
    let forged = format!(
        "{}?state={state}&code={code}",
        edge(&sandbox, "/.nnumbers/auth/callback")
    );
    let refused = http
        .get(&forged)
        .header(COOKIE, &login_cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    assert!(refused.headers().get(SET_COOKIE).is_none());
    let body: Value = refused.json().await.unwrap();
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("authorization code"),
        "{body}"
    );
    assert_eq!(
        sandbox.sessions().list().len(),
        sessions_before + 1,
        "only the one good callback made a session"
    );
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

// ---------------------------------------------------------------- session and identity

#[tokio::test]
async fn a_signed_in_request_carries_one_identity_that_verifies() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada = sign_in(&sandbox, "ada").await;
    let spoof = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJtYWxsb3J5In0.";
    let echo = echoed(
        &sandbox,
        "/whoami",
        Some(&ada.cookie),
        &[
            ("X-NNumbers-Identity", spoof),
            ("x-nnumbers-identity", spoof),
        ],
    )
    .await;
    let identities = header_values(&echo, "x-nnumbers-identity");
    assert_eq!(identities.len(), 1, "exactly one identity: {identities:?}");
    let token = &identities[0];
    let claims = verify_identity(
        token,
        &sandbox.identity().keys.published(),
        &audience(&sandbox),
        unix_now(),
    )
    .expect("the identity verifies with the platform's checks");
    assert_eq!(claims.sub, ada.sub);
    assert_eq!(claims.sid, ada.sid);
    let independent = jsonwebtoken_claims(&sandbox, token);
    assert_eq!(independent["sub"], ada.sub.as_str());
    assert_eq!(independent["email"], "ada@acme.example");

    let session: Value = client()
        .get(edge(&sandbox, "/.nnumbers/auth/session"))
        .header(COOKIE, &ada.cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(session["user"]["sub"], ada.sub.as_str());
    assert_eq!(session["user"]["preferred_username"], "ada");
}

#[tokio::test]
async fn the_identity_is_cached_per_session_and_resigned_near_expiry() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada = sign_in(&sandbox, "ada").await;
    let identity = |echo: Value| header_values(&echo, "x-nnumbers-identity").remove(0);
    let first = identity(echoed(&sandbox, "/1", Some(&ada.cookie), &[]).await);
    let second = identity(echoed(&sandbox, "/2", Some(&ada.cookie), &[]).await);
    assert_eq!(first, second, "signing is not per request");

    // Under 60 s left: the next request gets a new one.
    let sessions = sandbox.sessions();
    sessions.cache_identity(&ada.sid, first.clone(), unix_now() + 59);
    let third = identity(echoed(&sandbox, "/3", Some(&ada.cookie), &[]).await);
    assert_ne!(third, first);
    let claims = jsonwebtoken_claims(&sandbox, &third);
    assert!(claims["exp"].as_u64().unwrap() >= unix_now() + 240);
}

#[tokio::test]
async fn spoofed_identity_headers_never_reach_the_app() {
    let (sandbox, _echo) = start_with_echo().await;
    let forged = sandbox
        .identity()
        .mint(&sandbox.config().people[0], "forged-sid")
        .0;
    // Every spelling, several copies, on a plain request and on an upgrade request.
    let mut request = client().get(edge(&sandbox, "/anonymous"));
    for name in [
        "X-NNumbers-Identity",
        "x-nnumbers-identity",
        "X-NNUMBERS-IDENTITY",
    ] {
        request = request.header(name, &forged).header(name, "second copy");
    }
    let echo: Value = request.send().await.unwrap().json().await.unwrap();
    assert!(
        header_values(&echo, "x-nnumbers-identity").is_empty(),
        "{echo}"
    );

    // A stale or made-up cookie is anonymous too, and the edge clears it.
    let response = client()
        .get(edge(&sandbox, "/anonymous"))
        .header(COOKIE, "__nnumbers_session=made-up")
        .header("X-NNumbers-Identity", &forged)
        .send()
        .await
        .unwrap();
    let cleared = support::cookie_pairs(&response);
    assert_eq!(cleared, "__nnumbers_session=");
    let echo: Value = response.json().await.unwrap();
    assert!(header_values(&echo, "x-nnumbers-identity").is_empty());
}

#[tokio::test]
async fn the_app_gets_forwarded_headers_and_never_the_platform_cookie() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada = sign_in(&sandbox, "ada").await;
    let cookie = format!("theme=dark; {}; cart=3", ada.cookie);
    let echo = echoed(
        &sandbox,
        "/page?q=1",
        Some(&cookie),
        &[("X-Forwarded-For", "6.6.6.6"), ("Forwarded", "for=6.6.6.6")],
    )
    .await;
    assert_eq!(echo["path"], "/page?q=1");
    assert_eq!(header_values(&echo, "cookie"), ["theme=dark; cart=3"]);
    assert_eq!(header_values(&echo, "x-forwarded-for"), ["127.0.0.1"]);
    assert_eq!(header_values(&echo, "x-forwarded-proto"), ["http"]);
    assert_eq!(
        header_values(&echo, "x-forwarded-host"),
        [sandbox.endpoints().edge.to_string()]
    );
    assert!(header_values(&echo, "forwarded").is_empty());

    // Only the platform cookie: the app gets no Cookie header at all.
    let echo = echoed(&sandbox, "/", Some(&ada.cookie), &[]).await;
    assert!(header_values(&echo, "cookie").is_empty());

    // The app cannot overwrite the platform cookie either.
    let response = client()
        .get(edge(&sandbox, "/set-cookie"))
        .send()
        .await
        .unwrap();
    assert_eq!(support::cookie_pairs(&response), "app_pref=dark");
}

#[tokio::test]
async fn logout_needs_the_edges_own_origin_and_ends_the_session() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada = sign_in(&sandbox, "ada").await;
    let logout = edge(&sandbox, "/.nnumbers/auth/logout");
    let own = sandbox.endpoints().edge_url();
    for origin in [
        None,
        Some("http://evil.example"),
        Some("null"),
        Some(format!("http://localhost:{}", sandbox.endpoints().edge.port()).leak() as &str),
    ] {
        let mut request = client().post(&logout).header(COOKIE, &ada.cookie);
        if let Some(origin) = origin {
            request = request.header(ORIGIN, origin);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 403, "Origin {origin:?}");
        assert!(sandbox.sessions().is_alive(&ada.sid));
    }

    let response = client()
        .post(&logout)
        .header(COOKIE, &ada.cookie)
        .header(ORIGIN, &own)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[LOCATION], "/");
    assert_eq!(support::cookie_pairs(&response), "__nnumbers_session=");
    assert!(
        !sandbox.sessions().is_alive(&ada.sid),
        "the broker refuses the sid from now on"
    );
    let echo = echoed(&sandbox, "/after", Some(&ada.cookie), &[]).await;
    assert!(header_values(&echo, "x-nnumbers-identity").is_empty());
}

#[tokio::test]
async fn sign_in_again_after_logout_skips_the_sign_in_page() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada = sign_in(&sandbox, "ada").await;
    let own = sandbox.endpoints().edge_url();
    client()
        .post(edge(&sandbox, "/.nnumbers/auth/logout"))
        .header(COOKIE, &ada.cookie)
        .header(ORIGIN, &own)
        .send()
        .await
        .unwrap();
    let http = client();
    let login = http
        .get(edge(&sandbox, "/.nnumbers/auth/login"))
        .send()
        .await
        .unwrap();
    let sso = http
        .get(location(&login))
        .header(COOKIE, &ada.iam_cookies)
        .send()
        .await
        .unwrap();
    assert_eq!(sso.status(), 302, "the IAM's SSO answers without its page");
    let done = http
        .get(location(&sso))
        .header(COOKIE, support::cookie_pairs(&login))
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), 302);
    let cookie = support::cookie_pairs(&done);
    let echo = echoed(&sandbox, "/", Some(&cookie), &[]).await;
    let token = header_values(&echo, "x-nnumbers-identity").remove(0);
    let claims = jsonwebtoken_claims(&sandbox, &token);
    assert_eq!(claims["sub"], ada.sub.as_str());
    assert_ne!(claims["sid"], ada.sid.as_str(), "a new platform session");
}

#[tokio::test]
async fn iam_tokens_are_refreshed_and_a_refused_refresh_ends_the_session() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada: SignedIn = sign_in(&sandbox, "ada").await;
    let sessions = sandbox.sessions();

    let mut tokens = sessions.get(&ada.sid).unwrap().tokens;
    let old_access = tokens.access_token.clone();
    tokens.access_expires_at = unix_now();
    sessions.set_tokens(&ada.sid, tokens.clone());
    let echo = echoed(&sandbox, "/", Some(&ada.cookie), &[]).await;
    assert_eq!(header_values(&echo, "x-nnumbers-identity").len(), 1);
    let refreshed = sessions.get(&ada.sid).unwrap().tokens;
    assert_ne!(refreshed.access_token, old_access);
    assert!(refreshed.access_expires_at > unix_now() + 60);

    tokens.access_expires_at = unix_now();
    tokens.refresh_token = Some("not-a-refresh-token".into());
    sessions.set_tokens(&ada.sid, tokens);
    let response = client()
        .get(edge(&sandbox, "/"))
        .header(COOKIE, &ada.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(support::cookie_pairs(&response), "__nnumbers_session=");
    let echo: Value = response.json().await.unwrap();
    assert!(header_values(&echo, "x-nnumbers-identity").is_empty());
    assert!(!sessions.is_alive(&ada.sid));
}

// ---------------------------------------------------------------- streaming and upgrades

#[tokio::test]
async fn ten_megabytes_up_and_down_stream_through() {
    let (sandbox, _echo) = start_with_echo().await;
    let upload = vec![7u8; BIG_LEN];
    let echo: Value = client()
        .post(edge(&sandbox, "/upload"))
        .body(upload)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(echo["method"], "POST");
    assert_eq!(echo["body_len"], BIG_LEN);

    let response = client().get(edge(&sandbox, "/big")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let mut stream = response.bytes_stream();
    let mut received = 0;
    while let Some(chunk) = stream.next().await {
        received += chunk.expect("the body streams").len();
    }
    assert_eq!(received, BIG_LEN);
}

#[tokio::test]
async fn server_sent_events_arrive_while_the_stream_is_open() {
    let (sandbox, echo) = start_with_echo().await;
    let response = client()
        .get(edge(&sandbox, "/sse"))
        .header(ACCEPT, "text/event-stream")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut stream = response.bytes_stream();
    let first = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("the first event arrives before the app ends the stream")
        .unwrap()
        .unwrap();
    assert_eq!(&first[..], b"data: first\n\n");
    echo.release_sse();
    let mut rest = Vec::new();
    while let Some(chunk) = stream.next().await {
        rest.extend_from_slice(&chunk.unwrap());
    }
    assert_eq!(rest, b"data: second\n\n");
}

#[tokio::test]
async fn websockets_pass_through_with_the_identity() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;

    let (sandbox, _echo) = start_with_echo().await;
    let ada = sign_in(&sandbox, "ada").await;
    let mut request = format!("ws://{}/ws", sandbox.endpoints().edge)
        .into_client_request()
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("cookie", ada.cookie.parse().unwrap());
    headers.insert("x-nnumbers-identity", "spoofed".parse().unwrap());
    let (mut socket, response) = tokio_tungstenite::connect_async(request)
        .await
        .expect("the WebSocket handshake crosses the edge");
    assert_eq!(response.status(), 101);
    let hello: Value = serde_json::from_str(
        socket
            .next()
            .await
            .unwrap()
            .unwrap()
            .into_text()
            .unwrap()
            .as_str(),
    )
    .unwrap();
    let identities = hello["identities"].as_array().unwrap();
    assert_eq!(identities.len(), 1, "{hello}");
    assert_eq!(
        jsonwebtoken_claims(&sandbox, identities[0].as_str().unwrap())["sub"],
        ada.sub.as_str()
    );
    for text in ["hello", "again"] {
        socket.send(Message::text(text)).await.unwrap();
        let reply = socket.next().await.unwrap().unwrap();
        assert_eq!(reply.into_text().unwrap().as_str(), format!("echo: {text}"));
    }
    socket.send(Message::binary(vec![1u8, 2, 3])).await.unwrap();
    assert_eq!(
        socket.next().await.unwrap().unwrap().into_data().as_ref(),
        [1, 2, 3]
    );
    socket.close(None).await.unwrap();
}

#[tokio::test]
async fn an_app_closing_mid_response_aborts_that_response_only() {
    let (sandbox, _echo) = start_with_echo().await;
    let response = client().get(edge(&sandbox, "/abort")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        response.bytes().await.is_err(),
        "the client sees a truncated response, not a complete one"
    );
    let echo = echoed(&sandbox, "/next", None, &[]).await;
    assert_eq!(echo["path"], "/next");
}

#[tokio::test]
async fn an_app_that_is_down_gets_a_clear_502() {
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let app_url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let mut config = support::test_config();
    config.app.url = Some(app_url.clone());
    let sandbox = support::start_with(config).await;

    let page = client()
        .get(edge(&sandbox, "/"))
        .header(ACCEPT, "text/html,application/xhtml+xml")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 502);
    assert!(
        page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = page.text().await.unwrap();
    assert!(html.contains(&app_url) && html.contains("--app"), "{html}");

    let json = client().get(edge(&sandbox, "/api/x")).send().await.unwrap();
    assert_eq!(json.status(), 502);
    let body: Value = json.json().await.unwrap();
    assert_eq!(body["code"], "APP_UNREACHABLE");
    assert_eq!(body["app_url"], app_url.as_str());

    // The reserved paths still work without the app.
    let context = client()
        .get(edge(&sandbox, "/.nnumbers/v1/context"))
        .send()
        .await
        .unwrap();
    assert_eq!(context.status(), 203);
}
