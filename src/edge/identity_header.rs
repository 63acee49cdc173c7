//! The `X-NNumbers-Identity` a signed-in person's request carries to the app.
//!
//! Its times are the platform clock's (the session store's), so moving the clock moves them.
//! Signing is not per request: each session keeps its last identity and reuses it while more
//! than [`RESIGN_MARGIN_SECS`] of its 5 minutes remain and its key is still the current one.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;

use crate::identity::IdentityIssuer;
use crate::identity::jws::Header;
use crate::platform::{PlatformSession, SessionStore};

/// Below this much remaining validity, a new identity is signed: the app and the broker then
/// always receive one with at least a minute left.
pub const RESIGN_MARGIN_SECS: u64 = 60;

/// The identity for `session`: the cached one when still good, else a freshly signed one,
/// which becomes the cache (in `sessions`) and the latest identity the console shows
/// ([`SessionStore::latest_identity`]): recorded only when one is signed, never per request.
pub fn identity_for(
    issuer: &IdentityIssuer,
    sessions: &SessionStore,
    session: &PlatformSession,
) -> String {
    let current_kid = issuer.keys.current().kid().to_string();
    let now = sessions.clock().now();
    if let Some((token, exp)) = &session.cached_identity
        && *exp > now + RESIGN_MARGIN_SECS
        && kid_of(token).as_deref() == Some(current_kid.as_str())
    {
        return token.clone();
    }
    let (token, claims) = issuer.mint_at(&session.person, &session.sid, now);
    sessions.cache_identity(&session.sid, token.clone(), claims.exp);
    token
}

/// The `kid` a compact JWS names; after a key rotation the cached identity is re-signed.
fn kid_of(token: &str) -> Option<String> {
    let header = token.split('.').next()?;
    let header: Header = serde_json::from_slice(&B64.decode(header).ok()?).ok()?;
    header.kid
}
