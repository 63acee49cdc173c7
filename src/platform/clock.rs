//! The platform's clock: the wall clock, plus an offset tests can move forward to reach expiry
//! without waiting.
//!
//! Today only the IAM reads it (codes, tokens and SSO sessions); sessions and identities still
//! read the wall clock. The fixture work moves them onto it too, so that moving time moves it
//! for the whole platform at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::identity::unix_now;

/// Cheap to clone: every clone reads and moves the same time.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    offset_secs: Arc<AtomicU64>,
}

impl Clock {
    /// Unix seconds.
    pub fn now(&self) -> u64 {
        unix_now() + self.offset_secs.load(Ordering::SeqCst)
    }

    pub fn advance(&self, by: Duration) {
        self.offset_secs.fetch_add(by.as_secs(), Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_time() {
        let clock = Clock::default();
        let other = clock.clone();
        let before = other.now();
        clock.advance(Duration::from_secs(3600));
        assert!(other.now() >= before + 3600);
    }
}
