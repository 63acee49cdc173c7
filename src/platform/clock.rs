//! The platform's clock: the wall clock, plus an offset tests can move forward to reach expiry
//! without waiting.
//!
//! The IAM (codes, tokens and SSO sessions), the platform sessions (their IAM tokens' expiry),
//! the identities the edge signs and the broker checks, and the event journal read it, so
//! moving time moves it for the whole platform at once (`POST /sandbox/v1/clock`). The key
//! rings' grace periods and QueryMesh's token checks keep the wall clock.

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

    /// Unix milliseconds, for the event journal's timestamps.
    pub fn now_ms(&self) -> u64 {
        let wall = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
            .unwrap_or(0);
        wall.saturating_add(self.offset_secs().saturating_mul(1000))
    }

    pub fn advance(&self, by: Duration) {
        self.offset_secs.fetch_add(by.as_secs(), Ordering::SeqCst);
    }

    /// How far the clock has been moved ahead of the wall clock.
    pub fn offset_secs(&self) -> u64 {
        self.offset_secs.load(Ordering::SeqCst)
    }

    /// Back to the wall clock.
    pub fn reset(&self) {
        self.offset_secs.store(0, Ordering::SeqCst);
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
        assert_eq!(other.offset_secs(), 3600);
        other.reset();
        assert!(clock.now() < before + 3600);
    }
}
