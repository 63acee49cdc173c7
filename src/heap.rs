//! The process's C heap (glibc's malloc, which Rust's allocator and SQLite both use): its
//! arenas capped for the binary ([`limit_arenas`]), and what a burst of work freed given back
//! to the system once the whole process goes quiet, the idle pooled connections' buffers with
//! it ([`give_back_when_quiet`]).
//!
//! glibc keeps freed memory in its arenas for reuse and returns it only from the top of the
//! main heap, past a threshold that rises with every large block freed. So a sandbox that
//! served a burst of 50 clients stays at the burst's size when left idle, though most of it
//! is free; [`trim`] hands the free pages back.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::watch;

use crate::http::IdleConnections;

/// Requests every listener of this process has begun (see [`request_started`]).
static REQUESTS: AtomicU64 = AtomicU64::new(0);

/// How often [`give_back_when_quiet`] looks: a trim follows a burst's last request by one to
/// two of these.
const LOOK_EVERY: Duration = Duration::from_secs(1);

/// The quiet look that trims a second time.
const TRIM_AGAIN_AT: u8 = 3;

/// Each listener calls this as a request begins (one relaxed add).
pub fn request_started() {
    REQUESTS.fetch_add(1, Ordering::Relaxed);
}

/// What a look does once the process went quiet.
#[derive(Debug, PartialEq, Eq)]
enum Quiet {
    /// Still busy, or already given back this spell.
    Nothing,
    /// The first quiet look after requests: close the idle pooled connections, and trim.
    CloseIdleAndTrim,
    /// Two looks later: trim what the closed connections freed at both ends (their tasks end
    /// on the runtime after the close) and what the query threads' caches held (they exit
    /// after a second without work, see `commands::BLOCKING_THREAD_KEEP_ALIVE`).
    TrimAgain,
}

/// Where the current quiet spell is: a busy process is never trimmed (a trim walks every
/// arena under its lock), an idle one only at the start of each quiet spell.
#[derive(Debug)]
struct QuietSpells {
    seen: u64,
    /// Quiet looks since the last request, up to [`TRIM_AGAIN_AT`] (nothing to do past it).
    quiet_looks: u8,
}

impl QuietSpells {
    fn look(&mut self, requests: u64) -> Quiet {
        if requests != self.seen {
            self.seen = requests;
            self.quiet_looks = 0;
            return Quiet::Nothing;
        }
        if self.quiet_looks == TRIM_AGAIN_AT {
            return Quiet::Nothing;
        }
        self.quiet_looks += 1;
        match self.quiet_looks {
            1 => Quiet::CloseIdleAndTrim,
            TRIM_AGAIN_AT => Quiet::TrimAgain,
            _ => Quiet::Nothing,
        }
    }
}

/// Gives memory back each time the process goes quiet, until `shutdown`: closes the idle
/// connections of `pools` and trims the heap. Every sandbox runs one; in a process holding
/// several (tests) each trims the one process heap, which is harmless.
pub async fn give_back_when_quiet(
    mut shutdown: watch::Receiver<bool>,
    pools: Vec<Box<dyn IdleConnections>>,
) {
    let mut spells = QuietSpells {
        seen: REQUESTS.load(Ordering::Relaxed),
        // Nothing to give back before the first request.
        quiet_looks: TRIM_AGAIN_AT,
    };
    let mut every = tokio::time::interval(LOOK_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = shutdown.changed() => return,
        }
        let what = spells.look(REQUESTS.load(Ordering::Relaxed));
        if what == Quiet::Nothing {
            continue;
        }
        if what == Quiet::CloseIdleAndTrim {
            for pool in &pools {
                pool.forget_idle();
            }
        }
        // A trim takes a few milliseconds on a large heap: off the runtime's workers.
        let _ = tokio::task::spawn_blocking(move || {
            let before = querymesh_engine::memory::glibc_heap();
            trim();
            tracing::debug!(
                target: "zero_sandbox::memory",
                heap_in_use = before.in_use,
                heap_free = before.free,
                "requests quiet: {}",
                if what == Quiet::TrimAgain {
                    "heap trimmed again"
                } else {
                    "idle connections closed, heap trimmed"
                }
            );
        })
        .await;
    }
}

/// Gives the free pages of every arena back to the system. Process-wide, harmless to repeat.
pub fn trim() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        unsafe extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: glibc's malloc_trim only releases free memory; any thread may call it.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// Caps glibc's malloc arenas for the binary, before it starts any thread: by default each of
/// up to 8 × cores threads gets its own, and every query thread leaves the pages it touched
/// in its arena (tens of megabytes across a busy pool, kept for good). One arena: what a
/// burst leaves behind is small blocks still live among freed ones, and each arena has its
/// own such patches. With one, six soaks of 50 clients (two full, four shorter) settled at
/// 30–31 MiB, with two at 30–35 over nine, as fast (threads allocate mostly from their own
/// caches, not under the arena's lock). A library user's process keeps its own allocator settings: only `main`
/// calls this.
pub fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const M_ARENA_MAX: std::ffi::c_int = -8;
        const ARENAS: std::ffi::c_int = 1;
        unsafe extern "C" {
            fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
        }
        // SAFETY: called first thing in main, before any other thread allocates.
        unsafe {
            mallopt(M_ARENA_MAX, ARENAS);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_spell_closes_idle_connections_then_trims_twice_and_a_busy_one_never() {
        let mut spells = QuietSpells {
            seen: 0,
            quiet_looks: TRIM_AGAIN_AT,
        };
        assert_eq!(spells.look(0), Quiet::Nothing, "nothing happened yet");
        assert_eq!(
            spells.look(5),
            Quiet::Nothing,
            "requests since the last look"
        );
        assert_eq!(spells.look(9), Quiet::Nothing, "still busy");
        assert_eq!(
            spells.look(9),
            Quiet::CloseIdleAndTrim,
            "quiet after requests"
        );
        assert_eq!(
            spells.look(9),
            Quiet::Nothing,
            "the closed connections' tasks end"
        );
        assert_eq!(spells.look(9), Quiet::TrimAgain, "what the closing freed");
        assert_eq!(spells.look(9), Quiet::Nothing, "still quiet: done");
        assert_eq!(spells.look(9), Quiet::Nothing);
        assert_eq!(spells.look(10), Quiet::Nothing, "busy again");
        assert_eq!(spells.look(10), Quiet::CloseIdleAndTrim, "the next spell");
    }
}
