//! [`Held`]: memory a query keeps in Rust's heap (an aggregate's state), charged to the query's
//! budget and its pool as it grows and given back when it is dropped — the Rust side of what
//! the allocator shim does for SQLite's own memory.
//!
//! SQLite's shim refuses an allocation before it is made; Rust cannot refuse one (a failed
//! allocation aborts the process), so [`Held::grow_by`] charges what a step already added and
//! refuses the step past the budget: the query then fails and its state is dropped at once.
//! What one step may add past the budget is at most one growth of one collection.

use std::sync::Arc;

use super::rust_heap::allocated_here;
use super::{Exceeded, Pool, ScopeState, admit, with_scope};

/// Bytes charged to the query stepping on this thread, released on drop.
#[derive(Debug, Default)]
pub struct Held {
    bytes: i64,
    /// The pool the bytes were charged to (none outside a query).
    pool: Option<Arc<Pool>>,
    /// Which query's scope the bytes count for (its address), so a drop after it ended does
    /// not take them from another query's figure.
    scope: usize,
}

fn scope_id(scope: &ScopeState) -> usize {
    scope as *const ScopeState as usize
}

impl Held {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes charged now.
    pub fn bytes(&self) -> i64 {
        self.bytes
    }

    /// Runs `f` and charges what it left allocated on this thread (it may also give some back).
    /// `Err` when the query may not hold that much more: `f`'s result is then discarded.
    pub fn measure<R>(&mut self, f: impl FnOnce() -> R) -> Result<R, Exceeded> {
        let before = allocated_here();
        let out = f();
        self.grow_by(allocated_here() - before)?;
        Ok(out)
    }

    /// Charges `delta` more bytes (gives back `-delta` when negative) to the current query.
    pub fn grow_by(&mut self, delta: i64) -> Result<(), Exceeded> {
        if delta < 0 {
            self.release(delta.saturating_neg().min(self.bytes));
            return Ok(());
        }
        if delta == 0 {
            return Ok(());
        }
        with_scope(|scope| {
            let Some(scope) = scope else {
                // Outside a query (a unit test, an internal statement): nothing to charge.
                return Ok(());
            };
            if !admit(scope, delta) {
                return Err(scope.exceeded.get().unwrap_or(Exceeded::Pool));
            }
            scope.used.set(scope.used.get().saturating_add(delta));
            let pool = self
                .pool
                .get_or_insert_with(|| Arc::clone(&scope.budget.pool));
            pool.used
                .fetch_add(delta, std::sync::atomic::Ordering::Relaxed);
            self.scope = scope_id(scope);
            self.bytes = self.bytes.saturating_add(delta);
            Ok(())
        })
    }

    fn release(&mut self, bytes: i64) {
        if bytes <= 0 {
            return;
        }
        self.bytes -= bytes;
        if let Some(pool) = &self.pool {
            pool.used
                .fetch_sub(bytes, std::sync::atomic::Ordering::Relaxed);
        }
        let own = self.scope;
        with_scope(|scope| {
            if let Some(scope) = scope.filter(|s| scope_id(s) == own) {
                scope.used.set(scope.used.get().saturating_sub(bytes));
            }
        });
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        self.release(self.bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Budget, Scope};
    use super::*;

    /// What a step keeps is charged to the query and its pool, refused past the budget, and
    /// given back when the state is dropped.
    #[test]
    fn held_memory_counts_for_its_query_until_dropped() {
        let pool = Pool::new(64 << 20);
        let scope = Scope::enter(Budget::new(4 << 20, pool.clone()));
        let mut held = Held::new();
        let mut state: Vec<Vec<u8>> = Vec::new();
        held.measure(|| state.push(vec![0u8; 1 << 20]))
            .expect("1 MB fits 4 MB");
        assert!(held.bytes() >= 1 << 20, "{}", held.bytes());
        assert_eq!(scope.used(), held.bytes());
        assert_eq!(pool.used(), held.bytes());
        let refused = held.measure(|| state.push(vec![0u8; 4 << 20]));
        assert!(
            matches!(refused, Err(Exceeded::Query { limit, .. }) if limit == 4 << 20),
            "{refused:?}"
        );
        // Freed memory is given back as it goes.
        held.measure(|| state.truncate(0)).expect("shrinking fits");
        assert!(held.bytes() < 1 << 10, "{}", held.bytes());
        held.measure(|| state.push(vec![0u8; 1 << 20]))
            .expect("1 MB fits again");
        drop(held);
        assert_eq!(scope.used(), 0);
        assert_eq!(pool.used(), 0);
    }
}
