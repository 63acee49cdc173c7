//! Where the proxy sends a request: the app's URL, parsed once, with the request's own path
//! and query in origin form. For the usual app URL (`http://host:port`, no path) no request
//! builds a string.

use axum::http::Uri;
use axum::http::uri::PathAndQuery;

pub struct AppTarget {
    /// The app URL's scheme and authority, which connections go to; or why it has none.
    origin: Result<Uri, String>,
    /// The app URL's path without its trailing `/` (usually empty): each request's is added.
    base: String,
}

impl AppTarget {
    pub fn new(app_url: &str) -> Self {
        let (origin, base) = match app_url.parse::<Uri>() {
            Ok(uri) => {
                let base = uri.path().trim_end_matches('/').to_string();
                let parts = uri.into_parts();
                let origin = match (parts.scheme, parts.authority) {
                    (Some(scheme), Some(authority)) => Uri::builder()
                        .scheme(scheme)
                        .authority(authority)
                        .path_and_query("/")
                        .build()
                        .map_err(|e| e.to_string()),
                    _ => Err(format!("{app_url} has no scheme and host")),
                };
                (origin, base)
            }
            Err(e) => (Err(e.to_string()), String::new()),
        };
        Self { origin, base }
    }

    /// Where connections to the app go: `scheme://authority/`.
    pub fn origin(&self) -> Option<Uri> {
        self.origin.as_ref().ok().cloned()
    }

    /// The request target the app receives for a request to `uri` (origin form, RFC 9112
    /// §3.2.1): the app URL's path plus the request's path and query. An app URL that does
    /// not parse fails here, on each request, with its reason.
    pub fn uri_for(&self, uri: Uri) -> Result<Uri, String> {
        self.origin.as_ref().map_err(Clone::clone)?;
        let path_and_query = uri
            .into_parts()
            .path_and_query
            .unwrap_or_else(|| PathAndQuery::from_static("/"));
        if self.base.is_empty() {
            return Ok(Uri::from(path_and_query));
        }
        format!("{}{path_and_query}", self.base)
            .parse()
            .map_err(|e| format!("{e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_is_the_app_url_with_the_requests_path_and_query() {
        for (app, request, target) in [
            ("http://127.0.0.1:3000", "/a/b?c=d", "/a/b?c=d"),
            ("http://localhost:3000", "/", "/"),
            ("https://app.test", "/x", "/x"),
            ("http://127.0.0.1:3000/base", "/a?q", "/base/a?q"),
            ("http://127.0.0.1:3000/base/", "/a?q", "/base/a?q"),
            ("http://127.0.0.1:3000", "http://other.test/p?q", "/p?q"),
        ] {
            let uri = AppTarget::new(app).uri_for(request.parse().unwrap());
            assert_eq!(uri.unwrap().to_string(), target, "{app} {request}");
        }
        assert!(
            AppTarget::new("not a url")
                .uri_for("/".parse().unwrap())
                .is_err()
        );
        assert!(
            AppTarget::new("/relative")
                .uri_for("/".parse().unwrap())
                .is_err()
        );
        let origin = AppTarget::new("https://app.test:8443/base").origin();
        assert_eq!(origin.unwrap().to_string(), "https://app.test:8443/");
    }
}
