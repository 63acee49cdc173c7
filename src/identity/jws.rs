//! Compact JWS (RFC 7515) with ES256 only: signing, and a strict verifier that never trusts
//! the header's choice of algorithm.
//!
//! Strict where RFC 7515 lets a verifier choose, because every JWS this crate verifies was
//! signed by this crate, so strictness costs no interoperability and leaves a token exactly
//! one spelling:
//!
//! - base64url without padding and with zero trailing bits (RFC 7515 §2, RFC 4648 §3.5), so
//!   no two encodings decode alike;
//! - header and payload are JSON objects with every member name once, at any depth
//!   (RFC 7515 §5.2 step 4 and RFC 7519 §4 allow refusing duplicates; serde would otherwise
//!   take the last one while another reader takes the first);
//! - any `crit` is refused: this verifier understands no extension (RFC 7515 §4.1.11);
//! - other unknown header members are ignored, as RFC 7515 §4 requires;
//! - high-S signatures are refused and ours are always low-S ([`super::keys`]).

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use serde::de::{DeserializeOwned, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::keys::{KeyPair, PublicKey};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub alg: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub typ: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kid: Option<String>,
    /// Extensions the recipient must understand (RFC 7515 §4.1.11). Present at all, even as
    /// `null`, it is `Some`: [`verify`] refuses it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub crit: Option<Value>,
}

/// A member that is there, whatever its value (`Option`'s own impl reads `null` as absent).
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl Header {
    pub fn es256(typ: &str, kid: &str) -> Self {
        Self {
            alg: "ES256".into(),
            typ: Some(typ.into()),
            kid: Some(kid.into()),
            crit: None,
        }
    }
}

/// Why a compact JWS was refused, before any claim is looked at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JwsError {
    #[error("not a compact JWS (three base64url parts, unpadded)")]
    Malformed,
    #[error("the JOSE header is not the expected JSON object: {0}")]
    Header(String),
    #[error("the header has crit {0}: no extension is understood here (RFC 7515 §4.1.11)")]
    Critical(String),
    #[error("algorithm {0:?} is not ES256")]
    Algorithm(String),
    #[error("{}", wrong_type(.0.as_deref(), .1))]
    Type(Option<String>, &'static str),
    #[error("{}", unknown_key(.0.as_deref()))]
    UnknownKey(Option<String>),
    #[error("the signature does not verify")]
    Signature,
    #[error("the payload is not the expected JSON: {0}")]
    Payload(String),
}

/// [`JwsError::Type`] in words: the header's `typ`, quoted (escaped as Rust quotes a string,
/// so a control character in a forged header cannot break a log line), or that it has none.
fn wrong_type(typ: Option<&str>, expected: &str) -> String {
    match typ {
        Some(typ) => format!("typ {typ:?} is not {expected:?}"),
        None => format!("the header has no typ; it must be {expected:?}"),
    }
}

/// [`JwsError::UnknownKey`] in words: the header's `kid`, quoted, or that it has none.
fn unknown_key(kid: Option<&str>) -> String {
    match kid {
        Some(kid) => format!("no published key has kid {kid:?}"),
        None => "the header has no kid, so no published key can verify it".to_string(),
    }
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

/// A JWS of header and payload bytes exactly as given, JSON or not: how tests and
/// [`super::forge`] make what serde would never serialize.
pub fn sign_bytes(key: &KeyPair, header: &[u8], payload: &[u8]) -> String {
    let input = format!("{}.{}", B64.encode(header), B64.encode(payload));
    let signature = key.sign(input.as_bytes());
    format!("{input}.{}", B64.encode(signature))
}

/// Checks structure, `crit`, `alg` = ES256, `typ` when `expected_typ` is given, and the
/// signature by one of `keys` chosen by `kid`; returns the header and the decoded payload.
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
    let header: Header = json_object(&header_bytes).map_err(JwsError::Header)?;
    if let Some(crit) = &header.crit {
        return Err(JwsError::Critical(crit.to_string()));
    }
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
    let claims = json_object(&payload).map_err(JwsError::Payload)?;
    Ok((header, claims))
}

/// `bytes` as a `T` read from a JSON object whose member names are unique at every depth.
/// Checking the object first matters: serde's derived structs also read a JSON array.
fn json_object<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let UniqueJson(value) = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    if !value.is_object() {
        return Err("not a JSON object".into());
    }
    serde_json::from_value(value).map_err(|e| e.to_string())
}

/// A JSON value that refuses a repeated member name in any of its objects.
struct UniqueJson(Value);

