//! The QueryMesh port answers HTTPS as well as HTTP. Trino's CLI and JDBC driver send a bearer
//! token only over HTTPS (and the Python client only with `allow_insecure_auth` over HTTP), so
//! without it they could not be pointed at the stand-in unchanged. Each connection's first
//! byte tells which it is: a TLS connection opens with a handshake record (0x16), an HTTP/1
//! request with a method name. The certificate is for 127.0.0.1 and localhost, made at each
//! start by an authority kept in the state directory (see [`certificates`]): clients trust
//! that authority's `querymesh-ca.pem`, or skip validation (`trino --insecure`).

mod certificates;

pub use certificates::{AUTHORITY_FILE, TlsError, acceptor, pem};

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;

/// The first byte of a TLS record carrying a handshake (RFC 8446 §5.1, ContentType 22).
const TLS_HANDSHAKE: u8 = 0x16;
/// How long a new connection may take to send its first byte and finish a TLS handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections accepted but not yet taken by the server.
const BACKLOG: usize = 64;

/// One accepted connection, in the clear or inside TLS.
pub enum Connection {
    Plain(TcpStream),
    Tls(Box<tokio_rustls::server::TlsStream<TcpStream>>),
}

/// A listener handing out connections whose kind is already known and whose TLS handshake
/// is done. Sorting and handshakes happen in a task per connection, so a client that connects
/// and says nothing delays nobody else.
pub struct PlainOrTlsListener {
    ready: mpsc::Receiver<(Connection, SocketAddr)>,
    local: SocketAddr,
}

impl PlainOrTlsListener {
    /// Starts accepting on `listener`; stops once this value is dropped.
    pub fn new(listener: TcpListener, acceptor: TlsAcceptor) -> io::Result<Self> {
        let local = listener.local_addr()?;
        let (tx, ready) = mpsc::channel(BACKLOG);
        tokio::spawn(accept_loop(listener, acceptor, tx));
        Ok(Self { ready, local })
    }
}

async fn accept_loop(
    listener: TcpListener,
    acceptor: TlsAcceptor,
    ready: mpsc::Sender<(Connection, SocketAddr)>,
) {
    loop {
        let accepted = tokio::select! {
            () = ready.closed() => return,
            accepted = listener.accept() => accepted,
        };
        match accepted {
            Ok((stream, peer)) => {
                // Responses go out as several writes (TLS records, hyper's head and body);
                // Nagle's algorithm would hold the later ones for the client's delayed ACK.
                let _ = stream.set_nodelay(true);
                let (acceptor, ready) = (acceptor.clone(), ready.clone());
                tokio::spawn(async move {
                    let sorted = tokio::time::timeout(HANDSHAKE_TIMEOUT, sort(stream, acceptor));
                    if let Ok(Some(connection)) = sorted.await {
                        let _ = ready.send((connection, peer)).await;
                    }
                });
            }
            // Out of file descriptors and the like: the condition usually passes, and
            // retrying at once would spin.
            Err(e) => {
                tracing::warn!(error = %e, "QueryMesh cannot accept a connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// The connection as what its first byte says; `None` if the TLS handshake fails.
async fn sort(stream: TcpStream, acceptor: TlsAcceptor) -> Option<Connection> {
    let mut first = [0u8; 1];
    let is_tls = matches!(stream.peek(&mut first).await, Ok(1) if first[0] == TLS_HANDSHAKE);
    if !is_tls {
        return Some(Connection::Plain(stream));
    }
    match acceptor.accept(stream).await {
        Ok(tls) => Some(Connection::Tls(Box::new(tls))),
        Err(e) => {
            tracing::debug!(error = %e, "QueryMesh TLS handshake failed");
            None
        }
    }
}

/// How a request reached the QueryMesh port: the scheme of the URLs it is answered with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Http,
    Https,
}

impl Transport {
    pub fn scheme(self) -> &'static str {
        match self {
            Self::Http => "http",
            Self::Https => "https",
        }
    }
}

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, PlainOrTlsListener>>
    for Transport
{
    fn connect_info(stream: axum::serve::IncomingStream<'_, PlainOrTlsListener>) -> Self {
        match stream.io() {
            Connection::Plain(_) => Self::Http,
            Connection::Tls(_) => Self::Https,
        }
    }
}

impl axum::serve::Listener for PlainOrTlsListener {
    type Io = Connection;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        match self.ready.recv().await {
            Some(accepted) => accepted,
            // The accept loop ends only when this listener is dropped: never while it waits.
            None => std::future::pending().await,
        }
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        Ok(self.local)
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_write_vectored(cx, bufs),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Self::Plain(s) => s.is_write_vectored(),
            Self::Tls(s) => s.is_write_vectored(),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_flush(cx),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}
