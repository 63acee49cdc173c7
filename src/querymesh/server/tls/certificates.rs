//! The QueryMesh port's certificates: an authority kept in the state directory (its
//! certificate, `querymesh-ca.pem`, is what a client trusts, once), and a certificate for
//! 127.0.0.1 and localhost it signs at each start. Without a state directory the authority
//! lives for one run; test suites get it from [`crate::Sandbox::querymesh_certificate`].
//!
//! The server certificate is not self-signed: verifiers in strict mode (Python ≥ 3.13's
//! default, Java's) accept a trust anchor only if it is a CA certificate, and a server
//! certificate only if it is not.

use std::path::Path;
use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;

/// The authority's certificate in the state directory, PEM: what clients trust.
pub const AUTHORITY_FILE: &str = "querymesh-ca.pem";
/// The authority's private key (PKCS #8, PEM), readable by its owner only.
const AUTHORITY_KEY_FILE: &str = "querymesh-ca-key.pem";
const AUTHORITY_NAME: &str = "zero-sandbox local QueryMesh authority";

#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("cannot make the QueryMesh TLS certificates: {0}")]
    Certificate(#[from] rcgen::Error),
    #[error("cannot set up TLS for QueryMesh: {0}")]
    Config(#[from] rustls::Error),
    #[error("cannot keep the QueryMesh TLS authority in {path}: {source}")]
    Store {
        path: String,
        source: std::io::Error,
    },
}

/// The TLS acceptor for this run, and the certificate (DER) of the authority that signed its
/// certificate. The authority is read from `state_dir` (made there the first time), or made
/// for this run only without one.
pub fn acceptor(state_dir: Option<&Path>) -> Result<(TlsAcceptor, Vec<u8>), TlsError> {
    let (authority_key, authority_der) = match state_dir {
        Some(dir) => match load_authority(dir) {
            Some(kept) => kept,
            None => {
                let made = new_authority()?;
                store_authority(dir, &made.0, &made.1)?;
                made
            }
        },
        None => new_authority()?,
    };
    let issuer = Issuer::new(authority_params()?, authority_key);

    let mut server = CertificateParams::new(vec!["127.0.0.1".into(), "localhost".into()])?;
    server
        .distinguished_name
        .push(DnType::CommonName, "127.0.0.1");
    server.use_authority_key_identifier_extension = true;
    server.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    server.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let server_key = KeyPair::generate()?;
    let server_certificate = server.signed_by(&server_key, &issuer)?;

    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(server_key.serialize_der().into());
    let chain = vec![
        server_certificate.der().clone(),
        authority_der.clone().into(),
    ];
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    Ok((TlsAcceptor::from(Arc::new(config)), authority_der))
}

/// The authority's certificate fields; the same every time, so a kept key signs as before.
fn authority_params() -> Result<CertificateParams, rcgen::Error> {
    let mut params = CertificateParams::new(Vec::<String>::new())?;
    params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    params
        .distinguished_name
        .push(DnType::CommonName, AUTHORITY_NAME);
    Ok(params)
}

fn new_authority() -> Result<(KeyPair, Vec<u8>), TlsError> {
    let key = KeyPair::generate()?;
    let certificate = authority_params()?.self_signed(&key)?;
    Ok((key, certificate.der().to_vec()))
}

/// The kept authority, or `None` when it is missing or unreadable (then a new one replaces
/// it: clients trusted the old one only for connecting to this sandbox).
fn load_authority(dir: &Path) -> Option<(KeyPair, Vec<u8>)> {
    let key_pem = std::fs::read_to_string(dir.join(AUTHORITY_KEY_FILE)).ok()?;
    let certificate_pem = std::fs::read_to_string(dir.join(AUTHORITY_FILE)).ok()?;
    let key = KeyPair::try_from(pem_body(&key_pem, "PRIVATE KEY")?.as_slice()).ok()?;
    let certificate = pem_body(&certificate_pem, "CERTIFICATE")?;
    Some((key, certificate))
}

fn store_authority(dir: &Path, key: &KeyPair, certificate: &[u8]) -> Result<(), TlsError> {
    let store = |file: &str, contents: String| {
        let path = dir.join(file);
        std::fs::create_dir_all(dir)
            .and_then(|()| crate::identity::write_private(&path, contents.as_bytes()))
            .map_err(|source| TlsError::Store {
                path: path.display().to_string(),
                source,
            })
    };
    store(AUTHORITY_KEY_FILE, pem("PRIVATE KEY", &key.serialize_der()))?;
    store(AUTHORITY_FILE, pem("CERTIFICATE", certificate))
}

/// `der` as a PEM block (RFC 7468).
pub fn pem(label: &str, der: &[u8]) -> String {
    let encoded = B64.encode(der);
    let lines: Vec<&str> = encoded
        .as_bytes()
        .chunks(64)
        .filter_map(|line| std::str::from_utf8(line).ok())
        .collect();
    format!(
        "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
        lines.join("\n")
    )
}

/// The bytes of the first `label` PEM block in `text`.
fn pem_body(text: &str, label: &str) -> Option<Vec<u8>> {
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let start = text.find(&begin)? + begin.len();
    let stop = start + text[start..].find(&end)?;
    let body: String = text[start..stop].split_whitespace().collect();
    B64.decode(body).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_authority_is_kept_and_reused() {
        let dir = tempfile::tempdir().expect("a directory");
        let (_, first) = acceptor(Some(dir.path())).expect("made");
        let (_, again) = acceptor(Some(dir.path())).expect("reused");
        assert_eq!(first, again, "the same authority signs on the next start");
        let kept = std::fs::read_to_string(dir.path().join(AUTHORITY_FILE)).expect("kept");
        assert_eq!(pem_body(&kept, "CERTIFICATE"), Some(first.clone()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let key = std::fs::metadata(dir.path().join(AUTHORITY_KEY_FILE)).expect("kept");
            assert_eq!(key.permissions().mode() & 0o777, 0o600);
        }
        // A damaged key is replaced by a new authority rather than failing the start.
        std::fs::write(dir.path().join(AUTHORITY_KEY_FILE), "not a key").expect("written");
        let (_, replaced) = acceptor(Some(dir.path())).expect("replaced");
        assert_ne!(replaced, first);
    }

    #[test]
    fn without_a_state_directory_each_run_has_its_own() {
        let (_, one) = acceptor(None).expect("made");
        let (_, other) = acceptor(None).expect("made");
        assert_ne!(one, other);
    }
}
