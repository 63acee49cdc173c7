//! The platform's limits through the broker: QueryMesh's resource group at its queue limit
//! (503 naming the group), and the broker's own per-person limits — queries per minute and
//! concurrent queries — with NYXDB's precedence (nyxdb-application-governance.txt, "Static and
//! dynamic precedence"): 503 QUERYMESH_UNAVAILABLE, the spec's code for "the platform is at its
//! query limit" (never a 429), naming the dimension, the allowance and the rule.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zero_sandbox::Sandbox;

use crate::support;

const ADA: &str = "3c0e8f1a-7d2b-4b6e-9f41-2a5c8d7e6b01";
const PATIENCE: Duration = Duration::from_secs(30);

fn config(toml: &str) -> zero_sandbox::Config {
    zero_sandbox::Config::from_toml(toml, "test.toml")
        .expect("a valid configuration")
        .with_ephemeral_ports()
}

/// A query through the broker as `identity`: status, Retry-After and the body.
async fn query(sandbox: &Sandbox, identity: &str) -> (u16, Option<String>, Value) {
    let response = support::client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("x-nnumbers-identity", identity)
        .json(&json!({ "sql": "SELECT 1" }))
        .send()
        .await
        .expect("the broker answers");
    let status = response.status().as_u16();
    let retry = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap_or_default().to_string());
    (status, retry, response.json().await.expect("JSON"))
}

async fn identity_of(control: &crate::control::Control, person: &str) -> String {
    let session = control.session(person).await;
    session["identity"]
        .as_str()
        .expect("an identity")
        .to_string()
}

fn limit_events(sandbox: &Sandbox) -> Vec<Value> {
    let page = sandbox.journal().read(0, Some("LIMIT_EXCEEDED"), None, 100);
    serde_json::to_value(&page.events)
        .expect("JSON")
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// QueryMesh's QUERY_QUEUE_FULL reaches the app as 503 saying which group is full.
#[tokio::test]
async fn a_full_resource_group_answers_503_naming_the_group() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("rg.json");
    // Nothing may run and nothing may wait: every query can neither run nor queue.
    std::fs::write(
        &path,
        r#"{"rootGroups": [{"name": "global", "softMemoryLimit": "100%",
            "hardConcurrencyLimit": 0, "maxQueued": 0}],
            "selectors": [{"source": "nnumbers-broker", "group": "global"}]}"#,
    )
    .expect("written");
    let sandbox = support::start_with(config(&format!(
        "[querymesh]\nresource_groups = {:?}\n",
        path.display().to_string()
    )))
    .await;
    let control = crate::control::Control::of(&sandbox);
    let identity = identity_of(&control, "ada").await;
    let (status, retry, body) = query(&sandbox, &identity).await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["code"], "QUERYMESH_UNAVAILABLE");
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("QUERY_QUEUE_FULL"), "{message}");
    assert!(
        message.contains(r#"Too many queued queries for "global""#),
        "{message}"
    );
    assert_eq!(retry, None);
}

