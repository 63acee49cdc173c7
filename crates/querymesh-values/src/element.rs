//! The element form of arrays, maps and rows (docs/complex-design.md): how a value is written
//! inside their JSON text and read back, and which types' texts are equal exactly when their
//! values are. Function families and the analysis both build on it.

use super::sqlite_expr::{FromItem, Select, SqlExpr, builtin, runtime};
use super::typed::Typed;
use crate::types::TrinoType;

/// The SQL of `t`'s value in element form, for `json_array(…)` / `json_group_array(…)`:
/// nested complex values as JSON (not quoted strings), varbinary as base64, the rest as is
/// (json stays a JSON string holding its text, so SQL NULL and JSON `null` stay distinct).
pub fn to_element(t: &Typed) -> SqlExpr {
    let sql = t.sql.clone();
    match &t.ty {
        ty if ty.is_container() => builtin::JSON.call([sql]),
        ty if *ty == TrinoType::Varbinary || ty.is_sketch() => runtime::QM_BASE64.call([sql]),
        // ±Infinity as the texts "Infinity" / "-Infinity" (as NaN is "NaN", udf::real): JSON
        // has no number for them, and SQLite writes one no JSON reader takes (9.0e+999).
        TrinoType::Double | TrinoType::Real => runtime::QM_FLOAT_ELEMENT.call([sql]),
        // An ipaddress's 16 bytes as hex digits, which order as the bytes do.
        TrinoType::IpAddress => builtin::HEX.call([sql]),
        // A long decimal's BLOB as its unscaled digits (decimal.rs "Representation").
        TrinoType::Decimal { precision, .. } if !super::decimal::is_short(*precision) => {
            runtime::QM_DEC_DIGITS.call([sql])
        }
        _ => sql,
    }
}

/// The SQL of an element read back (`json_extract`, `json_each.value`) as a top-level value
/// of `ty`: varbinary (base64 text → BLOB), ipaddress (hex → BLOB) and long decimals.
pub fn from_element(sql: impl Into<SqlExpr>, ty: &TrinoType) -> SqlExpr {
    let sql = sql.into();
    match ty {
        ty if *ty == TrinoType::Varbinary || ty.is_sketch() => runtime::QM_UNBASE64.call([sql]),
        TrinoType::IpAddress => builtin::UNHEX.call([sql]),
        TrinoType::Double | TrinoType::Real => runtime::QM_ELEMENT_FLOAT.call([sql]),
        TrinoType::Decimal { precision, .. } if !super::decimal::is_short(*precision) => {
            runtime::QM_DEC_OF_DIGITS.call([sql])
        }
        _ => sql,
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

/// `(SELECT CASE WHEN qm_v IS NULL THEN NULL ELSE <body over qm_v> END FROM (SELECT <sql> AS
/// qm_v))`: `sql` evaluated once however often the body reads it.
pub fn with_value(sql: impl Into<SqlExpr>, body: impl Into<SqlExpr>) -> SqlExpr {
    let value = SqlExpr::column(None, "qm_v");
    let once = Select {
        columns: vec![(sql.into(), Some("qm_v".to_string()))],
        ..Select::default()
    };
    Select::new(
        vec![SqlExpr::null_or(value, body.into())],
        vec![FromItem::Subquery {
            select: Box::new(once),
            alias: None,
        }],
    )
    .scalar()
}
