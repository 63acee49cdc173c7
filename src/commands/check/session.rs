//! The platform session the probes' identities name: signed in to the sandbox running on the
//! state directory through its test-control API, and ended afterwards.

use super::*;

/// The platform session the probes name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Session {
    /// Signed in to the sandbox running on the state directory: the broker knows it.
    Live { sid: String },
    /// No sandbox runs on the state directory: a sid nothing knows.
    MadeUp { sid: String },
}

impl Session {
    pub fn sid(&self) -> &str {
        match self {
            Self::Live { sid } | Self::MadeUp { sid } => sid,
        }
    }
}

/// Signs `person` in to the running sandbox through its test-control API (`POST sessions`,
/// as a test suite does), by sub; a person that sandbox does not know (another --config) as
/// an ad-hoc one with the same claims.
pub(super) async fn sign_in(
    http: &crate::http::HttpClient,
    control: &str,
    person: &Person,
) -> Result<Session, CheckError> {
    let url = format!("{control}/sessions");
    let failed = |why: String| CheckError::NoSession {
        person: person.sub.clone(),
        control: control.to_string(),
        why,
    };
    let mut answer = post_json(http, &url, &serde_json::json!({ "person": person.sub }))
        .await
        .map_err(failed)?;
    if answer.0 == 404 {
        let claims = serde_json::to_value(person).map_err(|e| failed(e.to_string()))?;
        answer = post_json(http, &url, &serde_json::json!({ "claims": claims }))
            .await
            .map_err(failed)?;
    }
    let (status, body) = answer;
    let sid = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v.get("sid").and_then(|s| s.as_str()).map(str::to_string));
    match (status, sid) {
        (201, Some(sid)) => Ok(Session::Live { sid }),
        _ => Err(failed(format!(
            "it answered {status}: {}",
            String::from_utf8_lossy(&body[..body.len().min(500)])
        ))),
    }
}

/// Ends the probes' session; a failure only leaves it to expire.
pub(super) async fn sign_out(http: &crate::http::HttpClient, control: &str, sid: &str) {
    if let Ok(request) = Request::delete(format!("{control}/sessions/{sid}")).body(Body::empty()) {
        let _ = tokio::time::timeout(ANSWER_TIMEOUT, http.request(request)).await;
    }
}

/// POSTs `body` as JSON; the status and the body, or why there is none.
pub(super) async fn post_json(
    http: &crate::http::HttpClient,
    url: &str,
    body: &serde_json::Value,
) -> Result<(u16, Bytes), String> {
    let request = Request::post(url)
        .header(hyper::header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .map_err(|e| e.to_string())?;
    let exchange = async {
        let response = http
            .request(request)
            .await
            .map_err(|e| crate::http::describe(&e))?;
        let status = response.status().as_u16();
        let body = crate::http::read_body(response.into_body(), BODY_LIMIT)
            .await
            .map_err(|e| e.to_string())?;
        Ok((status, body))
    };
    tokio::time::timeout(ANSWER_TIMEOUT, exchange)
        .await
        .map_err(|_| format!("no answer within {} s", ANSWER_TIMEOUT.as_secs()))?
}
