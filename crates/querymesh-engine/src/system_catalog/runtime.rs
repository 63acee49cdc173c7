//! `system.runtime`: `nodes` (the stand-in is one coordinator, as a one-node Trino lists
//! itself) and `queries` (Trino's `QuerySystemTable`), both read from the running server
//! through [`Runtime`] each time a query reads them.
//!
//! The engine knows nothing of the server: the server hands it a [`RuntimeInfo`] once it runs
//! ([`Runtime::install`]), and the SQLite function [`QM_SYSTEM_ROWS`] asks it for the
//! rows as JSON, which the table's SQL unpacks with `json_each`.

use std::sync::{Arc, RwLock, Weak};
use std::time::{SystemTime, UNIX_EPOCH};

use querymesh_functions::datetime::time_zone::sqlite::{Zoned, utc_zone};
use querymesh_values::sqlite_expr::{FromItem, Select, SqlExpr, SqliteFn, builtin};
use rusqlite::Connection;
use rusqlite::functions::FunctionFlags;
use serde_json::{Value, json};

use super::{BIGINT, BOOLEAN, Rows, SystemTable, VARCHAR, columns};
use crate::TRINO_VERSION;
use crate::catalog::ColumnMeta;
use crate::types::TrinoType;

/// `qm_system_rows('runtime.queries', user)`: the live rows of a runtime table as a JSON array
/// of arrays, those `user` may see.
pub const QM_SYSTEM_ROWS: SqliteFn = SqliteFn::new("qm_system_rows");

/// One query as `system.runtime.queries` shows it.
#[derive(Clone, Debug)]
pub struct QueryRow {
    pub query_id: String,
    /// QUEUED, RUNNING, FINISHED or FAILED.
    pub state: String,
    pub user: String,
    /// `X-Trino-Source`.
    pub source: Option<String>,
    pub query: String,
    /// The resource group's names from the root.
    pub resource_group_id: Option<Vec<String>>,
    pub queued_time_ms: i64,
    pub created: SystemTime,
    pub started: Option<SystemTime>,
    pub last_heartbeat: SystemTime,
    pub end: Option<SystemTime>,
    pub error_type: Option<String>,
    pub error_code: Option<String>,
}

/// What the running server tells the engine about itself.
pub trait RuntimeInfo: Send + Sync {
    /// The node's address as clients reach it (`http_uri`).
    fn http_uri(&self) -> String;
    /// The queries the server knows: running, queued, and recently ended.
    fn queries(&self) -> Vec<QueryRow>;
    /// Whether `viewer` may see queries `owner` ran (Trino's `filterViewQueryOwnedBy`);
    /// everyone sees their own.
    fn may_view_queries_of(&self, viewer: &str, owner: &str) -> bool;
}

/// The server's [`RuntimeInfo`], once it runs; held weakly, since the server holds the engine.
#[derive(Default)]
pub struct Runtime {
    info: RwLock<Option<Weak<dyn RuntimeInfo>>>,
}

impl Runtime {
    pub fn install(&self, info: Weak<dyn RuntimeInfo>) {
        if let Ok(mut slot) = self.info.write() {
            *slot = Some(info);
        }
    }

    fn info(&self) -> Option<Arc<dyn RuntimeInfo>> {
        self.info.read().ok()?.as_ref()?.upgrade()
    }

    /// The rows of `table` that `user` may see, as a JSON array of arrays.
    fn rows(&self, table: &str, user: &str) -> Value {
        let info = self.info();
        match table {
            "runtime.nodes" => json!([[
                "zero-sandbox",
                info.as_ref().map(|i| i.http_uri()),
                TRINO_VERSION,
                true,
                "active"
            ]]),
            "runtime.queries" => {
                let Some(info) = info else {
                    return json!([]);
                };
                let rows: Vec<Value> = info
                    .queries()
                    .into_iter()
                    .filter(|q| q.user == user || info.may_view_queries_of(user, &q.user))
                    .map(query_json)
                    .collect();
                Value::Array(rows)
            }
            _ => json!([]),
        }
    }

    /// Registers [`QM_SYSTEM_ROWS`] on `conn`, reading `runtime`.
    // Not through udf::define: its `try` twin is registered once per process, and would keep
    // the first engine's runtime; a table source is never inside try().
    #[allow(clippy::disallowed_methods)]
    pub fn register(runtime: &Arc<Self>, conn: &Connection) -> rusqlite::Result<()> {
        let runtime = runtime.clone();
        // Not deterministic: every run reads the server anew.
        conn.create_scalar_function(
            QM_SYSTEM_ROWS.name(),
            2,
            FunctionFlags::SQLITE_UTF8,
            move |ctx| {
                let table: String = ctx.get(0)?;
                let user: String = ctx.get(1)?;
                Ok(runtime.rows(&table, &user).to_string())
            },
        )
    }
}

/// The stored form of `timestamp(3) with time zone` in UTC.
fn stored_time(t: SystemTime) -> Option<String> {
    let since = t.duration_since(UNIX_EPOCH).ok()?;
    let millis = u64::from(since.subsec_millis());
    let zoned = Zoned::new(
        i64::try_from(since.as_secs()).ok()?,
        millis * 1_000_000_000,
        utc_zone(),
        3,
    )?;
    Some(zoned.stored())
}

