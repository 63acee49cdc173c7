//! The `qm_*` functions behind the map functions (querymesh-functions/src/map): building maps from key and
//! value arrays or entries with Trino's checks (lengths, NULL keys, duplicate keys),
//! map_concat, map_keys / map_values, and the aggregates map_agg, multimap_agg and histogram.
//!
//! A map is a JSON array of `[key, value]` pairs in element form (docs/complex-design.md); keys are
//! compared by value (`1` and `1.0` are one key), and a key's Trino type, when an error must
//! name the key, comes as a constant text argument (`TrinoType::parse`), never guessed.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use querymesh_values::types::TrinoType;
use rusqlite::Connection;
use rusqlite::functions::{Aggregate, Context, FunctionFlags, WindowAggregate};
use rusqlite::types::ValueRef;
use serde_json::Value;

use super::hash_order::{KeyHash, trino_order};
use crate::udf::{FLAGS, define, define_aggregate, define_window, fail, reserve};

/// The functions registered here, as the lowerings call them.
pub const QM_MAP_FROM_ARRAYS: SqliteFn = SqliteFn::new("qm_map_from_arrays");
pub const QM_MAP_FROM_ENTRIES: SqliteFn = SqliteFn::new("qm_map_from_entries");
pub const QM_MAP_CHECKED: SqliteFn = SqliteFn::new("qm_map_checked");
pub const QM_MAP_CONCAT: SqliteFn = SqliteFn::new("qm_map_concat");
pub const QM_MULTIMAP_FROM_ENTRIES: SqliteFn = SqliteFn::new("qm_multimap_from_entries");
pub const QM_MAP_ZIP: SqliteFn = SqliteFn::new("qm_map_zip");
pub const QM_MAP_PART: SqliteFn = SqliteFn::new("qm_map_part");
pub const QM_MAP_AGG: SqliteFn = SqliteFn::new("qm_map_agg");
pub const QM_MULTIMAP_AGG: SqliteFn = SqliteFn::new("qm_multimap_agg");
pub const QM_HISTOGRAM: SqliteFn = SqliteFn::new("qm_histogram");
pub const QM_MAP_UNION: SqliteFn = SqliteFn::new("qm_map_union");

fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        ValueRef::Null => None,
    }
}

fn invalid() -> rusqlite::Error {
    fail(ErrorName::GenericInternalError, "A map value is not valid")
}

fn json_array(text: &str) -> rusqlite::Result<Vec<Value>> {
    serde_json::from_str(text).map_err(|_| invalid())
}

/// A pair `[key, value]` of a map.
fn pair(v: &Value) -> rusqlite::Result<(&Value, &Value)> {
    match v.as_array().map(Vec::as_slice) {
        Some([k, v]) => Ok((k, v)),
        _ => Err(invalid()),
    }
}

/// A text equal for two keys exactly when they are the same key: numbers by value (`1`,
/// `1.0`), arrays and rows element by element.
fn canonical(v: &Value) -> String {
    match v {
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => i.to_string(),
            (None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => (f as i64).to_string(),
            (None, Some(f)) => f.to_string(),
            (None, None) => n.to_string(),
        },
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", parts.join(","))
        }
        other => other.to_string(),
    }
}

/// A key as Trino's `getObjectValue` prints it in an error: text as is, `[1, 2]` for arrays.
fn display(v: &Value, ty: &TrinoType) -> String {
    match (v, ty) {
        (Value::Null, _) => "null".into(),
        (Value::String(s), _) => s.clone(),
        (Value::Number(n), TrinoType::Boolean) => (n.as_i64() == Some(1)).to_string(),
        (Value::Number(n), TrinoType::Double | TrinoType::Real) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if f.fract() == 0.0 && f.abs() < 1.0e7 {
                format!("{f:.1}")
            } else {
                f.to_string()
            }
        }
        (Value::Array(items), TrinoType::Array(e)) => {
            let parts: Vec<String> = items.iter().map(|i| display(i, e)).collect();
            format!("[{}]", parts.join(", "))
        }
        (Value::Array(items), TrinoType::Row(fields)) => {
            let parts: Vec<String> = items
                .iter()
                .zip(fields)
                .map(|(i, (_, t))| display(i, t))
                .collect();
            format!("[{}]", parts.join(", "))
        }
        (other, _) => other.to_string(),
    }
}

