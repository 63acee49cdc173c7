//! The official Trino clients (Python, JavaScript) work against the stand-in.

use super::Mesh;

/// The official Python client (`pip install trino`, done by .ci/run), unchanged: descriptions,
/// value types, fetchmany/fetchall over many pages, its error types, cancel (see the script).
#[tokio::test]
async fn the_python_trino_client_works() {
    let mesh = Mesh::start().await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/trino_client.py");
    let certificate = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(certificate.path(), mesh.sandbox.querymesh_certificate_pem())
        .expect("the certificate is written");
    let output = tokio::process::Command::new("python3")
        .arg(script)
        .arg(mesh.url())
        .arg(mesh.token())
        .arg("ada")
        .arg(certificate.path())
        // `requests` lets these override a session's own `verify` (its issue #3829).
        .env("REQUESTS_CA_BUNDLE", certificate.path())
        .env("CURL_CA_BUNDLE", certificate.path())
        .output()
        .await
        .expect("python3 runs (install Python 3 and `pip install trino`)");
    assert!(
        output.status.success(),
        "the Python trino client failed (is it installed? `pip install trino`):\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The official JavaScript client (`trino-client`, `npm ci --prefix tests/js`, done by
/// .ci/run), unchanged: columns, many pages, a failed query's error, cancel (see the script).
#[tokio::test]
async fn the_javascript_trino_client_works() {
    let mesh = Mesh::start().await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/js/trino_client.mjs");
    let output = tokio::process::Command::new("node")
        .arg(script)
        .arg(mesh.url())
        .arg(mesh.token())
        .arg("ada")
        .output()
        .await
        .expect("node runs (install Node.js and `npm ci --prefix tests/js`)");
    assert!(
        output.status.success(),
        "the JavaScript trino client failed (installed? `npm ci --prefix tests/js`):\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
