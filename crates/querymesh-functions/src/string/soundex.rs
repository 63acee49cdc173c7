//! `soundex(string)` (Trino docs functions/string; StringFunctions.soundex, which calls Apache
//! commons-codec's `Soundex.US_ENGLISH`), run by querymesh-functions/src/string/sqlite/soundex.rs.

use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use crate::Call;
use crate::context::LowerContext;
use crate::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};

pub const FUNCTIONS: &[FunctionDef] = &[scalar(
    "soundex",
    &[("varchar", "varchar(4)")],
    Typing::Resolved,
    Lower::Scalar(soundex),
    "Encodes a string into a Soundex value",
)];

/// `varchar(4)`, which the signature's pattern (any varchar) cannot say.
fn soundex(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [s] = c.args.as_slice() else {
        return Ok(None);
    };
    Ok(Some(Typed::new(
        format!("qm_soundex({})", s.sql),
        TrinoType::Varchar(Some(4)),
    )))
}
