//! The rows: the plan of chunks and the writer that commits them in order, one transaction
//! each, from the worker threads that generate them.

use super::*;

#[derive(Clone, Debug)]
pub(super) struct ChunkPlan {
    pub(super) table: &'static str,
    pub(super) part: i32,
    pub(super) parts: i32,
    pub(super) estimated_rows: u64,
}

/// Every chunk of a generation, in writing order: tables as schema::TABLES lists them, each
/// in enough parts that none holds much more than `chunk_rows` rows.
pub(super) fn plan(scale: f64, chunk_rows: u64) -> Vec<ChunkPlan> {
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

pub(super) struct Written {
    pub(super) chunks: usize,
    pub(super) rows: u64,
}

/// Why the writer stopped inside a chunk (its transaction is rolled back).
pub(super) fn cancelled() -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_INTERRUPT),
        Some("cancelled".into()),
    )
}

/// Generates `chunks` on worker threads (worker `w` takes every `workers`th) and writes them
/// in order, each in its own transaction with its progress row.
pub(super) fn write_chunks(
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
