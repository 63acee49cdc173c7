//! The stand-in's engine: Trino SQL text in, Trino-typed rows out, over SQLite. No HTTP: it
//! knows nothing of the server above it (no axum, hyper or `http` types, no `server::` path),
//! so it can be driven by the protocol handlers, the benches, and unit tests alike.
//!
//! # Layout
//!
//! - this file: [`Engine`] (open the catalogs, plan, run) and the contract with the server:
//!   [`SessionContext`], [`Prepared`], [`RunError`], [`TableAccess`], [`OutputColumn`].
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

pub use self::access::User;
pub use self::error::TrinoError;

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use rusqlite::{Connection, ErrorCode, OpenFlags};
use serde_json::Value;
use serde_json::value::RawValue;

use self::access::Viewer;
use self::catalog::{Catalogs, ColumnMeta, TableMeta};
use self::error::ErrorName;
use self::memory::Budget;
use self::sql::use_schema::SessionUpdate;
use self::sql::{Body, encode, udf};
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
    pub schema: Option<String>,
    /// What the person may see, when access rules restrict it: SHOW, DESCRIBE and
    /// information_schema list only that.
    pub viewer: Option<Viewer>,
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
/// [`Engine::prepare`] shares one per distinct statement (see [`PLAN_CACHE_SIZE`]).
#[derive(Debug)]
pub struct Prepared {
    pub columns: Vec<OutputColumn>,
    pub reads: Vec<TableAccess>,
    /// USE: the session change the response tells the client to make.
    pub session_update: Option<SessionUpdate>,
    /// Trino's `updateType` for a statement that changes something instead of reading.
    update_type: Option<&'static str>,
    body: Body,
    /// The protocol's rendering of `columns`, made once by the server for every run.
    wire_columns: OnceLock<Arc<Box<RawValue>>>,
    /// Nanoseconds the last complete run took (0: never ran), for the server to tell a short
    /// query from a long one before it runs.
    last_run_nanos: AtomicU64,
    /// The memory each run may hold: the budget of the engine that planned it (`None`: the
    /// statement never reaches SQLite).
    budget: Option<Budget>,
}

fn run_error(e: rusqlite::Error) -> RunError {
    if let Some(refused) = sql::sqlite_limit(&e) {
        return RunError::Query(refused);
    }
    if let rusqlite::Error::SqliteFailure(failure, message) = &e {
        if failure.code == ErrorCode::OperationInterrupted {
            return RunError::Interrupted;
        }
        // An allocation past the query's budget (see memory.rs) or a value past the length limit.
        if matches!(failure.code, ErrorCode::OutOfMemory | ErrorCode::TooBig) {
            return RunError::Query(memory::failure(failure.code == ErrorCode::TooBig));
        }
        if let Some(decoded) = message.as_deref().and_then(udf::decode_error) {
            return RunError::Query(decoded);
        }
        if message
            .as_deref()
            .is_some_and(|m| m.contains("integer overflow"))
        {
            return RunError::Query(TrinoError::new(
                ErrorName::NumericValueOutOfRange,
                "bigint addition overflow",
            ));
        }
    }
    if let rusqlite::Error::UserFunctionError(inner) = &e
        && let Some(decoded) = udf::decode_error(&inner.to_string())
    {
        return RunError::Query(decoded);
    }
    RunError::Query(TrinoError::new(
        ErrorName::GenericInternalError,
        format!("The query failed in SQLite: {e}"),
    ))
}

/// Trino fails where integer arithmetic overflows its type; SQLite computes in 64 bits and
/// turns a 64-bit overflow into a REAL, so both show in the result value.
fn out_of_range(value: rusqlite::types::ValueRef<'_>, ty: &TrinoType) -> Option<TrinoError> {
    use rusqlite::types::ValueRef;
    let (lo, hi) = match ty {
        TrinoType::Integer => (i64::from(i32::MIN), i64::from(i32::MAX)),
        TrinoType::SmallInt => (i64::from(i16::MIN), i64::from(i16::MAX)),
        TrinoType::TinyInt => (i64::from(i8::MIN), i64::from(i8::MAX)),
        TrinoType::BigInt => (i64::MIN, i64::MAX),
        _ => return None,
    };
    let outside = match value {
        ValueRef::Integer(i) => i < lo || i > hi,
        ValueRef::Real(x) => x.abs() >= i64::MAX as f64 || x < lo as f64 || x > hi as f64,
        _ => false,
    };
    outside.then(|| TrinoError::new(ErrorName::NumericValueOutOfRange, format!("{ty} overflow")))
}

