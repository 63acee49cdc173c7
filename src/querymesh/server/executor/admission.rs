//! Which queries may run now: at most so many at once in all, at most so many of each person's,
//! and the free places handed out to the people waiting in turn.
//!
//! This is Trino's resource-group model at its smallest: a root group (`global`) with one
//! sub-group per user (`global.<user>`, as the `${USER}` template makes them), each with a hard
//! concurrency limit and a queue limit. A person's runaway queries then take at most their own
//! share: everyone else's queries still start at once while a place is free, and a freed place
//! goes to the next *person* waiting, not to the next query (which would most likely be the
//! same busy person's). Queries past a person's queue limit fail with Trino's
//! `QUERY_QUEUE_FULL`.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

use crate::querymesh::engine::error::{ErrorName, TrinoError};

/// How many queries may run and wait, in all and per person.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Queries running at once, everyone's together.
    pub running: usize,
    /// Queries of one person running at once.
    pub running_per_person: usize,
    /// Queries of one person waiting for a place; past it, QUERY_QUEUE_FULL.
    pub queued_per_person: usize,
    /// Queries waiting, everyone's together: the memory of waiting queries stays bounded
    /// however many people send them.
    pub queued: usize,
}

/// The place of one running query; dropping it frees the place for the next person waiting.
#[must_use]
pub struct Permit {
    admission: Arc<Admission>,
    person: String,
    /// False for a permit whose place was never taken (see [`Admission::dispatch`]).
    held: bool,
}

impl Drop for Permit {
    fn drop(&mut self) {
        if self.held {
            let mut state = self.admission.state();
            state.release(&self.person);
            self.admission.dispatch(&mut state);
        }
    }
}

/// A query waiting for its place; the place arrives on `place` (dropping it gives the turn up).
pub struct Waiting {
    pub place: oneshot::Receiver<Permit>,
}

pub enum Admitted {
    Now(Permit),
    Later(Waiting),
}

pub struct Admission {
    limits: Limits,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    running: usize,
    queued: usize,
    people: HashMap<String, Person>,
    /// People with queries waiting, in the order they get their next place.
    turns: VecDeque<String>,
}

#[derive(Default)]
struct Person {
    running: usize,
    waiting: VecDeque<oneshot::Sender<Permit>>,
}

impl State {
    fn release(&mut self, person: &str) {
        self.running = self.running.saturating_sub(1);
        if let Some(p) = self.people.get_mut(person) {
            p.running = p.running.saturating_sub(1);
            if p.running == 0 && p.waiting.is_empty() {
                self.people.remove(person);
            }
        }
    }
}

