//! Every query QueryMesh accepted and the broker stops before it finished is cancelled there
//! (Trino shows it FAILED with USER_CANCELED, as for any client's DELETE; a fake QueryMesh
//! sees the DELETE) and is on record as `QUERY_CANCELLED`, with a `reason` naming why and
//! QueryMesh's query id, never the SQL: the app hanging up, the broker's deadline, a fault
//! rule, `max_rows`, the answer's size, a failed page, a foreign nextUri, the shutdown. (A
//! session's end, the revocation, is `platform::revocation`'s.)

use std::time::Instant;

use serde_json::{Value, json};
use zero_sandbox::Sandbox;
use zero_sandbox::platform::Journal;
use zero_sandbox::platform::journal::Event;

use super::{EXAMPLE, assert_refusal, config_with_fake, post, session_for_ada};
use crate::control::Control;
use crate::support::fake_trino::{ACCEPTED_NEXT_PATH, Behaviour, FakeTrino, Later, QUERY_ID};
use crate::support::{self, DEADLINE, LONG_QUERY, query_info, test_config, until};

/// The journal's `QUERY_CANCELLED` events.
fn cancelled(journal: &Journal) -> Vec<Event> {
    journal.read(0, Some("QUERY_CANCELLED"), None, 100).events
}

/// The one `QUERY_CANCELLED` of the run: from the broker, for `sub` in `sid`, with `reason`
/// and `query_id` and nothing else (no SQL).
fn assert_cancelled(journal: &Journal, reason: &str, query_id: &str, sub: &str, sid: &str) {
    let events = cancelled(journal);
    assert_eq!(events.len(), 1, "one cancel: {events:#?}");
    let event = &events[0];
    assert_eq!(event.source, zero_sandbox::platform::Source::Broker);
    assert_eq!(event.outcome.as_deref(), Some("USER_CANCELED"));
    assert_eq!(event.sub.as_deref(), Some(sub));
    assert_eq!(event.sid.as_deref(), Some(sid));
    assert_eq!(
        event.details,
        json!({ "query_id": query_id, "reason": reason })
    );
}

/// A session of ada's made by the control API (real IAM tokens, so the stand-in runs her
/// queries), and a QueryMesh token to read her queries' state with.
struct Ada {
    identity: String,
    sid: String,
    sub: String,
    token: String,
}

async fn ada(control: &Control) -> Ada {
    let session = control.session("ada").await;
    let (_, token) = control
        .post("/querymesh-tokens", json!({ "person": "ada" }))
        .await;
    Ada {
        identity: session["identity"].as_str().expect("identity").to_string(),
        sid: session["sid"].as_str().expect("sid").to_string(),
        sub: session["sub"].as_str().expect("sub").to_string(),
        token: token["access_token"].as_str().expect("a token").to_string(),
    }
}

/// The stand-in shows the query cancelled by its client: FAILED with USER_CANCELED (Trino's
/// `QueryState` and the error `DELETE /v1/query/{id}` gives).
fn assert_user_canceled(info: &Value) {
    assert_eq!(info["state"], "FAILED", "{info}");
    assert_eq!(info["errorCode"]["name"], "USER_CANCELED", "{info}");
}

/// The id of the one query the stand-in created.
async fn created_query(control: &Control) -> String {
    until("QueryMesh to create the query", || async {
        let (_, page) = control.get("/events?type=QUERY_CREATED").await;
        page["events"][0]["details"]["query_id"]
            .as_str()
            .map(str::to_string)
    })
    .await
}

async fn query_as(sandbox: &Sandbox, identity: &str, body: Value) -> (u16, Value) {
    post(sandbox, Some(identity), &body.to_string()).await
}

