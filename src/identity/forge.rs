//! Deliberately broken identities, one per way an app must refuse them (`zero-sandbox token`).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;

use super::claims::{IDENTITY_LIFETIME_SECS, IDENTITY_TYP, IdentityClaims, sign_identity};
use super::jws::{self, Header};
use super::keys::KeyPair;

/// Far enough past the 60 s tolerance that no clock skew makes the token valid.
const OUT_OF_WINDOW_SECS: u64 = 600;

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
            Forgery::UnknownKid | Forgery::BadSignature | Forgery::AlgNone => {}
        }
    }
    let mut token = if forgeries.contains(&Forgery::UnknownKid) {
        // A real ES256 signature by a key that is published nowhere.
        sign_identity(&KeyPair::generate(), &claims)
    } else {
        sign_identity(key, &claims)
    };
    if forgeries.contains(&Forgery::BadSignature) {
        token = corrupt_signature(&token);
    }
    if forgeries.contains(&Forgery::AlgNone) {
        let header = Header {
            alg: "none".into(),
            typ: Some(IDENTITY_TYP.into()),
            kid: Some(key.kid().into()),
        };
        token = format!("{}.", jws::signing_input(&header, &claims));
    }
    token
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
