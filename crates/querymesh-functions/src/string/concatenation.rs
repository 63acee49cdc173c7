//! `concat(varchar...)` and `||` over strings, typed as Trino 476 types them (docs
//! functions/string "concat", functions/conversion "Concatenation operator"):
//!
//! - varchar operands give unbounded `varchar` (ConcatFunction's signature is
//!   `concat(varchar) -> varchar`, whatever the operands' lengths);
//! - two operands of which one is a char(x) give char(x + y), the left padded to x
//!   (CharConcatFunction);
//! - a string and a NULL literal bind `concat(E, array(E))` (or its mirror): a NULL
//!   `array(varchar(n))`; two NULLs, or a char with a NULL, are ambiguous in Trino.

use querymesh_values::error::{ErrorName, TrinoError, error_at};
use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use querymesh_values::error::Position;

/// The concatenation of string (or NULL literal) operands; `None` when one is not a string.
pub fn string_concat(args: &[&Typed], at: Option<Position>) -> Result<Option<Typed>, TrinoError> {
    let stringy = |t: &Typed| t.ty.is_string() || t.ty == TrinoType::Unknown;
    if args.len() < 2 || !args.iter().all(|a| stringy(a)) {
        return Ok(None);
    }
    // A NULL literal beside a string binds an array overload or is ambiguous; the callers
    // resolve that first (array/concat_overloads.rs).
    if let [l, r] = args
        && let Some(t) = char_concat(l, r)
    {
        return Ok(Some(t));
    }
    if args.iter().any(|a| matches!(a.ty, TrinoType::Char(_))) {
        // concat(char(x), char(y)) takes two operands only.
        let types: Vec<String> = args.iter().map(|a| a.ty.to_string()).collect();
        return Err(error_at(
            ErrorName::FunctionNotFound,
            at,
            format!(
                "Unexpected parameters ({}) for function concat. Expected: concat(E, array(E)) E, \
                 concat(array(E)) E, concat(array(E), E) E, concat(char(x), char(y)), \
                 concat(varbinary), concat(varchar)",
                types.join(", ")
            ),
        ));
    }
    let joined = args
        .iter()
        .map(|a| a.sql.clone())
        .reduce(|l, r| SqlExpr::binary(l, BinaryOp::Concat, r));
    Ok(joined.map(|sql| Typed::new(sql, TrinoType::Varchar(None))))
}

/// char(x) || char(y) (a varchar(y) coerced to char(y)) is char(x + y): the left operand
/// keeps its padding, the right one is padded when the value is read.
fn char_concat(l: &Typed, r: &Typed) -> Option<Typed> {
    let length = |t: &TrinoType| match t {
        TrinoType::Char(n) => Some(u64::from(*n)),
        TrinoType::Varchar(Some(n)) => Some(u64::from(*n)),
        _ => None,
    };
    if !matches!(l.ty, TrinoType::Char(_)) && !matches!(r.ty, TrinoType::Char(_)) {
        return None;
    }
    let (x, y) = (length(&l.ty)?, length(&r.ty)?);
    let total = u32::try_from(x + y).ok()?;
    let padded = super::padded_char(l.sql.clone(), u32::try_from(x).ok()?);
    Some(Typed::new(
        SqlExpr::binary(padded, BinaryOp::Concat, r.sql.clone()),
        TrinoType::Char(total),
    ))
}
