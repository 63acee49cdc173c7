//! QueryMesh stand-in benchmarks, over loopback through the Trino client protocol.
//!
//! `cargo bench --bench querymesh` prints:
//! - the latency of `SELECT name, regionkey FROM tpch.tiny.nation` (POST, then `nextUri` to
//!   the end), p50 and p95 — the target is a p50 under 1 ms;
//! - each TPC-H query of `fixtures/tpch/queries/` through the protocol against the engine's
//!   SQLite translation of it prepared and stepped to the last row straight on one of the
//!   engine's connections — the target is within 2×. Direct and protocol runs alternate; the
//!   medians are of at least `TPCH_RUNS` runs each (default [`TPCH_RUNS`]; set the environment
//!   variable for more), and a short query runs until its direct runs add up to about
//!   [`MEASURED_TIME`], so that its median does not hang on a few scheduler hiccups.
//!
//! The sandbox runs on a multi-thread runtime of its own; the client runs on its own OS thread
//! with its own current-thread runtime, as a real client is another process. Sharing the
//! server's two workers with the client made every number measure their contention too.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zero_sandbox::identity::jws;
use zero_sandbox::identity::unix_now;
use zero_sandbox::oidc::{QUERYMESH_AUDIENCE, QUERYMESH_SCOPE};
use zero_sandbox::querymesh::engine::{Engine, SessionContext};
use zero_sandbox::{Config, Sandbox};

const NATION: &str = "SELECT name, regionkey FROM tpch.tiny.nation";
const WARMUP: usize = 200;
const SAMPLES: usize = 2_000;
/// Runs of each TPC-H query; the median is reported.
const TPCH_RUNS: usize = 21;
/// How much direct-run time a short query's medians cover, at most [`MAX_RUNS`] runs.
const MEASURED_TIME: Duration = Duration::from_millis(300);
const MAX_RUNS: usize = 2_001;
/// [`TPCH_RUNS`] for the table of `just bench`, which must finish in minutes.
const TABLE_TPCH_RUNS: usize = 7;

/// How much [`measure`] does: everything, printed as it goes (`cargo bench --bench
/// querymesh`), or only the TPC-H comparison with fewer runs, for `just bench`'s table.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Full,
    Table,
}

/// One TPC-H query: medians through the protocol and straight on SQLite.
#[derive(Debug)]
pub struct TpchRow {
    pub name: String,
    pub rows: usize,
    pub protocol: Duration,
    pub direct: Duration,
}

impl TpchRow {
    pub fn ratio(&self) -> f64 {
        ms(self.protocol) / ms(self.direct).max(0.001)
    }
}

#[allow(dead_code)]
fn main() {
    if let Err(e) = serve_and_measure(Mode::Full) {
        eprintln!("benchmark failed: {e}");
        std::process::exit(1);
    }
}

/// Starts the sandbox on its runtime, then runs [`measure`] on a client thread.
pub fn serve_and_measure(mode: Mode) -> Result<Vec<TpchRow>, String> {
    let server = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    let config = Config::builtin().with_ephemeral_ports();
    let sandbox = server
        .block_on(Sandbox::start(config.clone()))
        .map_err(|e| e.to_string())?;
    let now = unix_now();
    let claims = json!({
        "iss": sandbox.realm_url(), "sub": "bench", "aud": [QUERYMESH_AUDIENCE],
        "exp": now + 3600, "iat": now, "scope": QUERYMESH_SCOPE,
    });
    let token = jws::sign(&sandbox.iam_keys().current(), "JWT", &claims);
    let url = sandbox.endpoints().querymesh_url();
    let client_config = config.clone();
    let measured = std::thread::spawn(move || {
        let client = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the client's runtime: {e}"))?;
        client.block_on(measure(&client_config, url, token, mode))
    })
    .join()
    .map_err(|_| "the client thread panicked".to_string())?;
    server.block_on(sandbox.shutdown());
    measured
}

