//! A query past its time limit is stopped; slow queries run at the same time, and one person's
//! runaway queries hold up nobody else.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::Value;

use super::{ENDLESS, Mesh, NATION, PATIENCE, config_with, error_of, rows};

#[tokio::test]
async fn a_query_past_its_time_limit_is_stopped() {
    let mesh = Mesh::with(config_with("[querymesh]\nquery_time_limit_secs = 1\n")).await;
    let started = Instant::now();
    let pages = mesh.run(ENDLESS).await;
    let error = error_of(&pages);
    assert_eq!(error["errorName"], "EXCEEDED_TIME_LIMIT");
    assert_eq!(error["errorType"], "INSUFFICIENT_RESOURCES");
    assert_eq!(
        error["message"],
        "Query exceeded maximum time limit of 1.00s"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn slow_queries_run_at_the_same_time() {
    // With a state directory tpch.tiny is surely a file, which connections read side by side;
    // the engine's in-memory fallback is shared-cache, where SQLite serialises steps.
    let state = tempfile::tempdir().expect("a temporary directory");
    let mut config = config_with("[querymesh]\nquery_time_limit_secs = 20\n");
    config.state_dir = Some(state.path().to_path_buf());
    let mesh = Mesh::with(config).await;
    let token = mesh.token();
    let mut next = Vec::new();
    for _ in 0..2 {
        let first: Value = mesh.post(ENDLESS, &token).await.json().await.expect("json");
        next.push(first["nextUri"].as_str().expect("nextUri").to_string());
    }
    // Each GET waits up to a second for rows; once both report RUNNING, both hold a
    // connection at once (a queued query reports QUEUED until it starts).
    let deadline = Instant::now() + PATIENCE;
    let mut running = [false, false];
    while running != [true, true] {
        assert!(Instant::now() < deadline, "both queries never ran together");
        for (i, uri) in next.iter_mut().enumerate() {
            let page = mesh.get(uri).await;
            assert!(page.get("error").is_none(), "{page}");
            running[i] = page["stats"]["state"] == "RUNNING";
            *uri = page["nextUri"].as_str().expect("still running").to_string();
        }
    }
    for uri in &next {
        let deleted = mesh.client.delete(uri).send().await.expect("answers");
        assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    }
}

/// One person's runaway queries hold only their own share of the places: another person's
/// query starts and finishes while they run, and past the person's queue limit a query fails
/// as Trino's resource groups fail it.
#[tokio::test]
async fn one_persons_runaway_queries_do_not_hold_up_anyone_else() {
    let state = tempfile::tempdir().expect("a temporary directory");
    let mut config = config_with(
        "[querymesh]\nquery_time_limit_secs = 20\nmax_running_queries_per_person = 2\nmax_queued_queries_per_person = 3\n",
    );
    config.state_dir = Some(state.path().to_path_buf());
    let mesh = Mesh::with(config).await;
    let ada = mesh.token();
    let mut runaway = Vec::new();
    for _ in 0..5 {
        let first: Value = mesh.post(ENDLESS, &ada).await.json().await.expect("json");
        runaway.push(first["nextUri"].as_str().expect("nextUri").to_string());
    }
    // Two run, three wait: a sixth is past Ada's queue. Trino's InternalResourceGroup fails
    // it with `Too many queued queries for "<group>"`.
    let pages = mesh.run_as(ENDLESS, &ada).await;
    let error = error_of(&pages);
    assert_eq!(error["errorName"], "QUERY_QUEUE_FULL", "{error}");
    assert_eq!(error["errorType"], "INSUFFICIENT_RESOURCES", "{error}");
    assert_eq!(
        error["message"],
        r#"Too many queued queries for "global.ada""#
    );

    let grace = mesh.sign(&mesh.claims("grace", &[]));
    let pages = mesh
        .follow(mesh.post_as("grace", NATION, &grace).await)
        .await;
    assert_eq!(pages.last().unwrap()["stats"]["state"], "FINISHED");
    assert_eq!(rows(&pages).len(), 25);
    // …while Ada's first queries are still running away and the rest still wait.
    let mut states = Vec::new();
    for uri in &mut runaway {
        let page = mesh.get(uri).await;
        assert!(page.get("error").is_none(), "{page}");
        states.push(
            page["stats"]["state"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        );
        *uri = page["nextUri"].as_str().expect("still going").to_string();
    }
    assert_eq!(states[3..], ["QUEUED", "QUEUED"], "{states:?}");
    for uri in &runaway {
        let deleted = mesh.client.delete(uri).send().await.expect("answers");
        assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    }
}
