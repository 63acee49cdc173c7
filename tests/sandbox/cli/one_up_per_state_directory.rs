//! One sandbox per state directory. Before, two `up` on one directory both started, and
//! stopping the second deleted the `running.json` of the first while it ran, so `token
//! --querymesh` named the wrong IAM and the first QueryMesh answered 401.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::binary;

/// Generous for a loaded 2-core CI machine; every wait ends as soon as its event comes.
const DEADLINE: Duration = Duration::from_secs(60);

/// `up` on `state` with every port picked at start, and its ready line.
fn up(state: &str) -> (Child, Value) {
    let mut child = Command::new(binary())
        .args(["up", "--ready-json", "--no-open", "--state", state])
        .args(["--edge-port", "0", "--broker-port", "0"])
        .args(["--iam-port", "0", "--querymesh-port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the ready line");
    let ready = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
    (child, ready)
}

/// Runs the binary to its end, failing the test if it takes past [`DEADLINE`].
fn finished(args: &[&str]) -> Output {
    let child = Command::new(binary())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let pid = child.id();
    let (done, out) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait_with_output());
    });
    match out.recv_timeout(DEADLINE) {
        Ok(output) => output.expect("waited"),
        Err(_) => {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            panic!(
                "`zero-sandbox {}` did not end within {DEADLINE:?}",
                args.join(" ")
            );
        }
    }
}

fn address(ready: &Value, component: &str) -> String {
    let url = ready[component].as_str().expect("a URL");
    url.trim_start_matches("http://").to_string()
}

fn recorded_pid(state: &std::path::Path) -> Option<u64> {
    let text = std::fs::read_to_string(state.join("running.json")).ok()?;
    serde_json::from_str::<Value>(&text).ok()?["pid"].as_u64()
}

#[test]
fn a_second_up_on_a_state_directory_is_refused_naming_the_first_and_leaves_its_record() {
    let state = tempfile::tempdir().unwrap();
    let state_arg = state.path().to_str().unwrap();
    let (mut first, ready) = up(state_arg);
    let pid = first.id();

    let ports = [
        "--edge-port",
        "0",
        "--broker-port",
        "0",
        "--iam-port",
        "0",
        "--querymesh-port",
        "0",
    ];
    for (command, after) in [("up", &["--no-open"][..]), ("run", &["--", "true"][..])] {
        let mut args = vec![command, "--state", state_arg];
        args.extend(ports);
        args.extend(after);
        let refused = finished(&args);
        assert_eq!(refused.status.code(), Some(2), "{command:?}");
        let error = String::from_utf8_lossy(&refused.stderr);
        let expected = format!(
            "zero-sandbox: error: another zero-sandbox is running on the state directory {} \
             (PID {pid}: edge {}, broker {}, IAM {}, QueryMesh {}): stop it, or start this one \
             on its own directory with --state DIR, or with --ephemeral\n",
            state.path().display(),
            address(&ready, "edge"),
            address(&ready, "broker"),
            address(&ready, "iam"),
            address(&ready, "querymesh"),
        );
        assert!(error.ends_with(&expected), "{command:?}: {error}");
        // The refused one took nothing away: the record is still the first's.
        assert_eq!(recorded_pid(state.path()), Some(u64::from(pid)));
    }
    let (ok, token, err) =
        super::run(&["token", "--as", "ada", "--querymesh", "--state", state_arg]);
    assert!(ok, "{err}");
    let claims = token.trim().split('.').nth(1).expect("a JWT");
    use base64::Engine;
    let claims: Value = serde_json::from_slice(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(claims)
            .expect("base64url"),
    )
    .expect("JSON");
    let iam = ready["iam"].as_str().unwrap();
    assert!(claims["iss"].as_str().unwrap().starts_with(iam), "{claims}");

    // `--ephemeral` uses no state directory, so it runs beside the first.
    let mut beside = Command::new(binary())
        .args(["up", "--ready-json", "--no-open", "--ephemeral"])
        .args(["--edge-port", "0", "--broker-port", "0"])
        .args(["--iam-port", "0", "--querymesh-port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let mut line = String::new();
    BufReader::new(beside.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with(r#"{"event":"ready""#), "{line}");
    let _ = beside.kill();
    let _ = beside.wait();
    assert_eq!(recorded_pid(state.path()), Some(u64::from(pid)));

    let _ = first.kill();
    let _ = first.wait();
}

/// The kernel lets go of the lock with the process, however it ends.
#[test]
fn after_the_first_up_is_killed_with_sigkill_a_new_one_starts() {
    let state = tempfile::tempdir().unwrap();
    let state_arg = state.path().to_str().unwrap();
    let (mut first, _) = up(state_arg);
    let first_pid = first.id();
    // SIGKILL: no cleanup runs, its `running.json` stays behind.
    first.kill().expect("killed");
    first.wait().expect("gone");
    assert_eq!(recorded_pid(state.path()), Some(u64::from(first_pid)));

    let started = Instant::now();
    let (mut second, ready) = up(state_arg);
    assert_eq!(ready["event"], "ready");
    assert!(started.elapsed() < DEADLINE);
    assert_eq!(recorded_pid(state.path()), Some(u64::from(second.id())));
    assert!(
        Command::new("kill")
            .args(["-TERM", &second.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    assert!(second.wait().unwrap().success());
    assert!(
        !state.path().join("running.json").exists(),
        "the record goes with the sandbox that wrote it"
    );
}
