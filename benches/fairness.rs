//! Fairness: how long another person's cheap query takes while one person runs away.
//!
//! `cargo bench --bench fairness` sends `RUNAWAY` endless queries as one person straight to the
//! QueryMesh stand-in (never fetched, so they run until their time limit), then times
//! `SELECT 1` sent by someone else, POST to last page, p50 and p99. The target is
//! milliseconds, not the runaway queries' time limit. Set `PER_PERSON` to the
//! `[querymesh] max_running_queries_per_person` to try (default: the built-in one); a value
//! as large as `RUNAWAY` shows what happens without a per-person share.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zero_sandbox::identity::jws;
use zero_sandbox::identity::unix_now;
use zero_sandbox::oidc::{QUERYMESH_AUDIENCE, QUERYMESH_SCOPE};
use zero_sandbox::{Config, Sandbox};

const RUNAWAY: usize = 50;
const SAMPLES: usize = 200;
const ENDLESS: &str = "SELECT count(*) FROM tpch.tiny.lineitem a CROSS JOIN tpch.tiny.lineitem b CROSS JOIN tpch.tiny.orders c";

fn main() {
    if let Err(e) = run() {
        eprintln!("benchmark failed: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let server = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let state = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut config = Config::builtin().with_ephemeral_ports();
    config.state_dir = Some(state.path().to_path_buf());
    config.querymesh.query_time_limit_secs = 15;
    if let Some(n) = std::env::var("PER_PERSON")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        config.querymesh.max_running_queries_per_person = n;
    }
    let per_person = config.querymesh.max_running_queries_per_person;
    let sandbox = server
        .block_on(Sandbox::start(config))
        .map_err(|e| e.to_string())?;
    let token = |sub: &str| {
        let now = unix_now();
        let claims = json!({
            "iss": sandbox.realm_url(), "sub": sub, "aud": [QUERYMESH_AUDIENCE],
            "exp": now + 3600, "iat": now, "scope": QUERYMESH_SCOPE,
        });
        jws::sign(&sandbox.iam_keys().current(), "JWT", &claims)
    };
    let (runaway, cheap) = (token("runaway"), token("cheap"));
    let url = sandbox.endpoints().querymesh_url();
    let measured = std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?
            .block_on(measure(url, runaway, cheap))
    })
    .join()
    .map_err(|_| "the client thread panicked".to_string())??;
    println!(
        "SELECT 1 by another person while {RUNAWAY} endless queries of one person run \
         (max_running_queries_per_person = {per_person}, {SAMPLES} runs): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(measured[SAMPLES / 2]),
        ms(measured[SAMPLES * 99 / 100]),
        ms(measured[SAMPLES - 1]),
    );
    server.block_on(sandbox.shutdown());
    Ok(())
}

async fn measure(url: String, runaway: String, cheap: String) -> Result<Vec<Duration>, String> {
    let http = reqwest::Client::new();
    let post = |sql: &'static str, token: &str| {
        http.post(format!("{url}/v1/statement"))
            .bearer_auth(token)
            .body(sql)
            .send()
    };
    for _ in 0..RUNAWAY {
        post(ENDLESS, &runaway).await.map_err(|e| e.to_string())?;
    }
    let mut samples = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let started = Instant::now();
        let mut page: Value = post("SELECT 1", &cheap)
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())?;
        while let Some(next) = page["nextUri"].as_str() {
            page = http
                .get(next)
                .send()
                .await
                .map_err(|e| e.to_string())?
                .json()
                .await
                .map_err(|e| e.to_string())?;
        }
        if let Some(error) = page.get("error") {
            return Err(format!("SELECT 1 failed: {error}"));
        }
        samples.push(started.elapsed());
    }
    samples.sort();
    Ok(samples)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
