//! `zero-sandbox tpch generate sf<N>`: Trino's `tpch.sf<N>` rows (tpchgen, as build.rs makes
//! tpch.tiny) into `<state>/tpch/sf<N>.sqlite`, which the engine attaches at start.
//!
//! Work is split into chunks, one tpchgen part of one table each, generated on worker threads
//! and written in order by one writer, one transaction per chunk. Each chunk's transaction
//! also records it in `zero_sandbox_tpch_chunks`, so an interrupted run (Ctrl-C, kill) resumes
//! after the last chunk that committed. The file is built under `sf<N>.sqlite.partial` and
//! renamed to its name only once the indexes, the planner statistics and the `complete`
//! marker are in: the engine never sees a half-written schema.
//!
//! Progress is measured in *work*, rows written, so one percentage and one ETA cover the whole
//! generation: building an index counts as its table's rows times [`INDEX_COST`], measured
//! (on sf1 the indexes are 30 % of the time, and a percentage of rows alone said "97 %, ETA
//! 0m00s" for the last 25 s and more). A long `CREATE INDEX` reports its progress as it goes, from
//! the SQLite VM steps it has taken. The same progress handler stops any statement at its
//! next check after a cancel (Ctrl-C), an index build included: within one sort run
//! (`INDEX_SORT_KIB`), about half a second on a loaded machine. The time spent is recorded
//! with each commit, so a resumed generation's final time counts every run.
//!
//! Durability: `synchronous=OFF` (no fsync: a power cut may lose the partial file, a killed
//! process may not), but a rollback journal rather than `journal_mode=OFF`, which would let a
//! process killed mid-chunk leave half a chunk in the file with no way to undo it. Appends
//! journal little: a new page has no old content to save.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, ErrorCode, OptionalExtension};

use super::rows::{self, Chunk};
use super::schema;

/// The schemas Trino's tpch connector lists (`TpchMetadata.SCHEMA_NAMES`); it answers any
/// other `sf<N>` too, unlisted.
pub const LISTED_SCHEMAS: &[&str] = &[
    "tiny", "sf1", "sf100", "sf300", "sf1000", "sf3000", "sf10000", "sf30000", "sf100000",
];

/// Rows per chunk unless told otherwise: ~60 chunks for sf1's lineitem, each a few seconds.
pub const CHUNK_ROWS: u64 = 100_000;
/// Bytes of SQLite file per unit of scale, measured on sf1 with its indexes: 1.66 GB.
const BYTES_PER_SCALE: f64 = 1.66e9;
/// Page cache of the writing connection.
const WRITER_CACHE_KIB: i64 = 256 * 1024;
/// Page cache while the indexes are built, which is also how much a `CREATE INDEX` sorts in
/// memory at once (SQLite's sorter). Sorting one run is a single VM step, which no progress
/// handler or `sqlite3_interrupt` can stop: sf1's lineitem keys sorted in one 256 MB run took
/// seconds to answer Ctrl-C; in 16 MB runs, merged step by step, it answers at once.
const INDEX_SORT_KIB: i64 = 16 * 1024;
/// No helper threads for the sorter: with them, its merge is set up in one long step that
/// waits for them (seconds on sf0.1 under load), which no cancel can stop.
const SORTER_THREADS: i64 = 0;
/// Rows ANALYZE samples per index: statistics as good for the planner, in seconds not minutes.
const ANALYSIS_LIMIT: i64 = 2000;

