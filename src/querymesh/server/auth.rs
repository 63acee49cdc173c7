//! Bearer-token authentication as Trino's JWT authenticator does it
//! (`http-server.authentication.type=JWT` with a JWKS URL, a required issuer and audience):
//! the signature by one of the IAM's published keys, `exp`/`nbf`, `iss`, `aud`, and — the
//! platform's addition — the QueryMesh scope. The principal is `sub`. A refusal is HTTP 401
//! with `WWW-Authenticate: Bearer realm="Trino", token_type="JWT"` (see trino-facts.md).

use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::http::{HttpClient, read_body};
use crate::identity::jws::{self, JwsError};
use crate::identity::{Jwk, Jwks, KeyRing, PublicKey, unix_now};
use crate::oidc::{QUERYMESH_AUDIENCE, QUERYMESH_SCOPE};

use crate::querymesh::engine::User;
use crate::querymesh::lru::Lru;

/// Clock skew tolerated on `exp` and `nbf`.
const LEEWAY_SECS: i64 = 30;
/// The least time between two JWKS fetches caused by an unknown `kid`: a rotated key is
/// picked up within this, and a flood of made-up kids cannot turn into a flood of fetches.
const REFETCH_INTERVAL: Duration = Duration::from_millis(500);
/// How old cached keys may get before a request refreshes them.
const KEYS_MAX_AGE: Duration = Duration::from_secs(300);
const JWKS_MAX_BYTES: usize = 1 << 20;
/// A token that passed every check is trusted this long without checking its signature again:
/// an ES256 verification is most of the cost of a small query, and clients send the same
/// token with every statement. Its `exp` and `nbf` are still checked on every request, and it
/// counts only while the key that verified it is still among the keys (see [`Verified`]).
const VERIFIED_TTL: Duration = Duration::from_secs(60);
/// How many verified tokens are remembered, the least recently used forgotten first.
const VERIFIED_MAX: usize = 1024;

/// The value Trino sends with every 401 of its JWT authenticator.
pub const WWW_AUTHENTICATE: &str = r#"Bearer realm="Trino", token_type="JWT""#;

/// Why a request was not authenticated.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("Unauthorized: no bearer token (send Authorization: Bearer <IAM access token>)")]
    Missing,
    #[error("Unauthorized: the bearer token is not a valid JWT: {0}")]
    Token(JwsError),
    #[error("Unauthorized: the token has expired")]
    Expired,
    #[error("Unauthorized: the token is not valid yet")]
    NotYetValid,
    #[error("Unauthorized: the token has no expiry (exp)")]
    NoExpiry,
    #[error("Unauthorized: the token's issuer is not the IAM realm {0}")]
    Issuer(String),
    #[error("Unauthorized: the token's audience does not include {QUERYMESH_AUDIENCE:?}")]
    Audience,
    #[error("Unauthorized: the token's scope does not include {QUERYMESH_SCOPE:?}")]
    Scope,
    #[error("Unauthorized: the token has no subject (sub)")]
    Subject,
    /// The IAM's keys could not be had: nothing can be verified, which is not the client's
    /// fault, so this is answered 503 (clients retry it) rather than 401.
    #[error("the IAM's signing keys are unavailable: {0}")]
    KeysUnavailable(String),
}

/// Where the IAM's verification keys come from.
pub enum KeySource {
    /// The realm's JWKS endpoint, fetched over HTTP like Trino's `jwks-url`: what runs.
    Url { url: String, http: HttpClient },
    /// A key ring read directly: for tests and benchmarks that run without an IAM.
    Static(KeyRing),
}

struct Cached {
    keys: Arc<Vec<PublicKey>>,
    fetched: Option<Instant>,
}

/// A token that passed every check, remembered by its SHA-256 (the token itself is never
/// kept).
struct Verified {
    principal: User,
    exp: f64,
    nbf: Option<f64>,
    /// The key that verified the signature. A remembered token counts only while the keys
    /// held now still include this very key under its kid: once a rotation's grace ends or the
    /// JWKS drops or replaces the key, the token is verified again, and fails as it should.
    key: Jwk,
    at: Instant,
}

pub struct Authenticator {
    source: KeySource,
    issuer: String,
    cache: RwLock<Cached>,
    /// Held while fetching, so concurrent requests with an unknown kid share one fetch.
    fetching: tokio::sync::Mutex<()>,
    verified: Mutex<Lru<[u8; 32], Verified>>,
}

