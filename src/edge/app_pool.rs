//! One edge thread's connections to the app, on hyper's connection API. hyper-util's pooled
//! client, which the edge used before, works for any number of hosts: per request it hashed
//! the host into its pool's map, cloned the connector, built a connect future it rarely ran
//! and moved that large future around (a tenth of the edge's CPU in the profile). An edge has
//! one app and each thread its own connections, so its pool is a short list under a lock no
//! other thread takes.
//!
//! Body-less requests to a plain-HTTP app (most requests) take the edge's own exchange instead
//! ([`super::app_exchange`]), on connections of their own kind in a list beside.
//!
//! A connection goes back to the list when its response body has ended (not on a
//! `101 Switching Protocols`: it is the tunnel's then), and is taken again only once hyper
//! says it is ready: a connection whose request body is still being sent (the app answered
//! an upload early) stays in the list until it is, and is never handed a request to queue.

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::http::{HeaderValue, Method, Request, Response, StatusCode, Uri, header};
use bytes::Bytes;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper::client::conn::http1;
use tower_service::Service;

use super::app_exchange::{AppConnection, Relay, request_head};
use super::upstream::ToApp;
use crate::http::{Connector, IdleConnections, POOL_IDLE_PER_HOST, POOL_IDLE_TIMEOUT};

/// Why the app gave no response.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// No connection could be made (refused, no such host, TLS failed): the app is not there.
    #[error("{0}")]
    Connect(String),
    /// A connection was made but the exchange failed (closed before answering, a malformed
    /// answer, the client's own body failing).
    #[error(transparent)]
    Exchange(#[from] hyper::Error),
    /// The same, on the edge's own exchange ([`super::app_exchange`]).
    #[error("{0}")]
    NoAnswer(String),
}

/// The connections of one edge thread to the app. Clones share them.
#[derive(Clone)]
pub struct AppPool {
    shared: Arc<Shared>,
}

struct Shared {
    connector: Connector,
    /// Where every connection goes (the app URL's scheme and authority), and the `Host` each
    /// request names (the browser's own moved to `X-Forwarded-Host`).
    origin: Option<(Uri, HeaderValue)>,
    /// Most recently used last: it is taken first, while its buffers are warm.
    idle: Mutex<Vec<Idle>>,
    /// `host:port` of a plain-HTTP app, whose body-less requests go on the edge's own
    /// connections ([`super::app_exchange`]), kept here most recently used last.
    plain: Option<String>,
    own_idle: Mutex<Vec<(AppConnection, Instant)>>,
}

struct Idle {
    sender: http1::SendRequest<ToApp>,
    since: Instant,
}

impl AppPool {
    /// A pool for `origin` (`scheme://authority`), or for nothing when the app URL has none:
    /// every request then fails to connect, naming the URL's problem.
    pub fn new(connector: Connector, origin: Option<Uri>) -> Self {
        let origin = origin.and_then(|uri| {
            let host = HeaderValue::from_str(uri.authority()?.as_str()).ok()?;
            Some((uri, host))
        });
        let plain = origin.as_ref().and_then(|(uri, _)| {
            let authority = uri.authority()?;
            (uri.scheme_str() == Some("http")).then(|| {
                format!(
                    "{}:{}",
                    authority.host(),
                    authority.port_u16().unwrap_or(80)
                )
            })
        });
        Self {
            shared: Arc::new(Shared {
                connector,
                origin,
                idle: Mutex::new(Vec::new()),
                plain,
                own_idle: Mutex::new(Vec::new()),
            }),
        }
    }

    /// Sends `request` (its URI in origin form) on an idle connection, or on a new one. A
    /// request that never left because its pooled connection had just closed is sent again
    /// on another; one that left is never sent twice.
    pub async fn send(&self, mut request: Request<ToApp>) -> Result<Response<AppBody>, AppError> {
        if let Some((_, host)) = &self.shared.origin {
            request
                .headers_mut()
                .entry(header::HOST)
                .or_insert_with(|| host.clone());
        }
        if let Some(addr) = &self.shared.plain
            && http_body::Body::is_end_stream(request.body())
            && !request.headers().contains_key(header::UPGRADE)
        {
            let target = request.uri().path_and_query().map_or("/", |p| p.as_str());
            let head = request_head(request.method(), target, request.headers());
            let method = request.method().clone();
            drop(request);
            return self.send_own(addr, &method, &head).await;
        }
        loop {
            let (mut sender, pooled) = match self.take_ready() {
                Some(sender) => (sender, true),
                None => (self.connect().await?, false),
            };
            if let Err(e) = sender.ready().await {
                if pooled {
                    continue;
                }
                return Err(e.into());
            }
            match sender.try_send_request(request).await {
                Ok(response) => return Ok(self.reply(response, sender)),
                Err(mut failed) => match failed.take_message() {
                    Some(unsent) if pooled => request = unsent,
                    _ => return Err(failed.into_error().into()),
                },
            }
        }
    }

