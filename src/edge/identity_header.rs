//! The `X-NNumbers-Identity` a signed-in person's request carries to the app.
//!
//! Its times are the platform clock's (the session store's), so moving the clock moves them.
//! Signing is not per request: each session keeps its last identity and reuses it while more
//! than [`RESIGN_MARGIN_SECS`] of its 5 minutes remain and its key is still the current one.

use axum::http::HeaderValue;

use crate::identity::IdentityIssuer;
use crate::platform::{PlatformSession, SessionStore};

/// Below this much remaining validity, a new identity is signed: the app and the broker then
/// always receive one with at least a minute left.
pub const RESIGN_MARGIN_SECS: u64 = 60;

/// The identity for `session`: the cached one when still good, else a freshly signed one,
/// which becomes the cache (in `sessions`) and the latest identity the console shows
/// ([`SessionStore::latest_identity`]): recorded only when one is signed, never per request.
/// The value shares the cache's bytes: a reference count per request, not a copy. `None` only
/// if the token could not be a header value (then the request goes on without one).
pub fn identity_header_for(
    issuer: &IdentityIssuer,
    sessions: &SessionStore,
    session: &PlatformSession,
) -> Option<HeaderValue> {
    let now = sessions.clock().now();
    // The kid was read from the token when it was cached: after a key rotation it is
    // re-signed, and no request decodes it again.
    if let Some((token, exp)) = &session.cached_identity
        && *exp > now + RESIGN_MARGIN_SECS
        && let Some(kid) = &session.cached_identity_kid
        && issuer.keys.is_current(kid)
    {
        return Some(token.clone());
    }
    let (token, claims) = issuer.mint_at(&session.person, &session.sid, now);
    sessions.cache_identity(&session.sid, token, claims.exp)
}

/// [`identity_header_for`] as text, for the test-control API and tests (empty in the case
/// that cannot happen: a compact JWS is always a valid header value).
pub fn identity_for(
    issuer: &IdentityIssuer,
    sessions: &SessionStore,
    session: &PlatformSession,
) -> String {
    identity_header_for(issuer, sessions, session)
        .and_then(|header| header.to_str().ok().map(str::to_string))
        .unwrap_or_default()
}
