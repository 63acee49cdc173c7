//! Map functions and aggregates (Trino docs functions/map, functions/aggregate "Map aggregate
//! functions"). A map is a JSON array of `[key, value]` pairs in element form; the checks that
//! need the values (lengths, NULL and duplicate keys) are Rust functions (querymesh-functions/src/map/sqlite.rs),
//! and the lambdas of transform_keys, transform_values and map_filter lower to correlated
//! subqueries over the pairs (`json_each`, in order) whose relation is the lambda's alias, so
//! the body's `p0` is the key and `p1` the value, in top-level form.
//! `cardinality` and `element_at` on maps are with the array functions' entries.

pub mod hash_order;
pub mod sqlite;

use querymesh_values::element::{from_element, to_element};
use querymesh_values::sqlite_expr::builtin::{COALESCE, JSON_ARRAY, JSON_EXTRACT};
use querymesh_values::sqlite_expr::{BinaryOp, FromItem, Select, SqlExpr};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::array::{derived, group_array, json_each, select_named};
use super::context::LowerContext;
use super::entry::{AggregateCall, FunctionDef, Lower, LowerResult, Typing, aggregate, scalar};
use super::lambda::Lambda;
use super::udf::QM_FAIL;
use sqlite::{
    QM_HISTOGRAM, QM_MAP_AGG, QM_MAP_CHECKED, QM_MAP_CONCAT, QM_MAP_FROM_ARRAYS,
    QM_MAP_FROM_ENTRIES, QM_MAP_PART, QM_MAP_UNION, QM_MAP_ZIP, QM_MULTIMAP_AGG,
    QM_MULTIMAP_FROM_ENTRIES,
};

type Lowered = crate::entry::AggregateLowered;

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "map",
        &[
            ("", "map(unknown,unknown)"),
            ("array(K), array(V)", "map(K,V)"),
        ],
        Typing::Resolved,
        Lower::Scalar(map),
        "Constructs a map from the given key/value arrays",
    ),
    scalar(
        "map_from_entries",
        &[("array(row(K,V))", "map(K,V)")],
        Typing::ByLowering,
        Lower::Scalar(map_from_entries),
        "Construct a map from an array of entries",
    ),
    scalar(
        "multimap_from_entries",
        &[("array(row(K,V))", "map(K,array(V))")],
        Typing::ByLowering,
        Lower::Scalar(multimap_from_entries),
        "Construct a multimap from an array of entries",
    ),
    scalar(
        "map_entries",
        &[("map(K,V)", "array(row(K,V))")],
        Typing::ByLowering,
        Lower::Scalar(map_entries),
        "Construct an array of entries from a given map",
    ),
    scalar(
        "map_keys",
        &[("map(K,V)", "array(K)")],
        Typing::Resolved,
        Lower::Scalar(|_, c| map_part(c, 0)),
        "Returns the keys of the given map(K,V) as an array",
    ),
    scalar(
        "map_values",
        &[("map(K,V)", "array(V)")],
        Typing::Resolved,
        Lower::Scalar(|_, c| map_part(c, 1)),
        "Returns the values of the given map(K,V) as an array",
    ),
    scalar(
        "map_concat",
        &[("map(K,V)...", "map(K,V)")],
        Typing::Resolved,
        Lower::Scalar(map_concat),
        "Concatenates given maps",
    ),
    scalar(
        "transform_keys",
        &[("map(K,V), function(K,V,U)", "map(U,V)")],
        Typing::Resolved,
        Lower::Scalar(transform_keys),
        "Apply lambda to each entry of the map and transform the key",
    ),
    scalar(
        "transform_values",
        &[("map(K,V), function(K,V,U)", "map(K,U)")],
        Typing::Resolved,
        Lower::Scalar(transform_values),
        "Apply lambda to each entry of the map and transform the value",
    ),
    scalar(
        "map_filter",
        &[("map(K,V), function(K,V,boolean)", "map(K,V)")],
        Typing::Resolved,
        Lower::Scalar(map_filter),
        "Return map containing entries that match the given predicate",
    ),
    scalar(
        "map_zip_with",
        &[("map(K,V), map(K,W), function(K,V,W,R)", "map(K,R)")],
        Typing::Resolved,
        Lower::Scalar(map_zip_with),
        "Merge two maps into a single map by applying the lambda function to the pair of values with the same key",
    ),
    aggregate(
        "map_agg",
        &[("K, V", "map(K,V)")],
        map_agg,
        "Aggregates all the rows (key/value pairs) into a single map",
    ),
    aggregate(
        "multimap_agg",
        &[("K, V", "map(K,array(V))")],
        map_agg,
        "Aggregates all the rows (key/value pairs) into a single multimap",
    ),
    aggregate(
        "histogram",
        &[("T", "map(T,bigint)")],
        histogram,
        "Count the number of times each value occurs",
    ),
    aggregate(
        "map_union",
        &[("map(K,V)", "map(K,V)")],
        map_union,
        "Aggregate all the maps into a single map",
    ),
];

