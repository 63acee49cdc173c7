//! Deliberately broken identities, one per way an app must refuse them (`zero-sandbox token`).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;

use super::claims::{IDENTITY_LIFETIME_SECS, IDENTITY_TYP, IdentityClaims, sign_identity};
use super::jws::{self, Header};
use super::keys::{KeyPair, malleated};

/// Far enough past the 60 s tolerance that no clock skew makes the token valid.
const OUT_OF_WINDOW_SECS: u64 = 600;
/// [`Forgery::LongLived`]'s validity.
const LONG_LIFETIME_SECS: u64 = 3600;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forgery {
    Expired,
    NotYetValid,
    Audience(String),
    Organization(String),
    Issuer(String),
    UnknownKid,
    BadSignature,
    AlgNone,
    /// Valid for an hour, not the 5 minutes an identity lasts.
    LongLived,
    /// A `crit` header naming an extension no verifier here understands (RFC 7515 §4.1.11).
    Critical,
    /// The high-S twin of the real signature: valid ECDSA, refused as not canonical.
    HighS,
}

/// Applies every forgery to otherwise valid `claims`, signing with `key` unless a forgery
/// says otherwise.
pub fn forge(key: &KeyPair, mut claims: IdentityClaims, forgeries: &[Forgery]) -> String {
    for forgery in forgeries {
        match forgery {
            Forgery::Expired => {
                claims.iat -= OUT_OF_WINDOW_SECS + IDENTITY_LIFETIME_SECS;
                claims.nbf = claims.iat;
                claims.exp = claims.iat + IDENTITY_LIFETIME_SECS;
            }
            Forgery::NotYetValid => {
                claims.iat += OUT_OF_WINDOW_SECS;
                claims.nbf = claims.iat;
                claims.exp = claims.iat + IDENTITY_LIFETIME_SECS;
            }
            Forgery::Audience(aud) => claims.aud = aud.clone(),
            Forgery::Organization(org) => claims.org = org.clone(),
            Forgery::Issuer(iss) => claims.iss = iss.clone(),
            Forgery::LongLived => claims.exp = claims.iat + LONG_LIFETIME_SECS,
            Forgery::UnknownKid
            | Forgery::BadSignature
            | Forgery::AlgNone
            | Forgery::Critical
            | Forgery::HighS => {}
        }
    }
    let signer = if forgeries.contains(&Forgery::UnknownKid) {
        // A real ES256 signature by a key that is published nowhere.
        KeyPair::generate()
    } else {
        key.clone()
    };
    let mut token = if forgeries.contains(&Forgery::Critical) {
        let header = Header {
            crit: Some(serde_json::json!(["exp"])),
            ..Header::es256(IDENTITY_TYP, signer.kid())
        };
        jws::sign_with_header(&signer, &header, &claims)
    } else {
        sign_identity(&signer, &claims)
    };
    if forgeries.contains(&Forgery::HighS) {
        token = malleate_signature(&token);
    }
    if forgeries.contains(&Forgery::BadSignature) {
        token = corrupt_signature(&token);
    }
    if forgeries.contains(&Forgery::AlgNone) {
        let header = Header {
            alg: "none".into(),
            ..Header::es256(IDENTITY_TYP, key.kid())
        };
        token = format!("{}.", jws::signing_input(&header, &claims));
    }
    token
}

/// Replaces the signature by its high-S twin.
fn malleate_signature(token: &str) -> String {
    let Some((input, signature)) = token.rsplit_once('.') else {
        return token.to_string();
    };
    let bytes = B64.decode(signature).unwrap_or_default();
    match malleated(&bytes) {
        Some(twin) => format!("{input}.{}", B64.encode(twin)),
        None => token.to_string(),
    }
}

/// Flips one bit of the signature: still 64 well-formed bytes, no longer valid.
fn corrupt_signature(token: &str) -> String {
    let Some((input, signature)) = token.rsplit_once('.') else {
        return token.to_string();
    };
    let mut bytes = B64.decode(signature).unwrap_or_default();
    if let Some(b) = bytes.get_mut(10) {
        *b ^= 0x01;
    }
    format!("{input}.{}", B64.encode(bytes))
}
