//! The one event journal: every event type provoked through real behaviour and its fields
//! checked (a table), the events file, and the bound under 100,000 events.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use zero_sandbox::Sandbox;

use crate::control::Control;
use crate::support::{self, test_config};

/// The IAM's authorization request for a browser that starts a sign-in at the edge: the
/// `auth_request` of the sign-in page.
async fn sign_in_page(sandbox: &Sandbox) -> String {
    let http = support::client();
    let login = http
        .get(support::edge(sandbox, "/.nnumbers/auth/login"))
        .send()
        .await
        .unwrap();
    let page = http
        .get(support::location(&login))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    support::hidden_input(&page, "auth_request").expect("an auth_request")
}

async fn token_request(sandbox: &Sandbox, form: &[(&str, &str)]) -> u16 {
    support::client()
        .post(format!(
            "{}/protocol/openid-connect/token",
            sandbox.realm_url()
        ))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(support::encode_form(form))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// One row of the table: an event of `kind` from `source`, with this outcome (`None`: any)
/// and a `sub` or not; `details` names the fields it must carry.
struct Expected {
    kind: &'static str,
    source: &'static str,
    outcome: Option<&'static str>,
    sub: bool,
    details: &'static [&'static str],
}

const fn row(
    kind: &'static str,
    source: &'static str,
    outcome: Option<&'static str>,
    sub: bool,
    details: &'static [&'static str],
) -> Expected {
    Expected {
        kind,
        source,
        outcome,
        sub,
        details,
    }
}

/// Every type of `src/platform/journal.rs`'s list but QUERY_CANCELLED and SESSION_REVOKED
/// (provoked, field by field, in `platform::revocation` and, for each of QUERY_CANCELLED's
/// reasons, `broker::cancellation`) and LIMIT_EXCEEDED (the limits').
const TABLE: &[Expected] = &[
    row(
        "LOGIN",
        "iam",
        Some("OK"),
        true,
        &[
            "auth_method",
            "auth_type",
            "response_type",
            "response_mode",
            "redirect_uri",
            "consent",
            "code_id",
        ],
    ),
    row(
        "LOGIN_ERROR",
        "iam",
        Some("user_not_found"),
        false,
        &["error"],
    ),
    row("CODE_TO_TOKEN", "iam", Some("OK"), true, &[]),
    row(
        "CODE_TO_TOKEN_ERROR",
        "iam",
        Some("invalid_code"),
        false,
        &["error"],
    ),
    row("REFRESH_TOKEN", "iam", Some("OK"), true, &[]),
    row(
        "REFRESH_TOKEN_ERROR",
        "iam",
        Some("invalid_token"),
        false,
        &["error"],
    ),
    row("LOGOUT", "iam", Some("OK"), true, &[]),
    row("SESSION_STARTED", "edge", None, true, &["via"]),
    row("SESSION_ENDED", "edge", None, true, &["why"]),
    row("SESSION_ENDED", "iam", None, true, &["why"]),
    row("LOGOUT", "edge", Some("OK"), true, &[]),
    row("LOGOUT_ERROR", "edge", Some("FOREIGN_ORIGIN"), false, &[]),
    row("IDENTITY_HEADER_REMOVED", "edge", None, true, &[]),
    row(
        "QUERY",
        "broker",
        Some("OK"),
        true,
        &["status", "rows", "elapsed_ms"],
    ),
    row(
        "IDENTITY_REJECTED",
        "broker",
        Some("IDENTITY_ASSERTION_INVALID"),
        false,
        &["reason"],
    ),
    row(
        "QUERY_CREATED",
        "querymesh",
        Some("QUEUED"),
        true,
        &["query_id", "user"],
    ),
    row(
        "QUERY_COMPLETED",
        "querymesh",
        Some("FINISHED"),
        true,
        &["query_id", "state", "rows", "elapsed_ms"],
    ),
    row(
        "POLICY_DENIED",
        "querymesh",
        Some("PERMISSION_DENIED"),
        true,
        &["query_id", "reason"],
    ),
    row("SESSION_STARTED", "control", None, true, &["via"]),
    row("SESSION_ENDED", "control", None, true, &["why"]),
    row("PERSON_ADDED", "control", None, true, &[]),
    row("PERSON_REMOVED", "control", None, true, &["sessions_ended"]),
    row("QUERYMESH_TOKEN_ISSUED", "control", None, true, &[]),
    row("FAULT_ADDED", "control", None, false, &["rule"]),
    row("FAULT_REMOVED", "control", None, false, &["rule"]),
    row("FAULTS_CLEARED", "control", None, false, &["removed"]),
    row("SWITCH_CHANGED", "control", None, false, &["switch", "on"]),
    row("KEY_ROTATED", "control", None, false, &[]),
    row(
        "CLOCK_ADVANCED",
        "control",
        None,
        false,
        &["advance_seconds"],
    ),
    row("RESET", "control", None, false, &["scope"]),
];

