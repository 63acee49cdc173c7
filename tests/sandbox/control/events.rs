//! `GET events`: the journal records what the control API, the edge, the IAM and the broker
//! did, with a cursor — and never the SQL, a token, an identity or a cookie.

use serde_json::{Value, json};

use super::{Control, assert_api_error, query};
use crate::support;

fn types(page: &Value) -> Vec<String> {
    page["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["type"].as_str().expect("a type").to_string())
        .collect()
}

#[tokio::test]
async fn the_journal_records_sessions_queries_refusals_and_changes_with_a_cursor() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    let sub = session["sub"].as_str().unwrap().to_string();
    let sql = "SELECT 'a very particular literal' AS secret_sql";
    let identity = session["identity"].as_str().unwrap();
    assert_eq!(support::broker_query(&sandbox, identity, sql).await.0, 200);
    control
        .fault(json!({ "code": "QUERYMESH_ACCESS_DENIED", "times": 1 }))
        .await;
    assert_eq!(query(&sandbox, &session).await.0, 403);
    // An identity that does not check out: its signature broken.
    let forged = format!("{}AAAA", &identity[..identity.len() - 4]);
    assert_eq!(support::broker_query(&sandbox, &forged, sql).await.0, 401);
    control
        .delete(&format!("/sessions/{}", session["sid"].as_str().unwrap()))
        .await;

    let (status, page) = control.get("/events").await;
    assert_eq!(status, 200);
    assert_eq!(
        types(&page),
        [
            "LOGIN",
            "SESSION_STARTED",
            "QUERY_CREATED",
            "QUERY_COMPLETED",
            "QUERY",
            "FAULT_ADDED",
            "QUERY",
            "IDENTITY_REJECTED",
            "QUERY",
            "SESSION_ENDED"
        ]
    );
    let events = page["events"].as_array().unwrap();
    assert_eq!(events[0]["source"], "iam");
    assert_eq!(events[1]["source"], "control");
    assert_eq!(events[1]["sid"], session["sid"]);
    // QueryMesh's created- and completed-query events, before the broker's answer to the app.
    assert_eq!(
        (events[2]["source"].as_str(), events[2]["outcome"].as_str()),
        (Some("querymesh"), Some("QUEUED"))
    );
    assert_eq!(
        events[2]["details"]["query_id"],
        events[3]["details"]["query_id"]
    );
    assert_eq!(events[3]["source"], "querymesh");
    assert_eq!(
        (
            events[3]["outcome"].as_str(),
            events[3]["details"]["state"].as_str(),
            events[3]["details"]["rows"].as_u64()
        ),
        (Some("FINISHED"), Some("FINISHED"), Some(1))
    );
    assert_eq!(events[3]["sub"], sub.as_str());
    assert_eq!(
        (
            events[4]["outcome"].as_str(),
            events[4]["details"]["rows"].as_u64()
        ),
        (Some("OK"), Some(1))
    );
    assert_eq!(events[6]["outcome"], "QUERYMESH_ACCESS_DENIED");
    assert_eq!(events[6]["details"]["fault"], events[5]["details"]["rule"]);
    assert_eq!(events[7]["details"]["reason"], "signature");
    assert_eq!(events[8]["outcome"], "IDENTITY_ASSERTION_INVALID");
    assert!(
        events
            .windows(2)
            .all(|w| w[0]["id"].as_u64() < w[1]["id"].as_u64())
    );
    assert_eq!(page["dropped"], 0);

    // Never a secret or the SQL.
    let text = page.to_string();
    for secret in [
        sql,
        "a very particular literal",
        identity,
        &forged,
        session["cookie"]["value"].as_str().unwrap(),
    ] {
        assert!(!text.contains(secret), "the journal holds {secret:?}");
    }

    // The cursor, and the filters.
    let next = page["next"].as_u64().unwrap();
    assert_eq!(
        control.get(&format!("/events?since={next}")).await.1["events"],
        json!([])
    );
    let (_, queries) = control.get(&format!("/events?type=QUERY&sub={sub}")).await;
    assert_eq!(
        types(&queries),
        ["QUERY", "QUERY"],
        "the forged one has no verified sub"
    );
    let (_, first_two) = control.get("/events?limit=2").await;
    assert_eq!(types(&first_two), ["LOGIN", "SESSION_STARTED"]);
    let (_, rest) = control
        .get(&format!("/events?since={}", first_two["next"]))
        .await;
    assert_eq!(rest["events"][0]["type"], "QUERY_CREATED");
}

