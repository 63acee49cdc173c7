//! Each listener's deadlines and cap, and the cap sized from the process's open-file limit.

use std::io;
use std::sync::OnceLock;
use std::time::Duration;

use super::MAX_REFUSING;
use super::places::MAX_WAITING;

/// How long each listener waits for clients, and how many it serves at once. Not in
/// zero-sandbox.toml; tests shorten them through [`crate::Config::listeners`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// From a connection's start, or from the first byte of a request on a kept-alive one, to
    /// the end of its headers (nginx's `client_header_timeout`, Node's `headersTimeout`); the
    /// QueryMesh port's TLS handshake counts in it. A client on a working network sends
    /// headers in milliseconds; 10 s leaves room for a loaded CI machine. A client waiting
    /// for a place at the cap waits this long at most before its 503.
    pub header_read_timeout: Duration,
    /// The header deadline once three quarters of the cap are open: a client still sending
    /// its headers then is more likely a flood than a slow machine, and every second it
    /// keeps its place is a second a new client waits. 1 s is still a hundred times what a
    /// client on loopback needs, even on a loaded machine, and lets a flood of half-sent
    /// requests hold the cap for 1 s instead of 10.
    pub header_read_timeout_near_cap: Duration,
    /// How long a kept-alive connection may wait for its next request (nginx's 75 s
    /// `keepalive_timeout`). Longer than the components' own client keeps an idle connection
    /// ([`crate::http::POOL_IDLE_TIMEOUT`]), so between them that client closes first and
    /// never reuses one this side is closing. At the cap, the connection idle the longest
    /// is closed sooner, to make room.
    pub idle_timeout: Duration,
    /// How long a request body may go without a byte while the server waits for it. Only
    /// while it waits: a body the app reads slowly through the edge, and responses (SSE,
    /// streamed downloads, WebSockets), are never timed.
    pub body_read_timeout: Duration,
    /// Connections one listener serves at once; past it a new client waits for a place
    /// (see `places.rs`), and gets a 503 if none frees. By default sized from the process's
    /// open-file limit ([`max_connections_for`]), so this cap, not the file descriptors, is
    /// what refuses.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            header_read_timeout: Duration::from_secs(10),
            header_read_timeout_near_cap: Duration::from_secs(1),
            idle_timeout: Duration::from_secs(60),
            body_read_timeout: Duration::from_secs(30),
            max_connections: max_connections_for(open_file_limit()),
        }
    }
}

/// The listeners: the edge, the broker (with the control API), the IAM, QueryMesh, and the
/// demo app when no `--app` is given.
const LISTENERS: u64 = 5;
/// Descriptors kept for everything but the listeners' connections: SQLite's files (each
/// query connection opens tpch.tiny, the generated schemas and the developer's catalogs,
/// up to SQLite's 10 attached databases, plus temporary files), the state, key and journal
/// files, the components' pooled connections to each other (16 idle per peer) and the
/// broker's queries to QueryMesh (16 at once), the runtime's own (epoll, eventfd, the signal
/// pipe) and stdio.
const RESERVED: u64 = 512;
/// The smallest cap, whatever the limit (the start warns below [`COMFORTABLE`]).
const MIN_CONNECTIONS: usize = 16;
/// The largest cap. Each open connection holds its buffers (~20 KB idle), so five
/// listeners at 1,024 stay near 100 MB however many descriptors there are; idle
/// connections make room for new ones, so more would serve no one.
const MAX_CONNECTIONS: usize = 1024;
/// Below this cap (the fixed cap before it was sized from the limit) the start warns.
pub const COMFORTABLE: usize = 256;

/// The cap for each listener that `open_files` descriptors can hold:
///
/// `(open_files − 512 − 5 × (64 + 64)) / 6`, between 16 and 1,024
///
/// Each of the five listeners holds up to its cap in connections, plus 64 clients waiting
/// for a place and 64 being refused; each of the edge's connections may hold one more to the
/// app (the sixth share); 512 are kept for the rest ([`RESERVED`]). At 20,000 descriptors
/// that is 3,141, so 1,024; the cap reaches 1,024 from 7,296 descriptors on.
pub fn max_connections_for(open_files: u64) -> usize {
    let per_listener = (MAX_WAITING + MAX_REFUSING) as u64;
    let room = open_files.saturating_sub(RESERVED + LISTENERS * per_listener);
    let cap = usize::try_from(room / (LISTENERS + 1)).unwrap_or(usize::MAX);
    cap.clamp(MIN_CONNECTIONS, MAX_CONNECTIONS)
}

/// The process's open-file limit, raised to its hard limit the first time it is asked for
/// ([`raise_open_file_limit`]), as Go's runtime does at start: many systems start processes
/// at a soft limit of 1,024 (256 on macOS) with a far higher hard one. 1,024 when it cannot
/// be read.
pub fn open_file_limit() -> u64 {
    static LIMIT: OnceLock<u64> = OnceLock::new();
    *LIMIT.get_or_init(|| match raise_open_file_limit() {
        Ok(limit) => limit,
        Err(e) => {
            tracing::debug!(error = %e, "cannot raise the open-file limit");
            1024
        }
    })
}

/// Raises this process's open-file soft limit to its hard limit. Returns the limit now in
/// force. Nothing in this process uses `select(2)`, whose descriptors stop at 1,024.
#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // rlim_t is u64 on Linux and macOS, not on every Unix.
fn raise_open_file_limit() -> io::Result<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit through a valid pointer to a local.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if limit.rlim_cur >= limit.rlim_max {
        return Ok(limit.rlim_cur as u64);
    }
    let mut wanted = limit.rlim_max;
    // macOS refuses a soft limit above OPEN_MAX (10,240) even when the hard one is unlimited.
    if cfg!(target_os = "macos") {
        wanted = wanted.min(10_240);
    }
    let raised = libc::rlimit {
        rlim_cur: wanted,
        rlim_max: limit.rlim_max,
    };
    // SAFETY: setrlimit reads one rlimit through a valid pointer to a local.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } != 0 {
        return Ok(limit.rlim_cur as u64);
    }
    Ok(wanted as u64)
}

#[cfg(not(unix))]
fn raise_open_file_limit() -> io::Result<u64> {
    Err(io::Error::other("not a Unix system"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_follows_the_open_file_limit_within_its_bounds() {
        // Exactly the documented formula, then its bounds.
        assert_eq!(max_connections_for(4096), (4096 - 512 - 5 * 128) / 6);
        assert_eq!(max_connections_for(20_000), 1024);
        assert_eq!(max_connections_for(7_296), 1024);
        assert_eq!(max_connections_for(7_290), 1023);
        assert_eq!(max_connections_for(1024), 16);
        assert_eq!(max_connections_for(0), 16);
        assert_eq!(max_connections_for(u64::MAX), 1024);
        // What the cap takes fits in the limit once the limit is past the floor's needs.
        for limit in [2_000u64, 4_096, 7_296, 65_536] {
            let cap = max_connections_for(limit) as u64;
            assert!(6 * cap + 5 * 128 + 512 <= limit, "{limit}: {cap}");
        }
    }
}
