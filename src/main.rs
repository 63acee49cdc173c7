//! parse args → Config → Sandbox::start → wait for a signal → shut down.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use zero_sandbox::cli::{Cli, Command, EnvArgs, EnvFormat, TokenArgs, UpArgs, log_colours};
use zero_sandbox::identity::{Audience, IdentityIssuer, KeyRing, forge};
use zero_sandbox::running::{self, Running};
use zero_sandbox::sandbox::open_keys;
use zero_sandbox::{Config, Sandbox, SandboxEnv};

fn main() -> ExitCode {
    zero_sandbox::querymesh::memory::limit_arenas();
    let cli = Cli::parse_checked();
    init_logging();
    let result = cli
        .config()
        .map_err(|e| e.to_string())
        .and_then(|config| match &cli.command {
            Some(Command::Env(args)) => print_env(&config, args),
            Some(Command::Token(args)) => print_token(&config, args),
            Some(Command::Up(_)) | None => run_up(config, cli.up_args()),
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("zero-sandbox: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Logs go to stderr (stdout is for --ready-json and printed values); RUST_LOG overrides.
fn init_logging() {
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

/// So the listeners' connection caps, not the file descriptors, are what refuse under load.
fn raise_open_file_limit(config: &Config) {
    // Five listeners (the demo app's too) at their cap, an onward connection for each of
    // the edge's, and room for the rest.
    let wanted = 7 * config.listeners.max_connections as u64 + 256;
    match zero_sandbox::listener::raise_open_file_limit() {
        Ok(limit) if limit < wanted => tracing::warn!(
            limit,
            "the open-file limit is low: a flood of connections may exhaust it before the \
             listeners' caps refuse; raise it (ulimit -n) to at least {wanted}"
        ),
        Ok(limit) => tracing::debug!(limit, "open-file limit"),
        Err(e) => tracing::debug!(error = %e, "cannot raise the open-file limit"),
    }
}

/// The sandbox `up` runs on this configuration's state directory, if one does.
fn running(config: &Config) -> Option<Running> {
    config.state_dir.as_deref().and_then(running::find)
}

fn print_env(config: &Config, args: &EnvArgs) -> Result<(), String> {
    let broker_url = match running(config) {
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
    let (keys, _) = open_keys(config).map_err(|e| e.to_string())?;
    let env = SandboxEnv::new(config, &keys, &broker_url);
    let text = match args.format {
        EnvFormat::Dotenv => env.to_dotenv(),
        EnvFormat::Shell => env.to_shell(),
        EnvFormat::Json => env.to_json() + "\n",
    };
    print!("{text}");
    Ok(())
}

fn print_token(config: &Config, args: &TokenArgs) -> Result<(), String> {
    let person = config.person(&args.person).ok_or_else(|| {
        let known: Vec<_> = config
            .people
            .iter()
            .map(|p| p.profile.preferred_username.as_deref().unwrap_or(&p.sub))
            .collect();
        format!(
            "no configured person is called {:?}; known: {}",
            args.person,
            known.join(", ")
        )
    })?;
    let (keys, iam_keys) = open_keys(config).map_err(|e| e.to_string())?;
    let iam_url = iam_url(config, args)?;
    let realm_url = format!("{iam_url}/realms/{}", config.organization.slug);
    if args.querymesh {
        return print_querymesh_token(config, &iam_keys, person, &realm_url);
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
    println!("{}", forge(&keys.current(), claims, &args.forgeries()));
    Ok(())
}

/// Where the IAM of the sandbox a token is for listens: `--iam`, else the sandbox running on
/// this state directory, else the configured port.
fn iam_url(config: &Config, args: &TokenArgs) -> Result<String, String> {
    if let Some(url) = &args.iam {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(format!("--iam {url:?} must be an http:// or https:// URL"));
        }
        return Ok(url.trim_end_matches('/').to_string());
    }
    if let Some(running) = running(config) {
        return Ok(format!("http://{}", running.iam));
    }
    if config.ports.iam == 0 {
        return Err(
            "the IAM port is 0, picked only when the sandbox starts, and no sandbox runs on \
             this state directory: pass --iam with the `iam` URL of its --ready-json line"
                .into(),
        );
    }
    Ok(format!("http://127.0.0.1:{}", config.ports.iam))
}

/// `token --querymesh`: an access token signed with the IAM key the running sandbox loads
/// from the same state directory, naming its realm.
fn print_querymesh_token(
    config: &Config,
    iam_keys: &KeyRing,
    person: &zero_sandbox::config::Person,
    realm_url: &str,
) -> Result<(), String> {
    if config.state_dir.is_none() {
        return Err(
            "--ephemeral keys exist only inside one run: a token made here would not \
                    verify anywhere; leave out --ephemeral (or use the same --state as `up`)"
                .into(),
        );
    }
    let token = zero_sandbox::iam::querymesh_access_token(
        &iam_keys.current(),
        realm_url,
        person,
        zero_sandbox::identity::unix_now(),
    );
    println!("{token}");
    Ok(())
}

fn run_up(config: Config, args: UpArgs) -> Result<(), String> {
    raise_open_file_limit(&config);
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let demo = config.app.url.is_none();
        let state_dir = config.state_dir.clone();
        let sandbox = Sandbox::start(config).await.map_err(|e| e.to_string())?;
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
            print_banner(&sandbox, demo);
            if !args.no_open {
                let url = sandbox.endpoints().edge_url();
                if let Err(e) = open::that_detached(&url) {
                    tracing::info!("could not open a browser ({e}); open {url} yourself");
                }
            }
        }
        wait_for_signal().await;
        tracing::info!("shutting down");
        sandbox.shutdown().await;
        Ok(())
    })
}

fn print_banner(sandbox: &Sandbox, demo: bool) {
    let e = sandbox.endpoints();
    let app = if demo {
        "the built-in demo app (use --app URL for yours)".to_string()
    } else {
        sandbox.app_url().to_string()
    };
    let env = sandbox.env();
    let key_count = sandbox.identity().keys.published().len();
    println!(
        "\nzero-sandbox is up: organization {slug}, app {app_id}\n\n  \
         Your app (edge)  {edge}   <- open this\n  \
         Forwarding to    {app}\n  \
         Broker           {broker}\n  \
         IAM sign-in      {realm}\n  \
         QueryMesh        {querymesh}\n\n\
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
        org = env.org_id,
        iss = env.identity_issuer,
    );
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
