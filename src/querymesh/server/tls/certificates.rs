//! The QueryMesh port's certificates: an authority kept in the state directory (its
//! certificate, `querymesh-ca.pem`, is what a client trusts, once), and a certificate for
//! 127.0.0.1 and localhost it signs at each start. Without a state directory the authority
//! lives for one run; test suites get it from [`crate::Sandbox::querymesh_certificate`].
//!
//! A kept authority that cannot be used (damaged, half missing, its certificate not for its
//! key) stops the start naming the file: replacing it silently would break every client
//! that trusts the old `querymesh-ca.pem`, as the identity and IAM key files stop it too.
//!
//! The server certificate is not self-signed: verifiers in strict mode (Python ≥ 3.13's
//! default, Java's) accept a trust anchor only if it is a CA certificate, and a server
//! certificate only if it is not.

use std::path::{Path, PathBuf};
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
    #[error(
        "{} {problem}; the QueryMesh TLS authority is kept because clients trust its \
         querymesh-ca.pem, so it is not replaced: to make a new one, delete both {} and {} \
         (then trust the new querymesh-ca.pem)",
        path.display(), dir.join(AUTHORITY_FILE).display(), dir.join(AUTHORITY_KEY_FILE).display()
    )]
    Unusable {
        /// The file at fault.
        path: PathBuf,
        /// The state directory holding both files.
        dir: PathBuf,
        problem: String,
    },
}

/// The TLS acceptor for this run, and the certificate (DER) of the authority that signed its
/// certificate. The authority is read from `state_dir` (made there the first time), or made
/// for this run only without one.
pub fn acceptor(state_dir: Option<&Path>) -> Result<(TlsAcceptor, Vec<u8>), TlsError> {
    let (authority_key, authority_der, kept_in) = match state_dir {
        Some(dir) => match load_authority(dir)? {
            Some((key, der)) => (key, der, Some(dir)),
            None => {
                let (key, der) = new_authority()?;
                store_authority(dir, &key, &der)?;
                (key, der, None)
            }
        },
        None => {
            let (key, der) = new_authority()?;
            (key, der, None)
        }
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
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    if let Some(dir) = kept_in {
        // What a client trusting the kept certificate will check, checked first.
        verify_chain(&authority_der, server_certificate.der(), provider.clone()).map_err(
            |problem| TlsError::Unusable {
                path: dir.join(AUTHORITY_FILE),
                dir: dir.to_path_buf(),
                problem,
            },
        )?;
    }

    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(server_key.serialize_der().into());
    let chain = vec![
        server_certificate.der().clone(),
        authority_der.clone().into(),
    ];
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    Ok((TlsAcceptor::from(Arc::new(config)), authority_der))
}

/// Whether a client trusting `authority` accepts `server` for 127.0.0.1, as rustls's own
/// client verifier decides it; what is wrong with `authority` if not.
fn verify_chain(
    authority: &[u8],
    server: &rustls::pki_types::CertificateDer<'_>,
    provider: Arc<rustls::crypto::CryptoProvider>,
) -> Result<(), String> {
    use rustls::client::danger::ServerCertVerifier;
    use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from(authority.to_vec()))
        .map_err(|e| format!("does not hold an X.509 certificate ({e})"))?;
    let verifier =
        rustls::client::WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider)
            .build()
            .map_err(|e| e.to_string())?;
    let name = ServerName::IpAddress(std::net::Ipv4Addr::LOCALHOST.into());
    verifier
        .verify_server_cert(server, &[], &name, &[], UnixTime::now())
        .map(|_| ())
        .map_err(|e| format!("is not the certificate of the key in {AUTHORITY_KEY_FILE} ({e})"))
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

