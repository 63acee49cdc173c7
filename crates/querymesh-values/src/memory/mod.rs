//! The memory QueryMesh's queries may hold: one query's budget (`query_max_memory_mb`, Trino's
//! `query.max-memory-per-node` on a one-node cluster) and what all of one stand-in's queries hold
//! together (`max_memory_mb`, the node's memory pool).
//!
//! SQLite allocates with libc's malloc, not Rust's allocator, so its memory is counted where
//! SQLite allocates: [`install`] gives SQLite, once per process and before it initialises,
//! allocation methods that delegate to its default ones and count every byte. Each allocation
//! carries an 8-byte header naming the [`Pool`] it was charged to (the default methods' `xSize`
//! tells its size), so a block charged to one stand-in's pool is given back to that pool
//! wherever and whenever it is freed: two sandboxes in one process keep separate pools.
//!
//! A query is charged while it runs: [`Scope::on_connection`] marks the thread that steps it (a
//! query is stepped on one thread at a time, from compile to last row: `Prepared::run`). An
//! allocation that would take the query past its budget, or its pool past the pool's, returns
//! NULL; SQLite then fails the statement with SQLITE_NOMEM and stays usable, and the engine
//! reports Trino's error from what [`Scope`] recorded ([`Exceeded`]). Frees on that thread
//! while the query runs count for it too, so the query's figure is what it added to SQLite's
//! memory; allocations outside any query (opening a connection, attaching the catalogs) are
//! counted process-wide only ([`in_use`]) and are never refused.
//!
//! SQLite stops a statement at a failed allocation only when the allocation is the
//! connection's (`sqlite3OomFault` marks it interrupted). Some are not: `group_concat`'s
//! accumulator grows with no connection, records the failure in itself and reports it only when
//! the group ends — over a cross join, after billions of rows. So a refused allocation
//! interrupts the query's connection itself, unless SQLite declared the failure benign (a page
//! cache that would rather evict: SQLite's benign-malloc hooks, counted per thread here).
//!
//! Functions that build a value in Rust ask [`reserve`] before they allocate it (for the value
//! and SQLite's copy of it), and so does each large result row before it is encoded; rows in
//! flight to the client are bounded by weight in `executor/query.rs`.
//!
//! Aggregates registered as SQLite functions keep their state in Rust's heap, which the shim
//! never sees: it is [`Held`], charged to the same query figure and pool as it grows, measured
//! by the process's allocator ([`CountingAllocator`], `rust_heap`), so no aggregate has to say
//! what it keeps (`querymesh-functions/src/udf/aggregate_state.rs` wraps every one).
//!
//! The process's C heap is glibc's ([`glibc_heap`]); the product trims it as queries go idle.

use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::marker::PhantomData;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Once, OnceLock};

use rusqlite::{Connection, ffi};

use super::error::{ErrorName, TrinoError};

mod held;
mod rust_heap;
mod stats;

pub use held::Held;
pub use rust_heap::{CountingAllocator, allocated_here};
pub use stats::{ConnectionStats, GlibcHeap, HeapStats, glibc_heap, heap_stats};

/// The bytes in front of each block: the pool it is charged to (an `Arc<Pool>` as a raw
/// pointer, or null). Eight keeps SQLite's 8-byte alignment.
const HEADER: usize = 8;
/// SQLite's largest string or blob (its compile-time SQLITE_MAX_LENGTH).
pub const SQLITE_MAX_LENGTH: u64 = 1_000_000_000;

/// SQLite bytes in use in the whole process, charged or not.
static IN_USE: AtomicI64 = AtomicI64::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// SQLite's default methods, which ours delegate to.
struct Original(ffi::sqlite3_mem_methods);
// The methods are plain C functions and SQLite's own app data, never written after install.
unsafe impl Sync for Original {}
unsafe impl Send for Original {}
static ORIGINAL: OnceLock<Original> = OnceLock::new();

/// What all of one stand-in's queries may hold together, and what they hold now.
#[derive(Debug)]
pub struct Pool {
    limit: i64,
    used: AtomicI64,
}

