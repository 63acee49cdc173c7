//! The QueryMesh stand-in: Trino's client protocol over SQLite with tpch.tiny built in.
//!
//! # Layout
//!
//! - [`server`]: the Trino client protocol over HTTP — the statement handlers, bearer-token
//!   authentication, the executor (queries on a blocking pool, time limits, cancel, paging),
//!   prepared statements, TLS, and [`router`].
//! - [`engine`]: Trino SQL on SQLite — parsing and respelling, catalogs and types, tpch.tiny
//!   and the developer's sources, access-control rules, memory budgets, and [`TrinoError`].
//!   It is a crate of its own, `querymesh-engine` (crates/querymesh-engine), so Cargo holds
//!   that it uses nothing of the server and no HTTP crate; it takes its part of `[querymesh]`
//!   as an [`engine::EngineConfig`].
//! - `lru`: the bounded map behind the engine's plan cache and the server's verified-token
//!   cache (the engine's).
//!
//! The server depends on the engine; the engine on nothing of the product.

/// The engine crate, at the path the product's modules and the library's users name it by.
pub use querymesh_engine as engine;
use querymesh_engine::lru;
pub mod server;

/// Process-wide: `main` installs the counting allocator and bounds malloc arenas before anything
/// else runs.
pub use self::engine::memory;
pub use self::engine::{Engine, TrinoError};
pub use self::server::{QueryMeshParts, QueryMeshStartError, QueryMeshState, router};
