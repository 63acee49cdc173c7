//! The functions of the QueryMesh stand-in, above its values (`querymesh-values`) and below
//! the analysis (`querymesh-engine`), which it never names (crates/README.md).
//!
//! # Layout
//!
//! - The function families, one file each (math.rs, string.rs, …): a table of
//!   [`entry::FunctionDef`]s — name, kind, signatures, Trino's description — and the lowerings
//!   that write each call as SQLite. A lowering gets the [`Call`] (its arguments typed) and a
//!   [`context::LowerContext`], never the analyser; [`registry`] gathers the tables;
//!   [`signature`] parses and matches Trino's signatures. Reading a call's syntax and
//!   resolving it is the engine's analysis (its sql/calls/).
//! - [`udf`]: the `qm_*` functions SQLite runs for them, registered on every connection.

mod aggregate;
mod aggregate_extended;
pub mod array;
mod array_lambda;
mod binary;
mod bitwise;
mod conditional;
pub mod context;
mod date;
mod datetime_format;
pub mod entry;
mod format;
pub mod json;
pub mod lambda;
mod map;
pub mod math;
mod regexp;
pub mod registry;
mod session_info;
pub mod signature;
mod string;
mod string_metrics;
pub mod time_zone;
pub mod udf;
mod url;
pub mod window;

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
    pub fn sql(&self) -> Vec<&str> {
        self.args.iter().map(|a| a.sql.as_str()).collect()
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
