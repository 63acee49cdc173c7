//! The edge against nginx: one tiny app (a minimal hyper server answering `hello`) behind each
//! target, loaded by wrk (1 thread, 16 connections) in the same run, side by side:
//!
//! - the app direct,
//! - nginx 1.x as a reverse proxy (one worker, keep-alive to the app),
//! - the same nginx doing the edge's header work for a signed-in request: the session cookie
//!   dropped, `X-Forwarded-For` / `-Proto` / `-Host` and `Via` set, and the same signed
//!   identity (a fixed string: nginx cannot sign) handed to the app. The app reads the same
//!   bytes behind it as behind the signed-in edge, so the two compare the proxies alone
//!   (plain nginx hands the app about 1 KB less per request, which the app, on the same
//!   cores, spends less time reading),
//! - the edge of the real binary (`zero-sandbox up`), anonymous,
//! - the edge with a signed-in person's cookie (a session from the test-control API's
//!   `POST /sandbox/v1/sessions`), so every request carries a signed identity to the app.
//!
//! The targets take turns, run after run, so a change in the machine's load falls on all of
//! them alike; each figure is the median of the runs. The goal (issues 17 and 31): the edge
//! signed in at ≥ 0.9× nginx's throughput, p99 ≤ 1 ms, and p50 at most 100 µs over the app
//! direct.
//!
//! `cargo bench --bench edge` (`EDGE_BENCH_RUNS`, `EDGE_BENCH_SECS` change the runs and their
//! length; `EDGE_BENCH_APP=nginx` puts the app in an nginx process of its own instead).
//! Without wrk it says how to install it and measures nothing; without nginx it skips the
//! nginx rows and says so. `apt-get install -y nginx wrk` brings both.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener as StdListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// One target's figures: medians over the runs.
#[derive(Clone, Debug)]
pub struct Row {
    pub target: String,
    pub requests_per_sec: f64,
    pub p50: Duration,
    pub p99: Duration,
    /// The proxy process's CPU time (user + system, from /proc) per request: robust to the
    /// machine's load, unlike req/s. Only for targets that are a process of their own (nginx,
    /// the edge) on Linux.
    pub cpu_per_request: Option<Duration>,
}

/// What one edge bench run measured: a row per target (`direct`, `nginx`, `anonymous`,
/// `signed in`, and with a baseline binary `baseline anonymous`, `baseline signed in`); a
/// target missing was skipped, with the reason in `notes`.
#[derive(Debug, Default)]
pub struct Report {
    pub rows: Vec<Row>,
    pub notes: Vec<String>,
}

impl Report {
    pub fn row(&self, target: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.target == target)
    }
}

#[derive(Clone, Debug)]
pub struct Settings {
    pub runs: usize,
    pub secs: u64,
    /// Another build of the binary (`EDGE_BENCH_BASELINE`), measured in the same run: an
    /// optimisation's before and after side by side.
    pub baseline: Option<String>,
    /// The app behind every target: the tiny hyper app on a thread of this process, or with
    /// `EDGE_BENCH_APP=nginx` an nginx process of its own (one worker, `return 200`), as the
    /// app of a side-by-side run in a process of its own.
    pub app_in_nginx: bool,
}

impl Settings {
    pub fn from_env() -> Self {
        let number = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        Self {
            runs: usize::try_from(number("EDGE_BENCH_RUNS", 5))
                .unwrap_or(5)
                .max(1),
            secs: number("EDGE_BENCH_SECS", 3).max(1),
            baseline: std::env::var("EDGE_BENCH_BASELINE").ok(),
            app_in_nginx: std::env::var("EDGE_BENCH_APP").is_ok_and(|app| app == "nginx"),
        }
    }
}

/// The sandbox binary this bench was built with (cargo builds it for benches).
pub const BINARY: &str = env!("CARGO_BIN_EXE_zero-sandbox");

/// The targets in the order of the table.
const TARGETS: [(&str, &str); 7] = [
    ("direct", "app direct"),
    ("nginx", "nginx reverse proxy (1 worker)"),
    (
        "nginx forwarding",
        "nginx forwarding as the edge does (identity, X-Forwarded-*, Via)",
    ),
    ("anonymous", "edge, anonymous"),
    ("signed in", "edge, signed in (identity injected)"),
    ("baseline anonymous", "baseline edge, anonymous"),
    ("baseline signed in", "baseline edge, signed in"),
];

#[allow(dead_code)]
fn main() {
    let report = measure(&Settings::from_env(), BINARY);
    for note in &report.notes {
        println!("note: {note}");
    }
    println!("{}", markdown(&report));
}