impl Admission {
    pub fn new(limits: Limits) -> Arc<Self> {
        Arc::new(Self {
            limits,
            state: Mutex::new(State::default()),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for one of `person`'s queries: now when one is free and nobody of theirs waits
    /// ahead, else a turn in their queue, else QUERY_QUEUE_FULL.
    pub fn admit(self: &Arc<Self>, person: &str) -> Result<Admitted, TrinoError> {
        let mut state = self.state();
        let free = state.running < self.limits.running;
        let queue_full = state.queued >= self.limits.queued;
        let entry = state.people.entry(person.to_string()).or_default();
        if free && entry.running < self.limits.running_per_person && entry.waiting.is_empty() {
            entry.running += 1;
            state.running += 1;
            return Ok(Admitted::Now(self.permit(person)));
        }
        let waiting = entry.waiting.len();
        if waiting >= self.limits.queued_per_person || queue_full {
            if entry.running == 0 && entry.waiting.is_empty() {
                state.people.remove(person);
            }
            return Err(TrinoError::new(
                ErrorName::QueryQueueFull,
                format!("Too many queued queries for \"global.{person}\""),
            ));
        }
        let (tx, place) = oneshot::channel();
        entry.waiting.push_back(tx);
        if waiting == 0 {
            state.turns.push_back(person.to_string());
        }
        state.queued += 1;
        Ok(Admitted::Later(Waiting { place }))
    }

    fn permit(self: &Arc<Self>, person: &str) -> Permit {
        Permit {
            admission: self.clone(),
            person: person.to_string(),
            held: true,
        }
    }

    /// Hands free places to the people waiting, one person's turn after another; people at
    /// their own limit keep their turn for when one of their queries ends.
    fn dispatch(self: &Arc<Self>, state: &mut State) {
        let mut passed = 0;
        while state.running < self.limits.running && passed < state.turns.len() {
            let Some(person) = state.turns.pop_front() else {
                return;
            };
            let Some(p) = state.people.get_mut(&person) else {
                continue;
            };
            if p.running >= self.limits.running_per_person {
                state.turns.push_back(person);
                passed += 1;
                continue;
            }
            passed = 0;
            // The first of their queries still waiting (one cancelled while queued dropped its
            // receiver: the place goes to the next).
            let mut taken = 0;
            let mut granted = false;
            while let Some(tx) = p.waiting.pop_front() {
                taken += 1;
                match tx.send(self.permit(&person)) {
                    Ok(()) => {
                        p.running += 1;
                        granted = true;
                        break;
                    }
                    // Never counted as taken: it must not give the place back when dropped.
                    Err(mut unused) => unused.held = false,
                }
            }
            let (more, idle) = (!p.waiting.is_empty(), p.running == 0);
            state.queued = state.queued.saturating_sub(taken);
            state.running += usize::from(granted);
            if more {
                state.turns.push_back(person);
            } else if idle {
                state.people.remove(&person);
            }
        }
    }

    /// Places taken now, in all.
    pub fn running(&self) -> usize {
        self.state().running
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admission(running: usize, per_person: usize, queued_per_person: usize) -> Arc<Admission> {
        Admission::new(Limits {
            running,
            running_per_person: per_person,
            queued_per_person,
            queued: 100,
        })
    }

    fn now(admitted: Result<Admitted, TrinoError>) -> Permit {
        match admitted {
            Ok(Admitted::Now(permit)) => permit,
            Ok(Admitted::Later(_)) => panic!("waits, but a place was free"),
            Err(e) => panic!("refused: {e}"),
        }
    }

    fn later(admitted: Result<Admitted, TrinoError>) -> Waiting {
        match admitted {
            Ok(Admitted::Later(waiting)) => waiting,
            Ok(Admitted::Now(_)) => panic!("runs, but should wait"),
            Err(e) => panic!("refused: {e}"),
        }
    }

    #[test]
    fn one_person_takes_only_their_share_and_others_start_at_once() {
        let admission = admission(4, 2, 10);
        let ada = [now(admission.admit("ada")), now(admission.admit("ada"))];
        let mut ada_waits = later(admission.admit("ada"));
        // Ada is at her limit; Grace starts at once.
        let grace = now(admission.admit("grace"));
        assert_eq!(admission.running(), 3);
        drop(grace);
        // Ada's waiting query gets her place back only when one of hers ends.
        assert!(ada_waits.place.try_recv().is_err());
        drop(ada);
        assert!(ada_waits.place.try_recv().is_ok());
    }

    #[test]
    fn a_freed_place_goes_to_the_next_person_waiting_not_the_next_query() {
        let admission = admission(2, 2, 10);
        let first = now(admission.admit("ada"));
        let second = now(admission.admit("ada"));
        let mut ada_more: Vec<_> = (0..3).map(|_| later(admission.admit("ada"))).collect();
        let mut grace = later(admission.admit("grace"));
        drop(first);
        // Ada queued first, so her first waiting query takes this place…
        let _ada_third = ada_more[0].place.try_recv().expect("Ada's next query runs");
        drop(second);
        // …and the next freed place is Grace's turn, though Ada has two more waiting.
        let _grace = grace.place.try_recv().expect("Grace's query runs");
        assert!(ada_more[1].place.try_recv().is_err());
    }

    #[test]
    fn a_query_cancelled_while_queued_passes_its_turn_on() {
        let admission = admission(1, 1, 10);
        let running = now(admission.admit("ada"));
        let cancelled = later(admission.admit("grace"));
        let mut next = later(admission.admit("grace"));
        drop(cancelled);
        drop(running);
        let permit = next.place.try_recv().expect("the place passed on");
        assert_eq!(admission.running(), 1);
        drop(permit);
        assert_eq!(admission.running(), 0);
        // Nothing is left behind for people with nothing running or waiting.
        assert!(admission.state().people.is_empty());
        assert!(admission.state().turns.is_empty());
    }

    #[test]
    fn past_the_queue_limit_a_query_fails_as_trino_s_queue_full() {
        let admission = admission(1, 1, 2);
        let _running = now(admission.admit("ada"));
        let _waiting = [later(admission.admit("ada")), later(admission.admit("ada"))];
        let Err(error) = admission.admit("ada") else {
            panic!("a third waiting query is refused");
        };
        // Trino's InternalResourceGroup: `Too many queued queries for "<group id>"`.
        assert_eq!(error.name, ErrorName::QueryQueueFull);
        assert_eq!(error.text, r#"Too many queued queries for "global.ada""#);
        // Someone else still queues.
        let _grace = later(admission.admit("grace"));
    }

    #[test]
    fn the_total_queue_is_bounded_across_people() {
        let admission = Admission::new(Limits {
            running: 1,
            running_per_person: 1,
            queued_per_person: 10,
            queued: 2,
        });
        let _running = now(admission.admit("p0"));
        let _a = later(admission.admit("p1"));
        let _b = later(admission.admit("p2"));
        assert!(admission.admit("p3").is_err());
        assert!(!admission.state().people.contains_key("p3"));
    }
}
