//! Authorization codes: single use, 60 seconds, bound to everything the token request must
//! repeat (RFC 6749 §4.1.2, §10.5; RFC 7636 §4.4).

use std::collections::HashMap;
use std::sync::Mutex;

use super::sso::random_token;

/// RFC 6749 §4.1.2 recommends at most 10 minutes; the platform uses 60 seconds.
pub(super) const CODE_LIFETIME_SECS: u64 = 60;
/// Codes not yet redeemed; past this many, the oldest goes first.
const MAX_CODES: usize = 10_000;

/// What a code was issued for.
#[derive(Clone, Debug)]
pub(super) struct CodeGrant {
    pub client_id: String,
    pub redirect_uri: String,
    pub code_challenge: String,
    pub nonce: Option<String>,
    pub sso_session: String,
    /// `offline_access` was granted (see [`super::sso::RefreshGrant::offline`]).
    pub offline: bool,
}

enum CodeState {
    Fresh(CodeGrant),
    /// Kept until it would have expired, so a second use is recognised as reuse and the
    /// refresh token issued from the first use can be revoked (RFC 6749 §4.1.2).
    Redeemed {
        refresh_token: Option<String>,
    },
}

/// Why a code cannot be redeemed.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum CodeRefusal {
    Unknown,
    Expired,
    /// Used before; carries the refresh token issued from that use, if any.
    Reused {
        refresh_token: Option<String>,
    },
}

#[derive(Default)]
pub(super) struct CodeStore {
    codes: Mutex<HashMap<String, (CodeState, u64)>>,
}

impl CodeStore {
    pub(super) fn issue(&self, grant: CodeGrant, now: u64) -> String {
        let code = random_token();
        let mut codes = self.codes.lock().unwrap_or_else(|p| p.into_inner());
        codes.retain(|_, (_, expires_at)| *expires_at > now);
        if let Some(oldest) = crate::bounded::evictable(&codes, MAX_CODES, |(_, e)| *e) {
            codes.remove(&oldest);
        }
        codes.insert(
            code.clone(),
            (CodeState::Fresh(grant), now + CODE_LIFETIME_SECS),
        );
        code
    }

    /// Spends the code: whatever the token request does next, it cannot be presented again.
    pub(super) fn redeem(&self, code: &str, now: u64) -> Result<CodeGrant, CodeRefusal> {
        let mut codes = self.codes.lock().unwrap_or_else(|p| p.into_inner());
        let Some((state, expires_at)) = codes.get_mut(code) else {
            return Err(CodeRefusal::Unknown);
        };
        if *expires_at <= now {
            codes.remove(code);
            return Err(CodeRefusal::Expired);
        }
        let previous = std::mem::replace(
            state,
            CodeState::Redeemed {
                refresh_token: None,
            },
        );
        match previous {
            CodeState::Fresh(grant) => Ok(grant),
            CodeState::Redeemed { refresh_token } => {
                // Report reuse once: the revoked token need not be revoked again.
                Err(CodeRefusal::Reused { refresh_token })
            }
        }
    }

    /// Notes the refresh token issued from a redeemed code.
    pub(super) fn record_refresh_token(&self, code: &str, token: &str) {
        let mut codes = self.codes.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((CodeState::Redeemed { refresh_token }, _)) = codes.get_mut(code) {
            *refresh_token = Some(token.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grant() -> CodeGrant {
        CodeGrant {
            client_id: "c".into(),
            redirect_uri: "http://x/cb".into(),
            code_challenge: "ch".into(),
            nonce: None,
            sso_session: "s".into(),
            offline: false,
        }
    }

    #[test]
    fn a_code_is_single_use_and_expires() {
        let store = CodeStore::default();
        let code = store.issue(grant(), 1000);
        assert!(store.redeem(&code, 1001).is_ok());
        store.record_refresh_token(&code, "rt");
        assert_eq!(
            store.redeem(&code, 1002).unwrap_err(),
            CodeRefusal::Reused {
                refresh_token: Some("rt".into())
            }
        );
        let late = store.issue(grant(), 1000);
        assert_eq!(
            store.redeem(&late, 1000 + CODE_LIFETIME_SECS).unwrap_err(),
            CodeRefusal::Expired
        );
        assert_eq!(
            store.redeem("nope", 1000).unwrap_err(),
            CodeRefusal::Unknown
        );
    }
}
