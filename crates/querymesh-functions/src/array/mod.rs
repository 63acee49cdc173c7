//! Array functions (Trino docs functions/array), typed by Trino's signatures. Most lower to
//! the `qm_*` functions of querymesh-functions/src/array/sqlite, which get the element type as a constant text
//! so they compare elements as Trino does; `array_sort` with a comparator lowers to a rank
//! subquery over `json_each` (no SQL is built at run time).

pub mod build;
pub mod concat_overloads;
pub mod lambda;
pub mod sqlite;

use querymesh_values::element::{from_element, to_element};
use querymesh_values::error::{ErrorName, error_at};
use querymesh_values::sqlite_expr::builtin::{
    COUNT, JSON_ARRAY, JSON_ARRAY_LENGTH, JSON_EACH, JSON_EXTRACT, JSON_GROUP_ARRAY,
};
use querymesh_values::sqlite_expr::{BinaryOp, FromItem, Select, SqlExpr, SqliteFn};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

pub(super) use self::build::array_agg;
use self::build::{repeat, sequence, split, zip};
use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing, scalar};
use sqlite::{
    QM_ARRAY_CONTAINS, QM_ARRAY_DISTINCT, QM_ARRAY_EXTREME, QM_ARRAY_HISTOGRAM, QM_ARRAY_JOIN,
    QM_ARRAY_POSITION, QM_ARRAY_REMOVE, QM_ARRAY_SET, QM_ARRAY_SORT, QM_ARRAYS_OVERLAP,
    QM_COMBINATIONS, QM_COMPARATOR, QM_CONTAINS_SEQUENCE, QM_ELEMENT_PATH, QM_FLATTEN,
    QM_MAP_ELEMENT, QM_NGRAMS, QM_SHUFFLE, QM_SLICE, QM_TRIM_ARRAY,
};