/// map_union(m) (Trino docs functions/aggregate, "Map aggregate functions"): the pairs of
/// every non-NULL map; a key found in several maps keeps one of its values (the first here).
fn map_union(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [m] = call.args else {
        return Ok(None);
    };
    if !matches!(m.ty, TrinoType::Map(..) | TrinoType::Unknown) || call.distinct {
        return Ok(None);
    }
    Ok(Some((QM_MAP_UNION.call([m.sql.clone()]), m.ty.clone())))
}

fn key_value(t: &TrinoType) -> (TrinoType, TrinoType) {
    match t {
        TrinoType::Map(k, v) => ((**k).clone(), (**v).clone()),
        _ => (TrinoType::Unknown, TrinoType::Unknown),
    }
}

/// The key type as the constant text argument the Rust checks read (errors name the key).
fn type_text(t: &TrinoType) -> SqlExpr {
    SqlExpr::text(t.to_string())
}

/// `map()` is empty; `map(ARRAY[1, 3], ARRAY[2, 4])` pairs the arrays (MapConstructor).
fn map(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [] => Some(Typed::new(SqlExpr::text("[]"), c.returns())),
        [keys, values] => {
            let (k, _) = key_value(&c.returns());
            Some(Typed::new(
                QM_MAP_FROM_ARRAYS.call([keys.sql.clone(), values.sql.clone(), type_text(&k)]),
                c.returns(),
            ))
        }
        _ => None,
    })
}

/// `map_from_entries(ARRAY[(1, 'x'), (2, 'y')])`: a row `(k, v)` is already a pair.
fn map_from_entries(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [entries] = c.args.as_slice() else {
        return Ok(None);
    };
    let (k, v) = match &entries.ty {
        TrinoType::Array(e) => match e.as_ref() {
            TrinoType::Row(fields) if fields.len() == 2 => {
                (fields[0].1.clone(), fields[1].1.clone())
            }
            TrinoType::Unknown => (TrinoType::Unknown, TrinoType::Unknown),
            _ => return Ok(None),
        },
        TrinoType::Unknown => (TrinoType::Unknown, TrinoType::Unknown),
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(
        QM_MAP_FROM_ENTRIES.call([entries.sql.clone(), type_text(&k)]),
        TrinoType::Map(Box::new(k), Box::new(v)),
    )))
}

/// `multimap_from_entries(ARRAY[(1, 'x'), (2, 'y'), (1, 'z')])` = `{1 -> [x, z], 2 -> [y]}`.
fn multimap_from_entries(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [entries] = c.args.as_slice() else {
        return Ok(None);
    };
    let (k, v) = match &entries.ty {
        TrinoType::Array(e) => match e.as_ref() {
            TrinoType::Row(fields) if fields.len() == 2 => {
                (fields[0].1.clone(), fields[1].1.clone())
            }
            TrinoType::Unknown => (TrinoType::Unknown, TrinoType::Unknown),
            _ => return Ok(None),
        },
        TrinoType::Unknown => (TrinoType::Unknown, TrinoType::Unknown),
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(
        QM_MULTIMAP_FROM_ENTRIES.call([entries.sql.clone()]),
        TrinoType::Map(Box::new(k), Box::new(TrinoType::Array(Box::new(v)))),
    )))
}

/// `map_entries(m)`: the same pairs, typed as an array of rows.
fn map_entries(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [m] = c.args.as_slice() else {
        return Ok(None);
    };
    if !matches!(m.ty, TrinoType::Map(..) | TrinoType::Unknown) {
        return Ok(None);
    }
    let (k, v) = key_value(&m.ty);
    Ok(Some(Typed::new(
        m.sql.clone(),
        TrinoType::Array(Box::new(TrinoType::Row(vec![(None, k), (None, v)]))),
    )))
}

