//! `zero-sandbox run [--app-port N] -- CMD…`: the sandbox, and the app behind it as a child.
//!
//! The sandbox starts first (so the app's environment names its real broker), then the app
//! with exactly the `NNUMBERS_*` variables `env` prints plus `PORT`, in a process group of its
//! own so a signal reaches what it starts too (`npm run dev` → node). Once the app's port
//! accepts, the browser opens (or the `--ready-json` line is printed: stdout's first line,
//! the app's stdout held until then, see [`super::prefixed`]). An app that does not listen
//! within [`RunArgs::slow_start_hint_ms`] (3 s) is told, once, that it must listen on
//! `PORT`. Ctrl-C or SIGTERM is
//! forwarded to the group, which gets `--stop-timeout` to exit before it is killed; when the
//! app exits by itself the sandbox stops too. `run` exits with the app's status (a signal n is
//! 128+n, as a shell reports it) and restarts nothing.
//!
//! The app's stdin is not the terminal: a process outside the foreground group that reads the
//! terminal is stopped (SIGTTIN), so it gets none.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::process::Child;
use tokio::task::JoinHandle;

use super::CommandError;
use super::prefixed::{Output, Source};
use super::up::{banner, lock_state_dir, raise_open_file_limit};
use crate::cli::{RunArgs, log_colours};
use crate::config::Config;
use crate::platform::SandboxEnv;
use crate::running;
use crate::sandbox::Sandbox;

/// How long the app's output may still flow after it exited (a grandchild holding its pipes).
const DRAIN: Duration = Duration::from_secs(1);
/// The app's stdout held before the `--ready-json` line at most: a chatty start-up fits, an
/// app that floods stdout before listening cannot grow `run`'s memory.
const HELD_STDOUT: usize = 1024 * 1024;

pub const SIGINT: i32 = 2;
pub const SIGTERM: i32 = 15;
const SIGKILL: i32 = 9;

/// Runs the sandbox and the app until the app exits; the app's exit status.
pub fn run(config: Config, args: &RunArgs) -> Result<u8, CommandError> {
    if args.up.app.is_some() {
        return Err(CommandError::RunWithApp);
    }
    let no_color = std::env::var_os("NO_COLOR");
    let (out_terminal, err_terminal) = (
        std::io::stdout().is_terminal(),
        std::io::stderr().is_terminal(),
    );
    let colour_err = log_colours(err_terminal, no_color.as_deref());
    let output = Output::new(
        Box::new(std::io::stdout()),
        Box::new(std::io::stderr()),
        log_colours(out_terminal, no_color.as_deref()),
        colour_err,
        out_terminal && err_terminal,
    );
    super::logging::init_with(output.clone(), colour_err);
    if args.up.ready_json {
        output.hold_stdout(HELD_STDOUT);
    }
    raise_open_file_limit(&config);
    let _lock = lock_state_dir(&config)?;
    let runtime = super::runtime()?;
    runtime.block_on(supervise(config, args, output))
}

async fn supervise(mut config: Config, args: &RunArgs, output: Output) -> Result<u8, CommandError> {
    // Before anything starts, so a signal during start-up is forwarded, not fatal.
    let mut signals = Signals::new().map_err(CommandError::Runtime)?;
    let port = app_port(args.app_port)?;
    config.app.url = Some(format!("http://127.0.0.1:{port}"));
    let state_dir = config.state_dir.clone();
    let sandbox = Sandbox::start(config).await?;
    // So `token` and `env` on this state directory describe this sandbox, as under `up`.
    let _record = state_dir.and_then(|dir| {
        running::record(&dir, sandbox.endpoints())
            .map_err(|e| tracing::warn!("{e}"))
            .ok()
    });
    let mut app = match App::spawn(&args.command, &sandbox.env(), port, &output) {
        Ok(app) => app,
        Err(e) => {
            let _ = output.release(None);
            sandbox.shutdown().await;
            return Err(e);
        }
    };
    if !args.up.ready_json {
        let _ = output.write(
            Source::SandboxOut,
            format!("{}\n", banner(&sandbox, false)).as_bytes(),
        );
    }
    tracing::info!(
        "started the app (pid {}); waiting for it to accept on 127.0.0.1:{port}",
        app.pgid
    );

    let grace = Duration::from_secs(args.stop_timeout);
    let hint_after = Duration::from_millis(args.slow_start_hint_ms);
    let waiting = accepting(port, hint_after, &output);
    tokio::pin!(waiting);
    let mut accepted = false;
    let status = loop {
        let event = tokio::select! {
            status = app.child.wait() => Event::Exited(status),
            signal = signals.recv() => Event::Signal(signal),
            () = &mut waiting, if !accepted => Event::Accepting,
        };
        match event {
            Event::Accepting => {
                accepted = true;
                announce(&sandbox, args, port, &output);
            }
            Event::Signal(signal) => break app.stop(signal, &mut signals, grace).await,
            Event::Exited(status) => {
                if !accepted {
                    tracing::warn!(
                        "the app exited before it accepted connections on 127.0.0.1:{port}"
                    );
                }
                break status;
            }
        }
    };
    let code = match status {
        Ok(status) => exit_code(status),
        Err(e) => {
            tracing::error!("cannot tell how the app exited: {e}");
            1
        }
    };
    app.finish(grace).await;
    // The app never accepted: what it wrote to stdout, without a ready line.
    let _ = output.release(None);
    tracing::info!("the app exited with status {code}; stopping the sandbox");
    sandbox.shutdown().await;
    Ok(code)
}

