//! The console: `/sandbox/` on the control listener, a page (web/console, embedded) that
//! shows and steers the sandbox through exactly the test-control API — it has no other path.
//! `GET /sandbox/v1/endpoints` tells it (and anyone) where each component listens.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{Redirect, Response};
use include_dir::{Dir, include_dir};
use serde_json::{Value, json};

use super::ControlState;

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/web/console");

/// Where the console is served.
pub const CONSOLE_PATH: &str = "/sandbox/";

/// `GET /sandbox`: the console lives at `/sandbox/` (its assets are relative to it).
pub async fn to_console() -> Redirect {
    Redirect::permanent(CONSOLE_PATH)
}

/// `GET /sandbox/` and `/sandbox/{file}`.
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches(CONSOLE_PATH);
    let mut response = crate::web_assets::serve_file(&WEB, path, "The console has no such page.");
    if response.status() != StatusCode::OK {
        return response;
    }
    let headers = response.headers_mut();
    // The page acts on the sandbox: no other page may frame it or inject script into it.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// `GET endpoints`: each component's address, the console's and the app's environment.
pub async fn endpoints(State(state): State<ControlState>) -> Json<Value> {
    let e = &state.parts.endpoints;
    Json(json!({
        "edge": e.edge_url(),
        "broker": e.broker_url(),
        "iam": e.iam_url(),
        "realm": state.parts.realm_url,
        "querymesh": state.parts.querymesh_url,
        "control": e.control_url(),
        "console": e.console_url(),
        "organization": {
            "id": state.parts.config.organization.id,
            "slug": state.parts.config.organization.slug,
        },
        "app": { "id": state.parts.config.app.id },
    }))
}
