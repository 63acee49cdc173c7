//! What the platform does beneath every component: each listener's limits on slow, idle and
//! excess clients and the room it makes at its cap, logs that never carry a secret, and
//! revocation reaching running queries.

mod journal;
mod listeners;
mod no_secrets_in_logs;
mod revocation;
mod room_at_the_cap;
