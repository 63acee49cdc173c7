//! How the journal keeps its events: in blocks of up to [`BLOCK_EVENTS`], each block's texts
//! (the person, the session, the outcome and the details as JSON) in one buffer.
//!
//! Four small allocations per event, made one by one through a burst of traffic, land among
//! everything else the process allocates meanwhile; when the burst's garbage is freed, each
//! page still holding one of them stays resident (glibc returns only wholly free pages). With
//! a full journal of 10,000 events that kept most of a burst's heap for good: a block per
//! 256 events keeps what the journal holds in a few dozen large buffers instead. A block's
//! buffer never grows (a full one starts the next block and hands back the room it did not
//! use), so no block leaves a hole behind it, and a person's `sub` and session id, repeated
//! event after event, are kept once per block.

use std::collections::VecDeque;

use serde_json::Value;

use super::{Event, NewEvent, Source};

/// Most events per block.
const BLOCK_EVENTS: usize = 256;
/// A block's text buffer, never grown (a full block starts the next, and hands back what it
/// did not use): ~256 QUERY_COMPLETED events.
const BLOCK_TEXT: usize = 64 * 1024;
/// The distinct `sub`s and session ids a block looks among to keep a repeated one once.
const REUSED_TEXTS: usize = 128;

/// Where a text lies in its block's buffer: u32, as a block's buffer is the size of its
/// largest event at most past [`BLOCK_TEXT`] (the journal's details are never gigabytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

/// One event in its block: its texts are spans of the block's buffer.
#[derive(Debug)]
struct Slot {
    ts_ms: u64,
    kind: &'static str,
    source: Source,
    sub: Option<Span>,
    sid: Option<Span>,
    outcome: Option<Span>,
    details: Span,
}

#[derive(Debug)]
struct Block {
    /// The id of `slots[0]`; ids are consecutive.
    first_id: u64,
    /// Slots before this one are dropped (the block is freed once all are).
    skip: usize,
    slots: Vec<Slot>,
    text: String,
    /// The `sub`s and session ids put so far, each once (up to [`REUSED_TEXTS`]).
    reused: Vec<Span>,
}

impl Block {
    /// A block with room for `text` bytes at least.
    fn new(first_id: u64, text: usize) -> Self {
        Self {
            first_id,
            skip: 0,
            slots: Vec::with_capacity(BLOCK_EVENTS),
            text: String::with_capacity(text.max(BLOCK_TEXT)),
            reused: Vec::new(),
        }
    }

    /// Gives back the room the block did not use: the buffer was carved from pages a burst
    /// had already touched, so its unwritten end is resident too, and stays so while the
    /// block lives unless handed back (shrinking in place frees the tail for a trim).
    fn close(&mut self) {
        self.text.shrink_to_fit();
        self.reused = Vec::new();
    }

    /// Whether an event of `text` bytes fits without the buffer growing.
    fn has_room(&self, text: usize) -> bool {
        self.slots.len() < BLOCK_EVENTS && self.text.len() + text <= self.text.capacity()
    }

    fn put(&mut self, text: &str) -> Span {
        let start = self.text.len() as u32;
        self.text.push_str(text);
        Span {
            start,
            len: text.len() as u32,
        }
    }

    /// [`Self::put`] for a text that repeats (a `sub`, a session id): an equal one already
    /// put is shared.
    fn put_shared(&mut self, text: &str) -> Span {
        if let Some(span) = self.reused.iter().find(|s| self.text(s) == text) {
            return *span;
        }
        let span = self.put(text);
        if self.reused.len() < REUSED_TEXTS {
            self.reused.push(span);
        }
        span
    }

    fn text(&self, span: &Span) -> &str {
        let start = span.start as usize;
        self.text
            .get(start..start + span.len as usize)
            .unwrap_or_default()
    }

    /// The events held, with their ids.
    fn held(&self) -> impl Iterator<Item = (u64, &Slot)> {
        let first = self.first_id + self.skip as u64;
        (first..).zip(&self.slots[self.skip..])
    }

