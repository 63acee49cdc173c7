//! The command line (clap only); [`Cli::config`] turns it into one validated [`Config`].

use std::ffi::OsString;
use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

use crate::config::{Config, ConfigError, default_state_dir};
use crate::identity::Forgery;

/// The NNumbers platform on your laptop: sign-in, signed identities, the broker and a
/// Trino-compatible QueryMesh with tpch.tiny, in front of the app you are writing.
///
/// Run it with no arguments to start everything with the built-in demo app, then open
/// http://127.0.0.1:4000. Point it at your own app with `--app http://127.0.0.1:3000`.
#[derive(Debug, Parser)]
#[command(name = "zero-sandbox", version)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub up: UpArgs,

    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Args, Clone)]
pub struct CommonArgs {
    /// Configuration file [default: ./zero-sandbox.toml when present, else built-in defaults]
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// The state directory, kept between runs: the identity and IAM signing keys, tpch.tiny,
    /// QueryMesh's TLS authority (querymesh-ca.pem, which Trino clients trust), the schemas
    /// `tpch generate` writes (tpch/sf1.sqlite, …), and while a sandbox runs on it its ports
    /// (running.json) and lock [default: your data directory, e.g.
    /// ~/.local/share/zero-sandbox]
    #[arg(long, global = true, value_name = "DIR", conflicts_with = "ephemeral")]
    pub state: Option<PathBuf>,

    /// Keep keys in memory only, so identities from an earlier run no longer verify (tpch.tiny's
    /// file is kept in your cache directory)
    #[arg(long, global = true)]
    pub ephemeral: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start the sandbox (the default command)
    Up(UpArgs),
    /// Print the NNUMBERS_* variables your app needs
    Env(EnvArgs),
    /// Print a signed identity for a configured person, or a forged one your app must refuse
    Token(TokenArgs),
    /// Start the sandbox and your app behind it, with the app's environment; stop both together
    Run(RunArgs),
    /// Audit your app: send it every forged identity directly and report any it treats as a person
    #[command(long_about = CHECK_ABOUT)]
    Check(CheckArgs),
    /// Generate a bigger tpch schema (sf1, sf10, …) for the sandbox to serve
    Tpch(TpchArgs),
}

#[derive(Debug, Args)]
pub struct TpchArgs {
    #[command(subcommand)]
    pub command: TpchCommand,
}

#[derive(Debug, Subcommand)]
pub enum TpchCommand {
    /// Generate tpch.<SCHEMA> (the rows of Trino's tpch connector) into the state directory,
    /// resuming an interrupted run; the sandbox serves it from its next start. sf1 is 8.66
    /// million rows, about 1.7 GB, about 2 minutes of CPU on two cores (more wall time on a
    /// busy machine)
    Generate {
        /// sf<N> for scale factor N, as Trino names them: sf1, sf10, sf100, sf0.1, …
        schema: String,
        /// Generate again even if complete, and start an interrupted run over
        #[arg(long)]
        force: bool,
        /// Rows per chunk (hidden: tests resume small scales in several chunks)
        #[arg(long, hide = true, value_name = "ROWS")]
        chunk_rows: Option<u64>,
        /// Stop after this many chunks, as if interrupted (hidden: tests of resuming)
        #[arg(long, hide = true, value_name = "CHUNKS")]
        chunk_limit: Option<usize>,
    },
}

/// `check --help`: what it needs, what it sends and how it judges (see `commands::check`).
const CHECK_ABOUT: &str = "\
Audit your app's identity checks: send it, directly (bypassing the edge, as the runtime protocol \
warns some paths do), requests carrying no identity, a valid identity, and each identity the \
protocol says an app must refuse: unsigned, expired, not yet valid, another aud, org or iss, an \
unknown kid, a bad signature, alg none, and a key that is not in the JWKS the app trusts (one this \
state directory rotated out, else a never-published one). Then three a strict verifier refuses \
though the protocol's five checks do not: a `crit` header, a validity longer than 5 minutes and a \
high-S signature; an app that accepts them gets a warning, not a failure.

What it needs: your app running and trusting this state directory's keys, i.e. started with the \
NNUMBERS_* environment of `zero-sandbox env` (or under `zero-sandbox run`, or behind `up`) with the \
same --state/--config. The identities are signed with the keys kept in the state directory, so \
--ephemeral is refused. When a sandbox runs on that directory, the person is signed in to it \
(through its test-control API, and signed out at the end) so the identities name a live platform \
session and a path that queries the broker answers as for the person; without one, the identities \
name a session nobody knows, which the broker refuses (USER_SESSION_REQUIRED).