impl<'de> Deserialize<'de> for UniqueJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueVisitor).map(UniqueJson)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(UniqueJson(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(name) = map.next_key::<String>()? {
            if members.contains_key(&name) {
                return Err(serde::de::Error::custom(format!(
                    "the member {name:?} appears twice"
                )));
            }
            let UniqueJson(value) = map.next_value()?;
            members.insert(name, value);
        }
        Ok(Value::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::LazyLock;

    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::test_support::proptest_config;

    const TYP: &str = "test+jwt";
    static KEY: LazyLock<KeyPair> = LazyLock::new(KeyPair::generate);

    #[derive(Debug, Deserialize)]
    struct Claims {
        #[allow(dead_code)]
        sub: String,
    }

    fn header() -> Value {
        json!({"alg": "ES256", "typ": TYP, "kid": KEY.kid()})
    }

    fn signed(header: &Value, payload: &Value) -> String {
        sign_bytes(
            &KEY,
            header.to_string().as_bytes(),
            payload.to_string().as_bytes(),
        )
    }

    fn check(token: &str) -> Result<Claims, JwsError> {
        verify::<Claims>(token, &[KEY.public()], Some(TYP)).map(|(_, claims)| claims)
    }

    fn good() -> String {
        signed(&header(), &json!({"sub": "ada"}))
    }

    #[test]
    fn a_well_formed_token_verifies() {
        assert!(check(&good()).is_ok());
    }

    #[test]
    fn crit_is_refused_whatever_it_holds() {
        for crit in [
            json!(["exp"]),
            json!([]),
            json!(null),
            json!("b64"),
            json!({}),
        ] {
            let mut header = header();
            header["crit"] = crit.clone();
            let token = signed(&header, &json!({"sub": "ada"}));
            assert!(
                matches!(check(&token), Err(JwsError::Critical(_))),
                "{crit}"
            );
        }
    }

    #[test]
    fn other_unknown_header_members_are_ignored() {
        // RFC 7515 §4: not understood, so ignored — and never used to find a key.
        let mut header = header();
        header["x5u"] = json!("https://evil.example/keys");
        header["jwk"] = json!({"kty": "EC"});
        header["zip2"] = json!(1);
        assert!(check(&signed(&header, &json!({"sub": "ada"}))).is_ok());
    }

    #[test]
    fn duplicate_members_are_refused_at_any_depth() {
        let kid = KEY.kid();
        let header_twice = format!(r#"{{"alg":"none","alg":"ES256","typ":"{TYP}","kid":"{kid}"}}"#);
        let payload = br#"{"sub":"ada"}"#;
        let token = sign_bytes(&KEY, header_twice.as_bytes(), payload);
        assert!(matches!(check(&token), Err(JwsError::Header(e)) if e.contains("twice")));
        let header = header().to_string();
        for payload in [
            r#"{"sub":"ada","sub":"grace"}"#,
            r#"{"sub":"ada","x":1,"x":2}"#,
            r#"{"sub":"ada","x":[{"y":1,"y":1}]}"#,
        ] {
            let token = sign_bytes(&KEY, header.as_bytes(), payload.as_bytes());
            assert!(
                matches!(check(&token), Err(JwsError::Payload(e)) if e.contains("twice")),
                "{payload}"
            );
        }
    }

    #[test]
    fn header_and_payload_are_json_objects() {
        // serde's derived structs read arrays too, field by field.
        let array_header = json!(["ES256", TYP, KEY.kid()]);
        let token = signed(&array_header, &json!({"sub": "ada"}));
        assert!(matches!(check(&token), Err(JwsError::Header(_))));
        let token = signed(&header(), &json!(["ada"]));
        assert!(matches!(check(&token), Err(JwsError::Payload(_))));
        for payload in ["", "null", "\"ada\"", "{\"sub\":\"ada\"} x"] {
            let token = sign_bytes(&KEY, header().to_string().as_bytes(), payload.as_bytes());
            assert!(
                matches!(check(&token), Err(JwsError::Payload(_))),
                "{payload:?}"
            );
        }
    }

    #[test]
    fn only_canonical_unpadded_base64url_in_three_parts() {
        let token = good();
        let parts: Vec<&str> = token.split('.').collect();
        let lenient = base64::engine::GeneralPurpose::new(
            &base64::alphabet::URL_SAFE,
            base64::engine::general_purpose::NO_PAD.with_decode_allow_trailing_bits(true),
        );
        let mut spellings = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            let with = |new: String| {
                let mut parts = parts.clone();
                parts[i] = &new;
                parts.join(".")
            };
            // Padding, as plain base64 would have it (RFC 7515 §2: none).
            let padded = format!("{part}{}", "=".repeat((4 - part.len() % 4) % 4));
            if padded != *part {
                spellings.push(with(padded));
            }
            // Nonzero trailing bits: the same bytes to a lenient decoder.
            if part.len() % 4 != 0 {
                let last = part.as_bytes()[part.len() - 1];
                let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
                let value = alphabet.iter().position(|&c| c == last).unwrap();
                let twin = char::from(alphabet[value ^ 1]);
                let twin = format!("{}{twin}", &part[..part.len() - 1]);
                assert_eq!(lenient.decode(&twin).unwrap(), B64.decode(part).unwrap());
                spellings.push(with(twin));
            }
            // The standard alphabet, whitespace inside.
            spellings.push(with(format!("{part}+")));
            spellings.push(with(format!(" {part}")));
        }
        spellings.push(format!("{token}."));
        spellings.push(format!("{}.{}", parts[0], parts[1]));
        spellings.push(format!("{}..{}", parts[0], parts[2]));
        spellings.push(format!("{}.{}.", parts[0], parts[1]));
        for spelling in spellings {
            assert!(check(&spelling).is_err(), "{spelling}");
        }
    }

    #[test]
    fn typ_alg_and_kid_are_exact() {
        for (member, value) in [
            ("typ", json!("TEST+JWT")),
            ("typ", json!("application/test+jwt")),
            ("typ", json!(null)),
            ("alg", json!("es256")),
            ("alg", json!("ES256 ")),
            ("alg", json!(["ES256"])),
            ("kid", json!(null)),
            ("kid", json!(format!("{} ", KEY.kid()))),
        ] {
            let mut header = header();
            header[member] = value.clone();
            let token = signed(&header, &json!({"sub": "ada"}));
            assert!(check(&token).is_err(), "{member}: {value}");
        }
        let mut header = header();
        header.as_object_mut().unwrap().remove("kid");
        let token = signed(&header, &json!({"sub": "ada"}));
        assert!(matches!(check(&token), Err(JwsError::UnknownKey(None))));
    }

    /// The messages reach people (the control API's identity check, the console, logs): an
    /// absent member is said in words, never as Rust's `None`/`Some(…)`.
    #[test]
    fn refusals_read_as_sentences() {
        let messages = [
            JwsError::UnknownKey(Some("k-1".into())).to_string(),
            JwsError::UnknownKey(None).to_string(),
            JwsError::Type(Some("JWT".into()), TYP).to_string(),
            JwsError::Type(None, TYP).to_string(),
        ];
        assert_eq!(messages[0], r#"no published key has kid "k-1""#);
        assert_eq!(
            messages[3],
            format!("the header has no typ; it must be {TYP:?}")
        );
        for message in messages {
            assert!(
                !message.contains("Some(") && !message.contains("None"),
                "{message}"
            );
        }
    }

    /// A JSON value of bounded size, with the member names a JOSE header uses.
    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "[a-zA-Z0-9+/_ -]{0,12}".prop_map(Value::String),
            Just(json!("ES256")),
            Just(json!(TYP)),
            Just(json!(KEY.kid())),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop_oneof![
                            Just("alg".to_string()),
                            Just("typ".to_string()),
                            Just("kid".to_string()),
                            Just("crit".to_string()),
                            Just("sub".to_string()),
                            "[a-z]{1,4}"
                        ],
                        inner
                    ),
                    0..5
                )
                .prop_map(|members| Value::Object(members.into_iter().collect())),
            ]
        })
    }

    /// `base` with the members of `extra` (when it is an object) set over it.
    fn merged(mut base: Value, extra: Value) -> Value {
        if let (Some(base), Value::Object(extra)) = (base.as_object_mut(), extra) {
            base.extend(extra);
        }
        base
    }

    proptest! {
        #![proptest_config(proptest_config(256))]

        #[test]
        fn arbitrary_text_is_refused_without_panicking(token in any::<String>()) {
            prop_assert!(check(&token).is_err());
        }

        #[test]
        fn arbitrary_base64url_parts_are_refused(
            parts in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..80), 1..5),
        ) {
            let token: Vec<String> = parts.iter().map(|p| B64.encode(p)).collect();
            prop_assert!(check(&token.join(".")).is_err());
        }

        #[test]
        fn arbitrary_json_signed_by_the_key_never_panics(
            header in prop_oneof![json_value(), json_value().prop_map(|v| merged(header(), v))],
            payload in prop_oneof![
                json_value(),
                json_value().prop_map(|v| merged(json!({"sub": "ada"}), v)),
            ],
        ) {
            let token = signed(&header, &payload);
            if check(&token).is_ok() {
                // Only what this module vouches for gets through.
                prop_assert_eq!(&header["alg"], "ES256");
                prop_assert_eq!(&header["typ"], TYP);
                prop_assert_eq!(&header["kid"], KEY.kid());
                prop_assert!(header.get("crit").is_none());
                prop_assert!(payload["sub"].is_string());
            }
        }

        #[test]
        fn any_change_to_a_valid_token_is_refused(
            index in any::<prop::sample::Index>(),
            replacement in prop::sample::select(
                b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ ".to_vec()
            ),
            insert in any::<bool>(),
        ) {
            let token = good();
            let mut bytes = token.clone().into_bytes();
            let at = index.index(bytes.len());
            if insert {
                bytes.insert(at, replacement);
            } else {
                bytes[at] = replacement;
            }
            let mutated = String::from_utf8(bytes).unwrap_or_default();
            // Canonical base64url leaves no change that decodes to the same content.
            prop_assume!(mutated != token);
            prop_assert!(check(&mutated).is_err(), "{}", mutated);
        }
    }
}
