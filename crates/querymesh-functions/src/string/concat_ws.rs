//! `concat_ws(separator, string…)` and `concat_ws(separator, array(varchar))` (Trino docs
//! functions/string; ConcatWsFunction), run by `qm_concat_ws` / `qm_concat_ws_array`
//! (querymesh-functions/src/string/sqlite/parts.rs).

use querymesh_values::error::{ErrorName, error_at};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::sqlite::parts::{QM_CONCAT_WS, QM_CONCAT_WS_ARRAY};
use crate::context::LowerContext;
use crate::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};
use crate::{Call, is_string_or_null};

/// ConcatWsFunction.MAX_INPUT_VALUES.
const MAX_VALUES: usize = 254;

pub const FUNCTIONS: &[FunctionDef] = &[scalar(
    "concat_ws",
    &[
        ("varchar, varchar...", "varchar"),
        ("varchar, array(varchar)", "varchar"),
    ],
    Typing::ByLowering,
    Lower::Scalar(concat_ws),
    "Concatenates elements using separator",
)];

/// The values after the separator, NULLs skipped; a NULL separator is NULL.
fn concat_ws(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some((separator, values)) = c.args.split_first() else {
        return Ok(None);
    };
    if !is_string_or_null(&separator.ty) {
        return Ok(None);
    }
    if let [array] = values
        && matches!(&array.ty, TrinoType::Array(e) if is_string_or_null(e))
    {
        return Ok(Some(Typed::new(
            QM_CONCAT_WS_ARRAY.call([separator.sql.clone(), array.sql.clone()]),
            TrinoType::Varchar(None),
        )));
    }
    if !values.iter().all(|v| is_string_or_null(&v.ty)) {
        return Ok(None);
    }
    // Trino raises both while binding the function, with no place in the text.
    if values.is_empty() {
        return Err(error_at(
            ErrorName::InvalidFunctionArgument,
            None,
            "There must be two or more arguments",
        ));
    }
    if values.len() > MAX_VALUES {
        return Err(error_at(
            ErrorName::NotSupported,
            None,
            "Too many arguments for string concatenation",
        ));
    }
    Ok(Some(Typed::new(
        QM_CONCAT_WS.call(c.arg_exprs()),
        TrinoType::Varchar(None),
    )))
}
