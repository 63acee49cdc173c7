//! Conditional expressions written as calls — `if`, `coalesce`, `nullif`, `try` (special forms in
//! Trino, so `SHOW FUNCTIONS` leaves them out) — and greatest/least and typeof.

use querymesh_values::coerce::{coerced, comparable, super_type};
use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr, builtin};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing, scalar};
use crate::sqlite::TWINS;
use crate::udf::double_ops::QM_DOUBLE_EXTREME;

const fn special_form(
    name: &'static str,
    signatures: &'static [(&'static str, &'static str)],
    description: &'static str,
) -> FunctionDef {
    FunctionDef {
        name,
        kind: Kind::SpecialForm,
        signatures,
        typing: Typing::ByLowering,
        lower: Lower::Scalar(conditional),
        description,
        deterministic: true,
    }
}

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "greatest",
        &[("E...", "E")],
        Typing::ByLowering,
        Lower::Scalar(extreme),
        "Get the largest of the given values",
    ),
    scalar(
        "least",
        &[("E...", "E")],
        Typing::ByLowering,
        Lower::Scalar(extreme),
        "Get the smallest of the given values",
    ),
    special_form(
        "coalesce",
        &[("T...", "T")],
        "Returns the first non-null value",
    ),
    special_form(
        "nullif",
        &[("T, T", "T")],
        "Null if the two values are equal, else the first",
    ),
    FunctionDef {
        name: "try",
        kind: Kind::SpecialForm,
        signatures: &[("T", "T")],
        typing: Typing::ByLowering,
        lower: Lower::Scalar(try_lower),
        description: "NULL where evaluating the argument raises a data error",
        deterministic: true,
    },
    special_form(
        "if",
        &[("boolean, T", "T"), ("boolean, T, T", "T")],
        "The second value if the condition is true, else the third",
    ),
    scalar(
        "typeof",
        &[("T", "varchar")],
        Typing::ByLowering,
        Lower::Scalar(type_of),
        "Textual representation of expression type",
    ),
];

/// greatest, least and coalesce: the arguments' common super type.
fn extreme(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let Some(first) = c.args.first() else {
        return Ok(None);
    };
    let mut ty = first.ty.clone();
    for a in &c.args[1..] {
        match super_type(&ty, &a.ty) {
            Some(t) => ty = t,
            None => return Ok(None),
        }
    }
    let f = match c.name.as_str() {
        "greatest" => builtin::MAX,
        "least" => builtin::MIN,
        _ => builtin::COALESCE,
    };
    let extreme = f != builtin::COALESCE;
    // greatest(E) and least(E) take E:orderable: two maps are FUNCTION_NOT_FOUND in Trino 476.
    if extreme && !crate::aggregate::orderable(&ty) {
        return Ok(None);
    }
    let mut parts: Vec<SqlExpr> = c.args.iter().map(|a| coerced(a, &ty)).collect();
    if parts.len() == 1 {
        if extreme {
            return Ok(Some(first.clone()));
        }
        parts.push(SqlExpr::Null);
    }
    // greatest and least of doubles pass over NaN unless every argument is NaN
    // (`greatest(1.5E0, nan())` is 1.5 in Trino 476); SQLite's max orders the text 'NaN'
    // above every number.
    if extreme
        && c.args
            .iter()
            .zip(&parts)
            .any(|(a, sql)| crate::udf::double_ops::may_be_nan(&a.ty, sql))
    {
        let largest = SqlExpr::Integer(i64::from(f == builtin::MAX));
        return Ok(Some(Typed::new(
            QM_DOUBLE_EXTREME.call(std::iter::once(largest).chain(parts)),
            ty,
        )));
    }
    Ok(Some(Typed::new(f.call(parts), ty)))
}

fn conditional(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    match (c.name.as_str(), c.args.as_slice()) {
        ("coalesce", _) => extreme(ctx, c),
        ("nullif", [a, b]) if comparable(&a.ty, &b.ty) => Ok(Some(nullif(a, b))),
        ("if", [cond, rest @ ..])
            if matches!(cond.ty, TrinoType::Boolean | TrinoType::Unknown)
                && (1..=2).contains(&rest.len()) =>
        {
            let otherwise = rest.get(1).map_or(SqlExpr::Null, |e| e.sql.clone());
            let ty = match rest.get(1) {
                Some(e) => match super_type(&rest[0].ty, &e.ty) {
                    Some(t) => t,
                    None => return Ok(None),
                },
                None => rest[0].ty.clone(),
            };
            Ok(Some(Typed::new(
                SqlExpr::iff(cond.sql.clone(), rest[0].sql.clone(), otherwise),
                ty,
            )))
        }
        _ => Ok(None),
    }
}

