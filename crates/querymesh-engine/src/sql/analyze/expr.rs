//! Expressions: typed as Trino types them and translated to SQLite. Comparisons and
//! arithmetic follow Trino's coercions (no string/number mixing); division truncates and
//! fails on zero like Trino; dates are `YYYY-MM-DD` text.
//! The predicates (IS DISTINCT FROM, IN, BETWEEN, LIKE) are in predicates.rs.

use querymesh_functions::math::rounding;
use querymesh_functions::string::sqlite::QM_TRIM;
use querymesh_functions::udf::{QM_FAIL, QM_INT_NEG};
use querymesh_values::coerce::{coerced, comparable, super_type};
use querymesh_values::sqlite_expr::{BinaryOp, FromItem, Select, SqlExpr, UnaryOp, builtin};
use querymesh_values::typed::{Constant, Typed};
use sqlparser::ast::{
    CastKind, DateTimeField, Expr, Spanned, TrimWhereField, UnaryOperator, Value,
};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::literal::{interval, parse_type};
use crate::sql::analyze::scope::{Clause, ExprContext};
use crate::sql::analyze::{Analyzer, location};
use crate::types::TrinoType;

pub(in crate::sql) fn mismatch(
    at: Option<Position>,
    op: &str,
    l: &TrinoType,
    r: &TrinoType,
) -> TrinoError {
    // Trino resolves `<>` as `=`, `>` as `<` and `>=` as `<=` (its operators), and names those.
    let op = match op {
        "<>" | "!=" => "=",
        ">" => "<",
        ">=" => "<=",
        other => other,
    };
    error_at(
        ErrorName::TypeMismatch,
        at,
        format!("Cannot apply operator: {l} {op} {r}"),
    )
}