#[tokio::test]
async fn every_event_type_is_recorded_with_its_fields() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules.json");
    // Everyone may read tpch.tiny but its customer table.
    std::fs::write(
        &rules,
        r#"{"tables": [
            {"catalog": "tpch", "schema": "tiny", "table": "customer", "privileges": []},
            {"catalog": "tpch", "privileges": ["SELECT"]}
        ]}"#,
    )
    .unwrap();
    let mut config = test_config();
    config.querymesh.access_control = Some(rules);
    let (sandbox, _echo) = support::start_with_echo_and(config).await;
    let control = Control::of(&sandbox);

    // The IAM and the edge: a sign-in over HTTP, a person the IAM does not know, a code and
    // a refresh token it does not know.
    let ada = support::sign_in(&sandbox, "ada").await;
    let auth_request = sign_in_page(&sandbox).await;
    let unknown = support::client()
        .post(format!(
            "{}/login-actions/authenticate",
            sandbox.realm_url()
        ))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(support::encode_form(&[
            ("auth_request", &auth_request),
            ("person", "nobody-at-all"),
        ]))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 400);
    let client_id = zero_sandbox::oidc::EDGE_CLIENT_ID;
    let bad_code = [
        ("grant_type", "authorization_code"),
        ("client_id", client_id),
        ("code", "not-a-code"),
        ("redirect_uri", "http://localhost/"),
        ("code_verifier", "v"),
    ];
    assert_eq!(token_request(&sandbox, &bad_code).await, 400);
    let bad_refresh = [
        ("grant_type", "refresh_token"),
        ("client_id", client_id),
        ("refresh_token", "not-a-refresh-token"),
    ];
    assert_eq!(token_request(&sandbox, &bad_refresh).await, 400);

    // The broker and QueryMesh: a query, one the policy denies, a forged identity.
    let identity = ada.identity(&sandbox);
    let (status, _) =
        support::broker_query(&sandbox, &identity, "SELECT count(*) FROM tpch.tiny.nation").await;
    assert_eq!(status, 200);
    let (status, _) =
        support::broker_query(&sandbox, &identity, "SELECT name FROM tpch.tiny.customer").await;
    assert_eq!(status, 403);
    let forged = format!("{}AAAA", &identity[..identity.len() - 4]);
    assert_eq!(
        support::broker_query(&sandbox, &forged, "SELECT 1").await.0,
        401
    );
    // A spoofed identity header the edge removes.
    let spoofed = support::client()
        .get(support::edge(&sandbox, "/"))
        .header("cookie", &ada.cookie)
        .header("x-nnumbers-identity", "spoofed")
        .send()
        .await
        .unwrap();
    assert_eq!(spoofed.status(), 200);

    // Past the access token's life: the next query refreshes it.
    control
        .post("/clock", json!({ "advance_seconds": 600 }))
        .await;
    let identity = ada.identity(&sandbox);
    let (status, body) = support::broker_query(&sandbox, &identity, "SELECT 1").await;
    assert_eq!(status, 200, "{body}");

    // Signing out at the edge, a sign-out from elsewhere, then the IAM's own end-session for
    // grace's sign-in (ending her platform session with it).
    let logout = support::client()
        .post(support::edge(&sandbox, "/.nnumbers/auth/logout"))
        .header("origin", sandbox.endpoints().edge_url())
        .header("cookie", &ada.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), 303);
    let foreign = support::client()
        .post(support::edge(&sandbox, "/.nnumbers/auth/logout"))
        .header("origin", "http://elsewhere.example")
        .send()
        .await
        .unwrap();
    assert_eq!(foreign.status(), 403);
    let grace = support::sign_in(&sandbox, "grace").await;
    let id_token = sandbox
        .sessions()
        .get(&grace.sid)
        .and_then(|s| s.tokens.id_token)
        .unwrap();
    let end_session = support::client()
        .get(format!(
            "{}/protocol/openid-connect/logout?{}",
            sandbox.realm_url(),
            support::encode_form(&[("id_token_hint", &id_token)])
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(end_session.status(), 200);

    // The test-control API's changes.
    let session = control.session("ada").await;
    control
        .delete(&format!("/sessions/{}", session["sid"].as_str().unwrap()))
        .await;
    let (status, _) = control
        .post("/people", json!({ "sub": "temp-person" }))
        .await;
    assert_eq!(status, 201);
    control.delete("/people/temp-person").await;
    control
        .post("/querymesh-tokens", json!({ "person": "ada" }))
        .await;
    let rule = control
        .fault(json!({ "code": "QUERYMESH_UNAVAILABLE" }))
        .await;
    control.delete(&format!("/faults/{rule}")).await;
    control
        .fault(json!({ "code": "QUERYMESH_UNAVAILABLE" }))
        .await;
    control.delete("/faults").await;
    control
        .patch("/switches", json!({ "querymesh_enabled": false }))
        .await;
    let (status, rotated) = control.post("/keys/rotate", json!({})).await;
    assert!(status < 300, "{rotated}");
    control.post("/reset", json!({})).await;

    let mut events = Vec::new();
    let mut since = 0;
    loop {
        let (_, page) = control.get(&format!("/events?since={since}")).await;
        let got = page["events"].as_array().unwrap().clone();
        if got.is_empty() {
            break;
        }
        since = page["next"].as_u64().unwrap();
        events.extend(got);
    }
    for expected in TABLE {
        let found = events
            .iter()
            .find(|e| {
                e["type"] == expected.kind
                    && e["source"] == expected.source
                    && expected.outcome.is_none_or(|o| e["outcome"] == o)
            })
            .unwrap_or_else(|| {
                panic!(
                    "no {} from {} with outcome {:?} in {events:#?}",
                    expected.kind, expected.source, expected.outcome
                )
            });
        let shape = found.as_object().unwrap();
        for field in [
            "id", "ts_ms", "type", "source", "sub", "sid", "outcome", "details",
        ] {
            assert!(shape.contains_key(field), "{found}: {field}");
        }
        assert!(found["id"].as_u64().is_some() && found["ts_ms"].as_u64().is_some());
        assert_eq!(found["sub"].is_string(), expected.sub, "sub of {found}");
        for detail in expected.details {
            assert!(
                found["details"].get(detail).is_some(),
                "{found} lacks details.{detail}"
            );
        }
    }
    // The edge's sessions name their sid; the refused refresh and the IAM's logout say why.
    let ended_by_iam = events
        .iter()
        .find(|e| e["type"] == "SESSION_ENDED" && e["source"] == "iam")
        .unwrap();
    assert_eq!(ended_by_iam["sid"], grace.sid.as_str());
    assert_eq!(ended_by_iam["details"]["why"], "signed out of the IAM");
    let login_error = events.iter().find(|e| e["type"] == "LOGIN_ERROR").unwrap();
    assert_eq!(login_error["details"]["error"], "user_not_found");
}

/// A refresh the IAM refuses ends the platform session, on record as the IAM's doing.
#[tokio::test]
async fn a_refused_refresh_ends_the_session_on_record() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let ada = support::sign_in(&sandbox, "ada").await;
    // Past the SSO session's life: the IAM refuses the refresh the next query needs.
    let hours = u64::from(sandbox.config().iam.sso_session_hours);
    control
        .post("/clock", json!({ "advance_seconds": hours * 3600 + 60 }))
        .await;
    let identity = ada.identity(&sandbox);
    let (status, body) = support::broker_query(&sandbox, &identity, "SELECT 1").await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("USER_SESSION_REQUIRED"))
    );
    let (_, page) = control.get("/events?type=SESSION_ENDED").await;
    let ended = &page["events"][0];
    assert_eq!(ended["source"], "iam", "{page}");
    assert_eq!(ended["sid"], ada.sid.as_str());
    assert_eq!(
        ended["details"]["why"],
        "the IAM refused to refresh its tokens"
    );
    let (_, page) = control.get("/events?type=REFRESH_TOKEN_ERROR").await;
    assert_eq!(page["events"][0]["outcome"], "invalid_token", "{page}");
}

