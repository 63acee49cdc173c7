//! Identity verification (`identity::verify_identity`, what the broker and the demo app run on
//! every `X-NNumbers-Identity`) on arbitrary compact JWS and on structured mutations of a
//! valid one, with the signing key fixed here.
//!
//! The first byte picks the input's reading:
//! - 0: the rest is the token, as text;
//! - 1: a valid identity with a subset of the forgeries of `zero-sandbox token` applied;
//! - otherwise: header and claims written out member by member, mutated (a member set to an
//!   odd value, removed or repeated; `alg`, `typ`, `kid` varied; `crit` added; times moved),
//!   then signed as bytes, by this key or another, the encoding mutated.
//!
//! What must hold: no panic; an untouched identity is accepted; anything accepted passes a
//! reference check written here with p256 and serde_json directly — canonical unpadded
//! base64url, ES256 by the fixed key, low-S, `typ`, no `crit`, no repeated member, every claim
//! of the spec present and valid at the fixed `now` — and the claims returned are the signed
//! ones.

#![no_main]

use std::collections::HashSet;
use std::fmt;
use std::sync::LazyLock;

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD as B64};
use libfuzzer_sys::fuzz_target;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Value, json};
use zero_sandbox::Config;
use zero_sandbox::identity::{
    Audience, Forgery, IDENTITY_TYP, IdentityClaims, KeyPair, forge, jws, verify_identity,
};

/// The fixed clock of every check.
const NOW: u64 = 1_800_000_000;

struct Keys {
    signing: KeyPair,
    other: KeyPair,
    verifying: VerifyingKey,
    audience: Audience,
}

static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let secret = [7u8; 32];
    let signing = KeyPair::from_secret(&B64.encode(secret)).expect("a fixed P-256 scalar");
    let other = KeyPair::from_secret(&B64.encode([9u8; 32])).expect("another scalar");
    let verifying = *p256::ecdsa::SigningKey::from_slice(&secret)
        .expect("the same scalar")
        .verifying_key();
    Keys {
        signing,
        other,
        verifying,
        audience: Audience::from_config(&Config::builtin()),
    }
});

fn valid_claims() -> IdentityClaims {
    let audience = &KEYS.audience;
    IdentityClaims {
        iss: audience.issuer.clone(),
        aud: audience.app_id.clone(),
        jti: "00000000-0000-4000-8000-000000000000".into(),
        sub: "ada".into(),
        org: audience.org_id.clone(),
        org_slug: audience.org_slug.clone(),
        iam: "http://127.0.0.1:4002/realms/acme".into(),
        sid: "fuzz-session".into(),
        profile: Default::default(),
        iat: NOW,
        nbf: NOW,
        exp: NOW + 300,
    }
}

/// The input, read a byte at a time; zeros once it runs out.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }

    fn pick<'p, T>(&mut self, palette: &'p [T]) -> &'p T {
        &palette[usize::from(self.byte()) % palette.len()]
    }

    fn i64(&mut self) -> i64 {
        let mut bytes = [0u8; 8];
        for b in &mut bytes {
            *b = self.byte();
        }
        i64::from_le_bytes(bytes)
    }
}

const FORGERIES: [fn() -> Forgery; 11] = [
    || Forgery::Expired,
    || Forgery::NotYetValid,
    || Forgery::Audience("other-app".into()),
    || Forgery::Organization("other-org".into()),
    || Forgery::Issuer("https://evil.example".into()),
    || Forgery::UnknownKid,
    || Forgery::BadSignature,
    || Forgery::AlgNone,
    || Forgery::LongLived,
    || Forgery::Critical,
    || Forgery::HighS,
];

const CLAIM_NAMES: [&str; 16] = [
    "iss",
    "aud",
    "jti",
    "sub",
    "org",
    "org_slug",
    "iam",
    "sid",
    "iat",
    "nbf",
    "exp",
    "name",
    "email",
    "email_verified",
    "preferred_username",
    "x",
];

const ODD_VALUES: [&str; 17] = [
    "null",
    "true",
    "-1",
    "0",
    "1.5",
    "1e400",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "\"\"",
    "\"\\u0000\"",
    "{}",
    "[]",
    "{\"a\":1,\"a\":2}",
    "[{\"b\":[1,{\"c\":2,\"c\":3}]}]",
    "\"1800000000\"",
    "1800000000.0",
];

const ALGS: [&str; 10] = [
    "\"none\"",
    "\"HS256\"",
    "\"ES384\"",
    "\"es256\"",
    "\"ES256 \"",
    "\"RS256\"",
    "\"\"",
    "null",
    "256",
    "[\"ES256\"]",
];

/// A JSON object written member by member, so a member may be repeated.
type Members = Vec<(String, String)>;

