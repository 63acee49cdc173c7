//! The ID token the edge receives from the IAM's token endpoint, checked as OIDC Core §3.1.3.7
//! asks of a relying party: signature by the IAM's keys, issuer, audience, expiry and the
//! nonce of this sign-in.

use serde::Deserialize;

use crate::config::{Person, Profile};
use crate::identity::jws::{self, JwsError};
use crate::identity::{PublicKey, unix_now};
use crate::oidc::EDGE_CLIENT_ID;

/// Why the edge refuses the ID token of a sign-in (OIDC Core §3.1.3.7).
#[derive(Debug, thiserror::Error)]
pub enum IdTokenError {
    #[error("the token response has no id_token")]
    Missing,
    #[error(transparent)]
    Jws(#[from] JwsError),
    #[error("iss {got:?} is not {expected:?}")]
    Issuer { got: String, expected: String },
    #[error("aud does not include {EDGE_CLIENT_ID:?}")]
    Audience,
    #[error("it has expired")]
    Expired,
    #[error("its nonce is not this sign-in's")]
    Nonce,
}

#[derive(Deserialize)]
pub struct IdTokenClaims {
    iss: String,
    aud: serde_json::Value,
    exp: u64,
    #[serde(default)]
    nonce: Option<String>,
    pub sub: String,
    /// The IAM's SSO session (OIDC Front-Channel Logout §3, Keycloak's `sid`).
    #[serde(default)]
    pub sid: Option<String>,
    #[serde(flatten)]
    profile: Profile,
    #[serde(default)]
    groups: Vec<String>,
}

impl IdTokenClaims {
    /// Checks `token` and returns its claims, or why it is refused.
    pub fn verify(
        token: &str,
        iam_keys: &[PublicKey],
        issuer: &str,
        nonce: &str,
    ) -> Result<Self, IdTokenError> {
        let (_, claims): (_, Self) = jws::verify(token, iam_keys, None)?;
        if claims.iss != issuer {
            return Err(IdTokenError::Issuer {
                got: claims.iss,
                expected: issuer.to_string(),
            });
        }
        let for_edge = match &claims.aud {
            serde_json::Value::String(aud) => aud == EDGE_CLIENT_ID,
            serde_json::Value::Array(auds) => auds.iter().any(|a| a == EDGE_CLIENT_ID),
            _ => false,
        };
        if !for_edge {
            return Err(IdTokenError::Audience);
        }
        if claims.exp <= unix_now() {
            return Err(IdTokenError::Expired);
        }
        if claims.nonce.as_deref() != Some(nonce) {
            return Err(IdTokenError::Nonce);
        }
        Ok(claims)
    }

    /// The person as the platform knows them: the configured person with this `sub` (with
    /// their groups and attributes), else one made of the token's claims (a custom person
    /// typed at the sign-in page).
    pub fn person(&self, people: &[Person]) -> Person {
        if let Some(person) = people.iter().find(|p| p.sub == self.sub) {
            return person.clone();
        }
        Person {
            sub: self.sub.clone(),
            profile: self.profile.clone(),
            groups: self.groups.clone(),
            attributes: Default::default(),
        }
    }
}
