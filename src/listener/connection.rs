//! One connection under its place: the handshake, HTTP/1 with its timers, each request's
//! body timed while it is waited for, and each response marking its request finished.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
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
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::{Instant, Sleep};
use tower_service::Service;

use super::activity::{Activity, Expired, InFlight};
use super::places::{Place, Places};
use super::{Handshake, stopping};

pub(super) struct Connection<H> {
    pub(super) handshake: H,
    pub(super) router: Router,
    pub(super) places: Arc<Places>,
    pub(super) shutdown: watch::Receiver<bool>,
}

impl<H: Handshake> Connection<H> {
    /// Serves the connection in `place` (which moves into its I/O once ready).
    pub(super) async fn serve(self, tcp: TcpStream, peer: SocketAddr, place: Place) {
        let Self {
            handshake,
            router,
            places,
            mut shutdown,
        } = self;
        let activity = place.activity.clone();
        // However it ends, or hands its I/O to an upgrade, it is no longer timed or a
        // connection to close for room.
        let _ended = Ended(activity.clone());
        let handshaken = tokio::select! {
            handshaken = handshake.handshake(tcp, peer) => handshaken,
            _ = activity.expired(&places) => None,
        };
        let Some((io, info)) = handshaken else {
            return;
        };
        let io = Watched {
            inner: io,
            activity: activity.clone(),
            _place: place,
        };
        let service = RequestService {
            router,
            info,
            activity: activity.clone(),
            places: places.clone(),
            body_read_timeout: places.limits().body_read_timeout,
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
        // Once told to make room: until when the last response may take to go out.
        let mut giving_up: Option<Instant> = None;
        loop {
            tokio::select! {
                result = http.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(error = %e, "connection ended with an error");
                    }
                    return;
                }
                expired = activity.expired(&places), if giving_up.is_none() => match expired {
                    // Headers or the next request did not come in time: nothing is in
                    // flight, so closing loses no response.
                    Expired::Deadline => return,
                    // Idle, but the end of its last response may still be in hyper's
                    // buffer: closed once that is written, as on shutdown. A client that
                    // does not read it keeps the place no longer than a header deadline.
                    Expired::MakeRoom => {
                        giving_up = Some(Instant::now() + places.limits().header_read_timeout);
                        if !closing {
                            closing = true;
                            http.as_mut().graceful_shutdown();
                        }
                    }
                },
                () = sleep_until_some(giving_up) => return,
                () = stopping(&mut shutdown), if !closing => {
                    closing = true;
                    http.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// Resolves at `until`, never without one.
async fn sleep_until_some(until: Option<Instant>) {
    match until {
        Some(until) => tokio::time::sleep_until(until).await,
        None => std::future::pending().await,
    }
}

struct Ended(Arc<Activity>);

impl Drop for Ended {
    fn drop(&mut self) {
        self.0.ended();
    }
}

/// The connection's I/O, telling its [`Activity`] when bytes arrive. It holds the
/// connection's [`Place`], so an upgraded connection keeps it until it closes.
struct Watched<T> {
    inner: T,
    activity: Arc<Activity>,
    _place: Place,
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
    places: Arc<Places>,
    body_read_timeout: Duration,
}

impl<I: Clone + Send + Sync + 'static> hyper::service::Service<Request<Incoming>>
    for RequestService<I>
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn call(&self, request: Request<Incoming>) -> Self::Future {
        let in_flight = self.activity.request_started(self.places.clone());
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