struct Client {
    http: reqwest::Client,
    url: String,
    token: String,
}

impl Client {
    /// Posts `sql` and follows `nextUri` to the end; returns the number of rows.
    async fn query(&self, sql: &str) -> Result<usize, String> {
        self.timed_query(sql).await.map(|(rows, _)| rows)
    }

    /// [`Client::query`], also telling how long the POST alone took.
    async fn timed_query(&self, sql: &str) -> Result<(usize, Duration), String> {
        let started = Instant::now();
        let mut page: Value = self
            .http
            .post(format!("{}/v1/statement", self.url))
            .bearer_auth(&self.token)
            .header("X-Trino-Catalog", "tpch")
            .header("X-Trino-Schema", "tiny")
            .body(sql.to_string())
            .send()
            .await
            .map_err(|e| e.to_string())?
            .json()
            .await
            .map_err(|e| e.to_string())?;
        let posted = started.elapsed();
        let mut rows = 0;
        loop {
            if let Some(error) = page.get("error") {
                return Err(error["message"].as_str().unwrap_or("failed").to_string());
            }
            rows += page["data"].as_array().map_or(0, Vec::len);
            let Some(next) = page["nextUri"].as_str() else {
                return Ok((rows, posted));
            };
            page = self
                .http
                .get(next)
                .send()
                .await
                .map_err(|e| e.to_string())?
                .json()
                .await
                .map_err(|e| e.to_string())?;
        }
    }
}

/// The client's side: every measurement, over HTTP to the sandbox at `url`.
async fn measure(
    config: &Config,
    url: String,
    token: String,
    mode: Mode,
) -> Result<Vec<TpchRow>, String> {
    let client = Client {
        http: reqwest::Client::builder()
            .build()
            .map_err(|e| e.to_string())?,
        url,
        token,
    };
    let tpch_runs = std::env::var("TPCH_RUNS")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(match mode {
            Mode::Full => TPCH_RUNS,
            Mode::Table => TABLE_TPCH_RUNS,
        });
    let measured_time = match mode {
        Mode::Full => MEASURED_TIME,
        Mode::Table => MEASURED_TIME / 3,
    };

    for _ in 0..WARMUP {
        client.query(NATION).await?;
    }
    if mode == Mode::Full {
        latencies(&client).await?;
    }
    tpch(
        config,
        &client,
        tpch_runs,
        measured_time,
        mode == Mode::Full,
    )
    .await
}

/// The floor (a round trip doing nothing), then the nation query's latency.
async fn latencies(client: &Client) -> Result<(), String> {
    // The floor: one HTTP round trip that does no work (`GET /v1/info`).
    let mut trips = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let started = Instant::now();
        client
            .http
            .get(format!("{}/v1/info", client.url))
            .send()
            .await
            .map_err(|e| e.to_string())?
            .bytes()
            .await
            .map_err(|e| e.to_string())?;
        trips.push(started.elapsed());
    }
    println!(
        "one HTTP round trip doing nothing (GET /v1/info): p50 {:.3} ms",
        ms(median(trips))
    );
    let mut samples = Vec::with_capacity(SAMPLES);
    let mut posts = Vec::with_capacity(SAMPLES);
    for _ in 0..SAMPLES {
        let started = Instant::now();
        let (_, posted) = client.timed_query(NATION).await?;
        samples.push(started.elapsed());
        posts.push(posted);
    }
    samples.sort();
    println!(
        "nation over the protocol ({SAMPLES} runs): p50 {:.3} ms, p95 {:.3} ms",
        ms(samples[SAMPLES / 2]),
        ms(samples[SAMPLES * 95 / 100])
    );
    println!(
        "  of which the POST (authentication, analysis, start): p50 {:.3} ms",
        ms(median(posts))
    );
    Ok(())
}

