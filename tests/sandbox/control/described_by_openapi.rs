//! `GET /sandbox/v1/openapi.json` describes the broker and the test-control API (OpenAPI
//! 3.1) and stays true: every route the two routers answer is in it and nothing else is, and
//! real answers — successes and refusals of every endpoint — have a documented status,
//! Content-Type and a body its schema accepts.

use std::collections::BTreeSet;

use serde_json::{Value, json};
use zero_sandbox::Sandbox;

use crate::support;
use crate::support::openapi::Document;

async fn document(sandbox: &Sandbox) -> Document {
    let response = support::client()
        .get(format!(
            "{}/openapi.json",
            sandbox.endpoints().control_url()
        ))
        .send()
        .await
        .expect("answers");
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    Document(response.json().await.expect("JSON"))
}

#[tokio::test]
async fn every_route_of_the_broker_and_the_control_api_is_documented_and_nothing_else() {
    let sandbox = support::start().await;
    let document = document(&sandbox).await;
    assert_eq!(document.0["openapi"], "3.1.0");
    let routed: BTreeSet<(String, String)> = zero_sandbox::control::routes()
        .into_iter()
        .chain(zero_sandbox::broker::routes())
        .map(|(verb, path)| (verb.name().to_string(), path))
        .collect();
    let documented: BTreeSet<(String, String)> = document.0["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .flat_map(|(path, operations)| {
            operations
                .as_object()
                .expect("operations")
                .keys()
                .map(move |method| (method.to_ascii_uppercase(), path.clone()))
        })
        .collect();
    assert_eq!(
        routed.difference(&documented).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "routed, not documented"
    );
    assert_eq!(
        documented.difference(&routed).collect::<Vec<_>>(),
        Vec::<&(String, String)>::new(),
        "documented, not routed"
    );
    // Every schema the document names exists (a dangling $ref fails here, not in a client).
    let text = document.0.to_string();
    for reference in text.split("\"$ref\":\"").skip(1) {
        let pointer = reference.split('"').next().unwrap_or_default();
        assert!(
            document
                .0
                .pointer(pointer.trim_start_matches('#'))
                .is_some(),
            "{pointer} is referenced but not defined"
        );
    }
}

/// Sends requests and checks each answer against the document.
struct Checker {
    document: Document,
    base: String,
    http: reqwest::Client,
    checked: usize,
}