impl Prepared {
    fn new(plan: sql::Plan, budget: Option<Budget>) -> Self {
        Self {
            columns: plan.columns,
            reads: plan.reads,
            update_type: plan.session_update.as_ref().map(|_| "USE"),
            session_update: plan.session_update,
            body: plan.body,
            wire_columns: OnceLock::new(),
            last_run_nanos: AtomicU64::new(0),
            budget,
        }
    }

    /// A statement the server carried out itself (PREPARE, DEALLOCATE PREPARE), answered as
    /// Trino answers every statement without output: one boolean `result`, true.
    pub fn done(update_type: &'static str) -> Self {
        Self {
            update_type: Some(update_type),
            ..Self::new(sql::Plan::without_output(None), None)
        }
    }

    /// Trino's `updateType` for a statement that changes something instead of reading.
    pub fn update_type(&self) -> Option<&'static str> {
        self.update_type
    }

    /// `columns` as the server sends them, rendered by `render` the first time only.
    pub fn wire_columns(
        &self,
        render: impl FnOnce(&[OutputColumn]) -> Box<RawValue>,
    ) -> Arc<Box<RawValue>> {
        self.wire_columns
            .get_or_init(|| Arc::new(render(&self.columns)))
            .clone()
    }

    /// How long the last complete run took, if it ran before; a statement answered from the
    /// catalogs (SHOW, DESCRIBE) takes no time in SQLite.
    pub fn last_run(&self) -> Option<Duration> {
        match (&self.body, self.last_run_nanos.load(Ordering::Relaxed)) {
            (Body::Rows(_), _) => Some(Duration::ZERO),
            (Body::Sql(_), 0) => None,
            (Body::Sql(_), nanos) => Some(Duration::from_nanos(nanos)),
        }
    }

    /// Remembers how long a run took (or at least took, for one stopped early).
    pub fn record_run(&self, took: Duration) {
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX).max(1);
        self.last_run_nanos.store(nanos, Ordering::Relaxed);
    }

    /// The SQLite SQL this query runs, for benchmarks and diagnostics (never logged).
    pub fn sqlite_sql(&self) -> Option<&str> {
        match &self.body {
            Body::Sql(s) => Some(s),
            Body::Rows(_) => None,
        }
    }

    /// Runs on `conn`, handing each encoded row to `row`; stops when `row` returns false.
    pub fn run(
        &self,
        conn: &Connection,
        row: &mut dyn FnMut(Vec<Value>) -> bool,
    ) -> Result<(), RunError> {
        match &self.body {
            Body::Rows(rows) => {
                for r in rows {
                    if !row(r.clone()) {
                        break;
                    }
                }
                Ok(())
            }
            Body::Sql(sql) => {
                // From compiling the statement to its last row, SQLite's allocations on this
                // thread are this query's.
                let _scope = self.budget.clone().map(memory::Scope::enter);
                let mut stmt = conn.prepare_cached(sql).map_err(run_error)?;
                let mut rows = stmt.query([]).map_err(run_error)?;
                while let Some(r) = rows.next().map_err(run_error)? {
                    self.reserve_row(r)?;
                    let mut values = Vec::with_capacity(self.columns.len());
                    for (i, c) in self.columns.iter().enumerate() {
                        let value = r.get_ref(i).map_err(run_error)?;
                        if let Some(overflow) = out_of_range(value, &c.ty) {
                            return Err(RunError::Query(overflow));
                        }
                        values.push(encode::encode(value, &c.ty));
                    }
                    if !row(values) {
                        break;
                    }
                }
                Ok(())
            }
        }
    }
}

