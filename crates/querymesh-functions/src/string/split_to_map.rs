//! `split_to_map` and `split_to_multimap` (Trino docs functions/string; SplitToMapFunction,
//! SplitToMultimapFunction), run by querymesh-functions/src/string/sqlite/split_to_map.rs.

use super::sqlite::split_to_map::{QM_SPLIT_TO_MAP, QM_SPLIT_TO_MULTIMAP};
use crate::entry::{FunctionDef, Typing, calls, scalar};

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "split_to_map",
        &[("varchar, varchar, varchar", "map(varchar, varchar)")],
        Typing::Resolved,
        calls!(QM_SPLIT_TO_MAP),
        "Creates a map using entryDelimiter and keyValueDelimiter",
    ),
    scalar(
        "split_to_multimap",
        &[("varchar, varchar, varchar", "map(varchar, array(varchar))")],
        Typing::Resolved,
        calls!(QM_SPLIT_TO_MULTIMAP),
        "Creates a multimap by splitting a string into key/value pairs",
    ),
];
