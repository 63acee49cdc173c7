//! The partial file `sf<N>.sqlite.partial`: what it records (the plan's fingerprint, the
//! chunks committed, the time spent, the `complete` marker), how it is opened, started over
//! and removed, and whether the disk can hold it.

use super::*;

/// The time a generation has taken: earlier runs' (recorded in the file) and this one's.
pub(super) struct Clock {
    pub(super) before: Duration,
    pub(super) started: Instant,
}

impl Clock {
    pub(super) fn total(&self) -> Duration {
        self.before + self.started.elapsed()
    }

    /// Records the total in the caller's transaction, so it commits with the work it counts,
    /// and answers the total it recorded: a second reading of the clock would be later.
    pub(super) fn record(&self, conn: &Connection) -> rusqlite::Result<Duration> {
        let total = self.total();
        let ms = i64::try_from(total.as_millis()).unwrap_or(i64::MAX);
        conn.execute(
            &format!("INSERT OR REPLACE INTO \"{META}\" VALUES ('elapsed_ms', ?1)"),
            [ms.to_string()],
        )?;
        Ok(total)
    }
}

/// The time earlier runs spent on the partial file.
pub(super) fn recorded_elapsed(conn: &Connection) -> rusqlite::Result<Duration> {
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
pub(super) fn record_stop(conn: &mut Connection, clock: &Clock) -> rusqlite::Result<Duration> {
    conn.progress_handler(0, None::<fn() -> bool>)?;
    clock.record(conn)
}

/// Whether `file` is a generation that finished.
pub(super) fn is_complete(file: &Path) -> rusqlite::Result<bool> {
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

/// What a partial file must have been started with to be resumed: the same rows, in the same
/// chunks, into the same tables.
pub(super) fn fingerprint(scale: f64, chunk_rows: u64) -> String {
    let ddl: Vec<String> = schema::TABLES.iter().map(schema::create_table).collect();
    format!(
        "tpchgen 4; scale {scale}; chunk rows {chunk_rows}; {}; {}",
        ddl.join("; "),
        schema::INDEXES.join("; ")
    )
}

/// Opens (or starts) the partial file, locked for this process alone. A partial file of
/// another plan, or any with `force`, is started over.
pub(super) fn open_partial(
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

pub(super) fn remove_partial(partial: &Path) -> Result<(), GenerateError> {
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
pub(super) fn start(conn: &Connection, fingerprint: &str) -> rusqlite::Result<()> {
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
pub(super) fn completed_chunks(conn: &Connection) -> rusqlite::Result<Vec<((String, i32), u64)>> {
    let mut s = conn.prepare(&format!("SELECT tbl, part, rows FROM \"{CHUNKS}\""))?;
    s.query_map([], |r| {
        Ok(((r.get(0)?, r.get(1)?), r.get::<_, i64>(2)?.max(0) as u64))
    })?
    .collect()
}

/// Refuses a generation the disk cannot hold (unix: statvfs of `dir`), before it plans
/// (sf100000 would be millions of chunks).
pub(super) fn check_disk(dir: &Path, scale: f64, partial: &Path) -> Result<(), GenerateError> {
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
pub(super) fn available_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statvfs writes into the zeroed struct it is given; the path is NUL-terminated.
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::statvfs(path.as_ptr(), &mut stat) };
    #[allow(clippy::unnecessary_cast)]
    (rc == 0).then(|| stat.f_bavail as u64 * stat.f_frsize as u64)
}

#[cfg(not(unix))]
pub(super) fn available_bytes(_dir: &Path) -> Option<u64> {
    None
}
