//! The identity the edge hands an app: its claims, how it is minted, and how it is checked
//! (runtime-protocol, "The Identity of Who Signed In").

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use super::jws::{self, JwsError};
use super::keys::{KeyPair, KeyRing, PublicKey};
use crate::config::{Config, Person, Profile};

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
    #[serde(flatten)]
    pub profile: Profile,
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
        self.claims_at(person, sid, unix_now())
    }

    /// [`Self::claims`] valid from `now` (the platform clock's unix seconds).
    pub fn claims_at(&self, person: &Person, sid: &str, now: u64) -> IdentityClaims {
        IdentityClaims {
            iss: self.audience.issuer.clone(),
            aud: self.audience.app_id.clone(),
            jti: uuid::Uuid::new_v4().to_string(),
            sub: person.sub.clone(),
            org: self.audience.org_id.clone(),
            org_slug: self.audience.org_slug.clone(),
            iam: self.iam_issuer.clone(),
            sid: sid.to_string(),
            profile: person.profile.published(),
            iat: now,
            nbf: now,
            exp: now + IDENTITY_LIFETIME_SECS,
        }
    }

    pub fn sign(&self, claims: &IdentityClaims) -> String {
        sign_identity(&self.keys.current(), claims)
    }

    pub fn mint(&self, person: &Person, sid: &str) -> (String, IdentityClaims) {
        self.mint_at(person, sid, unix_now())
    }

    /// [`Self::mint`] valid from `now` (the platform clock's unix seconds).
    pub fn mint_at(&self, person: &Person, sid: &str, now: u64) -> (String, IdentityClaims) {
        let claims = self.claims_at(person, sid, now);
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
    #[error("nbf {nbf} is not from iat {iat} to before exp {exp}")]
    Window { iat: u64, nbf: u64, exp: u64 },
    #[error("valid for {0} s, beyond the {IDENTITY_LIFETIME_SECS} s an identity lasts")]
    Lifetime(u64),
}

/// The spec's five checks, exactly as it tells an app to make them, and its lifetime: "exp is
/// 5 minutes after iat". The platform mints `nbf = iat`, `exp = iat + 300`; a window that
/// starts before its issue, ends before it starts, or lasts longer is refused, so a leaked
/// signing key cannot mint an identity that outlives the 5 minutes.
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
    check_validity(claims.iat, claims.nbf, claims.exp, now)?;
    Ok(claims)
}

