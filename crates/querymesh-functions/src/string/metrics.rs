//! String distances and checks (Trino docs functions/string), run by
//! querymesh-functions/src/string/sqlite/metrics.rs.

use crate::entry::{FunctionDef, Lower, Typing, scalar};

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "levenshtein_distance",
        &[("varchar(x), varchar(y)", "bigint")],
        Typing::Resolved,
        Lower::Template("qm_levenshtein({0}, {1})"),
        "Computes Levenshtein distance between two strings",
    ),
    scalar(
        "hamming_distance",
        &[("varchar(x), varchar(y)", "bigint")],
        Typing::Resolved,
        Lower::Template("qm_hamming({0}, {1})"),
        "Computes Hamming distance between two strings",
    ),
    scalar(
        "luhn_check",
        &[("varchar", "boolean")],
        Typing::Resolved,
        Lower::Template("qm_luhn_check({0})"),
        "Checks that a string of digits is valid according to the Luhn algorithm",
    ),
];
