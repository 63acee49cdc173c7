//! Array functions that take a lambda (Trino docs functions/lambda, functions/array):
//! transform, filter, reduce, any_match / all_match / none_match and zip_with.
//!
//! Each lowers to a correlated subquery over the array's elements (`json_each`, in index
//! order) whose relation is the lambda's alias, so the body's parameter columns (`p0`, `p1`…)
//! are the elements in top-level form — no SQL is assembled at run time. `reduce` folds in a
//! recursive CTE, one row per element.

use querymesh_values::element::{from_element, to_element};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use crate::Call;
use crate::context::LowerContext;
use crate::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};
use crate::lambda::Lambda;

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "transform",
        &[("array(T), function(T, U)", "array(U)")],
        Typing::Resolved,
        Lower::Scalar(transform),
        "Apply lambda to each element of the array",
    ),
    scalar(
        "filter",
        &[("array(T), function(T, boolean)", "array(T)")],
        Typing::Resolved,
        Lower::Scalar(filter),
        "Return array containing elements that match the given predicate",
    ),
    scalar(
        "reduce",
        &[("array(T), S, function(S, T, S), function(S, R)", "R")],
        Typing::Resolved,
        Lower::Scalar(reduce),
        "Reduce elements of the array into a single value",
    ),
    scalar(
        "any_match",
        &[("array(T), function(T, boolean)", "boolean")],
        Typing::Resolved,
        Lower::Scalar(matching),
        "Returns true if the array contains one or more elements that match the given predicate",
    ),
    scalar(
        "all_match",
        &[("array(T), function(T, boolean)", "boolean")],
        Typing::Resolved,
        Lower::Scalar(matching),
        "Returns true if all elements of the array match the given predicate",
    ),
    scalar(
        "none_match",
        &[("array(T), function(T, boolean)", "boolean")],
        Typing::Resolved,
        Lower::Scalar(matching),
        "Returns true if no element of the array matches the given predicate",
    ),
    scalar(
        "zip_with",
        &[("array(T), array(U), function(T, U, R)", "array(R)")],
        Typing::Resolved,
        Lower::Scalar(zip_with),
        "Merge two arrays, element-wise, into a single array using the lambda function",
    ),
];

fn element_type(t: &TrinoType) -> TrinoType {
    match t {
        TrinoType::Array(e) => (**e).clone(),
        _ => TrinoType::Unknown,
    }
}

/// The relation `lambda`'s body reads: one row per element of `array`, in order, the element
/// as column `p0`; `extra` adds more columns (`, <sql> AS p1`) over the same `json_each` row `e`.
fn elements(array: &Typed, lambda: &Lambda, where_body: Option<&str>) -> String {
    let element = from_element("e.value", &element_type(&array.ty));
    let rows = format!(
        "(SELECT {element} AS p0 FROM json_each({}) AS e ORDER BY e.key) AS \"{}\"",
        array.sql, lambda.alias
    );
    match where_body {
        Some(predicate) => format!("{rows} WHERE {predicate}"),
        None => rows,
    }
}

/// NULL for a NULL array, else `body`.
fn unless_null(arrays: &[&Typed], body: String) -> String {
    let nulls: Vec<String> = arrays
        .iter()
        .map(|a| format!("{} IS NULL", a.sql))
        .collect();
    format!("CASE WHEN {} THEN NULL ELSE {body} END", nulls.join(" OR "))
}

/// `transform(ARRAY[5, 6], x -> x + 1)` = `[6, 7]`.
fn transform(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let ([array], [lambda]) = (c.args.as_slice(), c.lambdas.as_slice()) else {
        return Ok(None);
    };
    let body = format!(
        "(SELECT coalesce(json_group_array({}), '[]') FROM {})",
        to_element(&lambda.body),
        elements(array, lambda, None)
    );
    Ok(Some(Typed::new(unless_null(&[array], body), c.returns())))
}