/// Queries per minute, each precedence rule through the broker: Grace (no rule) gets the
/// default 3; Ada (analysts 10, ada-narrow 2) the tightest rule, 2; Margaret (admins 0) is
/// unlimited over the default; Alan (analysts 10) the default 3, tighter than his rule — and,
/// once a rule of 3 covers him too, that rule, a tie being the rule's.
#[tokio::test]
async fn queries_per_minute_follow_nyxdb_s_precedence_through_the_broker() {
    let sandbox = support::start_with(config(&format!(
        r#"[broker]
queries_per_minute_per_person = 3
[[broker.limits]]
name = "analysts"
groups = ["analysts"]
queries_per_minute = 10
[[broker.limits]]
name = "ada-narrow"
subs = ["{ADA}"]
queries_per_minute = 2
[[broker.limits]]
name = "admins"
groups = ["admins"]
queries_per_minute = 0
"#
    )))
    .await;
    let control = crate::control::Control::of(&sandbox);
    for (person, allowed, rule) in [
        ("grace", 3, "the default"),
        ("ada", 2, "rule \"ada-narrow\""),
        ("alan", 3, "the default"),
    ] {
        let identity = identity_of(&control, person).await;
        for _ in 0..allowed {
            let (status, _, body) = query(&sandbox, &identity).await;
            assert_eq!(status, 200, "{person}: {body}");
        }
        let (status, retry, body) = query(&sandbox, &identity).await;
        assert_eq!(status, 503, "{person}: {body}");
        assert_eq!(body["code"], "QUERYMESH_UNAVAILABLE");
        let message = body["message"].as_str().unwrap();
        let expected = format!("{allowed} queries per minute for one person ({rule})");
        assert!(message.contains(&expected), "{person}: {message}");
        // The window's oldest query leaves it within the minute.
        let retry: u64 = retry.expect("Retry-After").parse().expect("seconds");
        assert!((1..=60).contains(&retry), "{retry}");
    }
    let margaret = identity_of(&control, "margaret").await;
    for _ in 0..5 {
        assert_eq!(query(&sandbox, &margaret).await.0, 200);
    }
    // On record, NYXDB's governance_log fields.
    let events = limit_events(&sandbox);
    assert_eq!(events.len(), 3);
    assert_eq!(events[1]["source"], "broker");
    assert_eq!(events[1]["sub"], ADA);
    assert_eq!(
        events[1]["details"],
        json!({"dimension": "queries_per_minute", "allowed": 2, "observed": 3, "rule": "ada-narrow"})
    );
    assert_eq!(events[2]["details"]["rule"], "default");

    // A tie: a rule allowing what the default allows decides for Alan.
    let (_, limits) = control.get("/limits").await;
    let mut rules = limits["rules"].as_array().unwrap().clone();
    rules.push(json!({"name": "alan-tie", "usernames": ["alan"], "queries_per_minute": 3}));
    let (status, _) = control
        .call(
            reqwest::Method::PUT,
            "/limits",
            Some(json!({"default": limits["default"], "rules": rules})),
        )
        .await;
    assert_eq!(status, 200);
    // The platform clock moves the window on: no waiting a minute.
    control.post("/clock", json!({"advance_seconds": 61})).await;
    let alan = identity_of(&control, "alan").await;
    for _ in 0..3 {
        assert_eq!(query(&sandbox, &alan).await.0, 200);
    }
    let (status, _, body) = query(&sandbox, &alan).await;
    assert_eq!(status, 503);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("3 queries per minute for one person (rule \"alan-tie\")"),
        "{body}"
    );
}

/// Concurrent queries through the broker: Grace's rule allows one at once, so while one of
/// hers is held (a fault rule's delay keeps it at the broker), her next is refused naming the
/// rule; Margaret's rule says 0, unlimited, above the default of 1.
#[tokio::test]
async fn concurrent_queries_follow_the_tightest_rule_through_the_broker() {
    let sandbox = support::start_with(config(
        r#"[broker]
max_concurrent_queries_per_person = 2
[[broker.limits]]
name = "engineers"
groups = ["engineering"]
concurrent_queries = 1
[[broker.limits]]
name = "admins"
groups = ["admins"]
concurrent_queries = 0
"#,
    ))
    .await;
    let control = crate::control::Control::of(&sandbox);
    let grace = control.session("grace").await;
    let identity = grace["identity"].as_str().unwrap().to_string();
    control
        .fault(json!({"delay_ms": 5000, "times": 1, "scope": {"sub": grace["sub"]}}))
        .await;
    let held = {
        let sandbox_url = sandbox.endpoints().broker_url();
        let identity = identity.clone();
        tokio::spawn(async move {
            support::client()
                .post(format!("{sandbox_url}/v1/querymesh/query"))
                .header("x-nnumbers-identity", identity)
                .json(&json!({ "sql": "SELECT 1" }))
                .send()
                .await
                .map(|r| r.status().as_u16())
        })
    };
    // The held query drew the fault (before it takes its place)…
    let deadline = Instant::now() + PATIENCE;
    while !sandbox.faults().list().is_empty() {
        assert!(
            Instant::now() < deadline,
            "the held query never drew the fault"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // …and until it has its place, a second one still runs.
    let body = loop {
        assert!(
            Instant::now() < deadline,
            "the held query never took its place"
        );
        let (status, retry, body) = query(&sandbox, &identity).await;
        if status == 503 {
            assert_eq!(retry, None, "no known wait for a running query");
            break body;
        }
        assert_eq!(status, 200, "{body}");
    };
    assert_eq!(body["code"], "QUERYMESH_UNAVAILABLE");
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("1 concurrent queries for one person (rule \"engineers\")"),
        "{message}"
    );
    let events = limit_events(&sandbox);
    assert_eq!(
        events[0]["details"],
        json!({"dimension": "concurrent_queries", "allowed": 1, "observed": 2, "rule": "engineers"})
    );
    let (_, limits) = control.get("/limits").await;
    let margaret = limits["effective"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["sub"] == "1f4c6e8a-3b5d-4e7f-9a1c-2b3d4e5f6a04")
        .cloned()
        .expect("Margaret");
    assert_eq!(
        margaret["concurrent_queries"],
        json!({"allowed": null, "rule": "admins"})
    );
    held.abort();
}
