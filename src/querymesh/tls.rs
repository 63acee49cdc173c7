//! The QueryMesh port answers HTTPS as well as HTTP. Trino's CLI and JDBC driver send a bearer
//! token only over HTTPS (and the Python client only with `allow_insecure_auth` over HTTP), so
//! without it they could not be pointed at the stand-in unchanged. Each connection's first
//! byte tells which it is: a TLS connection opens with a handshake record (0x16), an HTTP/1
//! request with a method name. The certificate is for 127.0.0.1 and localhost, made at each
//! start: clients skip its validation (`trino --insecure`, `verify=False`) or trust the
//! run's authority ([`crate::Sandbox::querymesh_certificate`]).

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;

/// The first byte of a TLS record carrying a handshake (RFC 8446 §5.1, ContentType 22).
const TLS_HANDSHAKE: u8 = 0x16;
/// How long a new connection may take to send its first byte and finish a TLS handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections accepted but not yet taken by the server.
const BACKLOG: usize = 64;

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("cannot make the QueryMesh TLS certificate: {0}")]
    Certificate(#[from] rcgen::Error),
    #[error("cannot set up TLS for QueryMesh: {0}")]
    Config(#[from] rustls::Error),
}

/// A TLS acceptor for the loopback names, and the certificate (DER) of the authority that
/// signed its certificate, for clients that want to trust it rather than skip validation.
///
/// Both are made anew at each start. The server certificate is signed by a one-off authority
/// rather than by itself: verifiers in strict mode (Python ≥ 3.13's default, Java's) accept a
/// trust anchor only if it is a CA certificate, and a server certificate only if it is not.
pub fn self_signed_acceptor() -> Result<(TlsAcceptor, Vec<u8>), TlsError> {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair, KeyUsagePurpose};
    let mut authority = CertificateParams::new(Vec::<String>::new())?;
    authority.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    authority.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    authority.distinguished_name.push(
        DnType::CommonName,
        "zero-sandbox QueryMesh (local, this run only)",
    );
    let authority_key = KeyPair::generate()?;
    let authority_certificate = authority.self_signed(&authority_key)?;
    let issuer = rcgen::Issuer::new(authority, authority_key);

    let mut server =
        CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()])?;
    server
        .distinguished_name
        .push(DnType::CommonName, "127.0.0.1");
    server.use_authority_key_identifier_extension = true;
    server.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    server.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
    let server_key = KeyPair::generate()?;
    let server_certificate = server.signed_by(&server_key, &issuer)?;

    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(server_key.serialize_der().into());
    let chain = vec![
        server_certificate.der().clone(),
        authority_certificate.der().clone(),
    ];
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    Ok((
        TlsAcceptor::from(Arc::new(config)),
        authority_certificate.der().to_vec(),
    ))
}

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
