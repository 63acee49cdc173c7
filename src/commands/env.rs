//! `zero-sandbox env`: the app's `NNUMBERS_*` environment, for the sandbox running on this
//! state directory, else for the configured ports.

use super::{CommandError, running};
use crate::cli::{EnvArgs, EnvFormat};
use crate::config::Config;
use crate::platform::SandboxEnv;
use crate::sandbox::open_keys;

/// Prints the environment in the format `args` asks for.
pub fn print(config: &Config, args: &EnvArgs) -> Result<(), CommandError> {
    print!("{}", text(config, args)?);
    Ok(())
}

/// The environment as printed. A note goes to stderr when the broker's URL cannot be known.
pub fn text(config: &Config, args: &EnvArgs) -> Result<String, CommandError> {
    let broker_url = match running(config)? {
        Some(running) => format!("http://{}", running.broker),
        None => {
            if config.ports.broker == 0 {
                eprintln!(
                    "zero-sandbox: note: the broker's port is 0, so `up` picks one at start; \
                     read NNUMBERS_BROKER_URL from `up --ready-json` instead"
                );
            }
            format!("http://127.0.0.1:{}", config.ports.broker)
        }
    };
    let (keys, _) = open_keys(config)?;
    let env = SandboxEnv::new(config, &keys, &broker_url);
    Ok(match args.format {
        EnvFormat::Dotenv => env.to_dotenv(),
        EnvFormat::Shell => env.to_shell(),
        EnvFormat::Json => env.to_json() + "\n",
    })
}