#[derive(Deserialize)]
struct AccessClaims {
    #[serde(default)]
    iss: Option<String>,
    #[serde(default)]
    sub: Option<String>,
    #[serde(default)]
    aud: Option<Audience>,
    #[serde(default)]
    exp: Option<f64>,
    #[serde(default)]
    nbf: Option<f64>,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    groups: Vec<String>,
}

/// RFC 7519 §4.1.3: one string or an array of strings.
#[derive(Deserialize)]
#[serde(untagged)]
enum Audience {
    One(String),
    Many(Vec<String>),
}

impl Audience {
    fn contains(&self, wanted: &str) -> bool {
        match self {
            Self::One(a) => a == wanted,
            Self::Many(all) => all.iter().any(|a| a == wanted),
        }
    }
}

impl Authenticator {
    /// `issuer` is the IAM realm URL every accepted token must name in `iss`.
    pub fn new(source: KeySource, issuer: String) -> Self {
        Self {
            source,
            issuer,
            cache: RwLock::new(Cached {
                keys: Arc::new(Vec::new()),
                fetched: None,
            }),
            fetching: tokio::sync::Mutex::new(()),
            verified: Mutex::new(Lru::new(VERIFIED_MAX)),
        }
    }

    /// Authenticates a request by its `Authorization: Bearer` header.
    #[tracing::instrument(skip_all)]
    pub async fn authenticate(&self, headers: &HeaderMap) -> Result<User, AuthError> {
        let token = bearer_token(headers).ok_or(AuthError::Missing)?;
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        // The keys a verification would use now (refreshed when stale, as it would).
        let keys = self.keys(false).await?;
        if let Some(principal) = self.remembered(&digest, &keys)? {
            return Ok(principal);
        }
        let (claims, key) = self.verify_signature(token, keys).await?;
        let (exp, nbf) = (claims.exp, claims.nbf);
        let principal = self.check_claims(claims)?;
        self.verified().insert(
            digest,
            Verified {
                principal: principal.clone(),
                exp: exp.unwrap_or(0.0),
                nbf,
                key,
                at: Instant::now(),
            },
        );
        Ok(principal)
    }

    fn verified(&self) -> MutexGuard<'_, Lru<[u8; 32], Verified>> {
        // Entries are inserted whole: a map left by a panicking thread is still sound.
        self.verified.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The principal of a token verified recently by one of `keys`, its validity period
    /// checked again; `None` when it must be verified (again).
    fn remembered(&self, digest: &[u8; 32], keys: &[PublicKey]) -> Result<Option<User>, AuthError> {
        let mut verified = self.verified();
        let Some(entry) = verified.get(digest) else {
            return Ok(None);
        };
        let key_held = keys
            .iter()
            .any(|k| k.kid == entry.key.kid && k.jwk() == entry.key);
        if entry.at.elapsed() > VERIFIED_TTL || !key_held {
            verified.remove(digest);
            return Ok(None);
        }
        check_validity(Some(entry.exp), entry.nbf)?;
        Ok(Some(entry.principal.clone()))
    }

    /// The token's claims once its signature verifies, and the key that verified it.
    async fn verify_signature(
        &self,
        token: &str,
        keys: Arc<Vec<PublicKey>>,
    ) -> Result<(AccessClaims, Jwk), AuthError> {
        let verify = |keys: &[PublicKey]| {
            jws::verify::<AccessClaims>(token, keys, None).map(|(header, claims)| {
                let key = keys
                    .iter()
                    .find(|k| Some(&k.kid) == header.kid.as_ref())
                    .map(PublicKey::jwk);
                (claims, key)
            })
        };
        let (claims, key) = match verify(&keys) {
            Err(JwsError::UnknownKey(_)) => {
                let keys = self.keys(true).await?;
                verify(&keys).map_err(AuthError::Token)?
            }
            verified => verified.map_err(AuthError::Token)?,
        };
        // jws::verify found the key by this same kid, so it is there.
        let key = key.ok_or(AuthError::Token(JwsError::UnknownKey(None)))?;
        Ok((claims, key))
    }

