//! `soundex(string)` (Trino docs functions/string; StringFunctions.soundex, which calls Apache
//! commons-codec's `Soundex.US_ENGLISH`), run by querymesh-functions/src/string/sqlite/soundex.rs.

use crate::entry::{FunctionDef, Lower, Typing, scalar};

pub const FUNCTIONS: &[FunctionDef] = &[scalar(
    "soundex",
    &[("varchar", "varchar(4)")],
    Typing::Resolved,
    Lower::Template("qm_soundex({0})"),
    "Encodes a string into a Soundex value",
)];