#[tokio::test]
async fn the_edge_records_a_browser_sign_in_and_sign_out() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let signed_in = support::sign_in(&sandbox, "grace").await;
    let logout = support::client()
        .post(support::edge(&sandbox, "/.nnumbers/auth/logout"))
        .header("origin", sandbox.endpoints().edge_url())
        .header("cookie", &signed_in.cookie)
        .send()
        .await
        .expect("logout");
    assert_eq!(logout.status(), 303);
    let foreign = support::client()
        .post(support::edge(&sandbox, "/.nnumbers/auth/logout"))
        .header("origin", "http://evil.example")
        .send()
        .await
        .expect("logout");
    assert_eq!(foreign.status(), 403);
    let (_, page) = control.get("/events").await;
    assert_eq!(
        types(&page),
        [
            "LOGIN",
            "CODE_TO_TOKEN",
            "SESSION_STARTED",
            "LOGOUT",
            "SESSION_ENDED",
            "LOGOUT_ERROR"
        ]
    );
    assert_eq!(page["events"][1]["source"], "iam");
    assert_eq!(page["events"][2]["source"], "edge");
    assert_eq!(page["events"][2]["sid"], signed_in.sid.as_str());
    assert_eq!(page["events"][4]["details"]["why"], "signed out");
    assert_eq!(page["events"][5]["outcome"], "FOREIGN_ORIGIN");
}

#[tokio::test]
async fn the_errors_of_events_name_the_parameter() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    assert_api_error(
        &control.get("/events?since=abc").await,
        400,
        "INVALID_REQUEST",
        "`since`",
    );
    assert_api_error(
        &control.get("/events?limit=0").await,
        400,
        "INVALID_REQUEST",
        "`limit`",
    );
    assert_api_error(
        &control.get("/events?limit=5000").await,
        400,
        "INVALID_REQUEST",
        "`limit`",
    );
    assert_api_error(
        &control.get("/events?kind=QUERY").await,
        400,
        "INVALID_REQUEST",
        "`kind`",
    );
    assert_api_error(
        &control.get("/events?since=1&since=2").await,
        400,
        "INVALID_REQUEST",
        "`since`",
    );
}

#[tokio::test]
async fn the_edge_records_a_spoofed_identity_header_it_removed_but_not_the_header() {
    let (sandbox, _echo) = support::start_with_echo().await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    let spoofed = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJtYWxsb3J5In0.";
    let answer = support::client()
        .get(support::edge(&sandbox, "/"))
        .header("cookie", session["cookie"]["header"].as_str().unwrap())
        .header("x-nnumbers-identity", spoofed)
        .send()
        .await
        .expect("the edge answers");
    assert_eq!(answer.status(), 200);
    let (_, page) = control.get("/events?type=IDENTITY_HEADER_REMOVED").await;
    assert_eq!(page["events"].as_array().unwrap().len(), 1, "{page}");
    assert_eq!(page["events"][0]["sid"], session["sid"]);
    assert!(!page.to_string().contains(spoofed));
}

#[tokio::test]
async fn each_identity_rejection_is_recorded_with_why() {
    use zero_sandbox::identity::{Forgery, forge};
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    let person = sandbox.config().person("ada").expect("ada").clone();
    let claims = sandbox
        .identity()
        .claims(&person, session["sid"].as_str().unwrap());
    let key = sandbox.identity().keys.current();
    let cases = [
        (Forgery::Expired, "expired"),
        (Forgery::NotYetValid, "not_yet_valid"),
        (Forgery::Audience("other-app".into()), "aud"),
        (Forgery::Organization("other-org".into()), "org"),
        (Forgery::Issuer("https://elsewhere".into()), "iss"),
        (Forgery::UnknownKid, "kid"),
        (Forgery::BadSignature, "signature"),
        (Forgery::AlgNone, "alg"),
        (Forgery::LongLived, "window"),
    ];
    for (forgery, _) in &cases {
        let token = forge(&key, claims.clone(), std::slice::from_ref(forgery));
        let (status, _) = support::broker_query(&sandbox, &token, "SELECT 1").await;
        assert_eq!(status, 401, "{forgery:?}");
    }
    let (_, page) = control.get("/events?type=IDENTITY_REJECTED").await;
    let reasons: Vec<&str> = page["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["details"]["reason"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = cases.iter().map(|(_, why)| *why).collect();
    assert_eq!(reasons, expected);
}
