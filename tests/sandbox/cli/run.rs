//! `run -- CMD`: the app as a real child process (tests/js/run_app.mjs, or sh) gets exactly
//! the environment `env` describes plus PORT, sits behind the edge, has its output prefixed,
//! stops on the signals `run` is sent, and decides `run`'s exit status.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::binary;

/// Generous for a loaded 2-core CI machine; every wait below ends as soon as its event comes.
const DEADLINE: Duration = Duration::from_secs(30);

const APP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/js/run_app.mjs");

/// `run` on ports it picks and in-memory keys, with `extra` before `--` and `app` after it.
fn spawn_run(extra: &[&str], app: &[&str]) -> Child {
    Command::new(binary())
        .args(["run", "--no-open", "--ephemeral"])
        .args(["--edge-port", "0", "--broker-port", "0"])
        .args(["--iam-port", "0", "--querymesh-port", "0"])
        .args(extra)
        .arg("--")
        .args(app)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Everything `run` writes to stdout, read on a thread: (lines so far as they come, all bytes
/// once it closes).
fn read_stdout(stdout: ChildStdout) -> (mpsc::Receiver<String>, mpsc::Receiver<Vec<u8>>) {
    read_lines(stdout)
}

/// [`read_stdout`] for any pipe.
fn read_lines(
    stdout: impl Read + Send + 'static,
) -> (mpsc::Receiver<String>, mpsc::Receiver<Vec<u8>>) {
    let (lines_tx, lines) = mpsc::channel();
    let (all_tx, all) = mpsc::channel();
    std::thread::spawn(move || {
        let mut stdout = stdout;
        let mut bytes = Vec::new();
        let mut chunk = [0u8; 4096];
        let mut start = 0;
        while let Ok(n) = stdout.read(&mut chunk) {
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&chunk[..n]);
            while let Some(end) = bytes[start..].iter().position(|&b| b == b'\n') {
                let line = String::from_utf8_lossy(&bytes[start..start + end]).into_owned();
                let _ = lines_tx.send(line);
                start += end + 1;
            }
        }
        let _ = all_tx.send(bytes);
    });
    (lines, all)
}

/// The `--ready-json` line, which `run` prints once the app accepts.
fn ready_line(lines: &mpsc::Receiver<String>) -> Value {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = lines.recv_timeout(left).expect("a ready line in time");
        if line.starts_with(r#"{"event":"ready""#) {
            return serde_json::from_str(&line).expect("the ready line is JSON");
        }
    }
}

fn wait(child: &mut Child, within: Duration) -> ExitStatus {
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            return status;
        }
        assert!(
            Instant::now() < deadline,
            "`run` did not exit within {within:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn signal(child: &Child, name: &str) {
    let pid = child.id().to_string();
    let sent = Command::new("kill")
        .args([name, &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

/// GET / on `url` (http://127.0.0.1:…) over a plain socket: the whole response.
fn get(url: &str) -> String {
    let addr = url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).expect("the edge accepts");
    stream.set_read_timeout(Some(DEADLINE)).unwrap();
    write!(
        stream,
        "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

fn stderr_of(child: &mut Child) -> String {
    let mut text = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut text);
    }
    text
}

/// The app gets what `env` would print for this sandbox and PORT, the edge forwards to it,
/// its output arrives prefixed (a partial line and a non-UTF-8 byte included, no ANSI when
/// redirected), and SIGTERM to `run` reaches the app, which exits 0, and so does `run`.
#[test]
fn run_hands_the_app_its_environment_and_stops_it_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let env_file = dir.path().join("env.json");
    let mut run = spawn_run(
        &["--ready-json"],
        &["node", APP, env_file.to_str().unwrap()],
    );
    let (lines, all) = read_stdout(run.stdout.take().unwrap());
    let ready = ready_line(&lines);

    let given: Value =
        serde_json::from_slice(&std::fs::read(&env_file).expect("the app wrote its env")).unwrap();
    let port: u16 = given["PORT"]
        .as_str()
        .unwrap()
        .parse()
        .expect("PORT is a port");
    let mut nnumbers = given.as_object().unwrap().clone();
    nnumbers.remove("PORT");
    assert_eq!(
        Value::Object(nnumbers),
        ready["env"],
        "exactly the env of the ready line"
    );
    let response = get(ready["edge"].as_str().unwrap());
    assert!(response.ends_with("hello from the app"), "{response}");
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_ok(),
        "the app is on PORT"
    );

    let started = Instant::now();
    signal(&run, "-TERM");
    let status = wait(&mut run, DEADLINE);
    let stderr = stderr_of(&mut run);
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let stdout = all.recv_timeout(DEADLINE).unwrap();
    let has = |needle: &[u8]| stdout.windows(needle.len()).any(|w| w == needle);
    assert!(
        has(b"app     | partial\xff\n"),
        "{}",
        String::from_utf8_lossy(&stdout)
    );
    assert!(
        has(b"app     | got SIGTERM\n"),
        "{}",
        String::from_utf8_lossy(&stdout)
    );
    assert!(!stdout.contains(&0x1b), "no ANSI when redirected");
    assert!(stderr.contains("app     | to stderr\n"), "{stderr}");
    assert!(stderr.contains("sandbox | "), "{stderr}");
    assert!(!stderr.contains('\x1b'), "no ANSI when redirected");
    assert!(
        TcpStream::connect(
            ready["edge"]
                .as_str()
                .unwrap()
                .trim_start_matches("http://")
        )
        .is_err(),
        "the sandbox stopped with the app"
    );
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "the app stopped"
    );
}