/// Work of indexing one row, in rows generated and written (see the module's doc): the
/// indexes' time per row indexed over the rows' time per row written. Measured on sf1 (8.66
/// million rows, 22 million indexed): the indexes took 34 s of CPU, and 3m05s of wall time
/// after the rows' 7m06s on a loaded 2-core machine (0.17); against the rows' 80 s of CPU in
/// a release build (README) 0.17 too. `RUST_LOG=zero_sandbox=debug` logs each phase's time.
pub const INDEX_COST: f64 = 0.17;
/// Work of the planner statistics (ANALYZE, sampled), in rows per unit of scale.
const STATISTICS_WORK_PER_SCALE: f64 = 50_000.0;
/// SQLite VM steps between two calls of the progress handler: ~1 ms of work.
const STEPS_PER_CHECK: i32 = 10_000;
/// SQLite VM steps per row a `CREATE INDEX` takes (scan, sort, insert), measured on sf0.1
/// (10 to 11; `RUST_LOG=…=debug` logs it): turns the steps taken into a share of the index
/// built.
const STEPS_PER_INDEXED_ROW: f64 = 10.0;
/// How often a long index build reports its progress.
const INDEX_TICK: Duration = Duration::from_millis(250);

const META: &str = "zero_sandbox_tpch";
const CHUNKS: &str = "zero_sandbox_tpch_chunks";

/// The scale factor of a tpch schema name as Trino's `TpchMetadata.schemaNameToScaleFactor`
/// reads it: `tiny` is 0.01, `sf<N>` is N for a positive finite number N.
pub fn scale_of(schema: &str) -> Option<f64> {
    if schema == "tiny" {
        return Some(0.01);
    }
    let number = schema.strip_prefix("sf")?;
    // Digits, a point and an exponent: no `inf`, `nan` or signs in a file name.
    let plain = !number.is_empty()
        && number
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E'));
    let scale: f64 = number.parse().ok().filter(|_| plain)?;
    (scale.is_finite() && scale > 0.0).then_some(scale)
}

/// Where generated schemas are kept in a state directory.
pub fn generated_dir(state_dir: &Path) -> PathBuf {
    state_dir.join("tpch")
}

/// The finished file of `schema` in `state_dir`.
pub fn schema_file(state_dir: &Path, schema: &str) -> PathBuf {
    generated_dir(state_dir).join(format!("{schema}.sqlite"))
}

fn partial_file(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// What a generation is asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// Regenerate a complete schema, and start an interrupted one over.
    pub force: bool,
    pub chunk_rows: u64,
    /// Stop after writing this many chunks in this run (tests of resuming).
    pub chunk_limit: Option<usize>,
    /// Set to stop at the next chunk boundary or progress step, the chunk in flight undone
    /// (static: a signal handler sets it).
    pub cancel: Option<&'static AtomicBool>,
    /// Threads generating rows while one writes them.
    pub workers: usize,
}

impl Default for Options {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self {
            force: false,
            chunk_rows: CHUNK_ROWS,
            chunk_limit: None,
            cancel: None,
            workers: cores.saturating_sub(1).clamp(1, 3),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The schema was already complete; nothing was written.
    AlreadyComplete(PathBuf),
    Generated {
        path: PathBuf,
        rows: u64,
        /// Time spent on this generation by every run, this one included.
        elapsed: Duration,
        /// Of `elapsed`, that of earlier, interrupted runs (zero when this run did it all).
        earlier: Duration,
    },
    /// Stopped by the chunk limit or the cancel flag; running again continues.
    Stopped {
        chunks_done: usize,
        chunks: usize,
        /// Time spent on this generation so far, by every run.
        elapsed: Duration,
    },
}

/// What the generation is doing, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Rows,
    Indexes,
    Statistics,
}