fn object(members: &Members) -> String {
    let body: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("{}:{v}", Value::from(k.as_str())))
        .collect();
    format!("{{{}}}", body.join(","))
}

fn set(members: &mut Members, name: &str, value: String) {
    match members.iter_mut().find(|(k, _)| k == name) {
        Some(member) => member.1 = value,
        None => members.push((name.to_string(), value)),
    }
}

/// Returns the token and whether it is the untouched valid identity.
fn mutated(input: &mut Input) -> (String, bool) {
    let keys = &*KEYS;
    let mut header: Members = vec![
        ("alg".into(), "\"ES256\"".into()),
        ("typ".into(), json!(IDENTITY_TYP).to_string()),
        ("kid".into(), json!(keys.signing.kid()).to_string()),
    ];
    let claims = serde_json::to_value(valid_claims()).expect("claims serialise");
    let mut payload: Members = claims
        .as_object()
        .expect("an object")
        .iter()
        .map(|(k, v)| (k.clone(), v.to_string()))
        .collect();
    let operations = input.byte() % 6;
    for _ in 0..operations {
        match input.byte() % 9 {
            0 => {
                let name = *input.pick(&CLAIM_NAMES);
                let value = input.pick(&ODD_VALUES).to_string();
                set(&mut payload, name, value);
            }
            1 => {
                let name = *input.pick(&CLAIM_NAMES);
                payload.retain(|(k, _)| k != name);
            }
            2 => {
                let name = *input.pick(&CLAIM_NAMES);
                let value = match payload.iter().find(|(k, _)| k == name) {
                    Some((_, v)) if input.byte() % 2 == 0 => v.clone(),
                    _ => input.pick(&ODD_VALUES).to_string(),
                };
                payload.push((name.to_string(), value));
            }
            3 => {
                let alg = input.pick(&ALGS).to_string();
                set(&mut header, "alg", alg);
            }
            4 => match input.byte() % 4 {
                0 => header.retain(|(k, _)| k != "typ"),
                1 => set(&mut header, "typ", "\"JWT\"".into()),
                2 => set(
                    &mut header,
                    "typ",
                    json!(IDENTITY_TYP.to_uppercase()).to_string(),
                ),
                _ => header.push(("typ".into(), json!(IDENTITY_TYP).to_string())),
            },
            5 => {
                let kid = match input.byte() % 5 {
                    0 => json!(keys.other.kid()).to_string(),
                    1 => "\"\"".into(),
                    2 => json!(keys.signing.kid().to_uppercase()).to_string(),
                    3 => "null".into(),
                    _ => json!(format!("{} ", keys.signing.kid())).to_string(),
                };
                set(&mut header, "kid", kid);
            }
            6 => {
                let crit = input.pick(&["[]", "[\"exp\"]", "null", "{}"]).to_string();
                header.push(("crit".into(), crit));
            }
            7 => {
                let name = *input.pick(&["iat", "nbf", "exp"]);
                let at = i128::from(NOW) + i128::from(input.i64() % 100_000);
                set(&mut payload, name, at.to_string());
            }
            _ => {
                let value = input.pick(&ODD_VALUES).to_string();
                set(
                    &mut header,
                    *input.pick(&["alg", "typ", "kid", "jku", "x5u"]),
                    value,
                );
            }
        }
    }
    let encoding = input.byte();
    let key = if encoding & 1 != 0 {
        &keys.other
    } else {
        &keys.signing
    };
    let mut token = jws::sign_bytes(key, object(&header).as_bytes(), object(&payload).as_bytes());
    if encoding & 2 != 0 {
        token.push('=');
    }
    if encoding & 4 != 0 {
        // One bit of the signature flipped.
        let mut parts: Vec<String> = token.split('.').map(str::to_string).collect();
        if let Some(mut signature) = parts.get(2).and_then(|s| B64.decode(s).ok()) {
            let at = usize::from(input.byte()) % signature.len().max(1);
            if let Some(b) = signature.get_mut(at) {
                *b ^= 1 << (input.byte() % 8);
            }
            parts[2] = B64.encode(signature);
        }
        token = parts.join(".");
    }
    if encoding & 8 != 0 {
        // The payload in standard base64, padded.
        let parts: Vec<&str> = token.split('.').collect();
        if let Some(payload) = parts.get(1).and_then(|p| B64.decode(p).ok()) {
            token = format!("{}.{}.{}", parts[0], STANDARD.encode(payload), parts[2]);
        }
    }
    if encoding & 16 != 0 {
        token.insert(0, ' ');
    }
    (token, operations == 0 && encoding & 31 == 0)
}

/// A JSON value that fails on a member name repeated in any object.
struct Unique;

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueVisitor)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Unique;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_str<E>(self, _: &str) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_unit<E>(self) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
        while seq.next_element::<Unique>()?.is_some() {}
        Ok(Unique)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key) {
                return Err(serde::de::Error::custom("a repeated member"));
            }
            map.next_value::<Unique>()?;
        }
        Ok(Unique)
    }
}