/// The events file's lines: each event, or an EVENTS_DROPPED line counting those the ring
/// dropped before they were written.
fn file_accounts_for(path: &std::path::Path) -> (u64, Vec<Value>) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut accounted = 0;
    let mut lines = Vec::new();
    for line in text.lines() {
        let value: Value = serde_json::from_str(line).expect("one JSON value a line");
        accounted += match value["type"].as_str() {
            Some("EVENTS_DROPPED") => value["count"].as_u64().expect("a count"),
            _ => 1,
        };
        lines.push(value);
    }
    (accounted, lines)
}

/// 100,000 events through the sandbox's journal, its file writer running: the ring keeps its
/// bound, and the file holds every event or a line accounting for each one dropped.
#[tokio::test]
async fn a_hundred_thousand_events_stay_within_the_bound_and_the_file_accounts_for_each() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.jsonl");
    let mut config = test_config();
    config.events.capacity = 1_000;
    config.events.file = Some(path.clone());
    let sandbox = support::start_with(config).await;
    let journal = sandbox.journal();
    let started = Instant::now();
    for i in 0..100_000u64 {
        journal.record(
            zero_sandbox::platform::NewEvent::new(zero_sandbox::platform::Source::Broker, "QUERY")
                .outcome("OK")
                .details(json!({ "rows": i })),
        );
    }
    let recorded = started.elapsed();
    assert_eq!(journal.len(), 1_000);
    assert_eq!(journal.dropped(), 99_000);

    let deadline = Instant::now() + Duration::from_secs(60);
    let (accounted, lines) = loop {
        let (accounted, lines) = file_accounts_for(&path);
        if accounted >= 100_000 || Instant::now() > deadline {
            break (accounted, lines);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(accounted, 100_000, "every event written or counted");
    let events: Vec<&Value> = lines.iter().filter(|l| l["type"] == "QUERY").collect();
    // The last ones are in the file as they are in the ring, in order.
    assert_eq!(events.last().unwrap()["id"], 100_000);
    assert!(
        events
            .windows(2)
            .all(|w| w[0]["id"].as_u64() < w[1]["id"].as_u64())
    );
    eprintln!(
        "100,000 events recorded in {recorded:?}; {} written, {} counted as dropped",
        events.len(),
        100_000 - events.len()
    );
}

#[tokio::test]
async fn an_events_file_that_cannot_be_opened_refuses_the_start_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-dir").join("events.jsonl");
    let mut config = test_config();
    config.events.file = Some(path.clone());
    let error = match zero_sandbox::Sandbox::start(config).await {
        Ok(_) => panic!("the sandbox started with an unopenable events file"),
        Err(e) => e.to_string(),
    };
    assert!(error.contains(&path.display().to_string()), "{error}");
    assert!(error.contains("[events] file"), "{error}");
}

