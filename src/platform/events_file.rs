//! `[events] file`: every journal event appended to a file as one JSON line, by a task that
//! waits on [`Journal::subscribe`] and reads from its own cursor — no polling, and a slow disk
//! never holds up [`Journal::record`] (the journal's ring is the only buffer).
//!
//! When the ring drops events before the task read them, the file says how many with an
//! `{"type":"EVENTS_DROPPED","count":N}` line where they would have been, so the file never
//! silently lacks events. A write that fails is logged once (the file name, never an event)
//! and the task goes on; the file is opened before the sandbox starts, so an unwritable path
//! refuses the start instead.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::json;
use tokio::sync::watch;

use super::journal::{Journal, MAX_PAGE, Page};

/// The events file, opened for appending (created when missing).
pub struct EventsFile {
    path: PathBuf,
    file: File,
}

/// Why the events file cannot be opened; the sandbox does not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot open the events file {path} ([events] file) for appending: {source}")]
pub struct EventsFileError {
    pub path: PathBuf,
    pub source: std::io::Error,
}

impl EventsFile {
    /// Opens `path`, relative to the working directory as every configured path is.
    pub fn open(path: &Path) -> Result<Self, EventsFileError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|source| EventsFileError {
                path: path.to_path_buf(),
                source,
            })?;
        Ok(Self {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends every event of `journal` from the first, until `shutdown` turns true; then
    /// writes what was recorded until then and returns.
    pub async fn write_from(self, journal: Journal, mut shutdown: watch::Receiver<bool>) {
        let mut recorded = journal.subscribe();
        let mut writer = Writer {
            out: Some(self),
            cursor: 0,
            failed: false,
        };
        loop {
            // Marked seen before reading, so an event recorded during the read wakes us again.
            recorded.borrow_and_update();
            writer.drain(&journal).await;
            if *shutdown.borrow() {
                return;
            }
            tokio::select! {
                changed = recorded.changed() => if changed.is_err() { return },
                _ = shutdown.changed() => {}
            }
        }
    }
}

struct Writer {
    /// The file, away in a blocking task while a write is under way.
    out: Option<EventsFile>,
    /// The id of the last event accounted for in the file.
    cursor: u64,
    /// A write has failed and was logged: later failures are not logged again.
    failed: bool,
}

impl Writer {
    /// Writes every event after the cursor, a page at a time.
    async fn drain(&mut self, journal: &Journal) {
        loop {
            let page = journal.read(self.cursor, None, None, MAX_PAGE);
            let (lines, next) = lines_after(self.cursor, &page);
            if lines.is_empty() {
                return;
            }
            self.cursor = next;
            self.write(lines).await;
        }
    }

    async fn write(&mut self, lines: Vec<u8>) {
        let Some(mut out) = self.out.take() else {
            return;
        };
        let written = tokio::task::spawn_blocking(move || {
            let result = out.file.write_all(&lines);
            (out, result)
        })
        .await;
        // Failing to join: the blocking pool is going away with the runtime, and the file
        // with it; nothing more can be written.
        let Ok((out, result)) = written else {
            return;
        };
        if let Err(e) = result
            && !std::mem::replace(&mut self.failed, true)
        {
            tracing::error!(
                file = %out.path.display(),
                "cannot append to the events file ({e}); events go on in the journal"
            );
        }
        self.out = Some(out);
    }
}

/// The JSON lines for `page`, read after `cursor`: an `EVENTS_DROPPED` line for each gap the
/// ring's bound left, then the events; and the new cursor.
fn lines_after(cursor: u64, page: &Page) -> (Vec<u8>, u64) {
    let mut lines = Vec::new();
    let mut at = cursor;
    for event in &page.events {
        dropped(&mut lines, event.id - at - 1);
        if let Ok(line) = serde_json::to_vec(event) {
            lines.extend_from_slice(&line);
            lines.push(b'\n');
        }
        at = event.id;
    }
    // Everything up to `next` went before it could be read.
    if page.next > at {
        dropped(&mut lines, page.next - at);
        at = page.next;
    }
    (lines, at)
}

/// The line that accounts for `count` events the ring dropped unread, when there are any.
fn dropped(lines: &mut Vec<u8>, count: u64) {
    if count > 0 {
        let line = json!({ "type": "EVENTS_DROPPED", "count": count });
        lines.extend_from_slice(line.to_string().as_bytes());
        lines.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::{Clock, NewEvent, Source};

    #[tokio::test]
    async fn a_write_that_fails_is_noted_once_and_the_writer_goes_on() {
        // Linux's /dev/full opens, and every write to it fails (ENOSPC).
        let Ok(out) = EventsFile::open(Path::new("/dev/full")) else {
            return;
        };
        let journal = Journal::default();
        let mut writer = Writer {
            out: Some(out),
            cursor: 0,
            failed: false,
        };
        for _ in 0..2 {
            journal.record(NewEvent::new(Source::Edge, "SESSION_STARTED"));
            writer.drain(&journal).await;
            assert!(writer.failed && writer.out.is_some());
        }
        assert_eq!(
            writer.cursor, 2,
            "the cursor moves on past what could not be written"
        );
    }

    #[tokio::test]
    async fn the_writer_appends_each_event_and_stops_with_the_sandbox() {
        let dir = std::env::temp_dir().join(format!("events-file-{}", rand::random::<u64>()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("events.jsonl");
        let journal = Journal::default();
        journal.record(NewEvent::new(Source::Edge, "SESSION_STARTED"));
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(
            EventsFile::open(&path)
                .unwrap()
                .write_from(journal.clone(), stopped),
        );
        journal.record(NewEvent::new(Source::Edge, "SESSION_ENDED"));
        stop.send_replace(true);
        task.await.unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let kinds: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["type"].to_string())
            .collect();
        assert_eq!(kinds, ["\"SESSION_STARTED\"", "\"SESSION_ENDED\""]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_gap_in_the_ring_is_one_dropped_line_with_its_count() {
        let journal = Journal::new(3, Clock::default());
        for _ in 0..10 {
            journal.record(NewEvent::new(Source::Broker, "QUERY"));
        }
        let (lines, next) = lines_after(2, &journal.read(2, None, None, MAX_PAGE));
        let text = String::from_utf8(lines).expect("utf-8");
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .collect();
        assert_eq!(lines[0], json!({ "type": "EVENTS_DROPPED", "count": 5 }));
        let ids: Vec<u64> = lines[1..]
            .iter()
            .map(|e| e["id"].as_u64().unwrap())
            .collect();
        assert_eq!((ids, next), (vec![8, 9, 10], 10));
    }
}
