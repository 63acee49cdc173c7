//! The forgeries: each breaks one check of the runtime protocol (or, for the strict ones,
//! one a strict verifier makes), from the same claims as the valid identity.

use super::*;

/// One request to send: its name in the table and the identity it carries.
pub struct Probe {
    pub name: &'static str,
    pub identity: String,
    /// Refused by a strict verifier but not by the spec's five checks: an app that accepts
    /// it gets a warning, not a failure.
    pub strict: bool,
}

/// The forgeries, each from the same claims the valid identity has (same person, same sid).
/// `current`: the key the app trusts; `rotated_out`: a key it must not (see `--help`).
pub fn forgeries(current: &KeyPair, rotated_out: &KeyPair, claims: &IdentityClaims) -> Vec<Probe> {
    let forged = |forgery: Forgery| forge(current, claims.clone(), &[forgery]);
    let unsigned = format!(
        "{}.",
        jws::signing_input(&Header::es256(IDENTITY_TYP, current.kid()), claims)
    );
    vec![
        Probe {
            name: "unsigned (spoofed)",
            identity: unsigned,
            strict: false,
        },
        Probe {
            name: "expired",
            identity: forged(Forgery::Expired),
            strict: false,
        },
        Probe {
            name: "not yet valid",
            identity: forged(Forgery::NotYetValid),
            strict: false,
        },
        Probe {
            name: "other aud",
            identity: forged(Forgery::Audience(format!("not-{}", claims.aud))),
            strict: false,
        },
        Probe {
            name: "other org",
            identity: forged(Forgery::Organization(format!("not-{}", claims.org))),
            strict: false,
        },
        Probe {
            name: "other iss",
            identity: forged(Forgery::Issuer(format!("{}.invalid", claims.iss))),
            strict: false,
        },
        Probe {
            name: "unknown kid",
            identity: forged(Forgery::UnknownKid),
            strict: false,
        },
        Probe {
            name: "bad signature",
            identity: forged(Forgery::BadSignature),
            strict: false,
        },
        Probe {
            name: "alg none",
            identity: forged(Forgery::AlgNone),
            strict: false,
        },
        Probe {
            name: "rotated-out key",
            identity: sign_identity(rotated_out, claims),
            strict: false,
        },
        Probe {
            name: "crit header",
            identity: forged(Forgery::Critical),
            strict: true,
        },
        Probe {
            name: "long-lived",
            identity: forged(Forgery::LongLived),
            strict: true,
        },
        Probe {
            name: "high-S signature",
            identity: forged(Forgery::HighS),
            strict: true,
        },
    ]
}
