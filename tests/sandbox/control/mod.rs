//! The test-control API (`/sandbox/v1/` on the broker's listener), endpoint by endpoint, over
//! HTTP as a test suite in any language drives it: every endpoint, every fault kind and scope,
//! every error of the API itself, and two tests' faults kept apart on one sandbox.

mod clock_and_reset;
mod described_by_openapi;
mod errors;
mod events;
mod faults;
mod foreign_pages;
mod keys_and_switches;
mod limits;
mod people;
mod reset_restores_keys;
mod sessions;

use reqwest::Method;
use serde_json::{Value, json};
use zero_sandbox::Sandbox;

use crate::support;

/// A client of one sandbox's control API.
pub struct Control {
    pub base: String,
    http: reqwest::Client,
}

impl Control {
    pub fn of(sandbox: &Sandbox) -> Self {
        Self {
            base: sandbox.endpoints().control_url(),
            http: support::client(),
        }
    }

    /// `method path` with `body` (JSON, unless `None`): the status and the JSON answer.
    pub async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("the control API answers");
        let status = response.status().as_u16();
        let text = response.text().await.expect("a body");
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text:?}"));
        (status, value)
    }

    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.call(Method::GET, path, None).await
    }

    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.call(Method::POST, path, Some(body)).await
    }

    pub async fn patch(&self, path: &str, body: Value) -> (u16, Value) {
        self.call(Method::PATCH, path, Some(body)).await
    }

    pub async fn delete(&self, path: &str) -> (u16, Value) {
        self.call(Method::DELETE, path, None).await
    }

    /// A session for `person` through `POST sessions`: the answer, checked to be 201.
    pub async fn session(&self, person: &str) -> Value {
        let (status, session) = self.post("/sessions", json!({ "person": person })).await;
        assert_eq!(status, 201, "{session}");
        session
    }

    /// A fault rule through `POST faults`: its id, checked to be 201.
    pub async fn fault(&self, rule: Value) -> u64 {
        let (status, added) = self.post("/faults", rule.clone()).await;
        assert_eq!(status, 201, "{rule} → {added}");
        added["id"].as_u64().expect("an id")
    }
}

/// Asserts an error of the API itself: `status`, `code`, and a message naming `names`.
pub fn assert_api_error(answer: &(u16, Value), status: u16, code: &str, names: &str) {
    let (got, body) = answer;
    assert_eq!(*got, status, "{body}");
    assert_eq!(body["code"], code, "{body}");
    let message = body["message"].as_str().expect("a message");
    assert!(message.contains(names), "{message:?} should name {names:?}");
}

/// A query through the broker with `session`'s identity: the status and the code (or "OK").
pub async fn query(sandbox: &Sandbox, session: &Value) -> (u16, String) {
    let identity = session["identity"].as_str().expect("an identity");
    let (status, body) =
        support::broker_query(sandbox, identity, "SELECT count(*) FROM tpch.tiny.region").await;
    let code = body["code"].as_str().unwrap_or("OK").to_string();
    (status, code)
}