    fn event(&self, id: u64, slot: &Slot) -> Event {
        let text = |span: &Option<Span>| span.as_ref().map(|s| self.text(s).to_string());
        Event {
            id,
            ts_ms: slot.ts_ms,
            kind: slot.kind,
            source: slot.source,
            sub: text(&slot.sub),
            sid: text(&slot.sid),
            outcome: text(&slot.outcome),
            // Written by `record` from a Value: it parses back to the same one.
            details: serde_json::from_str(self.text(&slot.details)).unwrap_or(Value::Null),
        }
    }
}

/// The events held, at most `capacity`: the oldest are dropped first (and counted).
#[derive(Debug)]
pub(super) struct Ring {
    blocks: VecDeque<Block>,
    held: usize,
    capacity: usize,
    pub(super) last_id: u64,
    pub(super) dropped: u64,
}

impl Ring {
    pub(super) fn new(capacity: usize) -> Self {
        Self {
            blocks: VecDeque::new(),
            held: 0,
            capacity: capacity.max(1),
            last_id: 0,
            dropped: 0,
        }
    }

    /// Keeps `event` (its details already JSON text) as the next id, which it returns.
    pub(super) fn push(&mut self, ts_ms: u64, event: NewEvent, details: &str) -> u64 {
        self.last_id += 1;
        let id = self.last_id;
        let texts = [&event.sub, &event.sid, &event.outcome]
            .iter()
            .filter_map(|t| t.as_ref().map(String::len))
            .sum::<usize>()
            + details.len();
        if self.blocks.back().is_none_or(|b| !b.has_room(texts)) {
            if let Some(full) = self.blocks.back_mut() {
                full.close();
            }
            self.blocks.push_back(Block::new(id, texts));
        }
        if let Some(block) = self.blocks.back_mut() {
            let slot = Slot {
                ts_ms,
                kind: event.kind,
                source: event.source,
                sub: event.sub.map(|s| block.put_shared(&s)),
                sid: event.sid.map(|s| block.put_shared(&s)),
                outcome: event.outcome.map(|s| block.put(&s)),
                details: block.put(details),
            };
            block.slots.push(slot);
            self.held += 1;
        }
        if self.held > self.capacity {
            self.drop_oldest();
        }
        id
    }

    fn drop_oldest(&mut self) {
        let Some(front) = self.blocks.front_mut() else {
            return;
        };
        front.skip += 1;
        self.held -= 1;
        self.dropped += 1;
        if front.skip == front.slots.len() {
            self.blocks.pop_front();
        }
    }

    pub(super) fn len(&self) -> usize {
        self.held
    }

    /// The id of the oldest event held (the next one when none is).
    pub(super) fn first_id(&self) -> u64 {
        self.blocks
            .front()
            .map_or(self.last_id + 1, |b| b.first_id + b.skip as u64)
    }

    /// The events held after `since`, oldest first, as `(id, event builder)`.
    pub(super) fn after(&self, since: u64) -> impl Iterator<Item = Held<'_>> {
        self.blocks
            .iter()
            .filter(move |b| b.first_id + b.slots.len() as u64 > since + 1)
            .flat_map(|block| block.held().map(move |(id, slot)| Held { id, block, slot }))
            .filter(move |held| held.id > since)
    }

    #[cfg(test)]
    fn blocks(&self) -> usize {
        self.blocks.len()
    }
}

/// One event held, read without building it until it is wanted.
pub(super) struct Held<'a> {
    pub(super) id: u64,
    block: &'a Block,
    slot: &'a Slot,
}

