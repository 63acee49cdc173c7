//! The one HTTP client the components use to talk to each other, to the app and to a real
//! Trino: HTTP/1 over hyper, pooled, with TLS (rustls, the system's roots) for `https://` URLs —
//! a real Trino authenticates only over HTTPS.

use std::sync::{Arc, RwLock};
use std::time::Duration;

use axum::body::{Body, Bytes};
use http_body_util::{BodyExt, Limited};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::{Client, ResponseFuture};
use hyper_util::rt::TokioExecutor;
use rustls::pki_types::CertificateDer;

/// Plain TCP or TLS by the URL's scheme; every pool shares one, built once.
pub type Connector = HttpsConnector<HttpConnector>;

/// The pooled client, and a way to close its idle connections at once ([`Self::forget_idle`]).
/// Clones share one pool. `B` is the request body (`Body` for every component; the edge keeps
/// its own connections, `edge::app_pool`).
pub struct HttpClient<B = Body> {
    shared: Arc<Shared<B>>,
}

impl<B> Clone for HttpClient<B> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

struct Shared<B> {
    /// Replaced whole by [`HttpClient::forget_idle`]: hyper's pool has no call that empties it.
    pool: RwLock<Client<Connector, B>>,
    /// Built once (it reads the system's root certificates), shared by every pool.
    connector: Connector,
}

impl<B> std::fmt::Debug for HttpClient<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HttpClient")
    }
}

impl<B> HttpClient<B>
where
    B: http_body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    pub fn request(&self, request: axum::http::Request<B>) -> ResponseFuture {
        // The future owns a handle on the pool it was made from: the lock is held only while
        // it is made.
        let pool = self.shared.pool.read().unwrap_or_else(|p| p.into_inner());
        pool.request(request)
    }

    /// Closes every idle pooled connection now, rather than [`POOL_IDLE_TIMEOUT`] later: a
    /// quiet process's connections hold buffers at both ends, grown to the largest answer
    /// each carried (about 15 MB after a burst of 50 clients). Requests in flight keep the
    /// old pool until they end, and their connections close then.
    pub fn forget_idle(&self) {
        let fresh = pool(self.shared.connector.clone());
        let old = std::mem::replace(
            &mut *self.shared.pool.write().unwrap_or_else(|p| p.into_inner()),
            fresh,
        );
        drop(old);
    }

    /// The connector, with its TLS set-up, for a pool of another kind (the edge's own).
    pub fn connector(&self) -> Connector {
        self.shared.connector.clone()
    }
}

/// A pool whose idle connections the process closes once it goes quiet
/// (`heap::give_back_when_quiet`), whatever its request body.
pub trait IdleConnections: Send + Sync {
    fn forget_idle(&self);
}

impl<B> IdleConnections for HttpClient<B>
where
    B: http_body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    fn forget_idle(&self) {
        HttpClient::forget_idle(self);
    }
}

pub fn client() -> HttpClient {
    client_trusting(Vec::new())
}

/// The client, trusting `authorities` beside the system's roots for `https://` URLs: the
/// authority of an organization's Trino (`[querymesh] ca_file`).
pub fn client_trusting(authorities: Vec<CertificateDer<'static>>) -> HttpClient {
    let mut http = HttpConnector::new();
    http.set_nodelay(true);
    http.set_connect_timeout(Some(Duration::from_secs(5)));
    http.enforce_http(false);
    let mut roots = rustls::RootCertStore::empty();
    let native = rustls_native_certs::load_native_certs();
    if let Some(e) = native.errors.first() {
        // Plain HTTP (everything local) still works; https URLs fail with a clear TLS error.
        tracing::warn!(
            "cannot read every system root certificate ({e}); https:// URLs may not verify"
        );
    }
    // A system certificate rustls cannot parse is skipped, as hyper-rustls's own loader does.
    roots.add_parsable_certificates(native.certs);
    roots.add_parsable_certificates(authorities);
    let tls = rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    HttpClient {
        shared: Arc::new(Shared {
            pool: RwLock::new(pool(connector.clone())),
            connector,
        }),
    }
}

/// Why a file of trusted certificates cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("cannot use `querymesh.ca_file` {}: {problem}", path.display())]
pub struct TrustFileError {
    path: std::path::PathBuf,
    problem: String,
}

/// The PEM certificates of `path` (`[querymesh] ca_file`): at least one, each one parsed.
pub fn read_trusted(
    path: &std::path::Path,
) -> Result<Vec<CertificateDer<'static>>, TrustFileError> {
    use rustls::pki_types::pem::PemObject;
    let refused = |problem: String| TrustFileError {
        path: path.to_path_buf(),
        problem,
    };
    let pem = std::fs::read(path).map_err(|e| refused(e.to_string()))?;
    let certificates = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| refused(format!("not PEM certificates ({e})")))?;
    if certificates.is_empty() {
        return Err(refused(
            "holds no PEM certificate (-----BEGIN CERTIFICATE-----)".into(),
        ));
    }
    let mut check = rustls::RootCertStore::empty();
    for certificate in &certificates {
        check
            .add(certificate.clone())
            .map_err(|e| refused(format!("a certificate cannot be trusted ({e})")))?;
    }
    Ok(certificates)
}

fn pool<B>(connector: Connector) -> Client<Connector, B>
where
    B: http_body::Body + Send,
    B::Data: Send,
{
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
/// (heaptrack), until [`HttpClient::forget_idle`] closes them. Past the cap a returning
/// connection is closed, so it sits above a test suite's usual concurrency: at 8, 50 clients
/// made the edge open ~250 connections a second to the app, each leaving a TIME_WAIT socket
/// behind (at 16, ~150).
pub const POOL_IDLE_PER_HOST: usize = 16;

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

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};
    use tokio::sync::oneshot;

    use super::*;

    /// Answers the one request of `tcp`, then reads on: `0` is the client closing it.
    async fn answer_then_read(mut tcp: TcpStream) -> usize {
        let mut request = Vec::new();
        let mut buf = [0u8; 1024];
        while !request.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = tcp.read(&mut buf).await.expect("read the request");
            assert_ne!(n, 0, "the client closed before sending its request");
            request.extend_from_slice(&buf[..n]);
        }
        tcp.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
            .await
            .expect("answer");
        tcp.read(&mut buf).await.expect("read after the answer")
    }

    #[tokio::test]
    async fn forget_idle_closes_a_pooled_connection_now_and_the_next_request_opens_another() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://{}/", listener.local_addr().expect("addr"));
        let (first_ended, first_end) = oneshot::channel();
        tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.expect("accept");
            let _ = first_ended.send(answer_then_read(tcp).await);
            let (tcp, _) = listener.accept().await.expect("accept the second");
            answer_then_read(tcp).await;
        });
        let http = client();
        let get = || async {
            let request = axum::http::Request::get(url.as_str()).body(Body::empty());
            let response = http
                .request(request.expect("request"))
                .await
                .expect("answer");
            read_body(response.into_body(), 16).await.expect("body")
        };
        assert_eq!(&get().await[..], b"ok");

        http.forget_idle();
        // Well inside the pool's own idle timeout, which would close it too, later.
        let read = tokio::time::timeout(POOL_IDLE_TIMEOUT / 2, first_end)
            .await
            .expect("the pooled connection was not closed")
            .expect("the app task");
        assert_eq!(read, 0, "the connection was not closed");
        assert_eq!(&get().await[..], b"ok", "on a new connection");
    }
}
