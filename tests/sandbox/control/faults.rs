//! `POST/GET/DELETE faults`: every refusal code of the spec, a delay, a verbatim answer and a
//! QueryMesh that hangs up, for everyone, one person or one session, N times or by chance.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zero_sandbox::broker::INJECTABLE_CODES;

use super::{Control, assert_api_error, query};
use crate::support;

#[tokio::test]
async fn every_refusal_code_of_the_spec_can_be_injected_with_each_of_its_statuses() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    let sid = session["sid"].as_str().expect("sid");
    for (code, statuses) in INJECTABLE_CODES {
        for status in statuses {
            control
                .fault(
                    json!({ "code": code, "status": status, "times": 1, "scope": { "sid": sid } }),
                )
                .await;
            assert_eq!(query(&sandbox, &session).await, (*status, code.to_string()));
        }
        // Without `status`: the code's first status.
        control.fault(json!({ "code": code, "times": 1 })).await;
        assert_eq!(
            query(&sandbox, &session).await,
            (statuses[0], code.to_string())
        );
    }
    assert_eq!(
        query(&sandbox, &session).await,
        (200, "OK".into()),
        "all used up"
    );
    assert_eq!(control.get("/faults").await.1["faults"], json!([]));
}

#[tokio::test]
async fn a_delay_slows_the_answer_and_past_the_timeout_is_a_silent_querymesh() {
    let mut config = support::test_config();
    config.broker.querymesh_timeout_secs = 1;
    let sandbox = support::start_with(config).await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    control.fault(json!({ "delay_ms": 150, "times": 1 })).await;
    let started = Instant::now();
    assert_eq!(query(&sandbox, &session).await, (200, "OK".into()));
    assert!(
        started.elapsed() >= Duration::from_millis(150),
        "{:?}",
        started.elapsed()
    );

    control.fault(json!({ "delay_ms": 1000, "times": 1 })).await;
    let started = Instant::now();
    assert_eq!(
        query(&sandbox, &session).await,
        (503, "QUERYMESH_UNAVAILABLE".into())
    );
    assert!(started.elapsed() >= Duration::from_secs(1));
}

#[tokio::test]
async fn a_status_and_body_are_answered_verbatim() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    control
        .fault(json!({ "status": 502, "body": "<html>bad gateway</html>", "times": 1 }))
        .await;
    let response = support::client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header(
            "x-nnumbers-identity",
            session["identity"].as_str().expect("identity"),
        )
        .json(&json!({ "sql": "SELECT 1" }))
        .send()
        .await
        .expect("the broker answers");
    assert_eq!(response.status(), 502);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    assert_eq!(
        response.text().await.expect("a body"),
        "<html>bad gateway</html>"
    );

    control
        .fault(json!({ "status": 200, "body": "{\"columns\":[],\"rows\":[]}", "times": 1 }))
        .await;
    let (status, body) =
        support::broker_query(&sandbox, session["identity"].as_str().unwrap(), "SELECT 1").await;
    assert_eq!((status, body), (200, json!({ "columns": [], "rows": [] })));
}

#[tokio::test]
async fn a_querymesh_hanging_up_mid_answer_is_the_specs_unavailable_and_the_query_is_cancelled() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    control.fault(json!({ "hangup": true, "times": 1 })).await;
    let (status, body) = support::broker_query(
        &sandbox,
        session["identity"].as_str().expect("identity"),
        "SELECT count(*) FROM tpch.tiny.lineitem",
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (503, Some("QUERYMESH_UNAVAILABLE")),
        "{body}"
    );
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("reading the body failed"),
        "{body}"
    );
    assert_eq!(
        query(&sandbox, &session).await,
        (200, "OK".into()),
        "once only"
    );
}

