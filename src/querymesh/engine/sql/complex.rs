//! Arrays, maps and rows (docs/complex-design.md): their representation in SQLite (JSON text, the
//! elements in *element form*), the constructors `ARRAY[…]` and `ROW(…)`, subscripts and
//! field access, and casts between complex types. Function families build on [`to_element`],
//! [`from_element`] and [`Analyzer::coerce_to`].

use base64::Engine as _;
use rusqlite::Connection;
use rusqlite::types::{Value, ValueRef};
use sqlparser::ast::{
    AccessExpr, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, Ident, Subscript,
};

use super::analyze::{Analyzer, Constant, Typed, error_at, location, not_supported};
use super::coerce::super_type;
use super::operators::coerced;
use super::scope::ExprContext;
use super::udf::{FLAGS, fail};
use crate::querymesh::engine::error::{ErrorName, Position, TrinoError};
use crate::querymesh::engine::sql::udf::define;
use crate::querymesh::engine::types::TrinoType;

/// The SQL of `t`'s value in element form, for `json_array(…)` / `json_group_array(…)`:
/// nested complex values as JSON (not quoted strings), varbinary as base64, the rest as is
/// (json stays a JSON string holding its text, so SQL NULL and JSON `null` stay distinct).
pub fn to_element(t: &Typed) -> String {
    match &t.ty {
        ty if ty.is_container() => format!("json({})", t.sql),
        TrinoType::Varbinary => format!("qm_base64({})", t.sql),
        // A long decimal's BLOB as its unscaled digits (decimal.rs "Representation").
        TrinoType::Decimal { precision, .. } if !super::decimal::is_short(*precision) => {
            format!("qm_dec_digits({})", t.sql)
        }
        _ => t.sql.clone(),
    }
}

/// The SQL of an element read back (`json_extract`, `json_each.value`) as a top-level value
/// of `ty`: only varbinary needs converting (base64 text → BLOB).
pub fn from_element(sql: &str, ty: &TrinoType) -> String {
    match ty {
        TrinoType::Varbinary => format!("qm_unbase64({sql})"),
        TrinoType::Decimal { precision, .. } if !super::decimal::is_short(*precision) => {
            format!("qm_dec_of_digits({sql})")
        }
        _ => sql.to_string(),
    }
}

/// Whether values of `a` and `b` have the same JSON text exactly when they are equal, so that
/// `=` on the stored text is Trino's equality: the same type up to integer widths, varchar
/// lengths and unknown (NULL) parts. Maps are not (their pairs keep insertion order).
pub fn same_representation(a: &TrinoType, b: &TrinoType) -> bool {
    use TrinoType::*;
    match (a, b) {
        (Unknown, _) | (_, Unknown) => true,
        (x, y) if x.is_integral() && y.is_integral() => true,
        (Varchar(_), Varchar(_)) => true,
        (Array(x), Array(y)) => same_representation(x, y),
        (Row(x), Row(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((_, x), (_, y))| same_representation(x, y))
        }
        (Map(..), _) | (_, Map(..)) | (Json, _) | (_, Json) => false,
        (x, y) => x == y,
    }
}

/// The error `r.x` gives when the row has no field `x` (Trino: `Column 'x' cannot be resolved`).
fn no_field(at: Option<Position>, name: &str) -> TrinoError {
    error_at(
        ErrorName::ColumnNotFound,
        at,
        format!("Column '{name}' cannot be resolved"),
    )
}

/// `(SELECT CASE WHEN qm_v IS NULL THEN NULL ELSE <body over qm_v> END FROM (SELECT <sql> AS
/// qm_v))`: `sql` evaluated once however often the body reads it.
pub(super) fn with_value(sql: &str, body: &str) -> String {
    format!("(SELECT CASE WHEN qm_v IS NULL THEN NULL ELSE {body} END FROM (SELECT {sql} AS qm_v))")
}