How it judges, per forgery, against the anonymous answer and the valid identity's answer (status \
and body): a 5xx is a server error (not a person, but the app should refuse with 4xx); the \
anonymous answer exactly is anonymous (fine); the valid answer exactly is TREATED AS A PERSON; any \
other 4xx is refused; otherwise, when the valid answer names the person (their sub, username, \
email, name or the probes' sid, absent from the anonymous answer), an answer naming them is \
TREATED AS A PERSON; when it does not, an answer with the valid answer's status is, if that status \
differs from the anonymous one. Anything else is 'other' (neither answer).

Exit status: 0 when no forgery was treated as a person (warnings included), 1 when one was, 2 when \
no audit was made: a usage error (an unknown --as, a --config that cannot be read, an --app that \
is not a URL, --ephemeral) or an app it cannot judge (unreachable, refusing the valid identity — \
with the broker's code when the app passes one on —, or answering it exactly as it answers no \
identity: choose a --path whose answer depends on who signed in).";

#[derive(Debug, Args, Clone, Default)]
pub struct UpArgs {
    /// Your app's URL; the edge forwards everything outside /.nnumbers/ to it
    /// [default: the built-in demo app]
    #[arg(long, value_name = "URL")]
    pub app: Option<String>,

    /// Edge port: your app's address in the browser (0 picks a free port)
    #[arg(long, value_name = "PORT")]
    pub edge_port: Option<u16>,

    /// Broker port: NNUMBERS_BROKER_URL (0 picks a free port)
    #[arg(long, value_name = "PORT")]
    pub broker_port: Option<u16>,

    /// IAM port: the organization's sign-in (0 picks a free port)
    #[arg(long, value_name = "PORT")]
    pub iam_port: Option<u16>,

    /// QueryMesh stand-in port (0 picks a free port)
    #[arg(long, value_name = "PORT")]
    pub querymesh_port: Option<u16>,

    /// Print one JSON line on stdout once every listener accepts connections, for test
    /// harnesses: {"event":"ready","edge":…,"broker":…,"iam":…,"querymesh":…,"env":{…}}
    #[arg(long)]
    pub ready_json: bool,

    /// Do not open the browser
    #[arg(long)]
    pub no_open: bool,
}

#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// The port your app listens on, handed to it as PORT [default: a free one]
    #[arg(long, value_name = "PORT")]
    pub app_port: Option<u16>,

    /// How long the app may take to stop after Ctrl-C or SIGTERM is forwarded to it, before
    /// it is killed
    #[arg(long, value_name = "SECONDS", default_value_t = 5)]
    pub stop_timeout: u64,

    /// After this many milliseconds without the app accepting on PORT, say what `run` waits
    /// for (hidden: tests shorten it)
    #[arg(long, value_name = "MS", default_value_t = 3000, hide = true)]
    pub slow_start_hint_ms: u64,

    #[command(flatten)]
    pub up: UpArgs,

    /// Your app's command, after `--`: it gets the NNUMBERS_* variables and PORT, and the
    /// edge forwards to 127.0.0.1:PORT. `--ready-json` prints its line once the app accepts
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<OsString>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Your app's own URL, not the edge's, e.g. http://127.0.0.1:3000
    #[arg(long, value_name = "URL")]
    pub app: String,

    /// The path to probe: one whose answer depends on who signed in
    #[arg(long, value_name = "PATH", default_value = "/")]
    pub path: String,

    /// The person of the valid identity (sub, preferred_username, email or name) [default: the
    /// first configured person]
    #[arg(long = "as", value_name = "PERSON")]
    pub person: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, ValueEnum)]
pub enum EnvFormat {
    /// KEY='value' lines, for a .env file
    #[default]
    Dotenv,
    /// One JSON object
    Json,
    /// export KEY='value' lines, for `eval "$(zero-sandbox env --format shell)"`
    Shell,
}

#[derive(Debug, Args)]
pub struct EnvArgs {
    #[arg(long, value_enum, default_value_t = EnvFormat::Dotenv)]
    pub format: EnvFormat,
}

#[derive(Debug, Args)]
pub struct TokenArgs {
    /// The person: their sub, preferred_username, email or name (see zero-sandbox.toml)
    #[arg(long = "as", value_name = "PERSON")]
    pub person: String,

    /// The platform session to name in `sid` [default: a new random one, which the broker
    /// does not know]
    #[arg(long, value_name = "SID")]
    pub sid: Option<String>,

