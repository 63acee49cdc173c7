//! Revocation that reaches running work: however a platform session ends while the app's
//! broker call waits on a long query, the query is cancelled in QueryMesh (its state, read
//! with Trino's `GET /v1/query/{id}`, is FAILED with USER_CANCELED, as Trino reports a query a
//! client cancelled) and the app's call answers 401 USER_SESSION_REQUIRED instead of rows.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zero_sandbox::Sandbox;

use crate::control::Control;
use crate::support::{self, DEADLINE, LONG_QUERY, SignedIn, query_info, until};

#[derive(Clone, Copy, Debug)]
enum Ending {
    /// The app's sign-out at the edge.
    EdgeLogout,
    /// The IAM's end-session endpoint (OIDC RP-Initiated Logout), with the ID token as hint.
    IamLogout,
    /// `DELETE sessions/{sid}`.
    ControlSession,
    /// `DELETE sessions?sub=`.
    ControlPerson,
    /// `DELETE people/{sub}`: the person removed while running.
    PersonRemoved,
    /// `POST reset`.
    Reset,
}

async fn end_session(sandbox: &Sandbox, control: &Control, how: Ending, signed_in: &SignedIn) {
    let status = match how {
        Ending::EdgeLogout => support::client()
            .post(support::edge(sandbox, "/.nnumbers/auth/logout"))
            .header("origin", sandbox.endpoints().edge_url())
            .header("cookie", &signed_in.cookie)
            .send()
            .await
            .expect("logout")
            .status()
            .as_u16(),
        Ending::IamLogout => {
            let id_token = sandbox
                .sessions()
                .get(&signed_in.sid)
                .and_then(|s| s.tokens.id_token)
                .expect("the session's ID token");
            support::client()
                .get(format!(
                    "{}/protocol/openid-connect/logout?{}",
                    sandbox.realm_url(),
                    support::encode_form(&[("id_token_hint", &id_token)])
                ))
                .send()
                .await
                .expect("end-session")
                .status()
                .as_u16()
        }
        Ending::ControlSession => {
            control
                .delete(&format!("/sessions/{}", signed_in.sid))
                .await
                .0
        }
        Ending::ControlPerson => {
            control
                .delete(&format!("/sessions?sub={}", signed_in.sub))
                .await
                .0
        }
        Ending::PersonRemoved => {
            control
                .delete(&format!("/people/{}", signed_in.sub))
                .await
                .0
        }
        Ending::Reset => control.post("/reset", json!({})).await.0,
    };
    assert!(status < 400, "{how:?} answered {status}");
}

/// Starts the long query through the broker, ends its session once QueryMesh runs it, and
/// checks the cancellation, the app's answer and the journal. Returns how long QueryMesh took
/// to show the query cancelled after the session's end was asked for.
async fn revoked_while_running(how: Ending) -> Duration {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let signed_in = support::sign_in(&sandbox, "ada").await;
    let identity = signed_in.identity(&sandbox);
    let (_, token) = control
        .post("/querymesh-tokens", json!({ "person": "ada" }))
        .await;
    let token = token["access_token"].as_str().expect("a token").to_string();

    let broker = sandbox.endpoints().broker_url();
    let call = tokio::spawn(async move {
        let response = support::client()
            .post(format!("{broker}/v1/querymesh/query"))
            .header("x-nnumbers-identity", identity)
            .json(&json!({ "sql": LONG_QUERY }))
            .send()
            .await
            .expect("the broker answers");
        let status = response.status().as_u16();
        (status, response.json::<Value>().await.expect("JSON"))
    });

    let query_id = until("QueryMesh to create the query", || async {
        let (_, page) = control.get("/events?type=QUERY_CREATED").await;
        page["events"][0]["details"]["query_id"]
            .as_str()
            .map(str::to_string)
    })
    .await;
    until("the query to run", || async {
        (query_info(&sandbox, &token, &query_id).await["state"] == "RUNNING").then_some(())
    })
    .await;

    let asked = Instant::now();
    end_session(&sandbox, &control, how, &signed_in).await;
    let info = until("QueryMesh to cancel the query", || async {
        let info = query_info(&sandbox, &token, &query_id).await;
        (info["state"] != "RUNNING" && info["state"] != "QUEUED").then_some(info)
    })
    .await;
    let took = asked.elapsed();
    assert_eq!(info["state"], "FAILED", "{how:?}: {info}");
    assert_eq!(
        info["errorCode"]["name"], "USER_CANCELED",
        "{how:?}: {info}"
    );

    let (status, body) = tokio::time::timeout(DEADLINE, call)
        .await
        .expect("the app's call answers")
        .expect("the call's task");
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("USER_SESSION_REQUIRED")),
        "{how:?}: {body}"
    );
    assert!(
        body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("cancelled in QueryMesh"),
        "{body}"
    );

    // On record: the cancellation, then the revoked call, both naming the session and query.
    let (_, page) = control.get(&format!("/events?sub={}", signed_in.sub)).await;
    let events = page["events"].as_array().expect("events");
    let of = |kind: &str| {
        events
            .iter()
            .find(|e| e["type"] == kind)
            .unwrap_or_else(|| panic!("{how:?}: no {kind} in {page}"))
    };
    let ended = of("SESSION_ENDED");
    let cancelled = of("QUERY_CANCELLED");
    let revoked = of("SESSION_REVOKED");
    for event in [cancelled, revoked] {
        assert_eq!(event["source"], "broker");
        assert_eq!(event["sid"], signed_in.sid.as_str());
        assert_eq!(event["details"]["query_id"], query_id.as_str());
        assert_eq!(event["details"]["why"], ended["details"]["why"]);
    }
    assert_eq!(cancelled["outcome"], "USER_CANCELED");
    assert_eq!(cancelled["details"]["reason"], "session_ended");
    assert_eq!(revoked["outcome"], "USER_SESSION_REQUIRED");
    assert_eq!(revoked["details"]["ended_by"], ended["source"]);
    took
}

