//! A Trino-protocol server whose answers a test chooses, to reach the broker's refusals that a
//! healthy QueryMesh never gives (out-of-protocol answers, foreign nextUri, hangs).

#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::Notify;

/// What the fake answers to `POST /v1/statement`.
#[derive(Clone)]
pub enum Behaviour {
    /// One page with these columns (name, display type, raw type) and rows.
    Rows(Vec<(&'static str, &'static str, &'static str)>, Vec<Value>),
    /// `pages` pages of `per_page` one-column rows, linked by nextUri.
    Pages { pages: usize, per_page: usize },
    /// A 200 whose body is not QueryResults.
    NotProtocol,
    /// A nextUri on another origin.
    ForeignNextUri,
    /// A failed query with this Trino error (name, type, message).
    Error(&'static str, &'static str, &'static str),
    /// This HTTP status.
    Status(u16),
    /// Never answers.
    Hang,
    /// Answers once `release` is notified.
    Wait(Arc<Notify>),
    /// Accepts the query (QUEUED, with a nextUri here), then answers its nextUri as `Later`.
    Accepted(Later),
}

/// What an [`Behaviour::Accepted`] query's nextUri answers.
#[derive(Clone, Copy)]
pub enum Later {
    /// Never answers.
    Hang,
    /// This HTTP status.
    Status(u16),
}

/// The query id the fake gives every query.
pub const QUERY_ID: &str = "20261129_000000_00001_fake0";
/// The path of an [`Behaviour::Accepted`] query's nextUri.
pub const ACCEPTED_NEXT_PATH: &str = "/v1/statement/executing/20261129_000000_00001_fake0/slug/1";

/// What the fake saw.
#[derive(Default, Debug, Clone)]
pub struct Seen {
    pub requests: Vec<(Method, String, HeaderMap)>,
    pub bodies: Vec<String>,
}

#[derive(Clone)]
struct Fake {
    behaviour: Behaviour,
    seen: Arc<Mutex<Seen>>,
    base: String,
}

pub struct FakeTrino {
    pub url: String,
    pub seen: Arc<Mutex<Seen>>,
}

impl FakeTrino {
    pub async fn start(behaviour: Behaviour) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Seen::default()));
        let fake = Fake {
            behaviour,
            seen: seen.clone(),
            base: url.clone(),
        };
        let app = Router::new().fallback(handle).with_state(fake);
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { url, seen }
    }

    pub fn seen(&self) -> Seen {
        self.seen.lock().unwrap().clone()
    }

    pub fn deletes(&self) -> Vec<String> {
        self.seen()
            .requests
            .iter()
            .filter(|(m, _, _)| m == Method::DELETE)
            .map(|(_, p, _)| p.clone())
            .collect()
    }
}

fn page(id: &str, next: Option<String>, columns: Option<Value>, data: Option<Value>) -> Value {
    let mut page = json!({"id": id, "infoUri": "http://x/ui", "stats": {"state": "RUNNING"}});
    if let Some(next) = next {
        page["nextUri"] = json!(next);
    }
    if let Some(columns) = columns {
        page["columns"] = columns;
    }
    if let Some(data) = data {
        page["data"] = data;
    }
    page
}

async fn handle(
    State(fake): State<Fake>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    {
        let mut seen = fake.seen.lock().unwrap();
        seen.requests
            .push((method.clone(), uri.path().to_string(), headers));
        seen.bodies
            .push(String::from_utf8_lossy(&body).into_owned());
    }
    if method == Method::DELETE {
        return StatusCode::NO_CONTENT.into_response();
    }
    let id = QUERY_ID;
    let json = |v: Value| (StatusCode::OK, axum::Json(v)).into_response();
    match fake.behaviour {
        Behaviour::Rows(columns, rows) => {
            let columns: Vec<Value> = columns
                .iter()
                .map(|(n, t, raw)| json!({"name": n, "type": t, "typeSignature": {"rawType": raw, "arguments": []}}))
                .collect();
            json(page(id, None, Some(json!(columns)), Some(json!(rows))))
        }
        Behaviour::Pages { pages, per_page } => {
            let n: usize = uri
                .path()
                .rsplit('/')
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            let next = (n + 1 < pages)
                .then(|| format!("{}/v1/statement/executing/{id}/{}", fake.base, n + 1));
            let rows: Vec<Value> = (0..per_page).map(|i| json!([n * per_page + i])).collect();
            let columns = json!([{"name": "n", "type": "bigint", "typeSignature": {"rawType": "bigint", "arguments": []}}]);
            json(page(id, next, Some(columns), Some(json!(rows))))
        }
        Behaviour::NotProtocol => (StatusCode::OK, "<html>hello</html>").into_response(),
        Behaviour::ForeignNextUri => json(page(
            id,
            Some(format!(
                "http://evil.example:81/v1/statement/executing/{id}/1"
            )),
            None,
            None,
        )),
        Behaviour::Error(name, kind, message) => {
            let mut p = page(id, None, None, None);
            p["error"] =
                json!({"message": message, "errorCode": 1, "errorName": name, "errorType": kind});
            json(p)
        }
        Behaviour::Status(code) => StatusCode::from_u16(code).unwrap().into_response(),
        Behaviour::Hang => std::future::pending::<Response>().await,
        Behaviour::Accepted(later) if method == Method::GET => match later {
            Later::Hang => std::future::pending::<Response>().await,
            Later::Status(code) => StatusCode::from_u16(code).unwrap().into_response(),
        },
        Behaviour::Accepted(_) => json(page(
            id,
            Some(format!("{}{ACCEPTED_NEXT_PATH}", fake.base)),
            None,
            None,
        )),
        Behaviour::Wait(release) => {
            release.notified().await;
            json(page(
                id,
                None,
                Some(json!([{"name": "x", "type": "integer"}])),
                Some(json!([[1]])),
            ))
        }
    }
}
