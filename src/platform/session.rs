//! Platform sessions: created by the edge at sign-in, consulted by the broker on every query,
//! ended by the IAM with the SSO session they were born of.
//!
//! This is the one piece of state the components share directly (the real platform keeps it
//! in a store its services read); everything else between components goes over HTTP.
//!
//! However a session ends, it ends here: the store journals `SESSION_ENDED` with who ended it
//! and why, and fires the session's end signal ([`SessionStore::end_signal`]), so the work it
//! admitted (a broker call waiting on QueryMesh) is revoked at once rather than finishing
//! (NYXDB's "removing the token revokes every connection it admitted").

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use axum::http::HeaderValue;
use bytes::Bytes;
use serde_json::json;
use tokio::sync::watch;

use super::Clock;
use super::journal::{Journal, NewEvent, Source};
use crate::config::Person;
use crate::oidc::{OidcClient, OidcError, TokenResponse};

/// An access token is refreshed when less than this remains of it.
const REFRESH_MARGIN_SECS: u64 = 30;
/// Platform sessions kept at once; past this many, the one created first ends (its sid is
/// then refused as a signed-out one is). Far above what a test suite keeps alive.
const MAX_SESSIONS: usize = 50_000;
/// How long a one-time sign-in link of [`SessionStore::offer_handoff`] lasts.
pub const HANDOFF_LIFETIME_SECS: u64 = 60;
/// One-time sign-in links open at once.
const MAX_HANDOFFS: usize = 64;
/// A session ended to keep the store within [`MAX_SESSIONS`].
const EVICTED: Ending = Ending::new(Source::Edge, "the oldest past the platform's session limit");
/// A session whose IAM tokens the IAM no longer renews.
const REFRESH_REFUSED: Ending = Ending::new(Source::Iam, "the IAM refused to refresh its tokens");

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
    /// Kept as the header value the edge sends: each request shares its bytes (a reference
    /// count), none copies the kilobyte.
    pub cached_identity: Option<(HeaderValue, u64)>,
    /// The `kid` that signed [`Self::cached_identity`], read from it once when it is cached,
    /// so the edge compares it with the current key without decoding the token per request.
    pub cached_identity_kid: Option<String>,
}

/// Who ended a platform session, and why in a few words: the `source` and `details.why` of
/// its `SESSION_ENDED`, and what the work it admitted is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub source: Source,
    pub why: &'static str,
}

impl Ending {
    pub const fn new(source: Source, why: &'static str) -> Self {
        Self { source, why }
    }
}

/// A live session's end signal: [`Self::ended`] resolves once the session ends, however it
/// ends. Cheap (a `watch` receiver); the store drops its sender with the session.
#[derive(Debug)]
pub struct SessionEnd(watch::Receiver<Option<Ending>>);

impl SessionEnd {
    /// Waits for the session to end; at once when it already has.
    pub async fn ended(&mut self) -> Ending {
        match self.0.wait_for(Option::is_some).await {
            Ok(ending) => ending.unwrap_or(GONE),
            // The sender went without a word: only when the whole store went.
            Err(_) => GONE,
        }
    }

    /// How the session ended, if it has.
    pub fn has_ended(&self) -> Option<Ending> {
        let ending = *self.0.borrow();
        ending.or_else(|| self.0.has_changed().is_err().then_some(GONE))
    }
}

const GONE: Ending = Ending::new(Source::Edge, "the platform sessions were dropped");

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
    /// Shared, so the edge's lookup per request ([`SessionStore::shared_by_handle`]) copies a
    /// pointer, not the person and their tokens; a change copies the session only while a
    /// request still holds the old one.
    sessions: HashMap<String, Arc<PlatformSession>>,
    /// Cookie handle → sid: the cookie never holds the sid itself.
    handles: HashMap<String, String>,
    /// The identity signed last, for any session: what the console shows as the one the app
    /// received last. Set only when one is signed (not per request), so it costs nothing on
    /// the proxy's path beyond the write it already makes.
    latest_identity: Option<Arc<str>>,
    /// One-time sign-in links (code → (cookie handle, expiry)): how the console opens the edge
    /// signed in as a session the control API made (see [`SessionStore::offer_handoff`]).
    handoffs: HashMap<String, (String, u64)>,
    /// Each live session's end signal, fired and dropped when it ends.
    ends: HashMap<String, watch::Sender<Option<Ending>>>,
}

