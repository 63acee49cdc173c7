//! The binary, its configuration, the keys, and the identity checked by independent verifiers.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use jsonwebtoken::{Algorithm, DecodingKey, Validation, errors::ErrorKind};
use p256::ecdsa::signature::Verifier;
use serde_json::Value;
use zero_sandbox::Sandbox;

use crate::support::{self, binary, test_config};

/// Runs the binary with `args` and returns (exit success, stdout, stderr).
fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(binary()).args(args).output().expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn env_json(state: &str) -> Value {
    let (ok, out, err) = run(&["env", "--format", "json", "--state", state]);
    assert!(ok, "{err}");
    serde_json::from_str(&out).expect("env --format json is JSON")
}

fn token(state: &str, extra: &[&str]) -> String {
    let mut args = vec!["token", "--as", "ada", "--state", state];
    args.extend_from_slice(extra);
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    out.trim().to_string()
}

/// An independent verifier: jsonwebtoken with the JWKS that `env` prints, plus the org check
/// the spec adds.
fn jsonwebtoken_verify(env: &Value, token: &str) -> Result<Value, ErrorKind> {
    let jwks: jsonwebtoken::jwk::JwkSet =
        serde_json::from_str(env["NNUMBERS_IDENTITY_JWKS"].as_str().unwrap()).unwrap();
    let header = jsonwebtoken::decode_header(token).map_err(|e| e.into_kind())?;
    let jwk = header
        .kid
        .as_deref()
        .and_then(|kid| jwks.find(kid))
        .ok_or(ErrorKind::InvalidKeyFormat)?;
    let key = DecodingKey::from_jwk(jwk).map_err(|e| e.into_kind())?;
    let mut validation = Validation::new(Algorithm::ES256);
    validation.leeway = 60;
    validation.validate_nbf = true;
    validation.set_issuer(&[env["NNUMBERS_IDENTITY_ISSUER"].as_str().unwrap()]);
    validation.set_audience(&[env["NNUMBERS_APP_ID"].as_str().unwrap()]);
    let data =
        jsonwebtoken::decode::<Value>(token, &key, &validation).map_err(|e| e.into_kind())?;
    if data.claims["org"] != env["NNUMBERS_ORG_ID"] {
        return Err(ErrorKind::InvalidSubject);
    }
    Ok(data.claims)
}

#[test]
fn minted_identity_verifies_with_jsonwebtoken_and_raw_p256() {
    let state = tempfile::tempdir().unwrap();
    let state = state.path().to_str().unwrap();
    let env = env_json(state);
    let token = token(state, &[]);

    let claims = jsonwebtoken_verify(&env, &token).expect("verifies");
    for claim in [
        "iss",
        "aud",
        "jti",
        "sub",
        "org",
        "org_slug",
        "iam",
        "sid",
        "name",
        "email",
        "email_verified",
        "preferred_username",
        "iat",
        "nbf",
        "exp",
    ] {
        assert!(claims.get(claim).is_some(), "missing {claim}");
    }
    assert_eq!(
        claims.as_object().unwrap().len(),
        15,
        "no extra claims: {claims}"
    );
    assert_eq!(
        claims["exp"].as_u64().unwrap(),
        claims["iat"].as_u64().unwrap() + 300
    );

    // The header, exactly.
    let (header_b64, rest) = token.split_once('.').unwrap();
    let header: Value = serde_json::from_slice(&B64.decode(header_b64).unwrap()).unwrap();
    let jwks: Value =
        serde_json::from_str(env["NNUMBERS_IDENTITY_JWKS"].as_str().unwrap()).unwrap();
    let jwk = &jwks["keys"][0];
    assert_eq!(
        header,
        serde_json::json!({"alg": "ES256", "typ": "nn-identity+jwt", "kid": jwk["kid"]})
    );

    // A direct P-256 check of r‖s over the signing input.
    let (payload_b64, sig_b64) = rest.split_once('.').unwrap();
    let mut sec1 = vec![4u8];
    sec1.extend(B64.decode(jwk["x"].as_str().unwrap()).unwrap());
    sec1.extend(B64.decode(jwk["y"].as_str().unwrap()).unwrap());
    let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(&sec1).unwrap();
    let signature = p256::ecdsa::Signature::from_slice(&B64.decode(sig_b64).unwrap()).unwrap();
    let input = format!("{header_b64}.{payload_b64}");
    assert!(key.verify(input.as_bytes(), &signature).is_ok());
}

#[test]
fn person_without_email_gets_no_email_claims() {
    let state = tempfile::tempdir().unwrap();
    let state = state.path().to_str().unwrap();
    let (ok, out, err) = run(&["token", "--as", "grace", "--state", state]);
    assert!(ok, "{err}");
    let claims = jsonwebtoken_verify(&env_json(state), out.trim()).unwrap();
    assert!(claims.get("email").is_none() && claims.get("email_verified").is_none());
    let (ok, out, _) = run(&["token", "--as", "alan", "--state", state]);
    assert!(ok);
    let claims = jsonwebtoken_verify(&env_json(state), out.trim()).unwrap();
    assert_eq!(claims["email_verified"], false);
}

