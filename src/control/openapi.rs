//! `openapi.json`: the broker (`/v1/…`) and this API described in OpenAPI 3.1 — every path,
//! method, status, body and error shape — so other projects can generate clients. The
//! document is a file of the repository (`openapi.json` beside this one), embedded; a test
//! keeps it true against the routers' tables and real answers.

use axum::http::header;
use axum::response::IntoResponse;

/// The document, as written.
pub const DOCUMENT: &str = include_str!("openapi.json");

/// `GET openapi.json`.
pub async fn document() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT)
}
