//! Serving a component's router on its listener, with the limits `axum::serve` lacks: a
//! deadline for each request's headers, for an idle kept-alive connection and for a stalled
//! request body, and a cap on open connections. Without them a client that sends half a
//! request holds its connection forever, and a thousand such clients exhaust the process's
//! file descriptors, stopping every listener at once.
//!
//! Each listener has its own cap, so a flood of one refuses only there: past the cap a
//! connection gets a `503` in its component's own error shape and is closed. The timers are
//! ours, not hyper's `header_read_timeout`: hyper's starts as soon as a connection goes idle,
//! so it cannot keep an idle connection longer than it gives a client to send headers.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, Response};
use bytes::Bytes;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::{Instant, Sleep};
use tower_service::Service;

/// How long each listener waits for clients, and how many it serves at once. Not in
/// zero-sandbox.toml; tests shorten them through [`crate::Config::listeners`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// From a connection's start, or from the first byte of a request on a kept-alive one, to
    /// the end of its headers (nginx's `client_header_timeout`, Node's `headersTimeout`); the
    /// QueryMesh port's TLS handshake counts in it. A client on a working network sends
    /// headers in milliseconds; 10 s leaves room for a loaded CI machine.
    pub header_read_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request (nginx's 75 s
    /// `keepalive_timeout`). Longer than the components' own client keeps an idle connection
    /// ([`crate::http::POOL_IDLE_TIMEOUT`]), so between them that client closes first and
    /// never reuses one this side is closing.
    pub idle_timeout: Duration,
    /// How long a request body may go without a byte while the server waits for it. Only
    /// while it waits: a body the app reads slowly through the edge, and responses (SSE,
    /// streamed downloads, WebSockets), are never timed.
    pub body_read_timeout: Duration,
    /// Connections one listener serves at once; past it a new one is refused with 503. The
    /// process raises its open-file limit (see [`raise_open_file_limit`]) so this cap, not
    /// the file descriptors, is what refuses.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            header_read_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            body_read_timeout: Duration::from_secs(30),
            max_connections: 256,
        }
    }
}

/// The response a listener past its cap writes before closing: its component's own error
/// shape, so a client reads the reason where it reads every other error.
#[derive(Clone, Debug)]
pub struct Busy {
    pub content_type: &'static str,
    pub body: String,
}

impl Busy {
    fn to_http(&self) -> Vec<u8> {
        // RFC 9110 §15.6.4: 503 is a temporary overload; Retry-After (§10.2.3) says when.
        format!(
            "HTTP/1.1 503 Service Unavailable\r\ncontent-type: {}\r\ncontent-length: {}\r\n\
             retry-after: 1\r\ncache-control: no-store\r\nconnection: close\r\n\r\n{}",
            self.content_type,
            self.body.len(),
            self.body
        )
        .into_bytes()
    }
}

/// What happens to a connection between `accept` and HTTP: nothing for most listeners, the
/// plain-or-TLS sorting on the QueryMesh port. Its output `Info` reaches handlers as
/// `ConnectInfo<Info>`.
pub trait Handshake: Clone + Send + Sync + 'static {
    type Io: AsyncRead + AsyncWrite + Unpin + Send + 'static;
    type Info: Clone + Send + Sync + 'static;
    /// The connection ready for HTTP, or `None` to close it (a failed TLS handshake).
    fn handshake(
        &self,
        tcp: TcpStream,
        peer: SocketAddr,
    ) -> impl Future<Output = Option<(Self::Io, Self::Info)>> + Send;
}

/// HTTP straight on TCP; handlers get the peer's `ConnectInfo<SocketAddr>`.
#[derive(Clone, Copy, Debug)]
pub struct Plain;

impl Handshake for Plain {
    type Io = TcpStream;
    type Info = SocketAddr;
    async fn handshake(&self, tcp: TcpStream, peer: SocketAddr) -> Option<(TcpStream, SocketAddr)> {
        Some((tcp, peer))
    }
}

