//! The evaluation of a parsed SQL/JSON path over a [`Json`] value: accessors in lax or
//! strict mode, filters and their predicates, item methods, arithmetic, and the PASSING
//! values of the evaluation under way.

use super::{Cmp, Expr, Index, Method, Mode, Path, Predicate, Start, Step, Subscript};
use crate::json::sqlite::Json;

impl Path {
    /// The items the path gives for `input`, or the structural (or type) error that stops it.
    pub fn evaluate(&self, input: &Json) -> Result<Vec<Json>, String> {
        self.evaluate_with(input, &[])
    }

    /// With the PASSING values, by name.
    pub fn evaluate_with(
        &self,
        input: &Json,
        vars: &[(String, Json)],
    ) -> Result<Vec<Json>, String> {
        VARS.with(|v| *v.borrow_mut() = vars.to_vec());
        let result = eval(&self.expr, input, input, self.mode);
        VARS.with(|v| v.borrow_mut().clear());
        result
    }
}

thread_local! {
    /// The PASSING values of the evaluation under way on this thread.
    static VARS: std::cell::RefCell<Vec<(String, Json)>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn kind(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

fn eval(expr: &Expr, root: &Json, current: &Json, mode: Mode) -> Result<Vec<Json>, String> {
    let mut items = match &expr.start {
        Start::Root => vec![root.clone()],
        Start::Current => vec![current.clone()],
        Start::Literal(j) => vec![j.clone()],
        Start::Var(name) => {
            let value = VARS.with(|v| {
                v.borrow()
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, j)| j.clone())
            });
            match value {
                Some(j) => vec![j],
                None => return Err(format!("no value passed for parameter {name}")),
            }
        }
        Start::Paren(inner) => eval(inner, root, current, mode)?,
        Start::Neg(inner) => {
            let mut out = Vec::new();
            for item in eval(inner, root, current, mode)? {
                for item in unwrapped(item, mode) {
                    out.push(arithmetic(&Json::Number("0".into()), '-', &item)?);
                }
            }
            out
        }
        Start::Arith(l, op, r) => {
            let one = |e: &Expr| -> Result<Json, String> {
                let items: Vec<Json> = eval(e, root, current, mode)?
                    .into_iter()
                    .flat_map(|i| unwrapped(i, mode))
                    .collect();
                match <[Json; 1]>::try_from(items) {
                    Ok([item]) => Ok(item),
                    Err(items) => Err(format!(
                        "arithmetic operand must be a single item, got {} items",
                        items.len()
                    )),
                }
            };
            vec![arithmetic(&one(l)?, *op, &one(r)?)?]
        }
    };
    for step in &expr.steps {
        let mut next = Vec::new();
        for item in items {
            apply(step, item, root, mode, &mut next)?;
        }
        items = next;
    }
    Ok(items)
}

/// Lax mode's unwrapping for an accessor that needs a non-array.
fn unwrapped(item: Json, mode: Mode) -> Vec<Json> {
    match (mode, item) {
        (Mode::Lax, Json::Array(items)) => items,
        (_, item) => vec![item],
    }
}

fn resolve(i: &Index, len: usize) -> Result<i64, String> {
    match i {
        Index::At(n) => Ok(*n),
        Index::Last(back) => Ok(len as i64 - 1 - back),
        Index::Var(name) => VARS.with(|v| match v.borrow().iter().find(|(n, _)| n == name) {
            Some((_, j)) => j
                .as_i64()
                .ok_or_else(|| format!("array subscript {name} is not an integer")),
            None => Err(format!("no value passed for parameter {name}")),
        }),
    }
}

