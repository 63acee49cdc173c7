//! The one HTTP client the components use to talk to each other, to the app and to a real
//! Trino: HTTP/1 over hyper, pooled, with TLS (rustls, the system's roots) for `https://` URLs —
//! a real Trino authenticates only over HTTPS.

use std::time::Duration;

use axum::body::{Body, Bytes};
use http_body_util::{BodyExt, Limited};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

pub type HttpClient = Client<HttpsConnector<HttpConnector>, Body>;

pub fn client() -> HttpClient {
    let mut http = HttpConnector::new();
    http.set_nodelay(true);
    http.set_connect_timeout(Some(Duration::from_secs(5)));
    http.enforce_http(false);
    let builder = match HttpsConnectorBuilder::new().with_native_roots() {
        Ok(builder) => builder,
        Err(e) => {
            // Plain HTTP (everything local) still works; https URLs fail with a clear TLS error.
            tracing::warn!("no system root certificates ({e}); https:// URLs will not verify");
            HttpsConnectorBuilder::new().with_tls_config(
                rustls::ClientConfig::builder()
                    .with_root_certificates(rustls::RootCertStore::empty())
                    .with_no_client_auth(),
            )
        }
    };
    let connector = builder.https_or_http().enable_http1().wrap_connector(http);
    Client::builder(TokioExecutor::new())
        .pool_idle_timeout(POOL_IDLE_TIMEOUT)
        .pool_max_idle_per_host(POOL_IDLE_PER_HOST)
        .build(connector)
}

/// How long a pooled connection may wait for its next request. Shorter than the listeners'
/// own keep-alive (60 s), so this side closes first and never reuses a connection the other
/// end is closing.
pub const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// Idle connections kept per host (nginx's `keepalive` of an upstream). Each holds read and
/// write buffers at both ends, grown to the largest answer it carried: a burst of 50
/// concurrent requests left ~160 pooled connections across the sandbox's hops, about 8 MB
/// (heaptrack), kept until they timed out. Past the cap a returning connection is closed, so
/// it sits above a test suite's usual concurrency: at 8, 50 clients made the edge open ~250
/// connections a second to the app, each leaving a TIME_WAIT socket behind (at 16, ~150).
const POOL_IDLE_PER_HOST: usize = 16;

/// An error with its causes, `a: b: c` — hyper's own message alone ("client error (Connect)")
/// does not say what went wrong.
pub fn describe(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    #[error("the body is larger than {0} bytes")]
    TooLarge(usize),
    #[error("reading the body failed: {0}")]
    Read(String),
}

/// Reads a whole body, refusing more than `limit` bytes.
pub async fn read_body<B>(body: B, limit: usize) -> Result<Bytes, BodyError>
where
    B: http_body::Body<Data = Bytes>,
    B::Error: std::error::Error + Send + Sync + 'static,
{
    match Limited::new(body, limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(BodyError::TooLarge(limit)),
        Err(e) => Err(BodyError::Read(e.to_string())),
    }
}