impl Pool {
    pub fn new(limit_bytes: u64) -> Arc<Self> {
        Arc::new(Self {
            limit: i64::try_from(limit_bytes).unwrap_or(i64::MAX),
            used: AtomicI64::new(0),
        })
    }

    /// Bytes charged to this pool and not yet freed.
    pub fn used(&self) -> i64 {
        self.used.load(Ordering::Relaxed)
    }
}

/// One query's limits: its own, and the pool it shares with the stand-in's other queries.
#[derive(Clone, Debug)]
pub struct Budget {
    pub query_bytes: u64,
    pub pool: Arc<Pool>,
}

impl Budget {
    pub fn new(query_bytes: u64, pool: Arc<Pool>) -> Self {
        Self { query_bytes, pool }
    }

    /// SQLite's SQLITE_LIMIT_LENGTH for connections under this budget: no value can be
    /// larger than the query that holds it may be.
    pub fn length_limit(&self) -> c_int {
        c_int::try_from(self.query_bytes.min(SQLITE_MAX_LENGTH)).unwrap_or(c_int::MAX)
    }
}

/// Which budget an allocation would have passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exceeded {
    /// The query's own: Trino's EXCEEDED_LOCAL_MEMORY_LIMIT.
    Query {
        limit: u64,
        allocated: i64,
        delta: u64,
    },
    /// The pool all queries share: Trino's low-memory killer's CLUSTER_OUT_OF_MEMORY.
    Pool,
}

impl Exceeded {
    /// Trino's error: `ExceededMemoryLimitException.exceededLocalUserMemoryLimit` ("Query
    /// exceeded per-node memory limit of 256MB [Allocated: …, Delta: …]") for one query's
    /// budget, `ClusterMemoryManager`'s kill message for the pool.
    pub fn error(self) -> TrinoError {
        match self {
            Self::Query {
                limit,
                allocated,
                delta,
            } => TrinoError::new(
                ErrorName::ExceededLocalMemoryLimit,
                format!(
                    "Query exceeded per-node memory limit of {} [Allocated: {}, Delta: {}]",
                    succinct(limit),
                    succinct(u64::try_from(allocated).unwrap_or(0)),
                    succinct(delta)
                ),
            ),
            Self::Pool => TrinoError::new(
                ErrorName::ClusterOutOfMemory,
                "Query killed because the cluster is out of memory. Please try again in a few minutes.",
            ),
        }
    }
}

/// A size as airlift's `DataSize.succinctBytes(…).toString()` prints it: the largest unit
/// (1024-based) with at least 1, whole numbers bare, others with two decimals (`256MB`, `6.76GB`).
pub fn succinct(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut unit = 0;
    let mut scale = 1u64;
    while unit + 1 < UNITS.len() && bytes >= scale << 10 {
        scale <<= 10;
        unit += 1;
    }
    if bytes.is_multiple_of(scale) {
        format!("{}{}", bytes / scale, UNITS[unit])
    } else {
        format!("{:.2}{}", bytes as f64 / scale as f64, UNITS[unit])
    }
}

/// The query being stepped on a thread.
struct ScopeState {
    budget: Budget,
    /// Bytes this query added to SQLite's memory (frees while it runs count against it).
    used: Cell<i64>,
    exceeded: Cell<Option<Exceeded>>,
    /// The connection stepping the query (null: none), interrupted at a refused allocation.
    db: *mut ffi::sqlite3,
    /// Whether a refused allocation interrupted `db`.
    interrupted: Cell<bool>,
}

thread_local! {
    static CURRENT: Cell<*const ScopeState> = const { Cell::new(ptr::null()) };
    /// How deep this thread is in SQLite's benign-malloc regions (see [`install`]).
    static BENIGN: Cell<u32> = const { Cell::new(0) };
}

/// Marks this thread as stepping one query until dropped. Not `Send`: it must end on the thread
/// it began on; it borrows the connection it may interrupt.
pub struct Scope<'c> {
    state: Box<ScopeState>,
    previous: *const ScopeState,
    _connection: PhantomData<&'c Connection>,
}

