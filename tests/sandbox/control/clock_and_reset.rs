//! `GET/POST clock` and `POST reset` (whole, `?sid=`, `?sub=`).

use serde_json::{Value, json};
use zero_sandbox::Sandbox;
use zero_sandbox::edge::identity_header::identity_for;

use super::{Control, assert_api_error, query};
use crate::support;

/// The identity the edge would hand the app for `sid` now (re-signed as it nears expiry).
fn fresh_identity(sandbox: &Sandbox, sid: &str) -> Value {
    let session = sandbox.sessions().get(sid).expect("alive");
    json!({ "identity": identity_for(sandbox.identity(), sandbox.sessions(), &session) })
}

#[tokio::test]
async fn moving_the_clock_expires_identities_tokens_and_at_last_the_sign_in() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let (status, clock) = control.get("/clock").await;
    assert_eq!((status, &clock["offset_seconds"]), (200, &json!(0)));
    let session = control.session("ada").await;
    let sid = session["sid"].as_str().expect("sid");

    // Past the identity's 5 minutes and the 60 s tolerance; past the IAM access token's too.
    let (status, moved) = control
        .post("/clock", json!({ "advance_seconds": 400 }))
        .await;
    assert_eq!((status, &moved["offset_seconds"]), (200, &json!(400)));
    assert!(moved["now"].as_u64().unwrap() >= clock["now"].as_u64().unwrap() + 400);
    assert_eq!(
        query(&sandbox, &session).await,
        (401, "IDENTITY_ASSERTION_INVALID".into())
    );
    // A fresh identity works: the session's IAM token is refreshed on the moved clock.
    let fresh = fresh_identity(&sandbox, sid);
    assert_ne!(fresh["identity"], session["identity"]);
    assert_eq!(query(&sandbox, &fresh).await, (200, "OK".into()));

    // Past the SSO session: the IAM refuses to refresh, and the platform session ends.
    let hours = u64::from(sandbox.config().iam.sso_session_hours);
    control
        .post("/clock", json!({ "advance_seconds": hours * 3600 }))
        .await;
    let fresh = fresh_identity(&sandbox, sid);
    assert_eq!(
        query(&sandbox, &fresh).await,
        (401, "USER_SESSION_REQUIRED".into())
    );
    assert!(!sandbox.sessions().is_alive(sid));

    for (body, names) in [
        (json!({}), "`advance_seconds`"),
        (json!({ "advance_seconds": 0 }), "`advance_seconds`"),
        (json!({ "advance_seconds": "60" }), "`advance_seconds`"),
        (json!({ "advance_seconds": -5 }), "`advance_seconds`"),
        (
            json!({ "advance_seconds": 1u64 << 40 }),
            "`advance_seconds`",
        ),
        (json!({ "advance_seconds": 5, "back": true }), "`back`"),
    ] {
        assert_api_error(
            &control.post("/clock", body).await,
            400,
            "INVALID_REQUEST",
            names,
        );
    }
}

#[tokio::test]
async fn a_whole_reset_puts_everything_back_to_the_configuration() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let ada = control.session("ada").await;
    control
        .patch("/switches", json!({ "querymesh_enabled": false }))
        .await;
    control
        .post("/people", json!({ "sub": "temp", "name": "Temp" }))
        .await;
    control.fault(json!({ "hangup": true })).await;
    control
        .post("/clock", json!({ "advance_seconds": 60 }))
        .await;

    let (status, reset) = control.post("/reset", json!({})).await;
    assert_eq!(status, 200, "{reset}");
    assert_eq!(reset["sessions_ended"], 1);
    assert_eq!(
        query(&sandbox, &ada).await,
        (401, "USER_SESSION_REQUIRED".into())
    );
    assert_eq!(control.get("/switches").await.1["querymesh_enabled"], true);
    assert_eq!(control.get("/faults").await.1["faults"], json!([]));
    assert_eq!(control.get("/clock").await.1["offset_seconds"], 0);
    let people = control.get("/people").await.1;
    assert_eq!(
        people["people"].as_array().unwrap().len(),
        sandbox.config().people.len()
    );
    let again = control.session("ada").await;
    assert_eq!(query(&sandbox, &again).await, (200, "OK".into()));
}

#[tokio::test]
async fn a_scoped_reset_touches_only_what_its_sid_or_sub_owns() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let ada = control.session("ada").await;
    let ada_too = control.session("ada").await;
    let grace = control.session("grace").await;
    for session in [&ada, &ada_too, &grace] {
        control
            .fault(json!({ "code": "QUERYMESH_ACCESS_DENIED", "scope": { "sid": session["sid"] } }))
            .await;
    }
    control
        .fault(json!({ "code": "QUERYMESH_ACCESS_DENIED", "scope": { "sub": grace["sub"] } }))
        .await;
    control
        .fault(json!({ "delay_ms": 1, "scope": "everyone" }))
        .await;

    let sid = ada["sid"].as_str().unwrap();
    let (status, reset) = control.post(&format!("/reset?sid={sid}"), json!({})).await;
    assert_eq!(status, 200, "{reset}");
    assert_eq!(
        (
            reset["sessions_ended"].as_u64(),
            reset["faults_removed"].as_u64()
        ),
        (Some(1), Some(1))
    );
    assert_eq!(query(&sandbox, &ada).await.0, 401);
    assert_eq!(
        query(&sandbox, &ada_too).await.0,
        403,
        "another session's fault stays"
    );
    assert_eq!(
        control.get("/faults").await.1["faults"]
            .as_array()
            .unwrap()
            .len(),
        4
    );

    let sub = grace["sub"].as_str().unwrap();
    let (_, reset) = control.post(&format!("/reset?sub={sub}"), json!({})).await;
    assert_eq!(
        (
            reset["sessions_ended"].as_u64(),
            reset["faults_removed"].as_u64()
        ),
        (Some(1), Some(2))
    );
    assert_eq!(query(&sandbox, &grace).await.0, 401);
    assert_eq!(query(&sandbox, &ada_too).await.0, 403);
    assert_eq!(
        control.get("/faults").await.1["faults"]
            .as_array()
            .unwrap()
            .len(),
        2,
        "ada's and everyone's"
    );
    assert_eq!(control.get("/switches").await.1["querymesh_enabled"], true);

    assert_api_error(
        &control.post("/reset?sid=a&sub=b", json!({})).await,
        400,
        "INVALID_REQUEST",
        "`sid`",
    );
    assert_api_error(
        &control.post("/reset?everything=1", json!({})).await,
        400,
        "INVALID_REQUEST",
        "`everything`",
    );
}
