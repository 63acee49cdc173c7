//! The platform's own limits on queries: running at once in all, and each person's
//! allowances — queries per minute and concurrent queries — from a default and rules covering
//! people by sub, username or group, resolved with NYXDB's precedence ("Static and dynamic
//! precedence"), so one person's runaway queries answer that person 503 and never everyone
//! else.
//!
//! The default and the rules come from `[broker]` and are replaced while running through the
//! control API ([`PersonLimits::replace`]). A change applies at the next admission: queries
//! already running keep their places (NYXDB terminates the newest subscriptions first when
//! concurrency tightens; a query here is short-lived and is left to finish).
//!
//! Queries per minute count the queries admitted in the last 60 seconds of the platform clock
//! (a sliding window, which `POST /sandbox/v1/clock` moves), so a refusal knows when the next
//! place frees: its `Retry-After`.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::config::limits::{CONCURRENT_QUERIES, QUERIES_PER_MINUTE, validate};
use crate::config::{BrokerConfig, DefaultAllowances, LimitRule};
use crate::platform::Clock;

/// The window of `queries_per_minute`, in seconds.
const MINUTE: u64 = 60;

/// Who a query is for, as the rules see them.
#[derive(Clone, Copy, Debug)]
pub struct Person<'a> {
    pub sub: &'a str,
    pub username: Option<&'a str>,
    pub groups: &'a [String],
}

/// One dimension's allowance for one person, and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allowance {
    /// `None`: unlimited.
    pub allowed: Option<u64>,
    /// The deciding rule's name, or `"default"`.
    pub rule: String,
}

/// NYXDB's precedence for one dimension: `default` (0: unlimited) and the allowances of the
/// rules covering the person, in their order.
///
/// 1. Covered by no rule: the default, unchanged.
/// 2. Covered: the tightest non-zero allowance of the covering rules…
/// 3. …unless every covering rule says 0: unlimited, overriding the default.
/// 4. A non-zero rule allowance and a non-zero default compose tightest-wins; a tie is the
///    rule's.
pub fn resolve<'a>(default: u32, covering: impl IntoIterator<Item = (&'a str, u32)>) -> Allowance {
    let mut covered = None;
    let mut tightest: Option<(&str, u32)> = None;
    for (name, allowed) in covering {
        covered.get_or_insert(name);
        if allowed != 0 && tightest.is_none_or(|(_, t)| allowed < t) {
            tightest = Some((name, allowed));
        }
    }
    let from_default = || Allowance {
        allowed: (default != 0).then_some(u64::from(default)),
        rule: "default".into(),
    };
    match (covered, tightest) {
        (None, _) => from_default(),
        (Some(first), None) => Allowance {
            allowed: None,
            rule: first.to_string(),
        },
        (Some(_), Some((_, allowed))) if default != 0 && default < allowed => from_default(),
        (Some(_), Some((name, allowed))) => Allowance {
            allowed: Some(u64::from(allowed)),
            rule: name.to_string(),
        },
    }
}

fn covers(rule: &LimitRule, person: &Person) -> bool {
    rule.subs.iter().any(|s| s == person.sub)
        || person
            .username
            .is_some_and(|u| rule.usernames.iter().any(|r| r.eq_ignore_ascii_case(u)))
        || rule.groups.iter().any(|g| person.groups.contains(g))
}

/// A query past a limit: NYXDB's governance_log fields, and when to repeat if that is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitExceeded {
    /// `queries_per_minute` or `concurrent_queries`.
    pub dimension: &'static str,
    pub allowed: u64,
    pub observed: u64,
    /// The deciding rule's name, `"default"`, or `"platform"` for everyone's limit.
    pub rule: String,
    /// Seconds until a place frees, when known (the per-minute window).
    pub retry_after: Option<u64>,
}

impl LimitExceeded {
    /// What the 503 says: which limit, its allowance, and where it comes from.
    pub fn message(&self) -> String {
        let whose = match self.rule.as_str() {
            "platform" => "in all (`broker.max_concurrent_queries`)".to_string(),
            "default" => "for one person (the default)".to_string(),
            rule => format!("for one person (rule {rule:?})"),
        };
        let what = match self.dimension {
            QUERIES_PER_MINUTE => format!("{} queries per minute", self.allowed),
            _ => format!("{} concurrent queries", self.allowed),
        };
        match self.retry_after {
            Some(secs) => format!(
                "The platform is at its limit of {what} {whose}; the next query may start in {secs} s"
            ),
            None => format!("The platform is at its limit of {what} {whose}"),
        }
    }
}

/// The limits of one broker; clones share them (the control API holds one).
#[derive(Clone)]
pub struct PersonLimits {
    shared: Arc<Shared>,
}

struct Shared {
    /// Everyone's queries running at once.
    total: usize,
    /// What `reset` goes back to.
    configured: (DefaultAllowances, Vec<LimitRule>),
    clock: Clock,
    state: Mutex<State>,
}

