//! The identity the edge hands an app: its claims, how it is minted, and how it is checked
//! (runtime-protocol, "The Identity of Who Signed In").

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::jws::{self, JwsError};
use super::keys::{KeyPair, KeyRing, PublicKey};
use crate::config::{Config, Person};

/// The JOSE `typ` of an identity.
pub const IDENTITY_TYP: &str = "nn-identity+jwt";
/// The header that carries it to the app.
pub const IDENTITY_HEADER: &str = "x-nnumbers-identity";
/// An identity is valid for 5 minutes.
pub const IDENTITY_LIFETIME_SECS: u64 = 300;
/// The clock tolerance the spec allows on nbf and exp.
pub const CLOCK_TOLERANCE_SECS: u64 = 60;

/// The claims, in the spec's order; the optional ones appear only when the person has them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IdentityClaims {
    pub iss: String,
    pub aud: String,
    pub jti: String,
    pub sub: String,
    pub org: String,
    pub org_slug: String,
    pub iam: String,
    pub sid: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email_verified: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_username: Option<String>,
    pub iat: u64,
    pub nbf: u64,
    pub exp: u64,
}

pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Who the identity says it comes from and is for; fixed by the configuration.
#[derive(Clone, Debug)]
pub struct Audience {
    pub issuer: String,
    pub app_id: String,
    pub org_id: String,
    pub org_slug: String,
}

impl Audience {
    pub fn from_config(config: &Config) -> Self {
        Self {
            issuer: config.identity.issuer.clone(),
            app_id: config.app.id.clone(),
            org_id: config.organization.id.clone(),
            org_slug: config.organization.slug.clone(),
        }
    }
}

/// Mints identities with the key ring's current key.
#[derive(Clone, Debug)]
pub struct IdentityIssuer {
    pub keys: KeyRing,
    pub audience: Audience,
    /// The organization IAM's issuer (the realm URL), the `iam` claim.
    pub iam_issuer: String,
}

impl IdentityIssuer {
    /// Fresh claims for `person` in platform session `sid`, valid from now.
    pub fn claims(&self, person: &Person, sid: &str) -> IdentityClaims {
        let now = unix_now();
        IdentityClaims {
            iss: self.audience.issuer.clone(),
            aud: self.audience.app_id.clone(),
            jti: uuid::Uuid::new_v4().to_string(),
            sub: person.sub.clone(),
            org: self.audience.org_id.clone(),
            org_slug: self.audience.org_slug.clone(),
            iam: self.iam_issuer.clone(),
            sid: sid.to_string(),
            name: person.name.clone(),
            email: person.email.clone(),
            email_verified: person.email.as_ref().and(person.email_verified),
            preferred_username: person.preferred_username.clone(),
            iat: now,
            nbf: now,
            exp: now + IDENTITY_LIFETIME_SECS,
        }
    }

    pub fn sign(&self, claims: &IdentityClaims) -> String {
        sign_identity(&self.keys.current(), claims)
    }

    pub fn mint(&self, person: &Person, sid: &str) -> (String, IdentityClaims) {
        let claims = self.claims(person, sid);
        (self.sign(&claims), claims)
    }
}

pub fn sign_identity(key: &KeyPair, claims: &IdentityClaims) -> String {
    jws::sign(key, IDENTITY_TYP, claims)
}

/// Why an identity does not check out; each is IDENTITY_ASSERTION_INVALID to the broker.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    #[error(transparent)]
    Jws(#[from] JwsError),
    #[error("iss {0:?} is not this platform's issuer")]
    Issuer(String),
    #[error("aud {0:?} is not this application")]
    Audience(String),
    #[error("org {0:?} is not this organization")]
    Organization(String),
    #[error("not valid before {0}")]
    NotYetValid(u64),
    #[error("expired at {0}")]
    Expired(u64),
}

/// The spec's five checks, exactly as it tells an app to make them.
pub fn verify_identity(
    token: &str,
    keys: &[PublicKey],
    audience: &Audience,
    now: u64,
) -> Result<IdentityClaims, IdentityError> {
    let (_, claims): (_, IdentityClaims) = jws::verify(token, keys, Some(IDENTITY_TYP))?;
    if claims.iss != audience.issuer {
        return Err(IdentityError::Issuer(claims.iss));
    }
    if claims.aud != audience.app_id {
        return Err(IdentityError::Audience(claims.aud));
    }
    if claims.org != audience.org_id {
        return Err(IdentityError::Organization(claims.org));
    }
    if claims.nbf > now + CLOCK_TOLERANCE_SECS {
        return Err(IdentityError::NotYetValid(claims.nbf));
    }
    if claims.exp + CLOCK_TOLERANCE_SECS <= now {
        return Err(IdentityError::Expired(claims.exp));
    }
    Ok(claims)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issuer() -> IdentityIssuer {
        let config = Config::builtin();
        IdentityIssuer {
            keys: KeyRing::ephemeral(),
            audience: Audience::from_config(&config),
            iam_issuer: "http://127.0.0.1:1/realms/acme".into(),
        }
    }

    #[test]
    fn minted_identity_verifies_and_omits_missing_claims() {
        let issuer = issuer();
        let config = Config::builtin();
        let grace = config.person("grace").unwrap();
        let (token, _) = issuer.mint(grace, "sid-1");
        let claims = verify_identity(
            &token,
            &issuer.keys.published(),
            &issuer.audience,
            unix_now(),
        )
        .unwrap();
        assert_eq!(claims.sub, grace.sub);
        assert_eq!(claims.exp, claims.iat + 300);
        assert_eq!(claims.email, None);
        let payload: serde_json::Value = serde_json::to_value(&claims).unwrap();
        assert!(payload.get("email").is_none() && payload.get("email_verified").is_none());
    }

    #[test]
    fn tolerance_is_sixty_seconds() {
        let issuer = issuer();
        let person = Config::builtin().people[0].clone();
        let (token, claims) = issuer.mint(&person, "s");
        let keys = issuer.keys.published();
        let at = |t| verify_identity(&token, &keys, &issuer.audience, t);
        assert!(at(claims.exp + 59).is_ok());
        assert!(matches!(
            at(claims.exp + 60),
            Err(IdentityError::Expired(_))
        ));
        assert!(at(claims.nbf - 60).is_ok());
        assert!(matches!(
            at(claims.nbf - 61),
            Err(IdentityError::NotYetValid(_))
        ));
    }
}
