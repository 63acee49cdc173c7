//! The port speaks HTTPS too, and a silent client blocks nobody.

use serde_json::Value;

use super::Mesh;

/// Sends a bare HTTP/1.1 GET of `path` on `stream` and returns the status line.
async fn status_line<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(
    stream: &mut S,
    path: &str,
) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("sent");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    let text = String::from_utf8_lossy(&response);
    text.lines().next().unwrap_or_default().to_string()
}

/// The QueryMesh port answers HTTPS (Trino's CLI and JDBC send tokens only over HTTPS) with a
/// certificate for 127.0.0.1 that the run's authority signed, and HTTP on the same port.
#[tokio::test]
async fn the_port_speaks_https_too_and_a_silent_client_blocks_nobody() {
    use tokio_rustls::rustls;
    let mesh = Mesh::start().await;
    let address = mesh.sandbox.endpoints().querymesh;
    // A client that connects and says nothing holds no one up, in either protocol.
    let _silent = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    let mut half_tls = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    tokio::io::AsyncWriteExt::write_all(&mut half_tls, &[0x16, 0x03, 0x01])
        .await
        .expect("sent");

    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(mesh.sandbox.querymesh_certificate().to_vec().into())
        .expect("the run's authority is a certificate");
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config));
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("a server name");
    let tcp = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    let mut tls = connector
        .connect(name, tcp)
        .await
        .expect("the certificate verifies for 127.0.0.1");
    assert_eq!(status_line(&mut tls, "/v1/info").await, "HTTP/1.1 200 OK");

    let mut plain = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    assert_eq!(status_line(&mut plain, "/v1/info").await, "HTTP/1.1 200 OK");

    // Over HTTPS, nextUri and infoUri stay on HTTPS, as Trino builds them from the request.
    let tcp = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    let mut tls = connector
        .connect(
            rustls::pki_types::ServerName::try_from("localhost").expect("a server name"),
            tcp,
        )
        .await
        .expect("the certificate verifies for localhost");
    let sql = "SELECT 1";
    let request = format!(
        "POST /v1/statement HTTP/1.1\r\nHost: localhost:{}\r\nAuthorization: Bearer {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{sql}",
        address.port(),
        mesh.token(),
        sql.len()
    );
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    tls.write_all(request.as_bytes()).await.expect("sent");
    let mut response = Vec::new();
    tls.read_to_end(&mut response).await.expect("read");
    let response = String::from_utf8_lossy(&response);
    let body = response.split("\r\n\r\n").nth(1).unwrap_or_default();
    let page: Value = serde_json::from_str(body).expect("a QueryResults body");
    let https = format!("https://localhost:{}/", address.port());
    for uri in ["nextUri", "infoUri"] {
        let value = page[uri].as_str().unwrap_or_default();
        assert!(value.starts_with(&https), "{uri}: {value}");
    }
}