impl Analyzer<'_> {
    pub fn expr(&mut self, e: &Expr, cx: &ExprContext<'_>) -> Result<Typed, TrinoError> {
        self.stack.check()?;
        let mark = self.loose.len();
        let t = self.expr_inner(e, cx)?;
        // A grouping key covers the columns inside it (GROUP BY a + b, SELECT a + b).
        if cx
            .group_keys
            .is_some_and(|keys| keys.contains(&t.sql.to_string()))
        {
            self.loose.truncate(mark);
            // A key the current grouping set leaves out is NULL outside aggregates.
            if !cx.in_aggregate
                && self
                    .grouping
                    .as_ref()
                    .is_some_and(|g| g.nulls(&t.sql.to_string()))
            {
                return Ok(Typed::new(SqlExpr::Null, t.ty));
            }
        }
        Ok(t)
    }

    /// Where the last `keyword` before `span` starts: Trino reports some errors at a keyword
    /// the syntax tree drops.
    pub(in crate::sql) fn keyword_before(
        &self,
        keyword: &str,
        span: &sqlparser::tokenizer::Span,
    ) -> Option<Position> {
        let before = Position::from(span.start);
        self.tokens
            .iter()
            .map(|t| (t, Position::from(t.span.start)))
            .filter(|(t, at)| {
                *at < before
                    && matches!(&t.token, sqlparser::tokenizer::Token::Word(w)
                        if w.value.eq_ignore_ascii_case(keyword))
            })
            .map(|(_, at)| at)
            .next_back()
    }

    pub(in crate::sql) fn column(
        &mut self,
        parts: Vec<String>,
        at: Option<Position>,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        let r = cx.scope.resolve(&parts, at)?;
        self.use_column(&r.column);
        if r.depth == 0 && !r.is_output && !cx.in_aggregate && cx.group_keys.is_some() {
            self.loose.push((at, parts.join(".")));
        }
        let bound = self.finite_column_bound(&r.column);
        Ok(Typed::new(r.column.sql, r.column.ty).bounded(bound))
    }

    /// How large a double column of a table may be when its data holds no NaN or infinity:
    /// tpch's money and quantities (dbgen's ranges: prices below 10^6 at every scale), not
    /// read through a column mask. None for any other column.
    fn finite_column_bound(&self, column: &crate::sql::analyze::scope::Column) -> Option<f64> {
        const TPCH_DOUBLES_BELOW: f64 = 1e7;
        let read = self.reads.get(column.read?)?;
        let plain = read.catalog == "tpch" && !read.masks.contains(&column.name);
        (plain && matches!(column.ty, TrinoType::Double)).then_some(TPCH_DOUBLES_BELOW)
    }

    fn expr_inner(&mut self, e: &Expr, cx: &ExprContext<'_>) -> Result<Typed, TrinoError> {
        let at = location(e);
        match e {
            // current_user, current_catalog, current_schema are reserved words in Trino.
            Expr::Identifier(i)
                if i.quote_style.is_none()
                    && ["current_user", "current_catalog", "current_schema"]
                        .contains(&i.value.to_lowercase().as_str()) =>
            {
                self.scalar_function(&i.value.to_lowercase(), Vec::new(), at, cx)
            }
            Expr::Identifier(i) => match self.lambda_param(&i.value.to_lowercase()) {
                Some(param) => Ok(param),
                None => self.column(vec![i.value.to_lowercase()], at, cx),
            },
            Expr::CompoundIdentifier(parts) => self.compound_identifier(parts, at, cx),
            Expr::Array(a) => self.array_constructor(&a.elem, cx),
            Expr::CompoundFieldAccess { root, access_chain } => {
                self.field_access(root, access_chain, cx)
            }
            Expr::Function(f) if f.name.to_string().eq_ignore_ascii_case("row") => {
                self.row_constructor(f, cx)
            }
            Expr::Tuple(items) => self.tuple_row(items, cx),
            Expr::Value(v) => self.value(&v.value, at),
            Expr::TypedString(..)
            | Expr::Interval(..)
            | Expr::Cast { .. }
            | Expr::Extract { .. }
            | Expr::Ceil { .. }
            | Expr::Floor { .. } => self.conversion(e, at, cx),
            Expr::Nested(..) | Expr::UnaryOp { .. } | Expr::IsNull(..) | Expr::IsNotNull(..) => {
                self.unary_or_nested(e, at, cx)
            }
            Expr::BinaryOp { .. } => self.binary_chain(e, cx),
            Expr::IsDistinctFrom(..)
            | Expr::IsNotDistinctFrom(..)
            | Expr::In { .. }
            | Expr::Between { .. }
            | Expr::Like { .. } => self.predicate(e, at, cx),
            Expr::ILike { .. } | Expr::SimilarTo { .. } | Expr::RLike { .. } => Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input: ILIKE, SIMILAR TO and RLIKE are not Trino's",
            )),
            Expr::Position { .. } | Expr::Substring { .. } | Expr::Trim { .. } => {
                self.string_form(e, at, cx)
            }
            Expr::Case { .. } => self.case(e, at, cx),
            Expr::AtTimeZone {
                timestamp,
                time_zone,
            } => self.at_time_zone(timestamp, time_zone, at, cx),
            Expr::Exists { .. } | Expr::Subquery(..) if cx.clause == Clause::Lambda => {
                Err(error_at(
                    ErrorName::NotSupported,
                    at,
                    "Lambda expression cannot contain subqueries",
                ))
            }
            Expr::Exists { .. } | Expr::Subquery(..) if cx.clause == Clause::Routine => {
                Err(error_at(
                    ErrorName::NotSupported,
                    self.opening_parenthesis_before(at),
                    "Queries are not allowed in functions",
                ))
            }
            Expr::Exists { .. } | Expr::Subquery(..) => self.subquery(e, at, cx),
            Expr::AllOp {
                left,
                compare_op,
                right,
            } => self.quantified(left, compare_op, right, true, cx, at),
            Expr::AnyOp {
                left,
                compare_op,
                right,
                ..
            } => self.quantified(left, compare_op, right, false, cx, at),
            Expr::Function(f) if let Some(ty) = marked_literal(f) => {
                let text = literal_text(f).ok_or_else(|| {
                    error_at(
                        ErrorName::SyntaxError,
                        at,
                        "mismatched input: a typed literal",
                    )
                })?;
                let name = sqlparser::ast::ObjectName::from(vec![sqlparser::ast::Ident::new(ty)]);
                self.typed_literal(&sqlparser::ast::DataType::Custom(name, vec![]), &text, at)
            }
            Expr::Function(f) => self.function(f, cx),
            Expr::Wildcard(_) | Expr::QualifiedWildcard(..) => {
                Err(error_at(ErrorName::SyntaxError, at, "mismatched input '*'"))
            }
            Expr::Collate { .. }
            | Expr::Convert { .. }
            | Expr::MatchAgainst { .. }
            | Expr::OuterJoin(_)
            | Expr::Prior(_)
            | Expr::JsonAccess { .. }
            | Expr::Dictionary(_)
            | Expr::Named { .. }
            | Expr::MemberOf(_)
            | Expr::Prefixed { .. }
            | Expr::IsUnknown(_)
            | Expr::IsNotUnknown(_)
            | Expr::IsTrue(_)
            | Expr::IsNotTrue(_)
            | Expr::IsFalse(_)
            | Expr::IsNotFalse(_) => Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input: this expression is not Trino SQL",
            )),
            // OVERLAY(s PLACING r FROM n): not Trino 476's grammar, which stops at PLACING.
            Expr::Overlay { overlay_what, .. } => {
                let placing = self.keyword_before("placing", &overlay_what.span());
                Err(error_at(
                    ErrorName::SyntaxError,
                    placing.or(at),
                    "mismatched input 'PLACING'. Expecting: ')', ','",
                ))
            }
            _ => Err(not_supported(
                at,
                "This expression (arrays, maps, rows, lambdas, time zones)",
            )),
        }
    }

    /// Parentheses, unary operators and IS [NOT] NULL.
    fn unary_or_nested(
        &mut self,
        e: &Expr,
        at: Option<Position>,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        match e {
            // Parentheses only group: the tree renders every operation parenthesised.
            Expr::Nested(inner) => self.expr(inner, cx),
            Expr::UnaryOp { op, expr } => {
                if let Some(folded) = self.negative_integer_literal(op, expr)? {
                    return Ok(folded);
                }
                let t = self.expr(expr, cx)?;
                match op {
                    UnaryOperator::Not => {
                        self.require_boolean(&t, expr, "NOT")?;
                        Ok(Typed::new(SqlExpr::negated(t.sql), TrinoType::Boolean))
                    }
                    UnaryOperator::Minus | UnaryOperator::Plus => {
                        // `-NULL`: every negation fits an unknown, and Trino will not choose.
                        if *op == UnaryOperator::Minus && t.ty == TrinoType::Unknown {
                            return Err(TrinoError::new(
                                ErrorName::AmbiguousFunctionCall,
                                NEGATION_CANDIDATES,
                            ));
                        }
                        let numeric = t.ty.is_numeric()
                            || matches!(
                                t.ty,
                                TrinoType::IntervalDayToSecond
                                    | TrinoType::IntervalYearToMonth
                                    | TrinoType::Unknown
                            );
                        if !numeric {
                            // At the sign, Trino's node.
                            let sign = crate::sql::analyze::location::sign_before(
                                self.tokens,
                                location(&**expr),
                            );
                            return Err(error_at(
                                ErrorName::TypeMismatch,
                                sign.or(at),
                                format!("Cannot negate {}", t.ty),
                            ));
                        }
                        if *op == UnaryOperator::Plus {
                            return Ok(t);
                        }
                        if let TrinoType::Decimal { .. } = t.ty {
                            return Ok(querymesh_values::decimal::negate(&t));
                        }
                        let constant = match t.constant {
                            Some(Constant::Months(m)) => m.checked_neg().map(Constant::Months),
                            Some(Constant::Millis(m)) => m.checked_neg().map(Constant::Millis),
                            Some(Constant::Int(n)) => n.checked_neg().map(Constant::Int),
                            Some(Constant::Decimal(u, s)) => Some(Constant::Decimal(-u, s)),
                            _ => None,
                        };
                        let negated = SqlExpr::Unary(UnaryOp::Negate, Box::new(t.sql.clone()));
                        let sql = if t.ty.is_integral() && constant.is_none() {
                            QM_INT_NEG.call([t.sql.clone(), SqlExpr::text(t.ty.to_string())])
                        } else if matches!(t.ty, TrinoType::Double | TrinoType::Real) {
                            // SQLite negates as `0 - x`, which loses the sign of a zero
                            // (atan2(-0E0, -1) is -pi in Trino).
                            SqlExpr::binary(SqlExpr::Real(-1.0), BinaryOp::Multiply, t.sql.clone())
                        } else {
                            negated
                        };
                        // Trino reads a minus before a number as part of the literal, so
                        // -2147483648 is an integer (TestMathFunctions.testAbs).
                        let ty = match (expr.as_ref(), constant.as_ref()) {
                            (Expr::Value(_), Some(Constant::Int(n)))
                                if t.ty == TrinoType::BigInt && *n == i64::from(i32::MIN) =>
                            {
                                TrinoType::Integer
                            }
                            _ => t.ty,
                        };
                        Ok(Typed {
                            sql,
                            ty,
                            constant,
                            // -x is as large as x.
                            bound: t.bound,
                        })
                    }
                    _ => Err(error_at(
                        ErrorName::SyntaxError,
                        at,
                        format!("mismatched input '{op}'"),
                    )),
                }
            }
            Expr::IsNull(x) | Expr::IsNotNull(x) => {
                let t = self.expr(x, cx)?;
                let sql = if matches!(e, Expr::IsNotNull(_)) {
                    SqlExpr::is_not_null(t.sql)
                } else {
                    SqlExpr::is_null(t.sql)
                };
                Ok(Typed::new(sql, TrinoType::Boolean))
            }
            _ => Err(not_supported(at, "This expression")),
        }
    }

    /// Typed literals, intervals, CAST, EXTRACT, CEIL and FLOOR.
    fn conversion(
        &mut self,
        e: &Expr,
        at: Option<Position>,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        match e {
            Expr::TypedString(ts) => {
                let text = match &ts.value.value {
                    Value::SingleQuotedString(s) => s.clone(),
                    _ => {
                        return Err(error_at(
                            ErrorName::SyntaxError,
                            at,
                            "mismatched input: a typed literal takes a string",
                        ));
                    }
                };
                // At the type's first word, as Trino places the literal.
                let start = crate::sql::analyze::location::typed_literal_start(self.tokens, at);
                self.typed_literal(&ts.data_type, &text, start.or(at))
            }
            Expr::Interval(i) => {
                if i.leading_precision.is_some() || i.fractional_seconds_precision.is_some() {
                    return Err(not_supported(at, "This INTERVAL form"));
                }
                let (text, negative) = match i.value.as_ref() {
                    Expr::Value(v) => match &v.value {
                        Value::SingleQuotedString(s) => (s.clone(), false),
                        _ => {
                            return Err(error_at(
                                ErrorName::SyntaxError,
                                at,
                                "mismatched input: INTERVAL takes a quoted value",
                            ));
                        }
                    },
                    Expr::UnaryOp {
                        op: UnaryOperator::Minus,
                        expr,
                    } => match expr.as_ref() {
                        Expr::Value(v) => match &v.value {
                            Value::SingleQuotedString(s) => (s.clone(), true),
                            _ => {
                                return Err(error_at(
                                    ErrorName::SyntaxError,
                                    at,
                                    "mismatched input: INTERVAL takes a quoted value",
                                ));
                            }
                        },
                        _ => {
                            return Err(error_at(
                                ErrorName::SyntaxError,
                                at,
                                "mismatched input: INTERVAL takes a quoted value",
                            ));
                        }
                    },
                    _ => {
                        return Err(error_at(
                            ErrorName::SyntaxError,
                            at,
                            "mismatched input: INTERVAL takes a quoted value",
                        ));
                    }
                };
                let field = i.leading_field.clone().ok_or_else(|| {
                    error_at(
                        ErrorName::SyntaxError,
                        at,
                        "mismatched input: INTERVAL needs a unit",
                    )
                })?;
                interval(&text, &field, i.last_field.as_ref(), negative, at)
            }
            Expr::Cast {
                kind,
                expr,
                data_type,
                format,
            } => {
                if format.is_some() {
                    return Err(error_at(
                        ErrorName::SyntaxError,
                        at,
                        "mismatched input 'FORMAT'",
                    ));
                }
                let try_cast = match kind {
                    CastKind::Cast => false,
                    CastKind::TryCast => true,
                    _ => {
                        return Err(error_at(
                            ErrorName::SyntaxError,
                            at,
                            "mismatched input '::'. Trino casts with CAST(x AS type)",
                        ));
                    }
                };
                // Trino places a cast's errors at CAST itself.
                let keyword = if try_cast { "TRY_CAST" } else { "CAST" };
                let at = self.keyword_before(keyword, &expr.span()).or(at);
                let t = self.expr(expr, cx)?;
                let target = parse_type(data_type, at).map_err(unknown_type_mismatch)?;
                self.cast(t, &target, try_cast, at)
            }
            Expr::Extract { field, expr, .. } => {
                let t = self.expr(expr, cx)?;
                let unit = match field {
                    DateTimeField::Year => "year",
                    DateTimeField::Quarter => "quarter",
                    DateTimeField::Month => "month",
                    DateTimeField::Week(_) => "week",
                    DateTimeField::Day => "day",
                    DateTimeField::DayOfWeek | DateTimeField::Dow => "day_of_week",
                    DateTimeField::DayOfYear | DateTimeField::Doy => "day_of_year",
                    DateTimeField::Hour => "hour",
                    DateTimeField::Minute => "minute",
                    DateTimeField::Second => "second",
                    DateTimeField::TimezoneHour => "timezone_hour",
                    DateTimeField::TimezoneMinute => "timezone_minute",
                    // ExtractField's other names (SqlBase.g4 takes any identifier here).
                    DateTimeField::Custom(name) => match name.value.to_ascii_lowercase().as_str() {
                        "day_of_week" | "dow" => "day_of_week",
                        "day_of_month" => "day",
                        "day_of_year" | "doy" => "day_of_year",
                        "year_of_week" | "yow" => "year_of_week",
                        _ => {
                            return Err(error_at(
                                ErrorName::SyntaxError,
                                self.keyword_before("extract", &name.span).or(at),
                                format!("Invalid EXTRACT field: {}", name.value),
                            ));
                        }
                    },
                    other => {
                        return Err(error_at(
                            ErrorName::SyntaxError,
                            at,
                            format!("Invalid EXTRACT field: {other}"),
                        ));
                    }
                };
                self.date_part(unit, t, at)
            }
            Expr::Ceil { expr, .. } | Expr::Floor { expr, .. } => {
                let name = if matches!(e, Expr::Ceil { .. }) {
                    "ceil"
                } else {
                    "floor"
                };
                let t = self.expr(expr, cx)?;
                rounding(name, t, at)
            }
            _ => Err(not_supported(at, "This expression")),
        }
    }

    /// POSITION, SUBSTRING and TRIM, which have syntax of their own.
    fn string_form(
        &mut self,
        e: &Expr,
        at: Option<Position>,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        match e {
            Expr::Position { expr, r#in } => {
                let (needle, hay) = (self.expr(expr, cx)?, self.expr(r#in, cx)?);
                // A NULL literal is a varchar(0) here (`position(NULL IN 'abc')` is NULL).
                let stringy = |t: &Typed| t.ty.is_string() || t.ty == TrinoType::Unknown;
                if !(stringy(&needle) && stringy(&hay)) {
                    return Err(error_at(
                        ErrorName::FunctionNotFound,
                        at,
                        format!(
                            "Unexpected parameters ({}, {}) for function strpos",
                            hay.ty, needle.ty
                        ),
                    ));
                }
                Ok(Typed::new(
                    builtin::INSTR.call([hay.sql, needle.sql]),
                    TrinoType::BigInt,
                ))
            }
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                shorthand,
                ..
            } => {
                let mut args = vec![self.expr(expr, cx)?];
                // `substr('abc')` is a call matching no signature (FUNCTION_NOT_FOUND with
                // the expected ones), as Trino 476 answers.
                match substring_from {
                    Some(f) => args.push(self.expr(f, cx)?),
                    None if substring_for.is_some() => {
                        return Err(error_at(
                            ErrorName::SyntaxError,
                            at,
                            "mismatched input 'FOR'. Expecting: 'FROM'",
                        ));
                    }
                    None => {}
                }
                if let Some(f) = substring_for {
                    args.push(self.expr(f, cx)?);
                }
                // SUBSTR is the function substr (whose NULL argument is ambiguous).
                let name = if *shorthand { "substr" } else { "substring" };
                self.scalar_function(name, args, at, cx)
            }
            Expr::Trim {
                trim_where,
                trim_what,
                expr,
                trim_characters,
            } => {
                if trim_characters.is_some() {
                    return Err(error_at(ErrorName::SyntaxError, at, "mismatched input ','"));
                }
                let t = self.expr(expr, cx)?;
                if !(t.ty.is_string() || t.ty == TrinoType::Unknown) {
                    return Err(error_at(
                        ErrorName::FunctionNotFound,
                        at,
                        format!("Unexpected parameters ({}) for function trim", t.ty),
                    ));
                }
                let ty = match t.ty {
                    TrinoType::Char(n) => TrinoType::Varchar(Some(n)),
                    // `trim('a' FROM NULL)` is a varchar(0).
                    TrinoType::Unknown => TrinoType::Varchar(Some(0)),
                    ref other => other.clone(),
                };
                let (f, mode) = match trim_where {
                    Some(TrimWhereField::Leading) => (builtin::LTRIM, 1),
                    Some(TrimWhereField::Trailing) => (builtin::RTRIM, 2),
                    _ => (builtin::TRIM, 0),
                };
                // With characters, SQLite's trim removes exactly those code points, as
                // Trino's does; without, Trino removes Java whitespace, SQLite only spaces.
                let sql = match trim_what {
                    Some(w) => {
                        let chars = self.expr(w, cx)?;
                        if !(chars.ty.is_string() || chars.ty == TrinoType::Unknown) {
                            return Err(error_at(
                                ErrorName::FunctionNotFound,
                                at,
                                format!(
                                    "Unexpected parameters ({}, {}) for function {}",
                                    t.ty,
                                    chars.ty,
                                    f.name()
                                ),
                            ));
                        }
                        f.call([t.sql, chars.sql])
                    }
                    None => QM_TRIM.call([t.sql, SqlExpr::Integer(mode)]),
                };
                Ok(Typed::new(sql, ty))
            }
            _ => Err(not_supported(at, "This expression")),
        }
    }

    /// CASE, simple and searched.
    fn case(
        &mut self,
        e: &Expr,
        at: Option<Position>,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        match e {
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                let operand = match operand {
                    Some(o) => Some(self.expr(o, cx)?),
                    None => None,
                };
                let mut result_ty = TrinoType::Unknown;
                let mut branches: Vec<(Option<SqlExpr>, Typed)> = Vec::new();
                for when in conditions {
                    let c = self.expr(&when.condition, cx)?;
                    match &operand {
                        Some(o) if !comparable(&o.ty, &c.ty) => {
                            return Err(mismatch(location(&when.condition), "=", &o.ty, &c.ty));
                        }
                        Some(_) => {}
                        None => self.require_boolean(&c, &when.condition, "CASE WHEN clause")?,
                    }
                    let r = self.expr(&when.result, cx)?;
                    result_ty = super_type(&result_ty, &r.ty).ok_or_else(|| {
                        error_at(ErrorName::TypeMismatch, location(&when.result), format!("All CASE results must be the same type or coercible to a common type. Cannot find common type between {result_ty} and {}", r.ty))
                    })?;
                    let condition = match &operand {
                        Some(o) => {
                            let target = super_type(&o.ty, &c.ty).unwrap_or(TrinoType::Unknown);
                            SqlExpr::binary(
                                coerced(o, &target),
                                BinaryOp::Equal,
                                coerced(&c, &target),
                            )
                        }
                        None => c.sql,
                    };
                    branches.push((Some(condition), r));
                }
                if let Some(x) = else_result {
                    let r = self.expr(x, cx)?;
                    result_ty = super_type(&result_ty, &r.ty).ok_or_else(|| {
                        error_at(ErrorName::TypeMismatch, location(x.as_ref()), format!("All CASE results must be the same type or coercible to a common type. Cannot find common type between {result_ty} and {}", r.ty))
                    })?;
                    branches.push((None, r));
                }
                // Finite when every result is (a missing ELSE is NULL).
                let bound = branches
                    .iter()
                    .map(|(_, r)| r.finite_bound())
                    .try_fold(0f64, |most, b| Some(most.max(b?)));
                // Every result as the common type (a date as a timestamp, …).
                let mut whens = Vec::with_capacity(branches.len());
                let mut otherwise = None;
                for (condition, r) in branches {
                    let value = coerced(&r, &result_ty);
                    match condition {
                        Some(c) => whens.push((c, value)),
                        None => otherwise = Some(value),
                    }
                }
                let sql = SqlExpr::case_when(whens, otherwise);
                let bounded = matches!(result_ty, TrinoType::Double | TrinoType::Real);
                Ok(Typed::new(sql, result_ty).bounded(bound.filter(|_| bounded)))
            }
            _ => Err(not_supported(at, "This expression")),
        }
    }

    /// EXISTS and scalar subqueries.
    fn subquery(
        &mut self,
        e: &Expr,
        at: Option<Position>,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        match e {
            Expr::Exists { subquery, negated } => {
                let block = self.query(subquery, Some(cx.scope))?;
                let exists = SqlExpr::Exists(Box::new(block.sql.into_select()));
                let sql = if *negated {
                    SqlExpr::negated(exists)
                } else {
                    exists
                };
                Ok(Typed::new(sql, TrinoType::Boolean))
            }
            Expr::Subquery(q) => {
                let mut block = self.query(q, Some(cx.scope))?;
                if block.columns.len() > 1 {
                    block = several_columns_as_row(block);
                }
                let [(_, ty)] = block.columns.as_slice() else {
                    return Err(not_supported(at, "A scalar subquery without columns"));
                };
                let ty = ty.clone();
                if block.single_row {
                    return Ok(Typed::new(block.sql.into_select().scalar(), ty));
                }
                // SQLite would silently take the first row; Trino fails on a second one.
                let rows = SqlExpr::aggregate(builtin::COUNT, false, []);
                let first_or_failure = SqlExpr::iff(
                    SqlExpr::binary(rows, BinaryOp::Greater, SqlExpr::Integer(1)),
                    QM_FAIL.call([
                        SqlExpr::text("SUBQUERY_MULTIPLE_ROWS"),
                        SqlExpr::text("Scalar sub-query has returned multiple rows"),
                    ]),
                    builtin::MAX.call([SqlExpr::column(None, "c1")]),
                );
                let first_two = Select {
                    limit: Some(SqlExpr::Integer(2)),
                    ..Select::star(FromItem::query(block.sql, None))
                };
                let sql = Select::new(
                    vec![first_or_failure],
                    vec![FromItem::Subquery {
                        select: Box::new(first_two),
                        alias: None,
                    }],
                )
                .scalar();
                Ok(Typed::new(sql, ty))
            }
            _ => Err(not_supported(at, "This expression")),
        }
    }
}