fn query_json(q: QueryRow) -> Value {
    json!([
        q.query_id,
        q.state,
        q.user,
        q.source,
        q.query,
        q.resource_group_id,
        q.queued_time_ms,
        // Analysis and planning are not timed apart from running.
        0,
        0,
        stored_time(q.created),
        q.started.and_then(stored_time),
        stored_time(q.last_heartbeat),
        q.end.and_then(stored_time),
        q.error_type,
        q.error_code,
    ])
}

pub(super) fn tables() -> Vec<SystemTable> {
    let at = TrinoType::TimestampTz(3);
    vec![
        SystemTable {
            schema: "runtime",
            name: "nodes",
            columns: columns(&[
                ("node_id", VARCHAR),
                ("http_uri", VARCHAR),
                ("node_version", VARCHAR),
                ("coordinator", BOOLEAN),
                ("state", VARCHAR),
            ]),
            rows: Rows::Live,
        },
        SystemTable {
            schema: "runtime",
            name: "queries",
            columns: columns(&[
                ("query_id", VARCHAR),
                ("state", VARCHAR),
                ("user", VARCHAR),
                ("source", VARCHAR),
                ("query", VARCHAR),
                ("resource_group_id", TrinoType::Array(Box::new(VARCHAR))),
                ("queued_time_ms", BIGINT),
                ("analysis_time_ms", BIGINT),
                ("planning_time_ms", BIGINT),
                ("created", at.clone()),
                ("started", at.clone()),
                ("last_heartbeat", at.clone()),
                ("end", at),
                ("error_type", VARCHAR),
                ("error_code", VARCHAR),
            ]),
            rows: Rows::Live,
        },
        // Trino's other runtime tables, with their columns as Trino 476 describes them and no
        // rows: the stand-in runs no tasks, keeps no transactions and no optimizer rules.
        SystemTable {
            schema: "runtime",
            name: "optimizer_rule_stats",
            columns: columns(&[
                ("rule_name", VARCHAR),
                ("invocations", BIGINT),
                ("matches", BIGINT),
                ("failures", BIGINT),
                ("average_time", TrinoType::Double),
                (
                    "time_distribution_percentiles",
                    TrinoType::Map(Box::new(TrinoType::Double), Box::new(TrinoType::Double)),
                ),
            ]),
            rows: Rows::Listing(|_| Vec::new()),
        },
        SystemTable {
            schema: "runtime",
            name: "tasks",
            columns: columns(&[
                ("node_id", VARCHAR),
                ("task_id", VARCHAR),
                ("stage_id", VARCHAR),
                ("query_id", VARCHAR),
                ("state", VARCHAR),
                ("splits", BIGINT),
                ("queued_splits", BIGINT),
                ("running_splits", BIGINT),
                ("completed_splits", BIGINT),
                ("split_scheduled_time_ms", BIGINT),
                ("split_cpu_time_ms", BIGINT),
                ("split_blocked_time_ms", BIGINT),
                ("raw_input_bytes", BIGINT),
                ("raw_input_rows", BIGINT),
                ("processed_input_bytes", BIGINT),
                ("processed_input_rows", BIGINT),
                ("output_bytes", BIGINT),
                ("output_rows", BIGINT),
                ("physical_input_bytes", BIGINT),
                ("physical_written_bytes", BIGINT),
                ("created", TrinoType::TimestampTz(3)),
                ("start", TrinoType::TimestampTz(3)),
                ("last_heartbeat", TrinoType::TimestampTz(3)),
                ("end", TrinoType::TimestampTz(3)),
            ]),
            rows: Rows::Listing(|_| Vec::new()),
        },
        SystemTable {
            schema: "runtime",
            name: "transactions",
            columns: columns(&[
                ("transaction_id", VARCHAR),
                ("isolation_level", VARCHAR),
                ("read_only", BOOLEAN),
                ("auto_commit_context", BOOLEAN),
                ("create_time", TrinoType::TimestampTz(3)),
                ("idle_time_secs", BIGINT),
                ("written_catalog", VARCHAR),
                ("catalogs", TrinoType::Array(Box::new(VARCHAR))),
            ]),
            rows: Rows::Listing(|_| Vec::new()),
        },
    ]
}

/// The query reading a live table's rows for `user` (the person running the query: the plan
/// is made per person): each row's JSON array unpacked into the table's columns.
pub(super) fn live_source(schema: &str, name: &str, columns: &[ColumnMeta], user: &str) -> Select {
    let value = || SqlExpr::column(None, "value");
    let picks = columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let cell = builtin::JSON_EXTRACT.call([value(), SqlExpr::text(format!("$[{i}]"))]);
            (cell, Some(c.name.clone()))
        })
        .collect();
    let rows = QM_SYSTEM_ROWS.call([
        SqlExpr::text(format!("{schema}.{name}")),
        SqlExpr::text(user),
    ]);
    Select {
        columns: picks,
        from: vec![FromItem::Function {
            function: builtin::JSON_EACH,
            args: vec![rows],
            alias: None,
        }],
        ..Select::default()
    }
}
