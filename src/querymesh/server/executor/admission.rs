//! Which queries may run now: Trino's resource groups (see [`resource_groups`]), enforced.
//!
//! A query is placed in the leaf group its first matching selector names, and runs when every
//! group on its path, root down, is under its `hardConcurrencyLimit`; else it waits in its
//! leaf's queue. When it can neither run nor queue (some group on its path is at its
//! `maxQueued`), it fails with Trino's `QUERY_QUEUE_FULL` naming its group, as Trino's
//! `InternalResourceGroup.run` fails it. A freed place goes down from the root by each group's
//! scheduling policy, so a person's runaway queries take at most their own group's share and
//! the next place goes to the next *group* waiting, not to the next query (most likely the same
//! busy person's).
//!
//! Groups exist while they have queries running or waiting (Trino creates templated groups on
//! demand too), so the state stays as small as the work. Above the file's root groups the
//! stand-in keeps its own limits on everyone's queries ([`super::MAX_RUNNING`] running,
//! [`super::MAX_QUEUED`] waiting): each running query holds a connection and a thread.
//!
//! [`resource_groups`]: super::resource_groups

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

use super::resource_groups::{Criteria, GroupLimits, Policy, ResourceGroups, display_id};
use crate::querymesh::engine::error::{ErrorName, TrinoError};

/// How many queries may run and wait, in all and per person: the configuration without a
/// resource-groups file (see [`ResourceGroups::per_person`]).
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

impl From<Limits> for ResourceGroups {
    fn from(l: Limits) -> Self {
        ResourceGroups::per_person(
            l.running,
            l.queued,
            l.running_per_person,
            l.queued_per_person,
        )
    }
}

/// A group's id: its names from the root. The empty id is the stand-in's own top.
type Id = Vec<String>;

/// The place of one running query; dropping it frees the place for the next query waiting.
#[must_use]
pub struct Permit {
    admission: Arc<Admission>,
    group: Id,
    /// False for a permit whose place was never taken (see [`Admission::start_next`]).
    held: bool,
}

