//! zero-sandbox: the NNumbers platform on a laptop.
//!
//! # Layout
//!
//! A request flows through the components the way it does on the platform:
//!
//! - [`edge`]: the app's address. Serves `/.nnumbers/*` (sign-in, sign-out, session, context)
//!   and reverse-proxies everything else to the app with a fresh signed identity.
//! - [`iam`]: the organization's IAM, Keycloak-shaped: sign-in page, SSO, OIDC tokens.
//! - [`broker`]: what the app's backend calls: the identity's JWKS, and queries to QueryMesh
//!   on behalf of the person who signed in, with every refusal of the spec.
//! - [`querymesh`]: a Trino-protocol stand-in over SQLite with `tpch.tiny` built in.
//! - [`identity`]: the ES256 keys and the signed identity, shared by edge and broker.
//! - [`session`]: platform sessions, the one state edge and broker share directly.
//! - [`oidc`]: the OpenID contract between the platform and the IAM; [`http`]: the client.
//! - [`sandbox`]: binds every listener, builds each component, serves, shuts down.
//! - [`listener`]: HTTP/1 on each listener, with header, idle and body deadlines and a cap on
//!   connections.
//! - [`config`] and [`cli`]: one validated configuration before anything runs; [`running`]:
//!   what a running `up` records in its state directory for the other commands.

pub mod bounded;
pub mod broker;
pub mod cli;
pub mod config;
pub mod demo;
pub mod edge;
pub mod html;
pub mod http;
pub mod iam;
pub mod identity;
pub mod listener;
pub mod oidc;
pub mod querymesh;
pub mod running;
pub mod sandbox;
pub mod session;
#[cfg(test)]
mod test_support;

pub use config::Config;
pub use sandbox::{Endpoints, Sandbox, SandboxEnv, StartError};