const SAME_ARRAY: &[(&str, &str)] = &[("array(E)", "array(E)")];
const TWO_ARRAYS: &[(&str, &str)] = &[("array(E), array(E)", "array(E)")];

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "cardinality",
        &[
            ("array(E)", "bigint"),
            ("map(K,V)", "bigint"),
            crate::setdigest::CARDINALITY_SIGNATURE,
            crate::sketch::hyperloglog::CARDINALITY_SIGNATURE,
        ],
        Typing::Resolved,
        Lower::Scalar(crate::setdigest::cardinality_of_any),
        "Returns the cardinality (length) of the array",
    ),
    scalar(
        "contains",
        &[
            ("array(T), T", "boolean"),
            crate::ipaddress::CONTAINS_SIGNATURE,
        ],
        Typing::Resolved,
        Lower::Scalar(contains),
        "Determines whether given value exists in the array",
    ),
    scalar(
        "array_position",
        &[("array(T), T", "bigint")],
        Typing::Resolved,
        Lower::Scalar(contains),
        "Returns the position of the first occurrence of the given value in array (or 0 if not found)",
    ),
    scalar(
        "array_remove",
        &[("array(E), E", "array(E)")],
        Typing::Resolved,
        Lower::Scalar(contains),
        "Remove specified values from the given array",
    ),
    scalar(
        "element_at",
        &[("array(E), bigint", "E"), ("map(K,V), K", "V")],
        Typing::Resolved,
        Lower::Scalar(element_at),
        "Get element of array at given index",
    ),
    scalar(
        "array_join",
        &[
            ("array(T), varchar", "varchar"),
            ("array(T), varchar, varchar", "varchar"),
        ],
        Typing::Resolved,
        Lower::Scalar(array_join),
        "Concatenates the elements of the given array using a delimiter and an optional string to replace nulls",
    ),
    scalar(
        "array_distinct",
        SAME_ARRAY,
        Typing::Resolved,
        Lower::Scalar(by_element_type),
        "Remove duplicate values from the given array",
    ),
    scalar(
        "array_sort",
        &[
            ("array(E)", "array(E)"),
            ("array(T), function(T, T, integer)", "array(T)"),
        ],
        Typing::Resolved,
        Lower::Scalar(array_sort),
        "Sorts the given array in ascending order according to the natural ordering of its elements",
    ),
    scalar(
        "array_max",
        &[("array(T)", "T")],
        Typing::Resolved,
        Lower::Scalar(extreme),
        "Get maximum value of array",
    ),
    scalar(
        "array_min",
        &[("array(T)", "T")],
        Typing::Resolved,
        Lower::Scalar(extreme),
        "Get minimum value of array",
    ),
    scalar(
        "slice",
        &[("array(E), bigint, bigint", "array(E)")],
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_SLICE, c)),
        "Subsets an array given an offset (1-indexed) and length",
    ),
    scalar(
        "trim_array",
        &[("array(E), bigint", "array(E)")],
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_TRIM_ARRAY, c)),
        "Remove elements from the end of array",
    ),
    scalar(
        "sequence",
        &[
            ("bigint, bigint", "array(bigint)"),
            ("bigint, bigint, bigint", "array(bigint)"),
            ("date, date", "array(date)"),
            ("date, date, interval day to second", "array(date)"),
            ("date, date, interval year to month", "array(date)"),
            (
                "timestamp(p), timestamp(p), interval day to second",
                "array(timestamp(p))",
            ),
            (
                "timestamp(p), timestamp(p), interval year to month",
                "array(timestamp(p))",
            ),
        ],
        Typing::Resolved,
        Lower::Scalar(sequence),
        "Sequence function to generate synthetic arrays",
    ),
    scalar(
        "split",
        &[
            ("varchar(x), varchar(y)", "array(varchar(x))"),
            ("varchar(x), varchar(y), bigint", "array(varchar(x))"),
        ],
        Typing::Resolved,
        Lower::Scalar(split),
        "Splits a string by a delimiter, optionally into at most limit parts",
    ),
    scalar(
        "flatten",
        &[("array(array(E))", "array(E)")],
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_FLATTEN, c)),
        "Flattens the given array",
    ),
    scalar(
        "zip",
        &[
            ("array(A), array(B)", "array(row(A, B))"),
            ("array(A), array(B), array(C)", "array(row(A, B, C))"),
            (
                "array(A), array(B), array(C), array(D)",
                "array(row(A, B, C, D))",
            ),
            (
                "array(A), array(B), array(C), array(D), array(F)",
                "array(row(A, B, C, D, F))",
            ),
        ],
        Typing::ByLowering,
        Lower::Scalar(zip),
        "Merges the given arrays, element-wise, into a single array of rows",
    ),
    scalar(
        "repeat",
        &[("T, bigint", "array(T)")],
        Typing::Resolved,
        Lower::Scalar(repeat),
        "Repeat an element for a given number of times",
    ),
    scalar(
        "ngrams",
        &[("array(T), integer", "array(array(T))")],
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_NGRAMS, c)),
        "Return N-grams for the input",
    ),
    scalar(
        "combinations",
        &[("array(T), integer", "array(array(T))")],
        Typing::Resolved,
        Lower::Scalar(|_, c| calling(QM_COMBINATIONS, c)),
        "Return n-element subsets from array",
    ),
    scalar(
        "contains_sequence",
        &[("array(T), array(T)", "boolean")],
        Typing::Resolved,
        Lower::Scalar(by_element_type),
        "Determines whether an array contains a sequence, with the values in the exact order",
    ),
    scalar(
        "array_histogram",
        &[("array(T)", "map(T, bigint)")],
        Typing::Resolved,
        Lower::Scalar(by_element_type),
        "Return a map containing the counts of the elements in the array",
    ),
    FunctionDef {
        name: "shuffle",
        kind: Kind::Scalar,
        signatures: SAME_ARRAY,
        typing: Typing::Resolved,
        lower: Lower::Scalar(|_, c| calling(QM_SHUFFLE, c)),
        description: "Generates a random permutation of the given array",
        deterministic: false,
    },
    scalar(
        "arrays_overlap",
        &[("array(E), array(E)", "boolean")],
        Typing::Resolved,
        Lower::Scalar(by_element_type),
        "Returns true if arrays have common elements",
    ),
    scalar(
        "array_intersect",
        TWO_ARRAYS,
        Typing::Resolved,
        Lower::Scalar(by_element_type),
        "Intersects elements of the two given arrays",
    ),
    scalar(
        "array_union",
        TWO_ARRAYS,
        Typing::Resolved,
        Lower::Scalar(by_element_type),
        "Union elements of the two given arrays",
    ),
    scalar(
        "array_except",
        TWO_ARRAYS,
        Typing::Resolved,
        Lower::Scalar(by_element_type),
        "Returns an array of elements that are in the first array but not the second, without duplicates",
    ),
];

