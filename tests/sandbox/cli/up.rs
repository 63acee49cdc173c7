//! Starting: a busy port fails the start, two sandboxes run side by side, and the binary prints
//! one ready line and stops on SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use zero_sandbox::Sandbox;

use super::run;
use crate::support::{self, binary, test_config};

#[tokio::test]
async fn a_busy_port_fails_the_start_and_leaves_nothing_listening() {
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let edge_port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut config = test_config();
    config.ports.edge = edge_port; // bound before the QueryMesh listener fails
    config.ports.querymesh = busy.local_addr().unwrap().port();
    let error = Sandbox::start(config).await.err().expect("refused");
    let message = error.to_string();
    assert!(
        message.contains(&busy.local_addr().unwrap().port().to_string()),
        "{message}"
    );
    assert!(
        message.contains("another program uses this port"),
        "{message}"
    );
    std::net::TcpListener::bind(("127.0.0.1", edge_port)).expect("the edge port was released");
}

#[tokio::test]
async fn two_sandboxes_run_side_by_side() {
    let a = support::start().await;
    let b = support::start().await;
    assert_ne!(a.endpoints().edge, b.endpoints().edge);
    assert_ne!(a.env().identity_jwks, b.env().identity_jwks);
}

/// The real binary: one ready line once all listeners accept, the same env as `env`, and a
/// prompt exit on SIGTERM.
#[test]
fn binary_prints_one_ready_line_agreeing_with_env_and_stops_on_sigterm() {
    let state = tempfile::tempdir().unwrap();
    let state_path = state.path().to_str().unwrap();
    // `env` can only name the broker's port when it is fixed; reserve one for this test.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = state.path().join("zero-sandbox.toml");
    std::fs::write(
        &config,
        format!("[ports]\nedge = 0\nbroker = {port}\niam = 0\nquerymesh = 0\n"),
    )
    .unwrap();
    let config = config.to_str().unwrap();

    let mut child = Command::new(binary())
        .args([
            "up",
            "--ready-json",
            "--no-open",
            "--config",
            config,
            "--state",
            state_path,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let ready: Value = serde_json::from_str(&line).expect("one JSON line");
    assert_eq!(ready["event"], "ready");
    assert!(line.starts_with(r#"{"event":"ready","edge":"#), "{line}");
    for component in ["edge", "broker", "iam", "querymesh"] {
        let url = ready[component].as_str().unwrap();
        let addr = url.trim_start_matches("http://");
        std::net::TcpStream::connect(addr).expect("accepts once ready");
    }

    let (ok, env_out, err) = run(&[
        "env", "--format", "json", "--config", config, "--state", state_path,
    ]);
    assert!(ok, "{err}");
    let env: Value = serde_json::from_str(&env_out).unwrap();
    assert_eq!(ready["env"], env);

    let pid = child.id().to_string();
    let started = Instant::now();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert_eq!(rest, "", "exactly one line on stdout");
}
