//! The IAM's own single sign-on: a session per sign-in, remembered by the browser in the
//! `KEYCLOAK_IDENTITY` cookie (distinct from the edge's), and the refresh tokens born of it.
//!
//! While an SSO session lasts, a new authorization request completes without the page
//! (runtime-protocol: "signing in again does not ask for a password while it lasts").

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use axum::http::HeaderMap;
use axum::http::header::COOKIE;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;

use crate::config::Person;

/// Keycloak's SSO cookie name.
pub(super) const SSO_COOKIE: &str = "KEYCLOAK_IDENTITY";
/// SSO sessions kept at once; past this many, the one that started first ends.
const MAX_SESSIONS: usize = 50_000;

/// 256 random bits, base64url: codes, cookie values, refresh tokens, request ids.
pub(super) fn random_token() -> String {
    let bytes: [u8; 32] = rand::random();
    B64.encode(bytes)
}

/// One sign-in of one person.
#[derive(Clone, Debug)]
pub(super) struct SsoSession {
    /// The `sid` of every token minted in it, and `session_state`.
    pub id: String,
    pub person: Person,
    /// When the person last authenticated (OIDC Core `auth_time`).
    pub auth_time: u64,
    pub expires_at: u64,
    /// Proves a sign-out without an `id_token_hint` came from the IAM's own pages (the account
    /// page, the confirmation page), not from another site's link or form.
    pub logout_code: String,
}

/// What a refresh token may be exchanged for.
#[derive(Clone, Debug)]
pub(super) struct RefreshGrant {
    pub client_id: String,
    pub sso_session: String,
    /// An offline token (scope `offline_access`, OIDC Core §11): the session as it was when
    /// granted, so the token keeps working after the SSO session ends (sign-out, expiry), as
    /// Keycloak's offline tokens do. Only ending the person's sign-in from the test-control API
    /// (or removing them) and `reset` revoke it.
    pub offline: Option<SsoSession>,
}

#[derive(Default)]
struct Store {
    sessions: HashMap<String, SsoSession>,
    /// Cookie value → session id: the cookie never carries the `sid` the tokens show.
    cookies: HashMap<String, String>,
    refresh_tokens: HashMap<String, RefreshGrant>,
}

impl Store {
    fn remove_session(&mut self, id: &str) -> bool {
        self.cookies.retain(|_, session| session != id);
        self.refresh_tokens
            .retain(|_, grant| grant.sso_session != id || grant.offline.is_some());
        self.sessions.remove(id).is_some()
    }

    fn purge_expired(&mut self, now: u64) {
        let expired: Vec<String> = self
            .sessions
            .values()
            .filter(|s| s.expires_at <= now)
            .map(|s| s.id.clone())
            .collect();
        for id in expired {
            self.remove_session(&id);
        }
    }

    fn live(&self, id: &str, now: u64) -> Option<&SsoSession> {
        self.sessions.get(id).filter(|s| s.expires_at > now)
    }
}

#[derive(Default)]
pub(super) struct SsoStore {
    store: Mutex<Store>,
}

impl SsoStore {
    fn lock(&self) -> MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts a session for `person`; returns the cookie value and the session.
    pub(super) fn start(&self, person: Person, now: u64, lifetime: u64) -> (String, SsoSession) {
        let session = SsoSession {
            id: uuid::Uuid::new_v4().to_string(),
            person,
            auth_time: now,
            expires_at: now + lifetime,
            logout_code: random_token(),
        };
        let cookie = random_token();
        let mut store = self.lock();
        store.purge_expired(now);
        if let Some(oldest) =
            crate::bounded::evictable(&store.sessions, MAX_SESSIONS, |s| s.auth_time)
        {
            store.remove_session(&oldest);
        }
        store.sessions.insert(session.id.clone(), session.clone());
        store.cookies.insert(cookie.clone(), session.id.clone());
        (cookie, session)
    }

    /// The live session the browser's cookie names.
    pub(super) fn by_cookie(&self, headers: &HeaderMap, now: u64) -> Option<SsoSession> {
        let value = cookie_value(headers, SSO_COOKIE)?;
        let store = self.lock();
        let id = store.cookies.get(value)?;
        store.live(id, now).cloned()
    }

    pub(super) fn get(&self, id: &str, now: u64) -> Option<SsoSession> {
        self.lock().live(id, now).cloned()
    }

    /// The person authenticated again in the same session (`prompt=login`, "Continue as").
    pub(super) fn reauthenticated(&self, id: &str, now: u64) -> Option<SsoSession> {
        let mut store = self.lock();
        let session = store.sessions.get_mut(id).filter(|s| s.expires_at > now)?;
        session.auth_time = now;
        Some(session.clone())
    }

    /// Ends a session, its cookie and its refresh tokens; returns whether it was live.
    pub(super) fn end(&self, id: &str) -> bool {
        self.lock().remove_session(id)
    }

    pub(super) fn session_ids_of(&self, sub: &str) -> Vec<String> {
        self.lock()
            .sessions
            .values()
            .filter(|s| s.person.sub == sub)
            .map(|s| s.id.clone())
            .collect()
    }

