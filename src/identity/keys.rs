//! ES256 signing keys, their JWKs, and the key ring that persists and rotates them.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use p256::ecdsa::signature::{Signer, Verifier};
use p256::ecdsa::{Signature, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("cannot create the state directory {path}: {source}")]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "cannot write {path}: {source} (choose another directory with --state DIR, or use --ephemeral)"
    )]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{path} is not a key file zero-sandbox wrote ({reason}); move it away to start with new keys"
    )]
    Corrupt { path: PathBuf, reason: String },
}

/// One P-256 key pair; its `kid` is the RFC 7638 thumbprint of its public JWK.
#[derive(Clone)]
pub struct KeyPair {
    signing: SigningKey,
    kid: String,
}

impl std::fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyPair")
            .field("kid", &self.kid)
            .finish_non_exhaustive()
    }
}

impl KeyPair {
    pub fn generate() -> Self {
        loop {
            // A random 32-byte string is a valid scalar except with negligible probability.
            let bytes: [u8; 32] = rand::random();
            if let Ok(signing) = SigningKey::from_slice(&bytes) {
                return Self::from_signing_key(signing);
            }
        }
    }

    fn from_signing_key(signing: SigningKey) -> Self {
        let kid = thumbprint(signing.verifying_key());
        Self { signing, kid }
    }

    pub fn from_secret(secret_b64: &str) -> Result<Self, String> {
        let bytes = B64.decode(secret_b64).map_err(|e| e.to_string())?;
        let signing = SigningKey::from_slice(&bytes).map_err(|e| e.to_string())?;
        Ok(Self::from_signing_key(signing))
    }

    fn secret_b64(&self) -> String {
        B64.encode(self.signing.to_bytes())
    }

    pub fn kid(&self) -> &str {
        &self.kid
    }

    pub fn public(&self) -> PublicKey {
        PublicKey {
            kid: self.kid.clone(),
            verifying: *self.signing.verifying_key(),
        }
    }

    /// The raw r‖s signature JWS uses for ES256 (RFC 7518 §3.4), always low-S: p256 does not
    /// normalise by itself, and [`PublicKey::verify`] refuses high-S.
    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        let signature: Signature = self.signing.sign(message);
        let signature = signature.normalize_s();
        let mut out = [0u8; 64];
        out.copy_from_slice(&signature.to_bytes());
        out
    }
}

/// The signature's malleated twin (r, n − s): the same key's valid signature of the same
/// message in ECDSA, which [`PublicKey::verify`] refuses when it is the high-S one.
pub(super) fn malleated(signature: &[u8]) -> Option<[u8; 64]> {
    let signature = Signature::from_slice(signature).ok()?;
    let (r, s) = signature.split_scalars();
    let twin = Signature::from_scalars(r, -s).ok()?;
    let mut out = [0u8; 64];
    out.copy_from_slice(&twin.to_bytes());
    Some(out)
}

/// A published verification key.
#[derive(Clone, Debug)]
pub struct PublicKey {
    pub kid: String,
    verifying: VerifyingKey,
}

impl PublicKey {
    /// Whether `signature` (raw r‖s) is this key's over `message`, in its low-S form only.
    ///
    /// ECDSA is malleable: if (r, s) verifies, so does (r, n − s). RFC 7518 §3.4 does not ask
    /// a verifier to care, and malleability forges nothing — the claims are the ones the key
    /// signed, the `jti` the same. Still, every token verified here is signed by this crate,
    /// low-S always ([`KeyPair::sign`]); refusing the high-S twin costs no interoperability
    /// and gives each token one spelling, so nothing keyed on a token's bytes (QueryMesh's
    /// cache of verified tokens) sees one identity twice.
    pub fn verify(&self, message: &[u8], signature: &[u8]) -> bool {
        Signature::from_slice(signature)
            .is_ok_and(|s| s.normalize_s() == s && self.verifying.verify(message, &s).is_ok())
    }

    pub fn jwk(&self) -> Jwk {
        let (x, y) = coordinates(&self.verifying);
        Jwk {
            kty: "EC".into(),
            crv: "P-256".into(),
            x: B64.encode(x),
            y: B64.encode(y),
            kid: self.kid.clone(),
            alg: "ES256".into(),
            key_use: "sig".into(),
        }
    }

