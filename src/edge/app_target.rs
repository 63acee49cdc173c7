//! Where the proxy sends a request: the app's URL, parsed once, with the request's own path
//! and query. For the usual app URL (`http://host:port`, no path) no request builds a string.

use axum::http::Uri;
use axum::http::uri::{Authority, PathAndQuery, Scheme};

pub struct AppTarget {
    /// The app URL as configured (without a trailing `/`), for the general case.
    url: String,
    /// Its scheme and authority when it has nothing else: then each target is made of parts.
    origin: Option<(Scheme, Authority)>,
}

impl AppTarget {
    pub fn new(app_url: &str) -> Self {
        let origin = app_url.parse::<Uri>().ok().and_then(|uri| {
            let bare = uri.path_and_query().is_none_or(|p| p.as_str() == "/");
            let parts = uri.into_parts();
            match (parts.scheme, parts.authority) {
                (Some(scheme), Some(authority)) if bare => Some((scheme, authority)),
                _ => None,
            }
        });
        Self {
            url: app_url.to_string(),
            origin,
        }
    }

    /// The app's URL for a request to `uri`: the app's base plus the request's path and
    /// query. An app URL that does not parse fails here, on each request, with its reason.
    pub fn uri_for(&self, uri: Uri) -> Result<Uri, String> {
        let path_and_query = uri
            .into_parts()
            .path_and_query
            .unwrap_or_else(|| PathAndQuery::from_static("/"));
        match &self.origin {
            Some((scheme, authority)) => {
                let mut parts = axum::http::uri::Parts::default();
                parts.scheme = Some(scheme.clone());
                parts.authority = Some(authority.clone());
                parts.path_and_query = Some(path_and_query);
                Uri::from_parts(parts).map_err(|e| format!("{e}"))
            }
            None => format!("{}{path_and_query}", self.url)
                .parse()
                .map_err(|e| format!("{e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_is_the_app_url_with_the_requests_path_and_query() {
        for (app, request, target) in [
            ("http://127.0.0.1:3000", "/a/b?c=d", "http://127.0.0.1:3000/a/b?c=d"),
            ("http://localhost:3000", "/", "http://localhost:3000/"),
            ("https://app.test", "/x", "https://app.test/x"),
            ("http://127.0.0.1:3000/base", "/a?q", "http://127.0.0.1:3000/base/a?q"),
            ("http://127.0.0.1:3000", "http://other.test/p?q", "http://127.0.0.1:3000/p?q"),
        ] {
            let uri = AppTarget::new(app).uri_for(request.parse().unwrap());
            assert_eq!(uri.unwrap().to_string(), target, "{app} {request}");
        }
        assert!(AppTarget::new("not a url").uri_for("/".parse().unwrap()).is_err());
    }
}
