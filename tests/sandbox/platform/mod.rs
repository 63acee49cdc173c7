//! What the platform does beneath every component: each listener's limits on slow, idle and
//! excess clients, logs that never carry a secret, and revocation reaching running queries.

mod journal;
mod listeners;
mod no_secrets_in_logs;
mod revocation;
