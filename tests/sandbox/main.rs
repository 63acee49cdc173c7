//! The integration tests: one crate (one link), a module per component. Each test starts its
//! own sandbox in-process on ephemeral ports and speaks HTTP to it like a real client.

mod demo;
mod echo_app;
mod edge;
mod foundation;
mod iam;
mod support;
