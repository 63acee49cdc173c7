//! The function registry: every Trino function the stand-in has is one [`FunctionDef`] — its
//! name, kind, signatures, Trino's one-line description and how it lowers to SQLite. The
//! analyser resolves calls through it, `SHOW FUNCTIONS` lists it, and "Function 'x' not
//! registered" / "Unexpected parameters" are decided by it. Families live in their own files
//! (math.rs, string.rs, …), each with a `FUNCTIONS` table.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::Call;
use super::signature::Signature;
use crate::querymesh::engine::error::TrinoError;
use crate::querymesh::engine::sql::analyze::{Analyzer, Typed};
use crate::querymesh::engine::types::TrinoType;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Scalar,
    /// A scalar Trino parses as its own syntax (`if`, `coalesce`, `nullif`): called like a
    /// function, but not one `SHOW FUNCTIONS` lists.
    SpecialForm,
    Aggregate,
    Window,
}

impl Kind {
    /// `Function Type` in `SHOW FUNCTIONS`.
    pub fn shown(self) -> &'static str {
        match self {
            Kind::Scalar | Kind::SpecialForm => "scalar",
            Kind::Aggregate => "aggregate",
            Kind::Window => "window",
        }
    }
}

/// Lowers a scalar call whose arguments have been analysed (and, for a [`Typing::Resolved`]
/// entry, matched to a signature and coerced to its parameters). `Ok(None)`: these arguments
/// fit none of the function's signatures.
pub type ScalarLowering = for<'a, 'b> fn(&'a mut Analyzer<'b>, &Call) -> LowerResult;
pub type LowerResult = Result<Option<Typed>, TrinoError>;

/// Lowers an aggregate call: the SQLite aggregate expression and its Trino type.
pub type AggregateLowering = for<'a, 'b> fn(
    &'a mut Analyzer<'b>,
    &AggregateCall<'_>,
) -> Result<Option<(String, TrinoType)>, TrinoError>;

pub struct AggregateCall<'c> {
    pub name: &'c str,
    pub args: &'c [Typed],
    /// `count(*)`.
    pub star: bool,
    pub distinct: bool,
    /// `ORDER BY` inside the call (or listagg's WITHIN GROUP), already as SQLite text
    /// (` ORDER BY …`), or empty.
    pub order_by: &'c str,
    /// listagg's `ON OVERFLOW` clause.
    pub listagg_overflow: Option<&'c sqlparser::ast::ListAggOnOverflow>,
}

pub enum Lower {
    /// A SQLite expression over the arguments: `{0}`, `{1}`… are the (coerced) arguments,
    /// `{*}` all of them joined with ", ". The type is the matched signature's.
    Template(&'static str),
    Scalar(ScalarLowering),
    Aggregate(AggregateLowering),
    /// A window-only function, lowered in window.rs (the registry only names it).
    Window,
}

/// How a call's arguments are checked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Typing {
    /// Matched against the signatures (generic types bound, Trino's implicit coercions
    /// applied) before lowering; the lowering sees the coerced arguments and the return type.
    Resolved,
    /// The lowering checks the arguments itself (types whose rules a signature can't state,
    /// such as decimal precision arithmetic); the signatures document it.
    ByLowering,
}

pub struct FunctionDef {
    pub name: &'static str,
    pub kind: Kind,
    /// `(argument types, return type)` as Trino writes them: `("array(T), T", "bigint")`.
    pub signatures: &'static [(&'static str, &'static str)],
    pub typing: Typing,
    pub lower: Lower,
    pub description: &'static str,
    /// `now()` and `random()` are not.
    pub deterministic: bool,
}

impl FunctionDef {
    /// The parsed signatures, parsed once for the process rather than on every call; the
    /// tables are checked by a unit test, so a typo there can't reach a user.
    pub fn parsed_signatures(&self) -> &'static [Signature] {
        SIGNATURES.get(self.name).map_or(&[], Vec::as_slice)
    }
}

static SIGNATURES: LazyLock<HashMap<&'static str, Vec<Signature>>> = LazyLock::new(|| {
    families()
        .map(|f| {
            let parsed = f
                .signatures
                .iter()
                .filter_map(|(args, returns)| Signature::parse(args, returns).ok())
                .collect();
            (f.name, parsed)
        })
        .collect()
});

/// A deterministic aggregate, typed by its lowering.
pub const fn aggregate(
    name: &'static str,
    signatures: &'static [(&'static str, &'static str)],
    lower: AggregateLowering,
    description: &'static str,
) -> FunctionDef {
    FunctionDef {
        name,
        kind: Kind::Aggregate,
        signatures,
        typing: Typing::ByLowering,
        lower: Lower::Aggregate(lower),
        description,
        deterministic: true,
    }
}

/// Shorthand for the tables: a deterministic scalar.
pub const fn scalar(
    name: &'static str,
    signatures: &'static [(&'static str, &'static str)],
    typing: Typing,
    lower: Lower,
    description: &'static str,
) -> FunctionDef {
    FunctionDef {
        name,
        kind: Kind::Scalar,
        signatures,
        typing,
        lower,
        description,
        deterministic: true,
    }
}

fn families() -> impl Iterator<Item = &'static FunctionDef> {
    [
        super::math::FUNCTIONS,
        super::bitwise::FUNCTIONS,
        super::string::FUNCTIONS,
        super::date::FUNCTIONS,
        super::datetime_format::FUNCTIONS,
        super::time_zone::FUNCTIONS,
        super::conditional::FUNCTIONS,
        super::format::FUNCTIONS,
        super::aggregate::FUNCTIONS,
        super::aggregate_extended::FUNCTIONS,
        super::window::FUNCTIONS,
        super::array_lambda::FUNCTIONS,
        super::regexp::FUNCTIONS,
        super::binary::FUNCTIONS,
        super::url::FUNCTIONS,
        super::session_info::FUNCTIONS,
        super::string_metrics::FUNCTIONS,
        super::map::FUNCTIONS,
        super::array::FUNCTIONS,
        super::json::FUNCTIONS,
    ]
    .into_iter()
    .flatten()
}

static REGISTRY: LazyLock<HashMap<&'static str, &'static FunctionDef>> =
    LazyLock::new(|| families().map(|f| (f.name, f)).collect());

pub fn lookup(name: &str) -> Option<&'static FunctionDef> {
    REGISTRY.get(name).copied()
}

/// All entries, by name (`SHOW FUNCTIONS` order).
pub fn all() -> Vec<&'static FunctionDef> {
    let mut all: Vec<_> = REGISTRY.values().copied().collect();
    all.sort_by_key(|f| f.name);
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_named_once_and_its_signatures_parse() {
        let mut seen = std::collections::HashSet::new();
        for f in families() {
            assert!(seen.insert(f.name), "{} is registered twice", f.name);
            assert!(!f.signatures.is_empty(), "{} has no signature", f.name);
            assert!(!f.description.is_empty(), "{} has no description", f.name);
            for (args, returns) in f.signatures {
                if let Err(e) = Signature::parse(args, returns) {
                    panic!("{}({args}) -> {returns}: {e}", f.name);
                }
            }
            if let Lower::Template(_) = f.lower {
                assert!(
                    f.typing == Typing::Resolved,
                    "{}: a template needs a signature's type",
                    f.name
                );
            }
        }
    }
}
