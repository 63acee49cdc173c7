//! The QueryMesh stand-in: Trino's client protocol over SQLite with tpch.tiny built in.
//!
//! # Layout
//!
//! - [`server`]: the Trino client protocol over HTTP — the statement handlers, bearer-token
//!   authentication, the executor (queries on a blocking pool, time limits, cancel, paging),
//!   prepared statements, TLS, and [`router`].
//! - [`engine`]: Trino SQL on SQLite — parsing and respelling, catalogs and types, tpch.tiny
//!   and the developer's sources, access-control rules, memory budgets, and [`TrinoError`].
//!   It uses nothing of the server and no HTTP crate.
//! - `lru`: the bounded map behind the engine's plan cache and the server's verified-token
//!   cache.
//!
//! The server depends on the engine; the engine on neither the server nor any other
//! component (only `config` for its sub-configuration).

pub mod engine;
mod lru;
pub mod server;

/// Process-wide: `main` installs the counting allocator and bounds malloc arenas before anything
/// else runs.
pub use self::engine::memory;
pub use self::engine::{Engine, TrinoError};
pub use self::server::{QueryMeshParts, QueryMeshStartError, QueryMeshState, router};