fn key_type(ctx: &Context<'_>, i: usize) -> TrinoType {
    text(ctx.get_raw(i))
        .and_then(|t| TrinoType::parse(&t).ok())
        .unwrap_or(TrinoType::Unknown)
}

/// How a function reports a duplicate key: map() and map_from_entries say "Duplicate map
/// keys" (DuplicateMapKeyException), transform_keys "Duplicate keys" (MapTransformKeysFunction).
#[derive(Clone, Copy)]
enum Duplicates {
    MapKeys,
    Keys,
}

/// Builds a map from pairs, refusing NULL and duplicate keys as Trino does.
fn build(
    pairs: impl Iterator<Item = rusqlite::Result<(Value, Value)>>,
    ty: &TrinoType,
    duplicates: Duplicates,
) -> rusqlite::Result<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for p in pairs {
        let (k, v) = p?;
        if k.is_null() {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                "map key cannot be null",
            ));
        }
        if !seen.insert(canonical(&k)) {
            let word = match duplicates {
                Duplicates::MapKeys => "map keys",
                Duplicates::Keys => "keys",
            };
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                format!("Duplicate {word} ({}) are not allowed", display(&k, ty)),
            ));
        }
        out.push(Value::Array(vec![k, v]));
    }
    Ok(Value::Array(out).to_string())
}

/// `map(ARRAY[…], ARRAY[…])` (MapConstructor).
fn from_arrays(keys: &str, values: &str, ty: &TrinoType) -> rusqlite::Result<String> {
    let (keys, values) = (json_array(keys)?, json_array(values)?);
    if keys.len() != values.len() {
        return Err(fail(
            ErrorName::InvalidFunctionArgument,
            "Key and value arrays must be the same length",
        ));
    }
    build(
        keys.into_iter().zip(values).map(Ok),
        ty,
        Duplicates::MapKeys,
    )
}

/// `map_from_entries(ARRAY[(k, v), …])` (MapFromEntriesFunction).
fn from_entries(entries: &str, ty: &TrinoType, duplicates: Duplicates) -> rusqlite::Result<String> {
    let entries = json_array(entries)?;
    build(
        entries.into_iter().map(|e| match e {
            Value::Null => Err(fail(
                ErrorName::InvalidFunctionArgument,
                "map entry cannot be null",
            )),
            Value::Array(mut kv) if kv.len() == 2 => {
                let v = kv.pop().unwrap_or(Value::Null);
                let k = kv.pop().unwrap_or(Value::Null);
                Ok((k, v))
            }
            _ => Err(invalid()),
        }),
        ty,
        duplicates,
    )
}

/// `multimap_from_entries(ARRAY[(1, 'x'), (2, 'y'), (1, 'z')])`: each key's values, in order.
fn multimap_from_entries(entries: &str) -> rusqlite::Result<String> {
    let mut gathered: Gathered<Vec<Value>> = Gathered::new();
    for e in json_array(entries)? {
        let (k, v) = match e {
            Value::Null => {
                return Err(fail(
                    ErrorName::InvalidFunctionArgument,
                    "map entry cannot be null",
                ));
            }
            ref pair_value => {
                let (k, v) = pair(pair_value)?;
                (k.clone(), v.clone())
            }
        };
        if k.is_null() {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                "map key cannot be null",
            ));
        }
        gathered.entry(k, Vec::new).push(v);
    }
    let pairs: Vec<Value> = gathered
        .entries
        .into_iter()
        .map(|(k, vs)| Value::Array(vec![k, Value::Array(vs)]))
        .collect();
    Ok(Value::Array(pairs).to_string())
}

