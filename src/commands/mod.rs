//! The CLI's commands, as library functions: `main.rs` parses, loads the configuration and
//! dispatches here, so each command can be driven and tested through the library.
//!
//! - [`env`]: `env`, the app's `NNUMBERS_*` environment in three formats.
//! - [`token`]: `token`, a signed identity (or a QueryMesh access token) for a configured
//!   person, with optional forgeries for testing an app's checks.
//! - [`up`]: `up` (the default), the whole sandbox until a signal, with its banner or its
//!   `--ready-json` line.
//! - [`tpch`]: `tpch generate sf<N>`, a bigger tpch schema into the state directory.
//! - [`logging`]: where logs go and how they look, for every command.
//! - [`run`]: `run -- CMD`, the sandbox and the app under it, their outputs prefixed
//!   ([`prefixed`]), stopped together.
//! - [`check`]: `check --app URL`, every forged identity sent straight to the app, judged.

pub mod check;
pub mod env;
pub mod logging;
pub mod prefixed;
pub mod run;
pub mod token;
pub mod tpch;
pub mod up;

use std::time::Duration;

use crate::config::{Config, ConfigError};
use crate::identity::KeyError;
use crate::running::{self, Running};
use crate::sandbox::StartError;

/// How long a thread of tokio's blocking pool (where queries run) waits for more work before
/// it exits; tokio's default is 10 s. Each keeps a cache of the blocks it freed (glibc's
/// tcache, up to ~200 KB), so a burst's 32 query threads held ~4 MB of the heap for those
/// 10 s after it (soak, 50 clients); a new thread costs tens of microseconds, next to a
/// query's milliseconds.
const BLOCKING_THREAD_KEEP_ALIVE: Duration = Duration::from_secs(1);

/// The runtime `up` and `run` serve on.
fn runtime() -> Result<tokio::runtime::Runtime, CommandError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_keep_alive(BLOCKING_THREAD_KEEP_ALIVE)
        .build()
        .map_err(CommandError::Runtime)
}

/// Why a command did not do its work; `main.rs` prints it after `zero-sandbox: error: `.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Keys(#[from] KeyError),
    #[error(transparent)]
    Start(#[from] StartError),
    /// Another sandbox holds the state directory.
    #[error(transparent)]
    StateLocked(#[from] crate::state_dir::lock::LockError),
    #[error(transparent)]
    Running(#[from] running::ReadError),
    /// The async runtime `up` runs on could not be built.
    #[error(transparent)]
    Runtime(std::io::Error),
    #[error("no configured person is called {handle:?}; known: {known}")]
    UnknownPerson { handle: String, known: String },
    #[error("--iam {0:?} must be an http:// or https:// URL")]
    IamNotAUrl(String),
    #[error(
        "the IAM port is 0, picked only when the sandbox starts, and no sandbox runs on \
         this state directory: pass --iam with the `iam` URL of its --ready-json line"
    )]
    IamPortUnknown,
    /// `token --ephemeral`: keys made for this command alone, trusted by no sandbox or app.
    #[error(
        "--ephemeral keys exist only inside one run, so a token made here would verify \
         nowhere (no sandbox, no app trusts them): leave out --ephemeral and use the --state \
         (and --config) of the `up` or `env` your app's NNUMBERS_IDENTITY_JWKS came from"
    )]
    EphemeralKeys,
    #[error(transparent)]
    Tpch(#[from] crate::querymesh::engine::tpch::generate::GenerateError),
    #[error(
        "generated tpch schemas are kept in the state directory, and --ephemeral has none: \
         leave out --ephemeral (or give --state DIR, the same as for `up`)"
    )]
    TpchEphemeral,
    #[error("interrupted {done}, {elapsed} so far; to continue, run:\n    {again}")]
    TpchInterrupted {
        /// How far it got.
        done: String,
        elapsed: String,
        /// The command line that continues it.
        again: String,
    },
    #[error(
        "`run` starts your app itself and points the edge at it: leave out --app (it is for \
         `up`), and give the app's port with --app-port if it must be fixed"
    )]
    RunWithApp,
    /// The app's command could not be started at all.
    #[error("cannot start the app `{program}`: {source}{hint}")]
    AppSpawn {
        program: String,
        source: std::io::Error,
        hint: &'static str,
    },
    /// A free port for the app could not be found.
    #[error("cannot find a free port for the app: {0}")]
    AppPort(std::io::Error),
    #[error(transparent)]
    Check(#[from] check::CheckError),
}

impl CommandError {
    /// The process's exit status for this error: 2 when `check` could not judge the app (so a
    /// CI can tell "the app is wrong", 1, from "the audit did not run"; `main` gives every
    /// error of `check` [`check::NOT_AUDITED`], usage errors included) and when another
    /// sandbox holds the state directory (so a script can tell "already running" from a
    /// failed start), else 1.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Check(_) => 2,
            Self::StateLocked(crate::state_dir::lock::LockError::Held { .. }) => 2,
            _ => 1,
        }
    }
}

/// The sandbox `up` runs on this configuration's state directory, if one does.
fn running(config: &Config) -> Result<Option<Running>, running::ReadError> {
    match config.state_dir.as_deref() {
        Some(dir) => running::find(dir),
        None => Ok(None),
    }
}
