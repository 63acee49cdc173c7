//! The stand-in's engine: Trino SQL text in, Trino-typed rows out, over SQLite.
//!
//! This file is the contract between the engine (SQL → SQLite, data, catalogs) and the server
//! (protocol, auth, execution threads, time limits, access control).

use rusqlite::Connection;
use serde_json::Value;

use super::catalog::Catalogs;
use super::error::{ErrorName, TrinoError};
use super::types::TrinoType;
use crate::config::Config;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("{0}")]
    Data(String),
}

/// The session's defaults (X-Trino-Catalog / X-Trino-Schema).
#[derive(Clone, Debug, Default)]
pub struct SessionContext {
    pub catalog: Option<String>,
    pub schema: Option<String>,
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

/// A query analysed and translated, ready to run on any connection from [`Engine::connect`].
#[derive(Clone, Debug)]
pub struct Prepared {
    pub columns: Vec<OutputColumn>,
    pub reads: Vec<TableAccess>,
}

impl Prepared {
    /// Runs on `conn`, handing each encoded row to `row`; stops when `row` returns false.
    pub fn run(
        &self,
        _conn: &Connection,
        _row: &mut dyn FnMut(Vec<Value>) -> bool,
    ) -> Result<(), RunError> {
        Err(RunError::Query(TrinoError::new(
            ErrorName::NotSupported,
            "the SQL engine is not built yet",
        )))
    }
}

pub struct Engine {
    catalogs: Catalogs,
}

impl Engine {
    /// Loads every catalog (tpch.tiny, the developer's sources) for `config`.
    pub fn open(_config: &Config) -> Result<Self, EngineError> {
        Ok(Self {
            catalogs: Catalogs::default(),
        })
    }

    pub fn catalogs(&self) -> &Catalogs {
        &self.catalogs
    }

    /// A new read-only connection with every catalog attached and Trino's functions registered.
    pub fn connect(&self) -> rusqlite::Result<Connection> {
        Connection::open_in_memory()
    }

    pub fn prepare(&self, _sql: &str, _ctx: &SessionContext) -> Result<Prepared, TrinoError> {
        Err(TrinoError::new(
            ErrorName::NotSupported,
            "the SQL engine is not built yet",
        ))
    }
}
