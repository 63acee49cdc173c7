//! [`Prepared`]: a statement analysed and translated, and its run on a SQLite connection —
//! rows encoded as Trino's, checked against their type's range and the query's memory budget,
//! and SQLite's errors told as Trino's ([`run_error`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode};
use serde_json::Value;
use serde_json::value::RawValue;

use super::error::{ErrorName, InternalError};
use super::memory::{self, Budget};
use super::sql::use_schema::SessionUpdate;
use super::sql::{self, Body, encode, udf};
use super::sqlite_stack;
use super::types::TrinoType;
use super::{OutputColumn, RunError, TableAccess, TrinoError};

/// A query analysed and translated, ready to run on any connection from [`Engine::connect`].
/// [`Engine::prepare`] shares one per distinct statement (see [`PLAN_CACHE_SIZE`]).
///
/// [`Engine::connect`]: super::Engine::connect
/// [`Engine::prepare`]: super::Engine::prepare
/// [`PLAN_CACHE_SIZE`]: super::PLAN_CACHE_SIZE
#[derive(Debug)]
pub struct Prepared {
    pub columns: Vec<OutputColumn>,
    pub reads: Vec<TableAccess>,
    /// USE: the session change the response tells the client to make.
    pub session_update: Option<SessionUpdate>,
    /// Trino's `updateType` for a statement that changes something instead of reading.
    update_type: Option<&'static str>,
    /// The session's own query_max_run_time / query_max_execution_time (sql/session.rs).
    time_limit: Option<std::time::Duration>,
    body: Body,
    /// How deep the SQLite statement nests (`sqlite_stack::depth`), for the stack it needs.
    sqlite_depth: usize,
    /// The protocol's rendering of `columns`, made once by the server for every run.
    wire_columns: OnceLock<Arc<Box<RawValue>>>,
    /// Nanoseconds the last complete run took (0: never ran), for the server to tell a short
    /// query from a long one before it runs.
    last_run_nanos: AtomicU64,
    /// The memory each run may hold: the budget of the engine that planned it (`None`: the
    /// statement never reaches SQLite).
    budget: Option<Budget>,
}