/// Each TPC-H query through the protocol against its SQLite translation run straight.
async fn tpch(
    config: &Config,
    client: &Client,
    tpch_runs: usize,
    measured_time: Duration,
    print: bool,
) -> Result<Vec<TpchRow>, String> {
    let mut measured = Vec::new();
    let queries =
        tpch_queries(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/tpch/queries"));
    if queries.is_empty() {
        println!("no TPC-H queries in fixtures/tpch/: skipping the 22-query comparison");
        return Ok(measured);
    }
    let engine = Engine::open(&config.querymesh.engine(), config.state_dir.as_deref())
        .map_err(|e| e.to_string())?;
    let conn = engine.connect().map_err(|e| e.to_string())?;
    if print {
        println!(
            "{:<8} {:>8} {:>6} {:>12} {:>12} {:>7} {:>10}",
            "query", "rows", "runs", "protocol ms", "direct ms", "ratio", "analyse ms"
        );
    }
    let mut worst: f64 = 0.0;
    for (name, sql) in &queries {
        let session = SessionContext {
            catalog: Some("tpch".into()),
            schema: Some("tiny".into()),
            ..Default::default()
        };
        let analysing = Instant::now();
        let prepared = engine.prepare(sql, &session);
        let analysis = analysing.elapsed();
        let prepared = match prepared {
            Ok(prepared) => prepared,
            Err(e) => {
                println!("{name:<8} refused by the engine: {}", e.message());
                continue;
            }
        };
        let Some(sqlite_sql) = prepared.sqlite_sql() else {
            println!("{name:<8} has no SQLite SQL (answered by the engine itself)");
            continue;
        };
        let probing = Instant::now();
        run_straight(&conn, sqlite_sql).map_err(|e| format!("{name}: {e}"))?;
        let probe = probing.elapsed().as_secs_f64().max(1e-6);
        let runs = tpch_runs.max(((measured_time.as_secs_f64() / probe) as usize).min(MAX_RUNS));
        let mut direct = Vec::new();
        let mut protocol = Vec::new();
        let mut rows = 0;
        for _ in 0..runs {
            let started = Instant::now();
            run_straight(&conn, sqlite_sql).map_err(|e| format!("{name}: {e}"))?;
            direct.push(started.elapsed());
            let started = Instant::now();
            rows = client
                .query(sql)
                .await
                .map_err(|e| format!("{name}: {e}"))?;
            protocol.push(started.elapsed());
        }
        let row = TpchRow {
            name: name.clone(),
            rows,
            protocol: median(protocol),
            direct: median(direct),
        };
        worst = worst.max(row.ratio());
        if print {
            println!(
                "{name:<8} {rows:>8} {runs:>6} {:>12.3} {:>12.3} {:>6.2}× {:>10.2}",
                ms(row.protocol),
                ms(row.direct),
                row.ratio(),
                ms(analysis)
            );
        }
        measured.push(row);
    }
    if print {
        println!("worst protocol / direct ratio: {worst:.2}×");
    }
    Ok(measured)
}

/// Runs the engine's translation on SQLite directly, stepping through every row.
fn run_straight(conn: &rusqlite::Connection, sql: &str) -> rusqlite::Result<usize> {
    let mut statement = conn.prepare(sql)?;
    let mut rows = statement.query([])?;
    let mut count = 0;
    while rows.next()?.is_some() {
        count += 1;
    }
    Ok(count)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// `(name, text)` of every `*.sql` in `dir`, in the order of the number in their names.
fn tpch_queries(dir: &Path) -> Vec<(String, String)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    let number = |p: &PathBuf| -> u32 {
        p.file_stem()
            .and_then(|s| s.to_str())
            .map(|s| s.chars().filter(char::is_ascii_digit).collect::<String>())
            .and_then(|d| d.parse().ok())
            .unwrap_or(u32::MAX)
    };
    files.sort_by_key(number);
    files
        .into_iter()
        .filter_map(|p| {
            let name = p.file_stem()?.to_str()?.to_string();
            let sql = std::fs::read_to_string(&p).ok()?;
            Some((name, sql.trim().trim_end_matches(';').to_string()))
        })
        .collect()
}