impl Scope<'static> {
    /// A scope with no connection to stop: a refused allocation only fails.
    pub fn enter(budget: Budget) -> Self {
        Self::begin(budget, ptr::null_mut())
    }
}

impl<'c> Scope<'c> {
    /// The query stepped on `conn`: a refused allocation also interrupts it, so a statement
    /// whose allocation failed where SQLite does not stop at once (group_concat) stops.
    pub fn on_connection(budget: Budget, conn: &'c Connection) -> Self {
        // SAFETY: the handle of a connection the scope borrows, so it outlives the scope.
        Self::begin(budget, unsafe { conn.handle() })
    }

    fn begin(budget: Budget, db: *mut ffi::sqlite3) -> Self {
        let state = Box::new(ScopeState {
            budget,
            used: Cell::new(0),
            exceeded: Cell::new(None),
            db,
            interrupted: Cell::new(false),
        });
        let previous = CURRENT.with(|c| c.replace(&*state));
        Self {
            state,
            previous,
            _connection: PhantomData,
        }
    }

    /// What the query has added to SQLite's memory so far.
    pub fn used(&self) -> i64 {
        self.state.used.get()
    }
}

/// Whether the current query's connection was interrupted because an allocation was refused:
/// its SQLITE_INTERRUPT is then the memory budget's failure ([`failure`]), not a stop.
pub fn interrupted_for_memory() -> bool {
    with_scope(|scope| scope.is_some_and(|s| s.interrupted.get()))
}

/// A refused allocation of the current query: unless SQLite said it may fail (benign), stop the
/// statement, wherever SQLite would only have recorded the failure.
fn refused(scope: &ScopeState) {
    let benign = BENIGN.try_with(Cell::get).unwrap_or(0) > 0;
    if benign || scope.db.is_null() {
        return;
    }
    scope.interrupted.set(true);
    // SAFETY: the handle of the connection the scope borrows; sqlite3_interrupt only sets a
    // flag the running statement checks.
    unsafe { ffi::sqlite3_interrupt(scope.db) };
}

unsafe extern "C" fn benign_begin() {
    let _ = BENIGN.try_with(|b| b.set(b.get().saturating_add(1)));
}

unsafe extern "C" fn benign_end() {
    let _ = BENIGN.try_with(|b| b.set(b.get().saturating_sub(1)));
}

impl Drop for Scope<'_> {
    fn drop(&mut self) {
        let previous = self.previous;
        let _ = CURRENT.try_with(|c| c.set(previous));
    }
}

fn with_scope<R>(f: impl FnOnce(Option<&ScopeState>) -> R) -> R {
    let current = CURRENT.try_with(Cell::get).unwrap_or(ptr::null());
    // SAFETY: CURRENT points at the state a live `Scope` on this thread owns (the Box does not
    // move, and `Scope::drop` restores the previous pointer before the Box is freed).
    f(unsafe { current.as_ref() })
}

/// Whether `delta` more bytes fit the current query's budget and its pool; records the
/// budget that would be passed.
fn admit(scope: &ScopeState, delta: i64) -> bool {
    if delta <= 0 {
        return true;
    }
    let query_limit = i64::try_from(scope.budget.query_bytes).unwrap_or(i64::MAX);
    let exceeded = if scope.used.get().saturating_add(delta) > query_limit {
        Some(Exceeded::Query {
            limit: scope.budget.query_bytes,
            allocated: scope.used.get(),
            delta: delta as u64,
        })
    } else if scope.budget.pool.used().saturating_add(delta) > scope.budget.pool.limit {
        Some(Exceeded::Pool)
    } else {
        None
    };
    match exceeded {
        Some(e) => {
            scope.exceeded.set(Some(e));
            false
        }
        None => true,
    }
}

