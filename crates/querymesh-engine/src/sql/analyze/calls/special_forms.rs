//! The checks Trino makes on its special forms written as calls — `coalesce`, `if`, `nullif`
//! — before any function is looked up: their argument counts are its parser's (AstBuilder,
//! SYNTAX_ERROR) and their typing rules its ExpressionAnalyzer's (TYPE_MISMATCH), each with
//! its own message and place; the stand-in's generic "Unexpected parameters" is not Trino's
//! answer for them (TestAnalyzer, AbstractTestQueries and the conditional expressions' docs,
//! functions/conditional.md).

use querymesh_values::coerce::super_type;
use querymesh_values::typed::Typed;

use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::types::TrinoType;

/// Refuses a `coalesce`, `if` or `nullif` call Trino refuses; `places` are the arguments'.
pub(super) fn check(
    name: &str,
    args: &[Typed],
    places: &[Option<Position>],
    at: Option<Position>,
) -> Result<(), TrinoError> {
    match name {
        "coalesce" => coalesce(args, places, at),
        "if" => if_form(args, places, at),
        "nullif" => nullif(args, at),
        _ => Ok(()),
    }
}

/// `coalesce(1, 'a')`: at the first operand without a common type with those before it.
fn coalesce(
    args: &[Typed],
    places: &[Option<Position>],
    at: Option<Position>,
) -> Result<(), TrinoError> {
    if args.len() < 2 {
        return Err(error_at(
            ErrorName::SyntaxError,
            at,
            "The 'coalesce' function must have at least two arguments",
        ));
    }
    let mut common = args[0].ty.clone();
    for (i, a) in args.iter().enumerate().skip(1) {
        match super_type(&common, &a.ty) {
            Some(t) => common = t,
            None => {
                let mut distinct: Vec<String> = Vec::new();
                for t in args.iter().map(|a| a.ty.to_string()) {
                    if !distinct.contains(&t) {
                        distinct.push(t);
                    }
                }
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    places.get(i).copied().flatten().or(at),
                    format!(
                        "All COALESCE operands must be the same type or coercible to a common \
                         type. Cannot find common type between {common} and {}, all types \
                         (without duplicates): [{}]",
                        a.ty,
                        distinct.join(", ")
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// `if(condition, then [, else])`: a boolean condition, and one type for both results.
fn if_form(
    args: &[Typed],
    places: &[Option<Position>],
    at: Option<Position>,
) -> Result<(), TrinoError> {
    let [condition, results @ ..] = args else {
        return Err(if_arity(at));
    };
    if !(1..=2).contains(&results.len()) {
        return Err(if_arity(at));
    }
    if !matches!(condition.ty, TrinoType::Boolean | TrinoType::Unknown) {
        return Err(error_at(
            ErrorName::TypeMismatch,
            places.first().copied().flatten().or(at),
            format!(
                "IF condition must evaluate to a boolean (actual: {})",
                condition.ty
            ),
        ));
    }
    if let [then, otherwise] = results
        && super_type(&then.ty, &otherwise.ty).is_none()
    {
        return Err(error_at(
            ErrorName::TypeMismatch,
            at,
            format!(
                "Result types for IF must be the same: {} vs {}",
                then.ty, otherwise.ty
            ),
        ));
    }
    Ok(())
}

fn if_arity(at: Option<Position>) -> TrinoError {
    error_at(
        ErrorName::SyntaxError,
        at,
        "Invalid number of arguments for 'if' function",
    )
}

/// `nullif(a, b)` compares `a` and `b` in their common type, so they must have one.
fn nullif(args: &[Typed], at: Option<Position>) -> Result<(), TrinoError> {
    match args {
        [_, _] => Ok(()),
        _ => Err(error_at(
            ErrorName::SyntaxError,
            at,
            "Invalid number of arguments for 'nullif' function",
        )),
    }?;
    match args {
        [a, b] if super_type(&a.ty, &b.ty).is_none() => Err(error_at(
            ErrorName::TypeMismatch,
            at,
            format!("Types are not comparable with NULLIF: {} vs {}", a.ty, b.ty),
        )),
        _ => Ok(()),
    }
}
