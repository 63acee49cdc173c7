//! The platform core: what one process makes unavoidable to share, below every component.
//!
//! The components talk to each other over HTTP with signed tokens, as the real platform's do;
//! only this much is shared in memory, each piece a cheap-to-clone handle with methods:
//!
//! - [`SessionStore`]: platform sessions, created by the edge at sign-in, consulted by the
//!   broker on every query, ended by the IAM with the SSO session they were born of.
//! - [`Switches`]: what a running sandbox can turn off and on again.
//! - [`Endpoints`]: where each component listens, known once every listener is bound.
//! - [`SandboxEnv`]: the `NNUMBERS_*` environment an app (the demo app too) is built from.
//! - [`Clock`]: the platform's time, which tests move forward (the IAM, the sessions, the
//!   identities and the journal read it).
//! - [`Journal`]: the event journal, bounded; [`Faults`]: the fault rules the broker consults;
//!   [`People`]: the people while running (the configured ones, plus and minus the control
//!   API's).
//!
//! The identity issuer is [`crate::identity::IdentityIssuer`], a handle already (its key ring
//! is an `Arc`): the edge gets it to sign; the broker gets only its public side
//! ([`crate::identity::KeyRing::public_side`]) and its audience. The event
//! journal and the fault rules live here too.
//!
//! Nothing here knows a component, and no component knows `sandbox.rs`: the assembler builds
//! each component from its own part of the configuration plus the handles of this module it
//! needs.

mod clock;
mod endpoints;
mod env;
pub mod events_file;
pub mod faults;
pub mod journal;
mod people;
mod session;
mod switches;

pub use clock::Clock;
pub use endpoints::Endpoints;
pub use env::SandboxEnv;
pub use faults::{FaultKind, FaultRule, FaultScope, Faults, NewFault};
pub use journal::{Journal, NewEvent, Source};
pub use people::{People, PeopleError};
pub use session::{Ending, IamTokens, PlatformSession, SessionEnd, SessionError, SessionStore};
pub use switches::{Switch, Switches};