fn apply(
    step: &Step,
    item: Json,
    root: &Json,
    mode: Mode,
    out: &mut Vec<Json>,
) -> Result<(), String> {
    match step {
        Step::Member(key) => {
            for item in unwrapped(item, mode) {
                match item {
                    Json::Object(members) => {
                        match members.into_iter().rev().find(|(k, _)| k == key) {
                            Some((_, v)) => out.push(v),
                            None if mode == Mode::Strict => {
                                return Err(format!("missing member '{key}' in JSON object"));
                            }
                            None => {}
                        }
                    }
                    other if mode == Mode::Strict => {
                        return Err(format!(
                            "invalid item type. Expected: OBJECT, actual: {}",
                            kind(&other).to_uppercase()
                        ));
                    }
                    _ => {}
                }
            }
        }
        Step::AnyMember => {
            for item in unwrapped(item, mode) {
                match item {
                    Json::Object(members) => out.extend(members.into_iter().map(|(_, v)| v)),
                    other if mode == Mode::Strict => {
                        return Err(format!(
                            "invalid item type. Expected: OBJECT, actual: {}",
                            kind(&other).to_uppercase()
                        ));
                    }
                    _ => {}
                }
            }
        }
        Step::Descendant(key) => descend(&item, key, out),
        Step::AnyElement => match item {
            Json::Array(items) => out.extend(items),
            other if mode == Mode::Lax => out.push(other),
            other => {
                return Err(format!(
                    "invalid item type. Expected: ARRAY, actual: {}",
                    kind(&other).to_uppercase()
                ));
            }
        },
        Step::Elements(subs) => {
            let items = match item {
                Json::Array(items) => items,
                other if mode == Mode::Lax => vec![other],
                other => {
                    return Err(format!(
                        "invalid item type. Expected: ARRAY, actual: {}",
                        kind(&other).to_uppercase()
                    ));
                }
            };
            let len = items.len();
            for sub in subs {
                let (from, to) = match sub {
                    Subscript::One(i) => (resolve(i, len)?, resolve(i, len)?),
                    Subscript::Range(a, b) => (resolve(a, len)?, resolve(b, len)?),
                };
                let in_bounds = |i: i64| i >= 0 && (i as usize) < len;
                if mode == Mode::Strict && (!in_bounds(from) || !in_bounds(to) || from > to) {
                    return Err(format!(
                        "invalid array subscript: [{from}, {to}] for array of size {len}"
                    ));
                }
                let lo = from.max(0);
                let hi = to.min(len as i64 - 1);
                let mut i = lo;
                while i <= hi {
                    if let Some(v) = items.get(i as usize) {
                        out.push(v.clone());
                    }
                    i += 1;
                }
            }
        }
        Step::Filter(p) => {
            for item in unwrapped(item, mode) {
                if test(p, &item, root, mode) == Some(true) {
                    out.push(item);
                }
            }
        }
        Step::Method(m) => method(*m, item, mode, out)?,
    }
    Ok(())
}

/// `a op b` of two number items as SQL computes them: bigints exactly (overflow and division
/// by zero are errors), any other number as a double.
fn arithmetic(a: &Json, op: char, b: &Json) -> Result<Json, String> {
    let (Json::Number(x), Json::Number(y)) = (a, b) else {
        return Err(format!(
            "invalid operand types for arithmetic: {}, {}",
            kind(a).to_uppercase(),
            kind(b).to_uppercase()
        ));
    };
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        let r = match op {
            '+' => x.checked_add(y),
            '-' => x.checked_sub(y),
            '*' => x.checked_mul(y),
            '/' if y == 0 => return Err("division by zero".into()),
            '/' => x.checked_div(y),
            '%' if y == 0 => return Err("division by zero".into()),
            _ => x.checked_rem(y),
        };
        return r
            .map(|r| Json::Number(r.to_string()))
            .ok_or_else(|| format!("bigint arithmetic overflow: {x} {op} {y}"));
    }
    let (x, y): (f64, f64) = (
        x.parse().map_err(|_| format!("invalid number {x}"))?,
        y.parse().map_err(|_| format!("invalid number {y}"))?,
    );
    let r = match op {
        '+' => x + y,
        '-' => x - y,
        '*' => x * y,
        '/' => x / y,
        _ => x % y,
    };
    Ok(number(r))
}

fn descend(item: &Json, key: &str, out: &mut Vec<Json>) {
    match item {
        Json::Object(members) => {
            for (k, v) in members {
                if k == key {
                    out.push(v.clone());
                }
            }
            for (_, v) in members {
                descend(v, key, out);
            }
        }
        Json::Array(items) => {
            for v in items {
                descend(v, key, out);
            }
        }
        _ => {}
    }
}

/// A number's text as a JSON number item.
fn number(x: f64) -> Json {
    Json::Number(crate::udf::java_double(x))
}