/// A scalar subquery of several columns is one row value (Trino: `(SELECT 1 a, 2)` is a
/// `row(a integer, integer)`), its fields named as the columns, `_colN` left unnamed.
fn several_columns_as_row(block: crate::sql::analyze::Block) -> crate::sql::analyze::Block {
    let mut parts = Vec::new();
    let mut fields = Vec::new();
    for (i, (name, ty)) in block.columns.iter().enumerate() {
        let column = Typed::new(SqlExpr::column(None, format!("c{}", i + 1)), ty.clone());
        parts.push(querymesh_values::element::to_element(&column));
        let unnamed = name == crate::sql::analyze::UNNAMED;
        fields.push(((!unnamed).then(|| name.clone()), ty.clone()));
    }
    // The block is a query tree (analyze.rs); its one column is the row.
    let row = querymesh_values::sqlite_expr::Select {
        columns: vec![(
            querymesh_values::sqlite_expr::builtin::JSON_ARRAY.call(parts),
            Some("c1".to_string()),
        )],
        from: vec![querymesh_values::sqlite_expr::FromItem::query(
            block.sql, None,
        )],
        ..Default::default()
    };
    crate::sql::analyze::Block {
        sql: row.into(),
        columns: vec![(crate::sql::analyze::UNNAMED.into(), TrinoType::Row(fields))],
        single_row: block.single_row,
        origins: Vec::new(),
    }
}