/// The element type of an array argument (`unknown` for a bare NULL).
fn element_of(t: &Typed) -> TrinoType {
    match &t.ty {
        TrinoType::Array(e) => (**e).clone(),
        _ => TrinoType::Unknown,
    }
}

/// The type as the `qm_*` functions read it: a SQL string constant.
fn type_text(t: &TrinoType) -> SqlExpr {
    SqlExpr::text(t.to_string())
}

/// `x` as a one-element JSON array, the way the `qm_*` functions take a single value.
fn wrap(x: &Typed) -> SqlExpr {
    JSON_ARRAY.call([to_element(x)])
}

/// The element a `qm_*` function returned wrapped (`[e]`), in `ty`'s top-level form.
fn unwrap(sql: SqlExpr, ty: &TrinoType) -> SqlExpr {
    from_element(JSON_EXTRACT.call([sql, SqlExpr::text("$[0]")]), ty)
}

/// `json_each(array) AS alias`: one row per element, `key` its index and `value` it in element
/// form.
pub(crate) fn json_each(array: SqlExpr, alias: &str) -> FromItem {
    FromItem::Function {
        function: JSON_EACH,
        args: vec![array],
        alias: Some(alias.to_string()),
    }
}

/// `(select) AS alias`.
pub(crate) fn derived(select: Select, alias: Option<&str>) -> FromItem {
    FromItem::Subquery {
        select: Box::new(select),
        alias: alias.map(str::to_string),
    }
}

/// `SELECT e1 AS name1, … FROM from`.
pub(crate) fn select_named(columns: Vec<(SqlExpr, &str)>, from: Vec<FromItem>) -> Select {
    Select {
        columns: columns
            .into_iter()
            .map(|(e, name)| (e, Some(name.to_string())))
            .collect(),
        from,
        ..Select::default()
    }
}

/// `json_group_array(element)`: the rows' elements as a JSON array (NULL over no rows).
pub(crate) fn group_array(element: SqlExpr) -> SqlExpr {
    JSON_GROUP_ARRAY.call([element])
}

/// Whether Trino orders values of `t` (maps and json are not orderable).
fn orderable(t: &TrinoType) -> bool {
    t.is_orderable()
}

/// Whether Trino compares values of `t` for equality (json is not comparable).
fn comparable(t: &TrinoType) -> bool {
    match t {
        TrinoType::Json => false,
        TrinoType::Array(e) => comparable(e),
        TrinoType::Map(k, v) => comparable(k) && comparable(v),
        TrinoType::Row(fields) => fields.iter().all(|(_, t)| comparable(t)),
        _ => true,
    }
}

