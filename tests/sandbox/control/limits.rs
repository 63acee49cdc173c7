//! `GET`/`PUT limits`: the broker's per-person limits while running — the default, the rules,
//! each person's allowances now — replaced whole, checked as `[broker]` is, on record, and
//! back to the configuration on `reset`.

use reqwest::Method;
use serde_json::{Value, json};

use super::{Control, assert_api_error};
use crate::support;

const GRACE: &str = "7a2d9c4b-1e3f-4a5b-8c6d-0e1f2a3b4c02";

async fn put(control: &Control, body: Value) -> (u16, Value) {
    control.call(Method::PUT, "/limits", Some(body)).await
}

fn effective<'a>(limits: &'a Value, sub: &str) -> &'a Value {
    limits["effective"]
        .as_array()
        .expect("effective")
        .iter()
        .find(|p| p["sub"] == sub)
        .expect("the person")
}

#[tokio::test]
async fn limits_are_shown_replaced_recorded_and_reset() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let (status, limits) = control.get("/limits").await;
    assert_eq!(status, 200);
    assert_eq!(
        limits["default"],
        json!({"concurrent_queries": 4, "queries_per_minute": 0})
    );
    assert_eq!(limits["rules"], json!([]));
    assert_eq!(
        effective(&limits, GRACE)["queries_per_minute"],
        json!({"allowed": null, "rule": "default"})
    );

    let rules = json!([
        {"name": "engineers", "groups": ["engineering"], "queries_per_minute": 5, "concurrent_queries": 0},
        {"name": "grace", "usernames": ["GRACE"], "queries_per_minute": 2}
    ]);
    let (status, limits) = put(
        &control,
        json!({"default": {"concurrent_queries": 3, "queries_per_minute": 10}, "rules": rules}),
    )
    .await;
    assert_eq!(status, 200, "{limits}");
    assert_eq!(limits["rules"], rules);
    let grace = effective(&limits, GRACE);
    assert_eq!(
        grace["queries_per_minute"],
        json!({"allowed": 2, "rule": "grace"})
    );
    assert_eq!(
        grace["concurrent_queries"],
        json!({"allowed": null, "rule": "engineers"})
    );
    let page = sandbox.journal().read(0, Some("LIMITS_CHANGED"), None, 10);
    let event = &serde_json::to_value(&page.events).unwrap()[0];
    assert_eq!(event["source"], "control");
    assert_eq!(event["details"]["rules"], json!(["engineers", "grace"]));

    let (status, _) = control.post("/reset", json!({})).await;
    assert_eq!(status, 200);
    let (_, limits) = control.get("/limits").await;
    assert_eq!(limits["rules"], json!([]));
    assert_eq!(limits["default"]["concurrent_queries"], 4);
}

#[tokio::test]
async fn a_replacement_that_cannot_work_is_refused_naming_the_field_and_changes_nothing() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let default = json!({"concurrent_queries": 2, "queries_per_minute": 0});
    for (body, names) in [
        (json!({"rules": []}), "`default` is required"),
        (json!({"default": default}), "`rules` is required"),
        (
            json!({"default": {"concurrent_queries": 2}, "rules": []}),
            "`default.queries_per_minute` is required",
        ),
        (
            json!({"default": {"concurrent_queries": 0, "queries_per_minute": 0}, "rules": []}),
            "must be at least 1",
        ),
        (
            json!({"default": default, "rules": [], "extra": 1}),
            "unknown field `extra`",
        ),
        (
            json!({"default": default, "rules": [{"name": "a", "groups": ["x"], "qpm": 1}]}),
            "rules[0]",
        ),
        (
            json!({"default": default, "rules": [{"name": "a", "queries_per_minute": 1}]}),
            "covers nobody",
        ),
        (
            json!({"default": default, "rules": [{"name": "a", "groups": ["x"]}]}),
            "allows nothing",
        ),
        (
            json!({"default": default, "rules": [
                {"name": "a", "groups": ["x"], "queries_per_minute": 1},
                {"name": "a", "groups": ["y"], "queries_per_minute": 1}
            ]}),
            "duplicate rule name \"a\"",
        ),
        (
            json!({"default": default, "rules": [{"name": "a", "groups": ["x"], "concurrent_queries": -1}]}),
            "rules[0]",
        ),
    ] {
        let answer = put(&control, body.clone()).await;
        assert_api_error(&answer, 400, "INVALID_REQUEST", names);
    }
    let (_, limits) = control.get("/limits").await;
    assert_eq!(limits["default"]["concurrent_queries"], 4);
    assert!(
        sandbox
            .journal()
            .read(0, Some("LIMITS_CHANGED"), None, 10)
            .events
            .is_empty()
    );
}
