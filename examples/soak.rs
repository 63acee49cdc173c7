//! A soak run against the real binary, as a heavy test suite would load it (not run in CI).
//!
//! ```text
//! cargo build --release && cargo run --release --example soak -- [--clients 50]
//!     [--requests 100000] [--queries 10000] [--idle-secs 30] [--binary target/release/zero-sandbox]
//!     [--log sandbox.log]
//! ```
//!
//! Starts `zero-sandbox up --ready-json` on ports it picks (the built-in demo app behind the
//! edge), signs `--clients` custom people in over HTTP as a browser would, then each client
//! sends its share of `--requests` proxied requests (the demo's page and `/api/identity`,
//! where the app verifies the identity the edge handed it) and of `--queries` queries (the
//! demo's `/api/query`: edge → app → broker → QueryMesh), a mix of small, large, failing and
//! slow SQL. Every 10 s it prints the status counts so far, p50/p99 of the last 10 s and the
//! sandbox's resident memory (and where it lies: the main heap, anonymous mappings — the other
//! malloc arena, large blocks, thread stacks — and files); at the end, the same 2, 5 and 10 s
//! into `--idle-secs` of idleness and every 10 s after, and a verdict: the process alive, no 5xx
//! but the spec's documented refusals, RSS after the run and after the idle spell within 2× of
//! RSS at ready. "After the run" is [`SETTLED`] after its last answer: the sandbox gives a
//! burst's memory back once it goes quiet (its idle connections closed after a second, the
//! ended queries forgotten after five); the RSS at the very end, the burst's working set not
//! yet given back, is printed beside it.
//!
//! `--log` keeps the sandbox's log (stderr) in a file; with
//! `RUST_LOG=zero_sandbox=info,zero_sandbox::memory=debug` it says what the heap, SQLite and
//! the idle connections hold each time QueryMesh's queries go quiet.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long after the run's last answer its memory is judged (see the module's docs).
const SETTLED: Duration = Duration::from_secs(10);

/// The queries the clients take turns at, with what each should answer.
const QUERIES: &[&str] = &[
    r#"{"sql": "SELECT name, regionkey FROM tpch.tiny.nation", "max_rows": 1000}"#,
    r#"{"sql": "SELECT returnflag, linestatus, sum(quantity), avg(extendedprice) FROM tpch.tiny.lineitem GROUP BY 1, 2 ORDER BY 1, 2"}"#,
    r#"{"sql": "SELECT orderkey, comment FROM tpch.tiny.orders ORDER BY orderkey LIMIT 2000"}"#,
    r#"{"sql": "SELECT nosuchcolumn FROM tpch.tiny.nation"}"#,
    r#"{"sql": "SELECT custkey FROM tpch.tiny.customer", "max_rows": 10}"#,
    r#"{"sql": "SELECT c.name, count(*) FROM tpch.tiny.customer c JOIN tpch.tiny.orders o ON o.custkey = c.custkey GROUP BY c.name ORDER BY 2 DESC LIMIT 10"}"#,
];

struct Args {
    binary: String,
    clients: usize,
    requests: usize,
    queries: usize,
    idle: Duration,
    log: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        binary: concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/zero-sandbox").into(),
        clients: 50,
        requests: 100_000,
        queries: 10_000,
        idle: Duration::from_secs(30),
        log: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let number = || value.parse::<usize>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--binary" => args.binary = value.clone(),
            "--clients" => args.clients = number()?.max(1),
            "--requests" => args.requests = number()?,
            "--queries" => args.queries = number()?,
            "--idle-secs" => args.idle = Duration::from_secs(number()? as u64),
            "--log" => args.log = Some(value.clone()),
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(args)
}

/// What every client saw: outcomes by kind and status (and refusal code), and latencies.
#[derive(Default)]
struct Tally {
    outcomes: BTreeMap<String, u64>,
    window: Vec<(bool, Duration)>,
}

