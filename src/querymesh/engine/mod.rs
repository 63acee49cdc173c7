//! The stand-in's engine: Trino SQL text in, Trino-typed rows out, over SQLite. No HTTP: it
//! knows nothing of the server above it (no axum, hyper or `http` types, no `server::` path),
//! so it can be driven by the protocol handlers, the benches, and unit tests alike.
//!
//! # Layout
//!
//! - this file: [`Engine`] (open the catalogs, connect) and the contract with the server:
//!   [`SessionContext`], [`Prepared`], [`RunError`], [`TableAccess`], [`OutputColumn`].
//! - `plan_cache`: [`Engine::prepare`], and the plans it remembers per text and session.
//! - `prepared`: [`Prepared`], a plan run on a connection, and SQLite's errors as Trino's.
//! - `information_schema`: every catalog's `information_schema` tables.
//! - [`sql`]: Trino's dialect parsed, analysed, and respelled as SQLite SQL (one file per
//!   clause or function family).
//! - [`catalog`]: the catalogs, schemas and tables a query can name; [`types`]: Trino's types.
//! - [`sources`]: the developer's own catalogs (SQLite files, CSV); [`tpch`]: tpch.tiny.
//! - [`access`]: data policies in Trino's file-based access-control format, for a [`User`]
//!   (a name and groups; the server says who that is).
//! - [`memory`]: SQLite's memory counted per query, and the budgets that bound it.
//! - [`error`]: [`TrinoError`], the engine's error as Trino names it; the server serialises it.
//!
//! This file is the contract between the engine (SQL → SQLite, data, catalogs) and the server
//! (protocol, auth, execution threads, time limits).
//!
//! Data placement: tpch.tiny is generated when the binary is built (build.rs); its image is
//! written once into `<state>/tpch-tiny-<digest>.sqlite` (temp file + rename, tens of
//! milliseconds) and attached read-only and immutable on every start. Without a state
//! directory (`--ephemeral`, tests) the same file is kept in the user's cache directory, since
//! it holds only public, deterministic rows; if no cache directory is writable the image is
//! loaded once per process into a shared-cache in-memory database that every engine attaches.

pub mod access;
pub mod catalog;
pub mod error;
pub mod memory;
pub mod sources;
pub mod sql;
pub mod tpch;
pub mod types;

mod information_schema;
mod plan_cache;
mod prepared;
#[cfg(test)]
mod tests;

pub use self::access::User;
pub use self::error::TrinoError;
pub use self::plan_cache::{PLAN_CACHE_MAX_SQL_BYTES, PLAN_CACHE_SIZE};
pub use self::prepared::Prepared;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rusqlite::{Connection, OpenFlags};

