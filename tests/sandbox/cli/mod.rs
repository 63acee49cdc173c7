//! The binary's commands (`up`, `token`, `env`), its configuration, the keys, and the identity
//! it mints checked by independent verifiers; one `up` per state directory, and state files
//! that cannot be used refused by name.

mod check;
mod clear_errors;
mod default_data;
mod help_and_readme;
mod keys;
mod minted_identity;
mod one_up_per_state_directory;
mod run;
mod token_and_env;
mod tpch_generate;
mod unusable_state_files;
mod up;

use std::process::Command;

use jsonwebtoken::{Algorithm, DecodingKey, Validation, errors::ErrorKind};
use serde_json::Value;

use crate::support::binary;

/// Runs the binary with `args` and returns (exit success, stdout, stderr).
fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(binary()).args(args).output().expect("runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn env_json(state: &str) -> Value {
    let (ok, out, err) = run(&["env", "--format", "json", "--state", state]);
    assert!(ok, "{err}");
    serde_json::from_str(&out).expect("env --format json is JSON")
}

fn token(state: &str, extra: &[&str]) -> String {
    let mut args = vec!["token", "--as", "ada", "--state", state];
    args.extend_from_slice(extra);
    let (ok, out, err) = run(&args);
    assert!(ok, "{err}");
    out.trim().to_string()
}

/// An independent verifier: jsonwebtoken with the JWKS that `env` prints, plus the org check
/// the spec adds.
fn jsonwebtoken_verify(env: &Value, token: &str) -> Result<Value, ErrorKind> {
    let jwks: jsonwebtoken::jwk::JwkSet =
        serde_json::from_str(env["NNUMBERS_IDENTITY_JWKS"].as_str().unwrap()).unwrap();
    let header = jsonwebtoken::decode_header(token).map_err(|e| e.into_kind())?;
    let jwk = header
        .kid
        .as_deref()
        .and_then(|kid| jwks.find(kid))
        .ok_or(ErrorKind::InvalidKeyFormat)?;
    let key = DecodingKey::from_jwk(jwk).map_err(|e| e.into_kind())?;
    let mut validation = Validation::new(Algorithm::ES256);
    validation.leeway = 60;
    validation.validate_nbf = true;
    validation.set_issuer(&[env["NNUMBERS_IDENTITY_ISSUER"].as_str().unwrap()]);
    validation.set_audience(&[env["NNUMBERS_APP_ID"].as_str().unwrap()]);
    let data =
        jsonwebtoken::decode::<Value>(token, &key, &validation).map_err(|e| e.into_kind())?;
    if data.claims["org"] != env["NNUMBERS_ORG_ID"] {
        return Err(ErrorKind::InvalidSubject);
    }
    Ok(data.claims)
}