/// The validity claims at `now`: a window of the identity's lifetime, and `now` in it with
/// the spec's tolerance.
pub fn check_validity(iat: u64, nbf: u64, exp: u64, now: u64) -> Result<(), IdentityError> {
    if nbf < iat || exp <= nbf {
        return Err(IdentityError::Window { iat, nbf, exp });
    }
    if exp - iat > IDENTITY_LIFETIME_SECS {
        return Err(IdentityError::Lifetime(exp - iat));
    }
    if nbf > now.saturating_add(CLOCK_TOLERANCE_SECS) {
        return Err(IdentityError::NotYetValid(nbf));
    }
    if exp.saturating_add(CLOCK_TOLERANCE_SECS) <= now {
        return Err(IdentityError::Expired(exp));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;
    use crate::test_support::proptest_config;

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
        assert_eq!(claims.profile.email, None);
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

    #[test]
    fn the_validity_window_is_the_five_minutes_after_iat() {
        let issuer = issuer();
        let person = Config::builtin().people[0].clone();
        let keys = issuer.keys.published();
        let base = issuer.claims(&person, "s");
        let now = base.iat;
        let check = |edit: &dyn Fn(&mut IdentityClaims)| {
            let mut claims = base.clone();
            edit(&mut claims);
            verify_identity(&issuer.sign(&claims), &keys, &issuer.audience, now)
        };
        assert!(check(&|_| {}).is_ok());
        assert!(check(&|c| c.exp = c.iat + 299).is_ok(), "shorter is fine");
        assert!(matches!(
            check(&|c| c.exp = c.iat + 301),
            Err(IdentityError::Lifetime(301))
        ));
        assert!(matches!(
            check(&|c| c.exp = u64::MAX),
            Err(IdentityError::Lifetime(_))
        ));
        // Back-dated: valid before it was issued, so longer than 5 minutes in effect.
        assert!(matches!(
            check(&|c| c.nbf = c.iat - 1),
            Err(IdentityError::Window { .. })
        ));
        assert!(matches!(
            check(&|c| c.nbf = c.exp),
            Err(IdentityError::Window { .. })
        ));
        // At the end of time, no overflow: just not valid yet.
        assert!(matches!(
            check(&|c| {
                c.iat = u64::MAX - 10;
                c.nbf = c.iat;
                c.exp = u64::MAX;
            }),
            Err(IdentityError::NotYetValid(_))
        ));
    }

    #[test]
    fn claims_of_the_wrong_json_type_are_refused() {
        let issuer = issuer();
        let person = Config::builtin().people[0].clone();
        let keys = issuer.keys.published();
        let claims = issuer.claims(&person, "s");
        let good = serde_json::to_value(&claims).unwrap();
        for (name, value) in [
            ("aud", json!([claims.aud])),
            ("sub", json!(null)),
            ("sid", json!(1)),
            ("iat", json!(claims.iat as f64 + 0.5)),
            ("exp", json!(claims.exp.to_string())),
            ("email_verified", json!("true")),
        ] {
            let mut payload = good.clone();
            payload[name] = value.clone();
            let token = jws::sign(&issuer.keys.current(), IDENTITY_TYP, &payload);
            assert!(
                matches!(
                    verify_identity(&token, &keys, &issuer.audience, claims.iat),
                    Err(IdentityError::Jws(JwsError::Payload(_)))
                ),
                "{name}: {value}"
            );
        }
    }

    /// A value for a claim: usually of its own type, sometimes any other.
    fn claim_value(name: &'static str) -> BoxedStrategy<Value> {
        let number = prop_oneof![
            any::<u64>().prop_map(Value::from),
            (1_700_000_000u64..1_700_001_000).prop_map(Value::from),
            Just(Value::from(u64::MAX)),
        ];
        let other = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "[a-z]{0,8}".prop_map(Value::String),
            Just(json!([])),
            Just(json!({})),
        ];
        match name {
            "iat" | "nbf" | "exp" => prop_oneof![4 => number, 1 => other].boxed(),
            _ => other.boxed(),
        }
    }

    proptest! {
        #![proptest_config(proptest_config(256))]

        /// Signed claims of any shape and any clock never panic, and nothing outside the
        /// window of the spec is ever accepted.
        #[test]
        fn verify_identity_accepts_only_the_window(
            (iat, nbf, exp, now) in prop_oneof![
                (claim_value("iat"), claim_value("nbf"), claim_value("exp"), any::<u64>()),
                // Near a valid identity: each instant a few minutes either way.
                (-400i64..400, -400i64..700, -500i64..500).prop_map(|(nbf, exp, now)| {
                    let t = 1_700_000_000i64;
                    (json!(t), json!(t + nbf), json!(t + exp), (t + now).unsigned_abs())
                }),
            ],
            replace in prop::sample::select(vec!["", "", "", "iss", "aud", "org", "sub", "sid"]),
            replacement in claim_value("other"),
        ) {
            let issuer = ISSUER.with(Clone::clone);
            let person = Config::builtin().people[0].clone();
            let mut payload = serde_json::to_value(issuer.claims(&person, "s")).unwrap();
            payload["iat"] = iat;
            payload["nbf"] = nbf;
            payload["exp"] = exp;
            if !replace.is_empty() {
                payload[replace] = replacement;
            }
            let token = jws::sign(&issuer.keys.current(), IDENTITY_TYP, &payload);
            let keys = issuer.keys.published();
            if let Ok(c) = verify_identity(&token, &keys, &issuer.audience, now) {
                prop_assert!(c.iat <= c.nbf && c.nbf < c.exp);
                prop_assert!(c.exp - c.iat <= IDENTITY_LIFETIME_SECS);
                prop_assert!(c.nbf <= now.saturating_add(CLOCK_TOLERANCE_SECS));
                prop_assert!(now < c.exp.saturating_add(CLOCK_TOLERANCE_SECS));
                prop_assert_eq!(&c.aud, &issuer.audience.app_id);
            }
        }
    }

    thread_local! {
        static ISSUER: IdentityIssuer = issuer();
    }
}
