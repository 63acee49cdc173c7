//! `soundex(string)` (Trino docs functions/string; StringFunctions.soundex, which calls Apache
//! commons-codec's `Soundex.US_ENGLISH`), run by querymesh-functions/src/string/sqlite/soundex.rs.

use super::sqlite::soundex::QM_SOUNDEX;
use crate::entry::{FunctionDef, Typing, calls, scalar};

pub const FUNCTIONS: &[FunctionDef] = &[scalar(
    "soundex",
    &[("varchar", "varchar(4)")],
    Typing::Resolved,
    calls!(QM_SOUNDEX),
    "Encodes a string into a Soundex value",
)];