/// Ctrl-C reaches the app, which dies of it (Node's default), and `run` says so the shell's
/// way: 128 + SIGINT. `--app-port` is the PORT the app gets.
#[test]
fn run_forwards_ctrl_c_and_exits_as_the_app_did() {
    let dir = tempfile::tempdir().unwrap();
    let env_file = dir.path().join("env.json");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let mut run = spawn_run(
        &["--ready-json", "--app-port", &port],
        &["node", APP, env_file.to_str().unwrap()],
    );
    let (lines, _all) = read_stdout(run.stdout.take().unwrap());
    let ready = ready_line(&lines);
    let given: Value = serde_json::from_slice(&std::fs::read(&env_file).unwrap()).unwrap();
    assert_eq!(given["PORT"], port.as_str());
    signal(&run, "-INT");
    let status = wait(&mut run, DEADLINE);
    assert_eq!(status.code(), Some(130), "{}", stderr_of(&mut run));
    assert!(
        TcpStream::connect(
            ready["edge"]
                .as_str()
                .unwrap()
                .trim_start_matches("http://")
        )
        .is_err(),
        "the sandbox stopped with the app"
    );
}

/// What the app started (here a shell that starts node and waits) stops with it: the signal
/// goes to the app's whole process group.
#[test]
fn run_stops_what_the_app_started_too() {
    let dir = tempfile::tempdir().unwrap();
    let env_file = dir.path().join("env.json");
    let script = format!("node '{APP}' '{}'; echo after", env_file.display());
    let mut run = spawn_run(&["--ready-json"], &["sh", "-c", &script]);
    let (lines, all) = read_stdout(run.stdout.take().unwrap());
    ready_line(&lines);
    let given: Value = serde_json::from_slice(&std::fs::read(&env_file).unwrap()).unwrap();
    let port: u16 = given["PORT"].as_str().unwrap().parse().unwrap();
    signal(&run, "-TERM");
    wait(&mut run, DEADLINE);
    let stdout = String::from_utf8_lossy(&all.recv_timeout(DEADLINE).unwrap()).into_owned();
    assert!(
        stdout.contains("app     | got SIGTERM"),
        "node got it: {stdout}"
    );
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "node stopped"
    );
}

/// An app that ignores SIGTERM is killed once `--stop-timeout` has passed: bounded, never a
/// hang.
#[test]
fn an_app_that_ignores_sigterm_is_killed_after_the_stop_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let env_file = dir.path().join("env.json");
    let mut run = spawn_run(
        &["--ready-json", "--stop-timeout", "1"],
        &["node", APP, env_file.to_str().unwrap(), "ignore-term"],
    );
    let (lines, _all) = read_stdout(run.stdout.take().unwrap());
    ready_line(&lines);
    let started = Instant::now();
    signal(&run, "-TERM");
    let status = wait(&mut run, DEADLINE);
    assert_eq!(
        status.code(),
        Some(128 + 9),
        "killed: {}",
        stderr_of(&mut run)
    );
    let took = started.elapsed();
    assert!(
        took >= Duration::from_secs(1),
        "waited the timeout first: {took:?}"
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
}

/// When the app exits by itself, `run` stops the sandbox and exits with the app's status (a
/// signal's as 128 + n), even if the app never listened.
#[test]
fn run_exits_with_the_apps_own_status() {
    let mut run = spawn_run(&[], &["sh", "-c", "echo bye; exit 3"]);
    let (_lines, all) = read_stdout(run.stdout.take().unwrap());
    let status = wait(&mut run, DEADLINE);
    assert_eq!(status.code(), Some(3), "{}", stderr_of(&mut run));
    let stdout = String::from_utf8_lossy(&all.recv_timeout(DEADLINE).unwrap()).into_owned();
    assert!(stdout.contains("app     | bye\n"), "{stdout}");
    assert!(
        stdout.contains("sandbox |   Your app (edge)"),
        "the banner: {stdout}"
    );

    let mut run = spawn_run(&[], &["sh", "-c", "kill -TERM $$"]);
    let status = wait(&mut run, DEADLINE);
    assert_eq!(status.code(), Some(128 + 15), "{}", stderr_of(&mut run));
}