/// A progress snapshot. Row totals are estimates until lineitem is written (tpchgen gives it
/// one to seven lines per order).
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    pub stage: Stage,
    pub table: &'a str,
    /// Rows of every table written, including those of an earlier, interrupted run.
    pub rows: u64,
    pub estimated_rows: u64,
    /// Of `rows`, those written by this run (for a rate).
    pub rows_this_run: u64,
    /// The whole generation's work done, indexes included (see the module's doc), of
    /// `total_work`: what a percentage and an ETA are taken from.
    pub work: u64,
    pub total_work: u64,
    /// Of `work`, that done by this run (for a rate).
    pub work_this_run: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error(
        "{0:?} is not a tpch schema: give sf<N> for a scale factor N, as Trino's tpch \
         connector names them (sf1, sf10, sf100, sf0.1, …)"
    )]
    NotASchema(String),
    #[error("tpch.tiny is built in: there is nothing to generate")]
    Tiny,
    #[error(
        "at scale factor {0} tpchgen repeats some partsupp keys (as dbgen does below about \
         0.01), which the tables' primary keys refuse: choose a larger scale factor"
    )]
    RepeatedKeys(f64),
    #[error("another `tpch generate` is writing {}", .0.display())]
    Busy(PathBuf),
    #[error(
        "{} exists but is not a finished generation; run again with --force to replace it",
        .0.display()
    )]
    NotOurs(PathBuf),
    #[error(
        "scale factor {scale} needs about {needed} GB of disk in {}, which has {available} GB free",
        dir.display()
    )]
    Disk {
        scale: f64,
        dir: PathBuf,
        needed: u64,
        available: u64,
    },
    #[error("cannot {action} {}: {source}", path.display())]
    File {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("writing {}: {source}", path.display())]
    Sqlite {
        path: PathBuf,
        source: rusqlite::Error,
    },
}