/// The `[key, v1, v2]` triples map_zip_with's lambda reads: every key of `a`, then every key
/// only `b` has, with NULL for the value a map lacks (MapZipWithFunction).
fn zip(a: &str, b: &str) -> rusqlite::Result<String> {
    let (a, b) = (json_array(a)?, json_array(b)?);
    let mut in_b = HashMap::new();
    for p in &b {
        let (k, v) = pair(p)?;
        in_b.entry(canonical(k)).or_insert(v);
    }
    let mut out = Vec::with_capacity(a.len() + b.len());
    let mut seen = std::collections::HashSet::new();
    for p in &a {
        let (k, v) = pair(p)?;
        let key = canonical(k);
        let other = in_b.get(&key).map_or(Value::Null, |v| (*v).clone());
        seen.insert(key);
        out.push(Value::Array(vec![k.clone(), v.clone(), other]));
    }
    for p in &b {
        let (k, v) = pair(p)?;
        if seen.insert(canonical(k)) {
            out.push(Value::Array(vec![k.clone(), Value::Null, v.clone()]));
        }
    }
    Ok(Value::Array(out).to_string())
}

/// `map_concat(m1, …, mN)` (MapConcatFunction): a key's value comes from the last map that
/// has it; the last map's entries come first, then the earlier maps' new keys, last to first.
fn concat(maps: &[String]) -> rusqlite::Result<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for m in maps.iter().rev() {
        for p in json_array(m)? {
            let (k, _) = pair(&p)?;
            if seen.insert(canonical(k)) {
                out.push(p);
            }
        }
    }
    Ok(Value::Array(out).to_string())
}

/// The keys (`part` 0) or the values (1) of a map, as an array.
fn part(map: &str, part: usize) -> rusqlite::Result<String> {
    let mut out = Vec::new();
    for p in json_array(map)? {
        let (k, v) = pair(&p)?;
        out.push(if part == 0 { k.clone() } else { v.clone() });
    }
    Ok(Value::Array(out).to_string())
}

/// The pairs an aggregate has gathered, by key, in the order the keys first came.
struct Gathered<T> {
    index: HashMap<String, usize>,
    entries: Vec<(Value, T)>,
    /// map_agg's: answer in Trino's hash table order, the keys hashed so, through this many
    /// states (hash_order.rs); None: in the order the keys came.
    hash_order: Option<(KeyHash, usize)>,
}

impl<T> Gathered<T> {
    fn new() -> Self {
        Self {
            index: HashMap::new(),
            entries: Vec::new(),
            hash_order: None,
        }
    }

    /// The entry of `key`, made by `new` when the key is new. (As an aggregate's state it is
    /// charged to the query's memory budget as it grows: aggregate_state.rs.)
    fn entry(&mut self, key: Value, new: impl FnOnce() -> T) -> &mut T {
        let i = match self.index.entry(canonical(&key)) {
            Entry::Occupied(o) => *o.get(),
            Entry::Vacant(v) => {
                v.insert(self.entries.len());
                self.entries.push((key, new()));
                self.entries.len() - 1
            }
        };
        &mut self.entries[i].1
    }
}

/// The aggregates' one argument: `json_array(key, value)` (map_agg, multimap_agg) or
/// `json_array(x)` (histogram); a NULL key leaves the row out, as Trino skips NULL input to
/// a non-nullable parameter.
fn step_input(ctx: &Context<'_>) -> rusqlite::Result<Option<(Value, Value)>> {
    let Some(t) = text(ctx.get_raw(0)) else {
        return Ok(None);
    };
    let mut items = json_array(&t)?.into_iter();
    let k = items.next().unwrap_or(Value::Null);
    let v = items.next().unwrap_or(Value::Null);
    Ok((!k.is_null()).then_some((k, v)))
}