/// Refused connections whose 503 is still being written or whose request is being drained;
/// past this many, a refused connection is closed without one.
const MAX_REFUSING: usize = 64;
/// How long a refused connection is drained after its 503, so the client's request, still
/// arriving, does not make the kernel reset the connection and discard the 503 unread
/// (RFC 9112 §9.6: close the write side first, then read until the client closes).
const REFUSAL_LINGER: Duration = Duration::from_secs(1);

/// Serves `router` on `listener` until `shutdown` turns true, then lets open connections
/// finish: each is told to close once its current response is out. Aborting the returned
/// task closes every connection at once.
pub fn serve<H: Handshake>(
    listener: TcpListener,
    handshake: H,
    router: Router,
    limits: Limits,
    busy: Busy,
    mut shutdown: watch::Receiver<bool>,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let open = Arc::new(Semaphore::new(limits.max_connections));
        let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
        let busy: Arc<[u8]> = busy.to_http().into();
        let limits = Arc::new(limits);
        let mut connections = JoinSet::new();
        loop {
            let (tcp, peer) = tokio::select! {
                () = stopping(&mut shutdown) => break,
                Some(_) = connections.join_next() => continue,
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        accept_failed(e).await;
                        continue;
                    }
                },
            };
            // Streamed responses (the edge's SSE and chunked pass-through, TLS records) go out
            // as many small writes; Nagle's algorithm would hold each for the client's
            // delayed ACK.
            let _ = tcp.set_nodelay(true);
            match open.clone().try_acquire_owned() {
                Ok(permit) => {
                    let connection = Connection {
                        handshake: handshake.clone(),
                        router: router.clone(),
                        limits: limits.clone(),
                        shutdown: shutdown.clone(),
                        permit,
                    };
                    connections.spawn(connection.serve(tcp, peer));
                }
                Err(_) => {
                    if let Ok(permit) = refusing.clone().try_acquire_owned() {
                        connections.spawn(refuse(tcp, busy.clone(), permit));
                    }
                }
            }
        }
        drop(listener);
        while connections.join_next().await.is_some() {}
    })
}