/// Generates `schema` (a name `sf<N>`) into `state_dir`.
pub fn generate(
    state_dir: &Path,
    schema: &str,
    options: &Options,
    progress: &mut (dyn FnMut(&Report<'_>) + Send),
) -> Result<Outcome, GenerateError> {
    if schema == "tiny" {
        return Err(GenerateError::Tiny);
    }
    let scale = scale_of(schema).ok_or_else(|| GenerateError::NotASchema(schema.to_string()))?;
    generate_at_scale(&schema_file(state_dir, schema), scale, options, progress)
}

/// [`generate`] into `file` at any `scale`, whatever the file is named (tests generate a small
/// scale under a real schema's name).
#[doc(hidden)]
pub fn generate_at_scale(
    file: &Path,
    scale: f64,
    options: &Options,
    progress: &mut (dyn FnMut(&Report<'_>) + Send),
) -> Result<Outcome, GenerateError> {
    let sqlite = |source| GenerateError::Sqlite {
        path: file.to_path_buf(),
        source,
    };
    if file.exists() && !options.force {
        return if is_complete(file).map_err(sqlite)? {
            Ok(Outcome::AlreadyComplete(file.to_path_buf()))
        } else {
            Err(GenerateError::NotOurs(file.to_path_buf()))
        };
    }
    let partial = partial_file(file);
    let sqlite = |source| GenerateError::Sqlite {
        path: partial.clone(),
        source,
    };
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|source| GenerateError::File {
        action: "create",
        path: dir.to_path_buf(),
        source,
    })?;
    check_disk(dir, scale, &partial)?;
    let plan = plan(scale, options.chunk_rows);
    let fingerprint = fingerprint(scale, options.chunk_rows);
    let mut conn = open_partial(&partial, &fingerprint, options.force)?;
    let clock = Clock {
        before: recorded_elapsed(&conn).map_err(sqlite)?,
        started: Instant::now(),
    };
    let steps = Arc::new(AtomicU64::new(0));
    watch_steps(&mut conn, options.cancel, &steps).map_err(sqlite)?;
    let done = completed_chunks(&conn).map_err(sqlite)?;
    let mut rows_so_far: u64 = done.iter().map(|(_, rows)| rows).sum();
    let done_keys: std::collections::HashSet<(&str, i32)> =
        done.iter().map(|((t, p), _)| (t.as_str(), *p)).collect();
    let remaining: Vec<&ChunkPlan> = plan
        .iter()
        .filter(|c| !done_keys.contains(&(c.table, c.part)))
        .collect();
    let estimated = plan.iter().map(|c| c.estimated_rows).sum::<u64>();
    let after_rows = finishing_work(scale);
    let written = write_chunks(
        &mut conn,
        &remaining,
        scale,
        options,
        &clock,
        &mut |table, rows_this_run| {
            let rows = rows_so_far + rows_this_run;
            let estimated_rows = estimated.max(rows);
            progress(&Report {
                stage: Stage::Rows,
                table,
                rows,
                estimated_rows,
                rows_this_run,
                work: rows,
                total_work: estimated_rows + after_rows,
                work_this_run: rows_this_run,
            })
        },
    )
    .map_err(|e| match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == ErrorCode::ConstraintViolation => {
            GenerateError::RepeatedKeys(scale)
        }
        e => sqlite(e),
    })?;
    rows_so_far += written.rows;
    tracing::debug!(
        rows = written.rows,
        ms = clock.started.elapsed().as_millis() as u64,
        "rows written"
    );
    if written.chunks < remaining.len() {
        return Ok(Outcome::Stopped {
            chunks_done: plan.len() - remaining.len() + written.chunks,
            chunks: plan.len(),
            elapsed: record_stop(&mut conn, &clock).map_err(sqlite)?,
        });
    }
    let mut report = |stage: Stage, table: &str, work: u64, work_this_run: u64| {
        progress(&Report {
            stage,
            table,
            rows: rows_so_far,
            estimated_rows: rows_so_far,
            rows_this_run: written.rows,
            work: rows_so_far + work,
            total_work: rows_so_far + after_rows,
            work_this_run: written.rows + work_this_run,
        })
    };
    let finishing = Finishing {
        scale,
        clock: &clock,
        steps: &steps,
        cancel: options.cancel,
    };
    if !finish(&mut conn, &finishing, &mut report).map_err(sqlite)? {
        return Ok(Outcome::Stopped {
            chunks_done: plan.len(),
            chunks: plan.len(),
            elapsed: record_stop(&mut conn, &clock).map_err(sqlite)?,
        });
    }
    let elapsed = clock.total();
    conn.close().map_err(|(_, e)| sqlite(e))?;
    std::fs::rename(&partial, file).map_err(|source| GenerateError::File {
        action: "store",
        path: file.to_path_buf(),
        source,
    })?;
    Ok(Outcome::Generated {
        path: file.to_path_buf(),
        rows: rows_so_far,
        elapsed,
        earlier: clock.before,
    })
}

/// The time a generation has taken: earlier runs' (recorded in the file) and this one's.
struct Clock {
    before: Duration,
    started: Instant,
}

impl Clock {
    fn total(&self) -> Duration {
        self.before + self.started.elapsed()
    }

    /// Records the total in the caller's transaction, so it commits with the work it counts.
    fn record(&self, conn: &Connection) -> rusqlite::Result<()> {
        let ms = i64::try_from(self.total().as_millis()).unwrap_or(i64::MAX);
        conn.execute(
            &format!("INSERT OR REPLACE INTO \"{META}\" VALUES ('elapsed_ms', ?1)"),
            [ms.to_string()],
        )?;
        Ok(())
    }
}

/// The time earlier runs spent on the partial file.
fn recorded_elapsed(conn: &Connection) -> rusqlite::Result<Duration> {
    let ms = conn
        .query_row(
            &format!("SELECT value FROM \"{META}\" WHERE key = 'elapsed_ms'"),
            [],
            |r| r.get::<_, String>(0),
        )
        .optional()?;
    Ok(Duration::from_millis(
        ms.and_then(|m| m.parse().ok()).unwrap_or(0),
    ))
}

/// On a stop: the handler off (the cancel flag that stopped the run would stop this write
/// too), and the time so far recorded.
fn record_stop(conn: &mut Connection, clock: &Clock) -> rusqlite::Result<Duration> {
    conn.progress_handler(0, None::<fn() -> bool>)?;
    clock.record(conn)?;
    Ok(clock.total())
}

/// Counts the SQLite VM steps the connection takes into `steps` and, when `cancel` is set,
/// fails the running statement with SQLITE_INTERRUPT within [`STEPS_PER_CHECK`] steps: the
/// only way to stop a long `CREATE INDEX` (seconds on sf1) or `ANALYZE` part-way. A handler
/// rather than `sqlite3_interrupt` from the signal handler: it reads an atomic on the
/// connection's own thread, with no connection pointer to share with a signal handler.
fn watch_steps(
    conn: &mut Connection,
    cancel: Option<&'static AtomicBool>,
    steps: &Arc<AtomicU64>,
) -> rusqlite::Result<()> {
    let steps = Arc::clone(steps);
    conn.progress_handler(
        STEPS_PER_CHECK,
        Some(move || {
            steps.fetch_add(STEPS_PER_CHECK as u64, Ordering::Relaxed);
            cancel.is_some_and(|c| c.load(Ordering::Relaxed))
        }),
    )
}

/// The table an index of [`schema::INDEXES`] is on.
fn indexed_table(index: &str) -> &str {
    index
        .split_once(" ON ")
        .and_then(|(_, rest)| rest.split_once('('))
        .map_or("", |(table, _)| table.trim())
}

/// The work of building `index` at `scale`, in rows written.
fn index_work(index: &str, scale: f64) -> u64 {
    (rows::estimated_rows(indexed_table(index), scale) as f64 * INDEX_COST) as u64
}

fn statistics_work(scale: f64) -> u64 {
    ((scale * STATISTICS_WORK_PER_SCALE) as u64).max(1)
}

/// The work after the rows: every index and the statistics.
fn finishing_work(scale: f64) -> u64 {
    schema::INDEXES
        .iter()
        .map(|i| index_work(i, scale))
        .sum::<u64>()
        + statistics_work(scale)
}

fn interrupted(result: &rusqlite::Result<()>) -> bool {
    matches!(result, Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == ErrorCode::OperationInterrupted)
}

/// Whether `file` is a generation that finished.
pub fn is_complete(file: &Path) -> rusqlite::Result<bool> {
    let conn = Connection::open_with_flags(file, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let marker = conn
        .query_row(
            &format!("SELECT value FROM \"{META}\" WHERE key = 'complete'"),
            [],
            |r| r.get::<_, String>(0),
        )
        .optional();
    match marker {
        Ok(m) => Ok(m.is_some()),
        // No such table: some other SQLite file.
        Err(rusqlite::Error::SqliteFailure(_, Some(m))) if m.contains("no such table") => Ok(false),
        Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == ErrorCode::NotADatabase => Ok(false),
        Err(e) => Err(e),
    }
}

#[derive(Clone, Debug)]
struct ChunkPlan {
    table: &'static str,
    part: i32,
    parts: i32,
    estimated_rows: u64,
}

/// Every chunk of a generation, in writing order: tables as schema::TABLES lists them, each
/// in enough parts that none holds much more than `chunk_rows` rows.
fn plan(scale: f64, chunk_rows: u64) -> Vec<ChunkPlan> {
    let mut chunks = Vec::new();
    for table in schema::TABLES {
        let estimated = rows::estimated_rows(table.name, scale);
        let parts = match table.name {
            "nation" | "region" => 1,
            _ => estimated
                .div_ceil(chunk_rows.max(1))
                .clamp(1, i32::MAX as u64) as i32,
        };
        for part in 1..=parts {
            chunks.push(ChunkPlan {
                table: table.name,
                part,
                parts,
                estimated_rows: estimated / parts as u64,
            });
        }
    }
    chunks
}

/// What a partial file must have been started with to be resumed: the same rows, in the same
/// chunks, into the same tables.
fn fingerprint(scale: f64, chunk_rows: u64) -> String {
    let ddl: Vec<String> = schema::TABLES.iter().map(schema::create_table).collect();
    format!(
        "tpchgen 4; scale {scale}; chunk rows {chunk_rows}; {}; {}",
        ddl.join("; "),
        schema::INDEXES.join("; ")
    )
}

/// Opens (or starts) the partial file, locked for this process alone. A partial file of
/// another plan, or any with `force`, is started over.
fn open_partial(
    partial: &Path,
    fingerprint: &str,
    force: bool,
) -> Result<Connection, GenerateError> {
    let sqlite = |source| GenerateError::Sqlite {
        path: partial.to_path_buf(),
        source,
    };
    for attempt in 0..2 {
        let conn = Connection::open(partial).map_err(sqlite)?;
        conn.busy_timeout(std::time::Duration::ZERO)
            .map_err(sqlite)?;
        // EXCLUSIVE: the lock taken by the first write is kept until the connection closes,
        // so a second `tpch generate` of the same schema is refused rather than interleaved.
        conn.pragma_update(None, "locking_mode", "EXCLUSIVE")
            .map_err(sqlite)?;
        let locked = conn.execute_batch("BEGIN EXCLUSIVE; COMMIT");
        match locked {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if matches!(e.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) =>
            {
                return Err(GenerateError::Busy(partial.to_path_buf()));
            }
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == ErrorCode::NotADatabase && attempt == 0 =>
            {
                drop(conn);
                remove_partial(partial)?;
                continue;
            }
            other => other.map_err(sqlite)?,
        }
        conn.pragma_update(None, "journal_mode", "DELETE")
            .map_err(sqlite)?;
        conn.pragma_update(None, "synchronous", "OFF")
            .map_err(sqlite)?;
        conn.pragma_update(None, "cache_size", -WRITER_CACHE_KIB)
            .map_err(sqlite)?;
        let started = conn
            .query_row(
                &format!("SELECT value FROM \"{META}\" WHERE key = 'plan'"),
                [],
                |r| r.get::<_, String>(0),
            )
            .optional();
        let resumable = matches!(&started, Ok(Some(p)) if p == fingerprint) && !force;
        if resumable {
            return Ok(conn);
        }
        let empty = conn
            .query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
                r.get::<_, i64>(0)
            })
            .map_err(sqlite)?
            == 0;
        if !empty {
            // Another plan, or --force: start over in a new file.
            drop(conn);
            remove_partial(partial)?;
            if attempt == 0 {
                continue;
            }
            return Err(GenerateError::NotOurs(partial.to_path_buf()));
        }
        start(&conn, fingerprint).map_err(sqlite)?;
        return Ok(conn);
    }
    Err(GenerateError::NotOurs(partial.to_path_buf()))
}

fn remove_partial(partial: &Path) -> Result<(), GenerateError> {
    let mut journal = partial.as_os_str().to_owned();
    journal.push("-journal");
    for path in [partial.to_path_buf(), PathBuf::from(journal)] {
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(GenerateError::File {
                    action: "remove",
                    path,
                    source,
                });
            }
        }
    }
    Ok(())
}

