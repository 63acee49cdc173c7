//! Fault rules: what the test-control API (`POST /sandbox/v1/faults`) asks the platform to do
//! wrong on purpose, and to whom. The broker consults them on every query whose identity checks
//! out; a rule scoped to one `sid` or one `sub` never touches anyone else's requests, so tests
//! running in parallel against one sandbox, each with its own session, never see each other's.

use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;

/// What a rule does to a matching query.
#[derive(Clone, Debug, PartialEq)]
pub enum FaultKind {
    /// The broker refuses with this code of the spec's table (and, for a code with two
    /// statuses, this one).
    Code { code: String, status: Option<u16> },
    /// The broker's answer waits this long before QueryMesh is asked (the QueryMesh timeout
    /// still applies: past it, the broker answers QUERYMESH_UNAVAILABLE as for a silent one).
    Delay { delay_ms: u64 },
    /// The broker answers this status and body, verbatim.
    Answer { status: u16, body: String },
    /// QueryMesh hangs up mid-answer, after accepting the query.
    Hangup,
}

/// Whose queries a rule applies to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultScope {
    Everyone,
    Sub(String),
    Sid(String),
}

impl Serialize for FaultRule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("id", &self.id)?;
        match &self.kind {
            FaultKind::Code { code, status } => {
                map.serialize_entry("code", code)?;
                if let Some(status) = status {
                    map.serialize_entry("status", status)?;
                }
            }
            FaultKind::Delay { delay_ms } => map.serialize_entry("delay_ms", delay_ms)?,
            FaultKind::Answer { status, body } => {
                map.serialize_entry("status", status)?;
                map.serialize_entry("body", body)?;
            }
            FaultKind::Hangup => map.serialize_entry("hangup", &true)?,
        }
        match &self.scope {
            FaultScope::Everyone => map.serialize_entry("scope", "everyone")?,
            FaultScope::Sub(sub) => {
                map.serialize_entry("scope", &serde_json::json!({ "sub": sub }))?
            }
            FaultScope::Sid(sid) => {
                map.serialize_entry("scope", &serde_json::json!({ "sid": sid }))?
            }
        }
        map.serialize_entry("times_left", &self.times_left)?;
        map.serialize_entry("probability", &self.probability)?;
        map.serialize_entry("seed", &self.seed)?;
        map.serialize_entry("applied", &self.applied)?;
        map.end()
    }
}

/// One rule as asked for.
#[derive(Clone, Debug)]
pub struct NewFault {
    pub kind: FaultKind,
    pub scope: FaultScope,
    /// Applies to the next this many matching queries, then goes; `None`: until deleted.
    pub times: Option<u32>,
    /// Applies to each matching query with this probability (0 < p ≤ 1); `None`: always.
    pub probability: Option<f64>,
    /// Makes the draws of `probability` repeatable: the same seed, the same sequence.
    pub seed: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct FaultRule {
    pub id: u64,
    pub kind: FaultKind,
    pub scope: FaultScope,
    pub times_left: Option<u32>,
    pub probability: Option<f64>,
    pub seed: Option<u64>,
    /// How many queries it has applied to.
    pub applied: u64,
    /// The seeded generator's state (splitmix64).
    state: u64,
}

impl FaultRule {
    fn matches(&self, sub: &str, sid: &str) -> bool {
        match &self.scope {
            FaultScope::Everyone => true,
            FaultScope::Sub(s) => s == sub,
            FaultScope::Sid(s) => s == sid,
        }
    }

