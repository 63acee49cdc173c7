//! parse args → Config → dispatch to the command ([`zero_sandbox::commands`]) → exit code.

use std::process::ExitCode;

use zero_sandbox::cli::{Cli, Command};
use zero_sandbox::commands::{self, CommandError};

fn main() -> ExitCode {
    zero_sandbox::heap::limit_arenas();
    let cli = Cli::parse_checked();
    // `run` prefixes the sandbox's logs among the app's output: it installs its own.
    if !matches!(cli.command, Some(Command::Run(_))) {
        commands::logging::init();
    }
    let result = cli
        .config()
        .map_err(CommandError::from)
        .and_then(|config| match &cli.command {
            Some(Command::Env(args)) => commands::env::print(&config, args).map(|()| 0),
            Some(Command::Token(args)) => commands::token::print(&config, args).map(|()| 0),
            Some(Command::Up(_)) | None => commands::up::run(config, cli.up_args()).map(|()| 0),
            Some(Command::Run(args)) => commands::run::run(config, args),
            Some(Command::Check(args)) => commands::check::run(&config, args),
            Some(Command::Tpch(args)) => commands::tpch::run(&config, args).map(|()| 0),
        });
    let checking = matches!(cli.command, Some(Command::Check(_)));
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            eprintln!("zero-sandbox: error: {error}");
            ExitCode::from(if checking {
                commands::check::NOT_AUDITED
            } else {
                error.exit_code()
            })
        }
    }
}
