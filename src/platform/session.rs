//! Platform sessions: created by the edge at sign-in, consulted by the broker on every query,
//! ended by the IAM with the SSO session they were born of.
//!
//! This is the one piece of state the components share directly (the real platform keeps it
//! in a store its services read); everything else between components goes over HTTP.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use super::Clock;
use crate::config::Person;
use crate::oidc::{OidcClient, OidcError, TokenResponse};

/// An access token is refreshed when less than this remains of it.
const REFRESH_MARGIN_SECS: u64 = 30;
/// Platform sessions kept at once; past this many, the one created first ends (its sid is
/// then refused as a signed-out one is). Far above what a test suite keeps alive.
const MAX_SESSIONS: usize = 50_000;

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// Logged out, ended by the IAM, or the IAM refused to refresh it.
    #[error("the platform session has ended")]
    Ended,
    #[error("the organization IAM could not refresh the session: {0}")]
    IamUnavailable(String),
}

/// The organization IAM's tokens for one platform session. They never leave the platform.
#[derive(Clone)]
pub struct IamTokens {
    pub access_token: String,
    /// Unix seconds.
    pub access_expires_at: u64,
    pub refresh_token: Option<String>,
    pub id_token: Option<String>,
}

impl IamTokens {
    /// Tokens from a token endpoint answer; a refresh that returns no new refresh token keeps
    /// the previous one (RFC 6749 §6).
    pub fn from_response(response: TokenResponse, previous_refresh: Option<String>) -> Self {
        Self::from_response_at(response, previous_refresh, crate::identity::unix_now())
    }

    /// [`Self::from_response`] received at `now` (the platform clock's unix seconds).
    pub fn from_response_at(
        response: TokenResponse,
        previous_refresh: Option<String>,
        now: u64,
    ) -> Self {
        Self {
            access_expires_at: now + response.expires_in,
            access_token: response.access_token,
            refresh_token: response.refresh_token.or(previous_refresh),
            id_token: response.id_token,
        }
    }
}

impl std::fmt::Debug for IamTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IamTokens")
            .field("access_expires_at", &self.access_expires_at)
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Debug)]
pub struct PlatformSession {
    /// The opaque session reference the identity carries as `sid`.
    pub sid: String,
    pub person: Person,
    pub tokens: IamTokens,
    /// The IAM's SSO session this platform session came from (the ID token's `sid`).
    pub iam_session: Option<String>,
    pub created_at: u64,
    /// The last identity signed for this session and its `exp`, reused until it nears expiry.
    pub cached_identity: Option<(String, u64)>,
}

impl PlatformSession {
    /// Whether its access token has more than [`REFRESH_MARGIN_SECS`] left at `now`, so
    /// [`SessionStore::fresh_access_token`] would hand it back unrefreshed: the edge then
    /// skips that call and its second copy of the session on every request.
    pub fn access_token_fresh_at(&self, now: u64) -> bool {
        self.tokens.access_expires_at > now + REFRESH_MARGIN_SECS
    }
}

#[derive(Default)]
struct Store {
    sessions: HashMap<String, PlatformSession>,
    /// Cookie handle → sid: the cookie never holds the sid itself.
    handles: HashMap<String, String>,
}

#[derive(Clone)]
pub struct SessionStore {
    inner: Arc<RwLock<Store>>,
    max: usize,
    /// The platform's time: when sessions start, when their IAM tokens expire, and what the
    /// identities signed for them say.
    clock: Clock,
}

impl Default for SessionStore {
    fn default() -> Self {
        Self::with_max(MAX_SESSIONS)
    }
}

