//! The keys that verify identities, kept the way the spec asks of an app: start from
//! `NNUMBERS_IDENTITY_JWKS`, and fetch `NNUMBERS_BROKER_URL/v1/jwks` only when an unknown `kid`
//! arrives — at most once per [`REFETCH_INTERVAL`], never per request.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;

use crate::http::{HttpClient, read_body};
use crate::identity::{Jwks, PublicKey};
use crate::platform::SandboxEnv;

/// How long fetched keys are trusted to be complete before an unknown kid may fetch again.
const REFETCH_INTERVAL: Duration = Duration::from_secs(60);

#[derive(Clone)]
pub struct IdentityKeys {
    jwks_url: String,
    http: HttpClient,
    cache: Arc<Mutex<Cache>>,
}

struct Cache {
    keys: Vec<PublicKey>,
    fetched_at: Option<Instant>,
}

impl IdentityKeys {
    pub fn new(env: &SandboxEnv, http: HttpClient) -> Self {
        let keys = serde_json::from_str::<Jwks>(&env.identity_jwks)
            .map(|jwks| jwks.public_keys())
            .unwrap_or_default();
        Self {
            jwks_url: format!("{}/v1/jwks", env.broker_url),
            http,
            cache: Arc::new(Mutex::new(Cache {
                keys,
                fetched_at: None,
            })),
        }
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The keys to verify a token signed with `kid`.
    pub async fn for_kid(&self, kid: Option<&str>) -> Vec<PublicKey> {
        let may_fetch = {
            let cache = self.cache();
            let known = cache.keys.iter().any(|k| Some(k.kid.as_str()) == kid);
            let recently = cache
                .fetched_at
                .is_some_and(|at| at.elapsed() < REFETCH_INTERVAL);
            if known || recently {
                return cache.keys.clone();
            }
            true
        };
        if may_fetch {
            match self.fetch().await {
                Ok(keys) => {
                    let mut cache = self.cache();
                    cache.keys = keys;
                    cache.fetched_at = Some(Instant::now());
                }
                Err(reason) => {
                    tracing::warn!(%reason, "the demo app could not fetch the broker's JWKS");
                    self.cache().fetched_at = Some(Instant::now());
                }
            }
        }
        self.cache().keys.clone()
    }

    async fn fetch(&self) -> Result<Vec<PublicKey>, String> {
        let request = Request::get(&self.jwks_url)
            .body(Body::empty())
            .map_err(|e| e.to_string())?;
        let response = self
            .http
            .request(request)
            .await
            .map_err(|e| e.to_string())?;
        if !response.status().is_success() {
            return Err(format!("HTTP {}", response.status()));
        }
        let bytes = read_body(response.into_body(), 1 << 20)
            .await
            .map_err(|e| e.to_string())?;
        let jwks: Jwks = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
        Ok(jwks.public_keys())
    }
}
