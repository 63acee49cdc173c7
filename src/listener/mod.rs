//! Serving a component's router on its listener, with the limits `axum::serve` lacks: a
//! deadline for each request's headers, for an idle kept-alive connection and for a stalled
//! request body, and a cap on open connections. Without them a client that sends half a
//! request holds its connection forever, and a thousand such clients exhaust the process's
//! file descriptors, stopping every listener at once.
//!
//! Each listener has its own cap (sized from the open-file limit, [`limits`]), so a flood of
//! one refuses only there. At the cap a new client waits for a place while one is made for
//! it: the longest-idle kept-alive connection is closed, and connections still sending
//! headers get a shorter deadline ([`places`]); past its header deadline without a place,
//! it gets a `503` in its component's own error shape and is closed. The timers are ours,
//! not hyper's `header_read_timeout`: hyper's starts as soon as a connection goes idle, so
//! it cannot keep an idle connection longer than it gives a client to send headers.
//!
//! - [`limits`]: the deadlines and the cap, and the cap from the open-file limit.
//! - `places`: the cap, the connections under it, and making room at it.
//! - `activity`: where each connection is between requests, for its timers.
//! - `connection`: one connection: handshake, HTTP/1, each request's [`ClientBody`].
//! - [`Handler`]: what a connection serves (a `Router`, or the edge's front).
//! - [`threads`]: one listener served by several threads, each with its own one-thread
//!   runtime, for the edge.

mod activity;
mod client_body;
mod connection;
mod handler;
pub mod limits;
mod places;
pub mod threads;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio::task::{JoinHandle, JoinSet};

pub use client_body::{ClientBody, ClientBodyError};
pub use handler::Handler;
pub use limits::{Limits, max_connections_for, open_file_limit};
pub use threads::serve_on_threads;

use connection::Connection;
use places::Places;

/// The response a listener writes before closing to a client that found no place under its
/// cap: its component's own error shape, so a client reads the reason where it reads every
/// other error.
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

/// Refused connections whose 503 is still being written or whose request is being drained,
/// beside those refused after waiting for a place; past this many, a refused connection is
/// closed without one.
const MAX_REFUSING: usize = 64;
/// How long a refused connection is drained after its 503, so the client's request, still
/// arriving, does not make the kernel reset the connection and discard the 503 unread
/// (RFC 9112 §9.6: close the write side first, then read until the client closes).
const REFUSAL_LINGER: Duration = Duration::from_secs(1);

/// Serves `handler` on `listener`, on the caller's runtime, until `shutdown` turns true, then
/// lets open connections finish: each is told to close once its current response is out.
/// Aborting the returned task closes every connection at once.
pub fn serve<H: Handshake, S: Handler<H::Info>>(
    listener: TcpListener,
    handshake: H,
    handler: S,
    limits: Limits,
    busy: Busy,
    shutdown: watch::Receiver<bool>,
) -> JoinHandle<()> {
    let shared = Shared::new(handshake, limits, busy, shutdown);
    tokio::spawn(shared.accept(listener, handler))
}

/// What every accept loop of one listener shares: its cap and its refusals.
#[derive(Clone)]
struct Shared<H> {
    handshake: H,
    places: Arc<Places>,
    refusing: Arc<Semaphore>,
    busy: Arc<[u8]>,
    shutdown: watch::Receiver<bool>,
}

impl<H: Handshake> Shared<H> {
    fn new(handshake: H, limits: Limits, busy: Busy, shutdown: watch::Receiver<bool>) -> Self {
        Self {
            handshake,
            places: Places::new(limits),
            refusing: Arc::new(Semaphore::new(MAX_REFUSING)),
            busy: busy.to_http().into(),
            shutdown,
        }
    }

    /// Accepts until shutdown, then waits for this loop's connections to end.
    async fn accept<S: Handler<H::Info>>(self, listener: TcpListener, handler: S) {
        let Self {
            handshake,
            places,
            refusing,
            busy,
            mut shutdown,
        } = self;
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
            let connection = Connection {
                handshake: handshake.clone(),
                handler: handler.clone(),
                places: places.clone(),
                shutdown: shutdown.clone(),
            };
            if let Some(place) = places.try_take() {
                connections.spawn(connection.serve(tcp, peer, place));
            } else if let Some(waiting) = places.wait() {
                let busy = busy.clone();
                let mut stop = shutdown.clone();
                connections.spawn(async move {
                    tokio::select! {
                        place = waiting.place() => match place {
                            Some(place) => connection.serve(tcp, peer, place).await,
                            None => refuse(tcp, &busy).await,
                        },
                        () = stopping(&mut stop) => {}
                    }
                });
            } else if let Ok(permit) = refusing.clone().try_acquire_owned() {
                let busy = busy.clone();
                connections.spawn(async move {
                    refuse(tcp, &busy).await;
                    drop(permit);
                });
            }
        }
        drop(listener);
        while connections.join_next().await.is_some() {}
    }
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
async fn refuse(mut tcp: TcpStream, busy: &[u8]) {
    let linger = async {
        tcp.write_all(busy).await?;
        tcp.shutdown().await?;
        let mut sink = [0u8; 4096];
        while tcp.read(&mut sink).await? > 0 {}
        io::Result::Ok(())
    };
    let _ = tokio::time::timeout(REFUSAL_LINGER, linger).await;
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