/// `nullif(a, b)`: NULL when `a` equals `b` compared in their common type (`nullif(1, 1.0)`
/// is NULL), else `a` as it is; NaN equals nothing, so `nullif(nan(), nan())` is NaN
/// (docs functions/conditional "nullif"; NullIfExpression).
fn nullif(a: &Typed, b: &Typed) -> Typed {
    let common = super_type(&a.ty, &b.ty).unwrap_or(TrinoType::Unknown);
    let floating = matches!(common, TrinoType::Double | TrinoType::Real);
    if a.ty == b.ty && !floating {
        return Typed::new(
            builtin::NULLIF.call([a.sql.clone(), b.sql.clone()]),
            a.ty.clone(),
        );
    }
    let (l, r) = (coerced(a, &common), coerced(b, &common));
    let mut equal = SqlExpr::binary(l.clone(), BinaryOp::Equal, r);
    if floating {
        let not_nan = SqlExpr::binary(l, BinaryOp::NotEqual, SqlExpr::text("NaN"));
        equal = SqlExpr::binary(equal, BinaryOp::And, not_nan);
    }
    Typed::new(
        SqlExpr::iff(equal, SqlExpr::Null, a.sql.clone()),
        a.ty.clone(),
    )
}

/// `try(x)`: `x` with its functions' `try` twins (querymesh-functions/src/udf/define.rs), which answer NULL for the
/// errors Trino's TryFunction catches.
fn try_lower(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a] = c.args.as_slice() else {
        return Ok(None);
    };
    // A walk over the tree; text not yet a tree gets the old pass over its calls.
    Ok(Some(Typed::new(a.sql.clone().in_try(&TWINS), a.ty.clone())))
}

fn type_of(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a] = c.args.as_slice() else {
        return Ok(None);
    };
    // The argument stays in the SQL so an aggregate inside still makes SQLite aggregate
    // (`typeof(avg(x))` is one row, as in Trino).
    let name = SqlExpr::text(a.ty.display_name());
    Ok(Some(Typed::new(
        SqlExpr::iff(SqlExpr::is_null(a.sql.clone()), name.clone(), name),
        TrinoType::Varchar(None),
    )))
}

#[cfg(test)]
mod tests {
    use querymesh_values::sqlite_expr::{SqlExpr, builtin};
    use rusqlite::Connection;

    use crate::math::sqlite::{QM_FROM_BASE, QM_TO_BASE};
    use crate::sqlite::{TWINS, register};
    use crate::udf::register_twins;

    fn first(conn: &Connection, sql: &str) -> rusqlite::Result<Option<i64>> {
        conn.query_row(sql, [], |row| row.get(0))
    }

    /// `try()` over nested tree calls: each twinned call names its twin, SQLite's own keep
    /// their names, and the error raised inside answers NULL (the same call fails outside).
    #[test]
    fn try_over_nested_tree_calls_is_null_where_they_fail() {
        let failing = QM_FROM_BASE.call([SqlExpr::text("zz"), SqlExpr::Integer(2)]);
        let nested = builtin::LENGTH.call([QM_TO_BASE.call([failing, SqlExpr::Integer(10)])]);
        let caught = nested.clone().in_try(&TWINS);
        assert_eq!(
            caught.to_string(),
            "length(qm_to_base_in_try(qm_from_base_in_try('zz', 2), 10))"
        );
        let conn = Connection::open_in_memory().unwrap_or_else(|e| panic!("{e}"));
        register(&conn).unwrap_or_else(|e| panic!("{e}"));
        let caught = format!("SELECT {caught}");
        register_twins(&conn, &caught).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(first(&conn, &caught).ok(), Some(None));
        assert!(first(&conn, &format!("SELECT {nested}")).is_err());
        // An outer call failing on an inner call's value is caught too.
        let outer = QM_TO_BASE.call([
            QM_FROM_BASE.call([SqlExpr::text("11"), SqlExpr::Integer(2)]),
            SqlExpr::Integer(1),
        ]);
        let sql = format!("SELECT length({})", outer.in_try(&TWINS));
        assert_eq!(first(&conn, &sql).ok(), Some(None));
    }
}