/// SQLite's error as the query's (a Trino error: the kinds the analyser anticipates) or as the
/// stand-in's own failure ([`InternalError`], which keeps none of SQLite's text: the message
/// may quote the generated statement, row filters included).
fn run_error(e: rusqlite::Error) -> RunError {
    if let Some(refused) = sql::sqlite_limit(&e) {
        return RunError::Query(refused);
    }
    let decoded = match &e {
        rusqlite::Error::SqliteFailure(failure, message) => {
            if failure.code == ErrorCode::OperationInterrupted {
                // Interrupted by a refused allocation (memory.rs), or stopped from outside.
                if memory::interrupted_for_memory() {
                    return RunError::Query(memory::failure(false));
                }
                return RunError::Interrupted;
            }
            // An allocation past the query's budget (see memory.rs) or a value past the length
            // limit.
            if matches!(failure.code, ErrorCode::OutOfMemory | ErrorCode::TooBig) {
                return RunError::Query(memory::failure(failure.code == ErrorCode::TooBig));
            }
            let decoded = message.as_deref().and_then(udf::decode_error);
            if decoded.is_none()
                && message
                    .as_deref()
                    .is_some_and(|m| m.contains("integer overflow"))
            {
                return RunError::Query(TrinoError::new(
                    ErrorName::NumericValueOutOfRange,
                    "bigint addition overflow",
                ));
            }
            decoded
        }
        rusqlite::Error::UserFunctionError(inner) => udf::decode_error(&inner.to_string()),
        _ => None,
    };
    match decoded {
        // A function's own invariant (a stored value it cannot read): the stand-in's fault.
        Some(e) if e.name == ErrorName::GenericInternalError => {
            RunError::Internal(InternalError::new("a function met a value it cannot read"))
        }
        Some(e) => RunError::Query(e),
        None => RunError::Internal(InternalError::sqlite(&e)),
    }
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
    /// The session's time limit for runs of this plan, if it set one.
    pub(super) fn with_time_limit(mut self, limit: Option<std::time::Duration>) -> Self {
        self.time_limit = limit;
        self
    }

    pub fn time_limit(&self) -> Option<std::time::Duration> {
        self.time_limit
    }

    pub(super) fn new(plan: sql::Plan, budget: Option<Budget>) -> Self {
        Self {
            columns: plan.columns,
            reads: plan.reads,
            update_type: plan.session_update.as_ref().map(SessionUpdate::update_type),
            session_update: plan.session_update,
            time_limit: None,
            sqlite_depth: plan.body.sqlite_sql().map_or(0, sqlite_stack::depth),
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
            (_, 0) => None,
            (_, nanos) => Some(Duration::from_nanos(nanos)),
        }
    }

    /// Remembers how long a run took (or at least took, for one stopped early).
    pub fn record_run(&self, took: Duration) {
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX).max(1);
        self.last_run_nanos.store(nanos, Ordering::Relaxed);
    }

    /// The SQLite SQL this query runs, for benchmarks and diagnostics (never logged).
    pub fn sqlite_sql(&self) -> Option<&str> {
        self.body.sqlite_sql()
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
                sqlite_stack::with_stack_for(self.sqlite_depth, || self.run_sql(sql, conn, row))
            }
            Body::Derived { sql, finish } => {
                // A few rows of statistics: all of them first, then what they make.
                let mut rows = Vec::new();
                sqlite_stack::with_stack_for(self.sqlite_depth, || {
                    self.run_sql(sql, conn, &mut |r| {
                        rows.push(r);
                        true
                    })
                })?;
                for r in (finish.0)(rows)? {
                    if !row(r) {
                        break;
                    }
                }
                Ok(())
            }
        }
    }

    /// [`Self::run`] of the SQLite statement `sql`.
    fn run_sql(
        &self,
        sql: &str,
        conn: &Connection,
        row: &mut dyn FnMut(Vec<Value>) -> bool,
    ) -> Result<(), RunError> {
        // From compiling the statement to its last row, SQLite's allocations on this
        // thread are this query's.
        let _scope = self
            .budget
            .clone()
            .map(|budget| memory::Scope::on_connection(budget, conn));
        udf::register_twins(conn, sql).map_err(run_error)?;
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

#[cfg(test)]
mod tests {
    use rusqlite::ffi;

    use super::*;

    /// SQLite's text, as it may come: quoting the generated statement and a row filter.
    const LEAKY: &str = "misuse of aggregate function qm_array_agg() in SELECT qm_v FROM \
                         nation WHERE comment NOT LIKE '%zebra-secret%'";

    fn failure(code: i32, message: &str) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(ffi::Error::new(code), Some(message.into()))
    }

    fn assert_internal(e: rusqlite::Error) {
        let shown = format!("{e:?}");
        match run_error(e) {
            RunError::Internal(internal) => {
                let text = format!("{internal} {internal:?}");
                for leak in ["qm_", "SELECT", "misuse", "zebra"] {
                    assert!(!text.contains(leak), "{leak:?} in {text}");
                }
            }
            other => panic!("{shown} became {other:?}"),
        }
    }

    /// Every SQLite failure but the anticipated kinds (interrupt, out of memory, too big, a
    /// limit, an overflow, a function's Trino error) is the stand-in's own, and keeps nothing
    /// of SQLite's text.
    #[test]
    fn any_sqlite_error_not_anticipated_becomes_internal_without_its_text() {
        let anticipated = [ffi::SQLITE_NOMEM, ffi::SQLITE_INTERRUPT, ffi::SQLITE_TOOBIG];
        for code in (1..=28).filter(|c| !anticipated.contains(c)) {
            assert_internal(failure(code, LEAKY));
            assert_internal(rusqlite::Error::SqliteFailure(ffi::Error::new(code), None));
        }
        assert_internal(rusqlite::Error::SqlInputError {
            error: ffi::Error::new(ffi::SQLITE_ERROR),
            msg: LEAKY.into(),
            sql: LEAKY.into(),
            offset: 7,
        });
        assert_internal(rusqlite::Error::InvalidColumnType(
            0,
            LEAKY.into(),
            rusqlite::types::Type::Text,
        ));
        assert_internal(rusqlite::Error::QueryReturnedNoRows);
        assert_internal(rusqlite::Error::InvalidParameterCount(1, 0));
        assert_internal(rusqlite::Error::UserFunctionError(LEAKY.into()));
        // A function's own invariant is internal too, whatever it said.
        assert_internal(udf::fail(ErrorName::GenericInternalError, LEAKY));
        assert_internal(failure(
            ffi::SQLITE_ERROR,
            &format!("QM!GENERIC_INTERNAL_ERROR!{LEAKY}"),
        ));
    }

    #[test]
    fn the_anticipated_kinds_keep_their_trino_names() {
        let name = |e| match run_error(e) {
            RunError::Query(e) => Some((e.name, e.text)),
            _ => None,
        };
        assert!(matches!(
            run_error(failure(ffi::SQLITE_INTERRUPT, "interrupted")),
            RunError::Interrupted
        ));
        assert_eq!(
            name(udf::fail(ErrorName::DivisionByZero, "Division by zero")),
            Some((ErrorName::DivisionByZero, "Division by zero".into()))
        );
        assert_eq!(
            name(failure(
                ffi::SQLITE_ERROR,
                "QM!DIVISION_BY_ZERO!Division by zero"
            )),
            Some((ErrorName::DivisionByZero, "Division by zero".into()))
        );
        assert_eq!(
            name(failure(ffi::SQLITE_ERROR, "integer overflow")).map(|(n, _)| n),
            Some(ErrorName::NumericValueOutOfRange)
        );
        // Out of memory outside a query: the machine's, CLUSTER_OUT_OF_MEMORY.
        assert_eq!(
            name(failure(ffi::SQLITE_NOMEM, "out of memory")).map(|(n, _)| n),
            Some(ErrorName::ClusterOutOfMemory)
        );
        // A limit of SQLite: the query's, in the stand-in's words, not SQLite's.
        let (limit, text) = name(failure(
            ffi::SQLITE_ERROR,
            "too many references to \"qm_secret\": max 65535",
        ))
        .expect("a Trino error");
        assert_eq!(limit, ErrorName::NotSupported);
        assert!(!text.contains("qm_"), "{text}");
    }
}