impl Drop for Permit {
    fn drop(&mut self) {
        if self.held {
            let mut state = self.admission.state();
            state.release(&self.group);
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

/// Why a query was refused a place: Trino's error, and for the journal which group's limit it
/// met.
#[derive(Debug)]
pub struct Refused {
    pub error: TrinoError,
    /// The query's group, as Trino's message names it (none when no selector matched).
    pub group: Option<String>,
    /// The group on its path at its `maxQueued`, that limit, and how many wait there.
    pub full: Option<(String, usize, usize)>,
}

pub struct Admission {
    groups: ResourceGroups,
    /// The stand-in's own limits above the file's root groups.
    top: GroupLimits,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    nodes: HashMap<Id, Node>,
}

/// One group while it has queries running or waiting.
struct Node {
    limits: GroupLimits,
    /// Its queries and its descendants' running.
    running: usize,
    /// Its queries and its descendants' waiting.
    queued: usize,
    /// A leaf's own queries waiting, first in first out.
    waiting: VecDeque<oneshot::Sender<Permit>>,
    /// Sub-groups with queries waiting, in the order they get their turn.
    turns: VecDeque<Id>,
    /// `weighted` scheduling's running credit (smooth weighted round robin).
    credit: i64,
}

impl Node {
    fn new(limits: GroupLimits) -> Self {
        Self {
            limits,
            running: 0,
            queued: 0,
            waiting: VecDeque::new(),
            turns: VecDeque::new(),
            credit: 0,
        }
    }

    fn can_run_more(&self) -> bool {
        self.running < self.limits.hard_concurrency
    }

    fn can_queue_more(&self) -> bool {
        self.queued < self.limits.max_queued
    }
}

/// Every id from the top down to `leaf`: `[]`, `[a]`, `[a, b]`, …
fn path(leaf: &[String]) -> impl Iterator<Item = &[String]> {
    (0..=leaf.len()).map(|n| &leaf[..n])
}

impl State {
    fn node(&mut self, id: &[String]) -> Option<&mut Node> {
        self.nodes.get_mut(id)
    }

    fn release(&mut self, leaf: &[String]) {
        for id in path(leaf) {
            if let Some(node) = self.node(id) {
                node.running = node.running.saturating_sub(1);
            }
        }
        self.forget_idle(leaf);
    }

    /// Groups on `leaf`'s path with nothing running or waiting are gone (the top stays).
    fn forget_idle(&mut self, leaf: &[String]) {
        for n in (1..=leaf.len()).rev() {
            let id = &leaf[..n];
            if self
                .nodes
                .get(id)
                .is_some_and(|node| node.running == 0 && node.queued == 0)
            {
                self.nodes.remove(id);
            }
        }
    }

    /// `count` of `leaf`'s waiting queries left the queue: every group on its path counts
    /// them out, and a group with none left waiting leaves its parent's turns.
    fn dequeued(&mut self, leaf: &[String], count: usize) {
        if count == 0 {
            return;
        }
        for n in (0..=leaf.len()).rev() {
            let id = &leaf[..n];
            let empty = match self.node(id) {
                Some(node) => {
                    node.queued = node.queued.saturating_sub(count);
                    node.queued == 0
                }
                None => false,
            };
            if empty
                && n > 0
                && let Some(parent) = self.node(&leaf[..n - 1])
            {
                parent.turns.retain(|child| child.as_slice() != id);
            }
        }
    }
}

impl Admission {
    pub fn new(groups: ResourceGroups, running: usize, queued: usize) -> Arc<Self> {
        let top = GroupLimits {
            hard_concurrency: running,
            soft_concurrency: running,
            max_queued: queued,
            policy: Policy::Fair,
            weight: 1,
        };
        let mut state = State::default();
        state.nodes.insert(Vec::new(), Node::new(top.clone()));
        Arc::new(Self {
            groups,
            top,
            state: Mutex::new(state),
        })
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for a query placed by `criteria`: now when every group on its path can run one
    /// more and none of its group's queries waits ahead, else a turn in its group's queue, else
    /// QUERY_QUEUE_FULL (Trino: only when it can neither run nor queue). The group's id comes
    /// with it, for `GET /v1/query/{id}`.
    pub fn admit(self: &Arc<Self>, criteria: &Criteria) -> Result<(Id, Admitted), Refused> {
        let Some(placement) = self.groups.select(criteria) else {
            return Err(Refused {
                error: TrinoError::new(
                    ErrorName::QueryRejected,
                    "Query did not match any selection rule",
                ),
                group: None,
                full: None,
            });
        };
        let leaf = placement.id;
        let mut state = self.state();
        let mut limits = vec![self.top.clone()];
        limits.extend(placement.limits);
        for (id, limits) in path(&leaf).zip(limits) {
            state
                .nodes
                .entry(id.to_vec())
                .or_insert_with(|| Node::new(limits));
        }
        let nodes: Vec<&Node> = path(&leaf).filter_map(|id| state.nodes.get(id)).collect();
        let can_run = nodes.iter().all(|n| n.can_run_more());
        let full = path(&leaf)
            .zip(&nodes)
            .find(|(_, n)| !n.can_queue_more())
            .map(|(id, n)| (display_id(id), n.limits.max_queued, n.queued));
        let leaf_waits = nodes.last().is_some_and(|n| !n.waiting.is_empty());
        if !can_run && full.is_some() {
            state.forget_idle(&leaf);
            let group = display_id(&leaf);
            return Err(Refused {
                error: TrinoError::new(
                    ErrorName::QueryQueueFull,
                    format!("Too many queued queries for \"{group}\""),
                ),
                group: Some(group),
                full,
            });
        }
        if can_run && !leaf_waits {
            for id in path(&leaf) {
                if let Some(node) = state.node(id) {
                    node.running += 1;
                }
            }
            let permit = self.permit(&leaf);
            return Ok((leaf, Admitted::Now(permit)));
        }
        let (tx, place) = oneshot::channel();
        for n in 0..=leaf.len() {
            let id = &leaf[..n];
            let first = match state.node(id) {
                Some(node) => {
                    node.queued += 1;
                    node.queued == 1
                }
                None => false,
            };
            if first
                && n > 0
                && let Some(parent) = state.node(&leaf[..n - 1])
            {
                parent.turns.push_back(id.to_vec());
            }
        }
        if let Some(node) = state.node(&leaf) {
            node.waiting.push_back(tx);
        }
        Ok((leaf, Admitted::Later(Waiting { place })))
    }

    fn permit(self: &Arc<Self>, group: &[String]) -> Permit {
        Permit {
            admission: self.clone(),
            group: group.to_vec(),
            held: true,
        }
    }

    /// Hands free places to the queries waiting, from the top down, while one can start.
    fn dispatch(self: &Arc<Self>, state: &mut State) {
        while self.start_next(state, &[]) {}
        // Cancelled queries left at the front of queues are counted out by `start_next`;
        // groups left with nothing are forgotten.
        let idle: Vec<Id> = state
            .nodes
            .iter()
            .filter(|(id, n)| !id.is_empty() && n.running == 0 && n.queued == 0)
            .map(|(id, _)| id.clone())
            .collect();
        for id in idle {
            state.nodes.remove(&id);
        }
    }

    /// Starts one waiting query below `id`, if any can start: Trino's `internalStartNext`.
    fn start_next(self: &Arc<Self>, state: &mut State, id: &[String]) -> bool {
        let Some(node) = state.nodes.get_mut(id) else {
            return false;
        };
        if !node.can_run_more() {
            return false;
        }
        if !node.waiting.is_empty() {
            // The first of its queries still waiting (one cancelled while queued dropped its
            // receiver: the place goes to the next).
            let mut taken = 0;
            let mut granted = false;
            while let Some(tx) = node.waiting.pop_front() {
                taken += 1;
                match tx.send(self.permit(id)) {
                    Ok(()) => {
                        granted = true;
                        break;
                    }
                    // Never counted as taken: it must not give the place back when dropped.
                    Err(mut unused) => unused.held = false,
                }
            }
            state.dequeued(id, taken);
            if granted {
                for at in path(id) {
                    if let Some(node) = state.node(at) {
                        node.running += 1;
                    }
                }
            }
            return granted;
        }
        // A sub-group's turn, by this group's policy; one that cannot start anything (it or
        // all below it at their limits) keeps its place in the turns for next time.
        let mut tried: Vec<Id> = Vec::new();
        loop {
            let Some(child) = self.pick(state, id, &tried) else {
                return false;
            };
            if self.start_next(state, &child) {
                if let Some(node) = state.node(id)
                    && let Some(at) = node.turns.iter().position(|c| *c == child)
                {
                    // Its turn is over: to the back of the line while it has more waiting.
                    if let Some(c) = node.turns.remove(at) {
                        node.turns.push_back(c);
                    }
                }
                return true;
            }
            tried.push(child);
        }
    }

    /// The sub-group of `id` whose turn it is, among those with queries waiting that can run
    /// more, not yet `tried`.
    fn pick(&self, state: &mut State, id: &[String], tried: &[Id]) -> Option<Id> {
        struct Candidate {
            id: Id,
            running: usize,
            soft: usize,
            weight: u64,
        }
        let node = state.nodes.get(id)?;
        let policy = node.limits.policy;
        let candidates: Vec<Candidate> = node
            .turns
            .iter()
            .filter(|c| !tried.contains(c))
            .filter_map(|c| state.nodes.get(c).map(|n| (c, n)))
            .filter(|(_, n)| n.can_run_more())
            .map(|(c, n)| Candidate {
                id: c.clone(),
                running: n.running,
                soft: n.limits.soft_concurrency,
                weight: n.limits.weight,
            })
            .collect();
        match policy {
            Policy::Fair | Policy::QueryPriority => candidates.into_iter().next().map(|c| c.id),
            // The least running relative to its weight (ties: whose turn came first):
            // `a.running / a.weight` against `b.running / b.weight`, without dividing.
            Policy::WeightedFair => candidates
                .into_iter()
                .min_by(|a, b| {
                    let left = a.running as u128 * u128::from(b.weight);
                    let right = b.running as u128 * u128::from(a.weight);
                    left.cmp(&right)
                })
                .map(|c| c.id),
            Policy::Weighted => {
                // Below its softConcurrencyLimit a group goes first (Trino weighs it
                // Integer.MAX_VALUE times its weight); within a tier, by weight.
                let below = candidates.iter().any(|c| c.running < c.soft);
                let tier: Vec<&Candidate> = candidates
                    .iter()
                    .filter(|c| !below || c.running < c.soft)
                    .collect();
                let total: i64 = tier.iter().map(|c| c.weight as i64).sum();
                let mut winner: Option<(&Id, i64)> = None;
                for c in &tier {
                    if let Some(n) = state.nodes.get_mut(&c.id) {
                        n.credit += c.weight as i64;
                        // Ties go to the earlier turn.
                        if winner.is_none_or(|(_, best)| n.credit > best) {
                            winner = Some((&c.id, n.credit));
                        }
                    }
                }
                let winner = winner?.0.clone();
                if let Some(n) = state.nodes.get_mut(&winner) {
                    n.credit -= total;
                }
                Some(winner)
            }
        }
    }

    /// Places taken now, in all.
    pub fn running(&self) -> usize {
        self.state().nodes.get(&Vec::new()).map_or(0, |n| n.running)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admission(running: usize, per_person: usize, queued_per_person: usize) -> Arc<Admission> {
        let limits = Limits {
            running,
            running_per_person: per_person,
            queued_per_person,
            queued: 100,
        };
        Admission::new(limits.into(), 1_000, 1_000)
    }

    fn admit(admission: &Arc<Admission>, user: &str) -> Result<Admitted, Refused> {
        admission.admit(&Criteria::user(user)).map(|(_, a)| a)
    }

    fn now(admitted: Result<Admitted, Refused>) -> Permit {
        match admitted {
            Ok(Admitted::Now(permit)) => permit,
            Ok(Admitted::Later(_)) => panic!("waits, but a place was free"),
            Err(e) => panic!("refused: {}", e.error),
        }
    }

    fn later(admitted: Result<Admitted, Refused>) -> Waiting {
        match admitted {
            Ok(Admitted::Later(waiting)) => waiting,
            Ok(Admitted::Now(_)) => panic!("runs, but should wait"),
            Err(e) => panic!("refused: {}", e.error),
        }
    }

    #[test]
    fn one_person_takes_only_their_share_and_others_start_at_once() {
        let admission = admission(4, 2, 10);
        let ada = [now(admit(&admission, "ada")), now(admit(&admission, "ada"))];
        let mut ada_waits = later(admit(&admission, "ada"));
        // Ada is at her limit; Grace starts at once.
        let grace = now(admit(&admission, "grace"));
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
        let first = now(admit(&admission, "ada"));
        let second = now(admit(&admission, "ada"));
        let mut ada_more: Vec<_> = (0..3).map(|_| later(admit(&admission, "ada"))).collect();
        let mut grace = later(admit(&admission, "grace"));
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
        let running = now(admit(&admission, "ada"));
        let cancelled = later(admit(&admission, "grace"));
        let mut next = later(admit(&admission, "grace"));
        drop(cancelled);
        drop(running);
        let permit = next.place.try_recv().expect("the place passed on");
        assert_eq!(admission.running(), 1);
        drop(permit);
        assert_eq!(admission.running(), 0);
        // Nothing is left behind for groups with nothing running or waiting.
        let state = admission.state();
        assert_eq!(state.nodes.len(), 1, "only the top remains");
        assert!(state.nodes[&Vec::new()].turns.is_empty());
        assert_eq!(state.nodes[&Vec::new()].queued, 0);
    }

    #[test]
    fn past_the_queue_limit_a_query_fails_as_trino_s_queue_full() {
        let admission = admission(1, 1, 2);
        let _running = now(admit(&admission, "ada"));
        let _waiting = [
            later(admit(&admission, "ada")),
            later(admit(&admission, "ada")),
        ];
        let Err(refused) = admit(&admission, "ada") else {
            panic!("a third waiting query is refused");
        };
        // Trino's InternalResourceGroup: `Too many queued queries for "<group id>"`.
        assert_eq!(refused.error.name, ErrorName::QueryQueueFull);
        assert_eq!(
            refused.error.text,
            r#"Too many queued queries for "global.ada""#
        );
        assert_eq!(refused.full, Some(("global.ada".into(), 2, 2)));
        // Someone else still queues.
        let _grace = later(admit(&admission, "grace"));
    }

    #[test]
    fn the_total_queue_is_bounded_across_people() {
        let admission = Admission::new(
            Limits {
                running: 1,
                running_per_person: 1,
                queued_per_person: 10,
                queued: 2,
            }
            .into(),
            1_000,
            1_000,
        );
        let _running = now(admit(&admission, "p0"));
        let _a = later(admit(&admission, "p1"));
        let _b = later(admit(&admission, "p2"));
        let refused = admit(&admission, "p3").err().expect("past global's queue");
        assert_eq!(refused.full.map(|f| f.0), Some("global".into()));
        assert!(
            !admission
                .state()
                .nodes
                .contains_key(&vec!["global".to_string(), "p3".into()])
        );
    }

    fn groups(text: &str) -> ResourceGroups {
        ResourceGroups::parse(text, "test").expect("valid")
    }

    #[test]
    fn no_matching_selector_is_trino_s_query_rejected() {
        let admission = Admission::new(
            groups(
                r#"{"rootGroups": [{"name": "a", "softMemoryLimit": "1GB",
                "hardConcurrencyLimit": 1, "maxQueued": 1}],
                "selectors": [{"user": "ada", "group": "a"}]}"#,
            ),
            10,
            10,
        );
        let refused = admit(&admission, "grace").err().expect("no rule");
        assert_eq!(refused.error.name, ErrorName::QueryRejected);
        assert_eq!(refused.error.text, "Query did not match any selection rule");
        assert!(admit(&admission, "ada").is_ok());
    }

    /// Trino's doc example: `other` runs 2 at once and queues 1; each `${USER}` below it
    /// runs 1.
    #[test]
    fn the_documentation_example_queues_and_fails_past_max_queued() {
        let admission = Admission::new(
            ResourceGroups::parse(
                include_str!("../../../../fixtures/resource-groups.json"),
                "doc",
            )
            .expect("valid"),
            32,
            1_000,
        );
        let _ada = now(admit(&admission, "ada"));
        let mut ada_second = later(admit(&admission, "ada"));
        // `global.adhoc.other` has its one queued query: Ada's third can neither run nor queue.
        let refused = admit(&admission, "ada").err().expect("queue full");
        assert_eq!(
            refused.error.text,
            r#"Too many queued queries for "global.adhoc.other.ada""#
        );
        assert_eq!(refused.full, Some(("global.adhoc".into(), 1, 1)));
        // Grace still runs: `other` has a second place.
        let grace = now(admit(&admission, "grace"));
        drop(grace);
        assert!(ada_second.place.try_recv().is_err(), "Ada's own limit is 1");
    }

    #[test]
    fn weighted_fair_gives_the_place_to_the_least_running_relative_to_weight() {
        let admission = Admission::new(
            groups(
                r#"{"rootGroups": [{"name": "g", "softMemoryLimit": "1GB",
                "hardConcurrencyLimit": 3, "maxQueued": 10, "schedulingPolicy": "weighted_fair",
                "subGroups": [
                  {"name": "a", "softMemoryLimit": "1GB", "hardConcurrencyLimit": 3, "maxQueued": 10, "schedulingWeight": 1},
                  {"name": "b", "softMemoryLimit": "1GB", "hardConcurrencyLimit": 3, "maxQueued": 10, "schedulingWeight": 3}
                ]}],
                "selectors": [{"user": "a", "group": "g.a"}, {"user": "b", "group": "g.b"}]}"#,
            ),
            10,
            10,
        );
        let first = now(admit(&admission, "a"));
        let _b1 = now(admit(&admission, "b"));
        let _a2 = now(admit(&admission, "a"));
        let mut a3 = later(admit(&admission, "a"));
        let mut b2 = later(admit(&admission, "b"));
        drop(first);
        // a runs 1 of weight 1, b runs 1 of weight 3: b is further below its share.
        let _b2 = b2.place.try_recv().expect("b's query runs");
        assert!(a3.place.try_recv().is_err());
    }
}
