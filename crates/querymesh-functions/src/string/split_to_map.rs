//! `split_to_map` and `split_to_multimap` (Trino docs functions/string; SplitToMapFunction,
//! SplitToMultimapFunction), run by querymesh-functions/src/string/sqlite/split_to_map.rs.

use crate::entry::{FunctionDef, Lower, Typing, scalar};

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "split_to_map",
        &[("varchar, varchar, varchar", "map(varchar, varchar)")],
        Typing::Resolved,
        Lower::Template("qm_split_to_map({0}, {1}, {2})"),
        "Creates a map using entryDelimiter and keyValueDelimiter",
    ),
    scalar(
        "split_to_multimap",
        &[("varchar, varchar, varchar", "map(varchar, array(varchar))")],
        Typing::Resolved,
        Lower::Template("qm_split_to_multimap({0}, {1}, {2})"),
        "Creates a multimap by splitting a string into key/value pairs",
    ),
];
