//! The predicate forms of an expression: IS [NOT] DISTINCT FROM, IN (a list or a subquery),
//! BETWEEN and LIKE (with Trino's checks of the escape), each typed boolean, its operands
//! coerced to their common type as Trino compares them.

use querymesh_functions::array::sqlite::QM_NOT_DISTINCT;
use querymesh_functions::string::sqlite::QM_LIKE_CHECK;
use querymesh_functions::udf::QM_COMPARE;
use querymesh_functions::udf::double_ops::{self, QM_NAN_APART};
use querymesh_values::coerce::{coerced, comparable, super_type};
use querymesh_values::element::to_element;
use querymesh_values::sqlite_expr::{BinaryOp, FromItem, Select, SqlExpr, builtin};
use querymesh_values::typed::Typed;
use sqlparser::ast::{Expr, InTarget};
use sqlparser::keywords::Keyword;

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::location::predicate_keyword_after;
use crate::sql::analyze::operators::balanced;
use crate::sql::analyze::scope::ExprContext;
use crate::sql::analyze::zoned::compare_key;
use crate::sql::analyze::{Analyzer, location};
use crate::types::TrinoType;

impl Analyzer<'_> {
    /// IS [NOT] DISTINCT FROM, IN, BETWEEN and LIKE.
    pub(in crate::sql) fn predicate(
        &mut self,
        e: &Expr,
        at: Option<Position>,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        match e {
            Expr::IsDistinctFrom(l, r) | Expr::IsNotDistinctFrom(l, r) => {
                let (lt, rt) = (self.expr(l, cx)?, self.expr(r, cx)?);
                let (lt, rt) = self.zoned_operands(lt, rt);
                let distinct = matches!(e, Expr::IsDistinctFrom(..));
                if !comparable(&lt.ty, &rt.ty) {
                    // Maps (and values holding them) are distinct pair by pair, whatever
                    // their order (TestMapOperators.testDistinctFrom).
                    let Some(target) = complex_equality_type(&lt.ty, &rt.ty) else {
                        // At IS, in Trino's words (ExpressionAnalyzer.visitIsDistinctFrom…).
                        let is = predicate_keyword_after(self.tokens, l, Keyword::IS);
                        return Err(error_at(
                            ErrorName::TypeMismatch,
                            is.or(at),
                            format!("Cannot check if {} is identical to {}", lt.ty, rt.ty),
                        ));
                    };
                    let identical = QM_NOT_DISTINCT.call([
                        builtin::JSON_ARRAY.call([to_element(&lt)]),
                        builtin::JSON_ARRAY.call([to_element(&rt)]),
                        SqlExpr::text(target.to_string()),
                    ]);
                    let sql = if distinct {
                        SqlExpr::negated(identical)
                    } else {
                        identical
                    };
                    return Ok(Typed::new(sql, TrinoType::Boolean));
                }
                let op = if distinct {
                    BinaryOp::IsNot
                } else {
                    BinaryOp::Is
                };
                let target = super_type(&lt.ty, &rt.ty).unwrap_or(TrinoType::Unknown);
                Ok(Typed::new(
                    SqlExpr::binary(
                        compare_key(coerced(&lt, &target), &target),
                        op,
                        compare_key(coerced(&rt, &target), &target),
                    ),
                    TrinoType::Boolean,
                ))
            }
            Expr::In {
                expr,
                target: InTarget::Subquery(q),
                negated,
                ..
            } => self.in_subquery(expr, q, *negated, cx),
            Expr::In {
                expr,
                target,
                negated,
                ..
            } => {
                let t = self.expr(expr, cx)?;
                match target {
                    InTarget::List(list) => {
                        let mut typed = Vec::new();
                        let mut target = t.ty.clone();
                        let mut complex = false;
                        for item in list {
                            let it = self.expr(item, cx)?;
                            if !comparable(&t.ty, &it.ty) {
                                // Maps compare for equality by their pairs (rows.rs).
                                if complex_equality_type(&t.ty, &it.ty).is_some() {
                                    complex = true;
                                    target = super_type(&target, &it.ty).unwrap_or(target);
                                    typed.push(it);
                                    continue;
                                }
                                // Trino types every item first, then names the types.
                                let mut types = vec![t.ty.clone()];
                                for typed in typed.iter().chain([&it]) {
                                    if !types.contains(&typed.ty) {
                                        types.push(typed.ty.clone());
                                    }
                                }
                                self.item_types_after(list, item, cx, &mut types)?;
                                let listed: Vec<String> =
                                    types.iter().map(ToString::to_string).collect();
                                return Err(error_at(
                                    ErrorName::TypeMismatch,
                                    location(item),
                                    format!(
                                        "IN value and list items must be the same type or \
                                         coercible to a common type. Cannot find common type \
                                         between {} and {}, all types (without duplicates): [{}]",
                                        t.ty,
                                        it.ty,
                                        listed.join(", ")
                                    ),
                                ));
                            }
                            target = super_type(&target, &it.ty).unwrap_or(target);
                            typed.push(it);
                        }
                        for side in std::iter::once(expr.as_ref()).chain(list) {
                            self.parameter_coerced(side, &target);
                        }
                        if complex {
                            // x IN (a, b) is x = a OR x = b, NULLs as three-valued logic.
                            let equalities: Vec<SqlExpr> = typed
                                .iter()
                                .map(|it| {
                                    QM_COMPARE.call([
                                        t.sql.clone(),
                                        it.sql.clone(),
                                        SqlExpr::text(target.to_string()),
                                        SqlExpr::text("="),
                                    ])
                                })
                                .collect();
                            let any = balanced(BinaryOp::Or, &equalities);
                            let sql = if *negated { SqlExpr::negated(any) } else { any };
                            return Ok(Typed::new(sql, TrinoType::Boolean));
                        }
                        let items: Vec<SqlExpr> = typed
                            .iter()
                            .map(|it| compare_key(coerced(it, &target), &target))
                            .collect();
                        let mut value = compare_key(coerced(&t, &target), &target);
                        // NaN equals nothing, itself included (`nan() IN (nan())` is false).
                        if double_ops::may_be_nan(&t.ty, &value) {
                            value = QM_NAN_APART.call([value]);
                        }
                        Ok(Typed::new(
                            SqlExpr::InList {
                                operand: Box::new(value),
                                list: items,
                                negated: *negated,
                            },
                            TrinoType::Boolean,
                        ))
                    }
                    _ => Err(not_supported(at, "IN UNNEST")),
                }
            }
            Expr::Between {
                expr,
                negated,
                low,
                high,
            } => {
                let (t, lo, hi) = (
                    self.expr(expr, cx)?,
                    self.expr(low, cx)?,
                    self.expr(high, cx)?,
                );
                if [&lo, &hi].iter().any(|bound| !comparable(&t.ty, &bound.ty)) {
                    // At [NOT] BETWEEN, naming all three (ExpressionAnalyzer.visitBetweenPredicate).
                    let between = predicate_keyword_after(self.tokens, expr, Keyword::BETWEEN);
                    return Err(error_at(
                        ErrorName::TypeMismatch,
                        between.or(at),
                        format!(
                            "Cannot check if {} is BETWEEN {} and {}",
                            t.ty, lo.ty, hi.ty
                        ),
                    ));
                }
                let target = [&lo.ty, &hi.ty]
                    .iter()
                    .fold(t.ty.clone(), |acc, ty| super_type(&acc, ty).unwrap_or(acc));
                // BETWEEN orders its operands: a Bing tile, a color or a map can't be one.
                if !target.is_orderable() {
                    return Err(error_at(
                        ErrorName::TypeMismatch,
                        at,
                        format!(
                            "Cannot check if {} is BETWEEN {} and {}",
                            t.ty, lo.ty, hi.ty
                        ),
                    ));
                }
                for side in [expr, low, high] {
                    self.parameter_coerced(side, &target);
                }
                let key = |t: &Typed| Box::new(compare_key(coerced(t, &target), &target));
                Ok(Typed::new(
                    SqlExpr::Between {
                        operand: key(&t),
                        low: key(&lo),
                        high: key(&hi),
                        negated: *negated,
                    },
                    TrinoType::Boolean,
                ))
            }
            Expr::Like {
                negated,
                any,
                expr,
                pattern,
                escape_char,
            } => {
                if *any {
                    return Err(error_at(
                        ErrorName::SyntaxError,
                        at,
                        "mismatched input 'ANY'",
                    ));
                }
                let (t, p) = (self.expr(expr, cx)?, self.expr(pattern, cx)?);
                // Trino coerces a LIKE's value and pattern of another type to varchar.
                for side in [expr, pattern] {
                    self.parameter_coerced(side, &TrinoType::Varchar(None));
                }
                // Trino's words for each side, at that side (ExpressionAnalyzer.visitLikePredicate).
                let sides = [
                    (&t, location(&**expr), "Left side of LIKE expression"),
                    (&p, location(&**pattern), "Pattern for LIKE expression"),
                ];
                for (x, place, what) in sides {
                    if !(x.ty.is_string() || x.ty == TrinoType::Unknown) {
                        return Err(error_at(
                            ErrorName::TypeMismatch,
                            place.or(at),
                            format!("{what} must evaluate to a varchar (actual: {})", x.ty),
                        ));
                    }
                }
                let escape = match escape_char {
                    Some(esc) => {
                        let e = self.expr(esc, cx)?;
                        self.parameter_coerced(esc, &TrinoType::Varchar(None));
                        if !(e.ty.is_string() || e.ty == TrinoType::Unknown) {
                            return Err(error_at(
                                ErrorName::TypeMismatch,
                                at,
                                format!("Cannot apply operator: LIKE escape {}", e.ty),
                            ));
                        }
                        // Trino's LikePattern refuses an escape that is not one character
                        // or that escapes something other than %, _ or itself; SQLite
                        // would fail differently or take it. Checked once per row.
                        let checked = QM_LIKE_CHECK.call([p.sql.clone(), e.sql.clone()]);
                        Some(SqlExpr::case_when(vec![(checked, e.sql)], None))
                    }
                    None => None,
                };
                // A char matches as the varchar it casts to, padded: `CAST('ab' AS char(4))
                // LIKE 'ab'` is false (TestCharOperators / LikeFunctions on char).
                let value = match t.ty {
                    TrinoType::Char(n) => {
                        querymesh_values::coerce::char_as_varchar(t.sql.clone(), n)
                    }
                    _ => t.sql.clone(),
                };
                // `x LIKE p ESCAPE e` is SQLite's like(p, x, e), the function the operator
                // calls.
                let matched = match escape {
                    Some(escape) => builtin::LIKE.call([p.sql.clone(), value, escape]),
                    None => SqlExpr::binary(value, BinaryOp::Like, p.sql.clone()),
                };
                let sql = if *negated {
                    SqlExpr::negated(matched)
                } else {
                    matched
                };
                Ok(Typed::new(sql, TrinoType::Boolean))
            }
            _ => Err(not_supported(at, "This expression")),
        }
    }

    /// `x IN (subquery)`, and `(a, b) IN (subquery)` against as many columns: each value and
    /// its column compared as their common type (SQLite compares row values itself).
    fn in_subquery(
        &mut self,
        expr: &Expr,
        q: &sqlparser::ast::Query,
        negated: bool,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        let items: Vec<&Expr> = match expr {
            Expr::Tuple(items) if items.len() > 1 => items.iter().collect(),
            _ => vec![expr],
        };
        let mut values = Vec::new();
        for item in &items {
            values.push(self.expr(item, cx)?);
        }
        let block = self.query(q, Some(cx.scope))?;
        let row = |types: Vec<&TrinoType>| {
            let names: Vec<String> = types.iter().map(|t| t.to_string()).collect();
            format!("row({})", names.join(", "))
        };
        let same_shape = block.columns.len() == values.len()
            && values
                .iter()
                .zip(&block.columns)
                .all(|(v, (_, ty))| comparable(&v.ty, ty));
        if !same_shape {
            // StatementAnalyzer's InPredicate check; a single value is a row of one.
            return Err(error_at(
                ErrorName::TypeMismatch,
                location(q),
                format!(
                    "Value expression and result of subquery must be of the same type: {} vs {}",
                    row(values.iter().map(|v| &v.ty).collect()),
                    row(block.columns.iter().map(|(_, t)| t).collect())
                ),
            ));
        }
        let mut left = Vec::new();
        let mut right = Vec::new();
        for (i, (v, (_, ty))) in values.iter().zip(&block.columns).enumerate() {
            let target = super_type(&v.ty, ty).unwrap_or(TrinoType::Unknown);
            let column = Typed::new(SqlExpr::column(None, format!("c{}", i + 1)), ty.clone());
            left.push(compare_key(coerced(v, &target), &target));
            right.push(compare_key(coerced(&column, &target), &target));
        }
        let operand = match <[SqlExpr; 1]>::try_from(left) {
            Ok([one]) => one,
            Err(several) => SqlExpr::Row(several),
        };
        let keys = Select::new(right, vec![FromItem::query(block.sql, None)]);
        Ok(Typed::new(
            SqlExpr::InSubquery {
                operand: Box::new(operand),
                subquery: Box::new(keys),
                negated,
            },
            TrinoType::Boolean,
        ))
    }
}