#[test]
fn each_forgery_is_refused_for_the_reason_it_names() {
    let state = tempfile::tempdir().unwrap();
    let state = state.path().to_str().unwrap();
    let env = env_json(state);
    let cases: [(&[&str], ErrorKind); 8] = [
        (&["--expired"], ErrorKind::ExpiredSignature),
        (&["--not-yet-valid"], ErrorKind::ImmatureSignature),
        (&["--aud", "another-app"], ErrorKind::InvalidAudience),
        (&["--org", "another-org"], ErrorKind::InvalidSubject), // our org check
        (&["--iss", "https://evil.example"], ErrorKind::InvalidIssuer),
        (&["--unknown-kid"], ErrorKind::InvalidKeyFormat), // no JWK has that kid
        (&["--bad-signature"], ErrorKind::InvalidSignature),
        (&["--alg-none"], ErrorKind::InvalidAlgorithm),
    ];
    for (flags, reason) in cases {
        let forged = token(state, flags);
        let got = jsonwebtoken_verify(&env, &forged);
        match (&got, &reason) {
            // jsonwebtoken refuses "none" while parsing the header.
            (Err(ErrorKind::Json(_)), ErrorKind::InvalidAlgorithm) => {}
            _ => assert_eq!(got.err(), Some(reason.clone()), "{flags:?}"),
        }
    }
}

/// The forgeries a strict verifier refuses though a lenient JWT library takes them: the
/// broker of a sandbox on the same state directory refuses each, and the unforged token gets
/// past the identity check (to the session check: its sid is made up).
#[tokio::test]
async fn the_strict_verifiers_forgeries_are_refused_by_the_broker() {
    let state = tempfile::tempdir().unwrap();
    let mut config = test_config();
    config.state_dir = Some(state.path().to_path_buf());
    let sandbox = support::start_with(config).await;
    let state = state.path().to_str().unwrap();
    let broker = format!("{}/v1/querymesh/query", sandbox.endpoints().broker_url());
    let post = |identity: String| {
        support::client()
            .post(&broker)
            .header("X-NNumbers-Identity", identity)
            .header("content-type", "application/json")
            .body(r#"{"sql": "SELECT 1"}"#)
            .send()
    };
    for (flags, code) in [
        (&[][..], "USER_SESSION_REQUIRED"),
        (&["--long-lived"][..], "IDENTITY_ASSERTION_INVALID"),
        (&["--crit"][..], "IDENTITY_ASSERTION_INVALID"),
        (&["--high-s"][..], "IDENTITY_ASSERTION_INVALID"),
    ] {
        let response = post(token(state, flags)).await.unwrap();
        assert_eq!(response.status(), 401, "{flags:?}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["code"], code, "{flags:?}: {body}");
    }
    sandbox.shutdown().await;
}

#[test]
fn unknown_person_and_bad_config_are_clear_errors() {
    let state = tempfile::tempdir().unwrap();
    let state_path = state.path().to_str().unwrap();
    let (ok, _, err) = run(&["token", "--as", "nobody", "--state", state_path]);
    assert!(!ok);
    assert!(err.contains("nobody") && err.contains("ada"), "{err}");

    let file = state.path().join("bad.toml");
    std::fs::write(&file, "[organization]\nslug = \"acme\"\nfavourite = 1\n").unwrap();
    let (ok, _, err) = run(&[
        "env",
        "--config",
        file.to_str().unwrap(),
        "--state",
        state_path,
    ]);
    assert!(!ok);
    assert!(
        err.contains("bad.toml:3:") && err.contains("favourite"),
        "{err}"
    );

    std::fs::write(&file, "[ports]\nedge = -1\n").unwrap();
    let (ok, _, err) = run(&[
        "env",
        "--config",
        file.to_str().unwrap(),
        "--state",
        state_path,
    ]);
    assert!(!ok);
    assert!(err.contains("bad.toml:2:"), "{err}");

    let dup = "[[people]]\nsub = \"u1\"\n[[people]]\nsub = \"u1\"\n";
    std::fs::write(&file, dup).unwrap();
    let (ok, _, err) = run(&[
        "env",
        "--config",
        file.to_str().unwrap(),
        "--state",
        state_path,
    ]);
    assert!(!ok);
    assert!(
        err.contains("duplicate person") && err.contains("u1"),
        "{err}"
    );

    let (ok, _, err) = run(&[
        "env",
        "--config",
        "/no/such/file.toml",
        "--state",
        state_path,
    ]);
    assert!(!ok && err.contains("/no/such/file.toml"), "{err}");
}

#[test]
fn unwritable_state_directory_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("a-file");
    std::fs::write(&blocker, "").unwrap();
    let state = blocker.join("state");
    let (ok, _, err) = run(&["env", "--state", state.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains(state.to_str().unwrap()), "{err}");
}

#[tokio::test]
async fn keys_survive_a_restart_and_are_private() {
    let state = tempfile::tempdir().unwrap();
    let mut config = test_config();
    config.state_dir = Some(state.path().to_path_buf());
    let first = support::start_with(config.clone()).await;
    let jwks = first.env().identity_jwks;
    first.shutdown().await;
    let second = support::start_with(config).await;
    assert_eq!(second.env().identity_jwks, jwks);
    second.shutdown().await;

    #[cfg(unix)]
    for file in ["identity-keys.json", "iam-keys.json"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(state.path().join(file))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{file}");
    }
}

#[tokio::test]
async fn the_identity_and_iam_keys_differ() {
    let sandbox = support::start().await;
    assert_ne!(
        sandbox.identity().keys.current().kid(),
        sandbox.iam_keys().current().kid()
    );
}

#[tokio::test]
async fn broker_publishes_the_env_jwks_with_cache_headers() {
    let sandbox = support::start().await;
    let response = support::client()
        .get(format!("{}/v1/jwks", sandbox.endpoints().broker_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let cache = response.headers()["cache-control"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(cache.contains("max-age="), "{cache}");
    let body: Value = response.json().await.unwrap();
    let env: Value = serde_json::from_str(&sandbox.env().identity_jwks).unwrap();
    assert_eq!(body, env);
    assert_eq!(body["keys"][0]["alg"], "ES256");
    assert_eq!(body["keys"][0]["use"], "sig");
}

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
