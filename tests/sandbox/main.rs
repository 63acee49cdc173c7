//! The integration tests: one crate (one link), a module per component. Each test starts its
//! own sandbox in-process on ephemeral ports and speaks HTTP to it like a real client.

mod foundation;
mod querymesh;
mod querymesh_sql;
mod support;
