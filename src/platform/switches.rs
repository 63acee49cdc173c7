//! What a running sandbox can turn off and on again, taking effect on the next request.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::config::QueryMeshConfig;

/// One switch, named as a value rather than a method per switch: whatever flips switches from
/// outside (tests today; a control API, the console) names one the same way, and every flip
/// goes through the one [`Switches::set`], where the event journal will record it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Switch {
    /// The organization's QueryMesh integration is configured and on (off: the broker answers
    /// ORGANIZATION_INTEGRATION_NOT_CONFIGURED).
    QueryMeshConfigured,
    /// The app's querymesh capability is on (off: QUERYMESH_NOT_ENABLED).
    QueryMeshEnabled,
    /// The realm grants the QueryMesh scope in new access tokens.
    QueryMeshScope,
    /// The broker has identity keys to verify with (off: 503 APPLICATION_IDENTITY_NOT_READY).
    IdentityKeysAvailable,
}

/// The switches of one sandbox; clones share them.
#[derive(Clone, Debug)]
pub struct Switches {
    flags: Arc<Flags>,
}

#[derive(Debug)]
struct Flags {
    querymesh_configured: AtomicBool,
    querymesh_enabled: AtomicBool,
    querymesh_scope: AtomicBool,
    identity_keys_available: AtomicBool,
}

impl Switches {
    /// The switches as `[querymesh]` sets them; identity keys start available.
    pub fn new(querymesh: &QueryMeshConfig) -> Self {
        Self {
            flags: Arc::new(Flags {
                querymesh_configured: AtomicBool::new(querymesh.configured),
                querymesh_enabled: AtomicBool::new(querymesh.enabled),
                querymesh_scope: AtomicBool::new(querymesh.scope),
                identity_keys_available: AtomicBool::new(true),
            }),
        }
    }

    fn flag(&self, switch: Switch) -> &AtomicBool {
        let flags = &self.flags;
        match switch {
            Switch::QueryMeshConfigured => &flags.querymesh_configured,
            Switch::QueryMeshEnabled => &flags.querymesh_enabled,
            Switch::QueryMeshScope => &flags.querymesh_scope,
            Switch::IdentityKeysAvailable => &flags.identity_keys_available,
        }
    }

    pub fn get(&self, switch: Switch) -> bool {
        self.flag(switch).load(Ordering::SeqCst)
    }

    pub fn set(&self, switch: Switch, on: bool) {
        self.flag(switch).store(on, Ordering::SeqCst)
    }

    /// Every switch back to what `[querymesh]` sets (identity keys available).
    pub fn reset(&self, querymesh: &QueryMeshConfig) {
        self.set(Switch::QueryMeshConfigured, querymesh.configured);
        self.set(Switch::QueryMeshEnabled, querymesh.enabled);
        self.set(Switch::QueryMeshScope, querymesh.scope);
        self.set(Switch::IdentityKeysAvailable, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_their_switches_and_each_switch_is_its_own() {
        let switches = Switches::new(&crate::Config::builtin().querymesh);
        let clone = switches.clone();
        clone.set(Switch::QueryMeshEnabled, false);
        assert!(!switches.get(Switch::QueryMeshEnabled));
        clone.set(Switch::QueryMeshEnabled, true);
        assert!(switches.get(Switch::QueryMeshEnabled));
        switches.set(Switch::IdentityKeysAvailable, false);
        assert!(!clone.get(Switch::IdentityKeysAvailable));
        assert!(clone.get(Switch::QueryMeshEnabled));
    }
}