/// The tables (tpch.tiny's definitions), the progress table and the plan, in one transaction.
fn start(conn: &Connection, fingerprint: &str) -> rusqlite::Result<()> {
    let tx = conn.unchecked_transaction()?;
    for table in schema::TABLES {
        tx.execute_batch(&schema::create_table(table))?;
    }
    tx.execute_batch(&format!(
        "CREATE TABLE \"{META}\" (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
         CREATE TABLE \"{CHUNKS}\" (tbl TEXT NOT NULL, part INTEGER NOT NULL,
             rows INTEGER NOT NULL, PRIMARY KEY (tbl, part)) WITHOUT ROWID;"
    ))?;
    tx.execute(
        &format!("INSERT INTO \"{META}\" VALUES ('plan', ?1)"),
        [fingerprint],
    )?;
    tx.commit()
}

/// ((table, part), rows) of every chunk committed so far.
fn completed_chunks(conn: &Connection) -> rusqlite::Result<Vec<((String, i32), u64)>> {
    let mut s = conn.prepare(&format!("SELECT tbl, part, rows FROM \"{CHUNKS}\""))?;
    s.query_map([], |r| {
        Ok(((r.get(0)?, r.get(1)?), r.get::<_, i64>(2)?.max(0) as u64))
    })?
    .collect()
}

