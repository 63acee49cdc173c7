//! The platform's limits on queries running at once: in all, and each person's share, so one
//! person's runaway queries answer that person 503 and never everyone else.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::refusal::Refusal;

pub struct QueryLimits {
    total: usize,
    per_person: usize,
    running: Mutex<Running>,
}

#[derive(Default)]
struct Running {
    total: usize,
    /// Only people with queries running: the map stays as small as the running set.
    by_person: HashMap<String, usize>,
}

/// A running query's place; dropping it frees the place.
#[must_use]
pub struct Slot {
    limits: Arc<QueryLimits>,
    sub: String,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut running = self.limits.running();
        running.total = running.total.saturating_sub(1);
        if let Some(n) = running.by_person.get_mut(&self.sub) {
            *n -= 1;
            if *n == 0 {
                running.by_person.remove(&self.sub);
            }
        }
    }
}

impl QueryLimits {
    pub fn new(total: usize, per_person: usize) -> Arc<Self> {
        Arc::new(Self {
            total,
            per_person,
            running: Mutex::new(Running::default()),
        })
    }

    fn running(&self) -> MutexGuard<'_, Running> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for one more of `sub`'s queries, or the spec's 503 saying which limit it met.
    pub fn take(self: &Arc<Self>, sub: &str) -> Result<Slot, Refusal> {
        let mut running = self.running();
        let mine = running.by_person.get(sub).copied().unwrap_or(0);
        if mine >= self.per_person {
            return Err(Refusal::QueryMeshUnavailable(format!(
                "The platform is at its limit of {} queries running at once for one person",
                self.per_person
            )));
        }
        if running.total >= self.total {
            return Err(Refusal::QueryMeshUnavailable(format!(
                "The platform is at its limit of {} queries running at once",
                self.total
            )));
        }
        running.total += 1;
        *running.by_person.entry(sub.to_string()).or_default() += 1;
        Ok(Slot {
            limits: self.clone(),
            sub: sub.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_person_at_their_share_leaves_room_for_everyone_else() {
        let limits = QueryLimits::new(3, 2);
        let ada = [limits.take("ada"), limits.take("ada")];
        assert!(ada.iter().all(Result::is_ok));
        let refused = limits.take("ada").err().expect("past her share");
        assert!(refused.message().contains("for one person"), "{refused:?}");
        let grace = limits.take("grace").expect("Grace still queries");
        // The platform-wide limit still holds.
        assert!(limits.take("linus").is_err());
        drop(grace);
        assert!(limits.take("linus").is_ok());
        drop(ada);
        assert!(limits.running().by_person.is_empty());
        assert_eq!(limits.running().total, 0);
    }
}
