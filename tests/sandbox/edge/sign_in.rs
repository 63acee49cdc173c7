//! Signing in at the edge: the login redirect to the IAM, `return_to`, the callback, and the
//! IAM tokens refreshed behind the session.

use reqwest::header::{ACCEPT, CACHE_CONTROL, COOKIE, HOST, SET_COOKIE};
use serde_json::Value;
use zero_sandbox::identity::unix_now;
use zero_sandbox::oidc::RealmEndpoints;

use super::{callback_url, echoed, echoed_bytes, query_param};
use crate::support::echo_app::header_values;
use crate::support::{
    self, SignedIn, client, edge, location, sign_in, sign_in_returning, start_with_echo,
};

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

#[tokio::test]
async fn a_callback_only_completes_in_the_browser_that_started_the_sign_in() {
    // Login CSRF (RFC 6749 §10.12): an attacker starts a sign-in as themselves, stops before
    // the callback and sends its URL to a victim, whose browser would be signed in as the
    // attacker — unless the callback checks the browser that started it.
    let (sandbox, _echo) = start_with_echo().await;
    let sessions_before = sandbox.sessions().list().len();
    // The victim's browser: no login cookie, or its own from a sign-in it started itself.
    let victim_login = client()
        .get(edge(&sandbox, "/.nnumbers/auth/login"))
        .send()
        .await
        .unwrap();
    let victims_cookie = support::cookie_pairs(&victim_login);
    assert!(victims_cookie.starts_with("__nnumbers_login="));
    for cookie in [None, Some(victims_cookie.as_str())] {
        let (attackers_callback, _attackers_cookie) =
            crate::edge::callback_url(&sandbox, "grace").await;
        let mut request = client()
            .get(&attackers_callback)
            .header(ACCEPT, "application/json");
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 400, "{cookie:?}");
        assert!(response.headers().get("set-cookie").is_none());
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "SIGN_IN_FAILED");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .contains("another browser"),
            "{body}"
        );
    }
    assert_eq!(sandbox.sessions().list().len(), sessions_before);

    // The login cookie is the platform's: it never reaches the app.
    let echo = echoed_bytes(&sandbox, "/", &[("cookie", victims_cookie.as_bytes())]).await;
    assert!(header_values(&echo, "cookie").is_empty(), "{echo}");
}

#[tokio::test]
async fn two_sign_ins_started_in_one_browser_both_complete() {
    let (sandbox, _echo) = start_with_echo().await;
    let (first, cookie) = crate::edge::callback_url(&sandbox, "ada").await;
    // A second tab: the browser sends its login cookie, and the edge keeps it.
    let again = client()
        .get(edge(&sandbox, "/.nnumbers/auth/login"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(support::cookie_pairs(&again), cookie);
    let done = client()
        .get(&first)
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), 302);
    assert!(support::cookie_pairs(&done).starts_with("__nnumbers_session="));
}

#[tokio::test]
async fn a_return_to_that_dot_segments_turn_into_two_slashes_becomes_root() {
    // `/../..//evil.example` starts with one slash, but a browser resolves the dots and
    // lands on `//evil.example`, which many apps' trailing-slash redirects send off-site.
    let (sandbox, _echo) = start_with_echo().await;
    for bad in [
        "/../..//evil.example",
        "/%2e%2e//evil.example",
        "/.//evil.example",
    ] {
        let (_, to) = support::sign_in_returning(&sandbox, "ada", bad).await;
        assert_eq!(to, "/", "return_to {bad:?}");
    }
    let (_, to) = support::sign_in_returning(&sandbox, "ada", "/a/../b?next=//x#top").await;
    assert_eq!(to, "/a/../b?next=//x#top");
}
