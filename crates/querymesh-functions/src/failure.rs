//! `fail(message)` and `fail(code, message)`: raise a user error from inside a query (Trino's
//! FailureFunction, a hidden function `SHOW FUNCTIONS` leaves out). Trino 476 answers
//! `SELECT fail('custom message')` with GENERIC_USER_ERROR "custom message" (no position),
//! `fail(3, 'm')` with USER_CANCELED (the StandardErrorCode numbered 3), `fail(NULL)` with
//! NULL of type unknown, and `try` does not catch it.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::{Constant, Typed};
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing};
use super::udf::QM_FAIL;

pub const FUNCTIONS: &[FunctionDef] = &[FunctionDef {
    name: "fail",
    kind: Kind::SpecialForm,
    signatures: &[("varchar", "unknown"), ("integer, varchar", "unknown")],
    typing: Typing::Resolved,
    lower: Lower::Scalar(fail),
    description: "Raises a user error with the given message",
    deterministic: false,
}];

/// The user errors `fail(code, …)` may name, by their StandardErrorCode number.
const NAMED_BY_CODE: &[ErrorName] = &[
    ErrorName::GenericUserError,
    ErrorName::SyntaxError,
    ErrorName::UserCanceled,
    ErrorName::NotSupported,
    ErrorName::FunctionNotFound,
    ErrorName::InvalidFunctionArgument,
    ErrorName::DivisionByZero,
    ErrorName::InvalidCastArgument,
    ErrorName::NumericValueOutOfRange,
    ErrorName::TypeMismatch,
];

fn error_for_code(code: Option<&Typed>) -> ErrorName {
    match code.and_then(|c| c.constant.as_ref()) {
        Some(Constant::Int(n)) => NAMED_BY_CODE
            .iter()
            .copied()
            .find(|e| i64::from(e.name_and_code().1) == *n)
            .unwrap_or(ErrorName::GenericUserError),
        _ => ErrorName::GenericUserError,
    }
}

fn fail(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let (code, message) = match c.args.as_slice() {
        [message] => (None, message),
        [code, message] => (Some(code), message),
        _ => return Ok(None),
    };
    let name = SqlExpr::text(error_for_code(code).name_and_code().0);
    let m = message.sql.clone();
    Ok(Some(Typed::new(
        SqlExpr::null_or(m.clone(), QM_FAIL.call([name, m])),
        TrinoType::Unknown,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_names_its_standard_error() {
        let code = |n: i64| Typed {
            sql: n.to_string().into(),
            ty: TrinoType::Integer,
            constant: Some(Constant::Int(n)),
            bound: None,
        };
        assert_eq!(error_for_code(None), ErrorName::GenericUserError);
        assert_eq!(error_for_code(Some(&code(3))), ErrorName::UserCanceled);
        assert_eq!(
            error_for_code(Some(&code(9999))),
            ErrorName::GenericUserError
        );
    }
}