    /// Reads a JWK as published by a JWKS endpoint; `None` for anything but an EC P-256 key.
    pub fn from_jwk(jwk: &Jwk) -> Option<Self> {
        if jwk.kty != "EC" || jwk.crv != "P-256" {
            return None;
        }
        let x = B64.decode(&jwk.x).ok()?;
        let y = B64.decode(&jwk.y).ok()?;
        if x.len() != 32 || y.len() != 32 {
            return None;
        }
        let mut sec1 = Vec::with_capacity(65);
        sec1.push(0x04);
        sec1.extend_from_slice(&x);
        sec1.extend_from_slice(&y);
        let verifying = VerifyingKey::from_sec1_bytes(&sec1).ok()?;
        Some(Self {
            kid: jwk.kid.clone(),
            verifying,
        })
    }
}

fn coordinates(key: &VerifyingKey) -> ([u8; 32], [u8; 32]) {
    let sec1 = key.to_sec1_bytes(); // 0x04 ‖ x ‖ y, uncompressed
    let mut x = [0u8; 32];
    let mut y = [0u8; 32];
    x.copy_from_slice(&sec1[1..33]);
    y.copy_from_slice(&sec1[33..65]);
    (x, y)
}

/// RFC 7638: SHA-256 over the required members in lexicographic order, no whitespace.
fn thumbprint(key: &VerifyingKey) -> String {
    let (x, y) = coordinates(key);
    let canonical = format!(
        r#"{{"crv":"P-256","kty":"EC","x":"{}","y":"{}"}}"#,
        B64.encode(x),
        B64.encode(y)
    );
    B64.encode(Sha256::digest(canonical.as_bytes()))
}

/// A public JWK as published in a JWKS (RFC 7517).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Jwk {
    pub kty: String,
    #[serde(default)]
    pub crv: String,
    #[serde(default)]
    pub x: String,
    #[serde(default)]
    pub y: String,
    #[serde(default)]
    pub kid: String,
    #[serde(default)]
    pub alg: String,
    #[serde(rename = "use", default)]
    pub key_use: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Jwks {
    pub keys: Vec<Jwk>,
}

