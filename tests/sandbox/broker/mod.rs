//! The broker's query endpoint: its refusal table (runtime-protocol), each row reached through
//! real behaviour, most against a fake Trino whose answers the test chooses; the whole stack;
//! the strict checks of the identity.

mod answer_shape;
mod availability;
mod cancellation;
mod identity_refusals;
mod limits;
mod querymesh_answers;
mod request_validation;
mod strict_identity;
mod switches;
mod trusted_authority;
mod whole_stack;

use serde_json::Value;
use zero_sandbox::{Config, Sandbox};

use crate::support::fake_trino::FakeTrino;
use crate::support::{self, test_config};

const ACCESS_TOKEN: &str = "test-access-token-of-ada";

/// A platform session for `ada` created straight in the store (as the edge's callback does),
/// with an access token only the fake QueryMesh looks at; returns the identity and sid.
fn session_for_ada(sandbox: &Sandbox) -> (String, String) {
    support::platform_session(sandbox, "ada", ACCESS_TOKEN)
}

fn config_with_fake(fake: &FakeTrino) -> Config {
    let mut config = test_config();
    config.querymesh.url = Some(fake.url.clone());
    config
}

async fn post(sandbox: &Sandbox, identity: Option<&str>, body: &str) -> (u16, Value) {
    let mut request = support::client()
        .post(format!(
            "{}/v1/querymesh/query",
            sandbox.endpoints().broker_url()
        ))
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(identity) = identity {
        request = request.header("X-NNumbers-Identity", identity);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

const EXAMPLE: &str =
    r#"{"sql": "SELECT name, regionkey FROM tpch.tiny.nation", "max_rows": 1000}"#;

fn assert_refusal(got: (u16, Value), status: u16, code: &str) -> String {
    assert_eq!(got.0, status, "{}", got.1);
    assert_eq!(got.1["code"], code, "{}", got.1);
    assert_eq!(
        got.1.as_object().unwrap().len(),
        2,
        "only code and message: {}",
        got.1
    );
    got.1["message"].as_str().unwrap().to_string()
}