impl Tally {
    fn record(&mut self, query: bool, outcome: String, took: Duration) {
        *self.outcomes.entry(outcome).or_default() += 1;
        self.window.push((query, took));
    }
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("soak: {e}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let code = runtime.block_on(soak(args)).unwrap_or_else(|e| {
        eprintln!("soak: {e}");
        1
    });
    std::process::exit(code);
}

async fn soak(args: Args) -> Result<i32, String> {
    let (mut child, ready) = start(&args.binary, args.log.as_deref())?;
    let pid = child.id();
    let edge = ready["edge"]
        .as_str()
        .ok_or("no edge in the ready line")?
        .to_string();
    let at_ready = rss_kib(pid).unwrap_or(0);
    println!(
        "sandbox pid {pid} ready at {edge}; RSS at ready {} MiB{}",
        at_ready / 1024,
        where_resident(pid)
    );

    let tally = Arc::new(Mutex::new(Tally::default()));
    let started = Instant::now();
    let mut clients = Vec::new();
    for i in 0..args.clients {
        let share = |total: usize| total / args.clients + usize::from(i < total % args.clients);
        let (requests, queries) = (share(args.requests), share(args.queries));
        let (edge, tally) = (edge.clone(), tally.clone());
        clients.push(tokio::spawn(async move {
            client(i, &edge, requests, queries, &tally).await
        }));
    }
    let all = futures_util::future::join_all(clients);
    tokio::pin!(all);
    let mut every = tokio::time::interval(Duration::from_secs(10));
    every.tick().await;
    let results = loop {
        tokio::select! {
            results = &mut all => break results,
            _ = every.tick() => report(&tally, pid, started),
        }
    };
    report(&tally, pid, started);
    let failed: Vec<String> = results
        .into_iter()
        .filter_map(|r| match r {
            Ok(Ok(())) => None,
            Ok(Err(e)) => Some(e),
            Err(e) => Some(e.to_string()),
        })
        .collect();
    let at_end = rss_kib(pid).unwrap_or(0);
    let idle = args.idle.max(SETTLED);
    println!("idle for {} s…", idle.as_secs());
    let idle_started = Instant::now();
    let mut after_run = None;
    // Closer together at first: how soon the sandbox gives a burst's memory back.
    let mut steps = [2, 3, 5].into_iter().map(Duration::from_secs);
    while idle_started.elapsed() < idle {
        let left = idle - idle_started.elapsed();
        let step = steps.next().unwrap_or(Duration::from_secs(10));
        tokio::time::sleep(left.min(step)).await;
        let rss = rss_kib(pid).unwrap_or(0);
        if after_run.is_none() && idle_started.elapsed() >= SETTLED {
            after_run = Some(rss);
        }
        println!(
            "[idle {:>3.0} s] RSS {} MiB{}",
            idle_started.elapsed().as_secs_f64(),
            rss / 1024,
            where_resident(pid)
        );
    }
    let after_run = after_run.unwrap_or(0);
    let after_idle = rss_kib(pid).unwrap_or(0);
    let alive = child.try_wait().map(|s| s.is_none()).unwrap_or(false);
    let _ = child.kill();
    let _ = child.wait();

    let outcomes = tally.lock().map(|t| t.outcomes.clone()).unwrap_or_default();
    let undocumented: Vec<_> = outcomes
        .iter()
        .filter(|(outcome, _)| is_undocumented_5xx(outcome))
        .collect();
    println!(
        "\nRSS: at ready {} MiB, at the run's last answer {} MiB, after the run ({} s later) \
         {} MiB, after {} s idle {} MiB",
        at_ready / 1024,
        at_end / 1024,
        SETTLED.as_secs(),
        after_run / 1024,
        idle.as_secs(),
        after_idle / 1024
    );
    println!("process alive at the end: {alive}");
    println!("clients that could not run: {}", failed.len());
    for e in failed.iter().take(5) {
        println!("  {e}");
    }
    println!("5xx outside the spec's refusals: {undocumented:?}");
    let within = after_run <= at_ready.max(1) * 2;
    println!(
        "RSS after the run ({} s after its last answer) within 2x of ready: {within}",
        SETTLED.as_secs()
    );
    let back_down = after_idle <= at_ready.max(1) * 2;
    println!("RSS after the idle spell within 2x of ready: {back_down}");
    Ok(i32::from(
        !(alive && failed.is_empty() && undocumented.is_empty() && within && back_down),
    ))
}