#[tokio::test]
async fn scopes_touch_only_their_person_or_session() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let ada = control.session("ada").await;
    let ada_too = control.session("ada").await;
    let grace = control.session("grace").await;
    let unavailable = (503, "QUERYMESH_UNAVAILABLE".to_string());
    let ok = (200, "OK".to_string());

    let by_sid = control
        .fault(json!({ "code": "QUERYMESH_UNAVAILABLE", "scope": { "sid": ada["sid"] } }))
        .await;
    assert_eq!(query(&sandbox, &ada).await, unavailable);
    assert_eq!(query(&sandbox, &ada_too).await, ok);
    assert_eq!(query(&sandbox, &grace).await, ok);
    assert_eq!(control.delete(&format!("/faults/{by_sid}")).await.0, 200);

    control
        .fault(json!({ "code": "QUERYMESH_UNAVAILABLE", "scope": { "sub": ada["sub"] } }))
        .await;
    assert_eq!(query(&sandbox, &ada).await, unavailable);
    assert_eq!(query(&sandbox, &ada_too).await, unavailable);
    assert_eq!(query(&sandbox, &grace).await, ok);
    let (status, cleared) = control
        .delete(&format!("/faults?sub={}", grace["sub"].as_str().unwrap()))
        .await;
    assert_eq!(
        (status, cleared["removed"].as_u64()),
        (200, Some(0)),
        "another person's rule stays"
    );
    control
        .delete(&format!("/faults?sub={}", ada["sub"].as_str().unwrap()))
        .await;

    control
        .fault(json!({ "code": "QUERYMESH_UNAVAILABLE", "scope": "everyone", "times": 3 }))
        .await;
    for session in [&ada, &ada_too, &grace] {
        assert_eq!(query(&sandbox, session).await, unavailable);
    }
    assert_eq!(query(&sandbox, &grace).await, ok);
}

#[tokio::test]
async fn times_counts_down_and_a_seeded_probability_repeats_itself() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    let id = control
        .fault(json!({ "code": "QUERYMESH_ACCESS_DENIED", "times": 2 }))
        .await;
    let (_, listed) = control.get("/faults").await;
    assert_eq!(listed["faults"][0]["id"], id);
    assert_eq!(listed["faults"][0]["times_left"], 2);
    query(&sandbox, &session).await;
    assert_eq!(control.get("/faults").await.1["faults"][0]["times_left"], 1);
    query(&sandbox, &session).await;
    assert_eq!(control.get("/faults").await.1["faults"], json!([]));

    // The same seed gives the same sequence of faults, on any sandbox.
    let mut runs = Vec::new();
    for _ in 0..2 {
        let id = control
            .fault(json!({ "code": "QUERYMESH_UNAVAILABLE", "probability": 0.5, "seed": 42 }))
            .await;
        let mut outcomes = Vec::new();
        for _ in 0..16 {
            outcomes.push(query(&sandbox, &session).await.0);
        }
        control.delete(&format!("/faults/{id}")).await;
        runs.push(outcomes);
    }
    assert_eq!(runs[0], runs[1]);
    assert!(
        runs[0].contains(&503) && runs[0].contains(&200),
        "{:?}",
        runs[0]
    );

    // Probability 1 is always.
    control
        .fault(json!({ "code": "QUERYMESH_UNAVAILABLE", "probability": 1.0, "times": 2 }))
        .await;
    assert_eq!(query(&sandbox, &session).await.0, 503);
    assert_eq!(query(&sandbox, &session).await.0, 503);
    assert_eq!(query(&sandbox, &session).await.0, 200);
}

#[tokio::test]
async fn two_tests_on_one_sandbox_with_session_scoped_faults_never_see_each_others() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    // Each "test" signs its own person in, sets faults on its own session, clears them with
    // `reset?sid=`, all interleaved with the other's.
    let one_test = |person: &'static str, code: &'static str, status: u16| {
        let sandbox = &sandbox;
        async move {
            let control = Control::of(sandbox);
            for round in 0..10 {
                let session = control.session(person).await;
                let sid = session["sid"].as_str().expect("sid").to_string();
                control
                    .fault(json!({ "code": code, "scope": { "sid": sid } }))
                    .await;
                assert_eq!(
                    query(sandbox, &session).await,
                    (status, code.to_string()),
                    "{person} round {round}"
                );
                assert_eq!(
                    control
                        .post(&format!("/reset?sid={sid}"), json!({}))
                        .await
                        .0,
                    200
                );
                let session = control.session(person).await;
                assert_eq!(
                    query(sandbox, &session).await,
                    (200, "OK".into()),
                    "{person} round {round}"
                );
                control
                    .delete(&format!("/sessions/{}", session["sid"].as_str().unwrap()))
                    .await;
            }
        }
    };
    let session = control.session("alan").await;
    tokio::join!(
        one_test("ada", "QUERYMESH_UNAVAILABLE", 503),
        one_test("grace", "QUERYMESH_ACCESS_DENIED", 403),
        async {
            for _ in 0..20 {
                assert_eq!(
                    query(&sandbox, &session).await,
                    (200, "OK".into()),
                    "a bystander"
                );
            }
        }
    );
}

