//! The spec's example query through the broker: p50/p95 with identity verification and the
//! Trino-protocol hop to the stand-in included. `cargo bench --bench broker`.

#[path = "../tests/sandbox/support/echo_app.rs"]
#[allow(dead_code)]
mod echo_app;
#[path = "../tests/sandbox/support/http_sign_in.rs"]
#[allow(dead_code)]
mod http_sign_in;

use std::time::{Duration, Instant};

use zero_sandbox::{Config, Sandbox};

const WARMUP: usize = 200;
const SAMPLES: usize = 2000;

#[tokio::main]
async fn main() {
    let app = echo_app::EchoApp::start().await;
    let mut config = Config::builtin().with_ephemeral_ports();
    config.app.url = Some(app.url.clone());
    let sandbox = Sandbox::start(config).await.expect("the sandbox starts");
    let endpoints = sandbox.endpoints();
    let ada = &sandbox.config().person("ada").expect("ada").sub;
    let cookie = http_sign_in::sign_in_over_http(
        &endpoints.edge_url(),
        &endpoints.iam_url(),
        &sandbox.config().organization.slug,
        ada,
    )
    .await;
    let identity = http_sign_in::identity_via_app(&endpoints.edge_url(), &cookie).await;

    let client = reqwest::Client::new();
    let url = format!("{}/v1/querymesh/query", endpoints.broker_url());
    let body = r#"{"sql": "SELECT name, regionkey FROM tpch.tiny.nation", "max_rows": 1000}"#;
    let mut samples = Vec::with_capacity(SAMPLES);
    for i in 0..WARMUP + SAMPLES {
        let started = Instant::now();
        let response = client
            .post(&url)
            .header("x-nnumbers-identity", &identity)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("the broker answers");
        assert_eq!(response.status(), 200);
        let _ = response.bytes().await.expect("a body");
        if i >= WARMUP {
            samples.push(started.elapsed());
        }
    }
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 * q) as usize).min(samples.len() - 1)];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "broker example query: n={SAMPLES} p50={:.3} ms p95={:.3} ms p99={:.3} ms (goal: p50 < 1.5 ms)",
        ms(at(0.50)),
        ms(at(0.95)),
        ms(at(0.99))
    );
    sandbox.shutdown().await;
}
