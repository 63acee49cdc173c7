//! Conditional expressions written as calls — `if`, `coalesce`, `nullif`, `try` (special forms in
//! Trino, so `SHOW FUNCTIONS` leaves them out) — and greatest/least and typeof.

use querymesh_values::coerce::{coerced, comparable, super_type};
use querymesh_values::sqlite_text::sql_string;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing, scalar};
use crate::sqlite::TWINS;

const fn special_form(
    name: &'static str,
    signatures: &'static [(&'static str, &'static str)],
    description: &'static str,
) -> FunctionDef {
    FunctionDef {
        name,
        kind: Kind::SpecialForm,
        signatures,
        typing: Typing::ByLowering,
        lower: Lower::Scalar(conditional),
        description,
        deterministic: true,
    }
}

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "greatest",
        &[("E...", "E")],
        Typing::ByLowering,
        Lower::Scalar(extreme),
        "Get the largest of the given values",
    ),
    scalar(
        "least",
        &[("E...", "E")],
        Typing::ByLowering,
        Lower::Scalar(extreme),
        "Get the smallest of the given values",
    ),
    special_form(
        "coalesce",
        &[("T...", "T")],
        "Returns the first non-null value",
    ),
    special_form(
        "nullif",
        &[("T, T", "T")],
        "Null if the two values are equal, else the first",
    ),
    FunctionDef {
        name: "try",
        kind: Kind::SpecialForm,
        signatures: &[("T", "T")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(try_lower),
        description: "NULL where evaluating the argument raises a data error",
        deterministic: true,
    },
    special_form(
        "if",
        &[("boolean, T", "T"), ("boolean, T, T", "T")],
        "The second value if the condition is true, else the third",
    ),
    scalar(
        "typeof",
        &[("T", "varchar")],
        Typing::ByLowering,
        Lower::Scalar(type_of),
        "Textual representation of expression type",
    ),
];

/// greatest, least and coalesce: the arguments' common super type.
fn extreme(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some(first) = c.args.first() else {
        return Ok(None);
    };
    let mut ty = first.ty.clone();
    for a in &c.args[1..] {
        match super_type(&ty, &a.ty) {
            Some(t) => ty = t,
            None => return Ok(None),
        }
    }
    let f = match c.name.as_str() {
        "greatest" => "max",
        "least" => "min",
        _ => "coalesce",
    };
    // greatest(E) and least(E) take E:orderable: two maps are FUNCTION_NOT_FOUND in Trino 476.
    if f != "coalesce" && !crate::aggregate::orderable(&ty) {
        return Ok(None);
    }
    let mut parts: Vec<String> = c.args.iter().map(|a| coerced(a, &ty).to_string()).collect();
    if parts.len() == 1 {
        if f != "coalesce" {
            return Ok(Some(first.clone()));
        }
        parts.push("NULL".into());
    }
    // greatest and least of doubles pass over NaN unless every argument is NaN
    // (`greatest(1.5E0, nan())` is 1.5 in Trino 476); SQLite's max orders the text 'NaN'
    // above every number.
    if f != "coalesce"
        && c.args
            .iter()
            .zip(&parts)
            .any(|(a, sql)| crate::udf::double_ops::may_be_nan(&a.ty, sql))
    {
        return Ok(Some(Typed::new(
            format!(
                "qm_double_extreme({}, {})",
                i32::from(f == "max"),
                parts.join(", ")
            ),
            ty,
        )));
    }
    Ok(Some(Typed::new(format!("{f}({})", parts.join(", ")), ty)))
}

fn conditional(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    match (c.name.as_str(), c.args.as_slice()) {
        ("coalesce", _) => extreme(ctx, c),
        ("nullif", [a, b]) if comparable(&a.ty, &b.ty) => Ok(Some(nullif(a, b))),
        ("if", [cond, rest @ ..])
            if matches!(cond.ty, TrinoType::Boolean | TrinoType::Unknown)
                && (1..=2).contains(&rest.len()) =>
        {
            let otherwise = rest
                .get(1)
                .map_or_else(|| "NULL".to_string(), |e| e.sql.to_string());
            let ty = match rest.get(1) {
                Some(e) => match super_type(&rest[0].ty, &e.ty) {
                    Some(t) => t,
                    None => return Ok(None),
                },
                None => rest[0].ty.clone(),
            };
            Ok(Some(Typed::new(
                format!(
                    "(CASE WHEN {} THEN {} ELSE {otherwise} END)",
                    cond.sql, rest[0].sql
                ),
                ty,
            )))
        }
        _ => Ok(None),
    }
}

/// `nullif(a, b)`: NULL when `a` equals `b` compared in their common type (`nullif(1, 1.0)`
/// is NULL), else `a` as it is; NaN equals nothing, so `nullif(nan(), nan())` is NaN
/// (docs functions/conditional "nullif"; NullIfExpression).
fn nullif(a: &Typed, b: &Typed) -> Typed {
    let common = super_type(&a.ty, &b.ty).unwrap_or(TrinoType::Unknown);
    let floating = matches!(common, TrinoType::Double | TrinoType::Real);
    if a.ty == b.ty && !floating {
        return Typed::new(format!("nullif({}, {})", a.sql, b.sql), a.ty.clone());
    }
    let (l, r) = (coerced(a, &common), coerced(b, &common));
    let equal = if floating {
        format!("({l} = {r} AND {l} <> 'NaN')")
    } else {
        format!("({l} = {r})")
    };
    Typed::new(
        format!("(CASE WHEN {equal} THEN NULL ELSE {} END)", a.sql),
        a.ty.clone(),
    )
}

/// `try(x)`: `x` with its functions' `try` twins (querymesh-functions/src/udf/define.rs), which answer NULL for the
/// errors Trino's TryFunction catches.
fn try_lower(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a] = c.args.as_slice() else {
        return Ok(None);
    };
    // A walk over the tree; text not yet a tree gets the old pass over its calls.
    Ok(Some(Typed::new(a.sql.clone().in_try(&TWINS), a.ty.clone())))
}

fn type_of(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a] = c.args.as_slice() else {
        return Ok(None);
    };
    // The argument stays in the SQL so an aggregate inside still makes SQLite aggregate
    // (`typeof(avg(x))` is one row, as in Trino).
    let name = sql_string(&a.ty.display_name());
    Ok(Some(Typed::new(
        format!("CASE WHEN ({}) IS NULL THEN {name} ELSE {name} END", a.sql),
        TrinoType::Varchar(None),
    )))
}