    fn check_claims(&self, claims: AccessClaims) -> Result<User, AuthError> {
        check_validity(claims.exp, claims.nbf)?;
        if claims.iss.as_deref() != Some(self.issuer.as_str()) {
            return Err(AuthError::Issuer(self.issuer.clone()));
        }
        if !claims
            .aud
            .as_ref()
            .is_some_and(|a| a.contains(QUERYMESH_AUDIENCE))
        {
            return Err(AuthError::Audience);
        }
        let scoped = claims
            .scope
            .as_deref()
            .is_some_and(|s| s.split(' ').any(|s| s == QUERYMESH_SCOPE));
        if !scoped {
            return Err(AuthError::Scope);
        }
        let name = claims
            .sub
            .filter(|s| !s.is_empty())
            .ok_or(AuthError::Subject)?;
        Ok(User {
            name,
            groups: claims.groups,
        })
    }

    /// The verification keys; `refresh` asks for a fetch because a token named an unknown kid.
    async fn keys(&self, refresh: bool) -> Result<Arc<Vec<PublicKey>>, AuthError> {
        let (url, http) = match &self.source {
            KeySource::Static(ring) => return Ok(Arc::new(ring.published())),
            KeySource::Url { url, http } => (url, http),
        };
        let (keys, fetched) = self.cached();
        let stale = fetched.is_none_or(|t| t.elapsed() > KEYS_MAX_AGE);
        if !refresh && !stale {
            return Ok(keys);
        }
        let _one_fetch = self.fetching.lock().await;
        let (keys, now_fetched) = self.cached();
        if now_fetched != fetched {
            // Another request fetched while this one waited for the lock.
            return Ok(keys);
        }
        if let Some(at) = fetched {
            tokio::time::sleep_until((at + REFETCH_INTERVAL).into()).await;
        }
        match fetch_jwks(http, url).await {
            Ok(fresh) => {
                let fresh = Arc::new(fresh);
                if let Ok(mut cache) = self.cache.write() {
                    *cache = Cached {
                        keys: fresh.clone(),
                        fetched: Some(Instant::now()),
                    };
                }
                Ok(fresh)
            }
            // Keys fetched before still verify what they signed.
            Err(e) if keys.is_empty() => Err(AuthError::KeysUnavailable(e)),
            Err(e) => {
                tracing::warn!(error = %e, "refreshing the IAM's JWKS failed; keeping the cached keys");
                Ok(keys)
            }
        }
    }

    fn cached(&self) -> (Arc<Vec<PublicKey>>, Option<Instant>) {
        match self.cache.read() {
            Ok(cache) => (cache.keys.clone(), cache.fetched),
            Err(poisoned) => {
                let cache = poisoned.into_inner();
                (cache.keys.clone(), cache.fetched)
            }
        }
    }
}

/// `exp` (required) and `nbf` against the clock, with [`LEEWAY_SECS`] of skew.
fn check_validity(exp: Option<f64>, nbf: Option<f64>) -> Result<(), AuthError> {
    let now = unix_now() as i64;
    let exp = exp.ok_or(AuthError::NoExpiry)?;
    if (exp as i64) + LEEWAY_SECS <= now {
        return Err(AuthError::Expired);
    }
    if let Some(nbf) = nbf
        && (nbf as i64) - LEEWAY_SECS > now
    {
        return Err(AuthError::NotYetValid);
    }
    Ok(())
}

async fn fetch_jwks(http: &HttpClient, url: &str) -> Result<Vec<PublicKey>, String> {
    let request = Request::get(url)
        .header(header::ACCEPT, "application/json")
        .body(Body::empty())
        .map_err(|e| e.to_string())?;
    let response = tokio::time::timeout(Duration::from_secs(5), http.request(request))
        .await
        .map_err(|_| format!("{url} did not answer within 5 s"))?
        .map_err(|e| format!("{url}: {e}"))?;
    if response.status() != StatusCode::OK {
        return Err(format!("{url} answered HTTP {}", response.status()));
    }
    let body = read_body(response.into_body(), JWKS_MAX_BYTES)
        .await
        .map_err(|e| e.to_string())?;
    let jwks: Jwks =
        serde_json::from_slice(&body).map_err(|e| format!("{url} is not a JWKS: {e}"))?;
    Ok(jwks.public_keys())
}

