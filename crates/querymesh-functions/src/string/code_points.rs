//! Strings as Unicode code points (Trino docs functions/string; StringFunctions.chr,
//! codepoint, translate), run by querymesh-functions/src/string/sqlite/code_points.rs.

use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::sqlite::code_points::{QM_CHR, QM_CODEPOINT, QM_TRANSLATE};
use crate::Call;
use crate::context::LowerContext;
use crate::entry::{FunctionDef, Lower, LowerResult, Typing, calls, scalar};

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "chr",
        &[("bigint", "varchar(1)")],
        Typing::Resolved,
        calls!(QM_CHR),
        "Convert Unicode code point to a string",
    ),
    scalar(
        "codepoint",
        &[("varchar(1)", "integer")],
        Typing::ByLowering,
        Lower::Scalar(codepoint),
        "Returns Unicode code point of a single character string",
    ),
    scalar(
        "translate",
        &[("varchar(x), varchar(y), varchar(z)", "varchar")],
        Typing::Resolved,
        calls!(QM_TRANSLATE),
        "Translate characters from the source string based on original and translations strings",
    ),
];

/// Only what coerces to `varchar(1)` fits: a varchar or char of at most one character, or
/// NULL; `codepoint('ab')` is "Unexpected parameters (varchar(2))", as in Trino.
fn codepoint(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [s] = c.args.as_slice() else {
        return Ok(None);
    };
    let fits = match &s.ty {
        TrinoType::Varchar(Some(n)) | TrinoType::Char(n) => *n <= 1,
        TrinoType::Unknown => true,
        _ => false,
    };
    Ok(fits.then(|| Typed::new(QM_CODEPOINT.call([s.sql.clone()]), TrinoType::Integer)))
}