/// The table of [`Report`], goals beside the figures.
pub fn markdown(report: &Report) -> String {
    let mut out = String::from(
        "| target | req/s | p50 | p99 | ratio to nginx | ratio to nginx forwarding as the edge | added p50 over direct | CPU per request |\n|---|---|---|---|---|---|---|---|\n",
    );
    let nginx = report.row("nginx").map(|r| r.requests_per_sec);
    let forwarding = report.row("nginx forwarding").map(|r| r.requests_per_sec);
    let direct = report.row("direct").map(|r| r.p50);
    for (target, name) in TARGETS {
        let Some(row) = report.row(target) else {
            if !target.starts_with("baseline") {
                out.push_str(&format!("| {name} | skipped | | | | | | |\n"));
            }
            continue;
        };
        let ratio = |to: Option<f64>| {
            to.map_or("-".to_string(), |n| {
                format!("{:.2}×", row.requests_per_sec / n)
            })
        };
        let (ratio, to_forwarding) = (ratio(nginx), ratio(forwarding));
        let added = direct.map_or("-".into(), |d| {
            format!("{:.0} µs", micros(row.p50) - micros(d))
        });
        let cpu = row
            .cpu_per_request
            .map_or("-".into(), |c| format!("{:.1} µs", micros(c)));
        out.push_str(&format!(
            "| {name} | {:.0} | {:.0} µs | {:.0} µs | {ratio} | {to_forwarding} | {added} | {cpu} |\n",
            row.requests_per_sec,
            micros(row.p50),
            micros(row.p99),
        ));
    }
    out
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Runs the whole comparison. Never panics on a missing tool: it notes it and skips.
pub fn measure(settings: &Settings, binary: &str) -> Report {
    let mut report = Report::default();
    if !have("wrk") {
        report.notes.push(
            "wrk is not installed: `apt-get install -y wrk` (Debian/Ubuntu) or `brew install wrk`; \
             the edge comparison needs it and was not measured"
                .into(),
        );
        return report;
    }
    let app = if settings.app_in_nginx {
        if !have("nginx") {
            report.notes.push(
                "EDGE_BENCH_APP=nginx needs nginx: `apt-get install -y nginx`; nothing measured"
                    .into(),
            );
            return report;
        }
        match Nginx::start_app() {
            Ok(nginx) => App::Nginx(nginx),
            Err(e) => {
                report
                    .notes
                    .push(format!("the nginx app did not start: {e}"));
                return report;
            }
        }
    } else {
        App::Tiny(TinyApp::start())
    };
    let app_addr = app.addr();
    let app_url = format!("http://{app_addr}");

    let nginx = if have("nginx") {
        match Nginx::start_proxy(app_addr) {
            Ok(nginx) => Some(nginx),
            Err(e) => {
                report.notes.push(format!("nginx did not start: {e}"));
                None
            }
        }
    } else {
        report
            .notes
            .push("nginx is not installed: `apt-get install -y nginx`; its row is skipped".into());
        None
    };

    // (name, URL, cookie, the proxy's pid for its CPU time)
    let mut targets: Vec<(String, String, Option<String>, Option<u32>)> =
        vec![("direct".into(), format!("{app_url}/"), None, None)];
    if let Some(nginx) = &nginx {
        targets.push((
            "nginx".into(),
            format!("http://{}/", nginx.addr),
            None,
            Some(nginx.child.id()),
        ));
    }
    let mut sandboxes = Vec::new();
    let mut proxies = Vec::new();
    let binaries =
        std::iter::once(("", binary)).chain(settings.baseline.as_deref().map(|b| ("baseline ", b)));
    for (prefix, binary) in binaries {
        let sandbox = match SandboxProcess::start(binary, Some(&app_url)) {
            Ok(sandbox) => sandbox,
            Err(e) => {
                report
                    .notes
                    .push(format!("{prefix}sandbox did not start: {e}"));
                continue;
            }
        };
        let edge = sandbox.ready["edge"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let pid = Some(sandbox.pid());
        targets.push((format!("{prefix}anonymous"), format!("{edge}/"), None, pid));
        match signed_in(&sandbox) {
            Ok((cookie, identity)) => {
                if prefix.is_empty() && nginx.is_some() {
                    match Nginx::start_forwarding_proxy(app_addr, &identity) {
                        Ok(forwarding) => {
                            targets.push((
                                "nginx forwarding".into(),
                                format!("http://{}/", forwarding.addr),
                                Some(cookie.clone()),
                                Some(forwarding.child.id()),
                            ));
                            proxies.push(forwarding);
                        }
                        Err(e) => report
                            .notes
                            .push(format!("nginx forwarding as the edge did not start: {e}")),
                    }
                }
                targets.push((
                    format!("{prefix}signed in"),
                    format!("{edge}/"),
                    Some(cookie),
                    pid,
                ));
            }
            Err(e) => report.notes.push(format!(
                "{prefix}sandbox: no session for the signed-in row: {e}"
            )),
        }
        sandboxes.push(sandbox);
    }

    // A short warm-up each (connections, caches, the CPU's frequency), untimed.
    for (_, url, cookie, _) in &targets {
        let _ = wrk(url, cookie.as_deref(), 1, None);
    }
    let mut runs: Vec<Vec<Run>> = vec![Vec::new(); targets.len()];
    for _ in 0..settings.runs {
        for (i, (name, url, cookie, pid)) in targets.iter().enumerate() {
            match wrk(url, cookie.as_deref(), settings.secs, *pid) {
                Ok(run) => runs[i].push(run),
                Err(e) => report.notes.push(format!("{name}: {e}")),
            }
        }
    }
    for ((name, _, _, _), runs) in targets.iter().zip(runs) {
        report.rows.extend(median_row(name, runs));
    }
    drop(sandboxes);
    drop(proxies);
    report
}

/// A signed-in session of the bench's person: its `Cookie` pair and the identity the edge
/// hands the app for it.
fn signed_in(sandbox: &SandboxProcess) -> Result<(String, String), String> {
    let session = sandbox.session("ada")?;
    let cookie = session["cookie"]["header"]
        .as_str()
        .ok_or("no cookie in the answer")?;
    let identity = session["identity"]
        .as_str()
        .ok_or("no identity in the answer")?;
    Ok((cookie.to_string(), identity.to_string()))
}

#[derive(Clone, Debug)]
struct Run {
    requests_per_sec: f64,
    p50: Duration,
    p99: Duration,
    cpu_per_request: Option<Duration>,
}

fn median_row(target: &str, runs: Vec<Run>) -> Option<Row> {
    if runs.is_empty() {
        return None;
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    Some(Row {
        target: target.to_string(),
        requests_per_sec: median(runs.iter().map(|r| r.requests_per_sec).collect()),
        p50: Duration::from_secs_f64(median(runs.iter().map(|r| r.p50.as_secs_f64()).collect())),
        p99: Duration::from_secs_f64(median(runs.iter().map(|r| r.p99.as_secs_f64()).collect())),
        cpu_per_request: runs
            .iter()
            .map(|r| r.cpu_per_request.map(|c| c.as_secs_f64()))
            .collect::<Option<Vec<f64>>>()
            .map(|cpu| Duration::from_secs_f64(median(cpu))),
    })
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("-v")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// One wrk run: 1 thread, 16 connections, `secs` seconds; a non-2xx answer fails the run.
/// With `pid`, that process's CPU time over the run is divided by the requests wrk counted.
fn wrk(url: &str, cookie: Option<&str>, secs: u64, pid: Option<u32>) -> Result<Run, String> {
    let mut command = Command::new("wrk");
    command.args(["-t1", "-c16", "--latency", "-d"]);
    command.arg(format!("{secs}s"));
    if let Some(cookie) = cookie {
        command.arg("-H").arg(format!("Cookie: {cookie}"));
    }
    let cpu_before = pid.and_then(cpu_time);
    let output = command.arg(url).output().map_err(|e| format!("wrk: {e}"))?;
    let cpu_after = pid.and_then(cpu_time);
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(format!("wrk failed: {text}"));
    }
    if let Some(line) = text.lines().find(|l| l.contains("Non-2xx")) {
        return Err(format!("wrk saw errors: {}", line.trim()));
    }
    let field = |prefix: &str| {
        text.lines()
            .map(str::trim)
            .find(|l| l.starts_with(prefix))
            .and_then(|l| l.split_whitespace().nth(1))
            .map(str::to_string)
            .ok_or_else(|| format!("no `{prefix}` in wrk's output: {text}"))
    };
    // "  123456 requests in 3.00s, 12.34MB read"
    let requests = text
        .lines()
        .find(|l| l.contains(" requests in "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|&n| n > 0);
    let cpu_per_request = match (cpu_before, cpu_after, requests) {
        (Some(before), Some(after), Some(requests)) => {
            after.checked_sub(before).map(|d| d / requests)
        }
        _ => None,
    };
    Ok(Run {
        requests_per_sec: field("Requests/sec:")?
            .parse()
            .map_err(|e| format!("Requests/sec: {e}"))?,
        p50: wrk_duration(&field("50%")?)?,
        p99: wrk_duration(&field("99%")?)?,
        cpu_per_request,
    })
}

/// A process's CPU time so far, user plus system (Linux's /proc/PID/stat, fields 14 and 15,
/// in clock ticks of 1/100 s: `CLK_TCK` is 100 on every Linux this runs on).
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; the fields after its ')' are plain.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

/// wrk's `71.00us`, `1.23ms`, `2.00s`.
fn wrk_duration(text: &str) -> Result<Duration, String> {
    let split = text
        .find(|c: char| c.is_ascii_alphabetic())
        .ok_or_else(|| format!("no unit in {text}"))?;
    let (number, unit) = text.split_at(split);
    let number: f64 = number.parse().map_err(|e| format!("{text}: {e}"))?;
    let secs = match unit {
        "us" => number / 1e6,
        "ms" => number / 1e3,
        "s" => number,
        "m" => number * 60.0,
        _ => return Err(format!("unknown unit in {text}")),
    };
    Ok(Duration::from_secs_f64(secs))
}

/// The app behind every target: `hello` to any request, keep-alive, on its own thread with a
/// one-thread runtime (one core at most, as nginx's one worker).
pub struct TinyApp {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TinyApp {
    pub fn start() -> Self {
        let listener = StdListener::bind("127.0.0.1:0").expect("binds a loopback port");
        listener.set_nonblocking(true).expect("non-blocking");
        let addr = listener.local_addr().expect("its address");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
                let serve = async {
                    loop {
                        let Ok((tcp, _)) = listener.accept().await else {
                            continue;
                        };
                        let _ = tcp.set_nodelay(true);
                        tokio::spawn(async move {
                            let service = hyper::service::service_fn(|_request| async {
                                let mut response = hyper::Response::new(http_body_util::Full::new(
                                    bytes::Bytes::from_static(b"hello"),
                                ));
                                response.headers_mut().insert(
                                    hyper::header::CONTENT_TYPE,
                                    hyper::header::HeaderValue::from_static("text/plain"),
                                );
                                Ok::<_, std::convert::Infallible>(response)
                            });
                            let _ = hyper::server::conn::http1::Builder::new()
                                .serve_connection(hyper_util::rt::TokioIo::new(tcp), service)
                                .await;
                        });
                    }
                };
                tokio::select! {
                    () = serve => {}
                    _ = stopped => {}
                }
            });
        });
        Self {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for TinyApp {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A loopback port free a moment ago: nginx needs its port in its configuration file.
fn free_port() -> Result<u16, String> {
    let listener = StdListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}

/// The app of a run: the tiny one on a thread, or nginx in a process of its own.
enum App {
    Tiny(TinyApp),
    Nginx(Nginx),
}

impl App {
    fn addr(&self) -> SocketAddr {
        match self {
            Self::Tiny(app) => app.addr,
            Self::Nginx(app) => app.addr,
        }
    }
}

/// nginx as a child process, one worker, its files in a temporary directory: the reverse
/// proxy (keep-alive to the app) or the app itself.
struct Nginx {
    addr: SocketAddr,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Nginx {
    /// The reverse proxy in front of `app`. Upstream keep-alive needs HTTP/1.1 and an empty
    /// Connection header (nginx's own docs for `keepalive`).
    fn start_proxy(app: SocketAddr) -> Result<Self, String> {
        Self::start(&format!(
            "upstream app {{ server {app}; keepalive 32; keepalive_requests 1000000; }}\n\
             server {{\n    listen 127.0.0.1:{{port}};\n    location / {{\n\
             proxy_pass http://app;\n      proxy_http_version 1.1;\n\
             proxy_set_header Connection \"\";\n    }}\n  }}\n"
        ))
    }

    /// The reverse proxy doing the edge's header work for a signed-in request (the spec's
    /// "The edge" section): the browser's cookie not forwarded, the forwarded-for, -proto and
    /// -host set, `Via` added, and `identity` (a compact JWS: base64url and dots, nothing
    /// nginx's configuration syntax would read) in `X-NNumbers-Identity`.
    fn start_forwarding_proxy(app: SocketAddr, identity: &str) -> Result<Self, String> {
        if !identity
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        {
            return Err("the identity is not a compact JWS".into());
        }
        Self::start(&format!(
            "upstream app {{ server {app}; keepalive 32; keepalive_requests 1000000; }}\n\
             server {{\n    listen 127.0.0.1:{{port}};\n    location / {{\n\
             proxy_pass http://app;\n      proxy_http_version 1.1;\n\
             proxy_set_header Connection \"\";\n      proxy_set_header Cookie \"\";\n\
             proxy_set_header X-Forwarded-For $remote_addr;\n\
             proxy_set_header X-Forwarded-Proto $scheme;\n\
             proxy_set_header X-Forwarded-Host $http_host;\n\
             proxy_set_header Via \"1.1 zero-sandbox-0123456789abcdef\";\n\
             proxy_set_header X-NNumbers-Identity \"{identity}\";\n    }}\n  }}\n"
        ))
    }

    /// The app: `hello` to any request, as the tiny app answers.
    fn start_app() -> Result<Self, String> {
        Self::start(
            "server {\n    listen 127.0.0.1:{port};\n    default_type text/plain;\n\
             location / { return 200 \"hello\"; }\n  }\n",
        )
    }

    /// nginx with `server` (its `{port}` replaced by a free port) in its `http` block.
    fn start(server: &str) -> Result<Self, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let port = free_port()?;
        let prefix = dir.path().display();
        let server = server.replace("{port}", &port.to_string());
        // `master_process off`: the one process is the one worker (no privilege drop, so it
        // runs as root or not alike). `keepalive_requests` lifts nginx's default of closing
        // a connection after 1,000 requests, on every side, as the edge never does.
        let config = format!(
            "daemon off;\nmaster_process off;\nworker_processes 1;\npid {prefix}/nginx.pid;\n\
             error_log {prefix}/error.log warn;\nevents {{ worker_connections 1024; }}\n\
             http {{\n  access_log off;\n  keepalive_requests 1000000;\n  client_body_temp_path {prefix}/body;\n\
             proxy_temp_path {prefix}/proxy;\n  fastcgi_temp_path {prefix}/fastcgi;\n\
             uwsgi_temp_path {prefix}/uwsgi;\n  scgi_temp_path {prefix}/scgi;\n{server}}}\n"
        );
        let conf = dir.path().join("nginx.conf");
        std::fs::write(&conf, config).map_err(|e| e.to_string())?;
        let child = Command::new("nginx")
            .arg("-p")
            .arg(dir.path())
            .arg("-e")
            .arg(dir.path().join("error.log"))
            .arg("-c")
            .arg(&conf)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("nginx: {e}"))?;
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let mut nginx = Self {
            addr,
            child,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(addr).is_err() {
            if let Ok(Some(status)) = nginx.child.try_wait() {
                let log = std::fs::read_to_string(nginx._dir.path().join("error.log"))
                    .unwrap_or_default();
                return Err(format!("nginx exited ({status}): {log}"));
            }
            if Instant::now() > deadline {
                return Err("nginx did not listen within 10 s".into());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(nginx)
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `zero-sandbox up` as a child process on ports it picks, until dropped.
pub struct SandboxProcess {
    child: Child,
    /// Its `--ready-json` line.
    pub ready: Value,
    /// From spawning to the ready line.
    pub start_to_ready: Duration,
}

impl SandboxProcess {
    pub fn start(binary: &str, app: Option<&str>) -> Result<Self, String> {
        if !Path::new(binary).exists() {
            return Err(format!("{binary} is not built"));
        }
        let mut command = Command::new(binary);
        command
            .args(["up", "--ready-json", "--no-open", "--ephemeral"])
            .args(["--edge-port", "0", "--broker-port", "0"])
            .args(["--iam-port", "0", "--querymesh-port", "0"]);
        if let Some(app) = app {
            command.args(["--app", app]);
        }
        let started = Instant::now();
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {binary}: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        let start_to_ready = started.elapsed();
        let ready = serde_json::from_str(&line).map_err(|e| format!("not a ready line: {e}"))?;
        Ok(Self {
            child,
            ready,
            start_to_ready,
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Resident memory (`VmRSS`) now, in KiB (Linux).
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// `POST /sandbox/v1/sessions` {person}: the control API's answer.
    pub fn session(&self, person: &str) -> Result<Value, String> {
        self.post_session(serde_json::json!({ "person": person }))
    }

    /// `POST /sandbox/v1/sessions` {claims}: a session of an ad-hoc person.
    pub fn session_of(&self, claims: &Value) -> Result<Value, String> {
        self.post_session(serde_json::json!({ "claims": claims }))
    }

    fn post_session(&self, body: Value) -> Result<Value, String> {
        let control = self.ready["control"].as_str().ok_or("no control URL")?;
        let url = format!("{control}/sessions");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async {
            let answer = reqwest::Client::new()
                .post(url)
                .json(&body)
                .send()
                .await
                .map_err(|e| e.to_string())?;
            if !answer.status().is_success() {
                return Err(format!("POST sessions: {}", answer.status()));
            }
            answer.json::<Value>().await.map_err(|e| e.to_string())
        })
    }
}

impl Drop for SandboxProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