impl Analyzer<'_> {
    /// `t` as a value of `target`, a type Trino coerces it to implicitly, in the representation
    /// of `target`: an integer becomes a double's REAL (`[1.0]`, not `[1]`), and complex
    /// values are converted element by element, so equal values keep equal JSON texts.
    pub(super) fn coerce_to(
        &mut self,
        t: Typed,
        target: &TrinoType,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        if &t.ty == target || t.ty == TrinoType::Unknown {
            return Ok(Typed {
                ty: target.clone(),
                ..t
            });
        }
        if t.ty.is_container() || target.is_container() {
            return self.complex_cast(t, target, false, at);
        }
        let floating = matches!(target, TrinoType::Double | TrinoType::Real);
        let sql = if floating && t.ty.is_integral() {
            format!("CAST({} AS REAL)", t.sql)
        } else {
            coerced(&t, target)
        };
        Ok(Typed::new(sql, target.clone()))
    }

    /// `ARRAY[e1, …]`: the elements coerced to their common super type (TestArrayOperators
    /// .testConstructor: `ARRAY[1, 2]` is `array(integer)`; `ARRAY[]` is `array(unknown)`).
    pub(super) fn array_constructor(
        &mut self,
        elements: &[Expr],
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        let mut typed = Vec::with_capacity(elements.len());
        let mut element_ty = TrinoType::Unknown;
        for e in elements {
            let t = self.expr(e, cx)?;
            element_ty = super_type(&element_ty, &t.ty).ok_or_else(|| {
                error_at(
                    ErrorName::TypeMismatch,
                    location(e),
                    format!("All ARRAY elements must be the same type: {element_ty}"),
                )
            })?;
            typed.push((t, location(e)));
        }
        let mut parts = Vec::with_capacity(typed.len());
        for (t, at) in typed {
            let t = self.coerce_to(t, &element_ty, at)?;
            parts.push(to_element(&t));
        }
        Ok(Typed::new(
            format!("json_array({})", parts.join(", ")),
            TrinoType::Array(Box::new(element_ty)),
        ))
    }

    /// `ROW(e1, …)`: a row of unnamed fields (TestRowOperators: `ROW(1, 'a')` is
    /// `row(integer, varchar(1))`).
    pub(super) fn row_constructor(
        &mut self,
        f: &Function,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        let at = location(&f.name);
        let FunctionArguments::List(list) = &f.args else {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input ')'. Expecting: <expression>",
            ));
        };
        if list.duplicate_treatment.is_some() || !list.clauses.is_empty() || f.filter.is_some() {
            return Err(not_supported(at, "This ROW constructor"));
        }
        let mut fields = Vec::with_capacity(list.args.len());
        let mut parts = Vec::with_capacity(list.args.len());
        for arg in &list.args {
            let FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) = arg else {
                return Err(not_supported(at, "This ROW field"));
            };
            let t = self.expr(e, cx)?;
            parts.push(to_element(&t));
            fields.push((None, t.ty));
        }
        Ok(Typed::new(
            format!("json_array({})", parts.join(", ")),
            TrinoType::Row(fields),
        ))
    }

    /// `r.x.y` as an identifier chain: a column's name, or else a row column and its fields.
    pub(super) fn compound_identifier(
        &mut self,
        parts: &[Ident],
        at: Option<Position>,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        let names: Vec<String> = parts.iter().map(|i| i.value.to_lowercase()).collect();
        // A lambda parameter shadows columns: `r.x` in `transform(rs, r -> r.x)` is a field.
        if let Some(mut t) = names.first().and_then(|n| self.lambda_param(n)) {
            for name in &names[1..] {
                t = self.field(t, name, at)?;
            }
            return Ok(t);
        }
        let error = match self.column(names.clone(), at, cx) {
            Ok(t) => return Ok(t),
            Err(e) => e,
        };
        if error.name != ErrorName::ColumnNotFound {
            return Err(error);
        }
        // The longest prefix that is a row-typed column; the rest are its fields.
        for split in (1..names.len()).rev() {
            let Ok(mut t) = self.column(names[..split].to_vec(), at, cx) else {
                continue;
            };
            // TestAnalyzer: `t.x.f1` on a column x that is no row is a TYPE_MISMATCH.
            if !matches!(t.ty, TrinoType::Row(_)) {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    at,
                    format!("Expression {} is not of type ROW", names[..split].join(".")),
                ));
            }
            for name in &names[split..] {
                t = self.field(t, name, at)?;
            }
            return Ok(t);
        }
        Err(error)
    }

    /// Field `name` of row `t` (unquoted names compare lowercased, as Trino canonicalizes).
    fn field(&mut self, t: Typed, name: &str, at: Option<Position>) -> Result<Typed, TrinoError> {
        let TrinoType::Row(fields) = &t.ty else {
            return Err(error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Expression of type {} is not of type ROW", t.ty),
            ));
        };
        let Some(i) = fields
            .iter()
            .position(|(n, _)| n.as_deref().is_some_and(|n| n.eq_ignore_ascii_case(name)))
        else {
            return Err(no_field(at, name));
        };
        let ty = fields[i].1.clone();
        let sql = from_element(&format!("json_extract({}, '$[{i}]')", t.sql), &ty);
        Ok(Typed::new(sql, ty))
    }

    /// `base[…]…` and `(base).x`: subscripts of arrays, maps and rows, and row fields.
    pub(super) fn field_access(
        &mut self,
        root: &Expr,
        chain: &[AccessExpr],
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        let at = location(root);
        let mut t = self.expr(root, cx)?;
        for access in chain {
            t = match access {
                AccessExpr::Dot(Expr::Identifier(name)) => {
                    self.field(t, &name.value.to_lowercase(), at)?
                }
                AccessExpr::Subscript(Subscript::Index { index }) => {
                    let i = self.expr(index, cx)?;
                    let index_at = self.index_start(location(index)).or(at);
                    self.subscript(t, i, index_at)?
                }
                _ => return Err(not_supported(at, "This subscript (slices, paths)")),
            };
        }
        Ok(t)
    }

    /// Where a subscript's index starts: the token after its `[` (sqlparser places `-1` at
    /// the digit, Trino at the sign).
    fn index_start(&self, inner: Option<Position>) -> Option<Position> {
        let inner = inner?;
        let bracket = self.tokens.iter().rposition(|t| {
            t.token == sqlparser::tokenizer::Token::LBracket && Position::from(t.span.start) < inner
        })?;
        self.tokens
            .get(bracket + 1)
            .map(|t| Position::from(t.span.start))
            .filter(|at| *at <= inner)
    }

    /// `a[i]` (1-based, ArraySubscriptOperator), `m[k]` (MapSubscriptOperator) and `r[n]`
    /// (a constant position, ExpressionAnalyzer.visitSubscriptExpression).
    fn subscript(&mut self, t: Typed, i: Typed, at: Option<Position>) -> Result<Typed, TrinoError> {
        match t.ty.clone() {
            TrinoType::Array(element) => {
                if !(i.ty.is_integral() || i.ty == TrinoType::Unknown) {
                    return Err(error_at(
                        ErrorName::TypeMismatch,
                        at,
                        format!("Cannot use {} for subscript of {}", i.ty, t.ty),
                    ));
                }
                let sql = format!(
                    "json_extract({0}, qm_array_path(json_array_length({0}), {1}))",
                    t.sql, i.sql
                );
                Ok(Typed::new(from_element(&sql, &element), *element))
            }
            TrinoType::Map(key, value) => {
                if !super_type(&key, &i.ty).is_some_and(|s| s == *key) {
                    return Err(error_at(
                        ErrorName::TypeMismatch,
                        at,
                        format!("Cannot use {} for subscript of {}", i.ty, t.ty),
                    ));
                }
                let k = self.coerce_to(i, &key, at)?;
                let sql = format!(
                    "json_extract({0}, qm_map_path({0}, json_array({1})))",
                    t.sql,
                    to_element(&k)
                );
                Ok(Typed::new(from_element(&sql, &value), *value))
            }
            TrinoType::Row(fields) => {
                // TestAnalyzer (subscript on Row): a constant integer, 1-based.
                let Some(Constant::Int(n)) = i.constant else {
                    return Err(error_at(
                        ErrorName::ExpressionNotConstant,
                        at,
                        "Subscript expression on ROW requires a constant index",
                    ));
                };
                if i.ty != TrinoType::Integer {
                    return Err(error_at(
                        ErrorName::TypeMismatch,
                        at,
                        format!(
                            "Subscript expression on ROW requires integer index, found {}",
                            i.ty
                        ),
                    ));
                }
                if n <= 0 {
                    return Err(error_at(
                        ErrorName::InvalidFunctionArgument,
                        at,
                        format!("Invalid subscript index: {n}. ROW indices start at 1"),
                    ));
                }
                let Some((_, ty)) = fields.get(n as usize - 1) else {
                    return Err(error_at(
                        ErrorName::InvalidFunctionArgument,
                        at,
                        format!(
                            "Subscript index out of bounds: {n}, max value is {}",
                            fields.len()
                        ),
                    ));
                };
                let sql = format!("json_extract({}, '$[{}]')", t.sql, n - 1);
                Ok(Typed::new(from_element(&sql, ty), ty.clone()))
            }
            other => Err(error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Cannot use subscript on {other}"),
            )),
        }
    }

    /// CAST / TRY_CAST where either side is array, map, row, json, varbinary or uuid.
    pub(super) fn complex_cast(
        &mut self,
        t: Typed,
        target: &TrinoType,
        try_cast: bool,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        use TrinoType::*;
        let refuse = |from: &TrinoType| {
            error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Cannot cast {from} to {target}"),
            )
        };
        let from = t.ty.clone();
        let sql = match (&from, target) {
            (a, b) if a == b => t.sql,
            (Unknown, _) => "NULL".into(),
            (Json, _) | (_, Json) => return self.json_cast(t, target, try_cast, at),
            (Array(a), Array(b)) => {
                let element = Typed::new(from_element("value", a), (**a).clone());
                let element = self.cast(element, b, try_cast, at)?;
                with_value(
                    &t.sql,
                    &format!(
                        "(SELECT json_group_array({}) FROM (SELECT value FROM json_each(qm_v) ORDER BY key))",
                        to_element(&element)
                    ),
                )
            }
            (Map(ka, va), Map(kb, vb)) => {
                let k = Typed::new(
                    from_element("json_extract(value, '$[0]')", ka),
                    (**ka).clone(),
                );
                let v = Typed::new(
                    from_element("json_extract(value, '$[1]')", va),
                    (**va).clone(),
                );
                let (k, v) = (
                    self.cast(k, kb, try_cast, at)?,
                    self.cast(v, vb, try_cast, at)?,
                );
                with_value(
                    &t.sql,
                    &format!(
                        "(SELECT json_group_array(json_array({}, {})) FROM (SELECT value FROM json_each(qm_v) ORDER BY key))",
                        to_element(&k),
                        to_element(&v)
                    ),
                )
            }
            (Row(a), Row(b)) if a.len() == b.len() => {
                let mut parts = Vec::with_capacity(a.len());
                for (i, ((_, fa), (_, fb))) in a.iter().zip(b).enumerate() {
                    let field = Typed::new(
                        from_element(&format!("json_extract(qm_v, '$[{i}]')"), fa),
                        fa.clone(),
                    );
                    parts.push(to_element(&self.cast(field, fb, try_cast, at)?));
                }
                with_value(&t.sql, &format!("json_array({})", parts.join(", ")))
            }
            // UuidOperators: the canonical lowercase text (udf/binary.rs).
            (Varchar(_) | Char(_), Uuid) => {
                format!("qm_varchar_to_uuid({}, {})", t.sql, i32::from(try_cast))
            }
            (Varbinary, Uuid) => {
                format!("qm_varbinary_to_uuid({}, {})", t.sql, i32::from(try_cast))
            }
            (Uuid, Varbinary) => format!("qm_uuid_to_varbinary({})", t.sql),
            (Uuid, Varchar(_)) => t.sql,
            (Varchar(_) | Char(_), Varbinary) => format!("CAST({} AS BLOB)", t.sql),
            _ => return Err(refuse(&from)),
        };
        Ok(Typed::new(sql, target.clone()))
    }
}

