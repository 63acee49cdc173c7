//! Array functions that take a lambda (Trino docs functions/lambda, functions/array):
//! transform, filter, reduce, any_match / all_match / none_match and zip_with.
//!
//! Each lowers to a correlated subquery over the array's elements (`json_each`, in index
//! order) whose relation is the lambda's alias, so the body's parameter columns (`p0`, `p1`…)
//! are the elements in top-level form — no SQL is assembled at run time. `reduce` folds in a
//! recursive CTE, one row per element.

use querymesh_values::element::{from_element, to_element};
use querymesh_values::sqlite_expr::builtin::{
    COALESCE, COUNT, JSON_ARRAY_LENGTH, JSON_EXTRACT, SUM,
};
use querymesh_values::sqlite_expr::{
    BinaryOp, CommonTable, CompoundOp, FromItem, Query, Select, SqlExpr,
};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::build::any_of;
use super::{derived, group_array, json_each, select_named};
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
/// as column `p0`.
fn elements(array: &Typed, lambda: &Lambda) -> FromItem {
    let element = from_element(
        SqlExpr::column(Some("e"), "value"),
        &element_type(&array.ty),
    );
    let rows = select_named(
        vec![(element, "p0")],
        vec![json_each(array.sql.clone(), "e")],
    )
    .order_by(vec![(SqlExpr::column(Some("e"), "key"), false)]);
    derived(rows, Some(&lambda.alias))
}

/// `coalesce(json_group_array(element), '[]')`: the rows' elements as a JSON array, `[]` over
/// no rows.
fn gathered(element: SqlExpr) -> SqlExpr {
    COALESCE.call([group_array(element), SqlExpr::text("[]")])
}

/// NULL for a NULL array, else `body`.
fn unless_null(arrays: &[&Typed], body: SqlExpr) -> SqlExpr {
    let nulls = arrays.iter().map(|a| SqlExpr::is_null(a.sql.clone()));
    match any_of(nulls.collect()) {
        Some(null) => SqlExpr::iff(null, SqlExpr::Null, body),
        None => body,
    }
}

/// `json_extract(array, '$[' || index || ']')`: the element at a 0-based index, in element form.
fn element_at(array: &SqlExpr, index: SqlExpr) -> SqlExpr {
    let path = SqlExpr::binary(
        SqlExpr::binary(SqlExpr::text("$["), BinaryOp::Concat, index),
        BinaryOp::Concat,
        SqlExpr::text("]"),
    );
    JSON_EXTRACT.call([array.clone(), path])
}

/// `transform(ARRAY[5, 6], x -> x + 1)` = `[6, 7]`.
fn transform(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let ([array], [lambda]) = (c.args.as_slice(), c.lambdas.as_slice()) else {
        return Ok(None);
    };
    let body = Select::new(
        vec![gathered(to_element(&lambda.body))],
        vec![elements(array, lambda)],
    )
    .scalar();
    Ok(Some(Typed::new(unless_null(&[array], body), c.returns())))
}

/// `filter(ARRAY[5, -6, NULL, 7], x -> x > 0)` = `[5, 7]`: an element whose predicate is NULL
/// is left out, as one whose predicate is false.
fn filter(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let ([array], [lambda]) = (c.args.as_slice(), c.lambdas.as_slice()) else {
        return Ok(None);
    };
    let element = Typed::new(lambda.param(0), element_type(&array.ty));
    let body = Select::new(
        vec![gathered(to_element(&element))],
        vec![elements(array, lambda)],
    )
    .filter(lambda.body.sql.clone())
    .scalar();
    Ok(Some(Typed::new(unless_null(&[array], body), c.returns())))
}

