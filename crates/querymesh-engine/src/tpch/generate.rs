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

mod chunks;
mod finish;
mod partial;

use chunks::*;
use finish::*;
use partial::*;

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

#[cfg(test)]
mod tests;
