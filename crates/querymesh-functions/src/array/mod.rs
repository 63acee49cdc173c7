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
use querymesh_values::sqlite_text::sql_string;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

pub(super) use self::build::array_agg;
use self::build::{repeat, sequence, split, zip};
use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing, scalar};

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
        Lower::Template("qm_slice({0}, {1}, {2})"),
        "Subsets an array given an offset (1-indexed) and length",
    ),
    scalar(
        "trim_array",
        &[("array(E), bigint", "array(E)")],
        Typing::Resolved,
        Lower::Template("qm_trim_array({0}, {1})"),
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
        Lower::Template("qm_flatten({0})"),
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
        Lower::Template("qm_ngrams({0}, {1})"),
        "Return N-grams for the input",
    ),
    scalar(
        "combinations",
        &[("array(T), integer", "array(array(T))")],
        Typing::Resolved,
        Lower::Template("qm_combinations({0}, {1})"),
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
        lower: Lower::Template("qm_shuffle({0})"),
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
fn type_text(t: &TrinoType) -> String {
    sql_string(&t.to_string())
}

/// `x` as a one-element JSON array, the way the `qm_*` functions take a single value.
fn wrap(x: &Typed) -> String {
    format!("json_array({})", to_element(x))
}

/// The element a `qm_*` function returned wrapped (`[e]`), in `ty`'s top-level form.
fn unwrap(sql: &str, ty: &TrinoType) -> String {
    (from_element(format!("json_extract({sql}, '$[0]')"), ty)).to_string()
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
        "contains" => "qm_array_contains",
        "array_position" => "qm_array_position",
        _ => "qm_array_remove",
    };
    Ok(Some(Typed::new(
        format!("{f}({}, {}, {})", a.sql, wrap(x), type_text(&element)),
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
            &format!(
                "qm_map_element({}, {}, {})",
                container.sql,
                wrap(i),
                type_text(key)
            ),
            &ty,
        ),
        _ => from_element(
            format!(
                "json_extract({0}, qm_element_path(json_array_length({0}), {1}))",
                container.sql, i.sql
            ),
            &ty,
        )
        .to_string(),
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
        format!(
            "qm_array_join({}, {}, {}, {}, {})",
            a.sql,
            type_text(&element),
            delimiter.sql,
            i32::from(replacement.is_some()),
            replacement.map_or("NULL".to_string(), |r| r.sql.to_string())
        ),
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
        ("array_distinct", [a]) => format!("qm_array_distinct({}, {ty})", a.sql),
        ("array_histogram", [a]) => format!("qm_array_histogram({}, {ty})", a.sql),
        ("arrays_overlap", [a, b]) => format!("qm_arrays_overlap({}, {}, {ty})", a.sql, b.sql),
        ("contains_sequence", [a, b]) => {
            format!("qm_contains_sequence({}, {}, {ty})", a.sql, b.sql)
        }
        (name, [a, b]) => {
            let op = name.trim_start_matches("array_");
            format!("qm_array_set({}, {}, {ty}, '{op}')", a.sql, b.sql)
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
    let max = i32::from(c.name == "array_max");
    Ok(Some(Typed::new(
        unwrap(
            &format!(
                "qm_array_extreme({}, {}, {max})",
                a.sql,
                type_text(&element)
            ),
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
            format!("qm_array_sort({}, {})", array.sql, type_text(&element)),
            c.returns(),
        )));
    };
    let v = ctx.alias("qm_sort_v");
    let x = ctx.alias("qm_sort_x");
    let y = ctx.alias("qm_sort_y");
    let element = comparator.params.first().cloned().unwrap_or(element);
    let value = |rel: &str| from_element(format!("{rel}.value"), &element);
    let sorted = to_element(&Typed::new(value(&x), element.clone()));
    let sql = format!(
        "(SELECT CASE WHEN {v} IS NULL THEN NULL ELSE (SELECT json_group_array({sorted}) FROM \
         (SELECT {x}.value AS value FROM json_each({v}) AS {x} ORDER BY (SELECT count(*) FROM \
         (SELECT {py} AS p0, {px} AS p1, {y}.key AS qm_key FROM json_each({v}) AS {y}) AS \"{alias}\" \
         WHERE CASE WHEN \"{alias}\".qm_key = {x}.key THEN 0 ELSE CASE qm_comparator({body}) \
         WHEN -1 THEN 1 WHEN 0 THEN \"{alias}\".qm_key < {x}.key ELSE 0 END END), {x}.key) AS {x}) \
         END FROM (SELECT {array} AS {v}))",
        py = value(&y),
        px = value(&x),
        alias = comparator.alias,
        body = comparator.body.sql,
        array = array.sql,
    );
    Ok(Some(Typed::new(sql, c.returns())))
}
