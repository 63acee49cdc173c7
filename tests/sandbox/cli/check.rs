//! `check --app URL`: a careless app (decodes the identity without verifying it) is flagged
//! probe by probe, a correct one (tests/js/identity_app.mjs, verifying with Node's own crypto)
//! passes with the strict verifier's warnings, a path that queries the broker is audited with a
//! live session of the running sandbox, and whatever stops the audit — what cannot be judged, a
//! usage error — says so with exit status 2.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

use super::run as run_binary;
use crate::support::binary;

const APP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/js/identity_app.mjs");
const DEADLINE: Duration = Duration::from_secs(30);

/// Every forgery `check` sends, as its table names them.
const FORGERIES: [&str; 10] = [
    "unsigned (spoofed)",
    "expired",
    "not yet valid",
    "other aud",
    "other org",
    "other iss",
    "unknown kid",
    "bad signature",
    "alg none",
    "rotated-out key",
];

/// The probes a strict verifier refuses and the spec's five checks do not: warnings only.
const STRICT: [&str; 3] = ["crit header", "long-lived", "high-S signature"];

/// The test app in `mode`, started with the `env` of the state directory `state`; killed on
/// drop.
struct TestApp {
    child: Child,
    url: String,
}

impl TestApp {
    fn start(mode: &str, state: &str) -> Self {
        let (ok, out, err) = run_binary(&["env", "--format", "json", "--state", state]);
        assert!(ok, "{err}");
        let env: Value = serde_json::from_str(&out).unwrap();
        let mut command = Command::new("node");
        command.arg(APP).arg(mode).env_remove("PORT");
        for (key, value) in env.as_object().unwrap() {
            command.env(key, value.as_str().unwrap());
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node runs (install Node.js)");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(DEADLINE).expect("the app starts in time");
        let port = line
            .trim()
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("not a port: {line:?}"));
        Self {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `check` with `args`: (exit code, stdout, stderr).
fn check(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(binary())
        .arg("check")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The table's verdict for `probe`.
fn verdict<'a>(table: &'a str, probe: &str) -> &'a str {
    table
        .lines()
        .find(|line| line.starts_with(&format!("{probe}  ")))
        .unwrap_or_else(|| panic!("no row for {probe:?} in\n{table}"))
}

#[test]
fn check_flags_every_forgery_an_app_that_does_not_verify_takes_for_a_person() {
    let state = tempfile::tempdir().unwrap();
    let state_arg = state.path().to_str().unwrap();
    // A key this state directory rotated out, past its grace: written the way a rotation
    // leaves it (another directory's key, retired long ago).
    let other = tempfile::tempdir().unwrap();
    let (ok, _, err) = run_binary(&["env", "--state", other.path().to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, _, err) = run_binary(&["env", "--state", state_arg]);
    assert!(ok, "{err}");
    let read = |dir: &std::path::Path| -> Value {
        serde_json::from_slice(&std::fs::read(dir.join("identity-keys.json")).unwrap()).unwrap()
    };
    let mut keys = read(state.path());
    keys["retired"] = serde_json::json!([{ "secret": read(other.path())["current"], "until": 1 }]);
    std::fs::write(state.path().join("identity-keys.json"), keys.to_string()).unwrap();

    let app = TestApp::start("careless", state_arg);
    let (code, out, err) = check(&["--app", &app.url, "--state", state_arg]);
    assert_eq!(code, Some(1), "{out}{err}");
    for probe in FORGERIES {
        assert!(
            verdict(&out, probe).contains("TREATED AS A PERSON"),
            "{probe}:\n{out}"
        );
    }
    assert!(verdict(&out, "rotated-out key").contains("a key this state directory rotated out"));
    assert!(
        verdict(&out, "valid identity").contains("names them"),
        "the careless app echoes the sub: {out}"
    );
    assert!(
        out.contains("10 of 10 forgeries were treated as a person"),
        "{out}"
    );
    for probe in STRICT {
        assert!(
            verdict(&out, probe).contains("accepted (warning"),
            "{probe}:\n{out}"
        );
    }
}

#[test]
fn check_passes_an_app_that_verifies_the_identity() {
    let state = tempfile::tempdir().unwrap();
    let state_arg = state.path().to_str().unwrap();
    let app = TestApp::start("correct", state_arg);
    let (code, out, err) = check(&["--app", &app.url, "--state", state_arg, "--as", "grace"]);
    assert_eq!(code, Some(0), "{out}{err}");
    for probe in FORGERIES {
        let row = verdict(&out, probe);
        assert!(
            row.contains("401") && row.contains("refused"),
            "{probe}:\n{out}"
        );
    }
    assert!(out.contains("No forgery was treated as a person"), "{out}");
    // Node's crypto, like PyJWT and Go's standard library, accepts what only a strict verifier
    // refuses: each is a warning, and the exit status stays 0.
    for probe in STRICT {
        assert!(
            verdict(&out, probe).contains("accepted (warning: a strict verifier refuses it)"),
            "{probe}:\n{out}"
        );
    }
    assert!(
        out.contains("Warning (strict-verifier findings, not failures): the app accepted crit header, long-lived, high-S signature"),
        "{out}"
    );
}

/// Exit status 2, each with its reason: an app that answers everyone alike at that path, an
/// app that trusts other keys, no app at all, keys no app can trust, a URL that is not one.
#[test]
fn check_says_when_it_cannot_judge() {
    let state = tempfile::tempdir().unwrap();
    let state_arg = state.path().to_str().unwrap();
    let app = TestApp::start("correct", state_arg);

    let (code, _, err) = check(&["--app", &app.url, "--path", "/health", "--state", state_arg]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("cannot judge") && err.contains("--path"),
        "{err}"
    );

    let elsewhere = tempfile::tempdir().unwrap();
    let (code, _, err) = check(&[
        "--app",
        &app.url,
        "--state",
        elsewhere.path().to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("answered 401") && err.contains("trust"),
        "{err}"
    );

    let gone = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let (code, _, err) = check(&[
        "--app",
        &format!("http://127.0.0.1:{gone}"),
        "--state",
        state_arg,
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot reach the app"), "{err}");

    let (code, _, err) = check(&["--app", &app.url, "--ephemeral"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--ephemeral"), "{err}");

    let (code, _, err) = check(&["--app", "127.0.0.1:3000", "--state", state_arg]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("http://"), "{err}");
}

/// Issue 30: exit status 1 is the finding alone (a forgery treated as a person); a usage
/// error — an unknown --as, a --config that is not there, an --app that is not a URL — is 2.
#[test]
fn check_exits_2_on_usage_errors() {
    let state = tempfile::tempdir().unwrap();
    let state_arg = state.path().to_str().unwrap();
    let missing = state.path().join("nowhere.toml");
    for (args, says) in [
        (
            vec![
                "--app",
                "http://127.0.0.1:9",
                "--as",
                "nobody",
                "--state",
                state_arg,
            ],
            "nobody",
        ),
        (
            vec![
                "--app",
                "http://127.0.0.1:9",
                "--config",
                missing.to_str().unwrap(),
                "--state",
                state_arg,
            ],
            "nowhere.toml",
        ),
        (
            vec!["--app", "127.0.0.1:9", "--state", state_arg],
            "http://",
        ),
    ] {
        let (code, out, err) = check(&args);
        assert_eq!(code, Some(2), "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// Issue 30: a path that forwards to the broker could not be audited: check's identity named a
/// sid with no live session, the broker answered USER_SESSION_REQUIRED, and check blamed the
/// keys. With a sandbox running on the state directory, check signs the person in to it and
/// the path is audited (the session ending with the audit); with none, the broker's code is
/// named and the missing sandbox said.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_audits_a_path_that_queries_the_broker_with_a_live_session() {
    let state = tempfile::tempdir().unwrap();
    let state_arg = state.path().to_str().unwrap().to_string();
    let mut config = crate::support::test_config();
    config.state_dir = Some(state.path().to_path_buf());
    let sandbox = crate::support::start_with(config).await;
    // What `up` leaves for the other commands: this sandbox's addresses.
    let _record = zero_sandbox::running::record(state.path(), sandbox.endpoints()).unwrap();

    let audit = {
        let state_arg = state_arg.clone();
        tokio::task::spawn_blocking(move || {
            let app = TestApp::start("correct", &state_arg);
            let live = check(&[
                "--app", &app.url, "--path", "/query", "--state", &state_arg, "--as", "grace",
            ]);
            // The same keys in a directory no sandbox runs on.
            let elsewhere = tempfile::tempdir().unwrap();
            std::fs::copy(
                std::path::Path::new(&state_arg).join("identity-keys.json"),
                elsewhere.path().join("identity-keys.json"),
            )
            .unwrap();
            let made_up = check(&[
                "--app",
                &app.url,
                "--path",
                "/query",
                "--state",
                elsewhere.path().to_str().unwrap(),
            ]);
            (live, made_up)
        })
    };
    let ((code, out, err), (made_up_code, _, made_up_err)) = audit.await.unwrap();

    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("a live session of the sandbox running there"),
        "{out}"
    );
    assert!(verdict(&out, "valid identity").contains("200"), "{out}");
    for probe in FORGERIES.into_iter().chain(STRICT) {
        assert!(verdict(&out, probe).contains("refused"), "{probe}:\n{out}");
    }
    let sessions: Value = crate::support::client()
        .get(format!("{}/sessions", sandbox.endpoints().control_url()))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        sessions["sessions"],
        serde_json::json!([]),
        "check signs out: {sessions}"
    );

    assert_eq!(made_up_code, Some(2), "{made_up_err}");
    assert!(
        made_up_err.contains("answered 401 USER_SESSION_REQUIRED")
            && made_up_err.contains("no sandbox runs on this state directory")
            && !made_up_err.contains("trust"),
        "{made_up_err}"
    );
}
