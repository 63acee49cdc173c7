//! Comparisons of rows, arrays and maps (TestRowOperators.testRowComparison,
//! TestArrayOperators.testArrayEquals, TestMapOperators.testEquals): their JSON texts decide
//! neither a NULL field or element (`row(1, NULL) = row(1, 2)` is NULL), nor maps' pair order,
//! nor the order of rows and arrays, so `qm_compare` (querymesh-functions/src/udf/rows.rs) does,
//! given their common super type. Rows order lexicographically when every field type is
//! orderable (maps are not); maps compare for equality only. Also `(a, b)`, a row.

use querymesh_functions::udf::QM_COMPARE;
use querymesh_values::coerce::super_type;
use querymesh_values::element::to_element;
use querymesh_values::sqlite_expr::{SqlExpr, builtin};
use querymesh_values::typed::Typed;
use sqlparser::ast::Expr;

use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::Analyzer;
use crate::sql::analyze::scope::ExprContext;
use crate::types::TrinoType;

fn orderable(t: &TrinoType) -> bool {
    t.is_orderable()
}

fn equatable(t: &TrinoType) -> bool {
    match t {
        TrinoType::Row(fields) => fields.iter().all(|(_, f)| equatable(f)),
        TrinoType::Array(e) => equatable(e),
        TrinoType::Map(k, v) => equatable(k) && equatable(v),
        TrinoType::Json => false,
        _ => true,
    }
}

/// `l sym r` when either side is a row, an array or a map; `None` leaves other types to the caller.
pub(in crate::sql) fn comparison(
    l: &Typed,
    r: &Typed,
    sym: &str,
    at: Option<Position>,
) -> Option<Result<Typed, TrinoError>> {
    let involved = |t: &TrinoType| {
        matches!(
            t,
            TrinoType::Row(_) | TrinoType::Map(..) | TrinoType::Array(_)
        )
    };
    if !(involved(&l.ty) || involved(&r.ty)) {
        return None;
    }
    let ordering = !matches!(sym, "=" | "<>");
    let target =
        super_type(&l.ty, &r.ty).filter(|t| if ordering { orderable(t) } else { equatable(t) });
    let Some(target) = target else {
        // Trino plans `a > b` as `b < a`, and names the operator it looked for.
        let (sym, a, b) = match sym {
            ">" => ("<", &r.ty, &l.ty),
            ">=" => ("<=", &r.ty, &l.ty),
            _ => (sym, &l.ty, &r.ty),
        };
        return Some(Err(error_at(
            ErrorName::TypeMismatch,
            at,
            format!("Cannot apply operator: {a} {sym} {b}"),
        )));
    };
    Some(Ok(Typed::new(
        QM_COMPARE.call([
            l.sql.clone(),
            r.sql.clone(),
            SqlExpr::text(target.to_string()),
            SqlExpr::text(sym),
        ]),
        TrinoType::Boolean,
    )))
}

impl Analyzer<'_> {
    /// `(e1, e2, …)`: Trino's grammar reads a parenthesized list of two or more expressions
    /// as a row constructor (SqlBase.g4 `rowConstructor`), as `ROW(e1, e2, …)`.
    pub(in crate::sql) fn tuple_row(
        &mut self,
        items: &[Expr],
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        let mut fields = Vec::with_capacity(items.len());
        let mut parts = Vec::with_capacity(items.len());
        for e in items {
            let t = self.expr(e, cx)?;
            parts.push(to_element(&t));
            fields.push((None, t.ty));
        }
        Ok(Typed::new(
            builtin::JSON_ARRAY.call(parts),
            TrinoType::Row(fields),
        ))
    }
}