fn map_concat(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if c.args.is_empty() {
        return Ok(None);
    }
    // MapConcatFunction refuses a single map when it runs; a NULL one never reaches it
    // (Trino 476: `map_concat(NULL)` is NULL).
    if let [m] = c.args.as_slice() {
        return Ok(Some(Typed::new(
            SqlExpr::null_or(
                m.sql.clone(),
                QM_FAIL.call([
                    SqlExpr::text("INVALID_FUNCTION_ARGUMENT"),
                    SqlExpr::text(
                        "There must be two or more concatenation arguments to map_concat",
                    ),
                ]),
            ),
            c.returns(),
        )));
    }
    Ok(Some(Typed::new(
        QM_MAP_CONCAT.call(c.args.iter().map(|a| a.sql.clone())),
        c.returns(),
    )))
}

/// `json_extract(e.value, '$[i]')` read back as `ty`: part `i` of the pair (or triple) in
/// row `e`.
fn part(i: usize, ty: &TrinoType) -> SqlExpr {
    let path = SqlExpr::text(format!("$[{i}]"));
    from_element(
        JSON_EXTRACT.call([SqlExpr::column(Some("e"), "value"), path]),
        ty,
    )
}

/// `pairs` (rows of `json_each(…) AS e`) in order, as the relation `lambda`'s body reads:
/// `columns` name the parts it sees (`p0`, `p1`…).
fn lambda_rows(pairs: SqlExpr, columns: Vec<(SqlExpr, &str)>, lambda: &Lambda) -> FromItem {
    let rows = select_named(columns, vec![json_each(pairs, "e")])
        .order_by(vec![(SqlExpr::column(Some("e"), "key"), false)]);
    derived(rows, Some(&lambda.alias))
}

/// The pairs as a map: `coalesce(json_group_array(json_array(key, value)), '[]')`.
fn gathered(key: &Typed, value: &Typed) -> SqlExpr {
    let pair = JSON_ARRAY.call([to_element(key), to_element(value)]);
    COALESCE.call([group_array(pair), SqlExpr::text("[]")])
}

/// The map of `key` and `value` over each pair of a NULL-checked map argument, the lambda's
/// `p0` its key and `p1` its value; `predicate` keeps only the pairs it is true for.
fn map_of(
    m: &Typed,
    lambda: &Lambda,
    key: &Typed,
    value: &Typed,
    predicate: Option<SqlExpr>,
) -> SqlExpr {
    let (k, v) = key_value(&m.ty);
    let rows = lambda_rows(
        m.sql.clone(),
        vec![(part(0, &k), "p0"), (part(1, &v), "p1")],
        lambda,
    );
    let mut pairs = Select::new(vec![gathered(key, value)], vec![rows]);
    pairs.filter = predicate;
    SqlExpr::null_or(m.sql.clone(), pairs.scalar())
}

fn map_and_lambda(c: &Call) -> Option<(&Typed, &Lambda)> {
    match (c.args.as_slice(), c.lambdas.as_slice()) {
        ([m], [lambda]) => Some((m, lambda)),
        _ => None,
    }
}

/// `transform_keys(MAP(ARRAY[1, 2, 3], ARRAY['a', 'b', 'c']), (k, v) -> k + 1)`: the new keys
/// checked as MapTransformKeysFunction does (no NULL, no duplicate).
fn transform_keys(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some((m, lambda)) = map_and_lambda(c) else {
        return Ok(None);
    };
    let (_, v) = key_value(&m.ty);
    let value = Typed::new(lambda.param(1), v);
    let built = map_of(m, lambda, &lambda.body, &value, None);
    let (new_key, _) = key_value(&c.returns());
    Ok(Some(Typed::new(
        QM_MAP_CHECKED.call([built, type_text(&new_key)]),
        c.returns(),
    )))
}

/// `transform_values(MAP(ARRAY[1, 2, 3], ARRAY[10, 20, 30]), (k, v) -> v + k)`.
fn transform_values(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some((m, lambda)) = map_and_lambda(c) else {
        return Ok(None);
    };
    let (k, _) = key_value(&m.ty);
    let key = Typed::new(lambda.param(0), k);
    Ok(Some(Typed::new(
        map_of(m, lambda, &key, &lambda.body, None),
        c.returns(),
    )))
}

