//! `just bench`: every speed figure of the project in one Markdown table, each beside its goal,
//! all taken in the same run on the same machine. It runs the other benches' measurements
//! (their files are modules here; each still runs alone as `cargo bench --bench NAME`):
//!
//! - start → ready and the cost of one isolated test ([`startup`]),
//! - the resident memory of `zero-sandbox up` at ready, after 10,000 proxied requests and after
//!   1,000 queries (here),
//! - the edge against the app direct and nginx, anonymous and signed in ([`edge`]),
//! - the broker's spec example, one client and 8 ([`broker`]),
//! - each TPC-H query through the Trino protocol against raw SQLite ([`querymesh`]).
//!
//! Tools it cannot find (wrk, nginx) are named in the notes under the table with how to
//! install them, and their rows say "skipped".

#[allow(dead_code)]
mod broker;
#[allow(dead_code)]
mod edge;
#[allow(dead_code)]
mod querymesh;
#[allow(dead_code)]
mod startup;

use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// Runs of the memory sequence; each figure is their median.
const MEMORY_RUNS: usize = 3;
const PROXIED: usize = 10_000;
const QUERIES: usize = 1_000;
/// Requests in flight at once for the memory sequence's proxied requests.
const CONCURRENCY: usize = 16;
/// Clients (one person each) for its queries.
const QUERY_CLIENTS: usize = 8;