/// The type of a typed literal sqlparser could not read (respell.rs marks its name).
fn marked_literal(f: &sqlparser::ast::Function) -> Option<&str> {
    let [part] = f.name.0.as_slice() else {
        return None;
    };
    crate::sql::respell::literal_type(&part.as_ident()?.value)
}

/// The string of a marked literal's call.
fn literal_text(f: &sqlparser::ast::Function) -> Option<String> {
    use sqlparser::ast::{FunctionArg, FunctionArgExpr, FunctionArguments};
    let FunctionArguments::List(list) = &f.args else {
        return None;
    };
    match list.args.as_slice() {
        [FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Value(v)))] => match &v.value {
            Value::SingleQuotedString(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// A type name nothing knows, where a cast or a RETURNING clause names its result, is a
/// TYPE_MISMATCH to Trino ("Unknown type: foo" at the expression), unlike in a typed literal
/// (`foo 'x'`, TYPE_NOT_FOUND).
pub(in crate::sql) fn unknown_type_mismatch(e: TrinoError) -> TrinoError {
    if e.name == ErrorName::TypeNotFound {
        TrinoError {
            name: ErrorName::TypeMismatch,
            ..e
        }
    } else {
        e
    }
}

impl Analyzer<'_> {
    /// A minus right before an integer literal is part of it in Trino's lexer: `-9223372036854775808`
    /// (and `-0x8000000000000000`) is bigint's least value, which its digits alone are not;
    /// past it, the whole signed text is the invalid literal, at the sign. `None` for every
    /// other operand, negated as any expression is.
    fn negative_integer_literal(
        &self,
        op: &UnaryOperator,
        operand: &Expr,
    ) -> Result<Option<Typed>, TrinoError> {
        let (UnaryOperator::Minus, Expr::Value(v)) = (op, operand) else {
            return Ok(None);
        };
        let sqlparser::ast::Value::Number(text, _) = &v.value else {
            return Ok(None);
        };
        // Digits past i128 are past bigint too.
        let digits = text.bytes().all(|b| b.is_ascii_digit() || b == b'_');
        let magnitude = match crate::sql::analyze::literal::integer_literal(text) {
            Some(magnitude) if magnitude <= i128::from(i64::MAX) => return Ok(None),
            Some(magnitude) => magnitude,
            None if digits => i128::MAX,
            None => return Ok(None),
        };
        let sign = crate::sql::analyze::location::sign_before(self.tokens, location(operand));
        match i64::try_from(-magnitude) {
            Ok(least) => Ok(Some(Typed {
                sql: SqlExpr::Integer(least),
                ty: TrinoType::BigInt,
                constant: Some(Constant::Int(least)),
                bound: None,
            })),
            Err(_) => Err(error_at(
                ErrorName::SyntaxError,
                sign.or(location(operand)),
                format!("Invalid numeric literal: -{text}"),
            )),
        }
    }
}

/// Trino 476's refusal of `-NULL` (no position), its candidates listed as it lists them.
const NEGATION_CANDIDATES: &str = "Could not choose a best candidate operator. Explicit type \
casts must be added.\nCandidates are:\n\t * (bigint):bigint\n\t * (integer):integer\n\t * \
(smallint):smallint\n\t * (tinyint):tinyint\n\t * (double):double\n\t * (real):real\n\t * \
(interval day to second):interval day to second\n\t * (interval year to month):interval year \
to month\n\t * (decimal(1,0)):decimal(1,0)\n";
