//! The platform's identity: ES256 keys (persisted, rotatable, published as a JWKS), the
//! signed `X-NNumbers-Identity` and its checks, and the forgeries an app must refuse.

mod claims;
mod forge;
pub mod jws;
mod keys;

pub use claims::{
    Audience, CLOCK_TOLERANCE_SECS, IDENTITY_HEADER, IDENTITY_LIFETIME_SECS, IDENTITY_TYP,
    IdentityClaims, IdentityError, IdentityIssuer, check_validity, sign_identity, unix_now,
    verify_identity,
};
pub use forge::{Forgery, forge};
pub(crate) use keys::write_private;
pub use keys::{Jwk, Jwks, KeyError, KeyPair, KeyRing, KeySnapshot, PublicKey, PublishedKeys};

/// The identity key file in the state directory.
pub const IDENTITY_KEY_FILE: &str = "identity-keys.json";
/// The organization IAM's own signing key: never the identity key.
pub const IAM_KEY_FILE: &str = "iam-keys.json";
