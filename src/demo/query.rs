//! `POST /api/query`: the page's SQL goes to the broker with the identity this request
//! carried — after the demo checked it, as the spec requires ("the request's identity,
//! already checked"). The broker's answer, success or refusal, comes back as it is.

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::DemoState;
use super::verify::{check, received_identity};
use crate::http::read_body;
use crate::identity::IDENTITY_HEADER;

/// The largest broker answer the demo relays (100,000 rows of a wide table fit).
const MAX_ANSWER_BYTES: usize = 64 << 20;

fn refusal(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({ "code": code, "message": message }))).into_response()
}

pub async fn query(State(state): State<DemoState>, headers: HeaderMap, body: Bytes) -> Response {
    // The broker validates `sql` and `max_rows` and answers VALIDATION_FAILED in the spec's
    // words; the demo passes both on as they came.
    let Ok(Value::Object(fields)) = serde_json::from_slice::<Value>(&body) else {
        return refusal(
            StatusCode::BAD_REQUEST,
            "VALIDATION_FAILED",
            "send a JSON object: {\"sql\": \"SELECT …\", \"max_rows\": 1000}",
        );
    };
    let identity = match received_identity(&headers) {
        Ok(identity) => identity,
        Err(problem) => {
            return refusal(
                StatusCode::UNAUTHORIZED,
                "IDENTITY_ASSERTION_INVALID",
                problem,
            );
        }
    };
    // With the header and any check failing, the request is refused — never treated as a
    // person. Without it, the broker itself answers USER_SESSION_REQUIRED.
    if let Some(token) = &identity
        && !check(&state, token).await.accepted
    {
        return refusal(
            StatusCode::UNAUTHORIZED,
            "IDENTITY_ASSERTION_INVALID",
            "the demo app refused the identity it received: see the checks above",
        );
    }
    let mut payload = json!({ "sql": fields.get("sql") });
    if let Some(max_rows) = fields.get("max_rows") {
        payload["max_rows"] = max_rows.clone();
    }
    let mut request = Request::post(format!("{}/v1/querymesh/query", state.env.broker_url))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(payload.to_string()));
    if let (Ok(request), Some(token)) = (&mut request, &identity)
        && let Ok(value) = HeaderValue::from_str(token)
    {
        request.headers_mut().insert(IDENTITY_HEADER, value);
    }
    let Ok(request) = request else {
        return refusal(
            StatusCode::INTERNAL_SERVER_ERROR,
            "DEMO_ERROR",
            "the broker URL is not usable",
        );
    };
    let broker_unreachable = |reason: String| {
        refusal(
            StatusCode::BAD_GATEWAY,
            "BROKER_UNREACHABLE",
            &format!(
                "the broker at {} did not answer: {reason}",
                state.env.broker_url
            ),
        )
    };
    let response = match state.http.request(request).await {
        Ok(response) => response,
        Err(e) => return broker_unreachable(e.to_string()),
    };
    let status = response.status();
    match read_body(response.into_body(), MAX_ANSWER_BYTES).await {
        Ok(bytes) => (status, [(header::CONTENT_TYPE, "application/json")], bytes).into_response(),
        Err(e) => broker_unreachable(e.to_string()),
    }
}