/// contains / array_position / array_remove: an array and one value of its element type
/// (`contains(varchar, ipaddress)` is the ipaddress family's).
fn contains(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a, x] = c.args.as_slice() else {
        return Ok(None);
    };
    if c.name == "contains" && !matches!(a.ty, TrinoType::Array(_)) {
        return crate::ipaddress::contains(ctx, c);
    }
    let element = element_of(a);
    if !comparable(&element) {
        return Ok(None);
    }
    let f = match c.name.as_str() {
        "contains" => QM_ARRAY_CONTAINS,
        "array_position" => QM_ARRAY_POSITION,
        _ => QM_ARRAY_REMOVE,
    };
    Ok(Some(Typed::new(
        f.call([a.sql.clone(), wrap(x), type_text(&element)]),
        c.returns(),
    )))
}

/// element_at(array, index) (NULL past either end; negative counts from the end) and
/// element_at(map, key) (NULL when the key is missing).
fn element_at(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [container, i] = c.args.as_slice() else {
        return Ok(None);
    };
    let ty = c.returns();
    let sql = match &container.ty {
        TrinoType::Map(key, _) => unwrap(
            QM_MAP_ELEMENT.call([container.sql.clone(), wrap(i), type_text(key)]),
            &ty,
        ),
        _ => {
            let length = JSON_ARRAY_LENGTH.call([container.sql.clone()]);
            let path = QM_ELEMENT_PATH.call([length, i.sql.clone()]);
            from_element(JSON_EXTRACT.call([container.sql.clone(), path]), &ty)
        }
    };
    Ok(Some(Typed::new(sql, ty)))
}

/// array_join(array, delimiter[, null_replacement]): the elements cast to varchar
/// (ArrayJoin: only types with a cast to varchar).
fn array_join(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let (a, delimiter, replacement) = match c.args.as_slice() {
        [a, d] => (a, d, None),
        [a, d, r] => (a, d, Some(r)),
        _ => return Ok(None),
    };
    let element = element_of(a);
    // ArrayJoin casts each element to varchar: Trino 476 refuses the types with no such cast
    // while binding (`array_join(ARRAY[ARRAY[1]], ',')` is OPERATOR_NOT_FOUND).
    if element.is_container() || element == TrinoType::Varbinary {
        return Err(error_at(
            ErrorName::OperatorNotFound,
            c.at,
            format!("Cannot cast {element} to varchar"),
        ));
    }
    if element == TrinoType::Uuid {
        return Err(error_at(
            ErrorName::InvalidFunctionArgument,
            c.at,
            format!("Input type {element} not supported"),
        ));
    }
    Ok(Some(Typed::new(
        QM_ARRAY_JOIN.call([
            a.sql.clone(),
            type_text(&element),
            delimiter.sql.clone(),
            SqlExpr::Integer(i64::from(replacement.is_some())),
            replacement.map_or(SqlExpr::Null, |r| r.sql.clone()),
        ]),
        TrinoType::Varchar(None),
    )))
}

/// The functions of one or two arrays that only need the element type.
fn by_element_type(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    // What the signature bound E to: the arrays' common element type.
    let element = c.var('E');
    if !comparable(&element) {
        return Ok(None);
    }
    let ty = type_text(&element);
    let sql = match (c.name.as_str(), c.args.as_slice()) {
        ("array_distinct", [a]) => QM_ARRAY_DISTINCT.call([a.sql.clone(), ty]),
        ("array_histogram", [a]) => QM_ARRAY_HISTOGRAM.call([a.sql.clone(), ty]),
        ("arrays_overlap", [a, b]) => QM_ARRAYS_OVERLAP.call([a.sql.clone(), b.sql.clone(), ty]),
        ("contains_sequence", [a, b]) => {
            QM_CONTAINS_SEQUENCE.call([a.sql.clone(), b.sql.clone(), ty])
        }
        (name, [a, b]) => {
            let op = name.trim_start_matches("array_");
            QM_ARRAY_SET.call([a.sql.clone(), b.sql.clone(), ty, SqlExpr::text(op)])
        }
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(sql, c.returns())))
}

