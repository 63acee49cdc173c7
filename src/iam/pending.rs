//! Authorization requests waiting for the sign-in page: the page carries only an opaque id
//! (`auth_request`), so nothing the browser posts back can change where the code goes.

use std::collections::HashMap;
use std::sync::Mutex;

use super::sso::random_token;

/// How long the sign-in page stays usable (Keycloak's default login timeout is 30 min; the
/// platform's is shorter).
const PENDING_LIFETIME_SECS: u64 = 600;
/// Anyone can start a sign-in: past this many waiting, the oldest goes first.
const MAX_PENDING: usize = 10_000;

/// A validated authorization request (RFC 6749 §4.1.1 with RFC 7636's challenge).
#[derive(Clone, Debug)]
pub(super) struct AuthRequest {
    pub redirect_uri: String,
    pub state: Option<String>,
    pub nonce: Option<String>,
    pub code_challenge: String,
    /// `offline_access` was asked for: the refresh token outlives the SSO session.
    pub offline: bool,
}

pub(super) struct PendingRequests {
    requests: Mutex<HashMap<String, (AuthRequest, u64)>>,
    max: usize,
}

impl Default for PendingRequests {
    fn default() -> Self {
        Self {
            requests: Mutex::default(),
            max: MAX_PENDING,
        }
    }
}

impl PendingRequests {
    /// Keeps `request` for the page; returns its opaque id.
    pub(super) fn insert(&self, request: AuthRequest, now: u64) -> String {
        let id = random_token();
        let mut requests = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        requests.retain(|_, (_, expires_at)| *expires_at > now);
        if let Some(oldest) = crate::bounded::evictable(&requests, self.max, |(_, e)| *e) {
            requests.remove(&oldest);
        }
        requests.insert(id.clone(), (request, now + PENDING_LIFETIME_SECS));
        id
    }

    /// The request `id` names, while it lasts.
    pub(super) fn get(&self, id: &str, now: u64) -> Option<AuthRequest> {
        let requests = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        requests
            .get(id)
            .filter(|(_, expires_at)| *expires_at > now)
            .map(|(request, _)| request.clone())
    }

    /// Removes the request once it has been answered: a page posted twice issues one code.
    pub(super) fn take(&self, id: &str, now: u64) -> Option<AuthRequest> {
        let mut requests = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        requests
            .remove(id)
            .filter(|(_, expires_at)| *expires_at > now)
            .map(|(request, _)| request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> AuthRequest {
        AuthRequest {
            redirect_uri: "http://127.0.0.1/cb".into(),
            state: None,
            nonce: None,
            code_challenge: "c".into(),
            offline: false,
        }
    }

    #[test]
    fn a_flood_of_sign_ins_keeps_only_the_latest() {
        let pending = PendingRequests {
            max: 3,
            ..PendingRequests::default()
        };
        let ids: Vec<String> = (0..5).map(|i| pending.insert(request(), 100 + i)).collect();
        let now = 105;
        assert!(pending.get(&ids[0], now).is_none() && pending.get(&ids[1], now).is_none());
        assert!(ids[2..].iter().all(|id| pending.get(id, now).is_some()));
    }
}