/// `filter(ARRAY[5, -6, NULL, 7], x -> x > 0)` = `[5, 7]`: an element whose predicate is NULL
/// is left out, as one whose predicate is false.
fn filter(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let ([array], [lambda]) = (c.args.as_slice(), c.lambdas.as_slice()) else {
        return Ok(None);
    };
    let element = Typed::new(lambda.param(0), element_type(&array.ty));
    let body = format!(
        "(SELECT coalesce(json_group_array({}), '[]') FROM {})",
        to_element(&element),
        elements(array, lambda, Some(&lambda.body.sql.to_string()))
    );
    Ok(Some(Typed::new(unless_null(&[array], body), c.returns())))
}

/// `reduce(ARRAY[5, 20, 50], 0, (s, x) -> s + x, s -> s)` = 75: a recursive CTE whose row `i`
/// holds the state after `i` elements (`p0`) and element `i` (`p1`); the output lambda reads
/// the last state.
fn reduce(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let ([array, initial], [step, output]) = (c.args.as_slice(), c.lambdas.as_slice()) else {
        return Ok(None);
    };
    let (fold, a) = (&step.alias, &array.sql);
    let element_ty = element_type(&array.ty);
    let element_at = |index: &str| {
        from_element(
            format!("json_extract({a}, '$[' || ({index}) || ']')"),
            &element_ty,
        )
    };
    let body = format!(
        "(WITH RECURSIVE \"{fold}\"(i, p0, p1) AS (\
         SELECT 0, {initial}, {first} \
         UNION ALL SELECT \"{fold}\".i + 1, {next_state}, {next} FROM \"{fold}\" \
         WHERE \"{fold}\".i < json_array_length({a})) \
         SELECT {result} FROM (SELECT p0 FROM \"{fold}\" WHERE i = json_array_length({a})) AS \"{out}\")",
        initial = initial.sql,
        first = element_at("0"),
        next_state = step.body.sql,
        next = element_at(&format!("\"{fold}\".i + 1")),
        result = output.body.sql,
        out = output.alias,
    );
    Ok(Some(Typed::new(unless_null(&[array], body), c.returns())))
}

/// any_match / all_match / none_match in Trino's three-valued logic: a decisive element
/// (true for any/none, false for all) decides; else a NULL predicate makes the answer NULL;
/// an empty array is false for any_match and true for the others.
fn matching(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let ([array], [lambda]) = (c.args.as_slice(), c.lambdas.as_slice()) else {
        return Ok(None);
    };
    let b = &lambda.body.sql;
    let (decisive, decided, otherwise) = match c.name.as_str() {
        "any_match" => (format!("({b})"), 1, 0),
        "all_match" => (format!("NOT ({b})"), 0, 1),
        _ => (format!("({b})"), 0, 1),
    };
    let body = format!(
        "(SELECT CASE WHEN sum(CASE WHEN {decisive} THEN 1 ELSE 0 END) > 0 THEN {decided} \
         WHEN count(*) > count({b}) THEN NULL ELSE {otherwise} END FROM {})",
        elements(array, lambda, None)
    );
    Ok(Some(Typed::new(
        unless_null(&[array], body),
        TrinoType::Boolean,
    )))
}

/// `zip_with(ARRAY[1, 3, 5], ARRAY['a', 'b', 'c'], (x, y) -> (y, x))`: pairs by index, the
/// shorter array padded with NULLs.
fn zip_with(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let ([left, right], [lambda]) = (c.args.as_slice(), c.lambdas.as_slice()) else {
        return Ok(None);
    };
    let at = |array: &Typed| {
        from_element(
            format!("json_extract({}, '$[' || i.key || ']')", array.sql),
            &element_type(&array.ty),
        )
    };
    let longer = format!(
        "CASE WHEN json_array_length({0}) >= json_array_length({1}) THEN {0} ELSE {1} END",
        left.sql, right.sql
    );
    let body = format!(
        "(SELECT coalesce(json_group_array({}), '[]') FROM \
         (SELECT {} AS p0, {} AS p1 FROM json_each({longer}) AS i ORDER BY i.key) AS \"{}\")",
        to_element(&lambda.body),
        at(left),
        at(right),
        lambda.alias
    );
    Ok(Some(Typed::new(
        unless_null(&[left, right], body),
        c.returns(),
    )))
}
