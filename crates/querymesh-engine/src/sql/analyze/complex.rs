//! Arrays, maps and rows (docs/complex-design.md): their representation in SQLite (JSON text, the
//! elements in *element form*), the constructors `ARRAY[…]` and `ROW(…)`, subscripts and
//! field access, and casts between complex types. Function families build on [`to_element`],
//! [`from_element`] and [`Analyzer::coerce_to`].

use querymesh_functions::binary::sqlite::{
    QM_UUID_TO_VARBINARY, QM_VARBINARY_TO_UUID, QM_VARCHAR_TO_UUID,
};
use querymesh_functions::udf::{QM_ARRAY_PATH, QM_FAIL, QM_MAP_PATH};
use querymesh_values::coerce::{coerced, super_type};
use querymesh_values::element::{from_element, to_element, with_value};
use querymesh_values::sqlite_expr::{Affinity, BinaryOp, FromItem, Select, SqlExpr, builtin};
use querymesh_values::typed::{Constant, Typed};
use sqlparser::ast::{
    AccessExpr, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, Ident, Spanned,
    Subscript,
};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::scope::ExprContext;
use crate::sql::analyze::{Analyzer, location};
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
    pub(in crate::sql) fn coerce_to(
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
            SqlExpr::cast(t.sql, Affinity::Real)
        } else {
            coerced(&t, target)
        };
        Ok(Typed::new(sql, target.clone()))
    }

    /// `ARRAY[e1, …]`: the elements coerced to their common super type (TestArrayOperators
    /// .testConstructor: `ARRAY[1, 2]` is `array(integer)`; `ARRAY[]` is `array(unknown)`).
    pub(in crate::sql) fn array_constructor(
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
            builtin::JSON_ARRAY.call(parts),
            TrinoType::Array(Box::new(element_ty)),
        ))
    }

    /// `ROW(e1, …)`: a row of unnamed fields (TestRowOperators: `ROW(1, 'a')` is
    /// `row(integer, varchar(1))`).
    pub(in crate::sql) fn row_constructor(
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
            builtin::JSON_ARRAY.call(parts),
            TrinoType::Row(fields),
        ))
    }

    /// `r.x.y` as an identifier chain: a column's name, or else a row column and its fields.
    pub(in crate::sql) fn compound_identifier(
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
        let sql = from_element(element_at(t.sql, i), &ty);
        Ok(Typed::new(sql, ty))
    }

    /// Each field of a row value, named as its type names it (None when it does not).
    pub(in crate::sql) fn row_fields(t: &Typed) -> Option<Vec<(Option<String>, Typed)>> {
        let TrinoType::Row(fields) = &t.ty else {
            return None;
        };
        let fields = fields
            .iter()
            .enumerate()
            .map(|(i, (name, ty))| {
                let sql = from_element(element_at(t.sql.clone(), i), ty);
                (name.clone(), Typed::new(sql, ty.clone()))
            })
            .collect();
        Some(fields)
    }

    /// `base[…]…` and `(base).x`: subscripts of arrays, maps and rows, and row fields.
    pub(in crate::sql) fn field_access(
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
                // `row.fields()`: a method call Trino 476's grammar has not, refused at `(`.
                AccessExpr::Dot(Expr::Function(f)) => {
                    let paren = location(&f.name).map(|p| {
                        let name = f.name.to_string().chars().count() as u64;
                        Position::new(p.line, p.column + name)
                    });
                    return Err(error_at(
                        ErrorName::SyntaxError,
                        paren.or(at),
                        "mismatched input '('",
                    ));
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
                let length = builtin::JSON_ARRAY_LENGTH.call([t.sql.clone()]);
                let path = QM_ARRAY_PATH.call([length, i.sql]);
                let sql = builtin::JSON_EXTRACT.call([t.sql, path]);
                Ok(Typed::new(from_element(sql, &element), *element))
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
                let key = builtin::JSON_ARRAY.call([to_element(&k)]);
                let path = QM_MAP_PATH.call([t.sql.clone(), key]);
                let sql = builtin::JSON_EXTRACT.call([t.sql, path]);
                Ok(Typed::new(from_element(sql, &value), *value))
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
                let sql = element_at(t.sql, n - 1);
                Ok(Typed::new(from_element(sql, ty), ty.clone()))
            }
            other => Err(error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Cannot use subscript on {other}"),
            )),
        }
    }

    /// CAST / TRY_CAST where either side is array, map, row, json, varbinary or uuid.
    pub(in crate::sql) fn complex_cast(
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
            (Unknown, _) => SqlExpr::Null,
            (Json, _) | (_, Json) => return self.json_cast(t, target, try_cast, at),
            (Array(a), Array(b)) => {
                let element = Typed::new(from_element(column("value"), a), (**a).clone());
                let element = self.cast(element, b, try_cast, at)?;
                let body = if try_cast {
                    // One element that fails makes the whole TRY_CAST NULL
                    // (`try_cast(ARRAY['1', 'x'] AS array(integer))`, TestArrayOperators).
                    let cast = Typed::new(column("qm_e"), (**b).clone());
                    let failed = SqlExpr::binary(
                        SqlExpr::is_null(column("qm_e")),
                        BinaryOp::And,
                        SqlExpr::is_not_null(column("qm_src")),
                    );
                    let result = SqlExpr::iff(
                        builtin::MAX.call([failed]),
                        SqlExpr::Null,
                        builtin::JSON_GROUP_ARRAY.call([to_element(&cast)]),
                    );
                    let elements = vec![
                        (element.sql, Some("qm_e".to_string())),
                        (column("value"), Some("qm_src".to_string())),
                    ];
                    Select::new(vec![result], vec![elements_in_order(elements)]).scalar()
                } else {
                    let result = builtin::JSON_GROUP_ARRAY.call([to_element(&element)]);
                    let elements = vec![(column("value"), None)];
                    Select::new(vec![result], vec![elements_in_order(elements)]).scalar()
                };
                with_value(t.sql, body)
            }
            (Map(ka, va), Map(kb, vb)) => {
                let entry_key = || element_at(column("value"), 0);
                let entry_value = || element_at(column("value"), 1);
                let k = Typed::new(from_element(entry_key(), ka), (**ka).clone());
                let v = Typed::new(from_element(entry_value(), va), (**va).clone());
                let (k, v) = (
                    self.cast(k, kb, try_cast, at)?,
                    self.cast(v, vb, try_cast, at)?,
                );
                // Keys that meet after the cast fail it (MapToMapCast: "duplicate keys"); in a
                // TRY_CAST, that or one entry that fails makes the whole cast NULL.
                let (cast_key, cast_value) = (
                    Typed::new(column("qm_k"), (**kb).clone()),
                    Typed::new(column("qm_x"), (**vb).clone()),
                );
                let entries = || SqlExpr::aggregate(builtin::COUNT, false, []);
                let (failed, duplicate) = if try_cast {
                    let lost = |cast: &str, source: &str| {
                        SqlExpr::binary(
                            SqlExpr::is_null(column(cast)),
                            BinaryOp::And,
                            SqlExpr::is_not_null(column(source)),
                        )
                    };
                    let either =
                        SqlExpr::binary(lost("qm_k", "qm_ks"), BinaryOp::Or, lost("qm_x", "qm_xs"));
                    (builtin::MAX.call([either]), SqlExpr::Null)
                } else {
                    let failure = QM_FAIL.call([
                        SqlExpr::text("INVALID_CAST_ARGUMENT"),
                        SqlExpr::text("duplicate keys"),
                        entries(),
                    ]);
                    (SqlExpr::Integer(0), failure)
                };
                let (ke, ve) = (to_element(&cast_key), to_element(&cast_value));
                let distinct_keys = SqlExpr::aggregate(builtin::COUNT, true, [ke.clone()]);
                let result = SqlExpr::case_when(
                    vec![
                        (failed, SqlExpr::Null),
                        (
                            SqlExpr::binary(distinct_keys, BinaryOp::Less, entries()),
                            duplicate,
                        ),
                    ],
                    Some(builtin::JSON_GROUP_ARRAY.call([builtin::JSON_ARRAY.call([ke, ve])])),
                );
                let entries = vec![
                    (k.sql, Some("qm_k".to_string())),
                    (entry_key(), Some("qm_ks".to_string())),
                    (v.sql, Some("qm_x".to_string())),
                    (entry_value(), Some("qm_xs".to_string())),
                ];
                let body = Select::new(vec![result], vec![elements_in_order(entries)]).scalar();
                with_value(t.sql, body)
            }
            (Row(a), Row(b)) if a.len() == b.len() => {
                let mut parts = Vec::with_capacity(a.len());
                for (i, ((_, fa), (_, fb))) in a.iter().zip(b).enumerate() {
                    let field =
                        Typed::new(from_element(element_at(column("qm_v"), i), fa), fa.clone());
                    parts.push(to_element(&self.cast(field, fb, try_cast, at)?));
                }
                with_value(t.sql, builtin::JSON_ARRAY.call(parts))
            }
            // UuidOperators: the canonical lowercase text (querymesh-functions/src/binary/sqlite).
            (Varchar(_) | Char(_), Uuid) => {
                QM_VARCHAR_TO_UUID.call([t.sql, SqlExpr::Integer(i64::from(try_cast))])
            }
            (Varbinary, Uuid) => {
                QM_VARBINARY_TO_UUID.call([t.sql, SqlExpr::Integer(i64::from(try_cast))])
            }
            (Uuid, Varbinary) => QM_UUID_TO_VARBINARY.call([t.sql]),
            // Only to an unbounded varchar: UuidOperators casts to VARCHAR, and Trino 476
            // answers `CAST(uuid AS varchar(36))` "Cannot cast uuid to varchar(36)".
            (Uuid, Varchar(None)) => t.sql,
            (Varchar(_) | Char(_), Varbinary) => SqlExpr::cast(t.sql, Affinity::Blob),
            _ => return Err(refuse(&from)),
        };
        Ok(Typed::new(sql, target.clone()))
    }
}

/// A column of the rows a cast reads (`json_each`'s, or its own aliases), by name.
fn column(name: &str) -> SqlExpr {
    SqlExpr::column(None, name)
}

/// Element `i` of a JSON array (a row's field, a map entry's key or value), as stored.
fn element_at(array: SqlExpr, i: impl std::fmt::Display) -> SqlExpr {
    let path = SqlExpr::text(format!("$[{i}]"));
    builtin::JSON_EXTRACT.call([array, path])
}

/// `(SELECT columns FROM json_each(qm_v) ORDER BY key)`: the elements of the value a cast
/// reads ([`with_value`]'s `qm_v`) in their order, as the rows of a derived table.
fn elements_in_order(columns: Vec<(SqlExpr, Option<String>)>) -> FromItem {
    let each = FromItem::Function {
        function: builtin::JSON_EACH,
        args: vec![column("qm_v")],
        alias: None,
    };
    let select = Select {
        columns,
        from: vec![each],
        ..Select::default()
    }
    .order_by(vec![(column("key"), false)]);
    FromItem::Subquery {
        select: Box::new(select),
        alias: None,
    }
}