impl Store {
    /// Removes `sids` and fires their end signals; returns the sessions that were live.
    fn remove(&mut self, sids: &[String], ending: Ending) -> Vec<PlatformSession> {
        let ended: Vec<PlatformSession> = sids
            .iter()
            .filter_map(|sid| self.sessions.remove(sid))
            .map(Arc::unwrap_or_clone)
            .collect();
        if ended.is_empty() {
            return ended;
        }
        // A set: ending every one of 50,000 sessions stays linear.
        let gone: std::collections::HashSet<&str> = ended.iter().map(|s| s.sid.as_str()).collect();
        self.handles.retain(|_, sid| !gone.contains(sid.as_str()));
        for session in &ended {
            if let Some(end) = self.ends.remove(&session.sid) {
                end.send_replace(Some(ending));
            }
        }
        ended
    }
}

#[derive(Clone)]
pub struct SessionStore {
    inner: Arc<RwLock<Store>>,
    max: usize,
    /// The platform's time: when sessions start, when their IAM tokens expire, and what the
    /// identities signed for them say.
    clock: Clock,
    /// Where each session's end goes on record.
    journal: Option<Journal>,
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
            journal: None,
        }
    }

    /// The same store, journaling each session's end in `journal`.
    pub fn with_journal(mut self, journal: Journal) -> Self {
        self.journal = Some(journal);
        self
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
            cached_identity_kid: None,
        };
        let mut store = self.write();
        let evicted = crate::bounded::evictable(&store.sessions, self.max, |s| s.created_at)
            .map(|oldest| store.remove(&[oldest], EVICTED))
            .unwrap_or_default();
        store.sessions.insert(sid.clone(), Arc::new(session));
        store.handles.insert(handle.clone(), sid.clone());
        store.ends.insert(sid.clone(), watch::Sender::new(None));
        drop(store);
        self.journal_ended(evicted, EVICTED);
        (handle, sid)
    }

    /// The end signal of the live session `sid`; `None` when it has ended already.
    pub fn end_signal(&self, sid: &str) -> Option<SessionEnd> {
        self.read()
            .ends
            .get(sid)
            .map(|end| SessionEnd(end.subscribe()))
    }

    pub fn by_handle(&self, handle: &str) -> Option<PlatformSession> {
        self.shared_by_handle(handle).map(Arc::unwrap_or_clone)
    }

    /// [`Self::by_handle`] without a copy: what the edge looks up on every request.
    pub fn shared_by_handle(&self, handle: &str) -> Option<Arc<PlatformSession>> {
        let store = self.read();
        let sid = store.handles.get(handle)?;
        store.sessions.get(sid).cloned()
    }

    pub fn get(&self, sid: &str) -> Option<PlatformSession> {
        self.read()
            .sessions
            .get(sid)
            .map(|s| PlatformSession::clone(s))
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
            Arc::make_mut(s).tokens = tokens;
        }
    }

    /// Keeps `token` as the session's identity until `exp` nears; it comes back as the header
    /// value the edge sends, `None` if it could not be one (then nothing is cached).
    pub fn cache_identity(&self, sid: &str, token: String, exp: u64) -> Option<HeaderValue> {
        let kid = kid_of(&token);
        let latest = Arc::from(token.as_str());
        let header = HeaderValue::from_maybe_shared(Bytes::from(token)).ok();
        let mut store = self.write();
        if store.sessions.contains_key(sid) {
            store.latest_identity = Some(latest);
        }
        if let Some(s) = store.sessions.get_mut(sid) {
            let s = Arc::make_mut(s);
            s.cached_identity = header.clone().map(|header| (header, exp));
            s.cached_identity_kid = kid;
        }
        header
    }

    /// The identity signed last (see [`Store::latest_identity`]).
    pub fn latest_identity(&self) -> Option<Arc<str>> {
        self.read().latest_identity.clone()
    }

    /// A one-time code that gives a browser the cookie of the session behind `handle`, once,
    /// within [`HANDOFF_LIFETIME_SECS`]. At most [`MAX_HANDOFFS`] are open; the oldest goes.
    pub fn offer_handoff(&self, handle: &str) -> String {
        let code = random_token();
        let now = self.clock.now();
        let mut store = self.write();
        store.handoffs.retain(|_, (_, exp)| *exp > now);
        if let Some(oldest) = crate::bounded::evictable(&store.handoffs, MAX_HANDOFFS, |h| h.1) {
            store.handoffs.remove(&oldest);
        }
        store.handoffs.insert(
            code.clone(),
            (handle.to_string(), now + HANDOFF_LIFETIME_SECS),
        );
        code
    }

    /// The cookie handle of a live session `code` was offered for; the code is spent either way.
    pub fn take_handoff(&self, code: &str) -> Option<String> {
        let now = self.clock.now();
        let mut store = self.write();
        let (handle, exp) = store.handoffs.remove(code)?;
        let alive = store
            .handles
            .get(&handle)
            .is_some_and(|sid| store.sessions.contains_key(sid));
        (exp > now && alive).then_some(handle)
    }

    /// Ends one session as the test-control API does (for tests and tools holding the store);
    /// see [`Self::end_with`].
    pub fn end(&self, sid: &str) -> bool {
        self.end_with(sid, Ending::new(Source::Control, "ended by the sandbox"))
    }

    /// Ends one session; from then on the broker refuses its sid, and the work it admitted is
    /// revoked. Returns whether it existed.
    pub fn end_with(&self, sid: &str, ending: Ending) -> bool {
        let ended = self.write().remove(&[sid.to_string()], ending);
        let existed = !ended.is_empty();
        self.journal_ended(ended, ending);
        existed
    }

    /// Ends every session born of the IAM SSO session `iam_session`; returns how many.
    pub fn end_iam_session(&self, iam_session: &str, ending: Ending) -> usize {
        self.end_where(|s| s.iam_session.as_deref() == Some(iam_session), ending)
    }

    /// Ends every session of the person `sub`; returns how many.
    pub fn end_person(&self, sub: &str, ending: Ending) -> usize {
        self.end_where(|s| s.person.sub == sub, ending)
    }

    fn end_where(&self, ends: impl Fn(&PlatformSession) -> bool, ending: Ending) -> usize {
        let mut store = self.write();
        let sids: Vec<String> = store
            .sessions
            .values()
            .filter(|s| ends(s.as_ref()))
            .map(|s| s.sid.clone())
            .collect();
        let ended = store.remove(&sids, ending);
        drop(store);
        let count = ended.len();
        self.journal_ended(ended, ending);
        count
    }

    /// `SESSION_ENDED` for each of `ended`, recorded once the store's lock is released.
    fn journal_ended(&self, ended: Vec<PlatformSession>, ending: Ending) {
        let Some(journal) = &self.journal else {
            return;
        };
        for session in ended {
            journal.record(
                NewEvent::new(ending.source, "SESSION_ENDED")
                    .of_person(session.person.sub)
                    .in_session(session.sid)
                    .details(json!({ "why": ending.why })),
            );
        }
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
            self.end_with(sid, REFRESH_REFUSED);
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
                self.end_with(sid, REFRESH_REFUSED);
                Err(SessionError::Ended)
            }
            Err(e) => Err(SessionError::IamUnavailable(e.to_string())),
        }
    }

    /// Ends every session; returns how many.
    pub fn end_all(&self, ending: Ending) -> usize {
        self.end_where(|_| true, ending)
    }

    pub fn list(&self) -> Vec<PlatformSession> {
        self.read()
            .sessions
            .values()
            .map(|s| PlatformSession::clone(s))
            .collect()
    }
}

