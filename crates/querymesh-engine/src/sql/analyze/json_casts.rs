//! CAST and TRY_CAST where one side is json (casts.rs and complex.rs send them here): a
//! container through the json functions of querymesh-functions/src/json, a scalar through its text.

use querymesh_functions::json::sqlite::{
    QM_JSON_FROM, QM_JSON_FROM_COMPLEX, QM_JSON_TO, QM_JSON_TO_COMPLEX,
};
use querymesh_functions::json::{json_castable, json_writable, scalar_kind, type_text};
use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::Typed;

use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::Analyzer;
use crate::types::TrinoType;

impl Analyzer<'_> {
    /// CAST / TRY_CAST where one side is json (complex.rs sends them here).
    pub fn json_cast(
        &mut self,
        t: Typed,
        target: &TrinoType,
        try_cast: bool,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        let container = t.ty.is_container() || target.is_container();
        if !container {
            return self.json_scalar_cast(t, target, try_cast, at);
        }
        let other = if t.ty == TrinoType::Json {
            target
        } else {
            &t.ty
        };
        let castable = if t.ty == TrinoType::Json {
            json_castable(other)
        } else {
            json_writable(other)
        };
        if !castable {
            return Err(error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Cannot cast {} to {target}", t.ty),
            ));
        }
        let sql = if t.ty == TrinoType::Json {
            QM_JSON_TO_COMPLEX.call([
                t.sql,
                SqlExpr::text(type_text(target)),
                SqlExpr::Integer(i64::from(try_cast)),
            ])
        } else {
            QM_JSON_FROM_COMPLEX.call([t.sql, SqlExpr::text(type_text(&t.ty))])
        };
        Ok(Typed::new(sql, target.clone()))
    }

    /// CAST / TRY_CAST to or from json between json and scalars.
    pub fn json_scalar_cast(
        &mut self,
        t: Typed,
        target: &TrinoType,
        try_cast: bool,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        let refuse = || {
            error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Cannot cast {} to {target}", t.ty),
            )
        };
        let sql = match (&t.ty, target) {
            (TrinoType::Json, TrinoType::Json) => t.sql.clone(),
            (TrinoType::Unknown, _) => SqlExpr::Null,
            // CAST(DATE '2024-03-01' AS JSON) is the JSON string "2024-03-01".
            (TrinoType::Date, TrinoType::Json) => {
                let text = self.cast(t.clone(), &TrinoType::Varchar(None), try_cast, at)?;
                QM_JSON_FROM.call([text.sql, SqlExpr::text("varchar")])
            }
            (from, TrinoType::Json) => {
                let kind = match from {
                    t if t.is_string() => "varchar".to_string(),
                    other => scalar_kind(other).ok_or_else(refuse)?,
                };
                QM_JSON_FROM.call([t.sql.clone(), SqlExpr::text(kind)])
            }
            (TrinoType::Json, to) => {
                let kind = scalar_kind(to).ok_or_else(refuse)?;
                QM_JSON_TO.call([
                    t.sql.clone(),
                    SqlExpr::text(kind),
                    SqlExpr::Integer(i64::from(try_cast)),
                ])
            }
            _ => return Err(refuse()),
        };
        Ok(Typed::new(sql, target.clone()))
    }
}