/// Each way a session ends revokes its running query within 100 ms of the end being asked
/// for (measured; bounded generously here, as the machine may be loaded).
#[tokio::test]
async fn a_session_ended_during_a_long_query_cancels_it_in_querymesh_and_answers_401() {
    let mut took = Vec::new();
    for how in [
        Ending::EdgeLogout,
        Ending::IamLogout,
        Ending::ControlSession,
        Ending::ControlPerson,
        Ending::PersonRemoved,
        Ending::Reset,
    ] {
        let time = revoked_while_running(how).await;
        eprintln!("{how:?}: QueryMesh showed the query cancelled {time:?} after the end");
        took.push((how, time));
    }
    for (how, time) in took {
        assert!(time < Duration::from_secs(2), "{how:?} took {time:?}");
    }
}

/// A session that ends while a fault rule delays its query is revoked too: 401 at once, not
/// rows once the delay is over.
#[tokio::test]
async fn a_session_ended_during_a_delayed_query_answers_401_without_waiting() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let session = control.session("ada").await;
    control
        .fault(json!({ "delay_ms": 30_000, "times": 1 }))
        .await;
    let broker = sandbox.endpoints().broker_url();
    let identity = session["identity"].as_str().unwrap().to_string();
    let call = tokio::spawn(async move {
        support::client()
            .post(format!("{broker}/v1/querymesh/query"))
            .header("x-nnumbers-identity", identity)
            .json(&json!({ "sql": "SELECT 1" }))
            .send()
            .await
            .expect("the broker answers")
    });
    // The fault is taken once the call is in the broker.
    until("the call to reach its delay", || async {
        let (_, faults) = control.get("/faults").await;
        faults["faults"]
            .as_array()
            .is_some_and(|f| f.is_empty())
            .then_some(())
    })
    .await;
    let asked = Instant::now();
    control
        .delete(&format!("/sessions/{}", session["sid"].as_str().unwrap()))
        .await;
    let response = tokio::time::timeout(DEADLINE, call)
        .await
        .expect("answered")
        .expect("the task");
    assert!(asked.elapsed() < Duration::from_secs(10));
    assert_eq!(response.status(), 401);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "USER_SESSION_REQUIRED", "{body}");
    let (_, page) = control.get("/events?type=SESSION_REVOKED").await;
    let revoked = page["events"].as_array().expect("events");
    assert_eq!(revoked.len(), 1, "{page}");
    assert_eq!(
        revoked[0]["details"]["query_id"],
        Value::Null,
        "no query yet"
    );
    assert_eq!(revoked[0]["details"]["ended_by"], "control");
}
