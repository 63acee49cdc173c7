//! The integration tests: one crate (one link), a module per component. Each test starts its
//! own sandbox in-process on ephemeral ports and speaks HTTP to it like a real client.

mod broker;
mod cli;
mod demo;
mod edge;
mod iam;
mod platform;
mod querymesh;
mod support;