struct State {
    default: DefaultAllowances,
    rules: Vec<LimitRule>,
    running: usize,
    /// Only people with queries running.
    running_by_person: HashMap<String, usize>,
    /// When each person's recent queries were admitted (platform seconds), oldest first; only
    /// people with a per-minute allowance, and no more than it.
    admitted: HashMap<String, VecDeque<u64>>,
}

/// A running query's place; dropping it frees the place.
#[must_use]
pub struct Slot {
    limits: PersonLimits,
    sub: String,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.limits.state();
        state.running = state.running.saturating_sub(1);
        if let Some(n) = state.running_by_person.get_mut(&self.sub) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                state.running_by_person.remove(&self.sub);
            }
        }
    }
}

impl PersonLimits {
    pub fn new(config: &BrokerConfig, clock: Clock) -> Self {
        let configured = (config.default_allowances(), config.limits.clone());
        Self {
            shared: Arc::new(Shared {
                total: config.max_concurrent_queries as usize,
                state: Mutex::new(State {
                    default: configured.0,
                    rules: configured.1.clone(),
                    running: 0,
                    running_by_person: HashMap::new(),
                    admitted: HashMap::new(),
                }),
                configured,
                clock,
            }),
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.shared.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The default and the rules in force.
    pub fn get(&self) -> (DefaultAllowances, Vec<LimitRule>) {
        let state = self.state();
        (state.default, state.rules.clone())
    }

    /// Replaces the default and the rules, checked as the configuration's are (`at` names
    /// the field in errors); running queries keep their places.
    pub fn replace(
        &self,
        default: DefaultAllowances,
        rules: Vec<LimitRule>,
        at: &str,
    ) -> Result<(), String> {
        validate(&default, &rules, at)?;
        let mut state = self.state();
        state.default = default;
        state.rules = rules;
        Ok(())
    }

    /// Back to the configuration's default and rules.
    pub fn reset(&self) {
        let (default, rules) = self.shared.configured.clone();
        let mut state = self.state();
        state.default = default;
        state.rules = rules;
    }

    /// `person`'s allowances now: (queries per minute, concurrent queries).
    pub fn effective(&self, person: &Person) -> (Allowance, Allowance) {
        effective(&self.state(), person)
    }

    /// A place for one more of `person`'s queries, or which limit it met. Both dimensions are
    /// checked before either counts the query.
    pub fn take(&self, person: &Person) -> Result<Slot, LimitExceeded> {
        let now = self.shared.clock.now();
        let mut state = self.state();
        let (per_minute, concurrent) = effective(&state, person);
        let mine = state
            .running_by_person
            .get(person.sub)
            .copied()
            .unwrap_or(0);
        if let Some(allowed) = concurrent.allowed
            && mine as u64 >= allowed
        {
            return Err(LimitExceeded {
                dimension: CONCURRENT_QUERIES,
                allowed,
                observed: mine as u64 + 1,
                rule: concurrent.rule,
                retry_after: None,
            });
        }
        if state.running >= self.shared.total {
            return Err(LimitExceeded {
                dimension: CONCURRENT_QUERIES,
                allowed: self.shared.total as u64,
                observed: state.running as u64 + 1,
                rule: "platform".into(),
                retry_after: None,
            });
        }
        match per_minute.allowed {
            Some(allowed) => {
                let recent = state.admitted.entry(person.sub.to_string()).or_default();
                while recent.front().is_some_and(|t| t + MINUTE <= now) {
                    recent.pop_front();
                }
                if recent.len() as u64 >= allowed {
                    // The oldest of the window leaves it first.
                    let oldest = recent.front().copied().unwrap_or(now);
                    return Err(LimitExceeded {
                        dimension: QUERIES_PER_MINUTE,
                        allowed,
                        observed: recent.len() as u64 + 1,
                        rule: per_minute.rule,
                        retry_after: Some((oldest + MINUTE).saturating_sub(now).max(1)),
                    });
                }
                recent.push_back(now);
                // Only what the allowance can still refuse on is kept.
                while recent.len() as u64 > allowed {
                    recent.pop_front();
                }
            }
            None => {
                state.admitted.remove(person.sub);
            }
        }
        // People whose window has emptied are forgotten, so the map stays as small as the
        // people querying this minute.
        if state.admitted.len() > 64 {
            state
                .admitted
                .retain(|_, recent| recent.back().is_some_and(|t| t + MINUTE > now));
        }
        state.running += 1;
        *state
            .running_by_person
            .entry(person.sub.to_string())
            .or_default() += 1;
        Ok(Slot {
            limits: self.clone(),
            sub: person.sub.to_string(),
        })
    }
}

fn effective(state: &State, person: &Person) -> (Allowance, Allowance) {
    let covering: Vec<&LimitRule> = state.rules.iter().filter(|r| covers(r, person)).collect();
    let per_minute = resolve(
        state.default.queries_per_minute,
        covering
            .iter()
            .filter_map(|r| r.queries_per_minute.map(|a| (r.name.as_str(), a))),
    );
    let concurrent = resolve(
        state.default.concurrent_queries,
        covering
            .iter()
            .filter_map(|r| r.concurrent_queries.map(|a| (r.name.as_str(), a))),
    );
    (per_minute, concurrent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn allowance(allowed: Option<u64>, rule: &str) -> Allowance {
        Allowance {
            allowed,
            rule: rule.into(),
        }
    }

    // NYXDB application governance, "Static and dynamic precedence", rule by rule.

    #[test]
    fn a_person_no_rule_covers_gets_the_default() {
        assert_eq!(resolve(5, []), allowance(Some(5), "default"));
        // A default of 0 is unlimited.
        assert_eq!(resolve(0, []), allowance(None, "default"));
    }

    #[test]
    fn a_covered_person_gets_the_tightest_non_zero_allowance() {
        assert_eq!(
            resolve(0, [("wide", 10), ("unlimited", 0), ("narrow", 3)]),
            allowance(Some(3), "narrow")
        );
    }

    #[test]
    fn every_covering_rule_saying_zero_is_unlimited_overriding_the_default() {
        assert_eq!(
            resolve(5, [("admins", 0), ("ops", 0)]),
            allowance(None, "admins")
        );
    }

    #[test]
    fn a_rule_and_the_default_compose_tightest_wins() {
        assert_eq!(resolve(5, [("wide", 10)]), allowance(Some(5), "default"));
        assert_eq!(resolve(5, [("narrow", 2)]), allowance(Some(2), "narrow"));
    }

    #[test]
    fn a_tie_between_rule_and_default_is_the_rule_s() {
        assert_eq!(resolve(5, [("same", 5)]), allowance(Some(5), "same"));
    }

    fn config(toml: &str) -> BrokerConfig {
        crate::Config::from_toml(toml, "t.toml")
            .expect("valid")
            .broker
    }

    fn person<'a>(sub: &'a str, groups: &'a [String]) -> Person<'a> {
        Person {
            sub,
            username: None,
            groups,
        }
    }

    #[test]
    fn one_person_at_their_share_leaves_room_for_everyone_else() {
        let limits = PersonLimits::new(
            &config(
                "[broker]\nmax_concurrent_queries = 3\nmax_concurrent_queries_per_person = 2\n",
            ),
            Clock::default(),
        );
        let (ada, grace, linus) = (
            person("ada", &[]),
            person("grace", &[]),
            person("linus", &[]),
        );
        let held = [limits.take(&ada), limits.take(&ada)];
        assert!(held.iter().all(Result::is_ok));
        let refused = limits.take(&ada).err().expect("past her share");
        assert_eq!(refused.rule, "default");
        assert!(
            refused
                .message()
                .contains("2 concurrent queries for one person")
        );
        let grace = limits.take(&grace).expect("Grace still queries");
        // The platform-wide limit still holds.
        assert_eq!(
            limits.take(&linus).err().map(|e| e.rule),
            Some("platform".into())
        );
        drop(grace);
        assert!(limits.take(&linus).is_ok());
        drop(held);
        assert!(limits.state().running_by_person.is_empty());
        assert_eq!(limits.state().running, 0);
    }

    #[test]
    fn queries_per_minute_slide_with_the_platform_clock() {
        let clock = Clock::default();
        let limits = PersonLimits::new(
            &config("[broker]\nqueries_per_minute_per_person = 2\n"),
            clock.clone(),
        );
        let ada = person("ada", &[]);
        drop(limits.take(&ada).expect("first"));
        clock.advance(Duration::from_secs(20));
        drop(limits.take(&ada).expect("second"));
        let refused = limits.take(&ada).err().expect("third in a minute");
        assert_eq!(refused.dimension, QUERIES_PER_MINUTE);
        assert_eq!((refused.allowed, refused.observed), (2, 3));
        // The first leaves the window 40 s from now (±1 s of the wall clock's tick).
        assert!(matches!(refused.retry_after, Some(39..=41)), "{refused:?}");
        clock.advance(Duration::from_secs(41));
        assert!(limits.take(&ada).is_ok());
    }

    #[test]
    fn a_replacement_applies_at_the_next_admission_and_reset_restores_the_configuration() {
        let limits = PersonLimits::new(&config(""), Clock::default());
        let admins = vec!["admins".to_string()];
        let ada = person("ada", &admins);
        let rule = LimitRule {
            name: "admins".into(),
            subs: vec![],
            usernames: vec![],
            groups: vec!["admins".into()],
            queries_per_minute: Some(1),
            concurrent_queries: Some(0),
        };
        let (default, _) = limits.get();
        limits.replace(default, vec![rule], "rules").expect("valid");
        let (per_minute, concurrent) = limits.effective(&ada);
        assert_eq!(per_minute, allowance(Some(1), "admins"));
        assert_eq!(concurrent, allowance(None, "admins"));
        let _first = limits.take(&ada).expect("first");
        assert!(limits.take(&ada).is_err());
        let bad = limits.replace(
            DefaultAllowances {
                concurrent_queries: 0,
                queries_per_minute: 0,
            },
            vec![],
            "default",
        );
        assert!(bad.is_err_and(|e| e.contains("at least 1")));
        limits.reset();
        assert!(limits.get().1.is_empty());
    }
}