/// Which aggregate a [`MapAggregate`] is.
#[derive(Clone, Copy)]
enum MapAggregate {
    /// map_agg (MapAggregationFunction): the first value of each key (KeyValuePairs.add).
    First,
    /// multimap_agg: every value of each key, in input order.
    All,
    /// histogram: how often each value occurs.
    Count,
    /// map_union: each pair of every map, the first value of each key (MapUnionAggregation
    /// keeps an arbitrary one).
    Union,
}

/// What an aggregate holds for one key: the values of the rows in the frame, in order, or
/// their count.
enum Held {
    Values(VecDeque<Value>),
    Count(i64),
}

impl Held {
    fn is_empty(&self) -> bool {
        match self {
            Held::Values(vs) => vs.is_empty(),
            Held::Count(n) => *n <= 0,
        }
    }
}

impl MapAggregate {
    /// The map, its entries in the order of `acc.hash_order` through `passes` states when
    /// set (None: as many as the lowering asked).
    fn output(self, acc: &Gathered<Held>, passes: Option<usize>) -> Option<String> {
        let mut held: Vec<&(Value, Held)> = acc
            .entries
            .iter()
            .filter(|(_, held)| !held.is_empty())
            .collect();
        if let Some((kind, asked)) = acc.hash_order {
            let keys: Vec<&Value> = held.iter().map(|(k, _)| k).collect();
            if let Some(order) = trino_order(kind, &keys, passes.unwrap_or(asked)) {
                held = order.into_iter().map(|i| held[i]).collect();
            }
        }
        let pairs: Vec<Value> = held
            .into_iter()
            .map(|(k, held)| {
                let v = match (self, held) {
                    (MapAggregate::First | MapAggregate::Union, Held::Values(vs)) => {
                        vs.front().cloned().unwrap_or(Value::Null)
                    }
                    (_, Held::Values(vs)) => Value::Array(vs.iter().cloned().collect()),
                    (_, Held::Count(n)) => Value::from(*n),
                };
                Value::Array(vec![k.clone(), v])
            })
            .collect();
        // No row with a key: NULL, as Trino's output for an empty state.
        (!pairs.is_empty()).then(|| Value::Array(pairs).to_string())
    }
}

impl Aggregate<Gathered<Held>, Option<String>> for MapAggregate {
    fn init(&self, _: &mut Context<'_>) -> rusqlite::Result<Gathered<Held>> {
        Ok(Gathered::new())
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Gathered<Held>) -> rusqlite::Result<()> {
        if let MapAggregate::Union = self {
            let Some(map) = text(ctx.get_raw(0)) else {
                return Ok(());
            };
            for p in json_array(&map)? {
                let (k, v) = pair(&p)?;
                if let Held::Values(vs) = acc.entry(k.clone(), || Held::Values(VecDeque::new()))
                    && vs.is_empty()
                {
                    vs.push_back(v.clone());
                }
            }
            return Ok(());
        }
        if acc.hash_order.is_none() && ctx.len() == 3 {
            let kind = text(ctx.get_raw(1)).and_then(|k| KeyHash::from_name(&k));
            let passes: i64 = ctx.get(2)?;
            acc.hash_order = kind.map(|k| (k, usize::try_from(passes).unwrap_or(1).min(2)));
        }
        let Some((k, v)) = step_input(ctx)? else {
            return Ok(());
        };
        let count = matches!(self, MapAggregate::Count);
        let held = acc.entry(k, || {
            if count {
                Held::Count(0)
            } else {
                Held::Values(VecDeque::new())
            }
        });
        match held {
            Held::Values(vs) => vs.push_back(v),
            Held::Count(n) => *n = n.saturating_add(1),
        }
        Ok(())
    }

    fn finalize(
        &self,
        _: &mut Context<'_>,
        acc: Option<Gathered<Held>>,
    ) -> rusqlite::Result<Option<String>> {
        Ok(acc.and_then(|a| self.output(&a, None)))
    }
}