/// The spec documents 502/503 refusals of the broker (by code); any other 5xx is a defect.
fn is_undocumented_5xx(outcome: &str) -> bool {
    let status = outcome.split_whitespace().nth(1).unwrap_or("");
    status.starts_with('5')
        && ![
            "QUERYMESH_UNAVAILABLE",
            "QUERYMESH_IDENTITY_REJECTED",
            "QUERYMESH_QUERY_FAILED",
            "APPLICATION_IDENTITY_NOT_READY",
        ]
        .iter()
        .any(|code| outcome.ends_with(code))
}

fn start(binary: &str, log: Option<&str>) -> Result<(Child, Value), String> {
    let stderr = match log {
        Some(path) => std::fs::File::create(path)
            .map(Stdio::from)
            .map_err(|e| format!("--log {path}: {e}"))?,
        None => Stdio::null(),
    };
    let mut child = Command::new(binary)
        .args(["up", "--ready-json", "--no-open", "--ephemeral"])
        .args(["--edge-port", "0", "--broker-port", "0"])
        .args(["--iam-port", "0", "--querymesh-port", "0"])
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .map_err(|e| format!("cannot start {binary}: {e} (cargo build --release first)"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let ready = serde_json::from_str(&line).map_err(|e| format!("not a ready line: {e}"))?;
    Ok((child, ready))
}

fn report(tally: &Mutex<Tally>, pid: u32, started: Instant) {
    let Ok(mut tally) = tally.lock() else { return };
    let window = std::mem::take(&mut tally.window);
    let percentiles = |query: bool| {
        let mut took: Vec<_> = window
            .iter()
            .filter(|(q, _)| *q == query)
            .map(|(_, t)| *t)
            .collect();
        took.sort();
        match took.len() {
            0 => "-".to_string(),
            n => format!(
                "p50 {:.1} ms p99 {:.1} ms ({n})",
                ms(took[n / 2]),
                ms(took[(n * 99 / 100).min(n - 1)])
            ),
        }
    };
    println!(
        "[{:>4.0} s] RSS {} MiB{} | proxied {} | queries {} | {:?}",
        started.elapsed().as_secs_f64(),
        rss_kib(pid).unwrap_or(0) / 1024,
        where_resident(pid),
        percentiles(false),
        percentiles(true),
        tally.outcomes
    );
}

async fn client(
    i: usize,
    edge: &str,
    requests: usize,
    queries: usize,
    tally: &Mutex<Tally>,
) -> Result<(), String> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| e.to_string())?;
    let cookie = sign_in(&http, edge, &format!("soak-{i}")).await?;
    let (mut sent_requests, mut sent_queries) = (0, 0);
    while sent_requests < requests || sent_queries < queries {
        // Interleave: about one query every `requests / queries` proxied requests.
        let query_now = sent_queries < queries
            && (sent_requests >= requests || sent_queries * requests <= sent_requests * queries);
        let started = Instant::now();
        let outcome = if query_now {
            let body = QUERIES[(i + sent_queries) % QUERIES.len()];
            sent_queries += 1;
            let response = http
                .post(format!("{edge}/api/query"))
                .header("cookie", &cookie)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await;
            match response {
                Ok(r) => {
                    let status = r.status().as_u16();
                    let code = r
                        .json::<Value>()
                        .await
                        .ok()
                        .and_then(|v| v["code"].as_str().map(str::to_string))
                        .unwrap_or_default();
                    format!("query {status} {code}").trim_end().to_string()
                }
                Err(e) => format!("query error {}", kind(&e)),
            }
        } else {
            let path = if sent_requests % 2 == 0 {
                "/api/identity"
            } else {
                "/"
            };
            sent_requests += 1;
            match http
                .get(format!("{edge}{path}"))
                .header("cookie", &cookie)
                .send()
                .await
            {
                Ok(r) => {
                    let status = r.status().as_u16();
                    let _ = r.bytes().await;
                    format!("proxied {status}")
                }
                Err(e) => format!("proxied error {}", kind(&e)),
            }
        };
        if let Ok(mut tally) = tally.lock() {
            tally.record(query_now, outcome, started.elapsed());
        }
    }
    Ok(())
}

