//! The integration tests: one crate (one link), a folder per component, a file per behaviour.
//! Each test starts its own sandbox in-process on ephemeral ports and speaks HTTP to it like a
//! real client.
//!
//! # Layout
//!
//! - `support/`: the one harness every test uses: `start`, `start_with_echo`, `edge`,
//!   `sign_in` (over HTTP, built on `http_sign_in::sign_in_at`), `platform_session`,
//!   `broker_query`; the echo app (`echo_app`), the Chromium driver (`browser`), the engine
//!   runner (`engine`) and a Trino whose answers a test chooses (`fake_trino`).
//! - `edge/`: reserved paths and their spellings, sign-in and sign-out, the identity header,
//!   forwarding, streaming, failing apps, the whole sign-in in a browser.
//! - `iam/`: discovery, the authorization code flow, SSO, the sign-in page (also in a browser),
//!   authorization and token endpoint errors.
//! - `broker/`: the refusal table by family, the whole stack, strict identity checks.
//! - `querymesh/`: the server (the Trino protocol over HTTP), the engine at library level,
//!   Trino's semantics construct by construct, Trino's finer points over the protocol,
//!   statement limits, memory budgets.
//! - `control/`: the test-control API, endpoint by endpoint, fault by fault. `console/`: the
//!   console's API (event stream, identity checks, QueryMesh listing) and its page in Chromium.
//! - `demo/`: the built-in demo app. `cli/`: the binary's commands, keys and minted identity.
//!   `platform/`: every listener's limits, and logs without secrets.

mod broker;
mod cli;
mod console;
mod control;
mod demo;
mod edge;
mod iam;
mod platform;
mod querymesh;
mod support;
