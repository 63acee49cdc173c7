//! What the platform does beneath every component: each listener's limits on slow, idle and
//! excess clients, and logs that never carry a secret.

mod listeners;
mod no_secrets_in_logs;