#[tokio::test]
async fn an_app_that_hangs_up_mid_query_has_it_cancelled_in_querymesh_and_on_record() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let ada = ada(&control).await;
    let broker = sandbox.endpoints().broker_url();
    let identity = ada.identity.clone();
    let call = tokio::spawn(async move {
        support::client()
            .post(format!("{broker}/v1/querymesh/query"))
            .header("x-nnumbers-identity", identity)
            .json(&json!({ "sql": LONG_QUERY }))
            .send()
            .await
    });
    let query_id = created_query(&control).await;
    until("the query to run", || async {
        (query_info(&sandbox, &ada.token, &query_id).await["state"] == "RUNNING").then_some(())
    })
    .await;

    // The app goes away: its connection to the broker closes with the call unanswered.
    let hung_up = Instant::now();
    call.abort();
    let _ = call.await;
    until("the broker to note the cancel", || async {
        (!cancelled(sandbox.journal()).is_empty()).then_some(())
    })
    .await;
    eprintln!(
        "QUERY_CANCELLED {:?} after the app hung up",
        hung_up.elapsed()
    );
    assert_cancelled(
        sandbox.journal(),
        "client_disconnected",
        &query_id,
        &ada.sub,
        &ada.sid,
    );
    let info = until("QueryMesh to cancel the query", || async {
        let info = query_info(&sandbox, &ada.token, &query_id).await;
        (info["state"] != "RUNNING" && info["state"] != "QUEUED").then_some(info)
    })
    .await;
    assert_user_canceled(&info);
}

/// A QueryMesh that accepted the query and then says nothing for `[broker]
/// querymesh_timeout_secs`: the app gets 503 at the deadline, and the query is cancelled
/// (in the background: a silent QueryMesh may not answer the DELETE either).
#[tokio::test]
async fn a_querymesh_silent_past_the_brokers_deadline_has_the_query_cancelled() {
    let fake = FakeTrino::start(Behaviour::Accepted(Later::Hang)).await;
    let mut config = config_with_fake(&fake);
    config.broker.querymesh_timeout_secs = 1;
    let sandbox = support::start_with(config).await;
    let (identity, sid) = session_for_ada(&sandbox);
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    assert!(message.contains("did not answer within 1 s"), "{message}");
    let ada = sandbox.config().person("ada").unwrap().sub.clone();
    assert_cancelled(sandbox.journal(), "timeout", QUERY_ID, &ada, &sid);
    until("the DELETE to reach QueryMesh", || async {
        (!fake.deletes().is_empty()).then_some(())
    })
    .await;
    assert_eq!(fake.deletes(), [ACCEPTED_NEXT_PATH]);
}

/// A fault rule that has QueryMesh hang up once it accepted the query: the query QueryMesh
/// runs is cancelled there before the app gets its 503.
#[tokio::test]
async fn a_hangup_fault_after_querymesh_accepted_the_query_cancels_it_there() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let ada = ada(&control).await;
    control.fault(json!({ "hangup": true, "times": 1 })).await;
    let (status, body) = query_as(&sandbox, &ada.identity, json!({ "sql": LONG_QUERY })).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (503, Some("QUERYMESH_UNAVAILABLE")),
        "{body}"
    );
    let query_id = created_query(&control).await;
    assert_cancelled(sandbox.journal(), "fault", &query_id, &ada.sub, &ada.sid);
    assert_user_canceled(&query_info(&sandbox, &ada.token, &query_id).await);
}

#[tokio::test]
async fn more_rows_than_max_rows_is_cancelled_in_querymesh_and_on_record() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let ada = ada(&control).await;
    // 60,175 rows, the first pages of them past 10 long before the last page.
    let body = json!({ "sql": "SELECT orderkey FROM tpch.tiny.lineitem", "max_rows": 10 });
    let (status, answer) = query_as(&sandbox, &ada.identity, body).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (422, Some("QUERYMESH_QUERY_FAILED")),
        "{answer}"
    );
    let query_id = created_query(&control).await;
    assert_cancelled(sandbox.journal(), "max_rows", &query_id, &ada.sub, &ada.sid);
    assert_user_canceled(&query_info(&sandbox, &ada.token, &query_id).await);
}