    /// Print a QueryMesh access token instead of an identity: what the IAM issues the person
    /// at sign-in (valid for an hour here), for a Trino client pointed straight at the
    /// QueryMesh port, e.g. `trino --server https://127.0.0.1:4003 --insecure
    /// --access-token "$(zero-sandbox token --as ada --querymesh)"`. It is signed with the
    /// state directory's IAM key and names the IAM of the sandbox running on it (whatever
    /// ports it picked), so run it with the same --state (or --config) as `up`
    #[arg(long, conflicts_with_all = [
        "sid", "expired", "not_yet_valid", "aud", "org", "iss", "unknown_kid",
        "bad_signature", "alg_none", "long_lived", "crit", "high_s",
    ])]
    pub querymesh: bool,

    /// The IAM the token names (the `iam` URL of `up --ready-json`) [default: the sandbox
    /// running on this state directory, else the configured IAM port]
    #[arg(long, value_name = "URL")]
    pub iam: Option<String>,

    /// Forge: expired (exp 10 minutes ago)
    #[arg(long)]
    pub expired: bool,
    /// Forge: not valid until 10 minutes from now
    #[arg(long)]
    pub not_yet_valid: bool,
    /// Forge: issued for another application
    #[arg(long, value_name = "APP_ID")]
    pub aud: Option<String>,
    /// Forge: another organization
    #[arg(long, value_name = "ORG_ID")]
    pub org: Option<String>,
    /// Forge: another issuer
    #[arg(long, value_name = "ISSUER")]
    pub iss: Option<String>,
    /// Forge: signed by a key that is not published
    #[arg(long)]
    pub unknown_kid: bool,
    /// Forge: a signature that does not verify
    #[arg(long)]
    pub bad_signature: bool,
    /// Forge: alg "none" and no signature
    #[arg(long)]
    pub alg_none: bool,
    /// Forge: valid for an hour instead of the platform's 5 minutes
    #[arg(long)]
    pub long_lived: bool,
    /// Forge: a `crit` header naming an extension nobody understands (RFC 7515 §4.1.11)
    #[arg(long)]
    pub crit: bool,
    /// Forge: the high-S twin of the real signature (valid ECDSA, not the canonical form)
    #[arg(long)]
    pub high_s: bool,
}

impl TokenArgs {
    pub fn forgeries(&self) -> Vec<Forgery> {
        let mut f = Vec::new();
        if self.expired {
            f.push(Forgery::Expired);
        }
        if self.not_yet_valid {
            f.push(Forgery::NotYetValid);
        }
        if let Some(aud) = &self.aud {
            f.push(Forgery::Audience(aud.clone()));
        }
        if let Some(org) = &self.org {
            f.push(Forgery::Organization(org.clone()));
        }
        if let Some(iss) = &self.iss {
            f.push(Forgery::Issuer(iss.clone()));
        }
        if self.unknown_kid {
            f.push(Forgery::UnknownKid);
        }
        if self.bad_signature {
            f.push(Forgery::BadSignature);
        }
        if self.alg_none {
            f.push(Forgery::AlgNone);
        }
        if self.long_lived {
            f.push(Forgery::LongLived);
        }
        if self.crit {
            f.push(Forgery::Critical);
        }
        if self.high_s {
            f.push(Forgery::HighS);
        }
        f
    }
}

impl Cli {
    /// Parses the command line, exiting with clap's usage error when it does not parse. The
    /// common flags (--config, --state, --ephemeral) go before or after a subcommand; `up`'s
    /// own flags before another subcommand are refused rather than silently ignored.
    pub fn parse_checked() -> Self {
        let cli = Self::parse();
        if let Some(message) = cli.misplaced_up_flag() {
            Self::command()
                .error(ErrorKind::ArgumentConflict, message)
                .exit();
        }
        cli
    }

    fn misplaced_up_flag(&self) -> Option<String> {
        let subcommand = match self.command.as_ref()? {
            Command::Up(_) => "up",
            Command::Env(_) => "env",
            Command::Token(_) => "token",
            Command::Run(_) => "run",
            Command::Check(_) => "check",
            Command::Tpch(_) => "tpch",
        };
        let up = &self.up;
        let (_, flag) = [
            (up.app.is_some(), "--app"),
            (up.edge_port.is_some(), "--edge-port"),
            (up.broker_port.is_some(), "--broker-port"),
            (up.iam_port.is_some(), "--iam-port"),
            (up.querymesh_port.is_some(), "--querymesh-port"),
            (up.ready_json, "--ready-json"),
            (up.no_open, "--no-open"),
        ]
        .into_iter()
        .find(|(given, _)| *given)?;
        if subcommand == "run" {
            // `run` takes `up`'s flags itself, after its name.
            return Some(format!(
                "{flag} goes after `run`: write `zero-sandbox run {flag} … -- CMD`"
            ));
        }
        Some(format!(
            "{flag} is a flag of `up`, given before `{subcommand}`: write `zero-sandbox up {flag} …` \
             (or leave out the subcommand)"
        ))
    }