impl Jwks {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| r#"{"keys":[]}"#.into())
    }

    pub fn public_keys(&self) -> Vec<PublicKey> {
        self.keys.iter().filter_map(PublicKey::from_jwk).collect()
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// A key that no longer signs but stays published until `until` (unix seconds).
#[derive(Clone, Debug)]
struct RetiredKey {
    key: KeyPair,
    until: u64,
}

#[derive(Clone, Debug)]
struct Ring {
    current: KeyPair,
    retired: Vec<RetiredKey>,
}

/// The file a key ring persists to.
#[derive(Serialize, Deserialize)]
struct KeyFile {
    current: String,
    #[serde(default)]
    retired: Vec<RetiredEntry>,
}

#[derive(Serialize, Deserialize)]
struct RetiredEntry {
    secret: String,
    until: u64,
}

/// The current signing key plus retired keys still published for their grace period.
/// Persisted (0600) so identities and JWKS survive restarts; shared by everyone that signs or
/// publishes with it.
#[derive(Debug, Clone)]
pub struct KeyRing {
    ring: Arc<RwLock<Ring>>,
    file: Option<PathBuf>,
}

impl KeyRing {
    /// Keys kept in memory only.
    pub fn ephemeral() -> Self {
        Self {
            ring: Arc::new(RwLock::new(Ring {
                current: KeyPair::generate(),
                retired: Vec::new(),
            })),
            file: None,
        }
    }

    /// Loads `dir/name`, creating the directory and a first key when absent.
    pub fn open(dir: &Path, name: &str) -> Result<Self, KeyError> {
        std::fs::create_dir_all(dir).map_err(|source| KeyError::CreateDir {
            path: dir.to_path_buf(),
            source,
        })?;
        let file = dir.join(name);
        // Only a regular file is read: a FIFO here would block the start forever.
        let ring = match crate::state_dir::read_regular(&file) {
            Ok(Some(bytes)) => {
                let text = String::from_utf8(bytes).map_err(|_| KeyError::Corrupt {
                    path: file.clone(),
                    reason: "not UTF-8 text".into(),
                })?;
                parse_key_file(&file, &text)?
            }
            Ok(None) => Ring {
                current: KeyPair::generate(),
                retired: Vec::new(),
            },
            Err(source) => return Err(KeyError::Read { path: file, source }),
        };
        let ring = Self {
            ring: Arc::new(RwLock::new(ring)),
            file: Some(file),
        };
        ring.persist()?;
        Ok(ring)
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Ring> {
        self.ring.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Ring> {
        self.ring.write().unwrap_or_else(|p| p.into_inner())
    }

    pub fn current(&self) -> KeyPair {
        self.read().current.clone()
    }

    /// Whether `kid` names the current key, without copying the key (the edge asks on every
    /// signed-in request).
    pub fn is_current(&self, kid: &str) -> bool {
        self.read().current.kid == kid
    }

    /// Every key a verifier should accept now: the current one and those in their grace period.
    pub fn published(&self) -> Vec<PublicKey> {
        self.public_side().published()
    }

    pub fn jwks(&self) -> Jwks {
        self.public_side().jwks()
    }

    /// The most recently retired key whose grace period is over: no verifier accepts it any
    /// more, though it once signed (`check`'s rotated-out probe). The file keeps such a key
    /// until the next rotation prunes it.
    pub fn rotated_out(&self) -> Option<KeyPair> {
        let now = unix_now();
        self.read()
            .retired
            .iter()
            .filter(|r| r.until <= now)
            .max_by_key(|r| r.until)
            .map(|r| r.key.clone())
    }

    /// The public side of this ring, for whoever only verifies: it follows every rotation and
    /// never yields a private key.
    pub fn public_side(&self) -> PublishedKeys {
        PublishedKeys {
            ring: self.ring.clone(),
        }
    }

    /// The current key's kid, and each retired key still published with when it stops being
    /// (unix seconds): what the test-control API's `GET keys` shows.
    pub fn kids(&self) -> (String, Vec<(String, u64)>) {
        let now = unix_now();
        let ring = self.read();
        let retired = ring
            .retired
            .iter()
            .filter(|r| r.until > now)
            .map(|r| (r.key.kid.clone(), r.until))
            .collect();
        (ring.current.kid.clone(), retired)
    }

    /// Makes a new key current; the previous one stays published for `grace`.
    pub fn rotate(&self, grace: Duration) -> Result<String, KeyError> {
        let kid = {
            let mut ring = self.write();
            let previous = std::mem::replace(&mut ring.current, KeyPair::generate());
            let now = unix_now();
            ring.retired.retain(|r| r.until > now);
            ring.retired.push(RetiredKey {
                key: previous,
                until: now + grace.as_secs(),
            });
            ring.current.kid.clone()
        };
        self.persist()?;
        Ok(kid)
    }

    /// The ring as it is now — what the app's environment was made from at start — to go
    /// back to with [`KeyRing::restore`].
    pub fn snapshot(&self) -> KeySnapshot {
        KeySnapshot(self.read().clone())
    }

    /// Goes back to `snapshot`: its current key signs again and the keys rotated in since are
    /// gone (the test-control API's `reset`: the app's environment is the truth). Saved, so the
    /// next start signs with it too.
    pub fn restore(&self, snapshot: &KeySnapshot) -> Result<(), KeyError> {
        *self.write() = snapshot.0.clone();
        self.persist()
    }

    fn persist(&self) -> Result<(), KeyError> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let contents = {
            let ring = self.read();
            let key_file = KeyFile {
                current: ring.current.secret_b64(),
                retired: ring
                    .retired
                    .iter()
                    .map(|r| RetiredEntry {
                        secret: r.key.secret_b64(),
                        until: r.until,
                    })
                    .collect(),
            };
            serde_json::to_string_pretty(&key_file).unwrap_or_default()
        };
        write_private(file, contents.as_bytes()).map_err(|source| KeyError::Write {
            path: file.clone(),
            source,
        })
    }
}

/// A [`KeyRing`] as it was at one moment ([`KeyRing::snapshot`]).
#[derive(Clone, Debug)]
pub struct KeySnapshot(Ring);

/// The public side of a [`KeyRing`] ([`KeyRing::public_side`]): what a verifier is given (the
/// broker for identities, the edge for the IAM's ID tokens) instead of the ring itself.
#[derive(Debug, Clone)]
pub struct PublishedKeys {
    ring: Arc<RwLock<Ring>>,
}

impl PublishedKeys {
    /// Every key a verifier should accept now: the current one and those in their grace period.
    pub fn published(&self) -> Vec<PublicKey> {
        let now = unix_now();
        let ring = self.ring.read().unwrap_or_else(|p| p.into_inner());
        std::iter::once(ring.current.public())
            .chain(
                ring.retired
                    .iter()
                    .filter(|r| r.until > now)
                    .map(|r| r.key.public()),
            )
            .collect()
    }

    pub fn jwks(&self) -> Jwks {
        Jwks {
            keys: self.published().iter().map(PublicKey::jwk).collect(),
        }
    }
}

fn parse_key_file(path: &Path, text: &str) -> Result<Ring, KeyError> {
    let corrupt = |reason: String| KeyError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let file: KeyFile = serde_json::from_str(text).map_err(|e| corrupt(e.to_string()))?;
    let current = KeyPair::from_secret(&file.current).map_err(corrupt)?;
    let retired = file
        .retired
        .iter()
        .map(|r| {
            KeyPair::from_secret(&r.secret).map(|key| RetiredKey {
                key,
                until: r.until,
            })
        })
        .collect::<Result<_, _>>()
        .map_err(corrupt)?;
    Ok(Ring { current, retired })
}

/// Writes a file readable by its owner only, replacing it atomically.
pub(crate) fn write_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let tmp = path.with_extension("tmp");
    {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut f = options.open(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_past_its_grace_is_rotated_out_and_unpublished() {
        let ring = KeyRing::ephemeral();
        assert!(ring.rotated_out().is_none(), "nothing rotated yet");
        ring.rotate(Duration::from_secs(600)).unwrap();
        assert!(ring.rotated_out().is_none(), "still in its grace period");
        let retiring = ring.current();
        ring.rotate(Duration::ZERO).unwrap();
        let out = ring.rotated_out().expect("a key past its grace");
        assert_eq!(out.kid(), retiring.kid());
        assert!(ring.published().iter().all(|k| k.kid != out.kid()));
    }

    #[test]
    fn kid_is_the_rfc7638_thumbprint() {
        // RFC 7638 has no EC example; check the construction against the JWK we publish.
        let key = KeyPair::generate();
        let jwk = key.public().jwk();
        let canonical = format!(
            r#"{{"crv":"{}","kty":"{}","x":"{}","y":"{}"}}"#,
            jwk.crv, jwk.kty, jwk.x, jwk.y
        );
        assert_eq!(key.kid(), B64.encode(Sha256::digest(canonical.as_bytes())));
    }

    #[test]
    fn jwk_round_trips_and_verifies() {
        let key = KeyPair::generate();
        let sig = key.sign(b"hello");
        let public = PublicKey::from_jwk(&key.public().jwk()).unwrap();
        assert!(public.verify(b"hello", &sig));
        assert!(!public.verify(b"hellO", &sig));
    }

    /// ⌊n / 2⌋ for P-256's group order n (SEC 2 §2.4.2): s above it is high-S.
    const HALF_ORDER: [u8; 32] = [
        0x7f, 0xff, 0xff, 0xff, 0x80, 0x00, 0x00, 0x00, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xde, 0x73, 0x7d, 0x56, 0xd3, 0x8b, 0xcf, 0x42, 0x79, 0xdc, 0xe5, 0x61, 0x7e, 0x31,
        0x92, 0xa8,
    ];

    #[test]
    fn signatures_are_low_s_and_their_high_s_twins_are_refused() {
        let key = KeyPair::from_secret(&B64.encode([7u8; 32])).unwrap();
        let public = key.public();
        for i in 0..64u32 {
            let message = i.to_be_bytes();
            let signature = key.sign(&message);
            let twin = malleated(&signature).unwrap();
            // ECDSA itself is malleable: p256 accepts both.
            let p256_accepts = |s: &[u8; 64]| {
                let s = Signature::from_slice(s).unwrap();
                key.signing.verifying_key().verify(&message, &s).is_ok()
            };
            assert!(p256_accepts(&signature) && p256_accepts(&twin));
            assert!(
                signature[32..] <= HALF_ORDER[..],
                "message {i} signed high-S"
            );
            assert!(twin[32..] > HALF_ORDER[..]);
            assert!(public.verify(&message, &signature));
            assert!(
                !public.verify(&message, &twin),
                "message {i}: high-S accepted"
            );
        }
    }

    #[test]
    fn rotation_keeps_the_previous_key_published() {
        let ring = KeyRing::ephemeral();
        let first = ring.current().kid().to_string();
        let second = ring.rotate(Duration::from_secs(600)).unwrap();
        let kids: Vec<_> = ring.published().into_iter().map(|k| k.kid).collect();
        assert_eq!(kids, vec![second, first]);
        ring.rotate(Duration::ZERO).unwrap();
        assert_eq!(
            ring.published().len(),
            2,
            "a zero grace drops the key at once"
        );
    }
}