/// serde_json's value of an element as SQLite's json functions would give it.
pub fn sqlite_value(v: &serde_json::Value) -> Value {
    match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Integer(i64::from(*b)),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Integer(i),
            None => Value::Real(n.as_f64().unwrap_or(f64::NAN)),
        },
        serde_json::Value::String(s) => Value::Text(s.clone()),
        other => Value::Text(other.to_string()),
    }
}

/// Whether two keys in element form are the same key: numbers by value (`1` and `1.0`).
fn same_key(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    match (a, b) {
        (serde_json::Value::Number(x), serde_json::Value::Number(y)) => {
            match (x.as_i64(), y.as_i64()) {
                (Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        _ => a == b,
    }
}

/// Trino's `=` on arrays and rows (ArrayEqualOperator, RowEqualOperator): false when a pair
/// of elements differs (or the lengths do), else NULL when a pair holds a NULL, else true.
fn complex_equal(a: &serde_json::Value, b: &serde_json::Value) -> Option<bool> {
    use serde_json::Value::{Array, Bool, Null, Number};
    let number = |v: &serde_json::Value| match v {
        Bool(b) => Some(serde_json::Value::from(i64::from(*b))),
        Number(_) => Some(v.clone()),
        _ => None,
    };
    match (a, b) {
        (Null, _) | (_, Null) => None,
        (Array(x), Array(y)) => {
            if x.len() != y.len() {
                return Some(false);
            }
            let mut unknown = false;
            for (x, y) in x.iter().zip(y) {
                match complex_equal(x, y) {
                    Some(false) => return Some(false),
                    None => unknown = true,
                    Some(true) => {}
                }
            }
            (!unknown).then_some(true)
        }
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => Some(same_key(&x, &y)),
            _ => Some(a == b),
        },
    }
}

/// A key as Trino prints it in `Key not present in map: …`.
fn key_text(k: &serde_json::Value) -> String {
    match k {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn text_arg(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        ValueRef::Null => None,
    }
}

/// The `json_extract` path of element `index` (1-based) of an array of `length` elements,
/// with ArraySubscriptOperator's errors.
fn array_path(length: i64, index: i64) -> rusqlite::Result<String> {
    if index == 0 {
        return Err(fail(
            ErrorName::InvalidFunctionArgument,
            "SQL array indices start at 1",
        ));
    }
    if index < 0 {
        return Err(fail(
            ErrorName::InvalidFunctionArgument,
            format!("Array subscript is negative: {index}"),
        ));
    }
    if index > length {
        return Err(fail(
            ErrorName::InvalidFunctionArgument,
            format!(
                "Array subscript must be less than or equal to array length: {index} > {length}"
            ),
        ));
    }
    Ok(format!("$[{}]", index - 1))
}

/// The `json_extract` path of the value under `key` (a one-element JSON array) in `map`
/// (a JSON array of pairs), with MapSubscriptOperator's error.
fn map_path(map: &str, key: &str) -> rusqlite::Result<String> {
    let invalid = || fail(ErrorName::GenericInternalError, "A map value is not valid");
    let pairs: Vec<serde_json::Value> = serde_json::from_str(map).map_err(|_| invalid())?;
    let key: Vec<serde_json::Value> = serde_json::from_str(key).map_err(|_| invalid())?;
    let key = key.first().ok_or_else(invalid)?;
    pairs
        .iter()
        .position(|pair| pair.get(0).is_some_and(|k| same_key(k, key)))
        .map(|i| format!("$[{i}][1]"))
        .ok_or_else(|| {
            fail(
                ErrorName::InvalidFunctionArgument,
                format!("Key not present in map: {}", key_text(key)),
            )
        })
}

/// Registers the `qm_*` functions of complex values.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, "qm_array_path", 2, FLAGS, |ctx| {
        match (ctx.get::<Option<i64>>(0)?, ctx.get::<Option<i64>>(1)?) {
            (Some(length), Some(index)) => array_path(length, index).map(Some),
            _ => Ok(None),
        }
    })?;
    define(conn, "qm_map_path", 2, FLAGS, |ctx| {
        match (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) {
            (Some(map), Some(key)) => map_path(&map, &key).map(Some),
            _ => Ok(None),
        }
    })?;
    define(conn, "qm_complex_eq", 2, FLAGS, |ctx| {
        let (Some(a), Some(b)) = (text_arg(ctx.get_raw(0)), text_arg(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let parse = |t: &str| {
            serde_json::from_str::<serde_json::Value>(t).map_err(|_| {
                fail(
                    ErrorName::GenericInternalError,
                    "A complex value is not valid",
                )
            })
        };
        Ok(complex_equal(&parse(&a)?, &parse(&b)?))
    })?;
    define(conn, "qm_base64", 1, FLAGS, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Null => None,
            ValueRef::Blob(b) | ValueRef::Text(b) => {
                Some(base64::engine::general_purpose::STANDARD.encode(b))
            }
            other => text_arg(other).map(|t| base64::engine::general_purpose::STANDARD.encode(t)),
        })
    })?;
    define(conn, "qm_unbase64", 1, FLAGS, |ctx| {
        Ok(text_arg(ctx.get_raw(0)).and_then(|t| {
            base64::engine::general_purpose::STANDARD
                .decode(t.as_bytes())
                .ok()
        }))
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_paths_follow_array_subscript_operator() {
        // ArraySubscriptOperator.checkArrayIndex / checkIndex.
        assert_eq!(array_path(3, 1).ok(), Some("$[0]".to_string()));
        assert!(array_path(3, 4).is_err());
        assert!(array_path(3, 0).is_err());
        assert!(array_path(3, -1).is_err());
        assert_eq!(
            map_path(r#"[["a",1],[2.0,2]]"#, "[2]").ok(),
            Some("$[1][1]".to_string())
        );
        assert!(map_path(r#"[["a",1]]"#, r#"["b"]"#).is_err());
        assert!(map_path("not json", r#"["b"]"#).is_err());
        let eq = |a: &str, b: &str| {
            complex_equal(
                &serde_json::from_str(a).unwrap_or_default(),
                &serde_json::from_str(b).unwrap_or_default(),
            )
        };
        assert_eq!(eq("[1,null]", "[1,null]"), None);
        assert_eq!(eq("[1,null]", "[2,null]"), Some(false));
        assert_eq!(eq("[1,[2.0]]", "[1,[2]]"), Some(true));
        assert_eq!(eq("[1]", "[1,2]"), Some(false));
    }
}
