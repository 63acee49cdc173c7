//! Arrays, maps and rows (docs/complex-design.md): their representation in SQLite (JSON text, the
//! elements in *element form*), the constructors `ARRAY[…]` and `ROW(…)`, subscripts and
//! field access, and casts between complex types. Function families build on [`to_element`],
//! [`from_element`] and [`Analyzer::coerce_to`].

use querymesh_values::coerce::{coerced, super_type};
use querymesh_values::element::{from_element, to_element, with_value};
use querymesh_values::typed::{Constant, Typed};
use sqlparser::ast::{
    AccessExpr, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, Ident, Spanned,
    Subscript,
};

use super::analyze::{Analyzer, location};
use super::scope::ExprContext;
use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::types::TrinoType;

/// The error `r.x` gives when the row has no field `x`: Trino's INVALID_COLUMN_REFERENCE,
/// naming the field after an expression (`ROW(1, 2).x`: "Column reference 'x' is invalid")
/// and the whole name after a column (`r.x`: "Column reference 'r.x' is invalid"), as
/// Trino 476 answers TestAnalyzer's row field cases.
fn no_field(at: Option<Position>, reference: &str) -> TrinoError {
    error_at(
        ErrorName::InvalidColumnReference,
        at,
        format!("Column reference '{reference}' is invalid"),
    )
}

/// [`no_field`] for a name of columns and fields, named whole.
fn no_field_in(names: &[String], at: Option<Position>, e: TrinoError) -> TrinoError {
    if e.name == ErrorName::InvalidColumnReference {
        no_field(at, &names.join("."))
    } else {
        e
    }
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
            (coerced(&t, target)).to_string()
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
            format!(
                "json_array({})",
                querymesh_values::sqlite_expr::comma_list(&parts)
            ),
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
            format!(
                "json_array({})",
                querymesh_values::sqlite_expr::comma_list(&parts)
            ),
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
                t = self
                    .field(t, name, at)
                    .map_err(|e| no_field_in(&names, at, e))?;
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
                t = self
                    .field(t, name, at)
                    .map_err(|e| no_field_in(&names, at, e))?;
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
        let sql = from_element(format!("json_extract({}, '$[{i}]')", t.sql), &ty);
        Ok(Typed::new(sql, ty))
    }

    /// `base[…]…` and `(base).x`: subscripts of arrays, maps and rows, and row fields.
    pub(super) fn field_access(
        &mut self,
        root: &Expr,
        chain: &[AccessExpr],
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        // `CAST(…).x` starts at CAST, which the syntax tree keeps no place of.
        let at = match root {
            Expr::Cast { expr, .. } => ["CAST", "TRY_CAST"]
                .iter()
                .filter_map(|k| self.keyword_before(k, &expr.span()))
                .max(),
            _ => None,
        }
        .or_else(|| location(root));
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
                if try_cast {
                    // One element that fails makes the whole TRY_CAST NULL
                    // (`try_cast(ARRAY['1', 'x'] AS array(integer))`, TestArrayOperators).
                    let cast = Typed::new("qm_e", (**b).clone());
                    with_value(
                        t.sql.to_string(),
                        format!(
                            "(SELECT CASE WHEN max(qm_e IS NULL AND qm_src IS NOT NULL) THEN NULL \
                             ELSE json_group_array({}) END FROM (SELECT {} AS qm_e, value AS qm_src \
                             FROM json_each(qm_v) ORDER BY key))",
                            to_element(&cast),
                            element.sql
                        ),
                    )
                } else {
                    with_value(
                        t.sql.to_string(),
                        format!(
                            "(SELECT json_group_array({}) FROM (SELECT value FROM json_each(qm_v) ORDER BY key))",
                            to_element(&element)
                        ),
                    )
                }
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
                // Keys that meet after the cast fail it (MapToMapCast: "duplicate keys"); in a
                // TRY_CAST, that or one entry that fails makes the whole cast NULL.
                let (cast_key, cast_value) = (
                    Typed::new("qm_k", (**kb).clone()),
                    Typed::new("qm_x", (**vb).clone()),
                );
                let (failed, duplicate) = if try_cast {
                    (
                        "max((qm_k IS NULL AND qm_ks IS NOT NULL) OR (qm_x IS NULL AND qm_xs IS NOT NULL))",
                        "NULL",
                    )
                } else {
                    (
                        "0",
                        "qm_fail('INVALID_CAST_ARGUMENT', 'duplicate keys', count(*))",
                    )
                };
                with_value(
                    t.sql.to_string(),
                    format!(
                        "(SELECT CASE WHEN {failed} THEN NULL \
                         WHEN count(DISTINCT {ke}) < count(*) THEN {duplicate} \
                         ELSE json_group_array(json_array({ke}, {ve})) END \
                         FROM (SELECT {k} AS qm_k, json_extract(value, '$[0]') AS qm_ks, \
                         {v} AS qm_x, json_extract(value, '$[1]') AS qm_xs \
                         FROM json_each(qm_v) ORDER BY key))",
                        ke = to_element(&cast_key),
                        ve = to_element(&cast_value),
                        k = k.sql,
                        v = v.sql,
                    ),
                )
            }
            (Row(a), Row(b)) if a.len() == b.len() => {
                let mut parts = Vec::with_capacity(a.len());
                for (i, ((_, fa), (_, fb))) in a.iter().zip(b).enumerate() {
                    let field = Typed::new(
                        from_element(format!("json_extract(qm_v, '$[{i}]')"), fa),
                        fa.clone(),
                    );
                    parts.push(to_element(&self.cast(field, fb, try_cast, at)?));
                }
                with_value(
                    t.sql.to_string(),
                    format!(
                        "json_array({})",
                        querymesh_values::sqlite_expr::comma_list(&parts)
                    ),
                )
            }
            // UuidOperators: the canonical lowercase text (querymesh-functions/src/binary/sqlite).
            (Varchar(_) | Char(_), Uuid) => {
                format!("qm_varchar_to_uuid({}, {})", t.sql, i32::from(try_cast)).into()
            }
            (Varbinary, Uuid) => {
                format!("qm_varbinary_to_uuid({}, {})", t.sql, i32::from(try_cast)).into()
            }
            (Uuid, Varbinary) => format!("qm_uuid_to_varbinary({})", t.sql).into(),
            // Only to an unbounded varchar: UuidOperators casts to VARCHAR, and Trino 476
            // answers `CAST(uuid AS varchar(36))` "Cannot cast uuid to varchar(36)".
            (Uuid, Varchar(None)) => t.sql,
            (Varchar(_) | Char(_), Varbinary) => format!("CAST({} AS BLOB)", t.sql).into(),
            _ => return Err(refuse(&from)),
        };
        Ok(Typed::new(sql, target.clone()))
    }
}