fn main() {
    let started = Instant::now();
    let mut notes = Vec::new();
    let mut table = String::from("| figure | measured | goal |\n|---|---|---|\n");
    let mut row = |figure: &str, measured: String, goal: &str| {
        let _ = writeln!(table, "| {figure} | {measured} | {goal} |");
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");

    eprintln!("[table] start-up and isolated tests…");
    let start = runtime.block_on(startup::measure());
    let memory = memory_sequence(&mut notes);
    row(
        "start → ready, `Sandbox::start` (new state directory / used one)",
        format!("{} / {}", ms(start.first_start), ms(start.later_start)),
        "well under 1 s",
    );
    if let Some(memory) = &memory {
        row(
            "start → ready, `zero-sandbox up` process (spawn to ready line)",
            ms(memory.start_to_ready),
            "well under 1 s",
        );
        row("resident memory at ready", mib(memory.at_ready), "—");
        row(
            &format!("resident memory after {PROXIED} proxied requests (signed in)"),
            mib(memory.after_proxied),
            "≤ 2× at ready",
        );
        row(
            &format!("resident memory after {QUERIES} queries"),
            mib(memory.after_queries),
            "≤ 2× at ready",
        );
    }
    let [s_start, s_session, s_query, s_stop] = start.phases;
    row(
        "one isolated test: start, POST /sandbox/v1/sessions, one query, stop",
        format!(
            "{} ({} + {} + {} + {})",
            ms(start.isolated_test),
            ms(s_start),
            ms(s_session),
            ms(s_query),
            ms(s_stop)
        ),
        "< 15 ms",
    );

    eprintln!("[table] the edge against nginx (wrk)…");
    let edge = edge::measure(&edge::Settings::from_env(), edge::BINARY);
    notes.extend(edge.notes.iter().cloned());
    let nginx = edge.row("nginx").map(|r| r.requests_per_sec);
    let forwarding = edge.row("nginx forwarding").map(|r| r.requests_per_sec);
    let direct = edge.row("direct").map(|r| r.p50);
    let edge_goal = "≥ 0.9× nginx, p99 ≤ 1 ms, p50 ≤ direct + 100 µs";
    for (name, measured, goal) in [
        ("app direct", edge.row("direct"), "—"),
        ("nginx reverse proxy, 1 worker", edge.row("nginx"), "—"),
        (
            "nginx forwarding as the edge does (identity, X-Forwarded-*, Via)",
            edge.row("nginx forwarding"),
            "—",
        ),
        ("edge, anonymous", edge.row("anonymous"), edge_goal),
        (
            "edge, signed in (identity injected)",
            edge.row("signed in"),
            edge_goal,
        ),
    ] {
        let text = match measured {
            None => "skipped (see notes)".to_string(),
            Some(r) => {
                let mut text = format!(
                    "{:.0} req/s, p50 {:.0} µs, p99 {:.0} µs",
                    r.requests_per_sec,
                    micros(r.p50),
                    micros(r.p99)
                );
                if let Some(cpu) = r.cpu_per_request {
                    let _ = write!(text, ", CPU {:.1} µs/request", micros(cpu));
                }
                if name.starts_with("edge") {
                    if let Some(n) = nginx {
                        let _ = write!(text, ", {:.2}× nginx", r.requests_per_sec / n);
                    }
                    if let Some(n) = forwarding {
                        let _ = write!(
                            text,
                            ", {:.2}× nginx forwarding as the edge",
                            r.requests_per_sec / n
                        );
                    }
                    if let Some(d) = direct {
                        let _ = write!(
                            text,
                            ", +{:.0} µs p50 over direct",
                            micros(r.p50) - micros(d)
                        );
                    }
                }
                text
            }
        };
        row(&format!("wrk 1 thread 16 connections: {name}"), text, goal);
    }

    eprintln!("[table] the broker…");
    let broker = runtime.block_on(broker::measure());
    row(
        "broker, the spec's example query, one client: p50 / p95",
        format!("{} / {}", ms(broker.p50), ms(broker.p95)),
        "p50 < 1.5 ms",
    );
    row(
        &format!("broker, the spec's example, {} clients", broker.clients),
        format!("{:.0} queries/s", broker.throughput),
        "—",
    );

    eprintln!("[table] TPC-H through the protocol against raw SQLite…");
    match querymesh::serve_and_measure(querymesh::Mode::Table) {
        Ok(rows) => {
            let worst = rows.iter().map(|r| r.ratio()).fold(0.0, f64::max);
            for r in &rows {
                row(
                    &format!("TPC-H {} ({} rows): protocol / raw SQLite", r.name, r.rows),
                    format!("{} / {} = {:.2}×", ms(r.protocol), ms(r.direct), r.ratio()),
                    "≤ 2×",
                );
            }
            row("TPC-H worst ratio", format!("{worst:.2}×"), "≤ 2×");
        }
        Err(e) => notes.push(format!("the TPC-H comparison failed: {e}")),
    }

    println!("{table}");
    for note in &notes {
        println!("- note: {note}");
    }
    println!(
        "\n(whole table in {:.0} s; figures are medians: see docs/benchmarks.md)",
        started.elapsed().as_secs_f64()
    );
}

struct Memory {
    start_to_ready: Duration,
    at_ready: u64,
    after_proxied: u64,
    after_queries: u64,
}

/// `zero-sandbox up` in front of the tiny app, [`MEMORY_RUNS`] times: its start, then its
/// resident memory at ready, after [`PROXIED`] signed-in requests through the edge and after
/// [`QUERIES`] of the spec's example through the broker. Medians of the runs.
fn memory_sequence(notes: &mut Vec<String>) -> Option<Memory> {
    let app = edge::TinyApp::start();
    let app_url = format!("http://{}", app.addr);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let mut runs = Vec::new();
    for _ in 0..MEMORY_RUNS {
        let sandbox = match edge::SandboxProcess::start(edge::BINARY, Some(&app_url)) {
            Ok(sandbox) => sandbox,
            Err(e) => {
                notes.push(format!("memory: the sandbox did not start: {e}"));
                return None;
            }
        };
        let at_ready = sandbox.rss_kib().unwrap_or(0);
        let session = match sandbox.session("ada") {
            Ok(session) => session,
            Err(e) => {
                notes.push(format!("memory: no session: {e}"));
                return None;
            }
        };
        let cookie = session["cookie"]["header"].as_str().unwrap_or_default();
        let edge = sandbox.ready["edge"].as_str().unwrap_or_default();
        let broker = sandbox.ready["broker"].as_str().unwrap_or_default();
        let failures = runtime.block_on(load(&format!("{edge}/"), PROXIED, cookie));
        let after_proxied = sandbox.rss_kib().unwrap_or(0);
        // One person per client: the broker caps one person's queries at once.
        let identities: Vec<String> = (0..QUERY_CLIENTS)
            .filter_map(|i| {
                let person = serde_json::json!({ "sub": format!("bench-{i}") });
                sandbox.session_of(&person).ok()
            })
            .filter_map(|s| s["identity"].as_str().map(str::to_string))
            .collect();
        let query_failures = runtime.block_on(load_post(
            &format!("{broker}/v1/querymesh/query"),
            QUERIES,
            &identities,
        ));
        let after_queries = sandbox.rss_kib().unwrap_or(0);
        if failures + query_failures > 0 {
            notes.push(format!(
                "memory: {failures} proxied requests and {query_failures} queries did not answer 200"
            ));
        }
        runs.push(Memory {
            start_to_ready: sandbox.start_to_ready,
            at_ready,
            after_proxied,
            after_queries,
        });
    }
    let median_of = |f: &dyn Fn(&Memory) -> u64| {
        let mut v: Vec<u64> = runs.iter().map(f).collect();
        v.sort();
        v[v.len() / 2]
    };
    let mut starts: Vec<Duration> = runs.iter().map(|m| m.start_to_ready).collect();
    starts.sort();
    Some(Memory {
        start_to_ready: starts[starts.len() / 2],
        at_ready: median_of(&|m| m.at_ready),
        after_proxied: median_of(&|m| m.after_proxied),
        after_queries: median_of(&|m| m.after_queries),
    })
}

/// `total` GETs of `url` with `cookie`, [`CONCURRENCY`] at a time; returns how many did not
/// answer 200.
async fn load(url: &str, total: usize, cookie: &str) -> usize {
    let http = reqwest::Client::new();
    let clients = (0..CONCURRENCY).map(|i| {
        let per = share(i, total);
        let (http, url, cookie) = (http.clone(), url.to_string(), cookie.to_string());
        async move {
            let mut failed = 0;
            for _ in 0..per {
                match http.get(&url).header("cookie", &cookie).send().await {
                    Ok(r) if r.status() == 200 => {
                        let _ = r.bytes().await;
                    }
                    _ => failed += 1,
                }
            }
            failed
        }
    });
    futures_util::future::join_all(clients).await.iter().sum()
}

/// `total` of the spec's example queries, one client per identity at a time.
async fn load_post(url: &str, total: usize, identities: &[String]) -> usize {
    let http = reqwest::Client::new();
    let n = identities.len().max(1);
    let clients = identities.iter().enumerate().map(|(i, identity)| {
        let per = total / n + usize::from(i < total % n);
        let (http, url, identity) = (http.clone(), url.to_string(), identity.clone());
        async move {
            let mut failed = 0;
            for _ in 0..per {
                let answer = http
                    .post(&url)
                    .header("x-nnumbers-identity", &identity)
                    .header("content-type", "application/json")
                    .body(r#"{"sql": "SELECT name, regionkey FROM tpch.tiny.nation", "max_rows": 1000}"#)
                    .send()
                    .await;
                match answer {
                    Ok(r) if r.status() == 200 => {
                        let _ = r.bytes().await;
                    }
                    _ => failed += 1,
                }
            }
            failed
        }
    });
    futures_util::future::join_all(clients).await.iter().sum()
}

/// Client `i`'s part of `total`: the parts add up to it exactly.
fn share(i: usize, total: usize) -> usize {
    total / CONCURRENCY + usize::from(i < total % CONCURRENCY)
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}
