//! What a running stand-in's memory is made of, for the debug log of each trim: the C heap and
//! SQLite's part of it, and what one connection holds.

use std::ffi::c_int;

use rusqlite::ffi;

/// The C heap as glibc counts it over every arena, and SQLite's part of it: the debug log of
/// each trim reports these, so where a running sandbox's memory went can be read off it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeapStats {
    /// Bytes in blocks handed out, Rust's and SQLite's, large mmapped ones included.
    pub in_use: u64,
    /// Bytes freed and kept in the arenas: what a trim may give back, less fragmentation.
    pub free: u64,
    /// Of `in_use`, SQLite's (0 when its allocations are not counted: see [`super::install`]).
    pub sqlite: u64,
}

/// The heap now, and SQLite's part of it (see [`glibc_heap`]).
pub fn heap_stats() -> HeapStats {
    let GlibcHeap { in_use, free } = glibc_heap();
    HeapStats {
        in_use,
        free,
        sqlite: u64::try_from(super::in_use()).unwrap_or(0),
    }
}

/// The heap as glibc counts it over every arena.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GlibcHeap {
    /// Bytes in blocks handed out, large mmapped ones included.
    pub in_use: u64,
    /// Bytes freed and kept in the arenas (pages a trim released included: glibc still
    /// lists them free).
    pub free: u64,
}

/// The heap now (glibc's `mallinfo2`, which walks every arena's free lists: a few
/// microseconds on a quiet heap, so for quiet moments, not per request).
pub fn glibc_heap() -> GlibcHeap {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallinfo2 only reads the allocator's statistics; any thread may call it.
        let info = unsafe { libc::mallinfo2() };
        GlibcHeap {
            in_use: (info.uordblks + info.hblkhd) as u64,
            free: info.fordblks as u64,
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    GlibcHeap::default()
}

/// What one connection holds in SQLite's memory (`sqlite3_db_status`): its page caches, its
/// compiled statements, and the schemas of its attached databases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConnectionStats {
    pub page_cache: u64,
    pub statements: u64,
    pub schema: u64,
}

impl ConnectionStats {
    pub fn of(conn: &rusqlite::Connection) -> Self {
        let status = |op: c_int| {
            let (mut current, mut highwater) = (0, 0);
            // SAFETY: the handle of a live connection; the call only reads its counters.
            let rc = unsafe {
                ffi::sqlite3_db_status(conn.handle(), op, &mut current, &mut highwater, 0)
            };
            if rc == ffi::SQLITE_OK {
                u64::try_from(current).unwrap_or(0)
            } else {
                0
            }
        };
        Self {
            page_cache: status(ffi::SQLITE_DBSTATUS_CACHE_USED),
            statements: status(ffi::SQLITE_DBSTATUS_STMT_USED),
            schema: status(ffi::SQLITE_DBSTATUS_SCHEMA_USED),
        }
    }
}

impl std::ops::Add for ConnectionStats {
    type Output = Self;
    fn add(self, other: Self) -> Self {
        Self {
            page_cache: self.page_cache + other.page_cache,
            statements: self.statements + other.statements,
            schema: self.schema + other.schema,
        }
    }
}