#[tokio::test]
async fn the_errors_of_faults_name_what_is_wrong() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let cases: [(Value, u16, &str, &str); 17] = [
        (json!({}), 400, "INVALID_FAULT", "`code`"),
        (json!({ "code": "NOPE" }), 400, "INVALID_FAULT", "NOPE"),
        (
            json!({ "code": "QUERYMESH_UNAVAILABLE", "status": 500 }),
            400,
            "INVALID_FAULT",
            "`status`",
        ),
        (
            json!({ "code": "QUERYMESH_UNAVAILABLE", "delay_ms": 5 }),
            400,
            "INVALID_FAULT",
            "one of",
        ),
        (
            json!({ "code": "QUERYMESH_UNAVAILABLE", "body": "x" }),
            400,
            "INVALID_FAULT",
            "`body`",
        ),
        (json!({ "delay_ms": 0 }), 400, "INVALID_FAULT", "`delay_ms`"),
        (
            json!({ "delay_ms": "5" }),
            400,
            "INVALID_REQUEST",
            "`delay_ms`",
        ),
        (json!({ "status": 99 }), 400, "INVALID_FAULT", "`status`"),
        (json!({ "hangup": false }), 400, "INVALID_FAULT", "`hangup`"),
        (
            json!({ "hangup": true, "times": 0 }),
            400,
            "INVALID_FAULT",
            "`times`",
        ),
        (
            json!({ "hangup": true, "probability": 1.5 }),
            400,
            "INVALID_FAULT",
            "`probability`",
        ),
        (
            json!({ "hangup": true, "seed": 3 }),
            400,
            "INVALID_FAULT",
            "`seed`",
        ),
        (
            json!({ "hangup": true, "scope": "someone" }),
            400,
            "INVALID_FAULT",
            "`scope`",
        ),
        (
            json!({ "hangup": true, "scope": { "sid": "gone" } }),
            404,
            "UNKNOWN_SESSION",
            "gone",
        ),
        (
            json!({ "hangup": true, "scope": { "sub": "nobody" } }),
            404,
            "UNKNOWN_PERSON",
            "nobody",
        ),
        (
            json!({ "hangup": true, "scope": { "sub": "a", "sid": "b" } }),
            400,
            "INVALID_FAULT",
            "`scope.sub`",
        ),
        (
            json!({ "hangup": true, "scope": { "user": "a" } }),
            400,
            "INVALID_REQUEST",
            "`scope.user`",
        ),
    ];
    for (body, status, code, names) in cases {
        assert_api_error(&control.post("/faults", body).await, status, code, names);
    }
    assert_api_error(
        &control.delete("/faults/999").await,
        404,
        "UNKNOWN_FAULT",
        "999",
    );
    assert_api_error(
        &control.delete("/faults/x").await,
        404,
        "UNKNOWN_FAULT",
        "x",
    );
    assert_api_error(
        &control.delete("/faults?who=x").await,
        400,
        "INVALID_REQUEST",
        "`who`",
    );
    assert_eq!(
        control.get("/faults").await.1["faults"],
        json!([]),
        "no refused rule was added"
    );
    let id = control.fault(json!({ "hangup": true })).await;
    let (status, cleared) = control.delete("/faults").await;
    assert_eq!((status, cleared["removed"].as_u64()), (200, Some(1)));
    assert_api_error(
        &control.delete(&format!("/faults/{id}")).await,
        404,
        "UNKNOWN_FAULT",
        &id.to_string(),
    );
}
