//! The spec's example query through the broker: p50/p95 with identity verification and the
//! Trino-protocol hop to the stand-in included, one client at a time; then the throughput of
//! 8 clients at once. The identity comes from the test-control API (`POST
//! /sandbox/v1/sessions`), as a test suite gets one. `cargo bench --bench broker`.

use std::time::{Duration, Instant};

use zero_sandbox::{Config, Sandbox};

const WARMUP: usize = 200;
const SAMPLES: usize = 2000;
/// Clients at once for the throughput figure (one person each), and the queries each sends
/// per run.
const CLIENTS: usize = 8;
const PER_CLIENT: usize = 250;
const THROUGHPUT_RUNS: usize = 3;

/// The spec's example: `POST /v1/querymesh/query` with its body.
const EXAMPLE: &str =
    r#"{"sql": "SELECT name, regionkey FROM tpch.tiny.nation", "max_rows": 1000}"#;

#[derive(Debug)]
pub struct Report {
    pub p50: Duration,
    pub p95: Duration,
    pub p99: Duration,
    /// Queries per second with [`CLIENTS`] clients, the median of [`THROUGHPUT_RUNS`].
    pub throughput: f64,
    pub clients: usize,
}

#[allow(dead_code)]
#[tokio::main]
async fn main() {
    let report = measure().await;
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "broker example query: n={SAMPLES} p50={:.3} ms p95={:.3} ms p99={:.3} ms (goal: p50 < 1.5 ms)",
        ms(report.p50),
        ms(report.p95),
        ms(report.p99)
    );
    println!(
        "broker throughput, {} clients: {:.0} queries/s (median of {THROUGHPUT_RUNS} runs)",
        report.clients, report.throughput
    );
}

pub async fn measure() -> Report {
    let sandbox = Sandbox::start(Config::builtin().with_ephemeral_ports())
        .await
        .expect("the sandbox starts");
    let endpoints = sandbox.endpoints();
    let client = reqwest::Client::new();
    let session: serde_json::Value = client
        .post(format!("{}/sessions", endpoints.control_url()))
        .json(&serde_json::json!({ "person": "ada" }))
        .send()
        .await
        .expect("POST sessions")
        .json()
        .await
        .expect("a session");
    let identity = session["identity"]
        .as_str()
        .expect("an identity")
        .to_string();
    let url = format!("{}/v1/querymesh/query", endpoints.broker_url());

    let mut samples = Vec::with_capacity(SAMPLES);
    for i in 0..WARMUP + SAMPLES {
        let started = Instant::now();
        query(&client, &url, &identity).await;
        if i >= WARMUP {
            samples.push(started.elapsed());
        }
    }
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 * q) as usize).min(samples.len() - 1)];

    // One person each: the broker caps one person's queries at once, as QueryMesh would.
    let mut identities = Vec::with_capacity(CLIENTS);
    for i in 0..CLIENTS {
        let session: serde_json::Value = client
            .post(format!("{}/sessions", endpoints.control_url()))
            .json(&serde_json::json!({ "claims": { "sub": format!("bench-{i}") } }))
            .send()
            .await
            .expect("POST sessions")
            .json()
            .await
            .expect("a session");
        identities.push(
            session["identity"]
                .as_str()
                .expect("an identity")
                .to_string(),
        );
    }
    let mut throughputs = Vec::with_capacity(THROUGHPUT_RUNS);
    for _ in 0..THROUGHPUT_RUNS {
        let started = Instant::now();
        let clients = identities.iter().map(|identity| {
            let (client, url, identity) = (client.clone(), url.clone(), identity.clone());
            tokio::spawn(async move {
                for _ in 0..PER_CLIENT {
                    query(&client, &url, &identity).await;
                }
            })
        });
        for done in futures_util::future::join_all(clients).await {
            done.expect("a client ran");
        }
        throughputs.push((CLIENTS * PER_CLIENT) as f64 / started.elapsed().as_secs_f64());
    }
    throughputs.sort_by(f64::total_cmp);
    let report = Report {
        p50: at(0.50),
        p95: at(0.95),
        p99: at(0.99),
        throughput: throughputs[THROUGHPUT_RUNS / 2],
        clients: CLIENTS,
    };
    sandbox.shutdown().await;
    report
}

async fn query(client: &reqwest::Client, url: &str, identity: &str) {
    let response = client
        .post(url)
        .header("x-nnumbers-identity", identity)
        .header("content-type", "application/json")
        .body(EXAMPLE)
        .send()
        .await
        .expect("the broker answers");
    assert_eq!(response.status(), 200);
    let _ = response.bytes().await.expect("a body");
}
