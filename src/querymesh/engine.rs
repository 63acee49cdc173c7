//! The stand-in's engine: Trino SQL text in, Trino-typed rows out, over SQLite.
//!
//! This file is the contract between the engine (SQL → SQLite, data, catalogs) and the server
//! (protocol, auth, execution threads, time limits, access control).
//!
//! Data placement: tpch.tiny is generated once into `<state>/tpch-tiny-v1.sqlite` (temp file +
//! rename) and attached read-only on later starts (about 0.1 ms). Without a state directory
//! (`--ephemeral`, tests) the same file is kept in the user's cache directory, since it holds
//! only public, deterministic rows and generating costs about a second and ~300 MB of memory;
//! if no cache directory is writable it is generated once per process into a shared-cache
//! in-memory database that every engine of the process attaches.

use std::sync::Mutex;
use std::time::Instant;

use rusqlite::{Connection, ErrorCode, OpenFlags};
use serde_json::Value;

use super::access::Viewer;
use super::catalog::{Catalogs, ColumnMeta, TableMeta};
use super::error::{ErrorName, TrinoError};
use super::sql::use_schema::SessionUpdate;
use super::sql::{self, Body, encode, udf};
use super::types::TrinoType;
use super::{sources, tpch};
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
#[derive(Clone, Debug)]
pub struct Prepared {
    pub columns: Vec<OutputColumn>,
    pub reads: Vec<TableAccess>,
    /// USE: the session change the response tells the client to make.
    pub session_update: Option<SessionUpdate>,
    body: Body,
}

fn run_error(e: rusqlite::Error) -> RunError {
    if let rusqlite::Error::SqliteFailure(failure, message) = &e {
        if failure.code == ErrorCode::OperationInterrupted {
            return RunError::Interrupted;
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
                let mut stmt = conn.prepare_cached(sql).map_err(run_error)?;
                let mut rows = stmt.query([]).map_err(run_error)?;
                while let Some(r) = rows.next().map_err(run_error)? {
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

/// Where tpch.tiny is kept without a state directory.
fn cache_dir() -> std::path::PathBuf {
    dirs::cache_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("zero-sandbox")
}

/// How many analysed statements an engine remembers (the catalogs never change while it runs).
const PLAN_CACHE_SIZE: usize = 256;
/// Longer query texts are planned every time, so the cache stays a few megabytes at most.
const PLAN_CACHE_MAX_SQL_BYTES: usize = 16 * 1024;

/// The query text, the session's catalog and schema, and who is looking (see [`Viewer::key`]).
type PlanKey = (String, Option<String>, Option<String>, Option<String>);

pub struct Engine {
    catalogs: Catalogs,
    plans: Mutex<std::collections::HashMap<PlanKey, Prepared>>,
    /// (SQLite schema name, URI) attached on every connection.
    attachments: Vec<(String, String)>,
    /// Keeps the CSV sources' in-memory databases alive while the engine lives.
    _keepers: Vec<Mutex<Connection>>,
}

impl Engine {
    /// Loads every catalog (tpch.tiny, the developer's sources) for `config`.
    pub fn open(config: &Config) -> Result<Self, EngineError> {
        let mut catalogs = Catalogs::default();
        let started = Instant::now();
        let dir = config.state_dir.clone().unwrap_or_else(cache_dir);
        let tpch_uri = match tpch::ensure_file(&dir) {
            Ok(path) => sources::file_uri(&path, "mode=ro"),
            Err(e) => {
                tracing::warn!(error = %e, "cannot keep tpch.tiny on disk; loading it into memory");
                tpch::in_memory().map_err(EngineError::Data)?
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
        for (i, source) in config.querymesh.catalogs.iter().enumerate() {
            if catalogs.has_schema(&source.catalog, &source.schema) {
                return Err(EngineError::Data(format!(
                    "querymesh catalog {}.{} is declared twice",
                    source.catalog, source.schema
                )));
            }
            let loaded = sources::load(source, i + 1).map_err(EngineError::Data)?;
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
            plans: Mutex::default(),
            attachments,
            _keepers: keepers,
        })
    }

    pub fn catalogs(&self) -> &Catalogs {
        &self.catalogs
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
        udf::register(&conn)?;
        // Trino's LIKE is case-sensitive; SQLite's is not unless told.
        conn.pragma_update(None, "case_sensitive_like", true)?;
        // A second guard behind the analyzer: nothing on this connection may write.
        conn.pragma_update(None, "query_only", true)?;
        Ok(conn)
    }

    pub fn prepare(&self, sql: &str, ctx: &SessionContext) -> Result<Prepared, TrinoError> {
        let key = (
            sql.to_string(),
            ctx.catalog.clone(),
            ctx.schema.clone(),
            ctx.viewer.as_ref().map(Viewer::key),
        );
        if let Some(hit) = self
            .plans
            .lock()
            .ok()
            .and_then(|plans| plans.get(&key).cloned())
        {
            return Ok(hit);
        }
        let plan = sql::plan(&self.catalogs, sql, ctx)?;
        let prepared = Prepared {
            columns: plan.columns,
            reads: plan.reads,
            session_update: plan.session_update,
            body: plan.body,
        };
        if sql.len() > PLAN_CACHE_MAX_SQL_BYTES {
            return Ok(prepared);
        }
        if let Ok(mut plans) = self.plans.lock() {
            if plans.len() >= PLAN_CACHE_SIZE {
                plans.clear();
            }
            plans.insert(key, prepared.clone());
        }
        Ok(prepared)
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