/// Resolves once `shutdown` says stop (or its sender is gone).
async fn stopping(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// Out of file descriptors and the like: the condition usually passes, and retrying at once
/// would spin. A connection reset before it was accepted is nobody's problem.
async fn accept_failed(e: io::Error) {
    if matches!(
        e.kind(),
        io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    ) {
        return;
    }
    tracing::warn!(error = %e, "cannot accept a connection");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// Writes the 503, closes the write side, and drains what the client still sends for a
/// moment before closing.
async fn refuse(mut tcp: TcpStream, busy: Arc<[u8]>, _permit: OwnedSemaphorePermit) {
    let linger = async {
        tcp.write_all(&busy).await?;
        tcp.shutdown().await?;
        let mut sink = [0u8; 4096];
        while tcp.read(&mut sink).await? > 0 {}
        io::Result::Ok(())
    };
    let _ = tokio::time::timeout(REFUSAL_LINGER, linger).await;
}

struct Connection<H> {
    handshake: H,
    router: Router,
    limits: Arc<Limits>,
    shutdown: watch::Receiver<bool>,
    /// This connection's place under the listener's cap; moves into its I/O once ready.
    permit: OwnedSemaphorePermit,
}

impl<H: Handshake> Connection<H> {
    async fn serve(self, tcp: TcpStream, peer: SocketAddr) {
        let Self {
            handshake,
            router,
            limits,
            mut shutdown,
            permit,
        } = self;
        // A new connection is waiting for its first request's headers from the start: a
        // client that connects and says nothing is closed as one that stops mid-header.
        let activity = Arc::new(Activity::new(Phase::Head {
            since: Instant::now(),
        }));
        let deadline = Instant::now() + limits.header_read_timeout;
        let Ok(Some((io, info))) =
            tokio::time::timeout_at(deadline, handshake.handshake(tcp, peer)).await
        else {
            return;
        };
        let io = Watched {
            inner: io,
            activity: activity.clone(),
            _permit: permit,
        };
        let service = RequestService {
            router,
            info,
            activity: activity.clone(),
            body_read_timeout: limits.body_read_timeout,
        };
        let http = hyper::server::conn::http1::Builder::new()
            // Ours instead (see the module's comment).
            .header_read_timeout(None)
            .serve_connection(TokioIo::new(io), service)
            .with_upgrades();
        tokio::pin!(http);
        let mut closing = *shutdown.borrow();
        if closing {
            http.as_mut().graceful_shutdown();
        }
        loop {
            tokio::select! {
                result = http.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(error = %e, "connection ended with an error");
                    }
                    return;
                }
                // Headers or the next request did not come in time: nothing is in flight,
                // so closing loses no response.
                () = activity.expired(&limits) => return,
                () = stopping(&mut shutdown), if !closing => {
                    closing = true;
                    http.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// Where a connection is between requests, for its timers.
#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Waiting for the end of a request's headers since `since`.
    Head { since: Instant },
    /// This many requests are being answered (their responses not yet fully written).
    Busy { requests: usize },
    /// Kept alive with nothing asked since `since`.
    Idle { since: Instant },
}

/// A connection's phase, moved by its reads and by the requests it serves.
struct Activity {
    phase: Mutex<Phase>,
    changed: Notify,
}

impl Activity {
    fn new(phase: Phase) -> Self {
        Self {
            phase: Mutex::new(phase),
            changed: Notify::new(),
        }
    }

    fn update(&self, change: impl FnOnce(Phase) -> Phase) {
        let mut phase = self.phase.lock().unwrap_or_else(PoisonError::into_inner);
        *phase = change(*phase);
        self.changed.notify_one();
    }

    fn phase(&self) -> Phase {
        *self.phase.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The first bytes after an idle spell start the next request's headers.
    fn bytes_arrived(&self) {
        let mut phase = self.phase.lock().unwrap_or_else(PoisonError::into_inner);
        if let Phase::Idle { .. } = *phase {
            *phase = Phase::Head {
                since: Instant::now(),
            };
            self.changed.notify_one();
        }
    }

    /// Not notified: a timer that fires while busy finds the phase busy and waits for the
    /// next change, so only the way out of busy must wake [`Self::expired`]. It runs in the
    /// connection's own task, which a notification here would poll again for nothing on
    /// every request.
    fn request_started(self: &Arc<Self>) -> InFlight {
        let mut phase = self.phase.lock().unwrap_or_else(PoisonError::into_inner);
        *phase = match *phase {
            Phase::Busy { requests } => Phase::Busy {
                requests: requests + 1,
            },
            Phase::Head { .. } | Phase::Idle { .. } => Phase::Busy { requests: 1 },
        };
        drop(phase);
        InFlight(self.clone())
    }

    /// Resolves once the connection has waited past its limit for headers or for its next
    /// request; never while a request is in flight.
    async fn expired(&self, limits: &Limits) {
        loop {
            let changed = self.changed.notified();
            let deadline = match self.phase() {
                Phase::Head { since } => since + limits.header_read_timeout,
                Phase::Idle { since } => since + limits.idle_timeout,
                Phase::Busy { .. } => {
                    changed.await;
                    continue;
                }
            };
            tokio::select! {
                () = changed => {}
                () = tokio::time::sleep_until(deadline) => {
                    if !matches!(self.phase(), Phase::Busy { .. }) {
                        return;
                    }
                }
            }
        }
    }
}

/// A request being answered; dropped once its response body is written (or abandoned).
struct InFlight(Arc<Activity>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.update(|phase| match phase {
            Phase::Busy { requests } if requests > 1 => Phase::Busy {
                requests: requests - 1,
            },
            _ => Phase::Idle {
                since: Instant::now(),
            },
        });
    }
}

/// The connection's I/O, telling its [`Activity`] when bytes arrive. It holds the
/// connection's place under the cap, so an upgraded connection (a WebSocket through the
/// edge), which hyper hands over with this I/O, still counts until it closes.
struct Watched<T> {
    inner: T,
    activity: Arc<Activity>,
    _permit: OwnedSemaphorePermit,
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        ready!(Pin::new(&mut self.inner).poll_read(cx, buf))?;
        if buf.filled().len() > before {
            self.activity.bytes_arrived();
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Each request as the router expects it: its connection's `ConnectInfo`, a body whose stalls
/// are timed, and a response body that marks the request finished once written.
#[derive(Clone)]
struct RequestService<I> {
    router: Router,
    info: I,
    activity: Arc<Activity>,
    body_read_timeout: Duration,
}

impl<I: Clone + Send + Sync + 'static> hyper::service::Service<Request<Incoming>>
    for RequestService<I>
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        let in_flight = self.activity.request_started();
        crate::heap::request_started();
        let timeout = self.body_read_timeout;
        let mut request = request.map(|body| Body::new(ClientBody::new(body, timeout)));
        request
            .extensions_mut()
            .insert(ConnectInfo(self.info.clone()));
        let mut router = self.router.clone();
        Box::pin(async move {
            let response = router.call(request).await?;
            Ok(response.map(|body| {
                Body::new(Answering {
                    inner: body,
                    _in_flight: in_flight,
                })
            }))
        })
    }
}

/// Why a request body could not be read: the client's fault, whoever reads it. The edge
/// looks for this in the error chain of a failed forward to tell it from the app's failure.
#[derive(Debug, thiserror::Error)]
pub enum ClientBodyError {
    #[error("no byte of the request body arrived for {} s", .0.as_secs_f64())]
    Stalled(Duration),
    /// hyper's error with its causes (its own message alone does not say what was wrong).
    #[error("the request body is malformed or was cut short: {0}")]
    Read(String),
}

/// The request body, failing once the client leaves it without a byte for the timeout while
/// it is being waited for.
struct ClientBody {
    inner: Incoming,
    timeout: Duration,
    /// Set while a read is pending; cleared by each frame.
    stall: Option<Pin<Box<Sleep>>>,
}

impl ClientBody {
    fn new(inner: Incoming, timeout: Duration) -> Self {
        Self {
            inner,
            timeout,
            stall: None,
        }
    }
}

impl http_body::Body for ClientBody {
    type Data = Bytes;
    type Error = ClientBodyError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, ClientBodyError>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            self.stall = None;
            let read = |e: hyper::Error| ClientBodyError::Read(crate::http::describe(&e));
            return Poll::Ready(frame.map(|f| f.map_err(read)));
        }
        let timeout = self.timeout;
        let stall = self
            .stall
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        ready!(stall.as_mut().poll(cx));
        self.stall = None;
        Poll::Ready(Some(Err(ClientBodyError::Stalled(timeout))))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// A response body carrying its request's [`InFlight`] until hyper drops it, written.
struct Answering {
    inner: Body,
    _in_flight: InFlight,
}

impl http_body::Body for Answering {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Raises this process's open-file soft limit to its hard limit, so the listeners' caps, not
/// running out of file descriptors, are what refuse under load (many systems start processes
/// at a soft limit of 1,024 with a far higher hard limit). Returns the limit now in force.
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // rlim_t is u64 on Linux and macOS, not on every Unix.
pub fn raise_open_file_limit() -> io::Result<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit through a valid pointer to a local.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if limit.rlim_cur >= limit.rlim_max {
        return Ok(limit.rlim_cur as u64);
    }
    let mut wanted = limit.rlim_max;
    // macOS refuses a soft limit above OPEN_MAX (10,240) even when the hard one is unlimited.
    if cfg!(target_os = "macos") {
        wanted = wanted.min(10_240);
    }
    let raised = libc::rlimit {
        rlim_cur: wanted,
        rlim_max: limit.rlim_max,
    };
    // SAFETY: setrlimit reads one rlimit through a valid pointer to a local.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(wanted as u64)
}

#[cfg(not(unix))]
pub fn raise_open_file_limit() -> io::Result<u64> {
    Err(io::Error::other("not a Unix system"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_a_whole_response_that_closes() {
        let busy = Busy {
            content_type: "text/plain; charset=utf-8",
            body: "plein à craquer".into(),
        };
        let http = String::from_utf8(busy.to_http()).unwrap();
        let (head, body) = http.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 503 Service Unavailable\r\n"));
        assert!(head.contains("\r\nconnection: close"));
        // Content-Length counts bytes, not characters.
        assert!(head.contains(&format!("\r\ncontent-length: {}", body.len())));
        assert_eq!(body.len(), "plein à craquer".len());
    }
}
