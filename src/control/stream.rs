//! `events/stream`: the journal as server-sent events (WHATWG HTML §9.2), what the console's
//! activity panel reads. Each event is `id`/`event`/`data`, resumed from `Last-Event-ID` (what
//! an `EventSource` sends when it reconnects) or `since`, filtered as `GET events` filters, and
//! woken by [`crate::platform::Journal::subscribe`] — nothing polls.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};

use super::ControlState;
use super::error::{ApiError, QueryParams};
use crate::platform::Journal;
use crate::platform::journal::{Event, MAX_PAGE};

/// Streams open at once; each holds a connection and a task, so past this many the next is
/// refused with 503 rather than let a runaway page exhaust the listener.
pub const MAX_STREAMS: usize = 32;
/// A comment this often keeps proxies and the listener's idle deadline from cutting a quiet
/// stream (HTML §9.2.7 suggests one every 15 seconds or so).
pub const HEARTBEAT: Duration = Duration::from_secs(15);
/// How long an `EventSource` waits before reconnecting, in ms (the stream's `retry` field).
const RETRY_MS: u64 = 2000;

/// The streams' cap and the sandbox's shutdown, shared by every clone of the control state.
#[derive(Clone)]
pub struct Streams {
    permits: Arc<Semaphore>,
    /// `true` once the sandbox shuts down: every stream then ends, so graceful shutdown does
    /// not wait on them. `None`: never (a control router built without one, in unit tests).
    shutdown: Option<watch::Receiver<bool>>,
}

impl Default for Streams {
    fn default() -> Self {
        Self {
            permits: Arc::new(Semaphore::new(MAX_STREAMS)),
            shutdown: None,
        }
    }
}

impl Streams {
    pub fn with_shutdown(mut self, shutdown: watch::Receiver<bool>) -> Self {
        self.shutdown = Some(shutdown);
        self
    }
}

/// `GET events/stream?since=&type=&sub=`.
pub async fn stream(State(state): State<ControlState>, uri: Uri, headers: HeaderMap) -> Response {
    match open(&state, &uri, &headers) {
        Ok(reader) => {
            let mut response = Body::from_stream(reader.into_stream()).into_response();
            let h = response.headers_mut();
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/event-stream"),
            );
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(e) => e.into_response(),
    }
}

fn open(state: &ControlState, uri: &Uri, headers: &HeaderMap) -> Result<Reader, ApiError> {
    let params = QueryParams::parse(uri.query(), &["since", "type", "sub"])?;
    let since = params.number("since")?;
    // HTML §9.2.4: a reconnecting EventSource sends the last id it saw; it wins over the URL's
    // `since`, which is where the page first started.
    let last_event_id = match headers.get("last-event-id") {
        None => None,
        Some(value) => {
            let value = String::from_utf8_lossy(value.as_bytes()).trim().to_string();
            if value.is_empty() {
                None
            } else {
                Some(value.parse::<u64>().map_err(|_| {
                    ApiError::Invalid(format!(
                        "header Last-Event-ID must be an event id (a whole number), not {value:?}"
                    ))
                })?)
            }
        }
    };
    let permit = state
        .streams
        .permits
        .clone()
        .try_acquire_owned()
        .map_err(|_| ApiError::TooManyStreams(MAX_STREAMS))?;
    let journal = state.parts.journal.clone();
    Ok(Reader {
        recorded: journal.subscribe(),
        // Unknown: the first read checks whether `since` is already behind the ring.
        dropped_seen: u64::MAX,
        journal,
        cursor: last_event_id.or(since).unwrap_or(0),
        kind: params.get("type").map(str::to_string),
        sub: params.get("sub").map(str::to_string),
        shutdown: state.streams.shutdown.clone(),
        pending: VecDeque::from([Bytes::from(format!("retry: {RETRY_MS}\n\n"))]),
        heartbeat: HEARTBEAT,
        _permit: permit,
    })
}

/// One stream's reader: its cursor in the journal, and what it has yet to send.
struct Reader {
    journal: Journal,
    recorded: watch::Receiver<u64>,
    cursor: u64,
    kind: Option<String>,
    sub: Option<String>,
    /// The journal's drop counter when last looked at: when it moves, the cursor may have
    /// fallen behind the ring.
    dropped_seen: u64,
    shutdown: Option<watch::Receiver<bool>>,
    pending: VecDeque<Bytes>,
    /// [`HEARTBEAT`]; shorter in unit tests.
    heartbeat: Duration,
    /// Given back when the stream ends or the client goes.
    _permit: OwnedSemaphorePermit,
}

/// One event as the stream writes it; its JSON has no newline, so one `data` line holds it.
fn frame(event: &Event) -> Bytes {
    let data = serde_json::to_string(event).unwrap_or_else(|_| "{}".into());
    Bytes::from(format!(
        "id: {}\nevent: {}\ndata: {data}\n\n",
        event.id, event.kind
    ))
}

