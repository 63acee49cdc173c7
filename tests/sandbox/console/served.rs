//! The console's page on the control listener, `GET endpoints`, the `"console"` of the ready
//! line, and the one-time link that opens the edge signed in as a session the API started.

use serde_json::{Value, json};

use crate::control::Control;
use crate::support;

#[tokio::test]
async fn the_console_is_served_at_sandbox_with_its_script_and_stylesheet() {
    let sandbox = support::start().await;
    let console = sandbox.endpoints().console_url();
    let client = support::client();
    let page = client.get(&console).send().await.expect("answers");
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["content-type"], "text/html; charset=utf-8");
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(page.text().await.unwrap().contains("console.js"));
    for (file, kind) in [
        ("console.js", "text/javascript"),
        ("console.css", "text/css"),
    ] {
        let response = client
            .get(format!("{console}{file}"))
            .send()
            .await
            .expect("answers");
        assert_eq!(response.status(), 200, "{file}");
        let content_type = response.headers()["content-type"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(content_type.starts_with(kind), "{file}: {content_type}");
    }
    let missing = client
        .get(format!("{console}nope.js"))
        .send()
        .await
        .expect("answers");
    assert_eq!(missing.status(), 404);
    let bare = client
        .get(console.trim_end_matches('/'))
        .send()
        .await
        .expect("answers");
    assert_eq!(bare.status(), 308);
    assert_eq!(bare.headers()["location"], "/sandbox/");
    // Like the API, only for this machine's own pages.
    let foreign = client
        .get(&console)
        .header("origin", "http://evil.example")
        .send()
        .await
        .expect("answers");
    assert_eq!(foreign.status(), 403);
}

#[tokio::test]
async fn endpoints_and_the_ready_line_name_the_console() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let (status, endpoints) = control.get("/endpoints").await;
    assert_eq!(status, 200);
    let e = sandbox.endpoints();
    assert_eq!(endpoints["edge"], e.edge_url());
    assert_eq!(endpoints["console"], e.console_url());
    assert_eq!(endpoints["control"], e.control_url());
    let ready: Value = serde_json::from_str(&sandbox.ready_json()).expect("JSON");
    assert_eq!(ready["console"], format!("http://{}/sandbox/", e.broker));
}

#[tokio::test]
async fn a_handoff_link_opens_the_edge_signed_in_once_and_never_again() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let (status, session) = control
        .post("/sessions", json!({ "person": "ada", "handoff": true }))
        .await;
    assert_eq!(status, 201, "{session}");
    let link = session["handoff_url"].as_str().expect("a link");
    assert!(link.starts_with(&format!(
        "{}/.nnumbers/auth/login?",
        sandbox.endpoints().edge_url()
    )));
    let client = support::client();
    let first = client.get(link).send().await.expect("answers");
    assert_eq!(first.status(), 302);
    assert_eq!(first.headers()["location"], "/");
    let cookie = first.headers()["set-cookie"].to_str().unwrap();
    assert!(
        cookie.starts_with(&format!(
            "{}; ",
            session["cookie"]["header"].as_str().unwrap()
        )),
        "{cookie}"
    );
    assert!(cookie.contains("HttpOnly"));
    // Spent: the same link is the usual sign-in, through the IAM.
    let again = client.get(link).send().await.expect("answers");
    assert_eq!(again.status(), 302);
    let location = again.headers()["location"].to_str().unwrap();
    assert!(location.starts_with(sandbox.realm_url()), "{location}");
    let cookies: Vec<_> = again.headers().get_all("set-cookie").iter().collect();
    assert!(
        cookies
            .iter()
            .all(|c| !c.to_str().unwrap().starts_with("__nnumbers_session="))
    );

    // A link for a session that has ended gives nothing either.
    let (_, ended) = control
        .post("/sessions", json!({ "person": "grace", "handoff": true }))
        .await;
    control
        .delete(&format!("/sessions/{}", ended["sid"].as_str().unwrap()))
        .await;
    let late = client
        .get(ended["handoff_url"].as_str().unwrap())
        .send()
        .await
        .expect("answers");
    assert!(
        late.headers()["location"]
            .to_str()
            .unwrap()
            .starts_with(sandbox.realm_url())
    );

    // Without `handoff`, the answer is as it was.
    let plain = control.session("ada").await;
    assert!(plain.get("handoff_url").is_none());
}