/// array_max / array_min (NULL when any element is NULL).
fn extreme(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a] = c.args.as_slice() else {
        return Ok(None);
    };
    let element = element_of(a);
    if !orderable(&element) {
        return Ok(None);
    }
    let max = SqlExpr::Integer(i64::from(c.name == "array_max"));
    Ok(Some(Typed::new(
        unwrap(
            QM_ARRAY_EXTREME.call([a.sql.clone(), type_text(&element), max]),
            &element,
        ),
        element,
    )))
}

/// array_sort(array): natural order, NULLs last. array_sort(array, (x, y) -> int): each
/// element placed by its rank — how many other elements the comparator puts before it, ties
/// broken by position (a stable sort) — in a subquery over `json_each`. An element is never
/// compared with itself, so comparators that put NULLs first by answering -1 for two NULLs
/// (docs functions/array) sort as in Trino.
fn array_sort(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [array] = c.args.as_slice() else {
        return Ok(None);
    };
    let element = element_of(array);
    let Some(comparator) = c.lambdas.first() else {
        if !orderable(&element) {
            return Ok(None);
        }
        return Ok(Some(Typed::new(
            QM_ARRAY_SORT.call([array.sql.clone(), type_text(&element)]),
            c.returns(),
        )));
    };
    let v = ctx.alias("qm_sort_v");
    let x = ctx.alias("qm_sort_x");
    let y = ctx.alias("qm_sort_y");
    let element = comparator.params.first().cloned().unwrap_or(element);
    let value = |rel: &str| from_element(SqlExpr::column(Some(rel), "value"), &element);
    let key = |rel: &str| SqlExpr::column(Some(rel), "key");
    let array_value = SqlExpr::column(None, v.as_str());
    // The comparator's rows: each other element `y` as p0 beside `x` as p1.
    let other_key = SqlExpr::column(Some(&comparator.alias), "qm_key");
    let pairs = select_named(
        vec![(value(&y), "p0"), (value(&x), "p1"), (key(&y), "qm_key")],
        vec![json_each(array_value.clone(), &y)],
    );
    let compared = SqlExpr::Case {
        operand: Some(Box::new(QM_COMPARATOR.call([comparator.body.sql.clone()]))),
        branches: vec![
            (SqlExpr::Integer(-1), SqlExpr::Integer(1)),
            (
                SqlExpr::Integer(0),
                SqlExpr::binary(other_key.clone(), BinaryOp::Less, key(&x)),
            ),
        ],
        otherwise: Some(Box::new(SqlExpr::Integer(0))),
    };
    let placed_before = SqlExpr::iff(
        SqlExpr::binary(other_key, BinaryOp::Equal, key(&x)),
        SqlExpr::Integer(0),
        compared,
    );
    let rank = Select::new(
        vec![COUNT.call([])],
        vec![derived(pairs, Some(&comparator.alias))],
    )
    .filter(placed_before)
    .scalar();
    let ranked = select_named(
        vec![(SqlExpr::column(Some(&x), "value"), "value")],
        vec![json_each(array_value.clone(), &x)],
    )
    .order_by(vec![(rank, false), (key(&x), false)]);
    let sorted = to_element(&Typed::new(value(&x), element.clone()));
    let gathered = Select::new(vec![group_array(sorted)], vec![derived(ranked, Some(&x))]);
    let once = select_named(vec![(array.sql.clone(), v.as_str())], vec![]);
    let sql = Select::new(
        vec![SqlExpr::null_or(array_value, gathered.scalar())],
        vec![derived(once, None)],
    )
    .scalar();
    Ok(Some(Typed::new(sql, c.returns())))
}

/// A function that is one `qm_*` call over its (coerced) arguments, of its signature's type.
pub(crate) fn calling(function: SqliteFn, c: &Call) -> LowerResult {
    let args = c.args.iter().map(|a| a.sql.clone());
    Ok(Some(Typed::new(function.call(args), c.returns())))
}