    /// The configuration file, the state directory and (for `up`) the flags, validated.
    pub fn config(&self) -> Result<Config, ConfigError> {
        let mut config = Config::load(self.common.config.as_deref())?;
        config.state_dir = if self.common.ephemeral {
            None
        } else {
            match self.common.state.clone().or_else(default_state_dir) {
                Some(dir) => Some(dir),
                None => {
                    return Err(ConfigError::Invalid {
                        origin: "command line".into(),
                        message: "no data directory is known for this user: choose one with --state DIR, or use --ephemeral".into(),
                    });
                }
            }
        };
        let up = match &self.command {
            Some(Command::Up(up)) => up,
            Some(Command::Run(run)) => &run.up,
            _ => &self.up,
        };
        if let Some(app) = &up.app {
            config.app.url = Some(app.clone());
        }
        let ports = &mut config.ports;
        for (flag, port) in [
            (up.edge_port, &mut ports.edge),
            (up.broker_port, &mut ports.broker),
            (up.iam_port, &mut ports.iam),
            (up.querymesh_port, &mut ports.querymesh),
        ] {
            if let Some(p) = flag {
                *port = p;
            }
        }
        config.revalidate("command line")?;
        Ok(config)
    }

    pub fn up_args(&self) -> UpArgs {
        match &self.command {
            Some(Command::Up(up)) => up.clone(),
            Some(Command::Run(run)) => run.up.clone(),
            _ => self.up.clone(),
        }
    }
}

/// Whether log lines carry ANSI colours: only when they go to a terminal, and never when
/// `NO_COLOR` is set to anything but the empty string (https://no-color.org). A log
/// redirected to a file (`zero-sandbox up > up.log 2>&1`) reads as plain text.
pub fn log_colours(to_terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    to_terminal && no_color.is_none_or(|value| value.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Cli {
        let mut argv = vec!["zero-sandbox"];
        argv.extend_from_slice(args);
        Cli::try_parse_from(argv).expect("parses")
    }

    #[test]
    fn common_flags_go_before_or_after_the_subcommand() {
        for args in [
            &["--state", "/tmp/s", "up", "--edge-port", "0"][..],
            &["up", "--state", "/tmp/s", "--edge-port", "0"][..],
            &["--state", "/tmp/s", "env"][..],
            &["env", "--state", "/tmp/s"][..],
        ] {
            let cli = parse(args);
            assert_eq!(cli.common.state, Some(PathBuf::from("/tmp/s")), "{args:?}");
            assert_eq!(cli.misplaced_up_flag(), None, "{args:?}");
        }
        assert_eq!(
            parse(&["--state", "/tmp/s", "up", "--edge-port", "0"])
                .up_args()
                .edge_port,
            Some(0)
        );
    }

    #[test]
    fn up_flags_without_a_subcommand_start_the_sandbox() {
        let cli = parse(&["--app", "http://127.0.0.1:3000", "--no-open"]);
        assert!(cli.command.is_none());
        assert_eq!(cli.misplaced_up_flag(), None);
        assert_eq!(cli.up_args().app.as_deref(), Some("http://127.0.0.1:3000"));
    }

    #[test]
    fn up_flags_before_a_subcommand_are_refused_by_name() {
        let message = parse(&["--app", "http://127.0.0.1:3000", "env"])
            .misplaced_up_flag()
            .expect("refused");
        assert!(
            message.contains("--app") && message.contains("`env`"),
            "{message}"
        );
        let message = parse(&["--no-open", "run", "--", "app"])
            .misplaced_up_flag()
            .expect("refused");
        assert!(message.contains("zero-sandbox run --no-open"), "{message}");
        assert!(
            parse(&[
                "run",
                "--no-open",
                "--edge-port",
                "0",
                "--",
                "app",
                "--no-open"
            ])
            .misplaced_up_flag()
            .is_none(),
            "after `run`, and the app's own flags after `--`"
        );
        assert_eq!(
            parse(&["run", "--edge-port", "0", "--", "app"])
                .up_args()
                .edge_port,
            Some(0)
        );
        let message = parse(&["--edge-port", "0", "up"])
            .misplaced_up_flag()
            .expect("refused");
        assert!(message.contains("--edge-port"), "{message}");
    }

    #[test]
    fn logs_are_coloured_only_on_a_terminal_without_no_color() {
        use std::ffi::OsStr;
        assert!(log_colours(true, None));
        assert!(
            log_colours(true, Some(OsStr::new(""))),
            "empty NO_COLOR is unset"
        );
        assert!(!log_colours(true, Some(OsStr::new("1"))));
        assert!(
            !log_colours(true, Some(OsStr::new("0"))),
            "any non-empty value"
        );
        assert!(!log_colours(false, None));
        assert!(!log_colours(false, Some(OsStr::new(""))));
    }
}
