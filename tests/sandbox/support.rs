//! What every integration test needs: a sandbox on ephemeral ports and an HTTP client.

#![allow(dead_code)]

use zero_sandbox::{Config, Sandbox};

/// The built-in configuration on port 0 with in-memory keys.
pub fn test_config() -> Config {
    Config::builtin().with_ephemeral_ports()
}

pub async fn start() -> Sandbox {
    start_with(test_config()).await
}

pub async fn start_with(config: Config) -> Sandbox {
    Sandbox::start(config).await.expect("the sandbox starts")
}

/// A client that does not follow redirects, so each hop can be checked.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client")
}

/// The path of the binary under test.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_zero-sandbox")
}