    pub(super) fn all_session_ids(&self) -> Vec<String> {
        self.lock().sessions.keys().cloned().collect()
    }

    pub(super) fn issue_refresh_token(&self, grant: RefreshGrant) -> String {
        let token = random_token();
        self.lock().refresh_tokens.insert(token.clone(), grant);
        token
    }

    /// The grant and live session of a refresh token; `None` when unknown, revoked or its
    /// session has ended. An offline token's session is the one it was granted in, live or not.
    pub(super) fn refresh(&self, token: &str, now: u64) -> Option<(RefreshGrant, SsoSession)> {
        let store = self.lock();
        let grant = store.refresh_tokens.get(token)?;
        let session = match store.live(&grant.sso_session, now) {
            Some(session) => session.clone(),
            None => grant.offline.clone()?,
        };
        Some((grant.clone(), session))
    }

    /// Revokes the offline tokens of `sub` (every one's when `None`); returns how many.
    pub(super) fn revoke_offline(&self, sub: Option<&str>) -> usize {
        let mut store = self.lock();
        let before = store.refresh_tokens.len();
        store.refresh_tokens.retain(|_, grant| {
            grant
                .offline
                .as_ref()
                .is_none_or(|s| sub.is_some_and(|sub| s.person.sub != sub))
        });
        before - store.refresh_tokens.len()
    }

    pub(super) fn revoke_refresh_token(&self, token: &str) {
        self.lock().refresh_tokens.remove(token);
    }
}

/// The value of cookie `name` among the request's `Cookie` headers (RFC 6265 §5.4). Split as
/// bytes: another cookie's UTF-8 value (cookies ignore ports, so the app's reach the IAM) must
/// not hide this one, and `HeaderValue::to_str` refuses every byte >= 0x80.
fn cookie_value<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(COOKIE)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b';'))
        .filter_map(|pair| {
            let mut parts = pair.trim_ascii().splitn(2, |&b| b == b'=');
            Some((parts.next()?, parts.next()?))
        })
        .find(|(n, _)| *n == name.as_bytes())
        .and_then(|(_, v)| std::str::from_utf8(v).ok())
        .map(|v| v.trim_matches('"'))
}

/// `Set-Cookie` for the SSO cookie: HttpOnly, SameSite=Lax (it must ride the top-level
/// navigation back from the edge), scoped to the realm's path.
pub(super) fn set_cookie(slug: &str, value: &str, max_age_secs: u64) -> String {
    format!(
        "{SSO_COOKIE}={value}; Path=/realms/{slug}/; Max-Age={max_age_secs}; HttpOnly; SameSite=Lax"
    )
}

pub(super) fn clear_cookie(slug: &str) -> String {
    format!("{SSO_COOKIE}=; Path=/realms/{slug}/; Max-Age=0; HttpOnly; SameSite=Lax")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(sub: &str) -> Person {
        Person {
            sub: sub.into(),
            profile: Default::default(),
            groups: vec![],
            attributes: Default::default(),
        }
    }

    #[test]
    fn sessions_expire_and_take_their_refresh_tokens_with_them() {
        let store = SsoStore::default();
        let (_, session) = store.start(person("a"), 1000, 3600);
        let token = store.issue_refresh_token(RefreshGrant {
            client_id: "c".into(),
            sso_session: session.id.clone(),
            offline: None,
        });
        assert!(store.refresh(&token, 1001).is_some());
        assert!(store.refresh(&token, 1000 + 3600).is_none());
        assert!(store.get(&session.id, 4599).is_some());
        assert!(store.end(&session.id));
        assert!(store.refresh(&token, 1001).is_none());
        assert!(!store.end(&session.id));
    }

    #[test]
    fn an_offline_token_outlives_its_session_until_revoked() {
        let store = SsoStore::default();
        let (_, session) = store.start(person("a"), 1000, 3600);
        let offline = store.issue_refresh_token(RefreshGrant {
            client_id: "c".into(),
            sso_session: session.id.clone(),
            offline: Some(session.clone()),
        });
        assert!(store.end(&session.id));
        let (_, of) = store.refresh(&offline, 9999).expect("still refreshes");
        assert_eq!(of.person.sub, "a");
        assert_eq!(store.revoke_offline(Some("b")), 0);
        assert_eq!(store.revoke_offline(Some("a")), 1);
        assert!(store.refresh(&offline, 9999).is_none());
    }

    #[test]
    fn the_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, "a=1; KEYCLOAK_IDENTITY=xyz; b=2".parse().unwrap());
        assert_eq!(cookie_value(&headers, SSO_COOKIE), Some("xyz"));
        assert_eq!(cookie_value(&headers, "c"), None);
        headers.insert(
            COOKIE,
            axum::http::HeaderValue::from_bytes(b"n=Andr\xc3\xa9; KEYCLOAK_IDENTITY=xyz").unwrap(),
        );
        assert_eq!(cookie_value(&headers, SSO_COOKIE), Some("xyz"));
    }
}