fn method(m: Method, item: Json, mode: Mode, out: &mut Vec<Json>) -> Result<(), String> {
    match m {
        Method::Size => out.push(match item {
            Json::Array(items) => Json::Number(items.len().to_string()),
            _ if mode == Mode::Lax => Json::Number("1".into()),
            other => {
                return Err(format!(
                    "invalid item type. Expected: ARRAY, actual: {}",
                    kind(&other).to_uppercase()
                ));
            }
        }),
        Method::Type => out.push(Json::String(kind(&item).into())),
        Method::Double | Method::Abs | Method::Floor | Method::Ceiling => {
            for item in unwrapped(item, mode) {
                let text = match &item {
                    Json::Number(t) => t.clone(),
                    Json::String(s) if m == Method::Double => s.trim().to_string(),
                    other => {
                        return Err(format!(
                            "invalid item type. Expected: NUMBER, actual: {}",
                            kind(other).to_uppercase()
                        ));
                    }
                };
                let x: f64 = text
                    .parse()
                    .map_err(|_| format!("cannot convert value {text} to double"))?;
                let integer = !text.contains(['.', 'e', 'E']);
                out.push(match m {
                    Method::Double => number(x),
                    _ if integer && m == Method::Abs => {
                        Json::Number(text.trim_start_matches('-').into())
                    }
                    _ if integer => Json::Number(text),
                    Method::Abs => number(x.abs()),
                    Method::Floor => number(x.floor()),
                    _ => number(x.ceil()),
                });
            }
        }
    }
    Ok(())
}

/// A predicate's truth: `None` is SQL/JSON's unknown (an error inside it).
fn test(p: &Predicate, current: &Json, root: &Json, mode: Mode) -> Option<bool> {
    match p {
        Predicate::And(a, b) => {
            match (test(a, current, root, mode), test(b, current, root, mode)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            }
        }
        Predicate::Or(a, b) => match (test(a, current, root, mode), test(b, current, root, mode)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        Predicate::Not(a) => test(a, current, root, mode).map(|b| !b),
        Predicate::Exists(e) => eval(e, root, current, mode).ok().map(|v| !v.is_empty()),
        Predicate::StartsWith(e, prefix) => {
            let items = eval(e, root, current, mode).ok()?;
            let prefix = match eval(prefix, root, current, mode).ok()?.as_slice() {
                [Json::String(s)] => s.clone(),
                _ => return None,
            };
            let mut unknown = false;
            for item in items.into_iter().flat_map(|i| unwrapped(i, mode)) {
                match item {
                    Json::String(s) if s.starts_with(&prefix) => return Some(true),
                    Json::String(_) => {}
                    _ => unknown = true,
                }
            }
            if unknown { None } else { Some(false) }
        }
        Predicate::Compare(l, cmp, r) => {
            let left: Vec<Json> = eval(l, root, current, mode)
                .ok()?
                .into_iter()
                .flat_map(|i| unwrapped(i, mode))
                .collect();
            let right: Vec<Json> = eval(r, root, current, mode)
                .ok()?
                .into_iter()
                .flat_map(|i| unwrapped(i, mode))
                .collect();
            let mut unknown = false;
            for a in &left {
                for b in &right {
                    match compare(a, *cmp, b) {
                        Some(true) => {
                            if mode == Mode::Lax || !unknown {
                                return Some(true);
                            }
                        }
                        Some(false) => {}
                        None => unknown = true,
                    }
                }
            }
            if unknown { None } else { Some(false) }
        }
    }
}

/// docs functions/json "Comparison rules": null equals only null; scalars of one kind
/// compare as in SQL; anything else is an error (unknown).
fn compare(a: &Json, cmp: Cmp, b: &Json) -> Option<bool> {
    use std::cmp::Ordering;
    let ordering: Ordering = match (a, b) {
        (Json::Null, Json::Null) => return Some(cmp == Cmp::Eq),
        (Json::Null, _) | (_, Json::Null) => return Some(cmp == Cmp::Ne),
        (Json::Number(_), Json::Number(_)) => a.as_f64()?.partial_cmp(&b.as_f64()?)?,
        (Json::String(x), Json::String(y)) => x.cmp(y),
        (Json::Bool(x), Json::Bool(y)) => x.cmp(y),
        _ => return None,
    };
    Some(match cmp {
        Cmp::Eq => ordering == Ordering::Equal,
        Cmp::Ne => ordering != Ordering::Equal,
        Cmp::Lt => ordering == Ordering::Less,
        Cmp::Gt => ordering == Ordering::Greater,
        Cmp::Le => ordering != Ordering::Greater,
        Cmp::Ge => ordering != Ordering::Less,
    })
}
