//! One connection under its place: the handshake, HTTP/1 with its timers, each request's
//! body timed while it is waited for ([`ClientBody`]), and each response marking its request
//! finished.

use std::convert::Infallible;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use axum::http::Request;
use bytes::Bytes;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::Instant;

use super::activity::{Activity, Expired, InFlight};
use super::places::{Place, Places};
use super::{ClientBody, Handler, Handshake, stopping};

pub(super) struct Connection<H, S> {
    pub(super) handshake: H,
    pub(super) handler: S,
    pub(super) places: Arc<Places>,
    pub(super) shutdown: watch::Receiver<bool>,
}

impl<H: Handshake, S: Handler<H::Info>> Connection<H, S> {
    /// Serves the connection in `place` (which moves into its I/O once ready).
    pub(super) async fn serve(self, tcp: TcpStream, peer: SocketAddr, place: Place) {
        let Self {
            handshake,
            handler,
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
            place,
        };
        let body_read_timeout = places.limits().body_read_timeout;
        let answering = (activity.clone(), places.clone());
        // Each request: its body timed while waited for, its response marking it finished
        // once written.
        let service = hyper::service::service_fn(move |request: Request<Incoming>| {
            let (activity, places) = &answering;
            let in_flight = activity.request_started(places.clone());
            crate::heap::request_started();
            let request = request.map(|body| ClientBody::new(body, body_read_timeout));
            let answer = handler.call(request, &info);
            async move {
                let response = answer.await;
                Ok::<_, Infallible>(response.map(|inner| Answering {
                    inner,
                    _in_flight: in_flight,
                }))
            }
        });
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
                // In this order, without drawing a random one each wake-up: the connection's
                // own work first, its deadlines after.
                biased;
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
    place: Place,
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
            self.activity.bytes_arrived(self.place.places());
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

/// A response body carrying its request's [`InFlight`] until hyper drops it, written.
struct Answering<B> {
    inner: B,
    _in_flight: InFlight,
}

impl<B> http_body::Body for Answering<B>
where
    B: http_body::Body<Data = Bytes> + Unpin,
{
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
