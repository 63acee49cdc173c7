//! zero-sandbox: the NNumbers platform on a laptop.
//!
//! # Layout
//!
//! A request flows through the components the way it does on the platform:
//!
//! - [`edge`]: the app's address. Serves `/.nnumbers/*` (sign-in, sign-out, session, context)
//!   and reverse-proxies everything else to the app with a fresh signed identity, on threads
//!   of its own (each its own runtime and its own connections to the app).
//! - [`iam`]: the organization's IAM, Keycloak-shaped: sign-in page, SSO, OIDC tokens.
//! - [`broker`]: what the app's backend calls: the identity's JWKS, and queries to QueryMesh
//!   on behalf of the person who signed in, with every refusal of the spec.
//! - [`querymesh`]: a Trino-protocol stand-in with `tpch.tiny` built in: `querymesh::server`
//!   speaks Trino's client protocol over HTTP, `querymesh::engine` runs Trino SQL on SQLite
//!   and knows nothing of HTTP.
//! - [`control`]: the test-control API under `/sandbox/v1/` on the broker's listener
//!   (loopback only): sessions without a browser, people, switches, fault rules, keys, the
//!   clock, reset and the event journal, over the platform core's handles.
//! - [`demo`]: the built-in app behind the edge when no `--app` is given, built from the
//!   `NNUMBERS_*` environment only, as any app is.
//!
//! Below the components, what they share without knowing each other:
//!
//! - [`platform`]: the platform core, what one process must share: platform sessions (the
//!   edge creates them, the broker consults them, the IAM ends them), the switches, the
//!   endpoints and the app's environment.
//! - [`reserved_paths`]: the one table of the spec's reserved `/.nnumbers/` paths (the edge
//!   serves them, the IAM redirects to the callback, refusals name the login path).
//! - [`identity`]: the ES256 keys and the signed identity (the edge signs, the broker and the
//!   demo verify).
//! - [`oidc`]: the OpenID contract between the platform and the IAM; [`http`]: the client.
//! - [`listener`]: HTTP/1 on each listener, with header, idle and body deadlines and a cap on
//!   connections sized from the open-file limit, making room at it; [`heap`]: the C heap given back when the process goes quiet;
//!   [`bounded`]: the cap on every in-memory store; [`html`]: the one escape;
//!   [`web_assets`]: the pages embedded from `web/` that are served as they are.
//! - [`route_table`]: routers built from one table of endpoints, so the broker's and the
//!   control API's routes can be listed (their OpenAPI document is checked against them).
//! - [`config`] and [`cli`]: one validated configuration before anything runs; the person's
//!   optional profile claims are one type there ([`config::Profile`]).
//!
//! Above them all, [`sandbox`] binds every listener, builds each component from its own part
//! of the configuration plus the platform handles it needs, serves, and shuts down; it
//! depends on every component and none depends on it. [`running`]: what a running `up`
//! records in its state directory for the other commands; [`state_dir`]: the state files
//! read only as regular files, and the lock that keeps one `up` per directory.
//!
//! On top, [`commands`]: the CLI's commands (`up`, `run`, `env`, `token`, `check`, and the
//! logging and prefixed output they share) as library functions; `main.rs` only parses, loads
//! the configuration and dispatches to them.

pub mod bounded;
pub mod broker;
pub mod cli;
pub mod commands;
pub mod config;
pub mod control;
pub mod data_policies;
pub mod demo;
pub mod edge;
pub mod heap;
pub mod html;
pub mod http;
pub mod iam;
pub mod identity;
pub mod listener;
pub mod oidc;
pub mod platform;
pub mod querymesh;
pub mod reserved_paths;
pub mod route_table;
pub mod running;
pub mod sandbox;
pub mod state_dir;
#[cfg(test)]
mod test_support;
pub mod web_assets;

/// Every Rust allocation is counted per thread, so a query's aggregates are charged what their
/// state holds (querymesh/engine/memory). A dependent that sets its own global allocator
/// cannot link this library: aggregates would otherwise run unbounded.
#[global_allocator]
static ALLOCATOR: querymesh::engine::memory::CountingAllocator =
    querymesh::engine::memory::CountingAllocator;

pub use config::Config;
pub use platform::{Endpoints, SandboxEnv};
pub use sandbox::{Sandbox, StartError};
