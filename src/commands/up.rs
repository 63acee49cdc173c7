//! `zero-sandbox up` (the default command): the whole sandbox, until SIGINT or SIGTERM.

use std::io::Write;

use super::CommandError;
use crate::cli::UpArgs;
use crate::config::Config;
use crate::running;
use crate::sandbox::Sandbox;

/// Starts the sandbox on `config`, announces it (the banner, or one `--ready-json` line on
/// stdout), serves until a signal, then shuts down.
pub fn run(config: Config, args: UpArgs) -> Result<(), CommandError> {
    raise_open_file_limit(&config);
    let _lock = lock_state_dir(&config)?;
    let runtime = super::runtime()?;
    runtime.block_on(async move {
        let demo = config.app.url.is_none();
        let state_dir = config.state_dir.clone();
        let signalled = wait_for_signal();
        let sandbox = Sandbox::start(config).await?;
        // So `token` and `env` on this state directory describe this sandbox's ports.
        let _record = state_dir.and_then(|dir| {
            running::record(&dir, sandbox.endpoints())
                .map_err(|e| tracing::warn!("{e}"))
                .ok()
        });
        if args.ready_json {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", sandbox.ready_json());
            let _ = out.flush();
        } else {
            println!("{}", banner(&sandbox, demo));
            if !args.no_open {
                let url = sandbox.endpoints().edge_url();
                if let Err(e) = open::that_detached(&url) {
                    tracing::info!("could not open a browser ({e}); open {url} yourself");
                }
            }
        }
        signalled.await;
        tracing::info!("shutting down");
        sandbox.shutdown().await;
        Ok(())
    })
}

/// Holds the state directory for as long as this process runs (none with `--ephemeral`): a
/// second sandbox on it is refused, naming the first ([`crate::state_dir::lock`]).
pub fn lock_state_dir(
    config: &Config,
) -> Result<Option<crate::state_dir::lock::StateLock>, CommandError> {
    let dir = config.state_dir.as_deref();
    Ok(dir.map(crate::state_dir::lock::lock).transpose()?)
}

/// Raises the open-file limit (if nothing did yet) and says what it allows: the listeners'
/// caps are sized from it ([`crate::listener::max_connections_for`]).
pub fn raise_open_file_limit(config: &Config) {
    let limit = crate::listener::open_file_limit();
    let cap = config.listeners.max_connections;
    if cap < crate::listener::limits::COMFORTABLE {
        tracing::warn!(
            limit,
            cap,
            "the open-file limit is low: each listener serves at most {cap} connections at \
             once; raise it (ulimit -n) to at least 2,700 for 256"
        );
    } else {
        tracing::debug!(limit, cap, "open-file limit and each listener's cap");
    }
}

/// What `up` prints once the sandbox runs (without `--ready-json`): where everything is and
/// the app's environment. `demo`: the built-in demo app is behind the edge.
pub fn banner(sandbox: &Sandbox, demo: bool) -> String {
    let e = sandbox.endpoints();
    let app = if demo {
        "the built-in demo app (use --app URL for yours)".to_string()
    } else {
        sandbox.app_url().to_string()
    };
    let env = sandbox.env();
    let key_count = sandbox.identity().keys.published().len();
    // Which data policies shape what people see: otherwise a person seeing fewer rows than
    // Trino would show looks like a bug in the app.
    let policies = match sandbox.data_policies() {
        Some(policies) => policies.headline(&sandbox.config().people),
        None => format!("those of the Trino at {}", sandbox.querymesh_url()),
    };
    format!(
        "\nzero-sandbox is up: organization {slug}, app {app_id}\n\n  \
         Your app (edge)  {edge}   <- open this\n  \
         Forwarding to    {app}\n  \
         Broker           {broker}\n  \
         IAM sign-in      {realm}\n  \
         QueryMesh        {querymesh}\n  \
         Data policies    {policies}\n  \
         Test control     {control}\n  \
         Console          {console}   <- see and steer the sandbox\n\n\
         Your app's environment (print it any time with `zero-sandbox env`):\n  \
         NNUMBERS_APP_ID={app_id}\n  \
         NNUMBERS_ORG_ID={org}\n  \
         NNUMBERS_IDENTITY_ISSUER={iss}\n  \
         NNUMBERS_IDENTITY_JWKS=<{key_count} key(s): `zero-sandbox env` prints the JSON>\n  \
         NNUMBERS_BROKER_URL={broker}\n\n\
         Next: open {edge}, sign in, and look at the X-NNumbers-Identity your app receives.\n\
         Ctrl-C stops everything.\n",
        slug = sandbox.config().organization.slug,
        app_id = env.app_id,
        edge = e.edge_url(),
        broker = e.broker_url(),
        realm = sandbox.realm_url(),
        querymesh = sandbox.querymesh_url(),
        control = e.control_url(),
        console = e.console_url(),
        org = env.org_id,
        iss = env.identity_issuer,
    )
}

/// Until Ctrl-C (SIGINT) or, on Unix, SIGTERM (what CI and process managers send). The
/// handlers are installed when this is called, not when it is first awaited: `up` calls it
/// before announcing itself, so a SIGTERM sent the moment the ready line is read stops it
/// cleanly instead of killing it with the signal's default action.
pub fn wait_for_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let handlers = {
        use tokio::signal::unix::{SignalKind, signal};
        signal(SignalKind::interrupt()).and_then(|i| Ok((i, signal(SignalKind::terminate())?)))
    };
    async move {
        #[cfg(unix)]
        if let Ok((mut interrupt, mut term)) = handlers {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = term.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}