impl Prepared {
    /// A row's values are copied out of SQLite twice (the JSON value and its text) before they
    /// leave: a large row must fit what remains of the query's budget first. char(n) is
    /// padded to n on the way out.
    fn reserve_row(&self, row: &rusqlite::Row<'_>) -> Result<(), RunError> {
        use rusqlite::types::ValueRef;
        let mut bytes = 0u64;
        for (i, c) in self.columns.iter().enumerate() {
            let len = match row.get_ref(i).map_err(run_error)? {
                ValueRef::Text(t) | ValueRef::Blob(t) => t.len() as u64,
                _ => 0,
            };
            let padded = match c.ty {
                TrinoType::Char(n) => u64::from(n),
                _ => 0,
            };
            bytes = bytes.saturating_add(len.max(padded));
        }
        if bytes < ROW_BYTES_UNCHECKED {
            return Ok(());
        }
        memory::reserve(bytes.saturating_mul(2)).map_err(|e| RunError::Query(e.error()))
    }
}

/// Rows smaller than this are not checked against the budget one by one.
const ROW_BYTES_UNCHECKED: u64 = 64 << 10;

/// Where tpch.tiny is kept without a state directory.
fn cache_dir() -> std::path::PathBuf {
    dirs::cache_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("zero-sandbox")
}

/// How many analysed statements an engine remembers, the least recently used forgotten first.
pub const PLAN_CACHE_SIZE: usize = 256;
/// Compiled SQLite statements each connection keeps for [`Prepared::run`]'s
/// `prepare_cached`: the statements of the most recently run plans.
const STATEMENT_CACHE_SIZE: usize = 64;
/// KiB of pages each connection caches of an immutable catalog file.
const CACHE_KIB: i64 = 512;
/// Longer query texts are planned every time, so the cache stays a few megabytes at most.
pub const PLAN_CACHE_MAX_SQL_BYTES: usize = 16 * 1024;

/// Everything a plan depends on besides the catalogs, which never change while an engine
/// runs: the text, the session's default catalog and schema, and who is looking when access
/// rules shape the answer (SHOW and information_schema list only what the viewer may see, see
/// [`Viewer::key`]). Whether the principal may read the tables a plan reads is not part of it:
/// the server checks [`Prepared::reads`] against the rules for every request, cached plan or
/// not. Refusals are not cached, so a hit gives exactly what analysing again would.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct PlanKey {
    sql: String,
    catalog: Option<String>,
    schema: Option<String>,
    viewer: Option<String>,
}

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

    /// Analyses and translates `sql` for a session, or hands out the plan made for the same
    /// text and session defaults before: parsing and analysis cost more than a small query.
    pub fn prepare(&self, sql: &str, ctx: &SessionContext) -> Result<Arc<Prepared>, TrinoError> {
        if sql.len() > PLAN_CACHE_MAX_SQL_BYTES {
            return sql::plan(&self.catalogs, sql, ctx)
                .map(|plan| Arc::new(Prepared::new(plan, Some(self.budget.clone()))));
        }
        let key = PlanKey {
            sql: sql.to_string(),
            catalog: ctx.catalog.clone(),
            schema: ctx.schema.clone(),
            viewer: ctx.viewer.as_ref().map(Viewer::key),
        };
        if let Some(hit) = self.plans().get(&key) {
            return Ok(hit.clone());
        }
        let plan = sql::plan(&self.catalogs, sql, ctx)?;
        let prepared = Arc::new(Prepared::new(plan, Some(self.budget.clone())));
        self.plans().insert(key, prepared.clone());
        Ok(prepared)
    }

    fn plans(&self) -> MutexGuard<'_, Lru<PlanKey, Arc<Prepared>>> {
        // The cache holds only finished plans: one left by a panicking thread is still sound.
        self.plans.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn varchar_column(name: &str) -> ColumnMeta {
    ColumnMeta {
        name: name.into(),
        ty: TrinoType::Varchar(None),
        nullable: true,
    }
}