    /// A body-less request on the edge's own connections. One that got nothing back on a
    /// reused connection (the app closed it meanwhile) is sent again on a new one if its
    /// method is idempotent (RFC 9110 §9.2.2).
    async fn send_own(
        &self,
        addr: &str,
        method: &Method,
        head: &[u8],
    ) -> Result<Response<AppBody>, AppError> {
        loop {
            let (connection, reused) = match self.take_own() {
                Some(connection) => (connection, true),
                None => {
                    let connection = AppConnection::connect(addr)
                        .await
                        .map_err(|e| AppError::Connect(format!("tcp connect error: {e}")))?;
                    (connection, false)
                }
            };
            match connection.exchange(method, head).await {
                Ok((response, relay)) => {
                    let pool = self.clone();
                    return Ok(response.map(|()| AppBody::Own { relay, pool }));
                }
                Err(e) if reused && e.nothing_back && method.is_idempotent() => {}
                Err(e) => return Err(AppError::NoAnswer(e.reason)),
            }
        }
    }

    fn take_own(&self) -> Option<AppConnection> {
        let mut idle = self.own_idle();
        let now = Instant::now();
        while let Some((connection, since)) = idle.pop() {
            if now - since < POOL_IDLE_TIMEOUT && connection.looks_open() {
                return Some(connection);
            }
        }
        None
    }

    fn put_back_own(&self, connection: AppConnection) {
        let mut idle = self.own_idle();
        if idle.len() < POOL_IDLE_PER_HOST {
            idle.push((connection, Instant::now()));
        }
    }