/// The token of `Authorization: Bearer <token>` (the scheme is case-insensitive, RFC 6750 §2.1).
fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn bearer(token: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        let value = HeaderValue::from_str(&format!("Bearer {token}")).unwrap();
        headers.insert(header::AUTHORIZATION, value);
        headers
    }

    fn token(ring: &KeyRing, sub: &str, exp: u64) -> String {
        let claims = serde_json::json!({
            "iss": "https://iam/realms/r", "sub": sub, "aud": [QUERYMESH_AUDIENCE],
            "exp": exp, "scope": QUERYMESH_SCOPE,
        });
        jws::sign(&ring.current(), "JWT", &claims)
    }

    fn authenticator(ring: &KeyRing) -> Authenticator {
        Authenticator::new(
            KeySource::Static(ring.clone()),
            "https://iam/realms/r".into(),
        )
    }

    #[test]
    fn a_remembered_token_still_expires() {
        let ring = KeyRing::ephemeral();
        let auth = authenticator(&ring);
        let keys = ring.published();
        let now = unix_now() as f64;
        let principal = User {
            name: "ada".into(),
            groups: Vec::new(),
        };
        let entries = [
            ([1; 32], now - 600.0, None),
            ([2; 32], now + 600.0, None),
            ([4; 32], now + 600.0, Some(now + 600.0)),
        ];
        for (digest, exp, nbf) in entries {
            let entry = Verified {
                principal: principal.clone(),
                exp,
                nbf,
                key: keys[0].jwk(),
                at: Instant::now(),
            };
            auth.verified().insert(digest, entry);
        }
        assert!(matches!(
            auth.remembered(&[1; 32], &keys),
            Err(AuthError::Expired)
        ));
        assert!(matches!(
            auth.remembered(&[4; 32], &keys),
            Err(AuthError::NotYetValid)
        ));
        assert_eq!(
            auth.remembered(&[2; 32], &keys).unwrap().unwrap().name,
            "ada"
        );
        assert!(auth.remembered(&[3; 32], &keys).unwrap().is_none());
    }

    #[tokio::test]
    async fn a_remembered_token_stops_with_the_key_that_signed_it() {
        let ring = KeyRing::ephemeral();
        let auth = authenticator(&ring);
        let ada = token(&ring, "ada", unix_now() + 600);
        for _ in 0..2 {
            let principal = auth.authenticate(&bearer(&ada)).await.expect("accepted");
            assert_eq!(principal.name, "ada");
        }
        assert_eq!(auth.verified().len(), 1, "verified once, then remembered");
        // Rotated with no grace period: the old key is no longer published.
        ring.rotate(Duration::ZERO).expect("rotates");
        let refused = auth.authenticate(&bearer(&ada)).await;
        assert!(
            matches!(refused, Err(AuthError::Token(JwsError::UnknownKey(_)))),
            "{refused:?}"
        );
        let grace = token(&ring, "grace", unix_now() + 600);
        assert_eq!(
            auth.authenticate(&bearer(&grace)).await.unwrap().name,
            "grace"
        );
    }

    #[tokio::test]
    async fn each_token_is_remembered_as_its_own_principal() {
        let ring = KeyRing::ephemeral();
        let auth = authenticator(&ring);
        let exp = unix_now() + 600;
        let (ada, bob) = (token(&ring, "ada", exp), token(&ring, "bob", exp));
        for _ in 0..2 {
            assert_eq!(auth.authenticate(&bearer(&ada)).await.unwrap().name, "ada");
            assert_eq!(auth.authenticate(&bearer(&bob)).await.unwrap().name, "bob");
        }
        // A token whose signature was tampered with is refused, however alike it looks.
        let at = ada.len() - 10;
        let swapped = if &ada[at..=at] == "A" { "B" } else { "A" };
        let forged = format!("{}{swapped}{}", &ada[..at], &ada[at + 1..]);
        assert!(auth.authenticate(&bearer(&forged)).await.is_err());
    }

    #[test]
    fn bearer_scheme_is_case_insensitive() {
        let mut h = HeaderMap::new();
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bearer abc"),
        );
        assert_eq!(bearer_token(&h), Some("abc"));
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic abc"));
        assert_eq!(bearer_token(&h), None);
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer "));
        assert_eq!(bearer_token(&h), None);
    }
}
