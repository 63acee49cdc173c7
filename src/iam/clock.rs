//! The IAM's clock: the wall clock, plus an offset tests can move forward to reach expiry.
//!
//! Only the IAM reads it; the rest of the platform (sessions, identities) reads the wall
//! clock. It stays here until the fixture work moves one clock into `crate::platform` for
//! every component, so that moving time moves it for the whole platform at once.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::identity::unix_now;

#[derive(Debug, Default)]
pub(super) struct Clock {
    offset_secs: AtomicU64,
}

impl Clock {
    /// Unix seconds.
    pub(super) fn now(&self) -> u64 {
        unix_now() + self.offset_secs.load(Ordering::SeqCst)
    }

    pub(super) fn advance(&self, by: Duration) {
        self.offset_secs.fetch_add(by.as_secs(), Ordering::SeqCst);
    }
}