use self::access::Viewer;
use self::catalog::Catalogs;
use self::information_schema::add_information_schema;
use self::memory::Budget;
use self::plan_cache::PlanKey;
use self::sql::udf;
use self::types::TrinoType;
use super::lru::Lru;
use crate::config::QueryMeshConfig;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("querymesh catalog {catalog}.{schema} is declared twice")]
    DeclaredTwice { catalog: String, schema: String },
    #[error(transparent)]
    Source(#[from] sources::SourceError),
    #[error(transparent)]
    Tpch(#[from] tpch::TpchError),
}

/// The session's defaults (X-Trino-Catalog / X-Trino-Schema).
#[derive(Clone, Debug, Default)]
pub struct SessionContext {
    pub catalog: Option<String>,
    /// Session properties the client sent (X-Trino-Session), in order; see sql/session.rs.
    pub properties: Vec<(String, String)>,
    /// Who runs the query (`current_user`).
    pub user: Option<String>,
    pub schema: Option<String>,
    /// What the person may see, when access rules restrict it: SHOW, DESCRIBE and
    /// information_schema list only that.
    pub viewer: Option<Viewer>,
    /// The session time zone (X-Trino-Time-Zone) as the client sent it; UTC when absent.
    pub time_zone: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OutputColumn {
    pub name: String,
    pub ty: TrinoType,
}

/// A table a query reads and which of its columns, for access control.
#[derive(Clone, Debug, PartialEq)]
pub struct TableAccess {
    pub catalog: String,
    pub schema: String,
    pub table: String,
    pub columns: Vec<String>,
}

/// Why running a prepared query stopped early.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The connection was interrupted (time limit or cancel); the caller knows which.
    #[error("interrupted")]
    Interrupted,
    #[error(transparent)]
    Query(#[from] TrinoError),
}

/// Where tpch.tiny is kept without a state directory.
fn cache_dir() -> std::path::PathBuf {
    dirs::cache_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("zero-sandbox")
}

/// Compiled SQLite statements each connection keeps for [`Prepared::run`]'s
/// `prepare_cached`: the statements of the most recently run plans.
const STATEMENT_CACHE_SIZE: usize = 64;
/// KiB of pages each connection caches of an immutable catalog file.
const CACHE_KIB: i64 = 512;

pub struct Engine {
    catalogs: Catalogs,
    plans: Mutex<Lru<PlanKey, Arc<Prepared>>>,
    /// (SQLite schema name, URI) attached on every connection.
    attachments: Vec<(String, String)>,
    /// The attached schemas that are immutable files (tpch.tiny's), cached little per connection.
    immutable: Vec<String>,
    /// Keeps the CSV sources' in-memory databases alive while the engine lives.
    _keepers: Vec<Mutex<Connection>>,
    /// Each query's memory budget and the pool this engine's queries share.
    budget: Budget,
}

impl Engine {
    /// Loads every catalog (tpch.tiny, the developer's sources) of `config`, keeping
    /// tpch.tiny's image in `state_dir` (the user's cache directory without one).
    pub fn open(config: &QueryMeshConfig, state_dir: Option<&Path>) -> Result<Self, EngineError> {
        // Before this process's first SQLite database opens.
        memory::install();
        let mut catalogs = Catalogs::default();
        let started = Instant::now();
        let dir = state_dir.map_or_else(cache_dir, Path::to_path_buf);
        let mut immutable = Vec::new();
        let tpch_uri = match tpch::ensure_file(&dir) {
            // `immutable`: the file is never written once renamed into place (a new version
            // gets a new name), so SQLite may skip its file locks and change checks, a few
            // system calls on every statement.
            Ok(path) => {
                immutable.push(tpch::ATTACH_NAME.to_string());
                sources::file_uri(&path, "mode=ro&immutable=1")
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot keep tpch.tiny on disk; loading it into memory");
                tpch::in_memory()?
            }
        };
        tracing::debug!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            "tpch.tiny ready"
        );
        let mut attachments = vec![(tpch::ATTACH_NAME.to_string(), tpch_uri)];
        for table in tpch::table_metas() {
            catalogs.add_table(table);
        }
        let mut keepers = Vec::new();
        for (i, source) in config.catalogs.iter().enumerate() {
            if catalogs.has_schema(&source.catalog, &source.schema) {
                return Err(EngineError::DeclaredTwice {
                    catalog: source.catalog.clone(),
                    schema: source.schema.clone(),
                });
            }
            let loaded = sources::load(source, i + 1)?;
            catalogs.add_schema(&source.catalog, &source.schema);
            for table in loaded.tables {
                catalogs.add_table(table);
            }
            attachments.push((loaded.attach_name, loaded.uri));
            if let Some(k) = loaded.keeper {
                keepers.push(Mutex::new(k));
            }
        }
        add_information_schema(&mut catalogs);
        Ok(Self {
            catalogs,
            plans: Mutex::new(Lru::new(PLAN_CACHE_SIZE)),
            attachments,
            immutable,
            _keepers: keepers,
            budget: Budget::from_config(config),
        })
    }

    pub fn catalogs(&self) -> &Catalogs {
        &self.catalogs
    }

    /// Each query's memory budget, and the pool all of this engine's queries share.
    pub fn memory_budget(&self) -> &Budget {
        &self.budget
    }

    /// A new read-only connection with every catalog attached and Trino's functions registered.
    pub fn connect(&self) -> rusqlite::Result<Connection> {
        let conn = Connection::open_with_flags(
            ":memory:",
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        for (name, uri) in &self.attachments {
            conn.execute(&format!("ATTACH DATABASE ?1 AS \"{name}\""), [uri])?;
        }
        // Each connection copies the pages it reads of the immutable tpch.tiny into its own
        // page cache (2 MB by default, a pool's worth of copies); the OS's page cache holds the
        // file once for all, so a connection keeps only what it reads most.
        for name in &self.immutable {
            conn.pragma_update(Some(name.as_str()), "cache_size", -CACHE_KIB)?;
        }
        udf::register(&conn)?;
        // No value may be larger than the query holding it may grow (memory.rs); SQLite checks
        // this before it allocates one, and fails with SQLITE_TOOBIG.
        // SAFETY: the handle of a connection open here; sqlite3_limit only sets a number.
        unsafe {
            rusqlite::ffi::sqlite3_limit(
                conn.handle(),
                rusqlite::ffi::SQLITE_LIMIT_LENGTH,
                self.budget.length_limit(),
            );
        }
        // Plans are reused (see PLAN_CACHE_SIZE), and so are their compiled statements.
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE_SIZE);
        // Trino's LIKE is case-sensitive; SQLite's is not unless told.
        conn.pragma_update(None, "case_sensitive_like", true)?;
        // A second guard behind the analyzer: nothing on this connection may write.
        conn.pragma_update(None, "query_only", true)?;
        Ok(conn)
    }
}
