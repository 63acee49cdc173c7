//! One edge thread's connections to the app, on hyper's connection API. hyper-util's pooled
//! client, which the edge used before, works for any number of hosts: per request it hashed
//! the host into its pool's map, cloned the connector, built a connect future it rarely ran
//! and moved that large future around (a tenth of the edge's CPU in the profile). An edge has
//! one app and each thread its own connections, so its pool is a short list under a lock no
//! other thread takes.
//!
//! A connection goes back to the list when its response body has ended (not on a
//! `101 Switching Protocols`: it is the tunnel's then), and is taken again only once hyper
//! says it is ready: a connection whose request body is still being sent (the app answered
//! an upload early) stays in the list until it is, and is never handed a request to queue.

use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Instant;

use axum::http::{HeaderValue, Request, Response, StatusCode, Uri, header};
use bytes::Bytes;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper::client::conn::http1;
use tower_service::Service;

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
        Self {
            shared: Arc::new(Shared {
                connector,
                origin,
                idle: Mutex::new(Vec::new()),
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
        response.map(|body| AppBody { body, back })
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
    }
}

/// The app's response body, streamed as it comes; its connection goes back to the pool when
/// it ends (and is closed if the body is dropped before its end: the rest is unread).
pub struct AppBody {
    body: Incoming,
    back: Option<Back>,
}

struct Back {
    pool: AppPool,
    sender: http1::SendRequest<ToApp>,
}

impl AppBody {
    fn give_back(&mut self) {
        if let Some(Back { pool, sender }) = self.back.take() {
            pool.put_back(sender);
        }
    }
}

impl http_body::Body for AppBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let frame = Pin::new(&mut self.body).poll_frame(cx);
        match &frame {
            Poll::Ready(None) => self.give_back(),
            Poll::Ready(Some(Err(_))) => self.back = None,
            _ => {}
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

impl Drop for AppBody {
    /// A body whose end was never polled (an empty one, the answer to `HEAD`) is still whole.
    fn drop(&mut self) {
        if http_body::Body::is_end_stream(&self.body) {
            self.give_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use axum::body::Body;
    use http_body_util::BodyExt;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// An app that answers each request head at once with `200 ok`, reading no body: as an
    /// app refusing an upload early. Counts its connections.
    async fn early_answering_app() -> (Uri, Arc<AtomicUsize>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let origin = format!("http://{}/", listener.local_addr().expect("address"));
        let accepted = Arc::new(AtomicUsize::new(0));
        let counter = accepted.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(async move {
                    let mut read = Vec::new();
                    let mut chunk = [0u8; 1024];
                    loop {
                        if let Some(end) = read.windows(4).position(|w| w == b"\r\n\r\n") {
                            read.drain(..end + 4);
                            let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";
                            if socket.write_all(ok).await.is_err() {
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

    fn pool_for(origin: Uri) -> AppPool {
        AppPool::new(crate::http::client().connector(), Some(origin))
    }

    async fn get(pool: &AppPool) -> Bytes {
        let request = Request::get("/").body(ToApp::Routed(Body::empty()));
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
        let upload = Request::post("/upload").body(ToApp::Routed(endless));
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
        let request = Request::get("/").body(ToApp::Routed(Body::empty()));
        match pool.send(request.expect("request")).await {
            Err(AppError::Connect(reason)) => assert!(reason.contains("refused"), "{reason}"),
            other => panic!("not a connect error: {:?}", other.map(|r| r.status())),
        }
        let nowhere = AppPool::new(crate::http::client().connector(), None);
        let request = Request::get("/").body(ToApp::Routed(Body::empty()));
        assert!(matches!(
            nowhere.send(request.expect("request")).await,
            Err(AppError::Connect(_))
        ));
    }

    /// The receiver as a stream of body chunks.
    fn stream_of(
        mut chunks: tokio::sync::mpsc::Receiver<Result<Bytes, std::io::Error>>,
    ) -> impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> {
        futures_util::stream::poll_fn(move |cx| chunks.poll_recv(cx))
    }
}