/// Asks, before building a value of `bytes` in Rust, whether the query may hold it; no value
/// may pass SQLite's own length limit either, in a query or not.
pub fn reserve(bytes: u64) -> Result<(), Exceeded> {
    with_scope(|scope| {
        let delta = i64::try_from(bytes).unwrap_or(i64::MAX);
        match scope {
            Some(scope) => {
                let too_long = bytes > scope.budget.query_bytes.min(SQLITE_MAX_LENGTH);
                if too_long || !admit(scope, delta) {
                    let e = scope.exceeded.get().unwrap_or(Exceeded::Query {
                        limit: scope.budget.query_bytes,
                        allocated: scope.used.get(),
                        delta: bytes,
                    });
                    scope.exceeded.set(Some(e));
                    return Err(e);
                }
                Ok(())
            }
            None if bytes > SQLITE_MAX_LENGTH => Err(Exceeded::Query {
                limit: SQLITE_MAX_LENGTH,
                allocated: 0,
                delta: bytes,
            }),
            None => Ok(()),
        }
    })
}

/// Why SQLite failed the current query with SQLITE_NOMEM (`too_big: false`) or SQLITE_TOOBIG
/// (`true`, a value past the length limit, which SQLite checks before allocating).
pub fn failure(too_big: bool) -> TrinoError {
    with_scope(
        |scope| match (scope.and_then(|s| s.exceeded.get()), scope) {
            (Some(e), _) => e.error(),
            (None, Some(scope)) if too_big => Exceeded::Query {
                limit: scope.budget.query_bytes,
                allocated: scope.used.get(),
                delta: scope.budget.query_bytes.min(SQLITE_MAX_LENGTH),
            }
            .error(),
            (None, None) if too_big => Exceeded::Query {
                limit: SQLITE_MAX_LENGTH,
                allocated: 0,
                delta: SQLITE_MAX_LENGTH,
            }
            .error(),
            // malloc itself failed: the machine is out of memory.
            (None, _) => Exceeded::Pool.error(),
        },
    )
}

/// SQLite bytes in use in this process.
pub fn in_use() -> i64 {
    IN_USE.load(Ordering::Relaxed)
}

/// Whether SQLite's allocations are counted (see [`install`]).
pub fn accounting() -> bool {
    INSTALLED.load(Ordering::Relaxed)
}

/// Gives SQLite the counting allocation methods, once per process, before anything opens a
/// SQLite database (`sqlite3_config` is refused once SQLite has initialised). Returns whether
/// they are in place: when something opened SQLite first they are not, and only SQLite's
/// length limit and the functions' own checks bound a query.
pub fn install() -> bool {
    INSTALL.call_once(|| {
        let mut original = ffi::sqlite3_mem_methods {
            xMalloc: None,
            xFree: None,
            xRealloc: None,
            xSize: None,
            xRoundup: None,
            xInit: None,
            xShutdown: None,
            pAppData: ptr::null_mut(),
        };
        // SAFETY: SQLITE_CONFIG_GETMALLOC writes the current methods into the struct.
        let got = unsafe {
            ffi::sqlite3_config(
                ffi::SQLITE_CONFIG_GETMALLOC,
                &mut original as *mut ffi::sqlite3_mem_methods,
            )
        };
        let complete = original.xMalloc.is_some()
            && original.xFree.is_some()
            && original.xRealloc.is_some()
            && original.xSize.is_some()
            && original.xRoundup.is_some();
        if got != ffi::SQLITE_OK || !complete || ORIGINAL.set(Original(original)).is_err() {
            tracing::warn!("SQLite's memory cannot be counted: query memory budgets are partial");
            return;
        }
        let counting = ffi::sqlite3_mem_methods {
            xMalloc: Some(x_malloc),
            xFree: Some(x_free),
            xRealloc: Some(x_realloc),
            xSize: Some(x_size),
            xRoundup: Some(x_roundup),
            xInit: Some(x_init),
            xShutdown: Some(x_shutdown),
            pAppData: original.pAppData,
        };
        // SAFETY: SQLite copies the struct; the functions live for the whole process.
        let set = unsafe {
            ffi::sqlite3_config(
                ffi::SQLITE_CONFIG_MALLOC,
                &counting as *const ffi::sqlite3_mem_methods,
            )
        };
        if set == ffi::SQLITE_OK {
            // SAFETY: registers two functions that live for the whole process; SQLite calls
            // them around the allocations whose failure it tolerates.
            unsafe {
                ffi::sqlite3_test_control(
                    ffi::SQLITE_TESTCTRL_BENIGN_MALLOC_HOOKS,
                    benign_begin as unsafe extern "C" fn(),
                    benign_end as unsafe extern "C" fn(),
                );
            }
            INSTALLED.store(true, Ordering::Relaxed);
        } else {
            tracing::warn!(
                "SQLite initialised before its memory could be counted: query memory budgets are partial"
            );
        }
    });
    accounting()
}