    fn own_idle(&self) -> std::sync::MutexGuard<'_, Vec<(AppConnection, Instant)>> {
        self.shared
            .own_idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<Idle>> {
        self.shared
            .idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The most recently used connection that is ready for a request; closed or expired ones
    /// met on the way are dropped (closing them), busy ones left for later.
    fn take_ready(&self) -> Option<http1::SendRequest<ToApp>> {
        let mut idle = self.idle();
        let now = Instant::now();
        let mut i = idle.len();
        while i > 0 {
            i -= 1;
            let connection = &idle[i];
            if connection.sender.is_closed() || now - connection.since >= POOL_IDLE_TIMEOUT {
                idle.swap_remove(i);
            } else if connection.sender.is_ready() {
                return Some(idle.remove(i).sender);
            }
        }
        None
    }

    async fn connect(&self) -> Result<http1::SendRequest<ToApp>, AppError> {
        let Some((origin, _)) = &self.shared.origin else {
            return Err(AppError::Connect("the app URL has no host".into()));
        };
        let mut connector = self.shared.connector.clone();
        let io = connector
            .call(origin.clone())
            .await
            .map_err(|e| AppError::Connect(crate::http::describe(&*e)))?;
        let (sender, connection) = http1::Builder::new().handshake(io).await?;
        tokio::spawn(async move {
            if let Err(e) = connection.with_upgrades().await {
                tracing::debug!(error = %e, "a connection to the app ended");
            }
        });
        Ok(sender)
    }

    /// The app's response, its body giving the connection back once read to its end.
    fn reply(
        &self,
        response: Response<Incoming>,
        sender: http1::SendRequest<ToApp>,
    ) -> Response<AppBody> {
        // After a 101 the connection is the upgrade's.
        let back = (response.status() != StatusCode::SWITCHING_PROTOCOLS).then(|| Back {
            pool: self.clone(),
            sender,
        });
        response.map(|body| AppBody::Hyper { body, back })
    }

    fn put_back(&self, sender: http1::SendRequest<ToApp>) {
        if sender.is_closed() {
            return;
        }
        let mut idle = self.idle();
        // Past the cap, the connection is closed (dropped) rather than kept.
        if idle.len() < POOL_IDLE_PER_HOST {
            idle.push(Idle {
                sender,
                since: Instant::now(),
            });
        }
    }
}

impl IdleConnections for AppPool {
    fn forget_idle(&self) {
        let closing = std::mem::take(&mut *self.idle());
        drop(closing);
        let closing = std::mem::take(&mut *self.own_idle());
        drop(closing);
    }
}

/// The app's response body, streamed as it comes; its connection goes back to the pool when
/// it ends (and is closed if the body is dropped before its end: the rest is unread).
pub enum AppBody {
    Hyper { body: Incoming, back: Option<Back> },
    Own { relay: Relay, pool: AppPool },
}

pub struct Back {
    pool: AppPool,
    sender: http1::SendRequest<ToApp>,
}

impl AppBody {
    fn give_back(&mut self) {
        match self {
            Self::Hyper { back, .. } => {
                if let Some(Back { pool, sender }) = back.take() {
                    pool.put_back(sender);
                }
            }
            Self::Own { relay, pool } => {
                if let Some(connection) = relay.reusable() {
                    pool.put_back_own(connection);
                }
            }
        }
    }
}

impl http_body::Body for AppBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::BoxError>>> {
        let this = &mut *self;
        let frame = match this {
            Self::Hyper { body, back } => {
                let frame = Pin::new(body).poll_frame(cx);
                if let Poll::Ready(Some(Err(_))) = &frame {
                    *back = None;
                }
                frame.map_err(Into::into)
            }
            Self::Own { relay, .. } => relay
                .poll_data(cx)
                .map(|data| data.map(|data| data.map(Frame::data))),
        };
        if let Poll::Ready(None) = &frame {
            this.give_back();
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Self::Hyper { body, .. } => body.is_end_stream(),
            Self::Own { relay, .. } => relay.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Self::Hyper { body, .. } => body.size_hint(),
            Self::Own { relay, .. } => relay.size_hint(),
        }
    }
}