impl Held<'_> {
    pub(super) fn kind(&self) -> &'static str {
        self.slot.kind
    }

    pub(super) fn sub(&self) -> Option<&str> {
        self.slot.sub.as_ref().map(|r| self.block.text(r))
    }

    pub(super) fn event(&self) -> Event {
        self.block.event(self.id, self.slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push(ring: &mut Ring, sub: &str) -> u64 {
        let event = NewEvent::new(Source::Broker, "QUERY")
            .of_person(sub)
            .outcome("OK");
        ring.push(7, event, r#"{"n":1}"#)
    }

    #[test]
    fn a_full_ring_holds_its_bound_in_a_block_more_at_most_and_reads_back_in_order() {
        let mut ring = Ring::new(1_000);
        for i in 0..5_000 {
            push(&mut ring, &format!("p{i}"));
        }
        assert_eq!(
            (ring.len(), ring.dropped, ring.first_id()),
            (1_000, 4_000, 4_001)
        );
        assert!(
            ring.blocks() <= 1_000 / BLOCK_EVENTS + 2,
            "{} blocks",
            ring.blocks()
        );
        let ids: Vec<u64> = ring.after(0).map(|h| h.id).collect();
        assert_eq!(ids, (4_001..=5_000).collect::<Vec<_>>());
        let last = ring.after(4_999).next().map(|h| h.event());
        let last = last.expect("the newest event");
        assert_eq!((last.id, last.sub.as_deref()), (5_000, Some("p4999")));
        assert_eq!((last.outcome.as_deref(), last.ts_ms), (Some("OK"), 7));
        assert_eq!(last.details, serde_json::json!({"n": 1}));
    }

    #[test]
    fn a_ring_of_one_keeps_only_the_newest() {
        let mut ring = Ring::new(1);
        for i in 0..600 {
            push(&mut ring, &format!("p{i}"));
        }
        let held: Vec<_> = ring
            .after(0)
            .map(|h| (h.id, h.sub().map(str::to_string)))
            .collect();
        assert_eq!(held, vec![(600, Some("p599".to_string()))]);
        assert!(ring.blocks() <= 2);
        assert_eq!(
            Ring::new(5).first_id(),
            1,
            "an empty ring starts at the next id"
        );
    }

    #[test]
    fn a_block_never_grows_a_full_one_keeps_only_its_texts_and_a_large_event_is_kept_whole() {
        let mut ring = Ring::new(10_000);
        let big = format!(r#"{{"error":"{}"}}"#, "x".repeat(BLOCK_TEXT * 2));
        for i in 0..3_000 {
            let details = match i {
                1_000 => big.clone(),
                i => format!(r#"{{"n":{i},"pad":"{}"}}"#, "y".repeat(i % 700)),
            };
            let id = ring.push(1, NewEvent::new(Source::QueryMesh, "Q"), &details);
            assert_eq!(ring.after(id - 1).next().map(|h| h.event().details), {
                Some(serde_json::from_str::<Value>(&details).expect("json"))
            });
            let open = ring.blocks.back().map(|b| b.text.capacity());
            assert!(
                open == Some(BLOCK_TEXT) || open == Some(big.len()),
                "the open block's buffer grew to {open:?}"
            );
        }
        let closed = ring.blocks.iter().rev().skip(1);
        assert!(closed.clone().count() >= 2);
        for block in closed {
            assert_eq!(block.text.capacity(), block.text.len(), "room kept");
        }
    }

    #[test]
    fn a_person_and_session_repeated_in_a_block_are_kept_once() {
        let mut ring = Ring::new(1_000);
        let (sub, sid) = ("0f4b6c1e-5d0a-4f7e-9a43-2b8c1d7e6a90", "s".repeat(43));
        for _ in 0..200 {
            let event = NewEvent::new(Source::Edge, "REQUEST")
                .of_person(sub)
                .in_session(sid.clone());
            ring.push(1, event, "{}");
        }
        let block = &ring.blocks[0];
        assert_eq!(block.text.len(), sub.len() + sid.len() + 200 * "{}".len());
        let event = ring.after(199).next().map(|h| h.event()).expect("the last");
        assert_eq!((event.sub.as_deref(), event.sid), (Some(sub), Some(sid)));
    }
}