/// A command that does not exist is a clear error and a non-zero exit, not a hang; so is
/// `--app`, which `run` sets itself.
#[test]
fn run_refuses_a_missing_command_clearly() {
    let mut run = spawn_run(&[], &["/nonexistent/the-app", "--flag"]);
    let status = wait(&mut run, DEADLINE);
    let stderr = stderr_of(&mut run);
    assert!(!status.success());
    assert!(
        stderr.contains("cannot start the app `/nonexistent/the-app`") && stderr.contains("PATH"),
        "{stderr}"
    );

    let mut run = spawn_run(&["--app", "http://127.0.0.1:9"], &["true"]);
    let status = wait(&mut run, DEADLINE);
    let stderr = stderr_of(&mut run);
    assert!(!status.success());
    assert!(stderr.contains("leave out --app"), "{stderr}");
}

/// With `--ready-json` the ready line is stdout's first line even when the app writes to
/// stdout before it listens: that output is held and follows the ready line, in order.
#[test]
fn the_ready_line_comes_first_even_when_the_app_writes_before_it_listens() {
    let dir = tempfile::tempdir().unwrap();
    let env_file = dir.path().join("env.json");
    let script = format!(
        "echo early one; printf 'early '; echo two; exec node '{APP}' '{}'",
        env_file.display()
    );
    let mut run = spawn_run(&["--ready-json"], &["sh", "-c", &script]);
    let (lines, all) = read_stdout(run.stdout.take().unwrap());
    let first = lines.recv_timeout(DEADLINE).expect("a first line");
    let ready: Value = serde_json::from_str(&first).expect("the first line is the ready line");
    assert_eq!(ready["event"], "ready");
    for expected in ["app     | early one", "app     | early two"] {
        assert_eq!(lines.recv_timeout(DEADLINE).unwrap(), expected);
    }
    // Output after the ready line flows as before.
    assert!(get(ready["edge"].as_str().unwrap()).ends_with("hello from the app"));
    signal(&run, "-TERM");
    let status = wait(&mut run, DEADLINE);
    assert_eq!(status.code(), Some(0), "{}", stderr_of(&mut run));
    let stdout = String::from_utf8_lossy(&all.recv_timeout(DEADLINE).unwrap()).into_owned();
    assert!(stdout.contains("app     | got SIGTERM\n"), "{stdout}");
}

/// An app that never listens on PORT is not waited for silently: after the (here shortened)
/// delay `run` says on stderr which port it waits on and that the app must listen on PORT.
#[test]
fn an_app_that_never_listens_is_told_to_listen_on_port() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
        .to_string();
    let mut run = spawn_run(
        &[
            "--ready-json",
            "--app-port",
            &port,
            "--slow-start-hint-ms",
            "50",
        ],
        &["sh", "-c", "echo not listening; exec sleep 600"],
    );
    let (_out_lines, out_all) = read_stdout(run.stdout.take().unwrap());
    let (err_lines, _err_all) = read_lines(run.stderr.take().unwrap());
    let deadline = Instant::now() + DEADLINE;
    let mut seen = Vec::new();
    let hint = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(line) = err_lines.recv_timeout(left) else {
            panic!("no hint in time: {seen:#?}");
        };
        if line.contains("still waiting for the app") {
            let next = err_lines.recv_timeout(DEADLINE).unwrap();
            break format!("{line}\n{next}");
        }
        seen.push(line);
    };
    assert!(
        hint.contains(&format!("127.0.0.1:{port}")) && hint.contains(&format!("PORT={port}")),
        "{hint}"
    );
    assert!(
        hint.contains("must listen on the port in its PORT environment variable"),
        "{hint}"
    );
    assert!(hint.starts_with("sandbox | "), "{hint}");
    signal(&run, "-TERM");
    let status = wait(&mut run, DEADLINE);
    assert_eq!(status.code(), Some(128 + 15));
    let stdout = String::from_utf8_lossy(&out_all.recv_timeout(DEADLINE).unwrap()).into_owned();
    assert_eq!(
        stdout, "app     | not listening\n",
        "no ready line, and the held output is not lost"
    );
}
