//! Findings of the edge review, each pinned by a test that failed before its fix.

use std::time::{Duration, Instant};

use reqwest::header::ACCEPT;
use serde_json::Value;
use tokio::io::AsyncReadExt;
use tokio::net::TcpListener;
use zero_sandbox::Sandbox;

use crate::echo_app::{EchoApp, header_values};
use crate::support::{self, client};

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

/// An app that accepts connections and reads requests but never answers.
async fn silent_app() -> (String, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = [0u8; 4096];
            let _ = socket.read(&mut buf).await;
            open.push(socket);
        }
    });
    (url, task)
}

// ---------------------------------------------------------------- a silent app

#[tokio::test]
async fn an_app_that_never_answers_gets_a_clear_504_instead_of_a_hang() {
    let (app_url, _app) = silent_app().await;
    let mut config = support::test_config();
    config.app.url = Some(app_url.clone());
    let sandbox = support::start_with(config).await;
    // Long enough for the broker's own QueryMesh timeout to answer first (60 s + 30 s).
    assert_eq!(sandbox.config().broker.querymesh_timeout_secs, 60);
    assert_eq!(
        sandbox.edge().app_response_timeout(),
        Duration::from_secs(90)
    );
    sandbox
        .edge()
        .set_app_response_timeout(Duration::from_millis(300));

    let started = Instant::now();
    let response = tokio::time::timeout(
        Duration::from_secs(10),
        client().get(edge(&sandbox, "/slow")).send(),
    )
    .await
    .expect("the edge answers instead of hanging")
    .unwrap();
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(response.status(), 504);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "APP_TIMEOUT");
    assert_eq!(body["app_url"], app_url.as_str());
    assert!(
        body["message"].as_str().unwrap().contains("did not answer"),
        "{body}"
    );

    let page = client()
        .get(edge(&sandbox, "/slow"))
        .header(ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 504);
    let html = page.text().await.unwrap();
    assert!(html.contains(&app_url) && html.contains("0.3 s"), "{html}");
}

