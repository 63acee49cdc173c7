//! Sign-ins in flight: what the edge must remember between sending the browser to the IAM and
//! receiving it back at the callback. Each is keyed by its `state`, taken at most once, and
//! expires, so a replayed or stale callback finds nothing (RFC 6749 §10.12, RFC 9700 §4.7).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use sha2::{Digest, Sha256};

/// How long a person has to finish signing in at the IAM.
const PENDING_LIFETIME: Duration = Duration::from_secs(10 * 60);
/// Bounds the memory anonymous visitors can make the edge hold; past it the oldest go first.
const MAX_PENDING: usize = 10_000;

/// One sign-in the edge started.
pub struct PendingLogin {
    /// Binds the ID token to this sign-in (OIDC Core §3.1.2.1).
    pub nonce: String,
    /// The PKCE secret whose S256 challenge went to the IAM (RFC 7636 §4.1).
    pub code_verifier: String,
    /// Already validated by [`super::return_to::sanitize`].
    pub return_to: String,
    /// The exact `redirect_uri` sent to the IAM; the code exchange must repeat it.
    pub redirect_uri: String,
    /// The login cookie of the browser that started it: the callback must come from the same
    /// browser (RFC 6749 §10.12, RFC 9700 §4.7.1), or an attacker's callback URL would sign a
    /// victim's browser in as the attacker.
    pub browser: String,
    created: Instant,
}

impl PendingLogin {
    /// The PKCE challenge: BASE64URL(SHA256(verifier)) (RFC 7636 §4.2).
    pub fn code_challenge(&self) -> String {
        B64.encode(Sha256::digest(self.code_verifier.as_bytes()))
    }

    fn expired(&self) -> bool {
        self.created.elapsed() > PENDING_LIFETIME
    }
}

/// 256 random bits, base64url: unguessable `state`, `nonce` and PKCE verifier (43 characters,
/// within RFC 7636's 43–128).
pub(super) fn random_value() -> String {
    let bytes: [u8; 32] = rand::random();
    B64.encode(bytes)
}

#[derive(Clone, Default)]
pub struct PendingLogins {
    inner: Arc<Mutex<HashMap<String, PendingLogin>>>,
}

impl PendingLogins {
    /// Remembers a new sign-in; returns its `state` and a copy of what the IAM must be told.
    pub fn start(
        &self,
        return_to: String,
        redirect_uri: String,
        browser: String,
    ) -> (String, StartedLogin) {
        let state = random_value();
        let pending = PendingLogin {
            nonce: random_value(),
            code_verifier: random_value(),
            return_to,
            redirect_uri,
            browser,
            created: Instant::now(),
        };
        let started = StartedLogin {
            nonce: pending.nonce.clone(),
            code_challenge: pending.code_challenge(),
            redirect_uri: pending.redirect_uri.clone(),
        };
        let mut map = self.lock();
        map.retain(|_, p| !p.expired());
        if map.len() >= MAX_PENDING
            && let Some(oldest) = map
                .iter()
                .min_by_key(|(_, p)| p.created)
                .map(|(k, _)| k.clone())
        {
            map.remove(&oldest);
        }
        map.insert(state.clone(), pending);
        (state, started)
    }

    /// The sign-in `state` names, removed so it can be used only once; `None` when unknown,
    /// already used or expired.
    pub fn take(&self, state: &str) -> Option<PendingLogin> {
        self.lock().remove(state).filter(|p| !p.expired())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, PendingLogin>> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// What the authorization request carries of a new sign-in.
pub struct StartedLogin {
    pub nonce: String,
    pub code_challenge: String,
    pub redirect_uri: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_taken_once() {
        let logins = PendingLogins::default();
        let (state, started) = logins.start("/x".into(), "http://h/cb".into(), "b".into());
        let pending = logins.take(&state).expect("first use");
        assert_eq!(pending.return_to, "/x");
        assert_eq!(pending.code_challenge(), started.code_challenge);
        assert!(logins.take(&state).is_none());
        assert!(logins.take("made-up").is_none());
    }

    #[test]
    fn challenge_is_rfc7636_s256() {
        // RFC 7636 Appendix B.
        let pending = PendingLogin {
            nonce: String::new(),
            code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".into(),
            return_to: "/".into(),
            redirect_uri: String::new(),
            browser: String::new(),
            created: Instant::now(),
        };
        assert_eq!(
            pending.code_challenge(),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }
}
