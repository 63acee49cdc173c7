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

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::TlsAcceptor;

/// The first byte of a TLS record carrying a handshake (RFC 8446 §5.1, ContentType 22).
const TLS_HANDSHAKE: u8 = 0x16;

/// One accepted connection, in the clear or inside TLS.
pub enum Connection {
    Plain(TcpStream),
    Tls(Box<tokio_rustls::server::TlsStream<TcpStream>>),
}

/// Sorts each connection by its first byte and does the TLS handshake of those in TLS, in the
/// connection's own task and within the listener's header deadline (see
/// [`crate::listener::Limits::header_read_timeout`]), so a client that connects and says
/// nothing delays nobody else and is closed like one that stops mid-header.
#[derive(Clone)]
pub struct PlainOrTls {
    acceptor: TlsAcceptor,
}

impl PlainOrTls {
    pub fn new(acceptor: TlsAcceptor) -> Self {
        Self { acceptor }
    }
}

impl crate::listener::Handshake for PlainOrTls {
    type Io = Connection;
    type Info = Transport;

    async fn handshake(
        &self,
        stream: TcpStream,
        _peer: SocketAddr,
    ) -> Option<(Connection, Transport)> {
        let mut first = [0u8; 1];
        let is_tls = matches!(stream.peek(&mut first).await, Ok(1) if first[0] == TLS_HANDSHAKE);
        if !is_tls {
            return Some((Connection::Plain(stream), Transport::Http));
        }
        match self.acceptor.accept(stream).await {
            Ok(tls) => Some((Connection::Tls(Box::new(tls)), Transport::Https)),
            Err(e) => {
                tracing::debug!(error = %e, "QueryMesh TLS handshake failed");
                None
            }
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