enum Event {
    Exited(std::io::Result<ExitStatus>),
    Signal(i32),
    Accepting,
}

/// `--app-port N`, else a free port. Picked here and bound by the app: `PORT` is a number, not
/// a socket, so this is the one place a port is chosen before it is bound (pin it with
/// `--app-port` if another program may grab it in between).
fn app_port(requested: Option<u16>) -> Result<u16, CommandError> {
    match requested {
        Some(port) if port != 0 => Ok(port),
        _ => std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .map_err(CommandError::AppPort),
    }
}

/// Once the app accepts: the ready line (then the app's stdout held until now), or the
/// browser on the edge.
fn announce(sandbox: &Sandbox, args: &RunArgs, port: u16, output: &Output) {
    let edge = sandbox.endpoints().edge_url();
    if args.up.ready_json {
        let _ = output.release(Some(format!("{}\n", sandbox.ready_json()).as_bytes()));
        return;
    }
    tracing::info!("the app accepts on 127.0.0.1:{port}: open {edge}");
    if !args.up.no_open
        && let Err(e) = open::that_detached(&edge)
    {
        tracing::info!("could not open a browser ({e}); open {edge} yourself");
    }
}

/// Resolves once 127.0.0.1:`port` accepts a connection; never gives up (an app may compile
/// first), but after `hint_after` says once, on stderr, what it waits for: the commonest
/// newcomer's mistake is an app listening on a port of its own choosing, not `PORT`.
async fn accepting(port: u16, hint_after: Duration, output: &Output) {
    let started = tokio::time::Instant::now();
    let mut pause = Duration::from_millis(10);
    let mut hinted = false;
    loop {
        if tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
        {
            return;
        }
        if !hinted && started.elapsed() >= hint_after {
            hinted = true;
            let _ = output.write(
                Source::Sandbox,
                slow_start_hint(port, started.elapsed()).as_bytes(),
            );
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// What `run` says when the app has not listened for `waited`: the port, and that it is PORT.
fn slow_start_hint(port: u16, waited: Duration) -> String {
    format!(
        "still waiting for the app to accept connections on 127.0.0.1:{port} ({:.0} s so far).\n\
         Your app must listen on the port in its PORT environment variable (here PORT={port}), \
         on 127.0.0.1 or 0.0.0.0, e.g. `server.listen(process.env.PORT)` or \
         `int(os.environ[\"PORT\"])`; one listening on a port of its own is never reached.\n",
        waited.as_secs_f64()
    )
}

/// The app's exit status as a shell reports it: its code, or 128 + the signal that ended it.
pub fn exit_code(status: ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        return u8::try_from(code & 0xff).unwrap_or(1);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return u8::try_from(128 + signal).unwrap_or(255);
        }
    }
    1
}

/// The app's process, its group and the tasks forwarding its output.
struct App {
    child: Child,
    /// Its process group's id: its own pid (`process_group(0)`).
    pgid: u32,
    forwarders: Vec<JoinHandle<()>>,
}

impl App {
    fn spawn(
        command: &[OsString],
        env: &SandboxEnv,
        port: u16,
        output: &Output,
    ) -> Result<Self, CommandError> {
        let Some((program, args)) = command.split_first() else {
            return Err(CommandError::AppSpawn {
                program: String::new(),
                source: std::io::Error::from(std::io::ErrorKind::InvalidInput),
                hint: " (give the app's command after `--`)",
            });
        };
        let mut cmd = tokio::process::Command::new(program);
        cmd.args(args)
            .envs(env.vars())
            .env("PORT", port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A safety net should `run` itself unwind early: never leave the app behind.
            .kill_on_drop(true);
        #[cfg(unix)]
        cmd.process_group(0);
        let mut child = cmd.spawn().map_err(|source| CommandError::AppSpawn {
            program: program.to_string_lossy().into_owned(),
            hint: match source.kind() {
                std::io::ErrorKind::NotFound => " (is it installed, and on PATH?)",
                std::io::ErrorKind::PermissionDenied => " (is it executable?)",
                _ => "",
            },
            source,
        })?;
        let pgid = child.id().unwrap_or(0);
        let mut forwarders = Vec::new();
        if let Some(stdout) = child.stdout.take() {
            forwarders.push(forward(stdout, output.clone(), Source::AppOut));
        }
        if let Some(stderr) = child.stderr.take() {
            forwarders.push(forward(stderr, output.clone(), Source::AppErr));
        }
        Ok(Self {
            child,
            pgid,
            forwarders,
        })
    }

    /// Forwards `signal` to the app's group and waits up to `grace` for it to exit; then, or
    /// at a second signal, kills the group.
    async fn stop(
        &mut self,
        signal: i32,
        signals: &mut Signals,
        grace: Duration,
    ) -> std::io::Result<ExitStatus> {
        let name = if signal == SIGINT {
            "SIGINT"
        } else {
            "SIGTERM"
        };
        tracing::info!(
            "forwarding {name} to the app; it has {} s to stop",
            grace.as_secs()
        );
        if !signal_group(self.pgid, signal) {
            let _ = self.child.start_kill();
        }
        let deadline = tokio::time::sleep(grace);
        tokio::select! {
            status = self.child.wait() => return status,
            () = deadline => tracing::warn!(
                "the app did not stop within {} s of {name}: killing it", grace.as_secs()
            ),
            _ = signals.recv() => tracing::warn!("a second signal: killing the app"),
        }
        if !signal_group(self.pgid, SIGKILL) {
            let _ = self.child.start_kill();
        }
        self.child.wait().await
    }

    /// After the app's own process exited: what it left in its group is asked to stop, its
    /// output drained for a moment, and whatever still holds the pipes killed.
    async fn finish(self, grace: Duration) {
        signal_group(self.pgid, SIGTERM);
        let forwarders = futures_util::future::join_all(self.forwarders);
        let waited =
            tokio::time::timeout(DRAIN.min(grace.max(Duration::from_millis(100))), forwarders)
                .await;
        if waited.is_err() {
            signal_group(self.pgid, SIGKILL);
        }
    }
}

/// Copies one of the app's pipes to the shared output until it closes. A write that fails (our
/// own stdout closed) is dropped, so the app never blocks on a full pipe.
fn forward<R>(mut reader: R, output: Output, source: Source) -> JoinHandle<()>
where
    R: AsyncRead + Unpin + Send + 'static,
{
    tokio::spawn(async move {
        let mut buffer = vec![0; 8192];
        loop {
            match reader.read(&mut buffer).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let _ = output.write(source, &buffer[..n]);
                }
            }
        }
        let _ = output.end_line(source);
    })
}

/// Sends `signal` to the process group `pgid`; false when there is no such group.
#[cfg(unix)]
fn signal_group(pgid: u32, signal: i32) -> bool {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else {
        return false;
    };
    // pgid 0 or 1 would mean our own group or every process: never signal those.
    if pgid <= 1 {
        return false;
    }
    // SAFETY: killpg has no memory effects; the group is the app's own (`process_group(0)`).
    unsafe { libc::killpg(pgid, signal) == 0 }
}

#[cfg(not(unix))]
fn signal_group(_pgid: u32, _signal: i32) -> bool {
    false
}

/// Ctrl-C (SIGINT) and SIGTERM, from the moment they are registered.
struct Signals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> std::io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Self {
                interrupt: signal(SignalKind::interrupt())?,
                terminate: signal(SignalKind::terminate())?,
            })
        }
        #[cfg(not(unix))]
        Ok(Self {})
    }

    /// The next signal's number.
    async fn recv(&mut self) -> i32 {
        #[cfg(unix)]
        {
            tokio::select! {
                Some(()) = self.interrupt.recv() => SIGINT,
                Some(()) = self.terminate.recv() => SIGTERM,
                else => std::future::pending().await,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            SIGINT
        }
    }
}
