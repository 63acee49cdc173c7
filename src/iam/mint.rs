//! The IAM's tokens: access and ID tokens as ES256 JWTs signed with the IAM's own key (never
//! the identity key), and the check userinfo makes of an access token.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::IamParts;
use super::sso::SsoSession;
use crate::config::{Person, Profile};
use crate::identity::{KeyPair, jws};
use crate::oidc::{
    EDGE_CLIENT_ID, LOGIN_SCOPES, OFFLINE_SCOPE, QUERYMESH_AUDIENCE, QUERYMESH_SCOPE,
};
use crate::platform::Switch;

/// Access (and ID) tokens live 5 minutes; refresh tokens keep the platform session alive.
pub(super) const ACCESS_TOKEN_LIFETIME_SECS: u64 = 300;
/// The JOSE `typ` Keycloak puts on its tokens.
const JWT_TYP: &str = "JWT";
/// Keycloak's `typ` claims.
pub(super) const ACCESS_TYP: &str = "Bearer";
pub(super) const ID_TYP: &str = "ID";

/// The claims about the person, each only when the person has it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct PersonClaims {
    #[serde(flatten)]
    pub profile: Profile,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
}

impl PersonClaims {
    pub(super) fn of(person: &Person) -> Self {
        Self {
            profile: person.profile.published(),
            groups: person.groups.clone(),
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct AccessClaims {
    pub iss: String,
    pub sub: String,
    pub aud: Vec<String>,
    pub azp: String,
    pub exp: u64,
    pub iat: u64,
    pub jti: String,
    pub typ: String,
    pub sid: String,
    pub session_state: String,
    pub scope: String,
    #[serde(flatten)]
    pub person: PersonClaims,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct IdClaims {
    pub iss: String,
    pub sub: String,
    pub aud: String,
    pub azp: String,
    pub exp: u64,
    pub iat: u64,
    pub auth_time: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<String>,
    pub jti: String,
    pub typ: String,
    pub sid: String,
    pub session_state: String,
    /// OIDC Core §3.3.2.11: the left half of SHA-256 of the access token.
    pub at_hash: String,
    #[serde(flatten)]
    pub person: PersonClaims,
}

/// What one token response carries besides the refresh token.
pub(super) struct Minted {
    pub access_token: String,
    pub id_token: String,
    pub scope: String,
}

/// The scope granted now: the login scopes, plus QueryMesh's while the realm has it (read at
/// every issue, so flipping the switch takes effect on the next token).
fn granted(iam: &IamParts) -> (String, Vec<String>) {
    if iam.switches.get(Switch::QueryMeshScope) {
        (
            format!("{LOGIN_SCOPES} {QUERYMESH_SCOPE}"),
            vec![QUERYMESH_AUDIENCE.to_string(), EDGE_CLIENT_ID.to_string()],
        )
    } else {
        (LOGIN_SCOPES.to_string(), vec![EDGE_CLIENT_ID.to_string()])
    }
}

/// Mints an access token and an ID token for `session`; `offline`: the refresh token beside
/// them is an offline one, and the scope says `offline_access`.
pub(super) fn mint(
    iam: &IamParts,
    session: &SsoSession,
    nonce: Option<String>,
    offline: bool,
    now: u64,
) -> Minted {
    let issuer = iam.realm_url.clone();
    let person = PersonClaims::of(&session.person);
    let (mut scope, aud) = granted(iam);
    if offline {
        scope = format!("{scope} {OFFLINE_SCOPE}");
    }
    let key = iam.keys.current();
    let access = AccessClaims {
        iss: issuer.clone(),
        sub: session.person.sub.clone(),
        aud,
        azp: EDGE_CLIENT_ID.to_string(),
        exp: now + ACCESS_TOKEN_LIFETIME_SECS,
        iat: now,
        jti: uuid::Uuid::new_v4().to_string(),
        typ: ACCESS_TYP.to_string(),
        sid: session.id.clone(),
        session_state: session.id.clone(),
        scope: scope.clone(),
        person: person.clone(),
    };
    let access_token = jws::sign(&key, JWT_TYP, &access);
    let id = IdClaims {
        iss: issuer,
        sub: session.person.sub.clone(),
        aud: EDGE_CLIENT_ID.to_string(),
        azp: EDGE_CLIENT_ID.to_string(),
        exp: now + ACCESS_TOKEN_LIFETIME_SECS,
        iat: now,
        auth_time: session.auth_time,
        nonce,
        jti: uuid::Uuid::new_v4().to_string(),
        typ: ID_TYP.to_string(),
        sid: session.id.clone(),
        session_state: session.id.clone(),
        at_hash: at_hash(&access_token),
        person,
    };
    Minted {
        id_token: jws::sign(&key, JWT_TYP, &id),
        access_token,
        scope,
    }
}

/// How long a token from [`querymesh_access_token`] lives: a working session at a Trino
/// client's prompt, where the IAM's own 5 minutes would mean signing in again and again.
pub const DIRECT_QUERYMESH_TOKEN_LIFETIME_SECS: u64 = 3600;

/// An access token for QueryMesh as the IAM issues it after `person` signs in, signed with
/// the IAM's `key`, for Trino clients pointed straight at the QueryMesh port (`zero-sandbox
/// token --querymesh`). It names an SSO session of its own that the IAM does not know, so
/// it cannot be refreshed or used at userinfo: only QueryMesh, which checks the JWT alone.
pub fn querymesh_access_token(key: &KeyPair, realm_url: &str, person: &Person, now: u64) -> String {
    let session = uuid::Uuid::new_v4().to_string();
    let claims = AccessClaims {
        iss: realm_url.to_string(),
        sub: person.sub.clone(),
        aud: vec![QUERYMESH_AUDIENCE.to_string(), EDGE_CLIENT_ID.to_string()],
        azp: EDGE_CLIENT_ID.to_string(),
        exp: now + DIRECT_QUERYMESH_TOKEN_LIFETIME_SECS,
        iat: now,
        jti: uuid::Uuid::new_v4().to_string(),
        typ: ACCESS_TYP.to_string(),
        sid: session.clone(),
        session_state: session,
        scope: format!("{LOGIN_SCOPES} {QUERYMESH_SCOPE}"),
        person: PersonClaims::of(person),
    };
    jws::sign(key, JWT_TYP, &claims)
}

fn at_hash(access_token: &str) -> String {
    let digest = Sha256::digest(access_token.as_bytes());
    B64.encode(&digest[..16])
}

/// Checks a token this realm signed: signature by a published IAM key, issuer, `typ` claim,
/// and (when `check_expiry`) not expired. Returns its claims.
pub(super) fn verify<T: for<'de> Deserialize<'de> + HasIssuer>(
    iam: &IamParts,
    token: &str,
    expected_typ: &str,
    now: u64,
    check_expiry: bool,
) -> Result<T, String> {
    let (_, claims): (_, T) =
        jws::verify(token, &iam.keys.published(), Some(JWT_TYP)).map_err(|e| e.to_string())?;
    if claims.issuer() != iam.realm_url {
        return Err("the token was issued by another realm".into());
    }
    if claims.typ() != expected_typ {
        return Err(format!("the token is not a {expected_typ} token"));
    }
    if check_expiry && claims.exp() <= now {
        return Err("the token has expired".into());
    }
    Ok(claims)
}

/// What [`verify`] reads from any of the realm's tokens.
pub(super) trait HasIssuer {
    fn issuer(&self) -> &str;
    fn typ(&self) -> &str;
    fn exp(&self) -> u64;
}

impl HasIssuer for AccessClaims {
    fn issuer(&self) -> &str {
        &self.iss
    }
    fn typ(&self) -> &str {
        &self.typ
    }
    fn exp(&self) -> u64 {
        self.exp
    }
}

impl HasIssuer for IdClaims {
    fn issuer(&self) -> &str {
        &self.iss
    }
    fn typ(&self) -> &str {
        &self.typ
    }
    fn exp(&self) -> u64 {
        self.exp
    }
}
