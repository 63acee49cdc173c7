//! String distances and checks (Trino docs functions/string), run by
//! querymesh-functions/src/string/sqlite/metrics.rs.

use super::sqlite::metrics::{QM_HAMMING, QM_LEVENSHTEIN, QM_LUHN_CHECK};
use crate::entry::{FunctionDef, Typing, calls, scalar};

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "levenshtein_distance",
        &[("varchar(x), varchar(y)", "bigint")],
        Typing::Resolved,
        calls!(QM_LEVENSHTEIN),
        "Computes Levenshtein distance between two strings",
    ),
    scalar(
        "hamming_distance",
        &[("varchar(x), varchar(y)", "bigint")],
        Typing::Resolved,
        calls!(QM_HAMMING),
        "Computes Hamming distance between two strings",
    ),
    scalar(
        "luhn_check",
        &[("varchar", "boolean")],
        Typing::Resolved,
        calls!(QM_LUHN_CHECK),
        "Checks that a string of digits is valid according to the Luhn algorithm",
    ),
];
