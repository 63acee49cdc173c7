//! A state file that cannot be used stops the start with an error naming it, and is left as
//! it was. Before, a damaged QueryMesh authority was replaced without a word (breaking every
//! client that trusted the old `querymesh-ca.pem`), and a FIFO in place of a key file hung
//! `up` with no output.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use zero_sandbox::{Config, Sandbox};

use crate::support::{binary, test_config};

/// Generous for a loaded 2-core CI machine: a start takes seconds; a hang never ends.
const DEADLINE: Duration = Duration::from_secs(60);

fn config_on(state: &Path) -> Config {
    let mut config = test_config();
    config.state_dir = Some(state.to_path_buf());
    config
}

/// Starts (and stops) a sandbox on its own thread and runtime, so a start blocked in a
/// system call fails the test instead of hanging it: its start error, if any.
fn start_error(config: Config) -> Option<String> {
    let (done, outcome) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().expect("a runtime");
        let error = runtime.block_on(async {
            match Sandbox::start(config).await {
                Ok(sandbox) => {
                    sandbox.shutdown().await;
                    None
                }
                Err(e) => Some(e.to_string()),
            }
        });
        let _ = done.send(error);
    });
    outcome
        .recv_timeout(DEADLINE)
        .unwrap_or_else(|_| panic!("the start hung past {DEADLINE:?}"))
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// A state directory a sandbox has started on once: keys and the authority are there.
fn used_state() -> tempfile::TempDir {
    let state = tempfile::tempdir().unwrap();
    assert_eq!(start_error(config_on(state.path())), None);
    state
}

fn contents(paths: &[PathBuf]) -> Vec<Option<Vec<u8>>> {
    paths.iter().map(|p| std::fs::read(p).ok()).collect()
}

#[test]
fn a_damaged_querymesh_authority_refuses_the_start_naming_the_file_and_is_kept() {
    let cases: [(&str, &str, &str); 2] = [
        (
            "querymesh-ca.pem",
            "-----BEGIN CERTIFICATE-----\nbm90IERFUg==\n-----END CERTIFICATE-----\n",
            "does not hold an X.509 certificate",
        ),
        (
            "querymesh-ca-key.pem",
            "garbage where the key was\n",
            "has no PEM block \"-----BEGIN PRIVATE KEY-----\" … \"-----END PRIVATE KEY-----\"",
        ),
    ];
    for (file, damage, problem) in cases {
        let state = used_state();
        let dir = state.path();
        std::fs::write(dir.join(file), damage).unwrap();
        let files = [
            dir.join("querymesh-ca.pem"),
            dir.join("querymesh-ca-key.pem"),
        ];
        let before = contents(&files);

        let error = start_error(config_on(dir)).expect("refused");
        let expected_start = format!(
            "the QueryMesh stand-in could not start: {} {problem}",
            dir.join(file).display()
        );
        let expected_end = format!(
            "; the QueryMesh TLS authority is kept because clients trust its querymesh-ca.pem, \
             so it is not replaced: to make a new one, delete both {} and {} (then trust the \
             new querymesh-ca.pem)",
            files[0].display(),
            files[1].display()
        );
        assert!(error.starts_with(&expected_start), "{file}: {error}");
        assert!(error.ends_with(&expected_end), "{file}: {error}");
        assert_eq!(contents(&files), before, "{file}: both files untouched");

        // Deleting both makes a new authority, as the message says.
        for path in &files {
            std::fs::remove_file(path).unwrap();
        }
        assert_eq!(start_error(config_on(dir)), None);
        assert!(files.iter().all(|p| p.is_file()));
    }
}

#[test]
fn a_fifo_in_place_of_any_state_file_refuses_the_start_naming_it() {
    let fifo = "it is a FIFO (named pipe), not a regular file (move it away, or choose another \
                directory with --state DIR)";
    for (file, says) in [
        ("identity-keys.json", "cannot read {path}: "),
        ("iam-keys.json", "cannot read {path}: "),
        (
            "querymesh-ca.pem",
            "the QueryMesh stand-in could not start: {path} cannot be read: ",
        ),
        (
            "querymesh-ca-key.pem",
            "the QueryMesh stand-in could not start: {path} cannot be read: ",
        ),
        ("tpch/sf1.sqlite", "cannot use {path}: "),
    ] {
        let state = used_state();
        let path = state.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&path);
        mkfifo(&path);
        let error = start_error(config_on(state.path())).expect("refused");
        let expected = says.replace("{path}", &path.display().to_string());
        assert!(
            error.starts_with(&format!("{expected}{fifo}")),
            "{file}: {error}"
        );
        assert!(
            std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()),
            "{file}: left in place"
        );
    }
}

/// The files only the commands read: `running.json` (by `token` and `env`) and `up.lock`.
#[test]
fn a_fifo_in_place_of_the_record_or_the_lock_is_refused_by_the_commands() {
    let fifo = "it is a FIFO (named pipe), not a regular file";
    for (file, args) in [
        ("running.json", &["token", "--as", "ada", "--querymesh"][..]),
        ("running.json", &["env"][..]),
        (
            "up.lock",
            &["up", "--no-open", "--edge-port", "0", "--broker-port", "0"][..],
        ),
    ] {
        let state = tempfile::tempdir().unwrap();
        let path = state.path().join(file);
        mkfifo(&path);
        let child = Command::new(binary())
            .args(args)
            .args(["--state", state.path().to_str().unwrap()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts");
        let pid = child.id();
        let (done, out) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(child.wait_with_output());
        });
        let Ok(output) = out.recv_timeout(DEADLINE) else {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
            panic!("{args:?} with a FIFO for {file} hung");
        };
        let output = output.expect("waited");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let error = String::from_utf8_lossy(&output.stderr);
        let names = match file {
            "up.lock" => format!("cannot lock the state directory with {}: ", path.display()),
            _ => format!("cannot read {}: ", path.display()),
        };
        assert!(
            error.contains(&format!("zero-sandbox: error: {names}{fifo}")),
            "{args:?}: {error}"
        );
    }
}