/// What woke a waiting reader.
enum Wake {
    Recorded,
    Heartbeat,
    End,
}

impl Reader {
    fn into_stream(self) -> impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> {
        futures_util::stream::unfold(self, |mut reader| async move {
            reader.next_chunk().await.map(|chunk| (Ok(chunk), reader))
        })
    }

    fn shutting_down(&self) -> bool {
        self.shutdown.as_ref().is_some_and(|s| *s.borrow())
    }

    /// The next bytes to send, or `None` when the stream ends.
    async fn next_chunk(&mut self) -> Option<Bytes> {
        loop {
            if self.shutting_down() {
                return None;
            }
            if let Some(chunk) = self.pending.pop_front() {
                return Some(chunk);
            }
            // Marked seen before reading, so an event recorded after the read wakes us.
            self.recorded.borrow_and_update();
            self.read();
            if !self.pending.is_empty() {
                continue;
            }
            match self.wait().await {
                Wake::Recorded => {}
                Wake::Heartbeat => return Some(Bytes::from_static(b": heartbeat\n\n")),
                Wake::End => return None,
            }
        }
    }

    /// Moves the cursor over what the journal holds past it, queueing the matching events (and
    /// a `dropped` notice first if the ring lost some before they could be sent).
    fn read(&mut self) {
        let dropped = self.journal.dropped();
        if dropped != self.dropped_seen {
            self.dropped_seen = dropped;
            let oldest = self.journal.read(self.cursor, None, None, 1).events;
            if let Some(oldest) = oldest.first()
                && oldest.id > self.cursor + 1
            {
                let lost = oldest.id - self.cursor - 1;
                let data = json!({ "dropped": lost, "resumed_at": oldest.id });
                self.pending
                    .push_back(Bytes::from(format!("event: dropped\ndata: {data}\n\n")));
            }
        }
        let page = self.journal.read(
            self.cursor,
            self.kind.as_deref(),
            self.sub.as_deref(),
            MAX_PAGE,
        );
        self.cursor = self.cursor.max(page.next);
        self.pending.extend(page.events.iter().map(frame));
    }

    async fn wait(&mut self) -> Wake {
        let recorded = &mut self.recorded;
        let shutdown = async {
            match self.shutdown.as_mut() {
                Some(s) => {
                    let _ = s.wait_for(|down| *down).await;
                }
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            changed = recorded.changed() => match changed {
                Ok(()) => Wake::Recorded,
                Err(_) => Wake::End,
            },
            () = tokio::time::sleep(self.heartbeat) => Wake::Heartbeat,
            () = shutdown => Wake::End,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::{NewEvent, Source};

    fn reader(journal: &Journal, heartbeat: Duration) -> (Reader, watch::Sender<bool>) {
        let (down, shutdown) = watch::channel(false);
        let permit = Arc::new(Semaphore::new(1))
            .try_acquire_owned()
            .expect("a permit");
        let reader = Reader {
            journal: journal.clone(),
            recorded: journal.subscribe(),
            cursor: 0,
            kind: None,
            sub: None,
            dropped_seen: u64::MAX,
            shutdown: Some(shutdown),
            pending: VecDeque::new(),
            heartbeat,
            _permit: permit,
        };
        (reader, down)
    }

    #[tokio::test]
    async fn a_quiet_stream_sends_a_comment_as_its_heartbeat() {
        let journal = Journal::default();
        let (mut reader, _down) = reader(&journal, Duration::from_millis(10));
        let chunk = reader.next_chunk().await.expect("a chunk");
        assert_eq!(&chunk[..], b": heartbeat\n\n");
    }

    #[tokio::test]
    async fn a_waiting_stream_is_woken_by_the_next_event_not_by_a_timer() {
        let journal = Journal::default();
        // No heartbeat for an hour: only the journal's wake-up can end the wait.
        let (mut reader, _down) = reader(&journal, Duration::from_secs(3600));
        let record = async {
            tokio::task::yield_now().await;
            journal.record(NewEvent::new(Source::Edge, "SESSION_STARTED").of_person("ada"));
        };
        let (chunk, ()) = tokio::join!(reader.next_chunk(), record);
        let chunk = String::from_utf8(chunk.expect("a chunk").to_vec()).expect("UTF-8");
        assert!(
            chunk.starts_with("id: 1\nevent: SESSION_STARTED\ndata: {"),
            "{chunk}"
        );
        assert!(chunk.ends_with("}\n\n"));
    }

    #[tokio::test]
    async fn shutdown_ends_a_waiting_stream() {
        let journal = Journal::default();
        let (mut reader, down) = reader(&journal, Duration::from_secs(3600));
        let stop = async {
            tokio::task::yield_now().await;
            let _ = down.send(true);
        };
        let (chunk, ()) = tokio::join!(reader.next_chunk(), stop);
        assert!(chunk.is_none());
    }
}
