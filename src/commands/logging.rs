//! Logs go to stderr (stdout is for `--ready-json` and printed values); `RUST_LOG` overrides.

use std::io::IsTerminal;

use crate::cli::log_colours;

/// Installs the process's log subscriber: `zero_sandbox=info` unless `RUST_LOG` says
/// otherwise, in colour only on a terminal without `NO_COLOR`.
pub fn init() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("zero_sandbox=info"));
    let colours = log_colours(
        std::io::stderr().is_terminal(),
        std::env::var_os("NO_COLOR").as_deref(),
    );
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(colours)
        .init();
}

/// [`init`] writing through `writer` (`run`'s prefixed output), coloured when `colours`.
/// Installs nothing when a subscriber is already installed (a second `run` in one process).
pub fn init_with<W>(writer: W, colours: bool)
where
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("zero_sandbox=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(colours)
        .try_init();
}
