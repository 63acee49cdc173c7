//! parse args → Config → Sandbox::start → wait for a signal → shut down.

use std::io::Write;
use std::process::ExitCode;

use zero_sandbox::cli::{Cli, Command, EnvArgs, EnvFormat, TokenArgs, UpArgs};
use zero_sandbox::identity::{Audience, IdentityIssuer, KeyRing, forge};
use zero_sandbox::sandbox::{SandboxEnv, open_keys};
use zero_sandbox::{Config, Sandbox};

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
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}

fn broker_url(config: &Config) -> String {
    format!("http://127.0.0.1:{}", config.ports.broker)
}

fn print_env(config: &Config, args: &EnvArgs) -> Result<(), String> {
    if config.ports.broker == 0 {
        eprintln!(
            "zero-sandbox: note: the broker's port is 0, so `up` picks one at start; read \
             NNUMBERS_BROKER_URL from `up --ready-json` instead"
        );
    }
    let (keys, _) = open_keys(config).map_err(|e| e.to_string())?;
    let env = SandboxEnv::new(config, &keys, &broker_url(config));
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
            .map(|p| p.preferred_username.as_deref().unwrap_or(&p.sub))
            .collect();
        format!(
            "no configured person is called {:?}; known: {}",
            args.person,
            known.join(", ")
        )
    })?;
    let (keys, iam_keys) = open_keys(config).map_err(|e| e.to_string())?;
    if args.querymesh {
        return print_querymesh_token(config, &iam_keys, person);
    }
    let issuer = IdentityIssuer {
        keys: keys.clone(),
        audience: Audience::from_config(config),
        iam_issuer: format!(
            "http://127.0.0.1:{}/realms/{}",
            config.ports.iam, config.organization.slug
        ),
    };
    let sid = args
        .sid
        .clone()
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let claims = issuer.claims(person, &sid);
    println!("{}", forge(&keys.current(), claims, &args.forgeries()));
    Ok(())
}

/// `token --querymesh`: an access token signed with the IAM key the running sandbox loads
/// from the same state directory, naming the realm at the configured IAM port.
fn print_querymesh_token(
    config: &Config,
    iam_keys: &KeyRing,
    person: &zero_sandbox::config::Person,
) -> Result<(), String> {
    if config.state_dir.is_none() {
        return Err(
            "--ephemeral keys exist only inside one run: a token made here would not \
                    verify anywhere; leave out --ephemeral (or use the same --state as `up`)"
                .into(),
        );
    }
    if config.ports.iam == 0 {
        return Err(
            "the IAM port is 0, picked only when the sandbox starts, so the token's \
                    issuer is unknown: set [ports] iam (or use the default 4002)"
                .into(),
        );
    }
    let realm_url = format!(
        "http://127.0.0.1:{}/realms/{}",
        config.ports.iam, config.organization.slug
    );
    let token = zero_sandbox::iam::querymesh_access_token(
        &iam_keys.current(),
        &realm_url,
        person,
        zero_sandbox::identity::unix_now(),
    );
    println!("{token}");
    Ok(())
}

fn run_up(config: Config, args: UpArgs) -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new().map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let demo = config.app.url.is_none();
        let sandbox = Sandbox::start(config).await.map_err(|e| e.to_string())?;
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
    let shared = sandbox.shared();
    let app = if demo {
        "the built-in demo app (use --app URL for yours)".to_string()
    } else {
        shared.app_url.clone()
    };
    let env = sandbox.env();
    let key_count = shared.identity.keys.published().len();
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
        slug = shared.config.organization.slug,
        app_id = env.app_id,
        edge = e.edge_url(),
        broker = e.broker_url(),
        realm = shared.realm_url(),
        querymesh = shared.querymesh_url(),
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