fn kind(e: &reqwest::Error) -> &'static str {
    if e.is_timeout() {
        "timeout"
    } else if e.is_connect() {
        "connect"
    } else {
        "other"
    }
}

/// The browser's five hops, as a custom person of the sign-in page; returns the edge cookie.
async fn sign_in(http: &reqwest::Client, edge: &str, sub: &str) -> Result<String, String> {
    let e = |what: &str| {
        let what = what.to_string();
        move |err: reqwest::Error| format!("{what}: {err}")
    };
    let login = http
        .get(format!("{edge}/.nnumbers/auth/login?return_to=/"))
        .send()
        .await
        .map_err(e("login"))?;
    let login_cookie = cookies(&login);
    let authorize = header(&login, "location")?;
    let page = http.get(&authorize).send().await.map_err(e("authorize"))?;
    let html = page.text().await.map_err(e("sign-in page"))?;
    let auth_request = html
        .split("name=\"auth_request\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .ok_or("no auth_request on the sign-in page")?
        .replace("&amp;", "&");
    let realm = authorize
        .split("/protocol/")
        .next()
        .ok_or("an authorization URL without /protocol/")?;
    let chosen = http
        .post(format!("{realm}/login-actions/authenticate"))
        .form(&[
            ("auth_request", auth_request.as_str()),
            ("custom", "1"),
            ("sub", sub),
            ("name", sub),
        ])
        .send()
        .await
        .map_err(e("sign-in form"))?;
    let callback = header(&chosen, "location")?;
    let done = http
        .get(&callback)
        .header("cookie", login_cookie)
        .send()
        .await
        .map_err(e("callback"))?;
    let cookie = cookies(&done);
    if !cookie.starts_with("__nnumbers_session=") {
        return Err(format!(
            "no session cookie after the callback ({})",
            done.status()
        ));
    }
    Ok(cookie)
}

fn header(response: &reqwest::Response, name: &str) -> Result<String, String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .ok_or(format!("{} without {name}", response.status()))
}

fn cookies(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok()?.split(';').next())
        .collect::<Vec<_>>()
        .join("; ")
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Where the resident memory lies, from `/proc/<pid>/smaps`: the main heap (glibc's main
/// arena), anonymous mappings (the other arenas, large malloc blocks, thread stacks) and
/// file-backed ones (the binary, libraries, SQLite files mapped).
fn where_resident(pid: u32) -> String {
    let Ok(smaps) = std::fs::read_to_string(format!("/proc/{pid}/smaps")) else {
        return String::new();
    };
    let (mut heap, mut anon, mut file) = (0u64, 0u64, 0u64);
    let mut kind = &mut anon;
    for line in smaps.lines() {
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        if first.contains('-') && !first.ends_with(':') {
            // A mapping's header: range, perms, offset, device, inode, then the path if any.
            kind = match words.nth(4) {
                Some("[heap]") => &mut heap,
                Some(path) if path.starts_with('/') => &mut file,
                _ => &mut anon,
            };
        } else if first == "Rss:" {
            *kind += words.next().and_then(|n| n.parse().ok()).unwrap_or(0);
        }
    }
    format!(
        " (heap {}, anon {}, files {})",
        heap / 1024,
        anon / 1024,
        file / 1024
    )
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