/// `map_filter(MAP(ARRAY[10, 20, 30], ARRAY['a', NULL, 'c']), (k, v) -> v IS NOT NULL)`: a
/// pair whose predicate is NULL is left out, as one whose predicate is false.
fn map_filter(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some((m, lambda)) = map_and_lambda(c) else {
        return Ok(None);
    };
    let (k, v) = key_value(&m.ty);
    let key = Typed::new(lambda.param(0), k);
    let value = Typed::new(lambda.param(1), v);
    Ok(Some(Typed::new(
        map_of(m, lambda, &key, &value, Some(lambda.body.sql.clone())),
        c.returns(),
    )))
}

/// `map_zip_with(MAP(ARRAY['k1', 'k2'], ARRAY[1, 2]), MAP(ARRAY['k2', 'k3'], ARRAY[4, 9]),
/// (k, v1, v2) -> (v1, v2))`: the lambda over every key of either map, NULL for the value a
/// map lacks; the triples come from `qm_map_zip`.
fn map_zip_with(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let ([a, b], [lambda]) = (c.args.as_slice(), c.lambdas.as_slice()) else {
        return Ok(None);
    };
    let (k, v1) = key_value(&a.ty);
    let (_, v2) = key_value(&b.ty);
    let key = Typed::new(lambda.param(0), k.clone());
    let rows = lambda_rows(
        QM_MAP_ZIP.call([a.sql.clone(), b.sql.clone()]),
        vec![
            (part(0, &k), "p0"),
            (part(1, &v1), "p1"),
            (part(2, &v2), "p2"),
        ],
        lambda,
    );
    let zipped = Select::new(vec![gathered(&key, &lambda.body)], vec![rows]).scalar();
    let null = SqlExpr::binary(
        SqlExpr::is_null(a.sql.clone()),
        BinaryOp::Or,
        SqlExpr::is_null(b.sql.clone()),
    );
    Ok(Some(Typed::new(
        SqlExpr::iff(null, SqlExpr::Null, zipped),
        c.returns(),
    )))
}

/// map_agg(k, v) and multimap_agg(k, v): each row's pair in element form; rows with a NULL
/// key are left out (Trino's key parameter is not nullable).
fn map_agg(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [k, v] = call.args else {
        return Ok(None);
    };
    let (f, value_ty) = if call.name == "map_agg" {
        (QM_MAP_AGG, v.ty.clone())
    } else {
        (QM_MULTIMAP_AGG, TrinoType::Array(Box::new(v.ty.clone())))
    };
    let mut args = vec![JSON_ARRAY.call([to_element(k), to_element(v)])];
    // map_agg answers in Trino's hash table order where it can be known (hash_order.rs):
    // with ORDER BY, or over VALUES, one state; a global aggregation reading a table a
    // partial and a final one (a window's frame is one state too: the SQLite function
    // knows it runs as one). Not in a GROUP BY without ORDER BY, nor with DISTINCT (SQLite
    // takes one argument then).
    if let Some(kind) = hash_order::KeyHash::for_type(&k.ty)
        && call.name == "map_agg"
        && !call.distinct
        && (!call.order_by.is_empty() || !call.grouped)
    {
        let states = if call.order_by.is_empty() && call.reads_tables {
            2
        } else {
            1
        };
        args.extend([SqlExpr::text(kind.name()), SqlExpr::Integer(states)]);
    }
    Ok(Some((
        call.aggregate(f, args),
        TrinoType::Map(Box::new(k.ty.clone()), Box::new(value_ty)),
    )))
}

/// histogram(x): how often each non-NULL value occurs.
fn histogram(_: &mut dyn LowerContext, call: &AggregateCall<'_>) -> Lowered {
    let [x] = call.args else {
        return Ok(None);
    };
    Ok(Some((
        call.aggregate(QM_HISTOGRAM, [JSON_ARRAY.call([to_element(x)])]),
        TrinoType::Map(Box::new(x.ty.clone()), Box::new(TrinoType::BigInt)),
    )))
}

/// map_keys (`which` 0) and map_values (1).
fn map_part(c: &Call, which: i64) -> LowerResult {
    let [m] = c.args.as_slice() else {
        return Ok(None);
    };
    Ok(Some(Typed::new(
        QM_MAP_PART.call([m.sql.clone(), SqlExpr::Integer(which)]),
        c.returns(),
    )))
}