#[tokio::test]
async fn a_streaming_response_is_not_cut_by_the_timeout() {
    let (sandbox, echo) = start_with_echo().await;
    sandbox
        .edge()
        .set_app_response_timeout(Duration::from_millis(200));
    let mut response = client().get(edge(&sandbox, "/sse")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let first = response.chunk().await.unwrap().expect("the first event");
    assert!(String::from_utf8_lossy(&first).contains("data:"));
    // Longer than the timeout with the stream open, then the rest arrives.
    tokio::time::sleep(Duration::from_millis(400)).await;
    echo.release_sse();
    let rest = response.bytes().await.expect("the stream completes");
    assert!(!rest.is_empty());
}

// ---------------------------------------------------------------- header hygiene

/// What the echo app received for `GET path` with these headers (values as raw bytes).
async fn echoed(sandbox: &Sandbox, path: &str, headers: &[(&str, &[u8])]) -> Value {
    let mut request = client().get(edge(sandbox, path));
    for (name, value) in headers {
        let value = reqwest::header::HeaderValue::from_bytes(value).unwrap();
        request = request.header(*name, value);
    }
    let response = request.send().await.expect("the edge answers");
    assert_eq!(response.status(), 200);
    response.json().await.expect("the echo app's JSON")
}

/// Every header the app got whose name a CGI-style server (PHP, WSGI, Rack) would read as
/// `HTTP_X_NNUMBERS_IDENTITY`: `_` and `-` are the same there.
fn identity_like(echo: &Value) -> Vec<String> {
    echo["headers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| {
            h[0].as_str()
                .unwrap()
                .replace('_', "-")
                .eq_ignore_ascii_case("x-nnumbers-identity")
        })
        .map(|h| h[1].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn an_underscore_spelling_of_the_identity_header_never_reaches_the_app() {
    let (sandbox, _echo) = start_with_echo().await;
    let forged = sandbox
        .identity()
        .mint(&sandbox.config().people[0], "forged-sid")
        .0;
    let spellings: [(&str, &[u8]); 3] = [
        ("X_NNumbers_Identity", forged.as_bytes()),
        ("x_nnumbers-identity", forged.as_bytes()),
        ("X-NNUMBERS_IDENTITY", b"other"),
    ];
    let echo = echoed(&sandbox, "/anonymous", &spellings).await;
    assert!(identity_like(&echo).is_empty(), "{echo}");

    // Signed in: exactly the edge's one.
    let ada = support::sign_in(&sandbox, "ada").await;
    let mut with_cookie = spellings.to_vec();
    with_cookie.push(("cookie", ada.cookie.as_bytes()));
    let echo = echoed(&sandbox, "/signed-in", &with_cookie).await;
    assert_eq!(identity_like(&echo), [ada.identity(&sandbox)], "{echo}");
}

#[tokio::test]
async fn a_non_ascii_cookie_keeps_the_others_and_the_session() {
    let (sandbox, _echo) = start_with_echo().await;
    let ada = support::sign_in(&sandbox, "ada").await;
    // Browsers send what `document.cookie` stored as UTF-8 bytes.
    let cookie = format!("theme=dark; name=André; {}; cart=3", ada.cookie);
    let echo = echoed(&sandbox, "/page", &[("cookie", cookie.as_bytes())]).await;
    assert_eq!(
        header_values(&echo, "cookie"),
        ["theme=dark; name=André; cart=3"]
    );
    assert_eq!(
        header_values(&echo, "x-nnumbers-identity"),
        [ada.identity(&sandbox)],
        "the person stays signed in"
    );

    let session: Value = client()
        .get(edge(&sandbox, "/.nnumbers/auth/session"))
        .header(
            "cookie",
            reqwest::header::HeaderValue::from_bytes(cookie.as_bytes()).unwrap(),
        )
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(session["user"]["sub"], ada.sub.as_str());
}

#[tokio::test]
async fn the_iams_cookies_never_reach_the_app() {
    // Cookies ignore ports: the IAM's, scoped to /realms/{slug}/, reach the edge's host too.
    let (sandbox, _echo) = start_with_echo().await;
    let cookie =
        b"a=1; KEYCLOAK_IDENTITY=sso-secret; KEYCLOAK_SESSION=acme/x; AUTH_SESSION_ID=y; b=2";
    let echo = echoed(&sandbox, "/realms/acme/x", &[("cookie", cookie)]).await;
    assert_eq!(header_values(&echo, "cookie"), ["a=1; b=2"]);
}

#[tokio::test]
async fn forwarding_headers_from_the_client_are_all_dropped() {
    let (sandbox, _echo) = start_with_echo().await;
    let spoofed: [(&str, &[u8]); 7] = [
        ("X-Real-IP", b"6.6.6.6"),
        ("X-Forwarded-Port", b"443"),
        ("X-Forwarded-Ssl", b"on"),
        ("X-Forwarded-Scheme", b"https"),
        ("X-Forwarded-Prefix", b"/admin"),
        ("X-Forwarded-Server", b"evil.example"),
        ("X-Forwarded-Proto", b"https"),
    ];
    let echo = echoed(&sandbox, "/", &spoofed).await;
    for (name, _) in &spoofed[..6] {
        assert!(header_values(&echo, name).is_empty(), "{name}: {echo}");
    }
    assert_eq!(header_values(&echo, "x-forwarded-proto"), ["http"]);
}

// ---------------------------------------------------------------- reserved paths

#[tokio::test]
async fn path_parameter_spellings_of_the_prefix_stay_at_the_edge() {
    // Servlet containers drop `;…` from each segment, and read `..;` as `..`.
    let (sandbox, _echo) = start_with_echo().await;
    for path in [
        "/.nnumbers;x/auth/session",
        "/.nnumbers;jsessionid=1",
        "/a/..;/.nnumbers/auth/session",
        "/a/..;x=1/.NNUMBERS/v1/context",
    ] {
        let response = client().get(edge(&sandbox, path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], "NOT_FOUND", "{path}: {body}");
    }
    // An app path with a parameter still reaches the app.
    let echo = echoed(&sandbox, "/a;v=1/b", &[]).await;
    assert_eq!(echo["path"], "/a;v=1/b");
}

#[tokio::test]
async fn a_reserved_path_with_the_wrong_method_says_how_to_use_it() {
    let (sandbox, _echo) = start_with_echo().await;
    let page = client()
        .get(edge(&sandbox, "/.nnumbers/auth/logout"))
        .header(ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 405);
    assert_eq!(page.headers()["allow"], "POST");
    let html = page.text().await.unwrap();
    assert!(html.contains("sign-out is a POST"), "{html}");

    let json = client()
        .delete(edge(&sandbox, "/.nnumbers/auth/session"))
        .send()
        .await
        .unwrap();
    assert_eq!(json.status(), 405);
    assert_eq!(json.headers()["allow"], "GET,HEAD");
    let body: Value = json.json().await.unwrap();
    assert_eq!(body["code"], "METHOD_NOT_ALLOWED");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("DELETE is not a method of /.nnumbers/auth/session"),
        "{body}"
    );
}

// ---------------------------------------------------------------- sign-in bound to a browser

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
    let echo = echoed(&sandbox, "/", &[("cookie", victims_cookie.as_bytes())]).await;
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

// ---------------------------------------------------------------- an app URL that loops

/// A TCP relay to a target set after it starts: an "app" that is really the edge again.
async fn relay() -> (
    String,
    tokio::sync::watch::Sender<Option<std::net::SocketAddr>>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (target, rx) = tokio::sync::watch::channel(None);
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let Some(to) = *rx.borrow() else { continue };
            tokio::spawn(async move {
                if let Ok(mut outbound) = tokio::net::TcpStream::connect(to).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    (url, target)
}

#[tokio::test]
async fn an_app_url_that_leads_back_to_the_edge_is_named_not_looped() {
    // `--app http://127.0.0.1:4000` with the edge on 4000: each request was forwarded to
    // itself until the process ran out of file descriptors, then reported "did not answer".
    let (relay_url, target) = relay().await;
    let mut config = support::test_config();
    config.app.url = Some(relay_url.clone());
    let sandbox = support::start_with(config).await;
    target.send_replace(Some(sandbox.endpoints().edge));

    let response = tokio::time::timeout(
        Duration::from_secs(10),
        client().get(edge(&sandbox, "/x")).send(),
    )
    .await
    .expect("the loop is cut at once")
    .unwrap();
    assert_eq!(response.status(), 502);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "APP_URL_IS_THE_EDGE", "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("another port"),
        "{body}"
    );
}

#[tokio::test]
async fn the_app_sees_the_edge_in_via_after_the_clients_entries() {
    // RFC 9110 §7.6.3: a gateway sends Via on each request it forwards, appending its entry.
    let (sandbox, _echo) = start_with_echo().await;
    let echo = echoed(&sandbox, "/", &[("via", b"1.1 corporate-proxy")]).await;
    let via = header_values(&echo, "via").join(", ");
    assert!(
        via.starts_with("1.1 corporate-proxy, 1.1 zero-sandbox-"),
        "{via}"
    );
}

// ---------------------------------------------------------------- WebSocket close

#[tokio::test]
async fn a_websocket_closed_by_the_app_closes_in_the_browser() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    let (sandbox, _echo) = start_with_echo().await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{}/ws", sandbox.endpoints().edge))
            .await
            .expect("the upgrade goes through");
    let _hello = socket.next().await.unwrap().unwrap();
    socket.send(Message::text("close, please")).await.unwrap();
    let closing = tokio::time::timeout(Duration::from_secs(5), async {
        let mut saw_close = false;
        while let Some(frame) = socket.next().await {
            match frame {
                Ok(Message::Close(_)) => saw_close = true,
                Ok(_) => {}
                Err(_) => break,
            }
        }
        saw_close
    })
    .await
    .expect("the connection ends instead of hanging open");
    assert!(closing, "the app's close frame reached the client");
}

// ---------------------------------------------------------------- requests not for the app

/// Sends raw bytes to the edge and returns what it answered until it closed.
async fn raw_exchange(sandbox: &Sandbox, request: &[u8]) -> String {
    use tokio::io::AsyncWriteExt;
    let mut socket = tokio::net::TcpStream::connect(sandbox.endpoints().edge)
        .await
        .unwrap();
    socket.write_all(request).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), socket.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

#[tokio::test]
async fn options_star_and_connect_are_answered_by_the_edge() {
    let (sandbox, _echo) = start_with_echo().await;
    let star = raw_exchange(
        &sandbox,
        b"OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(star.starts_with("HTTP/1.1 200"), "{star}");
    assert!(star.to_ascii_lowercase().contains("allow: get"), "{star}");
    assert!(!star.contains("APP_UNREACHABLE"), "{star}");

    let connect = raw_exchange(
        &sandbox,
        b"CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(connect.starts_with("HTTP/1.1 405"), "{connect}");
    assert!(connect.contains("not a forward proxy"), "{connect}");
}

// ---------------------------------------------------------------- sign-out from a real page

/// An app whose every path is a page with the sign-out form, served with `referrer_policy`.
async fn sign_out_page_app(referrer_policy: &'static str) -> String {
    use axum::response::IntoResponse;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let page = axum::Router::new().fallback(move || async move {
        (
            [
                ("content-type", "text/html; charset=utf-8"),
                ("referrer-policy", referrer_policy),
            ],
            r#"<!doctype html><title>app</title>
<form id="out" method="post" action="/.nnumbers/auth/logout"><button>Sign out</button></form>"#,
        )
            .into_response()
    });
    tokio::spawn(async move {
        let _ = axum::serve(listener, page).await;
    });
    url
}

/// Opens the app's page through the edge in `browser`, submits its sign-out form, and returns
/// where the browser landed and what it shows.
async fn submit_sign_out(
    browser: &mut crate::browser::Browser,
    sandbox: &Sandbox,
) -> (String, String) {
    browser.goto(&edge(sandbox, "/form")).await;
    browser
        .eval("document.getElementById('out').submit()")
        .await;
    browser
        .wait_for(
            "location.pathname !== '/form' && document.readyState === 'complete'",
            crate::browser::DEFAULT_DEADLINE,
        )
        .await;
    let text = browser.eval("document.body.innerText").await;
    (
        browser.current_url().await,
        text.as_str().unwrap_or_default().to_string(),
    )
}

#[tokio::test]
async fn sign_out_refused_for_origin_null_says_why_in_a_real_browser() {
    // Chromium sends Origin: null on a same-origin form POST from a page served with
    // Referrer-Policy: no-referrer (helmet's default). The refusal stays (the spec requires
    // the address's Origin), but it used to read "got null" and nothing more.
    let Some(mut browser) = crate::browser::Browser::launch().await else {
        return;
    };
    let mut config = support::test_config();
    config.app.url = Some(sign_out_page_app("no-referrer").await);
    let sandbox = support::start_with(config).await;
    let (url, text) = submit_sign_out(&mut browser, &sandbox).await;
    assert!(url.ends_with("/.nnumbers/auth/logout"), "{url}");
    assert!(text.contains("got null"), "{text}");
    assert!(
        text.contains("Referrer-Policy: same-origin or strict-origin-when-cross-origin"),
        "{text}"
    );

    // With a policy that keeps the origin, the same form signs out: 303 to /.
    let mut config = support::test_config();
    config.app.url = Some(sign_out_page_app("strict-origin-when-cross-origin").await);
    let sandbox = support::start_with(config).await;
    let (url, _) = submit_sign_out(&mut browser, &sandbox).await;
    assert_eq!(url, edge(&sandbox, "/"), "303 back to /");
}
