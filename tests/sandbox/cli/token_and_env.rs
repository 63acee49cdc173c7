//! `token --querymesh` and `env` against the sandbox running on a state directory.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde_json::Value;

use super::{run, token};
use crate::support::{self, binary, test_config};

/// `token --querymesh`: an access token from the IAM key of the state directory that a
/// running sandbox's QueryMesh accepts, as a Trino client pointed straight at it would send.
#[tokio::test]
async fn token_querymesh_prints_an_access_token_querymesh_accepts() {
    let state = tempfile::tempdir().unwrap();
    let mut config = test_config();
    config.state_dir = Some(state.path().to_path_buf());
    let sandbox = support::start_with(config).await;
    let config_file = state.path().join("zero-sandbox.toml");
    let iam_port = sandbox.endpoints().iam.port();
    std::fs::write(&config_file, format!("[ports]\niam = {iam_port}\n")).unwrap();
    let state_arg = state.path().to_str().unwrap();
    let config_arg = config_file.to_str().unwrap();
    let (ok, out, err) = run(&[
        "token",
        "--as",
        "ada",
        "--querymesh",
        "--state",
        state_arg,
        "--config",
        config_arg,
    ]);
    assert!(ok, "{err}");
    let response = support::client()
        .post(format!(
            "{}/v1/statement",
            sandbox.endpoints().querymesh_url()
        ))
        .bearer_auth(out.trim())
        .body("SELECT count(*) FROM tpch.tiny.region")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "QueryMesh accepts the token");
    let page: Value = response.json().await.unwrap();
    assert!(page.get("error").is_none(), "{page}");

    // Refused, each for its reason: keys that live only in one run, an unknown IAM port,
    // and the identity's forgery flags, which mean nothing for an access token.
    let (ok, _, err) = run(&["token", "--as", "ada", "--querymesh", "--ephemeral"]);
    assert!(!ok && err.contains("--ephemeral"), "{err}");
    std::fs::write(&config_file, "[ports]\niam = 0\n").unwrap();
    let (ok, _, err) = run(&[
        "token",
        "--as",
        "ada",
        "--querymesh",
        "--state",
        state_arg,
        "--config",
        config_arg,
    ]);
    assert!(!ok && err.contains("IAM port"), "{err}");
    let (ok, _, err) = run(&[
        "token",
        "--as",
        "ada",
        "--querymesh",
        "--expired",
        "--state",
        state_arg,
    ]);
    assert!(!ok && err.contains("--expired"), "{err}");
    sandbox.shutdown().await;
}

/// `up` on ports it picks at start records them in its state directory, so `token
/// --querymesh` and `env` run beside it describe that sandbox, not the configured ports; and
/// `--iam` names one explicitly.
#[tokio::test]
async fn token_and_env_describe_the_sandbox_running_on_the_state_directory() {
    let state = tempfile::tempdir().unwrap();
    let state_arg = state.path().to_str().unwrap();
    let mut child = Command::new(binary())
        .args(["up", "--ready-json", "--no-open", "--state", state_arg])
        .args(["--edge-port", "0", "--broker-port", "0"])
        .args(["--iam-port", "0", "--querymesh-port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let ready: Value = serde_json::from_str(&line).expect("one JSON line");

    let (ok, out, err) = run(&["token", "--as", "ada", "--querymesh", "--state", state_arg]);
    assert!(ok, "{err}");
    let querymesh = ready["querymesh"].as_str().unwrap();
    let response = support::client()
        .post(format!("{querymesh}/v1/statement"))
        .bearer_auth(out.trim())
        .body("SELECT count(*) FROM tpch.tiny.region")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "QueryMesh accepts the token");
    let page: Value = response.json().await.unwrap();
    assert!(page.get("error").is_none(), "{page}");
    let (ok, out, err) = run(&["env", "--format", "json", "--state", state_arg]);
    assert!(ok, "{err}");
    let env: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(env["NNUMBERS_BROKER_URL"], ready["broker"]);
    // An identity's `iam` claim names the running IAM's realm too.
    let identity = token(state_arg, &[]);
    let payload = identity.split('.').nth(1).unwrap();
    let claims: Value = serde_json::from_slice(&B64.decode(payload).unwrap()).unwrap();
    let iam = ready["iam"].as_str().unwrap();
    assert!(claims["iam"].as_str().unwrap().starts_with(iam), "{claims}");

    assert!(
        Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    assert!(child.wait().unwrap().success());
    assert!(
        !state.path().join("running.json").exists(),
        "the record goes with the sandbox"
    );

    // `--iam` names the IAM outright, and must be a URL.
    let (ok, out, err) = run(&[
        "token",
        "--as",
        "ada",
        "--querymesh",
        "--state",
        state_arg,
        "--iam",
        "http://127.0.0.1:9/",
    ]);
    assert!(ok, "{err}");
    let payload = out.trim().split('.').nth(1).unwrap().to_string();
    let claims: Value = serde_json::from_slice(&B64.decode(payload).unwrap()).unwrap();
    assert_eq!(claims["iss"], "http://127.0.0.1:9/realms/acme", "{claims}");
    let (ok, _, err) = run(&[
        "token",
        "--as",
        "ada",
        "--querymesh",
        "--iam",
        "127.0.0.1:9",
    ]);
    assert!(!ok && err.contains("--iam"), "{err}");
}

/// Issue 30: `token --as ada --ephemeral` printed, with exit 0, an identity signed by a key
/// made for that one command, which no sandbox or app trusts. Refused as `check` refuses
/// --ephemeral, with nothing on stdout, forged or not.
#[test]
fn token_refuses_ephemeral_keys_that_nothing_trusts() {
    for extra in [&[][..], &["--expired"], &["--querymesh"]] {
        let mut args = vec!["token", "--as", "ada", "--ephemeral"];
        args.extend_from_slice(extra);
        let (ok, out, err) = run(&args);
        assert!(!ok, "{args:?} printed {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.contains("--ephemeral") && err.contains("--state"),
            "{args:?}: {err}"
        );
    }
}
