//! `zero-sandbox token`: a signed identity for a configured person (optionally forged), or
//! with `--querymesh` an IAM access token QueryMesh accepts.

use super::{CommandError, running};
use crate::cli::TokenArgs;
use crate::config::{Config, Person};
use crate::identity::{Audience, IdentityIssuer, KeyRing, forge, unix_now};
use crate::sandbox::open_keys;

/// Prints the token `args` asks for, on a line of its own.
pub fn print(config: &Config, args: &TokenArgs) -> Result<(), CommandError> {
    println!("{}", token(config, args)?);
    Ok(())
}

/// The token `args` asks for.
pub fn token(config: &Config, args: &TokenArgs) -> Result<String, CommandError> {
    // Without a state directory the keys would be new ones, made for this command alone: the
    // identity (or access token) would verify nowhere, so it is refused as `check` refuses.
    if config.state_dir.is_none() {
        return Err(CommandError::EphemeralKeys);
    }
    let person = config
        .person(&args.person)
        .ok_or_else(|| CommandError::UnknownPerson {
            handle: args.person.clone(),
            known: config
                .people
                .iter()
                .map(|p| p.profile.preferred_username.as_deref().unwrap_or(&p.sub))
                .collect::<Vec<_>>()
                .join(", "),
        })?;
    let (keys, iam_keys) = open_keys(config)?;
    let iam_url = iam_url(config, args)?;
    let realm_url = format!("{iam_url}/realms/{}", config.organization.slug);
    if args.querymesh {
        return querymesh_token(&iam_keys, person, &realm_url);
    }
    let issuer = IdentityIssuer {
        keys: keys.clone(),
        audience: Audience::from_config(config),
        iam_issuer: realm_url,
    };
    let sid = args
        .sid
        .clone()
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let claims = issuer.claims(person, &sid);
    Ok(forge(&keys.current(), claims, &args.forgeries()))
}

/// Where the IAM of the sandbox a token is for listens: `--iam`, else the sandbox running on
/// this state directory, else the configured port.
pub fn iam_url(config: &Config, args: &TokenArgs) -> Result<String, CommandError> {
    if let Some(url) = &args.iam {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(CommandError::IamNotAUrl(url.clone()));
        }
        return Ok(url.trim_end_matches('/').to_string());
    }
    if let Some(running) = running(config)? {
        return Ok(format!("http://{}", running.iam));
    }
    if config.ports.iam == 0 {
        return Err(CommandError::IamPortUnknown);
    }
    Ok(format!("http://127.0.0.1:{}", config.ports.iam))
}

/// `token --querymesh`: an access token signed with the IAM key the running sandbox loads
/// from the same state directory, naming its realm.
fn querymesh_token(
    iam_keys: &KeyRing,
    person: &Person,
    realm_url: &str,
) -> Result<String, CommandError> {
    Ok(crate::iam::querymesh_access_token(
        &iam_keys.current(),
        realm_url,
        person,
        unix_now(),
    ))
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};

    /// The built-in configuration with in-memory keys: nothing is written to disk.
    fn ephemeral() -> Config {
        let mut config = Config::builtin();
        config.state_dir = None;
        config
    }

    /// The built-in configuration on a new state directory of its own.
    fn on_disk(state: &tempfile::TempDir) -> Config {
        let mut config = Config::builtin();
        config.state_dir = Some(state.path().to_path_buf());
        config
    }

    fn args(argv: &[&str]) -> TokenArgs {
        let cli = Cli::try_parse_from([&["zero-sandbox", "token"], argv].concat());
        match cli.map(|cli| cli.command) {
            Ok(Some(Command::Token(args))) => args,
            other => panic!("not a token command: {other:?}"),
        }
    }

    #[test]
    fn the_token_command_refuses_clearly() {
        let state = tempfile::tempdir().expect("a temporary directory");
        let config = on_disk(&state);
        let refusal = |argv: &[&str]| token(&config, &args(argv)).map(|_| ());
        assert!(matches!(
            refusal(&["--as", "nobody"]),
            Err(CommandError::UnknownPerson { handle, .. }) if handle == "nobody"
        ));
        assert!(matches!(
            refusal(&["--as", "ada", "--iam", "ftp://iam"]),
            Err(CommandError::IamNotAUrl(url)) if url == "ftp://iam"
        ));
        for argv in [&["--as", "ada"][..], &["--as", "ada", "--querymesh"]] {
            assert!(matches!(
                token(&ephemeral(), &args(argv)),
                Err(CommandError::EphemeralKeys)
            ));
        }
        let mut no_iam_port = on_disk(&state);
        no_iam_port.ports.iam = 0;
        assert!(matches!(
            token(&no_iam_port, &args(&["--as", "ada"])),
            Err(CommandError::IamPortUnknown)
        ));
    }

    #[test]
    fn an_identity_names_the_iam_it_was_made_for() {
        let state = tempfile::tempdir().expect("a temporary directory");
        let config = on_disk(&state);
        let args = args(&["--as", "ada", "--iam", "http://127.0.0.1:9/"]);
        assert_eq!(
            iam_url(&config, &args).ok().as_deref(),
            Some("http://127.0.0.1:9")
        );
        let token = token(&config, &args).unwrap_or_default();
        assert_eq!(token.split('.').count(), 3, "a compact JWS");
    }
}