fn random_token() -> String {
    use base64::Engine;
    let bytes: [u8; 32] = rand::random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

impl SessionStore {
    /// A store keeping at most `max` sessions (the default: [`MAX_SESSIONS`]).
    pub fn with_max(max: usize) -> Self {
        Self {
            inner: Arc::default(),
            max: max.max(1),
            clock: Clock::default(),
        }
    }

    /// A store on the platform's `clock` (moving it moves the sessions' and identities' time).
    pub fn with_clock(clock: Clock) -> Self {
        Self {
            clock,
            ..Self::default()
        }
    }

    /// The platform clock this store reads.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Store> {
        self.inner.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Store> {
        self.inner.write().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts a session; returns (cookie handle, sid).
    pub fn create(
        &self,
        person: Person,
        tokens: IamTokens,
        iam_session: Option<String>,
    ) -> (String, String) {
        let sid = uuid::Uuid::new_v4().to_string();
        let handle = random_token();
        let session = PlatformSession {
            sid: sid.clone(),
            person,
            tokens,
            iam_session,
            created_at: self.clock.now(),
            cached_identity: None,
        };
        let mut store = self.write();
        if let Some(oldest) = crate::bounded::evictable(&store.sessions, self.max, |s| s.created_at)
        {
            store.sessions.remove(&oldest);
            store.handles.retain(|_, s| *s != oldest);
        }
        store.sessions.insert(sid.clone(), session);
        store.handles.insert(handle.clone(), sid.clone());
        (handle, sid)
    }

    pub fn by_handle(&self, handle: &str) -> Option<PlatformSession> {
        let store = self.read();
        let sid = store.handles.get(handle)?;
        store.sessions.get(sid).cloned()
    }

    pub fn get(&self, sid: &str) -> Option<PlatformSession> {
        self.read().sessions.get(sid).cloned()
    }

    pub fn is_alive(&self, sid: &str) -> bool {
        self.read().sessions.contains_key(sid)
    }

    /// The `sub` of the person whose live session `sid` is.
    pub fn sub_of(&self, sid: &str) -> Option<String> {
        self.read().sessions.get(sid).map(|s| s.person.sub.clone())
    }

    pub fn set_tokens(&self, sid: &str, tokens: IamTokens) {
        if let Some(s) = self.write().sessions.get_mut(sid) {
            s.tokens = tokens;
        }
    }

    pub fn cache_identity(&self, sid: &str, token: String, exp: u64) {
        if let Some(s) = self.write().sessions.get_mut(sid) {
            s.cached_identity = Some((token, exp));
        }
    }

    /// Ends one session; from then on the broker refuses its sid. Returns whether it existed.
    pub fn end(&self, sid: &str) -> bool {
        let mut store = self.write();
        store.handles.retain(|_, s| s != sid);
        store.sessions.remove(sid).is_some()
    }

    /// Ends every session born of the IAM SSO session `iam_session`; returns how many.
    pub fn end_iam_session(&self, iam_session: &str) -> usize {
        self.end_where(|s| s.iam_session.as_deref() == Some(iam_session))
    }

    /// Ends every session of the person `sub`; returns how many.
    pub fn end_person(&self, sub: &str) -> usize {
        self.end_where(|s| s.person.sub == sub)
    }

    fn end_where(&self, ends: impl Fn(&PlatformSession) -> bool) -> usize {
        let mut store = self.write();
        let ended: Vec<String> = store
            .sessions
            .values()
            .filter(|s| ends(s))
            .map(|s| s.sid.clone())
            .collect();
        for sid in &ended {
            store.sessions.remove(sid);
        }
        store.handles.retain(|_, sid| !ended.contains(sid));
        ended.len()
    }

    /// The session's IAM access token, refreshed first when it is about to expire. A refresh
    /// the IAM refuses ends the session.
    pub async fn fresh_access_token(
        &self,
        sid: &str,
        oidc: &OidcClient,
    ) -> Result<String, SessionError> {
        let session = self.get(sid).ok_or(SessionError::Ended)?;
        let now = self.clock.now();
        if session.tokens.access_expires_at > now + REFRESH_MARGIN_SECS {
            return Ok(session.tokens.access_token);
        }
        let Some(refresh_token) = session.tokens.refresh_token else {
            self.end(sid);
            return Err(SessionError::Ended);
        };
        match oidc.refresh(&refresh_token).await {
            Ok(response) => {
                let tokens = IamTokens::from_response_at(response, Some(refresh_token), now);
                let access = tokens.access_token.clone();
                self.set_tokens(sid, tokens);
                Ok(access)
            }
            Err(OidcError::Refused { .. }) => {
                self.end(sid);
                Err(SessionError::Ended)
            }
            Err(e) => Err(SessionError::IamUnavailable(e.to_string())),
        }
    }

    /// Ends every session; returns how many.
    pub fn end_all(&self) -> usize {
        self.end_where(|_| true)
    }

    pub fn list(&self) -> Vec<PlatformSession> {
        self.read().sessions.values().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(sub: &str) -> Person {
        Person {
            sub: sub.into(),
            profile: Default::default(),
            groups: Vec::new(),
            attributes: Default::default(),
        }
    }

    fn tokens() -> IamTokens {
        IamTokens {
            access_token: "a".into(),
            access_expires_at: u64::MAX,
            refresh_token: None,
            id_token: None,
        }
    }

    #[test]
    fn past_its_size_the_store_ends_the_oldest_session() {
        let store = SessionStore::with_max(2);
        let (first_handle, first) = store.create(person("a"), tokens(), None);
        // created_at has one-second resolution: make the first visibly older.
        store
            .write()
            .sessions
            .get_mut(&first)
            .expect("alive")
            .created_at -= 10;
        let (_, second) = store.create(person("b"), tokens(), None);
        let (_, third) = store.create(person("c"), tokens(), None);
        assert!(!store.is_alive(&first) && store.by_handle(&first_handle).is_none());
        assert!(store.is_alive(&second) && store.is_alive(&third));
        assert_eq!(store.read().handles.len(), 2);
    }
}