/// Refuses a generation the disk cannot hold (unix: statvfs of `dir`), before it plans
/// (sf100000 would be millions of chunks).
fn check_disk(dir: &Path, scale: f64, partial: &Path) -> Result<(), GenerateError> {
    let Some(available) = available_bytes(dir) else {
        return Ok(());
    };
    let have = std::fs::metadata(partial).map_or(0, |m| m.len());
    // Index builds sort through temporary files: count half the file again.
    let needed = ((scale * BYTES_PER_SCALE * 1.5) as u64).saturating_sub(have);
    if needed > available {
        let gb = |b: u64| b.div_ceil(1_000_000_000);
        return Err(GenerateError::Disk {
            scale,
            dir: dir.to_path_buf(),
            needed: gb(needed),
            available: available / 1_000_000_000,
        });
    }
    Ok(())
}

#[cfg(unix)]
fn available_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs writes into the zeroed struct it is given; the path is NUL-terminated.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::statvfs(path.as_ptr(), &mut stat) };
    #[allow(clippy::unnecessary_cast)]
    (rc == 0).then(|| stat.f_bavail as u64 * stat.f_frsize as u64)
}

#[cfg(not(unix))]
fn available_bytes(_dir: &Path) -> Option<u64> {
    None
}

struct Written {
    chunks: usize,
    rows: u64,
}