/// `(SELECT column1 AS "a", … FROM (VALUES …))`: a constant table inlined in the SQL.
fn inline_table(columns: &[ColumnMeta], rows: &[Vec<String>]) -> String {
    let names: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| format!("column{} AS \"{}\"", i + 1, c.name))
        .collect();
    if rows.is_empty() {
        let nulls: Vec<String> = columns
            .iter()
            .map(|c| format!("NULL AS \"{}\"", c.name))
            .collect();
        return format!("(SELECT {} WHERE 0)", nulls.join(", "));
    }
    let values: Vec<String> = rows.iter().map(|r| format!("({})", r.join(", "))).collect();
    format!(
        "(SELECT {} FROM (VALUES {}))",
        names.join(", "),
        values.join(", ")
    )
}

/// Every catalog's `information_schema` (schemata, tables, columns), as Trino has it.
fn add_information_schema(catalogs: &mut Catalogs) {
    let schemata_cols = vec![
        varchar_column("catalog_name"),
        varchar_column("schema_name"),
    ];
    let tables_cols = vec![
        varchar_column("table_catalog"),
        varchar_column("table_schema"),
        varchar_column("table_name"),
        varchar_column("table_type"),
    ];
    let mut columns_cols = vec![
        varchar_column("table_catalog"),
        varchar_column("table_schema"),
        varchar_column("table_name"),
        varchar_column("column_name"),
    ];
    columns_cols.push(ColumnMeta {
        name: "ordinal_position".into(),
        ty: TrinoType::BigInt,
        nullable: true,
    });
    columns_cols.extend([
        varchar_column("column_default"),
        varchar_column("is_nullable"),
        varchar_column("data_type"),
    ]);
    let info_tables = [
        ("columns", &columns_cols),
        ("schemata", &schemata_cols),
        ("tables", &tables_cols),
    ];
    let catalog_names: Vec<String> = catalogs.catalog_names().map(str::to_string).collect();
    for catalog in catalog_names {
        let q = |s: &str| sql::sql_string(s);
        let mut schemas: Vec<String> = catalogs
            .schema_names(&catalog)
            .map(str::to_string)
            .collect();
        schemas.push("information_schema".into());
        schemas.sort();
        let mut tables: Vec<TableMeta> = catalogs
            .all_tables()
            .filter(|t| t.catalog == catalog)
            .cloned()
            .collect();
        for (name, cols) in &info_tables {
            tables.push(TableMeta {
                catalog: catalog.clone(),
                schema: "information_schema".into(),
                name: name.to_string(),
                columns: (*cols).clone(),
                sqlite_name: String::new(),
            });
        }
        tables.sort_by(|a, b| (&a.schema, &a.name).cmp(&(&b.schema, &b.name)));
        let schemata_rows: Vec<Vec<String>> =
            schemas.iter().map(|s| vec![q(&catalog), q(s)]).collect();
        let table_rows: Vec<Vec<String>> = tables
            .iter()
            .map(|t| vec![q(&catalog), q(&t.schema), q(&t.name), q("BASE TABLE")])
            .collect();
        let column_rows: Vec<Vec<String>> = tables
            .iter()
            .flat_map(|t| {
                t.columns.iter().enumerate().map(|(i, c)| {
                    vec![
                        q(&catalog),
                        q(&t.schema),
                        q(&t.name),
                        q(&c.name),
                        (i + 1).to_string(),
                        "NULL".into(),
                        q(if c.nullable { "YES" } else { "NO" }),
                        q(&c.ty.to_string()),
                    ]
                })
            })
            .collect();
        for (name, cols, rows) in [
            ("columns", &columns_cols, column_rows),
            ("schemata", &schemata_cols, schemata_rows),
            ("tables", &tables_cols, table_rows),
        ] {
            catalogs.add_table(TableMeta {
                catalog: catalog.clone(),
                schema: "information_schema".into(),
                name: name.into(),
                columns: cols.clone(),
                sqlite_name: inline_table(cols, &rows),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        Engine::open(&crate::Config::builtin().querymesh, None).expect("the engine opens")
    }

    fn session(catalog: Option<&str>, schema: Option<&str>) -> SessionContext {
        SessionContext {
            catalog: catalog.map(str::to_string),
            schema: schema.map(str::to_string),
            ..SessionContext::default()
        }
    }

    #[test]
    fn the_same_text_and_session_share_one_plan() {
        let engine = engine();
        let tiny = session(Some("tpch"), Some("tiny"));
        let first = engine
            .prepare("SELECT name FROM nation", &tiny)
            .expect("plans");
        let again = engine
            .prepare("SELECT name FROM nation", &tiny)
            .expect("plans");
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(first.columns, again.columns);
        // Refusals are not remembered, and are refused the same way every time.
        for _ in 0..2 {
            let refused = engine.prepare("SELECT nope FROM nation", &tiny);
            assert_eq!(
                refused.expect_err("refused").name,
                ErrorName::ColumnNotFound
            );
        }
        assert_eq!(engine.plans().count(), 1);
    }

    #[test]
    fn another_session_default_never_gets_anothers_plan() {
        let engine = engine();
        let tiny = session(Some("tpch"), Some("tiny"));
        let info = session(Some("tpch"), Some("information_schema"));
        let bare = session(None, None);
        let regions = engine
            .prepare("SELECT * FROM region", &tiny)
            .expect("plans");
        assert_eq!(regions.reads[0].table, "region");
        // The same text under other defaults is analysed for those defaults.
        assert_eq!(
            engine
                .prepare("SELECT * FROM region", &info)
                .expect_err("no region in information_schema")
                .name,
            ErrorName::TableNotFound
        );
        assert!(engine.prepare("SELECT * FROM region", &bare).is_err());
        let tables = engine
            .prepare("SELECT table_name FROM tables", &info)
            .expect("plans");
        assert_eq!(tables.reads[0].schema, "information_schema");
        assert!(
            engine
                .prepare("SELECT table_name FROM tables", &tiny)
                .is_err()
        );
        // And the first session still gets its own plan.
        let again = engine
            .prepare("SELECT * FROM region", &tiny)
            .expect("plans");
        assert!(Arc::ptr_eq(&regions, &again));
    }

    #[test]
    fn the_plan_cache_is_bounded() {
        let engine = engine();
        let tiny = session(Some("tpch"), Some("tiny"));
        let first = engine
            .prepare("SELECT 0 FROM region", &tiny)
            .expect("plans");
        for i in 1..PLAN_CACHE_SIZE + 20 {
            engine
                .prepare(&format!("SELECT {i} FROM region"), &tiny)
                .expect("plans");
            assert!(engine.plans().count() <= PLAN_CACHE_SIZE);
        }
        // The least recently used plan was forgotten: it is planned again.
        let again = engine
            .prepare("SELECT 0 FROM region", &tiny)
            .expect("plans");
        assert!(!Arc::ptr_eq(&first, &again));
        // A text past PLAN_CACHE_MAX_SQL_BYTES is planned but never kept.
        let long = format!(
            "SELECT 1 FROM region WHERE name <> '{}'",
            "x".repeat(PLAN_CACHE_MAX_SQL_BYTES)
        );
        let a = engine.prepare(&long, &tiny).expect("plans");
        let b = engine.prepare(&long, &tiny).expect("plans");
        assert!(!Arc::ptr_eq(&a, &b));
    }

    #[test]
    fn a_plan_remembers_how_long_its_last_run_took() {
        let engine = engine();
        let tiny = session(Some("tpch"), Some("tiny"));
        let select = engine.prepare("SELECT 1", &tiny).expect("plans");
        assert_eq!(select.last_run(), None);
        select.record_run(Duration::from_micros(70));
        assert_eq!(select.last_run(), Some(Duration::from_micros(70)));
        let show = engine
            .prepare("SHOW SCHEMAS FROM tpch", &tiny)
            .expect("plans");
        assert_eq!(show.last_run(), Some(Duration::ZERO));
    }
}