/// As a window function (`map_agg(k, v) OVER (…)`): rows leave the frame in the order they
/// came, so the row leaving is the first one held for its key.
impl WindowAggregate<Gathered<Held>, Option<String>> for MapAggregate {
    /// A window's frame is added to one state (Trino's window aggregation).
    fn value(&self, acc: Option<&mut Gathered<Held>>) -> rusqlite::Result<Option<String>> {
        Ok(acc.and_then(|a| self.output(a, Some(1))))
    }

    fn inverse(&self, ctx: &mut Context<'_>, acc: &mut Gathered<Held>) -> rusqlite::Result<()> {
        let Some((k, _)) = step_input(ctx)? else {
            return Ok(());
        };
        if let Some(&i) = acc.index.get(&canonical(&k)) {
            match &mut acc.entries[i].1 {
                Held::Values(vs) => {
                    vs.pop_front();
                }
                Held::Count(n) => *n -= 1,
            }
        }
        Ok(())
    }
}

/// Registers the map functions' `qm_*` helpers.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_MAP_FROM_ARRAYS.name(), 3, FLAGS, |ctx| {
        let (Some(keys), Some(values)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        reserve(keys.len().saturating_add(values.len()))?;
        from_arrays(&keys, &values, &key_type(ctx, 2)).map(Some)
    })?;
    for (name, duplicates) in [
        (QM_MAP_FROM_ENTRIES.name(), Duplicates::MapKeys),
        (QM_MAP_CHECKED.name(), Duplicates::Keys),
    ] {
        define(conn, name, 2, FLAGS, move |ctx| {
            let Some(entries) = text(ctx.get_raw(0)) else {
                return Ok(None);
            };
            reserve(entries.len())?;
            from_entries(&entries, &key_type(ctx, 1), duplicates).map(Some)
        })?;
    }
    define(conn, QM_MAP_CONCAT.name(), -1, FLAGS, |ctx| {
        let mut maps = Vec::with_capacity(ctx.len());
        let mut bytes = 0usize;
        for i in 0..ctx.len() {
            let Some(m) = text(ctx.get_raw(i)) else {
                return Ok(None);
            };
            bytes = bytes.saturating_add(m.len());
            maps.push(m);
        }
        reserve(bytes)?;
        concat(&maps).map(Some)
    })?;
    define(conn, QM_MULTIMAP_FROM_ENTRIES.name(), 1, FLAGS, |ctx| {
        let Some(entries) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        reserve(entries.len())?;
        multimap_from_entries(&entries).map(Some)
    })?;
    define(conn, QM_MAP_ZIP.name(), 2, FLAGS, |ctx| {
        let (Some(a), Some(b)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        reserve(a.len().saturating_add(b.len()).saturating_mul(2))?;
        zip(&a, &b).map(Some)
    })?;
    define(conn, QM_MAP_PART.name(), 2, FLAGS, |ctx| {
        let Some(map) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let which: i64 = ctx.get(1)?;
        part(&map, usize::from(which != 0)).map(Some)
    })?;
    let aggregate = FunctionFlags::SQLITE_UTF8;
    define_window(conn, QM_MAP_AGG.name(), 1, aggregate, MapAggregate::First)?;
    // qm_map_agg(pair, key hash, states): in Trino's hash table order (hash_order.rs).
    define_window(conn, QM_MAP_AGG.name(), 3, aggregate, MapAggregate::First)?;
    define_window(
        conn,
        QM_MULTIMAP_AGG.name(),
        1,
        aggregate,
        MapAggregate::All,
    )?;
    define_window(conn, QM_HISTOGRAM.name(), 1, aggregate, MapAggregate::Count)?;
    define_aggregate(conn, QM_MAP_UNION.name(), 1, aggregate, MapAggregate::Union)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_agg_answers_in_trinos_hash_table_order() {
        let conn = Connection::open_in_memory().unwrap();
        crate::sqlite::register(&conn).unwrap();
        let keys = |sql: &str| -> String { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
        // One state: map_agg(nationkey, name ORDER BY nationkey DESC) of region 0 (Trino 476).
        assert_eq!(
            keys(
                "SELECT qm_map_agg(json_array(x, 1), 'long', 1) FROM (SELECT 16 AS x UNION ALL SELECT 15 UNION ALL SELECT 14 UNION ALL SELECT 5 UNION ALL SELECT 0)"
            ),
            "[[0,1],[16,1],[15,1],[5,1],[14,1]]"
        );
        // Without the order arguments, as the keys came.
        assert_eq!(
            keys("SELECT qm_map_agg(json_array(x, 1)) FROM (SELECT 16 AS x UNION ALL SELECT 0)"),
            "[[16,1],[0,1]]"
        );
    }

    fn message(e: rusqlite::Error) -> String {
        e.to_string()
    }

    #[test]
    fn constructors_check_keys_as_trino() {
        let int = TrinoType::Integer;
        assert_eq!(
            from_arrays("[1,3]", "[2,4]", &int).ok().as_deref(),
            Some("[[1,2],[3,4]]")
        );
        // TestMapOperators.testConstructor.
        let e = message(from_arrays("[1]", "[2,4]", &int).unwrap_err());
        assert!(
            e.contains("Key and value arrays must be the same length"),
            "{e}"
        );
        let e = message(from_arrays("[1,2,3,2]", "[4,5,6,7]", &int).unwrap_err());
        assert!(e.contains("Duplicate map keys (2) are not allowed"), "{e}");
        let arrays = TrinoType::Array(Box::new(TrinoType::Integer));
        let e = message(from_arrays("[[1,2],[1,3],[1,2]]", "[1,2,3]", &arrays).unwrap_err());
        assert!(
            e.contains("Duplicate map keys ([1, 2]) are not allowed"),
            "{e}"
        );
        let e = message(from_arrays("[1,null]", "[1,2]", &int).unwrap_err());
        assert!(e.contains("map key cannot be null"), "{e}");
        let e = message(from_entries("[[1,2],null]", &int, Duplicates::MapKeys).unwrap_err());
        assert!(e.contains("map entry cannot be null"), "{e}");
        let e = message(
            from_entries("[[1.0,2],[1,3]]", &TrinoType::Double, Duplicates::Keys).unwrap_err(),
        );
        assert!(e.contains("Duplicate keys (1.0) are not allowed"), "{e}");
        assert!(from_arrays("not json", "[]", &int).is_err());
    }

    #[test]
    fn concat_keeps_the_last_value_and_parts_split_pairs() {
        let maps = [
            "[[1,\"a\"],[2,\"b\"]]".to_string(),
            "[[2,\"c\"],[3,\"d\"]]".to_string(),
        ];
        assert_eq!(
            concat(&maps).ok().as_deref(),
            Some(r#"[[2,"c"],[3,"d"],[1,"a"]]"#)
        );
        assert_eq!(
            part(r#"[[1,"a"],[2,[3]]]"#, 0).ok().as_deref(),
            Some("[1,2]")
        );
        assert_eq!(
            part(r#"[[1,"a"],[2,[3]]]"#, 1).ok().as_deref(),
            Some(r#"["a",[3]]"#)
        );
        assert!(part("[1]", 0).is_err());
        assert_eq!(
            zip(r#"[["k1",1],["k2",2]]"#, r#"[["k2",4],["k3",9]]"#)
                .ok()
                .as_deref(),
            Some(r#"[["k1",1,null],["k2",2,4],["k3",null,9]]"#)
        );
        assert_eq!(
            multimap_from_entries(r#"[[1,"x"],[2,"y"],[1,"z"]]"#)
                .ok()
                .as_deref(),
            Some(r#"[[1,["x","z"]],[2,["y"]]]"#)
        );
        assert!(multimap_from_entries("[null]").is_err());
    }
}