/// The kept authority; `None` when neither of its files exists (the first start). Anything
/// else that stops it from being used refuses the start, naming the file.
fn load_authority(dir: &Path) -> Result<Option<(KeyPair, Vec<u8>)>, TlsError> {
    let unusable = |file: &str, problem: String| TlsError::Unusable {
        path: dir.join(file),
        dir: dir.to_path_buf(),
        problem,
    };
    let read = |file: &str| {
        crate::state_dir::read_regular(&dir.join(file))
            .map_err(|e| unusable(file, format!("cannot be read: {e}")))
    };
    let (key_pem, certificate_pem) = match (read(AUTHORITY_KEY_FILE)?, read(AUTHORITY_FILE)?) {
        (None, None) => return Ok(None),
        (Some(key), Some(certificate)) => (key, certificate),
        (Some(_), None) => {
            return Err(unusable(
                AUTHORITY_FILE,
                format!("is missing while {AUTHORITY_KEY_FILE} is there"),
            ));
        }
        (None, Some(_)) => {
            return Err(unusable(
                AUTHORITY_KEY_FILE,
                format!("is missing while {AUTHORITY_FILE} is there"),
            ));
        }
    };
    let key_der = pem_body(&String::from_utf8_lossy(&key_pem), "PRIVATE KEY")
        .map_err(|problem| unusable(AUTHORITY_KEY_FILE, problem))?;
    let key = KeyPair::try_from(key_der.as_slice()).map_err(|e| {
        unusable(
            AUTHORITY_KEY_FILE,
            format!("does not hold a usable PKCS #8 private key ({e})"),
        )
    })?;
    let certificate = pem_body(&String::from_utf8_lossy(&certificate_pem), "CERTIFICATE")
        .map_err(|problem| unusable(AUTHORITY_FILE, problem))?;
    Ok(Some((key, certificate)))
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

/// The bytes of the first `label` PEM block in `text`, or what is wrong with it.
fn pem_body(text: &str, label: &str) -> Result<Vec<u8>, String> {
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let missing = || format!("has no PEM block \"{begin}\" … \"{end}\"");
    let start = text.find(&begin).ok_or_else(missing)? + begin.len();
    let stop = start + text[start..].find(&end).ok_or_else(missing)?;
    let body: String = text[start..stop].split_whitespace().collect();
    B64.decode(body)
        .map_err(|e| format!("has a {label} PEM block that is not base64 ({e})"))
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
        assert_eq!(pem_body(&kept, "CERTIFICATE"), Ok(first.clone()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let key = std::fs::metadata(dir.path().join(AUTHORITY_KEY_FILE)).expect("kept");
            assert_eq!(key.permissions().mode() & 0o777, 0o600);
        }
    }

    /// Every way the kept authority can be unusable, each refused naming its file, with both
    /// files left as they were. Before: a damaged key was replaced by a new authority, both
    /// files rewritten without a word.
    #[test]
    fn an_unusable_kept_authority_refuses_the_start_and_is_left_alone() {
        let other = tempfile::tempdir().expect("a directory");
        acceptor(Some(other.path())).expect("made");
        let other_certificate =
            std::fs::read(other.path().join(AUTHORITY_FILE)).expect("another authority");
        type Damage = fn(&Path, &[u8]);
        let cases: [(&str, Damage, &str, &str); 6] = [
            (
                "a key that is not PEM",
                |dir, _| std::fs::write(dir.join(AUTHORITY_KEY_FILE), "not a key").unwrap(),
                AUTHORITY_KEY_FILE,
                "has no PEM block \"-----BEGIN PRIVATE KEY-----\"",
            ),
            (
                "a key PEM block that is no key",
                |dir, _| {
                    let fake = pem("PRIVATE KEY", b"not PKCS #8");
                    std::fs::write(dir.join(AUTHORITY_KEY_FILE), fake).unwrap();
                },
                AUTHORITY_KEY_FILE,
                "does not hold a usable PKCS #8 private key",
            ),
            (
                "a certificate cut short",
                |dir, _| {
                    let path = dir.join(AUTHORITY_FILE);
                    let text = std::fs::read_to_string(&path).unwrap();
                    std::fs::write(&path, &text[..text.len() / 2]).unwrap();
                },
                AUTHORITY_FILE,
                "has no PEM block \"-----BEGIN CERTIFICATE-----\"",
            ),
            (
                "a certificate block that is not X.509",
                |dir, _| {
                    let fake = pem("CERTIFICATE", b"not DER at all");
                    std::fs::write(dir.join(AUTHORITY_FILE), fake).unwrap();
                },
                AUTHORITY_FILE,
                "does not hold an X.509 certificate",
            ),
            (
                "another authority's certificate",
                |dir, other| std::fs::write(dir.join(AUTHORITY_FILE), other).unwrap(),
                AUTHORITY_FILE,
                "is not the certificate of the key in querymesh-ca-key.pem",
            ),
            (
                "the key gone",
                |dir, _| std::fs::remove_file(dir.join(AUTHORITY_KEY_FILE)).unwrap(),
                AUTHORITY_KEY_FILE,
                "is missing while querymesh-ca.pem is there",
            ),
        ];
        for (case, damage, file, problem) in cases {
            let dir = tempfile::tempdir().expect("a directory");
            acceptor(Some(dir.path())).expect("made");
            damage(dir.path(), &other_certificate);
            let before = [AUTHORITY_FILE, AUTHORITY_KEY_FILE]
                .map(|f| std::fs::read(dir.path().join(f)).ok());
            let error = acceptor(Some(dir.path())).err().expect(case).to_string();
            let path = dir.path().join(file);
            assert!(
                error.starts_with(&format!("{} {problem}", path.display())),
                "{case}: {error}"
            );
            assert!(error.contains("delete both"), "{case}: {error}");
            let after = [AUTHORITY_FILE, AUTHORITY_KEY_FILE]
                .map(|f| std::fs::read(dir.path().join(f)).ok());
            assert_eq!(before, after, "{case}: the files are left as they were");
        }
    }

    #[test]
    fn without_a_state_directory_each_run_has_its_own() {
        let (_, one) = acceptor(None).expect("made");
        let (_, other) = acceptor(None).expect("made");
        assert_ne!(one, other);
    }
}
