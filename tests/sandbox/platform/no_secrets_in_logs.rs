//! Nothing secret reaches a log: the real binary at RUST_LOG=trace signs a person in, runs
//! queries through the broker, and its whole output is searched for SQL, tokens and cookies.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::echo_app::EchoApp;
use crate::support::http_sign_in::{identity_via_app, sign_in_over_http};
use crate::support::{binary, client};

#[tokio::test]
async fn trace_logs_carry_no_sql_tokens_or_cookies() {
    let app = EchoApp::start().await;
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut child = Command::new(binary())
        .args([
            "up",
            "--ready-json",
            "--ephemeral",
            "--no-open",
            "--app",
            &app.url,
        ])
        .args([
            "--edge-port",
            "0",
            "--broker-port",
            "0",
            "--iam-port",
            "0",
            "--querymesh-port",
            "0",
        ])
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(log.reopen().unwrap())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let ready: Value = serde_json::from_str(&line).unwrap();
    let (edge, broker, iam) = (
        ready["edge"].as_str().unwrap(),
        ready["broker"].as_str().unwrap(),
        ready["iam"].as_str().unwrap(),
    );

    let ada = "3c0e8f1a-7d2b-4b6e-9f41-2a5c8d7e6b01";
    let cookie = sign_in_over_http(edge, iam, "acme", ada).await;
    let identity = identity_via_app(edge, &cookie).await;
    assert!(identity.starts_with("eyJ"), "the app received an identity");

    let marker = "zz_secret_marker_8271";
    for sql in [
        format!("SELECT '{marker}' AS x FROM tpch.tiny.region"),
        format!("SELEC {marker}"),
        format!("SELECT {marker} FROM tpch.tiny.nation"),
    ] {
        let response = client()
            .post(format!("{broker}/v1/querymesh/query"))
            .header("x-nnumbers-identity", &identity)
            .json(&serde_json::json!({"sql": sql}))
            .send()
            .await
            .unwrap();
        assert!(
            response.status().as_u16() < 500,
            "{}",
            response.text().await.unwrap()
        );
    }

    let pid = child.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    child.wait().unwrap();
    let mut output = String::new();
    log.reopen().unwrap().read_to_string(&mut output).unwrap();
    assert!(
        output.contains("TRACE") || output.contains("DEBUG"),
        "trace logging was on"
    );
    assert!(output.contains(ada), "logs name the person's sub");
    assert!(!output.contains(marker), "SQL text reached the log");
    assert!(
        !output.contains("eyJ"),
        "a JWT (identity or IAM token) reached the log"
    );
    let cookie_value = cookie.split_once('=').unwrap().1;
    assert!(
        !output.contains(cookie_value),
        "the session cookie reached the log"
    );
}