impl Checker {
    /// `method` `url_path` (with its query), documented as `template`, with a JSON `body`
    /// and `headers`: the answer's status and JSON body, once checked.
    async fn call(
        &mut self,
        method: &str,
        template: &str,
        url_path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> (u16, Value) {
        let method_value = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
        let mut request = self
            .http
            .request(method_value, format!("{}{url_path}", self.base));
        if let Some(body) = &body {
            let named = headers
                .iter()
                .any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
            request = if named {
                request.body(body.to_string())
            } else {
                request.json(body)
            };
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("answers");
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .map(|c| c.to_str().expect("ASCII").to_string());
        let bytes = response.bytes().await.expect("a body");
        let json: Option<Value> = content_type
            .as_deref()
            .filter(|c| c.starts_with("application/json"))
            .map(|_| serde_json::from_slice(&bytes).expect("JSON as it says"));
        let body = json.clone().or_else(|| {
            (!bytes.is_empty()).then(|| Value::String(String::from_utf8_lossy(&bytes).into()))
        });
        if let Err(e) = self.document.check(
            method,
            template,
            status,
            content_type.as_deref(),
            body.as_ref(),
        ) {
            panic!("{e}\n{url_path}: {body:?}");
        }
        self.checked += 1;
        (status, json.unwrap_or(Value::Null))
    }
}

#[tokio::test]
async fn real_answers_match_the_documented_statuses_types_and_schemas() {
    let sandbox = support::start().await;
    let mut c = Checker {
        document: document(&sandbox).await,
        base: sandbox.endpoints().broker_url(),
        http: support::client(),
        checked: 0,
    };
    const S: &str = "/sandbox/v1";
    let api = |path: &str| format!("{S}{path}");

    // The broker.
    c.call("GET", "/v1/jwks", "/v1/jwks", None, &[]).await;
    let (_, ada) = c
        .call(
            "POST",
            &api("/sessions"),
            &api("/sessions"),
            Some(json!({ "person": "ada" })),
            &[],
        )
        .await;
    let identity = ada["identity"].as_str().expect("an identity").to_string();
    let query = "/v1/querymesh/query";
    let sql = json!({ "sql": "SELECT name, regionkey FROM tpch.tiny.region", "max_rows": 10 });
    let with = [("x-nnumbers-identity", identity.as_str())];
    assert_eq!(
        c.call("POST", query, query, Some(sql.clone()), &with)
            .await
            .0,
        200
    );
    for (body, status) in [
        (json!({ "sql": "SELECT nope" }), 422),
        (json!({ "sql": "SELECT 1", "max_rows": 0 }), 400),
        (json!({ "max_rows": 1 }), 400),
    ] {
        assert_eq!(
            c.call("POST", query, query, Some(body), &with).await.0,
            status
        );
    }
    assert_eq!(
        c.call("POST", query, query, Some(sql.clone()), &[]).await.0,
        401
    );
    let forged = [("x-nnumbers-identity", "a.b.c")];
    assert_eq!(
        c.call("POST", query, query, Some(sql), &forged).await.0,
        401
    );

    // Sessions, people, tokens.
    let sessions = api("/sessions");
    for body in [
        json!({ "person": "grace", "handoff": true }),
        json!({ "claims": { "sub": "t-1", "name": "Tess", "groups": ["qa"] } }),
    ] {
        assert_eq!(
            c.call("POST", &sessions, &sessions, Some(body), &[])
                .await
                .0,
            201
        );
    }
    let nobody = json!({ "person": "nobody" });
    assert_eq!(
        c.call("POST", &sessions, &sessions, Some(nobody.clone()), &[])
            .await
            .0,
        404
    );
    assert_eq!(
        c.call("POST", &sessions, &sessions, Some(json!([1])), &[])
            .await
            .0,
        400
    );
    c.call("GET", &sessions, &sessions, None, &[]).await;
    assert_eq!(
        c.call("GET", &sessions, &api("/sessions?x=1"), None, &[])
            .await
            .0,
        400
    );
    let tokens = api("/querymesh-tokens");
    c.call(
        "POST",
        &tokens,
        &tokens,
        Some(json!({ "person": "ada" })),
        &[],
    )
    .await;
    assert_eq!(
        c.call("POST", &tokens, &tokens, Some(nobody), &[]).await.0,
        404
    );
    let people = api("/people");
    c.call("GET", &people, &people, None, &[]).await;
    let edsger = json!({ "sub": "e-1", "name": "Edsger", "preferred_username": "edsger" });
    assert_eq!(
        c.call("POST", &people, &people, Some(edsger.clone()), &[])
            .await
            .0,
        201
    );
    assert_eq!(
        c.call("POST", &people, &people, Some(edsger), &[]).await.0,
        409
    );
    let person = api("/people/{sub}");
    assert_eq!(
        c.call("DELETE", &person, &api("/people/e-1"), None, &[])
            .await
            .0,
        200
    );
    assert_eq!(
        c.call("DELETE", &person, &api("/people/e-1"), None, &[])
            .await
            .0,
        404
    );

    // Switches, faults, keys, clock, limits.
    let switches = api("/switches");
    c.call("GET", &switches, &switches, None, &[]).await;
    let on = json!({ "querymesh_enabled": true });
    c.call("PATCH", &switches, &switches, Some(on), &[]).await;
    let faults = api("/faults");
    let sid = ada["sid"].as_str().expect("a sid").to_string();
    for body in [
        json!({ "code": "QUERYMESH_UNAVAILABLE", "times": 1, "scope": { "sid": sid } }),
        json!({ "code": "QUERYMESH_QUERY_FAILED", "status": 502 }),
        json!({ "delay_ms": 1, "probability": 0.5, "seed": 7 }),
        json!({ "status": 502, "body": "<html>bad gateway</html>" }),
        json!({ "hangup": true, "scope": { "sub": "t-1" } }),
    ] {
        assert_eq!(
            c.call("POST", &faults, &faults, Some(body), &[]).await.0,
            201
        );
    }
    assert_eq!(
        c.call("POST", &faults, &faults, Some(json!({})), &[])
            .await
            .0,
        400
    );
    let unknown_sid = json!({ "hangup": true, "scope": { "sid": "nope" } });
    assert_eq!(
        c.call("POST", &faults, &faults, Some(unknown_sid), &[])
            .await
            .0,
        404
    );
    c.call("GET", &faults, &faults, None, &[]).await;
    let fault = api("/faults/{id}");
    assert_eq!(
        c.call("DELETE", &fault, &api("/faults/1"), None, &[])
            .await
            .0,
        200
    );
    assert_eq!(
        c.call("DELETE", &fault, &api("/faults/x"), None, &[])
            .await
            .0,
        404
    );
    c.call("DELETE", &faults, &api("/faults?sub=t-1"), None, &[])
        .await;
    c.call("DELETE", &faults, &faults, None, &[]).await;
    c.call("GET", &api("/keys"), &api("/keys"), None, &[]).await;
    let rotate = api("/keys/rotate");
    c.call(
        "POST",
        &rotate,
        &rotate,
        Some(json!({ "grace_seconds": 60 })),
        &[],
    )
    .await;
    c.call("GET", &api("/keys"), &api("/keys"), None, &[]).await;
    let clock = api("/clock");
    c.call("GET", &clock, &clock, None, &[]).await;
    c.call(
        "POST",
        &clock,
        &clock,
        Some(json!({ "advance_seconds": 1 })),
        &[],
    )
    .await;
    let zero = json!({ "advance_seconds": 0 });
    assert_eq!(c.call("POST", &clock, &clock, Some(zero), &[]).await.0, 400);
    let limits = api("/limits");
    c.call("GET", &limits, &limits, None, &[]).await;
    let new_limits = json!({
        "default": { "concurrent_queries": 4, "queries_per_minute": 0 },
        "rules": [{ "name": "qa", "groups": ["qa"], "queries_per_minute": 10 }],
    });
    c.call("PUT", &limits, &limits, Some(new_limits), &[]).await;

    // The journal, identities, QueryMesh, the endpoints and the console.
    let events = api("/events");
    c.call("GET", &events, &api("/events?since=0&limit=50"), None, &[])
        .await;
    assert_eq!(
        c.call("GET", &events, &api("/events?since=x"), None, &[])
            .await
            .0,
        400
    );
    let latest = api("/identity/latest");
    c.call("GET", &latest, &latest, None, &[]).await;
    let check = api("/identity/check");
    let token = json!({ "token": identity });
    c.call("POST", &check, &check, Some(token), &[]).await;
    let not_jws = json!({ "token": "nope" });
    assert_eq!(
        c.call("POST", &check, &check, Some(not_jws), &[]).await.0,
        400
    );
    let tables = api("/querymesh/tables");
    c.call(
        "GET",
        &tables,
        &api("/querymesh/tables?person=grace"),
        None,
        &[],
    )
    .await;
    let nobody_tables = api("/querymesh/tables?person=nobody");
    assert_eq!(
        c.call("GET", &tables, &nobody_tables, None, &[]).await.0,
        404
    );
    let policies = api("/querymesh/policies");
    c.call("GET", &policies, &policies, None, &[]).await;
    c.call("GET", &api("/endpoints"), &api("/endpoints"), None, &[])
        .await;
    c.call("GET", "/sandbox", "/sandbox", None, &[]).await;
    c.call("GET", "/sandbox/", "/sandbox/", None, &[]).await;
    for file in ["console.js", "console.css", "nope.js", "v1"] {
        let path = format!("/sandbox/{file}");
        c.call("GET", "/sandbox/{file}", &path, None, &[]).await;
    }

    // The API's own refusals: another origin, a body not said to be JSON, a person's reset,
    // then everything's.
    let foreign = [("origin", "http://localhost:5173")];
    assert_eq!(
        c.call("GET", &switches, &switches, None, &foreign).await.0,
        403
    );
    let as_text = [("content-type", "text/plain")];
    let advance = Some(json!({ "advance_seconds": 1 }));
    assert_eq!(
        c.call("POST", &clock, &clock, advance, &as_text).await.0,
        415
    );
    let reset = api("/reset");
    let by_sid = api(&format!("/reset?sid={sid}"));
    c.call("POST", &reset, &by_sid, None, &[]).await;
    assert_eq!(
        c.call("POST", &reset, &api("/reset?sid=a&sub=b"), None, &[])
            .await
            .0,
        400
    );
    c.call("POST", &reset, &reset, None, &[]).await;
    let session = api("/sessions/{sid}");
    assert_eq!(
        c.call(
            "DELETE",
            &session,
            &api(&format!("/sessions/{sid}")),
            None,
            &[]
        )
        .await
        .0,
        404
    );
    c.call("DELETE", &sessions, &api("/sessions?sub=t-1"), None, &[])
        .await;
    // A path parameter that is not UTF-8 once decoded: the API's own 400, not axum's text.
    for (template, path) in [
        (&session, api("/sessions/%FF")),
        (&person, api("/people/%FF")),
        (&fault, api("/faults/%FF")),
    ] {
        assert_eq!(c.call("DELETE", template, &path, None, &[]).await.0, 400);
    }

    // The event stream: its status and type (its body does not end).
    let stream = c
        .http
        .get(format!("{}{S}/events/stream", c.base))
        .send()
        .await
        .expect("answers");
    c.document
        .check(
            "GET",
            &api("/events/stream"),
            stream.status().as_u16(),
            stream
                .headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok()),
            None,
        )
        .expect("documented");
    assert!(c.checked > 60, "{} answers checked", c.checked);
}