fn original() -> &'static ffi::sqlite3_mem_methods {
    // Our methods are installed only after ORIGINAL is set.
    match ORIGINAL.get() {
        Some(o) => &o.0,
        None => unreachable_methods(),
    }
}

#[cold]
fn unreachable_methods() -> ! {
    // SQLite never calls methods it was not given; abort rather than unwind into C.
    std::process::abort()
}

/// The block's size as the default methods report it, header included.
unsafe fn raw_size(base: *mut c_void) -> i64 {
    // SAFETY: `base` is a block from the default xMalloc/xRealloc.
    i64::from(unsafe { (original().xSize.unwrap_unchecked())(base) })
}

/// Charges `delta` bytes of the block to `pool` (null: no pool), the process and the current
/// query.
fn account(pool: *const Pool, delta: i64) {
    IN_USE.fetch_add(delta, Ordering::Relaxed);
    // SAFETY: a non-null header pool is an `Arc<Pool>` the block holds a count of.
    if let Some(pool) = unsafe { pool.as_ref() } {
        pool.used.fetch_add(delta, Ordering::Relaxed);
    }
    with_scope(|scope| {
        if let Some(scope) = scope {
            scope.used.set(scope.used.get().saturating_add(delta));
        }
    });
}

unsafe extern "C" fn x_malloc(n: c_int) -> *mut c_void {
    let Some(total) = n.checked_add(HEADER as c_int) else {
        return ptr::null_mut();
    };
    // SAFETY: the default methods, as SQLite would call them.
    let rounded = unsafe { (original().xRoundup.unwrap_unchecked())(total) };
    let pool = with_scope(|scope| match scope {
        Some(scope) if !admit(scope, i64::from(rounded)) => {
            refused(scope);
            None
        }
        Some(scope) => Some(Arc::as_ptr(&scope.budget.pool)),
        None => Some(ptr::null()),
    });
    let Some(pool) = pool else {
        return ptr::null_mut();
    };
    // SAFETY: as above; a non-null block has room for the header and is 8-byte aligned.
    unsafe {
        let base = (original().xMalloc.unwrap_unchecked())(total);
        if base.is_null() {
            return base;
        }
        if !pool.is_null() {
            Arc::increment_strong_count(pool);
        }
        base.cast::<*const Pool>().write(pool);
        account(pool, raw_size(base));
        base.cast::<u8>().add(HEADER).cast()
    }
}

unsafe extern "C" fn x_free(p: *mut c_void) {
    if p.is_null() {
        return;
    }
    // SAFETY: `p` came from x_malloc/x_realloc, so its header precedes it.
    unsafe {
        let base = p.cast::<u8>().sub(HEADER).cast::<c_void>();
        let pool = base.cast::<*const Pool>().read();
        account(pool, -raw_size(base));
        (original().xFree.unwrap_unchecked())(base);
        if !pool.is_null() {
            Arc::decrement_strong_count(pool);
        }
    }
}

unsafe extern "C" fn x_realloc(p: *mut c_void, n: c_int) -> *mut c_void {
    if p.is_null() {
        // SAFETY: realloc of nothing is malloc.
        return unsafe { x_malloc(n) };
    }
    let Some(total) = n.checked_add(HEADER as c_int) else {
        return ptr::null_mut();
    };
    // SAFETY: `p` came from x_malloc/x_realloc; the default methods as SQLite would call them.
    unsafe {
        let base = p.cast::<u8>().sub(HEADER).cast::<c_void>();
        let old = raw_size(base);
        let rounded = i64::from((original().xRoundup.unwrap_unchecked())(total));
        let admitted = with_scope(|scope| match scope {
            Some(scope) if !admit(scope, rounded - old) => {
                refused(scope);
                false
            }
            _ => true,
        });
        if !admitted {
            // SQLite keeps the old block, as after any failed realloc.
            return ptr::null_mut();
        }
        let grown = (original().xRealloc.unwrap_unchecked())(base, total);
        if grown.is_null() {
            return grown;
        }
        // The header moved with the block and still names its pool.
        let pool = grown.cast::<*const Pool>().read();
        account(pool, raw_size(grown) - old);
        grown.cast::<u8>().add(HEADER).cast()
    }
}

