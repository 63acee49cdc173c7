//! The demo's page, script and stylesheet, embedded in the binary.

use axum::http::Uri;
use axum::response::Response;
use include_dir::{Dir, include_dir};

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/web/demo");

pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    crate::web_assets::serve_file(&WEB, path, "The demo app has no such page.")
}