/// The real binary at RUST_LOG=trace with an events file: a sign-in, queries with distinctive
/// SQL literals, a refresh, a sign-out. Neither the journal, nor its file, nor the process's
/// output holds the SQL, a token (access, refresh, ID, identity), a cookie or a code.
#[tokio::test]
async fn at_trace_level_no_journal_file_or_log_holds_sql_tokens_cookies_or_codes() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};

    use crate::support::echo_app::EchoApp;
    use crate::support::http_sign_in::{identity_via_app, sign_in_at};

    let app = EchoApp::start().await;
    let dir = tempfile::tempdir().unwrap();
    let events = dir.path().join("events.jsonl");
    let config = dir.path().join("zero-sandbox.toml");
    std::fs::write(
        &config,
        format!("[events]\nfile = {:?}\n", events.display().to_string()),
    )
    .unwrap();
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut child = Command::new(support::binary())
        .args(["--config", &config.display().to_string()])
        .args([
            "up",
            "--ready-json",
            "--ephemeral",
            "--no-open",
            "--app",
            &app.url,
        ])
        .args(["--edge-port", "0", "--broker-port", "0", "--iam-port", "0"])
        .args(["--querymesh-port", "0"])
        .env("RUST_LOG", "trace")
        .stdout(Stdio::piped())
        .stderr(log.reopen().unwrap())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let ready: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
    let (edge, broker, iam) = (
        ready["edge"].as_str().unwrap().to_string(),
        ready["broker"].as_str().unwrap().to_string(),
        ready["iam"].as_str().unwrap().to_string(),
    );
    let http = support::client();
    let realm = format!("{iam}/realms/acme");
    let ada = "3c0e8f1a-7d2b-4b6e-9f41-2a5c8d7e6b01";
    let signed_in = sign_in_at(&edge, &realm, ada, "/").await;
    let cookie = signed_in.cookie.clone();
    let identity = identity_via_app(&edge, &cookie).await;
    assert!(identity.starts_with("eyJ"), "the app received an identity");

    // The IAM's own tokens, for the search: a code and its tokens, by a sign-in of the
    // edge's client done by hand (what the edge does at its callback).
    let verifier = "a-code-verifier-of-forty-three-characters-or-more-0123456789";
    let challenge = {
        use base64::Engine;
        use sha2::Digest;
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(sha2::Sha256::digest(verifier.as_bytes()))
    };
    let redirect_uri = format!("{edge}/.nnumbers/auth/callback");
    let authorize = http
        .get(format!(
            "{realm}/protocol/openid-connect/auth?{}",
            support::encode_form(&[
                ("response_type", "code"),
                ("client_id", zero_sandbox::oidc::EDGE_CLIENT_ID),
                ("redirect_uri", &redirect_uri),
                ("scope", "openid"),
                ("state", "s"),
                ("code_challenge", &challenge),
                ("code_challenge_method", "S256"),
            ])
        ))
        .header("cookie", &signed_in.iam_cookies)
        .send()
        .await
        .unwrap();
    let location = support::location(&authorize);
    let code = url_param(&location, "code").unwrap_or_else(|| panic!("a code: {location}"));
    let tokens: Value = http
        .post(format!("{realm}/protocol/openid-connect/token"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(support::encode_form(&[
            ("grant_type", "authorization_code"),
            ("client_id", zero_sandbox::oidc::EDGE_CLIENT_ID),
            ("code", &code),
            ("redirect_uri", &redirect_uri),
            ("code_verifier", verifier),
        ]))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let refresh_token = tokens["refresh_token"].as_str().unwrap().to_string();
    let refreshed: Value = http
        .post(format!("{realm}/protocol/openid-connect/token"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(support::encode_form(&[
            ("grant_type", "refresh_token"),
            ("client_id", zero_sandbox::oidc::EDGE_CLIENT_ID),
            ("refresh_token", &refresh_token),
        ]))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();

    let marker = "zz_journal_marker_5531";
    let sqls = [
        format!("SELECT '{marker}' AS x FROM tpch.tiny.region"),
        format!("SELEC {marker}_syntax"),
        format!("SELECT {marker}_column FROM tpch.tiny.nation"),
    ];
    for sql in &sqls {
        let response = http
            .post(format!("{broker}/v1/querymesh/query"))
            .header("x-nnumbers-identity", &identity)
            .json(&json!({ "sql": sql }))
            .send()
            .await
            .unwrap();
        assert!(response.status().as_u16() < 500);
    }
    let logout = http
        .post(format!("{edge}/.nnumbers/auth/logout"))
        .header("origin", &edge)
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(logout.status(), 303);

    let journal: Value = http
        .get(format!("{broker}/sandbox/v1/events"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let kinds: Vec<&str> = journal["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    for kind in [
        "LOGIN",
        "CODE_TO_TOKEN",
        "REFRESH_TOKEN",
        "QUERY",
        "LOGOUT",
        "SESSION_ENDED",
    ] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
    let last_id = journal["next"].as_u64().unwrap();
    // The file has caught up with the journal before the process stops.
    let deadline = Instant::now() + Duration::from_secs(30);
    while file_accounts_for(&events).0 < last_id {
        assert!(Instant::now() < deadline, "the events file caught up");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let pid = child.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    child.wait().unwrap();
    let mut output = String::new();
    log.reopen().unwrap().read_to_string(&mut output).unwrap();
    stdout.read_to_string(&mut output).unwrap();
    assert!(
        output.contains("TRACE") || output.contains("DEBUG"),
        "trace logging was on"
    );
    let file = std::fs::read_to_string(&events).unwrap();

    let mut secrets: Vec<(&str, String)> = vec![
        ("the marker in the SQL", marker.to_string()),
        ("the identity", identity.clone()),
        (
            "the session cookie",
            cookie.split_once('=').unwrap().1.to_string(),
        ),
        ("the code", code.clone()),
    ];
    for sql in &sqls {
        secrets.push(("a SQL text", sql.clone()));
    }
    for (name, answer) in [("token", &tokens), ("refreshed token", &refreshed)] {
        for field in ["access_token", "refresh_token", "id_token"] {
            let value = answer[field]
                .as_str()
                .unwrap_or_else(|| panic!("{name} {field}"));
            secrets.push((field, value.to_string()));
        }
    }
    for cookie in signed_in.iam_cookies.split("; ") {
        if let Some((_, value)) = cookie.split_once('=')
            && value.len() >= 16
        {
            secrets.push(("an IAM cookie", value.to_string()));
        }
    }
    let journal = journal.to_string();
    for (place, text) in [
        ("the journal", &journal),
        ("the events file", &file),
        ("the output", &output),
    ] {
        for (what, secret) in &secrets {
            assert!(!text.contains(secret.as_str()), "{place} holds {what}");
        }
        assert!(!text.contains("eyJ"), "{place} holds a JWT");
    }
}

/// The first value of `name` in the query of `url`.
fn url_param(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?')?.1;
    form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}
