//! parse args → Config → dispatch to the command ([`zero_sandbox::commands`]) → exit code.

use std::process::ExitCode;

use zero_sandbox::cli::{Cli, Command};
use zero_sandbox::commands::{self, CommandError};

fn main() -> ExitCode {
    zero_sandbox::querymesh::memory::limit_arenas();
    let cli = Cli::parse_checked();
    commands::logging::init();
    let result = cli
        .config()
        .map_err(CommandError::from)
        .and_then(|config| match &cli.command {
            Some(Command::Env(args)) => commands::env::print(&config, args),
            Some(Command::Token(args)) => commands::token::print(&config, args),
            Some(Command::Tpch(args)) => commands::tpch::run(&config, args),
            Some(Command::Up(_)) | None => commands::up::run(config, cli.up_args()),
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("zero-sandbox: error: {error}");
            ExitCode::FAILURE
        }
    }
}
