//! Pages embedded from `web/` and served as they are (the demo app, the console): one answer
//! for a file of a folder, so each server only says which folder and what is missing.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use include_dir::Dir;

/// `path` of `dir` (`index.html` for the folder itself), typed by its extension and never
/// cached stale; 404 with `missing` when there is no such file.
pub fn serve_file(dir: &Dir<'static>, path: &str, missing: &'static str) -> Response {
    let path = if path.is_empty() { "index.html" } else { path };
    let Some(file) = dir.get_file(path) else {
        return (StatusCode::NOT_FOUND, missing).into_response();
    };
    let content_type = match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    };
    let mut response = file.contents().into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}
