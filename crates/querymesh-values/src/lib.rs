//! The bottom layer of the QueryMesh stand-in: Trino's types, values and errors, and how each
//! is written in SQLite. Everything above builds on it — the SQLite functions and the function
//! families (`querymesh-functions`), the analysis and the engine (`querymesh-engine`) — and it
//! names none of them (crates/README.md).
//!
//! # Layout
//!
//! - [`types`]: [`types::TrinoType`], Trino's types as they are written and parsed.
//! - [`error`]: [`error::TrinoError`], a query's failure as Trino names it, with its place.
//! - [`typed`]: an expression typed — its SQLite expression tree, Trino type and known constant value.
//! - [`sqlite_expr`]: the SQLite expression tree analysis builds, rendered to text in one place.
//! - [`sqlite_text`]: string literals and quoted names as SQLite reads them.
//! - [`element`]: the element form of arrays, maps and rows (docs/complex-design.md).
//! - [`coerce`]: Trino's implicit coercions, and the SQL of a value coerced.
//! - [`decimal`], [`calendar`], [`java_number`]: decimals, dates and numbers as Trino (and
//!   Java) write them.
//! - [`memory`]: the memory each query holds, counted, and the budgets that bound it.

pub mod calendar;
pub mod coerce;
pub mod decimal;
pub mod element;
pub mod error;
pub mod java_number;
pub mod memory;
pub mod sqlite_expr;
pub mod sqlite_text;
pub mod typed;
pub mod types;

/// The Trino release the stand-in answers as: `version()` (what Trino's JDBC driver reports as
/// `getDatabaseProductVersion()`, read by DBeaver and DataGrip on connect) and
/// `system.runtime.nodes.node_version`.
pub const TRINO_VERSION: &str = "476";

/// This crate's tests count every allocation as the product's binary does (memory/rust_heap.rs).
#[cfg(test)]
#[global_allocator]
static ALLOCATOR: memory::CountingAllocator = memory::CountingAllocator;