unsafe extern "C" fn x_size(p: *mut c_void) -> c_int {
    if p.is_null() {
        return 0;
    }
    // SAFETY: `p` came from x_malloc/x_realloc.
    unsafe {
        let base = p.cast::<u8>().sub(HEADER).cast::<c_void>();
        (original().xSize.unwrap_unchecked())(base) - HEADER as c_int
    }
}

unsafe extern "C" fn x_roundup(n: c_int) -> c_int {
    match n.checked_add(HEADER as c_int) {
        // SAFETY: the default methods, as SQLite would call them.
        Some(total) => unsafe { (original().xRoundup.unwrap_unchecked())(total) - HEADER as c_int },
        None => n,
    }
}

unsafe extern "C" fn x_init(app: *mut c_void) -> c_int {
    match original().xInit {
        // SAFETY: the default method with its own app data.
        Some(init) => unsafe { init(app) },
        None => ffi::SQLITE_OK,
    }
}

unsafe extern "C" fn x_shutdown(app: *mut c_void) {
    if let Some(shutdown) = original().xShutdown {
        // SAFETY: the default method with its own app data.
        unsafe { shutdown(app) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_print_as_airlift_prints_them() {
        assert_eq!(succinct(256 << 20), "256MB");
        assert_eq!(succinct(856), "856B");
        assert_eq!(succinct(1536), "1.50kB");
        assert_eq!(succinct(7_258_000_000), "6.76GB");
    }

    /// Allocations in a scope are charged to its query and pool and given back when freed, on
    /// any thread; one past a budget is refused and says which.
    #[test]
    fn a_scope_charges_its_query_and_pool() {
        // Every path of this crate that opens SQLite installs first.
        assert!(install(), "the counting methods are in place");
        let pool = Pool::new(3 << 20);
        let budget = Budget::new(2 << 20, pool.clone());
        let block = {
            let scope = Scope::enter(budget.clone());
            // SAFETY: SQLite's allocator, freed below.
            let block = unsafe { ffi::sqlite3_malloc64(1 << 20) };
            assert!(!block.is_null());
            assert!(scope.used() >= 1 << 20);
            assert!(pool.used() >= 1 << 20);
            // SAFETY: as above.
            let refused = unsafe { ffi::sqlite3_malloc64(3 << 19) };
            assert!(refused.is_null(), "1.5 MB more passes the 2 MB budget");
            assert!(matches!(
                scope.state.exceeded.get(),
                Some(Exceeded::Query { .. })
            ));
            assert_eq!(
                failure(false).name,
                ErrorName::ExceededLocalMemoryLimit,
                "{}",
                failure(false).text
            );
            block as usize
        };
        // Another query of the same pool may not take what the first still holds.
        std::thread::spawn(move || {
            let scope = Scope::enter(Budget::new(4 << 20, pool.clone()));
            // SAFETY: SQLite's allocator; never succeeds here.
            let refused = unsafe { ffi::sqlite3_malloc64(5 << 19) };
            assert!(refused.is_null());
            assert_eq!(scope.state.exceeded.get(), Some(Exceeded::Pool));
            // Freed on another thread, outside its query: the pool gets it back.
            // SAFETY: the block from above, freed once.
            unsafe { ffi::sqlite3_free(block as *mut c_void) };
            assert!(pool.used() < 1 << 10, "{}", pool.used());
        })
        .join()
        .expect("the other query's thread");
        assert!(reserve(SQLITE_MAX_LENGTH + 1).is_err());
        assert!(reserve(1 << 20).is_ok());
    }
}