/// Why the writer stopped inside a chunk (its transaction is rolled back).
fn cancelled() -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_INTERRUPT),
        Some("cancelled".into()),
    )
}

/// Generates `chunks` on worker threads (worker `w` takes every `workers`th) and writes them
/// in order, each in its own transaction with its progress row.
fn write_chunks(
    conn: &mut Connection,
    chunks: &[&ChunkPlan],
    scale: f64,
    options: &Options,
    clock: &Clock,
    progress: &mut dyn FnMut(&str, u64),
) -> rusqlite::Result<Written> {
    let limit = options.chunk_limit.unwrap_or(usize::MAX).min(chunks.len());
    let to_write = &chunks[..limit];
    let workers = options.workers.clamp(1, 8).min(to_write.len().max(1));
    let is_cancelled = || {
        options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    };
    let mut written = Written { chunks: 0, rows: 0 };
    std::thread::scope(|scope| {
        let mut receivers = Vec::new();
        for w in 0..workers {
            // One chunk ready ahead per worker bounds memory (~15 MB per lineitem chunk).
            let (send, receive) = mpsc::sync_channel::<Chunk>(1);
            receivers.push(receive);
            let mine: Vec<ChunkPlan> = to_write
                .iter()
                .skip(w)
                .step_by(workers)
                .map(|c| (*c).clone())
                .collect();
            scope.spawn(move || {
                for c in mine {
                    let Some(chunk) = Chunk::generate(c.table, scale, c.part, c.parts) else {
                        return;
                    };
                    // The writer hung up (finished, cancelled or failed): stop too.
                    if send.send(chunk).is_err() {
                        return;
                    }
                }
            });
        }
        let result = (|| {
            for (i, plan) in to_write.iter().enumerate() {
                if is_cancelled() {
                    return Ok(());
                }
                let Ok(chunk) = receivers[i % workers].recv() else {
                    return Err(rusqlite::Error::InvalidQuery);
                };
                let tx = conn.transaction()?;
                let before = written.rows;
                chunk.insert(&tx, &mut |n| {
                    progress(plan.table, before + n);
                    if is_cancelled() {
                        Err(cancelled())
                    } else {
                        Ok(())
                    }
                })?;
                let rows = chunk.len() as u64;
                tx.execute(
                    &format!("INSERT INTO \"{CHUNKS}\" VALUES (?1, ?2, ?3)"),
                    rusqlite::params![plan.table, plan.part, rows as i64],
                )?;
                clock.record(&tx)?;
                tx.commit()?;
                written.chunks += 1;
                written.rows += rows;
                progress(plan.table, written.rows);
            }
            Ok(())
        })();
        // Dropping the receivers ends every worker at its next send.
        drop(receivers);
        match result {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == ErrorCode::OperationInterrupted =>
            {
                Ok(())
            }
            other => other,
        }
    })?;
    Ok(written)
}

