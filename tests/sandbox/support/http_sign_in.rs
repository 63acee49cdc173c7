//! Signing in the way a browser does, over plain HTTP against URLs only, so it works on the
//! real binary as well as in-process (also used by benches/broker.rs).

use axum::Router;
use axum::http::HeaderMap;
use axum::routing::get;

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client")
}

/// An app that answers every request with the identity it received.
pub async fn identity_echo_app() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = Router::new().fallback(get(|headers: HeaderMap| async move {
        headers
            .get("x-nnumbers-identity")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string()
    }));
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    url
}

pub fn location(response: &reqwest::Response) -> String {
    response.headers()["location"].to_str().unwrap().to_string()
}

/// The browser's sign-in, by hand: edge login → IAM page → a person's card → edge callback.
/// Returns the edge's session cookie (`name=value`).
pub async fn sign_in_over_http(edge: &str, iam: &str, realm: &str, sub: &str) -> String {
    let http = client();
    let login = http
        .get(format!("{edge}/.nnumbers/auth/login?return_to=/"))
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), 302);
    // The sign-in is bound to this browser: its login cookie goes back to the callback.
    let login_cookie = login.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let page = http
        .get(location(&login))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let auth_request = page
        .split("name=\"auth_request\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the sign-in page carries auth_request")
        .to_string();
    let action = format!("{iam}/realms/{realm}/login-actions/authenticate");
    let chosen = http
        .post(action)
        .form(&[("auth_request", auth_request.as_str()), ("person", sub)])
        .send()
        .await
        .unwrap();
    assert_eq!(chosen.status(), 302);
    let callback = http
        .get(location(&chosen))
        .header("cookie", login_cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(callback.status(), 302);
    let cookie = callback.headers()["set-cookie"].to_str().unwrap();
    cookie.split(';').next().unwrap().to_string()
}

/// The identity the edge hands the app for the session `cookie` (via [`identity_echo_app`]).
pub async fn identity_via_app(edge: &str, cookie: &str) -> String {
    client()
        .get(format!("{edge}/"))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}
