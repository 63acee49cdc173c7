//! Proof Key for Code Exchange with S256 only (RFC 7636): the realm refuses `plain`, as the
//! platform's public client must not rely on it.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use sha2::{Digest, Sha256};

/// The only `code_challenge_method` accepted.
pub(super) const S256: &str = "S256";

/// An S256 challenge is the base64url (no padding) of a SHA-256: 43 characters.
pub(super) fn is_s256_challenge(challenge: &str) -> bool {
    challenge.len() == 43
        && challenge
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// RFC 7636 §4.1: 43 to 128 characters of `[A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~"`.
pub(super) fn is_well_formed_verifier(verifier: &str) -> bool {
    (43..=128).contains(&verifier.len())
        && verifier
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// RFC 7636 §4.2: `BASE64URL-ENCODE(SHA256(ASCII(code_verifier)))`.
pub(super) fn s256_challenge(verifier: &str) -> String {
    B64.encode(Sha256::digest(verifier.as_bytes()))
}

/// RFC 7636 §4.6: the verifier's transform equals the stored challenge.
pub(super) fn verifies(verifier: &str, challenge: &str) -> bool {
    let computed = s256_challenge(verifier);
    // Compared without an early exit, so the time taken says nothing about the challenge.
    computed.len() == challenge.len()
        && computed
            .bytes()
            .zip(challenge.bytes())
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc7636_appendix_b_example() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert_eq!(s256_challenge(verifier), challenge);
        assert!(verifies(verifier, challenge));
        assert!(!verifies(
            "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj",
            challenge
        ));
        assert!(is_s256_challenge(challenge));
        assert!(is_well_formed_verifier(verifier));
        assert!(!is_well_formed_verifier("short"));
        assert!(!is_s256_challenge("plain-text challenge"));
    }
}
