//! The function registry: every Trino function the stand-in has is one [`FunctionDef`] — its
//! name, kind, signatures, Trino's one-line description and how it lowers to SQLite. The
//! analyser resolves calls through it, `SHOW FUNCTIONS` lists it, and "Function 'x' not
//! registered" / "Unexpected parameters" are decided by it. Families live in their own files
//! (math.rs, string.rs, …), each with a `FUNCTIONS` table.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::entry::FunctionDef;
use super::signature::Signature;

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

fn families() -> impl Iterator<Item = &'static FunctionDef> {
    [
        super::math::FUNCTIONS,
        crate::math::statistics::FUNCTIONS,
        crate::math::vectors::FUNCTIONS,
        super::bitwise::FUNCTIONS,
        super::string::FUNCTIONS,
        crate::datetime::FUNCTIONS,
        crate::datetime::format::FUNCTIONS,
        crate::datetime::time_zone::FUNCTIONS,
        super::conditional::FUNCTIONS,
        crate::failure::FUNCTIONS,
        super::format::FUNCTIONS,
        super::aggregate::FUNCTIONS,
        crate::aggregate::extended::FUNCTIONS,
        crate::aggregate::statistics::FUNCTIONS,
        super::window::FUNCTIONS,
        crate::array::lambda::FUNCTIONS,
        super::regexp::FUNCTIONS,
        super::binary::FUNCTIONS,
        super::url::FUNCTIONS,
        super::session_info::FUNCTIONS,
        crate::string::metrics::FUNCTIONS,
        crate::string::code_points::FUNCTIONS,
        crate::string::concat_ws::FUNCTIONS,
        crate::string::soundex::FUNCTIONS,
        crate::string::split_to_map::FUNCTIONS,
        crate::string::unicode_text::FUNCTIONS,
        crate::format::units::FUNCTIONS,
        super::map::FUNCTIONS,
        super::array::FUNCTIONS,
        super::json::FUNCTIONS,
        crate::color::FUNCTIONS,
        crate::setdigest::FUNCTIONS,
        crate::bing_tiles::FUNCTIONS,
        crate::geospatial::FUNCTIONS,
        crate::sketch::hyperloglog::FUNCTIONS,
        crate::sketch::quantiles::FUNCTIONS,
        crate::sketch::approximate::FUNCTIONS,
    ]
    .into_iter()
    .flatten()
}

/// Keyed by the lowercased name: calls arrive lowercased, and a few of Trino's functions are
/// listed in mixed case (`ST_Point`).
static REGISTRY: LazyLock<HashMap<String, &'static FunctionDef>> = LazyLock::new(|| {
    families()
        .map(|f| (f.name.to_ascii_lowercase(), f))
        .collect()
});

pub fn lookup(name: &str) -> Option<&'static FunctionDef> {
    REGISTRY.get(name).copied()
}

/// All entries, by name (`SHOW FUNCTIONS` order).
pub fn all() -> Vec<&'static FunctionDef> {
    let mut all: Vec<_> = REGISTRY.values().copied().collect();
    // Trino lists them by name regardless of case (`spatial_partitions`, `ST_Area`, `tan`).
    all.sort_by_key(|f| f.name.to_ascii_lowercase());
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
        }
    }
}