/// The `kid` a compact JWS names in its header.
fn kid_of(token: &str) -> Option<String> {
    use base64::Engine;
    let header = token.split('.').next()?;
    let header = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(header)
        .ok()?;
    serde_json::from_slice::<crate::identity::jws::Header>(&header)
        .ok()?
        .kid
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

    #[tokio::test]
    async fn a_session_end_signals_its_work_with_who_ended_it_and_is_journaled_once() {
        let journal = Journal::default();
        let store = SessionStore::default().with_journal(journal.clone());
        let (_, sid) = store.create(person("a"), tokens(), Some("sso".into()));
        let mut end = store.end_signal(&sid).expect("live");
        assert_eq!(end.has_ended(), None);
        let waiting = tokio::spawn(async move { end.ended().await });
        let ending = Ending::new(Source::Iam, "test");
        assert_eq!(store.end_iam_session("sso", ending), 1);
        assert_eq!(waiting.await.expect("the waiter"), ending);
        assert!(store.end_signal(&sid).is_none(), "dropped with the session");
        assert!(!store.end_with(&sid, ending), "ends once");
        let page = journal.read(0, Some("SESSION_ENDED"), None, 10);
        assert_eq!(page.events.len(), 1);
        assert_eq!(page.events[0].source, Source::Iam);
        assert_eq!(page.events[0].sid.as_deref(), Some(sid.as_str()));
        assert_eq!(store.read().ends.len(), 0);
    }

    #[test]
    fn the_edge_lookup_shares_the_session_and_a_change_copies_it() {
        let store = SessionStore::default();
        let (handle, sid) = store.create(person("a"), tokens(), None);
        let first = store.shared_by_handle(&handle).expect("live");
        let again = store.shared_by_handle(&handle).expect("live");
        assert!(
            Arc::ptr_eq(&first, &again),
            "a pointer per request, not a copy"
        );
        // A request still holding the session keeps what it read; the store moves on.
        let header = base64::Engine::encode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            br#"{"alg":"ES256","typ":"JWT","kid":"key-1"}"#,
        );
        let shared = store.cache_identity(&sid, format!("{header}.e30.sig"), 99);
        assert!(first.cached_identity.is_none());
        let now = store.shared_by_handle(&handle).expect("live");
        assert_eq!(now.cached_identity.as_ref().map(|(_, exp)| *exp), Some(99));
        assert_eq!(now.cached_identity_kid.as_deref(), Some("key-1"));
        let (cached, _) = now.cached_identity.as_ref().expect("cached");
        assert_eq!(
            cached.as_bytes().as_ptr(),
            shared.expect("a header value").as_bytes().as_ptr(),
            "the header value shares the cached bytes"
        );
        store.cache_identity(&sid, "not a token".into(), 100);
        let now = store.shared_by_handle(&handle).expect("live");
        assert_eq!(
            now.cached_identity_kid, None,
            "no kid: re-signed on next use"
        );
    }

    #[test]
    fn past_its_size_the_store_ends_the_oldest_session() {
        let store = SessionStore::with_max(2);
        let (first_handle, first) = store.create(person("a"), tokens(), None);
        // created_at has one-second resolution: make the first visibly older.
        Arc::make_mut(store.write().sessions.get_mut(&first).expect("alive")).created_at -= 10;
        let (_, second) = store.create(person("b"), tokens(), None);
        let (_, third) = store.create(person("c"), tokens(), None);
        assert!(!store.is_alive(&first) && store.by_handle(&first_handle).is_none());
        assert!(store.is_alive(&second) && store.is_alive(&third));
        assert_eq!(store.read().handles.len(), 2);
        assert_eq!(
            store.read().ends.len(),
            2,
            "the evicted one's signal went with it"
        );
    }
}