impl Drop for AppBody {
    /// A body whose end was never polled (an empty one, the answer to `HEAD`) is still whole.
    fn drop(&mut self) {
        if http_body::Body::is_end_stream(self) {
            self.give_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use axum::body::Body;
    use http_body_util::{BodyExt, Either as BodyEither};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// An app that answers each request head at once with `200 ok`, reading no body: as an
    /// app refusing an upload early. Counts its connections.
    async fn early_answering_app() -> (Uri, Arc<AtomicUsize>) {
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
        scripted_app(ok.to_vec(), false).await
    }

    fn pool_for(origin: Uri) -> AppPool {
        AppPool::new(crate::http::client().connector(), Some(origin))
    }

    async fn get(pool: &AppPool) -> Bytes {
        let request = Request::get("/").body(BodyEither::Right(Body::empty()));
        let response = tokio::time::timeout(
            Duration::from_secs(10),
            pool.send(request.expect("request")),
        )
        .await
        .expect("the request waited behind another")
        .expect("an answer");
        response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes()
    }

    #[tokio::test]
    async fn a_connection_still_sending_an_upload_is_not_handed_the_next_request() {
        let (origin, accepted) = early_answering_app().await;
        let pool = pool_for(origin);
        // An upload whose body never ends: the app answered its head.
        let (_still_sending, chunks) =
            tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(1);
        let endless = Body::from_stream(stream_of(chunks));
        let upload = Request::post("/upload").body(BodyEither::Right(endless));
        let answer = pool
            .send(upload.expect("request"))
            .await
            .expect("an answer");
        let body = answer.into_body().collect().await.expect("body").to_bytes();
        assert_eq!(&body[..], b"ok");
        // Its connection is back in the list but busy: the next request takes a new one
        // rather than queueing behind the upload.
        assert_eq!(&get(&pool).await[..], b"ok");
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
        // And that one, done, is used again.
        assert_eq!(&get(&pool).await[..], b"ok");
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn forgetting_the_idle_connections_closes_them_and_the_next_request_connects_anew() {
        let (origin, accepted) = early_answering_app().await;
        let pool = pool_for(origin);
        assert_eq!(&get(&pool).await[..], b"ok");
        pool.forget_idle();
        assert_eq!(&get(&pool).await[..], b"ok");
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn no_app_to_connect_to_is_a_connect_error_naming_why() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let origin = format!("http://{}/", listener.local_addr().expect("address"));
        drop(listener);
        let pool = pool_for(origin.parse().expect("origin"));
        let request = Request::get("/").body(BodyEither::Right(Body::empty()));
        match pool.send(request.expect("request")).await {
            Err(AppError::Connect(reason)) => assert!(reason.contains("refused"), "{reason}"),
            other => panic!("not a connect error: {:?}", other.map(|r| r.status())),
        }
        let nowhere = AppPool::new(crate::http::client().connector(), None);
        let request = Request::get("/").body(BodyEither::Right(Body::empty()));
        assert!(matches!(
            nowhere.send(request.expect("request")).await,
            Err(AppError::Connect(_))
        ));
    }

    /// An app answering every request head with `answer` (closing the connection after it
    /// if `close`); counts its connections.
    async fn scripted_app(answer: Vec<u8>, close: bool) -> (Uri, Arc<AtomicUsize>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let origin = format!("http://{}/", listener.local_addr().expect("address"));
        let accepted = Arc::new(AtomicUsize::new(0));
        let counter = accepted.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                let answer = answer.clone();
                tokio::spawn(async move {
                    let mut read = Vec::new();
                    let mut chunk = [0u8; 1024];
                    loop {
                        if let Some(end) = read.windows(4).position(|w| w == b"\r\n\r\n") {
                            read.drain(..end + 4);
                            if socket.write_all(&answer).await.is_err() || close {
                                return;
                            }
                            continue;
                        }
                        match socket.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => read.extend_from_slice(&chunk[..n]),
                        }
                    }
                });
            }
        });
        (origin.parse().expect("origin"), accepted)
    }

    #[tokio::test]
    async fn a_chunked_answer_passes_whole_and_its_connection_is_kept() {
        let answer = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n";
        let (origin, accepted) = scripted_app(answer.to_vec(), false).await;
        let pool = pool_for(origin);
        for _ in 0..3 {
            assert_eq!(&get(&pool).await[..], b"ok");
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn an_answer_longer_than_it_said_never_reaches_the_next_request() {
        // Two bytes announced, more sent: the rest must not be read as the next answer.
        let answer = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nokHTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nevil";
        let (origin, accepted) = scripted_app(answer.to_vec(), false).await;
        let pool = pool_for(origin);
        assert_eq!(&get(&pool).await[..], b"ok");
        assert_eq!(&get(&pool).await[..], b"ok");
        assert_eq!(
            accepted.load(Ordering::SeqCst),
            2,
            "the first connection was not reused"
        );
    }

    #[tokio::test]
    async fn an_answer_ending_with_the_connection_is_whole_and_the_next_connects_anew() {
        // No length and no chunking: the body is what comes until the app closes.
        let answer = b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nok";
        let (origin, accepted) = scripted_app(answer.to_vec(), true).await;
        let pool = pool_for(origin);
        assert_eq!(&get(&pool).await[..], b"ok");
        assert_eq!(&get(&pool).await[..], b"ok");
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn an_app_answering_garbage_or_an_endless_head_gets_a_reason() {
        let endless = [&b"HTTP/1.1 200 OK\r\nx-filler: "[..], &[b'a'; 70_000]].concat();
        for (answer, reason) in [
            (b"SMTP ready\r\n\r\n".to_vec(), "malformed"),
            (endless, "over 65536 bytes"),
        ] {
            let (origin, _) = scripted_app(answer, false).await;
            let request = Request::get("/").body(BodyEither::Right(Body::empty()));
            match pool_for(origin).send(request.expect("request")).await {
                Err(AppError::NoAnswer(why)) => assert!(why.contains(reason), "{why}"),
                other => panic!("not refused: {:?}", other.map(|r| r.status())),
            }
        }
    }

    /// The receiver as a stream of body chunks.
    fn stream_of(
        mut chunks: tokio::sync::mpsc::Receiver<Result<Bytes, std::io::Error>>,
    ) -> impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> {
        futures_util::stream::poll_fn(move |cx| chunks.poll_recv(cx))
    }
}