    /// Whether this matching query draws the fault.
    fn draws(&mut self) -> bool {
        let Some(p) = self.probability else {
            return true;
        };
        let unit = if self.seed.is_some() {
            // splitmix64 (Steele, Lea, Flood 2014): a tiny, well-mixed, repeatable sequence.
            self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (z >> 11) as f64 / (1u64 << 53) as f64
        } else {
            rand::random::<f64>()
        };
        unit < p
    }
}

/// Rules kept at once: far above what a test suite sets, so a loop adding rules cannot grow
/// the process without bound.
pub const MAX_RULES: usize = 10_000;

#[derive(Debug, Default)]
struct Rules {
    rules: Vec<FaultRule>,
    last_id: u64,
}

/// The fault rules of one sandbox; clones share them.
#[derive(Clone, Debug, Default)]
pub struct Faults {
    rules: Arc<Mutex<Rules>>,
}

/// Why a rule was not added.
#[derive(Debug, thiserror::Error)]
#[error("the sandbox already holds {MAX_RULES} fault rules; delete some first")]
pub struct TooManyRules;

impl Faults {
    fn rules(&self) -> MutexGuard<'_, Rules> {
        self.rules.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn add(&self, new: NewFault) -> Result<FaultRule, TooManyRules> {
        let mut rules = self.rules();
        if rules.rules.len() >= MAX_RULES {
            return Err(TooManyRules);
        }
        rules.last_id += 1;
        let rule = FaultRule {
            id: rules.last_id,
            kind: new.kind,
            scope: new.scope,
            times_left: new.times,
            probability: new.probability,
            seed: new.seed,
            applied: 0,
            state: new.seed.unwrap_or(0),
        };
        rules.rules.push(rule.clone());
        Ok(rule)
    }

    pub fn list(&self) -> Vec<FaultRule> {
        self.rules().rules.clone()
    }

    pub fn remove(&self, id: u64) -> bool {
        let mut rules = self.rules();
        let before = rules.rules.len();
        rules.rules.retain(|r| r.id != id);
        rules.rules.len() != before
    }

    /// Removes the rules `which` selects; returns how many.
    pub fn remove_where(&self, which: impl Fn(&FaultRule) -> bool) -> usize {
        let mut rules = self.rules();
        let before = rules.rules.len();
        rules.rules.retain(|r| !which(r));
        before - rules.rules.len()
    }

    /// The fault for a query of `sub` in session `sid`, if a rule draws one: the first rule
    /// (in the order they were added) that matches and draws it, with its id. A rule with
    /// `times` goes once it has applied that many times.
    pub fn take(&self, sub: &str, sid: &str) -> Option<(u64, FaultKind)> {
        let mut rules = self.rules();
        let index = rules
            .rules
            .iter_mut()
            .position(|r| r.matches(sub, sid) && r.draws())?;
        let rule = &mut rules.rules[index];
        rule.applied += 1;
        let taken = (rule.id, rule.kind.clone());
        if let Some(left) = &mut rule.times_left {
            *left = left.saturating_sub(1);
            if *left == 0 {
                rules.rules.remove(index);
            }
        }
        Some(taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(scope: FaultScope, times: Option<u32>) -> NewFault {
        NewFault {
            kind: FaultKind::Hangup,
            scope,
            times,
            probability: None,
            seed: None,
        }
    }

    #[test]
    fn scoped_rules_touch_only_their_scope_and_times_counts_down() {
        let faults = Faults::default();
        faults
            .add(rule(FaultScope::Sid("s1".into()), Some(2)))
            .expect("added");
        assert!(faults.take("ada", "s2").is_none());
        assert!(faults.take("ada", "s1").is_some());
        assert!(faults.take("ada", "s1").is_some());
        assert!(faults.take("ada", "s1").is_none(), "used up");
        assert!(faults.list().is_empty());
        faults
            .add(rule(FaultScope::Sub("ada".into()), None))
            .expect("added");
        assert!(faults.take("grace", "s1").is_none());
        assert!(faults.take("ada", "s9").is_some());
    }

    #[test]
    fn a_seed_makes_the_draws_repeatable() {
        let draws = |seed| {
            let faults = Faults::default();
            faults
                .add(NewFault {
                    probability: Some(0.5),
                    seed: Some(seed),
                    ..rule(FaultScope::Everyone, None)
                })
                .expect("added");
            (0..64)
                .map(|_| faults.take("a", "s").is_some())
                .collect::<Vec<_>>()
        };
        assert_eq!(draws(7), draws(7));
        assert_ne!(draws(7), draws(8));
        let hits = draws(7).iter().filter(|h| **h).count();
        assert!((16..=48).contains(&hits), "{hits} of 64 at p = 0.5");
    }
}
