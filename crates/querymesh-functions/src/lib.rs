//! The functions of the QueryMesh stand-in, above its values (`querymesh-values`) and below
//! the analysis (`querymesh-engine`), which it never names (crates/README.md).
//!
//! # Layout
//!
//! - One folder per function family, named as Trino's documentation names it (`aggregate`,
//!   `array`, `binary`, `bing_tiles`, `datetime`, `format`, `json`, `map`, `math`, `regexp`,
//!   `setdigest`, `sketch` (HyperLogLog, qdigest, tdigest),
//!   `string`, `url`; `bitwise`, `conditional`, `failure`, `lambda`, `session_info` and
//!   `window` are one file each). Its `mod.rs` holds a table of [`entry::FunctionDef`]s — name, kind, signatures,
//!   Trino's description — and the lowerings that write each call as SQLite; its `sqlite`
//!   module the `qm_*` SQLite functions those lowerings call. A lowering gets the [`Call`]
//!   (its arguments typed) and a [`context::LowerContext`], never the analyser.
//! - [`registry`] gathers the families' tables (a new family is one line there);
//!   [`signature`] parses and matches Trino's signatures. Reading a call's syntax and
//!   resolving it is the engine's analysis (its sql/analyze/calls/).
//! - [`udf`]: what every family's SQLite functions share, and those of no one family (casts,
//!   decimals, operators); [`sqlite::register`] registers every `qm_*` function on a
//!   connection.

pub mod aggregate;
pub mod array;
pub mod binary;
pub mod bing_tiles;
pub mod bitwise;
pub mod color;
pub mod conditional;
pub mod context;
pub mod datetime;
pub mod entry;
pub mod failure;
pub mod format;
pub mod geospatial;
pub mod ipaddress;
pub mod json;
pub mod lambda;
pub mod map;
pub mod math;
pub mod regexp;
pub mod registry;
pub mod session_info;
pub mod setdigest;
pub mod signature;
pub mod sketch;
pub mod sqlite;
pub mod string;
pub mod table;
pub mod udf;
pub mod url;
pub mod window;

use querymesh_values::sqlite_expr::{SqlExpr, SqliteFn};
use querymesh_values::typed::Typed;

pub use binary::concat_sql as binary_concat_sql;
pub use lambda::{Lambda, LambdaParam};
use querymesh_values::error::error_at;
use querymesh_values::error::{ErrorName, Position, TrinoError};
use querymesh_values::types::TrinoType;
use signature::Vars;

/// This crate's tests count every allocation as the product's binary does: aggregates charge
/// their state to the query's budget through it (querymesh_values::memory).
#[cfg(test)]
#[global_allocator]
static ALLOCATOR: querymesh_values::memory::CountingAllocator =
    querymesh_values::memory::CountingAllocator;

/// A scalar call as its lowering sees it.
pub struct Call {
    pub name: String,
    /// The value arguments, in order (coerced to the signature's parameters when the entry is
    /// [`Typing::Resolved`]).
    pub args: Vec<Typed>,
    /// The lambda arguments, in order; they follow the values in every Trino signature.
    pub lambdas: Vec<Lambda>,
    pub at: Option<Position>,
    /// The matched signature's return type (resolved entries).
    pub returns: Option<TrinoType>,
    /// What the matched signature's generic types were bound to.
    pub vars: Vars,
}

impl Call {
    /// The arguments' SQLite expressions, in order.
    pub fn arg_exprs(&self) -> Vec<SqlExpr> {
        self.args.iter().map(|a| a.sql.clone()).collect()
    }

    /// `f` over the arguments as they are, typed by the matched signature.
    pub fn calling(&self, f: SqliteFn) -> Typed {
        Typed::new(f.call(self.arg_exprs()), self.returns())
    }

    /// The resolved return type (`unknown` for an entry typed by its lowering).
    pub fn returns(&self) -> TrinoType {
        self.returns.clone().unwrap_or(TrinoType::Unknown)
    }

    /// A generic type's binding (`unknown` when only NULLs met it).
    pub fn var(&self, v: char) -> TrinoType {
        self.vars.get(&v).cloned().unwrap_or(TrinoType::Unknown)
    }
}

pub fn unexpected(at: Option<Position>, name: &str, args: &[Typed]) -> TrinoError {
    let types: Vec<String> = args.iter().map(|a| a.ty.to_string()).collect();
    error_at(
        ErrorName::FunctionNotFound,
        at,
        format!(
            "Unexpected parameters ({}) for function {name}",
            types.join(", ")
        ),
    )
}

pub fn not_registered(at: Option<Position>, name: &str) -> TrinoError {
    error_at(
        ErrorName::FunctionNotFound,
        at,
        format!("Function '{name}' not registered"),
    )
}

pub fn is_string_or_null(t: &TrinoType) -> bool {
    t.is_string() || *t == TrinoType::Unknown
}

/// An integer argument; a bare NULL is one too (Trino coerces `unknown` to the parameter).
pub fn is_integer_or_null(t: &TrinoType) -> bool {
    t.is_integral() || *t == TrinoType::Unknown
}

pub fn is_numeric_or_null(t: &TrinoType) -> bool {
    t.is_numeric() || *t == TrinoType::Unknown
}