#[tokio::test]
async fn an_answer_past_the_brokers_size_limit_is_cancelled_in_querymesh_and_on_record() {
    let mut config = test_config();
    config.broker.max_answer_mb = 1;
    let sandbox = support::start_with(config).await;
    let control = Control::of(&sandbox);
    let ada = ada(&control).await;
    // About 6 MB of Trino JSON: 60,175 comments of lineitem.
    let body = json!({ "sql": "SELECT comment FROM tpch.tiny.lineitem" });
    let (status, answer) = query_as(&sandbox, &ada.identity, body).await;
    assert_eq!(
        (status, answer["code"].as_str()),
        (422, Some("QUERYMESH_QUERY_FAILED")),
        "{answer}"
    );
    let query_id = created_query(&control).await;
    assert_cancelled(
        sandbox.journal(),
        "answer_too_large",
        &query_id,
        &ada.sub,
        &ada.sid,
    );
    assert_user_canceled(&query_info(&sandbox, &ada.token, &query_id).await);
}

/// A page that fails after QueryMesh accepted the query (here a 502 from a proxy before it):
/// the app gets the spec's answer for it, and the query is not left running.
#[tokio::test]
async fn a_page_that_fails_has_the_query_cancelled() {
    let fake = FakeTrino::start(Behaviour::Accepted(Later::Status(502))).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, sid) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    let ada = sandbox.config().person("ada").unwrap().sub.clone();
    assert_cancelled(sandbox.journal(), "failed_answer", QUERY_ID, &ada, &sid);
    assert_eq!(
        fake.deletes(),
        [ACCEPTED_NEXT_PATH],
        "cancelled before the answer"
    );
}

#[tokio::test]
async fn a_foreign_next_uri_has_the_query_cancelled_by_id_and_on_record() {
    let fake = FakeTrino::start(Behaviour::ForeignNextUri).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, sid) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        502,
        "QUERYMESH_QUERY_FAILED",
    );
    let ada = sandbox.config().person("ada").unwrap().sub.clone();
    assert_cancelled(sandbox.journal(), "foreign_next_uri", QUERY_ID, &ada, &sid);
    assert_eq!(fake.deletes(), [format!("/v1/query/{QUERY_ID}")]);
}

/// The sandbox shutting down while the broker waits on a configured QueryMesh (a real Trino
/// would run the query on for nobody): the query is cancelled there and the app answered
/// 503 before the listeners close.
#[tokio::test]
async fn shutting_down_cancels_running_queries_in_querymesh() {
    let fake = FakeTrino::start(Behaviour::Accepted(Later::Hang)).await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, sid) = session_for_ada(&sandbox);
    let journal = sandbox.journal().clone();
    let ada = sandbox.config().person("ada").unwrap().sub.clone();
    let broker = sandbox.endpoints().broker_url();
    let call = tokio::spawn(async move {
        let response = support::client()
            .post(format!("{broker}/v1/querymesh/query"))
            .header("x-nnumbers-identity", identity)
            .header("content-type", "application/json")
            .body(EXAMPLE)
            .send()
            .await
            .expect("the broker answers");
        let status = response.status().as_u16();
        (status, response.json::<Value>().await.expect("JSON"))
    });
    until("the broker to wait on the query's nextUri", || async {
        let seen = fake.seen();
        seen.requests
            .iter()
            .any(|(method, path, _)| method == "GET" && path == ACCEPTED_NEXT_PATH)
            .then_some(())
    })
    .await;

    let stopping = Instant::now();
    sandbox.shutdown().await;
    eprintln!("shut down in {:?}, the query cancelled", stopping.elapsed());
    assert_eq!(fake.deletes(), [ACCEPTED_NEXT_PATH]);
    assert_cancelled(&journal, "shutdown", QUERY_ID, &ada, &sid);
    let (status, body) = tokio::time::timeout(DEADLINE, call)
        .await
        .expect("the app's call answers")
        .expect("the call's task");
    assert_eq!(
        (status, body["code"].as_str()),
        (503, Some("QUERYMESH_UNAVAILABLE")),
        "{body}"
    );
    assert!(
        body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("shutting down"),
        "{body}"
    );
}