/// What [`finish`] needs besides the connection.
struct Finishing<'a> {
    scale: f64,
    clock: &'a Clock,
    /// The VM steps the connection has taken ([`watch_steps`]).
    steps: &'a AtomicU64,
    cancel: Option<&'static AtomicBool>,
}

/// The indexes (each in its own transaction, skipping those a resumed run already has), the
/// planner statistics, and the `complete` marker; `false` when cancelled. `report` gets the
/// stage, the index, and the work of this phase done in all and by this run.
fn finish(
    conn: &mut Connection,
    f: &Finishing<'_>,
    report: &mut (dyn FnMut(Stage, &str, u64, u64) + Send),
) -> rusqlite::Result<bool> {
    let (mut done, mut this_run) = (0, 0);
    conn.pragma_update(None, "cache_size", -INDEX_SORT_KIB)?;
    conn.pragma_update(None, "threads", SORTER_THREADS)?;
    for index in schema::INDEXES {
        if f.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Ok(false);
        }
        let name = index.split_whitespace().nth(2).unwrap_or_default();
        let work = index_work(index, f.scale);
        let exists: bool = conn.query_row(
            "SELECT count(*) > 0 FROM sqlite_schema WHERE type = 'index' AND name = ?1",
            [name],
            |r| r.get(0),
        )?;
        if exists {
            done += work;
            continue;
        }
        report(Stage::Indexes, name, done, this_run);
        let rows = rows::estimated_rows(indexed_table(index), f.scale).max(1);
        let (started, steps_before) = (Instant::now(), f.steps.load(Ordering::Relaxed));
        let built = with_ticks(
            f.steps,
            rows,
            &mut |share| {
                let part = (work as f64 * share) as u64;
                report(Stage::Indexes, name, done + part, this_run + part)
            },
            || {
                let tx = conn.transaction()?;
                tx.execute_batch(index)?;
                f.clock.record(&tx)?;
                tx.commit()
            },
        );
        if interrupted(&built) {
            tracing::debug!(index = name, "index build interrupted");
            return Ok(false);
        }
        built?;
        // What INDEX_COST and STEPS_PER_INDEXED_ROW are measured from.
        tracing::debug!(
            index = name,
            rows,
            ms = started.elapsed().as_millis() as u64,
            steps_per_row = (f.steps.load(Ordering::Relaxed) - steps_before) as f64 / rows as f64,
            "index built"
        );
        done += work;
        this_run += work;
    }
    report(Stage::Statistics, "", done, this_run);
    let started = Instant::now();
    conn.pragma_update(None, "analysis_limit", ANALYSIS_LIMIT)?;
    let analysed = conn.execute_batch("ANALYZE");
    tracing::debug!(
        ms = started.elapsed().as_millis() as u64,
        "statistics collected"
    );
    if interrupted(&analysed) {
        return Ok(false);
    }
    analysed?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let tx = conn.transaction()?;
    tx.execute(
        &format!("INSERT OR REPLACE INTO \"{META}\" VALUES ('complete', ?1)"),
        [now.to_string()],
    )?;
    f.clock.record(&tx)?;
    tx.commit()?;
    Ok(true)
}

/// Runs `work` (one statement over `rows` rows) while a thread calls `tick` every
/// [`INDEX_TICK`] with the share of it done, estimated from the VM steps taken and below 1.
fn with_ticks<T>(
    steps: &AtomicU64,
    rows: u64,
    tick: &mut (dyn FnMut(f64) + Send),
    work: impl FnOnce() -> T,
) -> T {
    let start = steps.load(Ordering::Relaxed);
    let expected = rows as f64 * STEPS_PER_INDEXED_ROW;
    let tick = Mutex::new(tick);
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<()>();
        let tick = &tick;
        scope.spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(INDEX_TICK) {
                let taken = steps.load(Ordering::Relaxed).saturating_sub(start) as f64;
                if let Ok(mut tick) = tick.lock() {
                    tick((taken / expected).min(0.99));
                }
            }
        });
        let result = work();
        drop(done);
        result
    })
}

#[cfg(test)]
mod tests;