/// Strict base64url: decodes, and encoding again gives the same text.
fn canonical_b64(part: &str) -> Option<Vec<u8>> {
    let bytes = B64.decode(part).ok()?;
    (B64.encode(&bytes) == part).then_some(bytes)
}

/// A JSON object with no member repeated.
fn strict_object(bytes: &[u8]) -> Option<serde_json::Map<String, Value>> {
    serde_json::from_slice::<Unique>(bytes).ok()?;
    match serde_json::from_slice(bytes).ok()? {
        Value::Object(map) => Some(map),
        _ => None,
    }
}

/// The reference's reading of an identity it accepts: the claims, or why not.
fn reference(token: &str) -> Result<serde_json::Map<String, Value>, &'static str> {
    let keys = &*KEYS;
    let parts: Vec<&str> = token.split('.').collect();
    let [h, p, s] = parts[..] else {
        return Err("not three parts");
    };
    let header = canonical_b64(h).ok_or("header encoding")?;
    let payload = canonical_b64(p).ok_or("payload encoding")?;
    let signature = canonical_b64(s).ok_or("signature encoding")?;
    let signature = Signature::from_slice(&signature).map_err(|_| "signature length")?;
    if signature.normalize_s() != signature {
        return Err("high S");
    }
    keys.verifying
        .verify(&token.as_bytes()[..h.len() + 1 + p.len()], &signature)
        .map_err(|_| "signature")?;
    let header = strict_object(&header).ok_or("header JSON")?;
    if header.get("alg") != Some(&json!("ES256")) {
        return Err("alg");
    }
    if header.get("typ") != Some(&json!(IDENTITY_TYP)) {
        return Err("typ");
    }
    if header.get("kid") != Some(&json!(keys.signing.kid())) {
        return Err("kid");
    }
    if header.contains_key("crit") {
        return Err("crit");
    }
    let claims = strict_object(&payload).ok_or("payload JSON")?;
    let audience = &keys.audience;
    for (name, expected) in [
        ("iss", Some(&audience.issuer)),
        ("aud", Some(&audience.app_id)),
        ("org", Some(&audience.org_id)),
        ("jti", None),
        ("sub", None),
        ("org_slug", None),
        ("iam", None),
        ("sid", None),
    ] {
        let value = claims
            .get(name)
            .and_then(Value::as_str)
            .ok_or("a string claim")?;
        if expected.is_some_and(|e| e != value) {
            return Err("iss, aud or org");
        }
    }
    let time = |name| {
        claims
            .get(name)
            .and_then(Value::as_u64)
            .ok_or("a time claim")
    };
    let (iat, nbf, exp) = (time("iat")?, time("nbf")?, time("exp")?);
    if nbf < iat || exp <= nbf || exp - iat > 300 {
        return Err("window");
    }
    if nbf > NOW + 60 || exp + 60 <= NOW {
        return Err("not valid now");
    }
    // A profile claim is a string (email_verified a boolean), or absent; `null` reads as
    // absent, as the claims' `Option` does.
    for name in ["name", "email", "preferred_username", "email_verified"] {
        let well_typed = match claims.get(name) {
            None | Some(Value::Null) => true,
            Some(value) if name == "email_verified" => value.is_boolean(),
            Some(value) => value.is_string(),
        };
        if !well_typed {
            return Err("a profile claim");
        }
    }
    Ok(claims)
}

fuzz_target!(|data: &[u8]| {
    let keys = &*KEYS;
    let mut input = Input(data);
    let (token, must_accept) = match input.byte() {
        0 => match std::str::from_utf8(input.0) {
            Ok(text) => (text.to_string(), false),
            Err(_) => return,
        },
        1 => {
            let mask = u16::from_le_bytes([input.byte(), input.byte()]);
            let forgeries: Vec<Forgery> = FORGERIES
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, f)| f())
                .collect();
            let token = forge(&keys.signing, valid_claims(), &forgeries);
            (token, forgeries.is_empty())
        }
        _ => mutated(&mut input),
    };
    let verified = verify_identity(&token, &[keys.signing.public()], &keys.audience, NOW);
    if must_accept {
        assert!(verified.is_ok(), "a valid identity refused: {verified:?}");
    }
    if let Ok(claims) = verified {
        let signed = match reference(&token) {
            Ok(signed) => signed,
            Err(why) => panic!("accepted, but the reference refuses it ({why}): {token}"),
        };
        let returned = serde_json::to_value(&claims).expect("claims serialise");
        for (name, value) in returned.as_object().expect("an object") {
            assert_eq!(
                signed.get(name),
                Some(value),
                "claim {name} is not the signed one"
            );
        }
    }
});
