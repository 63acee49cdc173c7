//! What every integration test needs: a sandbox on ephemeral ports and an HTTP client.

#![allow(dead_code)]

pub mod browser;
pub mod echo_app;
pub mod engine;
pub mod fake_trino;
pub mod http_sign_in;

use zero_sandbox::{Config, Sandbox};

use echo_app::EchoApp;

/// The built-in configuration on port 0 with in-memory keys.
pub fn test_config() -> Config {
    Config::builtin().with_ephemeral_ports()
}

pub async fn start() -> Sandbox {
    start_with(test_config()).await
}

pub async fn start_with(config: Config) -> Sandbox {
    Sandbox::start(config).await.expect("the sandbox starts")
}

/// A sandbox whose app is a fresh echo app.
pub async fn start_with_echo() -> (Sandbox, EchoApp) {
    let echo = EchoApp::start().await;
    let mut config = test_config();
    config.app.url = Some(echo.url.clone());
    (start_with(config).await, echo)
}

/// The URL of `path` on the sandbox's edge.
pub fn edge(sandbox: &Sandbox, path: &str) -> String {
    format!("{}{path}", sandbox.endpoints().edge_url())
}

/// A client that does not follow redirects, so each hop can be checked.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client")
}

/// The path of the binary under test.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_zero-sandbox")
}

/// A person signed in through the real HTTP flow, as a browser would be.
#[derive(Clone, Debug)]
pub struct SignedIn {
    /// `__nnumbers_session=…`: send it as the `Cookie` header to the edge.
    pub cookie: String,
    /// The platform session's sid (the identity's `sid` claim; what the broker checks).
    pub sid: String,
    /// The person's `sub`.
    pub sub: String,
    /// The IAM's SSO cookies (`KEYCLOAK_IDENTITY=…; …`), for signing in again without the
    /// sign-in page.
    pub iam_cookies: String,
}

impl SignedIn {
    /// The identity the edge would hand the app for this session right now.
    pub fn identity(&self, sandbox: &Sandbox) -> String {
        let session = sandbox
            .sessions()
            .get(&self.sid)
            .expect("the session is alive");
        zero_sandbox::edge::identity_header::identity_for(
            sandbox.identity(),
            sandbox.sessions(),
            &session,
        )
    }
}

/// Signs `person` (a sub, preferred_username, email or name of the configuration) in through
/// the edge and the IAM over real HTTP: `GET /.nnumbers/auth/login` → the IAM's authorization
/// endpoint → its sign-in page → the person's form → the edge's callback. Panics with the hop
/// that failed, so a broken flow names itself.
pub async fn sign_in(sandbox: &Sandbox, person: &str) -> SignedIn {
    let (signed_in, return_to) = sign_in_returning(sandbox, person, "/").await;
    assert_eq!(return_to, "/", "the callback redirects to return_to");
    signed_in
}

/// [`sign_in`] with `return_to` sent as given (URL-encoded); also returns where the callback
/// sent the browser (the raw Location).
pub async fn sign_in_returning(
    sandbox: &Sandbox,
    person: &str,
    return_to: &str,
) -> (SignedIn, String) {
    let sub = sandbox
        .config()
        .person(person)
        .unwrap_or_else(|| panic!("no configured person is called {person:?}"))
        .sub
        .clone();
    let http = client();
    let edge = sandbox.endpoints().edge_url();

    let login = http
        .get(format!(
            "{edge}/.nnumbers/auth/login?{}",
            encode_form(&[("return_to", return_to)])
        ))
        .send()
        .await
        .expect("GET login");
    assert_eq!(login.status(), 302, "the edge's login redirects to the IAM");
    let authorize = location(&login);
    // The cookie that binds the sign-in to this browser; the callback must carry it back.
    let login_cookie = cookie_pairs(&login);

    let page = http
        .get(&authorize)
        .send()
        .await
        .expect("GET the IAM's authorization endpoint");
    assert_eq!(page.status(), 200, "the IAM shows its sign-in page");
    let html = page.text().await.expect("the sign-in page");
    let auth_request = hidden_input(&html, "auth_request")
        .unwrap_or_else(|| panic!("the sign-in page has no auth_request input:\n{html}"));

    let realm = sandbox.realm_url();
    let chosen = http
        .post(format!("{realm}/login-actions/authenticate"))
        .header(
            reqwest::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .body(encode_form(&[
            ("auth_request", auth_request.as_str()),
            ("person", sub.as_str()),
        ]))
        .send()
        .await
        .expect("POST the person's form");
    assert_eq!(
        chosen.status(),
        302,
        "choosing a person redirects to the callback"
    );
    let iam_cookies = cookie_pairs(&chosen);
    let callback = location(&chosen);

    let done = http
        .get(&callback)
        .header(reqwest::header::COOKIE, &login_cookie)
        .send()
        .await
        .expect("GET the edge's callback");
    assert_eq!(done.status(), 302, "the callback redirects to return_to");
    let returned_to = done
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let cookie = cookie_pairs(&done);
    assert!(
        cookie.starts_with("__nnumbers_session="),
        "the callback sets the platform cookie"
    );
    let handle = cookie.trim_start_matches("__nnumbers_session=");
    let sid = sandbox
        .sessions()
        .by_handle(handle)
        .expect("the cookie names a live platform session")
        .sid;
    let signed_in = SignedIn {
        cookie,
        sid,
        sub,
        iam_cookies,
    };
    (signed_in, returned_to)
}

/// `application/x-www-form-urlencoded` (also a query string).
pub fn encode_form(pairs: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// A redirect's Location, made absolute against the request's URL.
pub fn location(response: &reqwest::Response) -> String {
    let value = response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("{} has no Location", response.url()));
    response
        .url()
        .join(value)
        .map(|u| u.to_string())
        .unwrap_or_else(|_| value.to_string())
}

/// `name=value` of every cookie a response sets, joined for a Cookie header.
pub fn cookie_pairs(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The value of the first `<input name="{name}" value="…">` in `html` (either quote style,
/// any attribute order), entity-decoded.
pub fn hidden_input(html: &str, name: &str) -> Option<String> {
    html.split("<input").skip(1).find_map(|tag| {
        let tag = tag.split('>').next()?;
        (attribute(tag, "name")? == name).then(|| attribute(tag, "value"))?
    })
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    for quote in ['"', '\''] {
        let needle = format!("{name}={quote}");
        let start = tag.match_indices(&needle).map(|(i, _)| i).find(|&i| {
            tag[..i]
                .chars()
                .next_back()
                .is_some_and(char::is_whitespace)
        });
        if let Some(start) = start {
            let rest = &tag[start + needle.len()..];
            let value = rest.split(quote).next()?;
            return Some(
                value
                    .replace("&quot;", "\"")
                    .replace("&#39;", "'")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&"),
            );
        }
    }
    None
}