/// The common type of two complex values Trino compares for equality though their JSON texts
/// do not decide it (maps: their pairs keep insertion order); `None` when there is none, or
/// a json part makes them incomparable.
fn complex_equality_type(l: &TrinoType, r: &TrinoType) -> Option<TrinoType> {
    fn has_json(t: &TrinoType) -> bool {
        match t {
            TrinoType::Json => true,
            TrinoType::Array(e) => has_json(e),
            TrinoType::Map(k, v) => has_json(k) || has_json(v),
            TrinoType::Row(fields) => fields.iter().any(|(_, f)| has_json(f)),
            _ => false,
        }
    }
    super_type(l, r).filter(|t| t.is_container() && !has_json(t))
}

impl Analyzer<'_> {
    /// The types of an IN list's items after `failed` (analysed for the error's list of types,
    /// as Trino types them all before comparing), added to `types` once each.
    fn item_types_after(
        &mut self,
        list: &[Expr],
        failed: &Expr,
        cx: &ExprContext<'_>,
        types: &mut Vec<TrinoType>,
    ) -> Result<(), TrinoError> {
        let rest = list
            .iter()
            .skip_while(|item| !std::ptr::eq(*item, failed))
            .skip(1);
        for item in rest {
            let ty = self.expr(item, cx)?.ty;
            if !types.contains(&ty) {
                types.push(ty);
            }
        }
        Ok(())
    }
}