/// `reduce(ARRAY[5, 20, 50], 0, (s, x) -> s + x, s -> s)` = 75: a recursive CTE whose row `i`
/// holds the state after `i` elements (`p0`) and element `i` (`p1`); the output lambda reads
/// the last state, read from the derived table that holds the CTE.
fn reduce(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let ([array, initial], [step, output]) = (c.args.as_slice(), c.lambdas.as_slice()) else {
        return Ok(None);
    };
    let fold = &step.alias;
    let element_ty = element_type(&array.ty);
    let element = |index: SqlExpr| from_element(element_at(&array.sql, index), &element_ty);
    let i = SqlExpr::column(Some(fold), "i");
    let next_i = SqlExpr::binary(i.clone(), BinaryOp::Add, SqlExpr::Integer(1));
    let length = JSON_ARRAY_LENGTH.call([array.sql.clone()]);
    let last = select_named(vec![(SqlExpr::column(None, "p0"), "p0")], vec![table(fold)]).filter(
        SqlExpr::binary(SqlExpr::column(None, "i"), BinaryOp::Equal, length.clone()),
    );
    let first = Select::new(
        vec![
            SqlExpr::Integer(0),
            initial.sql.clone(),
            element(SqlExpr::Integer(0)),
        ],
        vec![],
    );
    let next = Select::new(
        vec![next_i.clone(), step.body.sql.clone(), element(next_i)],
        vec![table(fold)],
    )
    .filter(SqlExpr::binary(i, BinaryOp::Less, length));
    let folded = Query::With {
        recursive: true,
        ctes: vec![CommonTable {
            name: fold.clone(),
            columns: ["i", "p0", "p1"].map(String::from).to_vec(),
            materialized: false,
            query: Query::Compound {
                op: CompoundOp::UnionAll,
                terms: vec![first, next],
                limit: None,
                offset: None,
            },
        }],
        body: Box::new(last.into()),
    };
    let body = Select::new(
        vec![output.body.sql.clone()],
        vec![FromItem::query(folded, Some(output.alias.clone()))],
    )
    .scalar();
    Ok(Some(Typed::new(unless_null(&[array], body), c.returns())))
}

/// The CTE `name` in a FROM list.
fn table(name: &str) -> FromItem {
    FromItem::Table {
        name: name.to_string(),
        alias: None,
    }
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
        "any_match" => (b.clone(), 1, 0),
        "all_match" => (SqlExpr::negated(b.clone()), 0, 1),
        _ => (b.clone(), 0, 1),
    };
    let decisive_count = SUM.call([SqlExpr::iff(
        decisive,
        SqlExpr::Integer(1),
        SqlExpr::Integer(0),
    )]);
    let answer = SqlExpr::case_when(
        vec![
            (
                SqlExpr::binary(decisive_count, BinaryOp::Greater, SqlExpr::Integer(0)),
                SqlExpr::Integer(decided),
            ),
            (
                SqlExpr::binary(COUNT.call([]), BinaryOp::Greater, COUNT.call([b.clone()])),
                SqlExpr::Null,
            ),
        ],
        Some(SqlExpr::Integer(otherwise)),
    );
    let body = Select::new(vec![answer], vec![elements(array, lambda)]).scalar();
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
    let index = SqlExpr::column(Some("i"), "key");
    let at = |array: &Typed| {
        from_element(
            element_at(&array.sql, index.clone()),
            &element_type(&array.ty),
        )
    };
    let longer = SqlExpr::iff(
        SqlExpr::binary(
            JSON_ARRAY_LENGTH.call([left.sql.clone()]),
            BinaryOp::GreaterOrEqual,
            JSON_ARRAY_LENGTH.call([right.sql.clone()]),
        ),
        left.sql.clone(),
        right.sql.clone(),
    );
    let pairs = select_named(
        vec![(at(left), "p0"), (at(right), "p1")],
        vec![json_each(longer, "i")],
    )
    .order_by(vec![(index.clone(), false)]);
    let body = Select::new(
        vec![gathered(to_element(&lambda.body))],
        vec![derived(pairs, Some(&lambda.alias))],
    )
    .scalar();
    Ok(Some(Typed::new(
        unless_null(&[left, right], body),
        c.returns(),
    )))
}
