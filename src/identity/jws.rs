//! Compact JWS (RFC 7515) with ES256 only: signing, and a verifier that never trusts the
//! header's choice of algorithm.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::keys::{KeyPair, PublicKey};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub alg: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typ: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kid: Option<String>,
}

impl Header {
    pub fn es256(typ: &str, kid: &str) -> Self {
        Self {
            alg: "ES256".into(),
            typ: Some(typ.into()),
            kid: Some(kid.into()),
        }
    }
}

/// Why a compact JWS was refused, before any claim is looked at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JwsError {
    #[error("not a compact JWS (three base64url parts)")]
    Malformed,
    #[error("algorithm {0:?} is not ES256")]
    Algorithm(String),
    #[error("typ {0:?} is not {1:?}")]
    Type(Option<String>, &'static str),
    #[error("no published key has kid {0:?}")]
    UnknownKey(Option<String>),
    #[error("the signature does not verify")]
    Signature,
    #[error("the payload is not the expected JSON: {0}")]
    Payload(String),
}

/// `base64url(header).base64url(payload)`, unsigned.
pub fn signing_input(header: &Header, claims: &impl Serialize) -> String {
    let header = serde_json::to_vec(header).unwrap_or_default();
    let payload = serde_json::to_vec(claims).unwrap_or_default();
    format!("{}.{}", B64.encode(header), B64.encode(payload))
}

pub fn sign(key: &KeyPair, typ: &str, claims: &impl Serialize) -> String {
    sign_with_header(key, &Header::es256(typ, key.kid()), claims)
}

pub fn sign_with_header(key: &KeyPair, header: &Header, claims: &impl Serialize) -> String {
    let input = signing_input(header, claims);
    let signature = key.sign(input.as_bytes());
    format!("{input}.{}", B64.encode(signature))
}

/// Checks structure, `alg` = ES256, `typ` when `expected_typ` is given, and the signature by
/// one of `keys` chosen by `kid`; returns the header and the decoded payload.
pub fn verify<T: DeserializeOwned>(
    token: &str,
    keys: &[PublicKey],
    expected_typ: Option<&'static str>,
) -> Result<(Header, T), JwsError> {
    let mut parts = token.split('.');
    let (Some(h), Some(p), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(JwsError::Malformed);
    };
    let header_bytes = B64.decode(h).map_err(|_| JwsError::Malformed)?;
    let header: Header = serde_json::from_slice(&header_bytes).map_err(|_| JwsError::Malformed)?;
    if header.alg != "ES256" {
        return Err(JwsError::Algorithm(header.alg));
    }
    if let Some(typ) = expected_typ
        && header.typ.as_deref() != Some(typ)
    {
        return Err(JwsError::Type(header.typ, typ));
    }
    let key = keys
        .iter()
        .find(|k| Some(&k.kid) == header.kid.as_ref())
        .ok_or_else(|| JwsError::UnknownKey(header.kid.clone()))?;
    let signature = B64.decode(s).map_err(|_| JwsError::Signature)?;
    let input_len = h.len() + 1 + p.len();
    if !key.verify(&token.as_bytes()[..input_len], &signature) {
        return Err(JwsError::Signature);
    }
    let payload = B64.decode(p).map_err(|_| JwsError::Malformed)?;
    let claims = serde_json::from_slice(&payload).map_err(|e| JwsError::Payload(e.to_string()))?;
    Ok((header, claims))
}
