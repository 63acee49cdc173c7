//! Start-up: `Sandbox::start` until every listener accepts, on a new state directory (the
//! first start: keys created, tpch.tiny written from the binary's image) and on one already
//! used (a later start), then the process's peak resident memory. The target is "well under a
//! second" including tpch.tiny. Then the cost of one isolated test: start → a session through
//! the test-control API (`POST /sandbox/v1/sessions`) → the first query through the broker →
//! stop, whose goal is under 15 ms. `cargo bench --bench startup`.

use std::time::{Duration, Instant};

use zero_sandbox::{Config, Sandbox};

const RUNS: usize = 15;
const CYCLES: usize = 10;

/// Medians of [`RUNS`] starts and of [`CYCLES`] isolated tests.
#[derive(Debug)]
pub struct Report {
    pub first_start: Duration,
    pub later_start: Duration,
    pub isolated_test: Duration,
    /// start, POST sessions, first query, stop.
    pub phases: [Duration; 4],
}

#[allow(dead_code)]
#[tokio::main]
async fn main() {
    let report = measure().await;
    println!(
        "start on a new state directory: p50 {:.1} ms (goal: well under 1 s)",
        ms(report.first_start)
    );
    println!(
        "start on a used state directory: p50 {:.1} ms",
        ms(report.later_start)
    );
    println!(
        "one isolated test (start, POST sessions, first query, stop): median of {CYCLES} {:.1} ms (goal: under 15 ms)",
        ms(report.isolated_test)
    );
    let [start, session, query, stop] = report.phases;
    println!(
        "  of which (medians): start {:.1} ms, POST sessions {:.1} ms, first query {:.1} ms, stop {:.1} ms",
        ms(start),
        ms(session),
        ms(query),
        ms(stop)
    );
    match peak_rss_kib() {
        Some(kib) => println!("peak resident memory of this process: {} MiB", kib / 1024),
        None => println!("peak resident memory: unknown on this platform"),
    }
}

pub async fn measure() -> Report {
    let mut first = Vec::with_capacity(RUNS);
    let mut later = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let state = tempfile::tempdir().expect("a state directory");
        let mut config = Config::builtin().with_ephemeral_ports();
        config.state_dir = Some(state.path().to_path_buf());
        first.push(start_and_stop(config.clone()).await);
        later.push(start_and_stop(config).await);
    }
    let mut cycles = Vec::with_capacity(CYCLES);
    let mut phases: [Vec<Duration>; 4] = Default::default();
    // No idle connections kept: shutdown would otherwise give them its grace period.
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("a client");
    // One untimed cycle first, so the process's one-time costs (tpch.tiny inflated) are not
    // counted against a test.
    isolated_test(&http).await;
    for _ in 0..CYCLES {
        let took = isolated_test(&http).await;
        cycles.push(took.iter().sum());
        for (phase, d) in phases.iter_mut().zip(took) {
            phase.push(d);
        }
    }
    let [start, session, query, stop] = &mut phases;
    Report {
        first_start: median(&mut first),
        later_start: median(&mut later),
        isolated_test: median(&mut cycles),
        phases: [median(start), median(session), median(query), median(stop)],
    }
}

async fn start_and_stop(config: Config) -> Duration {
    let started = Instant::now();
    let sandbox = Sandbox::start(config).await.expect("the sandbox starts");
    let elapsed = started.elapsed();
    sandbox.shutdown().await;
    elapsed
}

/// What a suite that starts one sandbox per test pays per test, on ephemeral ports and
/// in-memory keys: start, `POST sessions`, the first query, stop.
async fn isolated_test(http: &reqwest::Client) -> [Duration; 4] {
    let mut clock = Instant::now();
    let mut lap = || {
        let now = Instant::now();
        let took = now - clock;
        clock = now;
        took
    };
    let sandbox = Sandbox::start(Config::builtin().with_ephemeral_ports())
        .await
        .expect("the sandbox starts");
    let start = lap();
    let session: serde_json::Value = http
        .post(format!("{}/sessions", sandbox.endpoints().control_url()))
        .json(&serde_json::json!({ "person": "ada" }))
        .send()
        .await
        .expect("POST sessions")
        .json()
        .await
        .expect("a session");
    let identity = session["identity"].as_str().expect("an identity");
    let session_took = lap();
    let answer = http
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("x-nnumbers-identity", identity)
        .json(&serde_json::json!({ "sql": "SELECT name FROM tpch.tiny.region" }))
        .send()
        .await
        .expect("the first query");
    assert_eq!(answer.status(), 200);
    let _ = answer.bytes().await;
    let query = lap();
    sandbox.shutdown().await;
    [start, session_took, query, lap()]
}

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// `VmHWM` from /proc/self/status (Linux).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
