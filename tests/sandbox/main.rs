//! The integration tests: one crate (one link), a module per component. Each test starts its
//! own sandbox in-process on ephemeral ports and speaks HTTP to it like a real client.

mod browser;
mod demo;
mod echo_app;
mod edge;
mod edge_browser;
mod foundation;
mod iam;
mod support;
