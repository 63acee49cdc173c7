//! Expressions: typed as Trino types them and translated to SQLite. Comparisons and
//! arithmetic follow Trino's coercions (no string/number mixing); division truncates and
//! fails on zero like Trino; dates are `YYYY-MM-DD` text.

use sqlparser::ast::{
    BinaryOperator, CastKind, DataType, DateTimeField, Expr, InTarget, TrimWhereField,
    UnaryOperator, Value,
};

use super::analyze::{Analyzer, Konst, Typed, error_at, location, not_supported};
use super::coerce::{arithmetic, super_type};
use super::dates;
use super::scope::Cx;
use crate::querymesh::error::{ErrorName, TrinoError};
use crate::querymesh::types::TrinoType;

pub fn sql_string(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

fn mismatch(at: Option<(u64, u64)>, op: &str, l: &TrinoType, r: &TrinoType) -> TrinoError {
    error_at(
        ErrorName::TypeMismatch,
        at,
        format!("Cannot apply operator: {l} {op} {r}"),
    )
}

/// Whether Trino compares values of these types (after implicit coercion).
pub fn comparable(l: &TrinoType, r: &TrinoType) -> bool {
    super_type(l, r).is_some_and(|t| {
        !matches!(
            t,
            TrinoType::Array(_) | TrinoType::Map(..) | TrinoType::Row(_) | TrinoType::Json
        )
    })
}

/// The SQL of `t` as a value of `target` when Trino coerces it implicitly for comparison.
fn coerced(t: &Typed, target: &TrinoType) -> String {
    match (&t.ty, target) {
        (TrinoType::Date, TrinoType::Timestamp(_)) => format!("({} || ' 00:00:00.000')", t.sql),
        _ => t.sql.clone(),
    }
}

pub fn parse_type(dt: &DataType, at: Option<(u64, u64)>) -> Result<TrinoType, TrinoError> {
    use sqlparser::ast::{CharacterLength, ExactNumberInfo, TimezoneInfo};
    let length = |l: &Option<CharacterLength>| match l {
        Some(CharacterLength::IntegerLength { length, .. }) => Some(*length as u32),
        _ => None,
    };
    Ok(match dt {
        DataType::BigInt(_) => TrinoType::BigInt,
        DataType::Int(_) | DataType::Integer(_) => TrinoType::Integer,
        DataType::SmallInt(_) => TrinoType::SmallInt,
        DataType::TinyInt(_) => TrinoType::TinyInt,
        DataType::Double(_) | DataType::DoublePrecision => TrinoType::Double,
        DataType::Real => TrinoType::Real,
        DataType::Decimal(info) => {
            let (precision, scale) = match info {
                ExactNumberInfo::None => (38, 0),
                ExactNumberInfo::Precision(p) => (*p, 0),
                ExactNumberInfo::PrecisionAndScale(p, s) => (*p, *s as u64),
            };
            if !(1..=38).contains(&precision) || scale > precision {
                return Err(error_at(
                    ErrorName::InvalidLiteral,
                    at,
                    format!("DECIMAL precision must be in range [1, 38]: {precision}"),
                ));
            }
            TrinoType::Decimal {
                precision: precision as u8,
                scale: scale as u8,
            }
        }
        DataType::Varchar(l) => TrinoType::Varchar(length(l)),
        DataType::Char(l) => TrinoType::Char(length(l).unwrap_or(1)),
        DataType::Boolean => TrinoType::Boolean,
        DataType::Date => TrinoType::Date,
        DataType::Timestamp(p, TimezoneInfo::None | TimezoneInfo::WithoutTimeZone) => {
            TrinoType::Timestamp(p.unwrap_or(3).min(12) as u8)
        }
        DataType::Custom(name, args) if args.is_empty() => {
            match name.to_string().to_lowercase().as_str() {
                "bigint" => TrinoType::BigInt,
                "double" => TrinoType::Double,
                "varchar" => TrinoType::Varchar(None),
                other => {
                    return Err(error_at(
                        ErrorName::TypeNotFound,
                        at,
                        format!("Unknown type: {other}"),
                    ));
                }
            }
        }
        other => {
            return Err(error_at(
                ErrorName::TypeNotFound,
                at,
                format!("Unknown type: {}", other.to_string().to_lowercase()),
            ));
        }
    })
}

/// The kind name `qm_cast` understands for a type.
fn cast_kind(t: &TrinoType) -> String {
    match t {
        TrinoType::Decimal { scale, .. } => format!("decimal:{scale}"),
        TrinoType::Varchar(_) | TrinoType::Char(_) => "varchar".into(),
        TrinoType::Timestamp(_) => "timestamp".into(),
        other => other.raw_type().to_string(),
    }
}

fn numeric_literal(text: &str, at: Option<(u64, u64)>) -> Result<Typed, TrinoError> {
    if text.contains(['e', 'E']) {
        return Ok(Typed::new(
            format!("CAST({text} AS REAL)"),
            TrinoType::Double,
        ));
    }
    if let Some((int_part, frac)) = text.split_once('.') {
        let digits = format!("{int_part}{frac}");
        let significant = digits.trim_start_matches('0').len().max(frac.len()).max(1);
        if significant > 38 {
            return Err(error_at(
                ErrorName::InvalidLiteral,
                at,
                format!("Decimal literal is too large: {text}"),
            ));
        }
        let sql = format!(
            "{}.{}",
            if int_part.is_empty() { "0" } else { int_part },
            if frac.is_empty() { "0" } else { frac }
        );
        let konst = digits
            .parse::<i128>()
            .ok()
            .map(|u| Konst::Decimal(u, frac.len() as u32));
        return Ok(Typed {
            sql,
            ty: TrinoType::Decimal {
                precision: significant as u8,
                scale: frac.len() as u8,
            },
            konst,
        });
    }
    match text.parse::<i64>() {
        Ok(n) => {
            let ty = if i32::try_from(n).is_ok() {
                TrinoType::Integer
            } else {
                TrinoType::BigInt
            };
            Ok(Typed {
                sql: n.to_string(),
                ty,
                konst: Some(Konst::Int(n)),
            })
        }
        Err(_) => Err(error_at(
            ErrorName::InvalidLiteral,
            at,
            format!("Invalid numeric literal: {text}"),
        )),
    }
}

fn interval(
    value: &str,
    field: &DateTimeField,
    negative: bool,
    at: Option<(u64, u64)>,
) -> Result<Typed, TrinoError> {
    let bad = || {
        error_at(
            ErrorName::InvalidLiteral,
            at,
            format!("Invalid INTERVAL literal: '{value}'"),
        )
    };
    let n: i64 = value.trim().parse().map_err(|_| bad())?;
    // Bounded so that converting to months or milliseconds cannot overflow.
    if n.abs() > 1_000_000_000 {
        return Err(bad());
    }
    let n = if negative { -n } else { n };
    let (konst, ty) = match field {
        DateTimeField::Year | DateTimeField::Years => {
            (Konst::Months(n * 12), TrinoType::IntervalYearToMonth)
        }
        DateTimeField::Month | DateTimeField::Months => {
            (Konst::Months(n), TrinoType::IntervalYearToMonth)
        }
        DateTimeField::Day | DateTimeField::Days => (
            Konst::Millis(n * 86_400_000),
            TrinoType::IntervalDayToSecond,
        ),
        DateTimeField::Hour | DateTimeField::Hours => {
            (Konst::Millis(n * 3_600_000), TrinoType::IntervalDayToSecond)
        }
        DateTimeField::Minute | DateTimeField::Minutes => {
            (Konst::Millis(n * 60_000), TrinoType::IntervalDayToSecond)
        }
        DateTimeField::Second | DateTimeField::Seconds => {
            (Konst::Millis(n * 1000), TrinoType::IntervalDayToSecond)
        }
        _ => return Err(not_supported(at, "This INTERVAL field")),
    };
    let sql = match konst {
        Konst::Months(m) | Konst::Millis(m) => m.to_string(),
        _ => String::new(),
    };
    Ok(Typed {
        sql,
        ty,
        konst: Some(konst),
    })
}

impl Analyzer<'_> {
    pub fn expr(&mut self, e: &Expr, cx: &Cx<'_>) -> Result<Typed, TrinoError> {
        let mark = self.loose.len();
        let t = self.expr_inner(e, cx)?;
        // A grouping key covers the columns inside it (GROUP BY a + b, SELECT a + b).
        if cx.group_keys.is_some_and(|keys| keys.contains(&t.sql)) {
            self.loose.truncate(mark);
        }
        Ok(t)
    }

    fn column(
        &mut self,
        parts: Vec<String>,
        at: Option<(u64, u64)>,
        cx: &Cx<'_>,
    ) -> Result<Typed, TrinoError> {
        let r = cx.scope.resolve(&parts, at)?;
        self.note_column(r.column.read, &r.column.name);
        if r.depth == 0 && !r.is_output && !cx.in_aggregate && cx.group_keys.is_some() {
            self.loose.push((at, parts.join(".")));
        }
        Ok(Typed::new(r.column.sql, r.column.ty))
    }

    fn expr_inner(&mut self, e: &Expr, cx: &Cx<'_>) -> Result<Typed, TrinoError> {
        let at = location(e);
        match e {
            Expr::Identifier(i) => self.column(vec![i.value.to_lowercase()], at, cx),
            Expr::CompoundIdentifier(parts) => self.column(
                parts.iter().map(|i| i.value.to_lowercase()).collect(),
                at,
                cx,
            ),
            Expr::Value(v) => self.value(&v.value, at),
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
                self.typed_literal(&ts.data_type, &text, at)
            }
            Expr::Interval(i) => {
                if i.last_field.is_some()
                    || i.leading_precision.is_some()
                    || i.fractional_seconds_precision.is_some()
                {
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
                interval(&text, &field, negative, at)
            }
            Expr::Nested(inner) => {
                let t = self.expr(inner, cx)?;
                Ok(Typed {
                    sql: format!("({})", t.sql),
                    ..t
                })
            }
            Expr::UnaryOp { op, expr } => {
                let t = self.expr(expr, cx)?;
                match op {
                    UnaryOperator::Not => {
                        self.require_boolean(&t, expr, "NOT operand")?;
                        Ok(Typed::new(format!("(NOT {})", t.sql), TrinoType::Boolean))
                    }
                    UnaryOperator::Minus | UnaryOperator::Plus => {
                        let numeric = t.ty.is_numeric()
                            || matches!(
                                t.ty,
                                TrinoType::IntervalDayToSecond
                                    | TrinoType::IntervalYearToMonth
                                    | TrinoType::Unknown
                            );
                        if !numeric {
                            return Err(error_at(
                                ErrorName::TypeMismatch,
                                at,
                                format!("Cannot negate {}", t.ty),
                            ));
                        }
                        if *op == UnaryOperator::Plus {
                            return Ok(t);
                        }
                        let konst = match t.konst {
                            Some(Konst::Months(m)) => m.checked_neg().map(Konst::Months),
                            Some(Konst::Millis(m)) => m.checked_neg().map(Konst::Millis),
                            Some(Konst::Int(n)) => n.checked_neg().map(Konst::Int),
                            Some(Konst::Decimal(u, s)) => Some(Konst::Decimal(-u, s)),
                            _ => None,
                        };
                        Ok(Typed {
                            sql: format!("(- {})", t.sql),
                            ty: t.ty,
                            konst,
                        })
                    }
                    _ => Err(error_at(
                        ErrorName::SyntaxError,
                        at,
                        format!("mismatched input '{op}'"),
                    )),
                }
            }
            Expr::BinaryOp { left, op, right } => self.binary(left, op, right, at, cx),
            Expr::IsNull(x) | Expr::IsNotNull(x) => {
                let t = self.expr(x, cx)?;
                let not = if matches!(e, Expr::IsNotNull(_)) {
                    "NOT "
                } else {
                    ""
                };
                Ok(Typed::new(
                    format!("({} IS {not}NULL)", t.sql),
                    TrinoType::Boolean,
                ))
            }
            Expr::IsDistinctFrom(l, r) | Expr::IsNotDistinctFrom(l, r) => {
                let (lt, rt) = (self.expr(l, cx)?, self.expr(r, cx)?);
                if !comparable(&lt.ty, &rt.ty) {
                    return Err(mismatch(at, "IS DISTINCT FROM", &lt.ty, &rt.ty));
                }
                let op = if matches!(e, Expr::IsDistinctFrom(..)) {
                    "IS NOT"
                } else {
                    "IS"
                };
                Ok(Typed::new(
                    format!("({} {op} {})", lt.sql, rt.sql),
                    TrinoType::Boolean,
                ))
            }
            Expr::In {
                expr,
                target,
                negated,
                ..
            } => {
                let t = self.expr(expr, cx)?;
                let not = if *negated { "NOT " } else { "" };
                match target {
                    InTarget::List(list) => {
                        let mut items = Vec::new();
                        for item in list {
                            let it = self.expr(item, cx)?;
                            if !comparable(&t.ty, &it.ty) {
                                return Err(error_at(
                                    ErrorName::TypeMismatch,
                                    location(item),
                                    format!(
                                        "IN value and list items must be the same type: {} and {}",
                                        t.ty, it.ty
                                    ),
                                ));
                            }
                            items.push(it.sql);
                        }
                        Ok(Typed::new(
                            format!("({} {not}IN ({}))", t.sql, items.join(", ")),
                            TrinoType::Boolean,
                        ))
                    }
                    InTarget::Subquery(q) => {
                        let block = self.query(q, Some(cx.scope))?;
                        let [(_, ty)] = block.columns.as_slice() else {
                            return Err(not_supported(at, "A multi-column IN subquery"));
                        };
                        if !comparable(&t.ty, ty) {
                            return Err(error_at(
                                ErrorName::TypeMismatch,
                                at,
                                format!(
                                    "Value expression and result of subquery must be of the same type: {} vs {ty}",
                                    t.ty
                                ),
                            ));
                        }
                        Ok(Typed::new(
                            format!("({} {not}IN ({}))", t.sql, block.sql),
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
                for bound in [&lo, &hi] {
                    if !comparable(&t.ty, &bound.ty) {
                        return Err(mismatch(at, "BETWEEN", &t.ty, &bound.ty));
                    }
                }
                let not = if *negated { "NOT " } else { "" };
                Ok(Typed::new(
                    format!("({} {not}BETWEEN {} AND {})", t.sql, lo.sql, hi.sql),
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
                for x in [&t, &p] {
                    if !(x.ty.is_string() || x.ty == TrinoType::Unknown) {
                        return Err(error_at(
                            ErrorName::TypeMismatch,
                            at,
                            format!("Cannot apply operator: {} LIKE {}", t.ty, p.ty),
                        ));
                    }
                }
                let escape = match escape_char {
                    Some(esc) => format!(" ESCAPE {}", self.expr(esc, cx)?.sql),
                    None => String::new(),
                };
                let not = if *negated { "NOT " } else { "" };
                Ok(Typed::new(
                    format!("({} {not}LIKE {}{escape})", t.sql, p.sql),
                    TrinoType::Boolean,
                ))
            }
            Expr::ILike { .. } | Expr::SimilarTo { .. } | Expr::RLike { .. } => Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input: ILIKE, SIMILAR TO and RLIKE are not Trino's",
            )),
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
                let t = self.expr(expr, cx)?;
                let target = parse_type(data_type, at)?;
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
                    other => return Err(not_supported(at, &format!("EXTRACT({other})"))),
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
                self.rounding(name, t, at)
            }
            Expr::Position { expr, r#in } => {
                let (needle, hay) = (self.expr(expr, cx)?, self.expr(r#in, cx)?);
                if !(needle.ty.is_string() && hay.ty.is_string()) {
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
                    format!("instr({}, {})", hay.sql, needle.sql),
                    TrinoType::BigInt,
                ))
            }
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                ..
            } => {
                let mut args = vec![self.expr(expr, cx)?];
                match substring_from {
                    Some(f) => args.push(self.expr(f, cx)?),
                    None => {
                        return Err(error_at(
                            ErrorName::SyntaxError,
                            at,
                            "mismatched input: SUBSTRING needs FROM",
                        ));
                    }
                }
                if let Some(f) = substring_for {
                    args.push(self.expr(f, cx)?);
                }
                self.scalar_function("substring", args, at)
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
                if !t.ty.is_string() {
                    return Err(error_at(
                        ErrorName::FunctionNotFound,
                        at,
                        format!("Unexpected parameters ({}) for function trim", t.ty),
                    ));
                }
                let what = match trim_what {
                    Some(w) => format!(", {}", self.expr(w, cx)?.sql),
                    None => String::new(),
                };
                let f = match trim_where {
                    Some(TrimWhereField::Leading) => "ltrim",
                    Some(TrimWhereField::Trailing) => "rtrim",
                    _ => "trim",
                };
                Ok(Typed::new(format!("{f}({}{what})", t.sql), t.ty))
            }
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
                let mut sql = String::from("(CASE");
                if let Some(o) = &operand {
                    sql.push_str(&format!(" {}", o.sql));
                }
                for when in conditions {
                    let c = self.expr(&when.condition, cx)?;
                    match &operand {
                        Some(o) if !comparable(&o.ty, &c.ty) => {
                            return Err(mismatch(location(&when.condition), "=", &o.ty, &c.ty));
                        }
                        Some(_) => {}
                        None => self.require_boolean(&c, &when.condition, "CASE WHEN condition")?,
                    }
                    let r = self.expr(&when.result, cx)?;
                    result_ty = super_type(&result_ty, &r.ty).ok_or_else(|| {
                        error_at(ErrorName::TypeMismatch, location(&when.result), format!("All CASE results must be the same type or coercible to a common type. Cannot find common type between {result_ty} and {}", r.ty))
                    })?;
                    sql.push_str(&format!(" WHEN {} THEN {}", c.sql, r.sql));
                }
                if let Some(x) = else_result {
                    let r = self.expr(x, cx)?;
                    result_ty = super_type(&result_ty, &r.ty).ok_or_else(|| {
                        error_at(ErrorName::TypeMismatch, location(x.as_ref()), format!("All CASE results must be the same type or coercible to a common type. Cannot find common type between {result_ty} and {}", r.ty))
                    })?;
                    sql.push_str(&format!(" ELSE {}", r.sql));
                }
                sql.push_str(" END)");
                Ok(Typed::new(sql, result_ty))
            }
            Expr::Exists { subquery, negated } => {
                let block = self.query(subquery, Some(cx.scope))?;
                let not = if *negated { "NOT " } else { "" };
                Ok(Typed::new(
                    format!("({not}EXISTS ({}))", block.sql),
                    TrinoType::Boolean,
                ))
            }
            Expr::Subquery(q) => {
                let block = self.query(q, Some(cx.scope))?;
                let [(_, ty)] = block.columns.as_slice() else {
                    return Err(not_supported(
                        at,
                        "A scalar subquery returning several columns",
                    ));
                };
                if block.single_row {
                    return Ok(Typed::new(format!("({})", block.sql), ty.clone()));
                }
                // SQLite would silently take the first row; Trino fails on a second one.
                Ok(Typed::new(
                    format!(
                        "(SELECT CASE WHEN count(*) > 1 THEN qm_fail('SUBQUERY_MULTIPLE_ROWS', 'Scalar sub-query has returned multiple rows') ELSE max(\"c1\") END FROM (SELECT * FROM ({}) LIMIT 2))",
                        block.sql
                    ),
                    ty.clone(),
                ))
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
            _ => Err(not_supported(
                at,
                "This expression (arrays, maps, rows, lambdas, time zones)",
            )),
        }
    }

    fn value(&mut self, v: &Value, at: Option<(u64, u64)>) -> Result<Typed, TrinoError> {
        match v {
            Value::Number(n, _) => numeric_literal(n, at),
            Value::SingleQuotedString(s) => Ok(Typed::new(
                sql_string(s),
                TrinoType::Varchar(Some(s.chars().count() as u32)),
            )),
            Value::Boolean(b) => Ok(Typed::new(if *b { "1" } else { "0" }, TrinoType::Boolean)),
            Value::Null => Ok(Typed::new("NULL", TrinoType::Unknown)),
            Value::DoubleQuotedString(s) => Err(error_at(
                ErrorName::ColumnNotFound,
                at,
                format!("Column '{s}' cannot be resolved"),
            )),
            Value::Placeholder(_) => Err(not_supported(
                at,
                "A parameter outside a prepared statement",
            )),
            _ => Err(error_at(
                ErrorName::SyntaxError,
                at,
                format!("mismatched input '{v}'"),
            )),
        }
    }

    fn typed_literal(
        &mut self,
        dt: &DataType,
        text: &str,
        at: Option<(u64, u64)>,
    ) -> Result<Typed, TrinoError> {
        let ty = parse_type(dt, at)?;
        let invalid = || {
            error_at(
                ErrorName::InvalidLiteral,
                at,
                format!("'{text}' is not a valid {} literal", ty.raw_type()),
            )
        };
        match &ty {
            TrinoType::Date => {
                let d = dates::parse_date(text).ok_or_else(invalid)?;
                Ok(Typed {
                    sql: sql_string(&dates::format_date(d)),
                    ty,
                    konst: Some(Konst::Date(d)),
                })
            }
            TrinoType::Timestamp(_) => {
                let t = text.trim();
                let (day, time) = t.split_once(' ').unwrap_or((t, "00:00:00"));
                let d = dates::parse_date(day).ok_or_else(invalid)?;
                let precision = time.split_once('.').map_or(0, |(_, f)| f.len()) as u8;
                let stored = super::udf::normalize_timestamp(d, time).ok_or_else(invalid)?;
                Ok(Typed::new(
                    sql_string(&stored),
                    TrinoType::Timestamp(precision),
                ))
            }
            TrinoType::Decimal { .. } => {
                let t = numeric_literal(text.trim(), at)?;
                let sql = if t.sql.contains('.') {
                    t.sql
                } else {
                    format!("{}.0", t.sql)
                };
                let ty = match t.ty {
                    TrinoType::Decimal { .. } => t.ty,
                    _ => {
                        let digits = text
                            .trim()
                            .trim_start_matches(['-', '+'])
                            .trim_start_matches('0')
                            .len()
                            .max(1);
                        TrinoType::Decimal {
                            precision: digits.min(38) as u8,
                            scale: 0,
                        }
                    }
                };
                Ok(Typed::new(sql, ty))
            }
            TrinoType::BigInt | TrinoType::Integer | TrinoType::SmallInt | TrinoType::TinyInt => {
                let n: i64 = text.trim().parse().map_err(|_| invalid())?;
                Ok(Typed {
                    sql: n.to_string(),
                    ty,
                    konst: Some(Konst::Int(n)),
                })
            }
            TrinoType::Double | TrinoType::Real => {
                let n: f64 = text.trim().parse().map_err(|_| invalid())?;
                Ok(Typed::new(format!("CAST({n:?} AS REAL)"), ty))
            }
            TrinoType::Varchar(_) => Ok(Typed::new(
                sql_string(text),
                TrinoType::Varchar(Some(text.chars().count() as u32)),
            )),
            TrinoType::Char(n) => Ok(Typed::new(
                sql_string(&format!("{text:<width$}", width = *n as usize)),
                ty.clone(),
            )),
            TrinoType::Boolean => match text.trim().to_lowercase().as_str() {
                "true" => Ok(Typed::new("1", ty)),
                "false" => Ok(Typed::new("0", ty)),
                _ => Err(invalid()),
            },
            _ => Err(not_supported(at, &format!("A {ty} literal"))),
        }
    }

    fn binary(
        &mut self,
        left: &Expr,
        op: &BinaryOperator,
        right: &Expr,
        at: Option<(u64, u64)>,
        cx: &Cx<'_>,
    ) -> Result<Typed, TrinoError> {
        let l = self.expr(left, cx)?;
        let r = self.expr(right, cx)?;
        let cmp = |sym: &str| -> Result<Typed, TrinoError> {
            if !comparable(&l.ty, &r.ty) {
                return Err(mismatch(at, sym, &l.ty, &r.ty));
            }
            let target = super_type(&l.ty, &r.ty).unwrap_or(TrinoType::Unknown);
            Ok(Typed::new(
                format!("({} {sym} {})", coerced(&l, &target), coerced(&r, &target)),
                TrinoType::Boolean,
            ))
        };
        match op {
            BinaryOperator::Eq => cmp("="),
            BinaryOperator::NotEq => cmp("<>"),
            BinaryOperator::Lt => cmp("<"),
            BinaryOperator::LtEq => cmp("<="),
            BinaryOperator::Gt => cmp(">"),
            BinaryOperator::GtEq => cmp(">="),
            BinaryOperator::And | BinaryOperator::Or => {
                let word = if *op == BinaryOperator::And {
                    "AND"
                } else {
                    "OR"
                };
                for (t, e) in [(&l, left), (&r, right)] {
                    if !matches!(t.ty, TrinoType::Boolean | TrinoType::Unknown) {
                        return Err(error_at(
                            ErrorName::TypeMismatch,
                            location(e),
                            format!(
                                "{word} operand must evaluate to a boolean: actual type {}",
                                t.ty
                            ),
                        ));
                    }
                }
                Ok(Typed::new(
                    format!("({} {word} {})", l.sql, r.sql),
                    TrinoType::Boolean,
                ))
            }
            BinaryOperator::StringConcat => {
                for t in [&l, &r] {
                    if !(t.ty.is_string() || t.ty == TrinoType::Unknown) {
                        return Err(error_at(
                            ErrorName::FunctionNotFound,
                            at,
                            format!(
                                "Unexpected parameters ({}, {}) for function concat",
                                l.ty, r.ty
                            ),
                        ));
                    }
                }
                Ok(Typed::new(
                    format!("({} || {})", l.sql, r.sql),
                    concat_type(&[&l.ty, &r.ty]),
                ))
            }
            BinaryOperator::Plus | BinaryOperator::Minus => {
                let sym = if *op == BinaryOperator::Plus {
                    '+'
                } else {
                    '-'
                };
                if let Some(t) = self.temporal_arithmetic(sym, &l, &r, at)? {
                    return Ok(t);
                }
                self.numeric_op(sym, l, r, at)
            }
            BinaryOperator::Multiply => self.numeric_op('*', l, r, at),
            BinaryOperator::Divide => self.numeric_op('/', l, r, at),
            BinaryOperator::Modulo => self.numeric_op('%', l, r, at),
            other => Err(error_at(
                ErrorName::SyntaxError,
                at,
                format!("mismatched input '{other}'"),
            )),
        }
    }

    pub fn numeric_op(
        &mut self,
        op: char,
        l: Typed,
        r: Typed,
        at: Option<(u64, u64)>,
    ) -> Result<Typed, TrinoError> {
        let ty = arithmetic(op, &l.ty, &r.ty)
            .ok_or_else(|| mismatch(at, &op.to_string(), &l.ty, &r.ty))?;
        // Decimal literals compute exactly in Trino (0.06 - 0.01 is 0.05, not 0.049999…).
        if let (TrinoType::Decimal { scale, .. }, Some(a), Some(b)) =
            (&ty, exact(&l.konst), exact(&r.konst))
        {
            let scale = u32::from(*scale);
            if let Some(unscaled) = exact_op(op, a, b, scale) {
                return Ok(Typed {
                    sql: decimal_text(unscaled, scale),
                    ty,
                    konst: Some(Konst::Decimal(unscaled, scale)),
                });
            }
        }
        let sql = match (op, &ty) {
            ('/', t) if t.is_integral() => format!("qm_idiv({}, {})", l.sql, r.sql),
            ('/', TrinoType::Decimal { .. }) => format!("qm_ddiv({}, {})", l.sql, r.sql),
            ('/', _) => format!("qm_fdiv({}, {})", l.sql, r.sql),
            ('%', t) if t.is_integral() => format!("qm_imod({}, {})", l.sql, r.sql),
            ('%', _) => format!("qm_fmod({}, {})", l.sql, r.sql),
            // SQLite multiplies two integers as integers; a double-typed result must not.
            (_, TrinoType::Double | TrinoType::Real)
                if l.ty.is_integral() && r.ty.is_integral() =>
            {
                format!("(CAST({} AS REAL) {op} {})", l.sql, r.sql)
            }
            _ => format!("({} {op} {})", l.sql, r.sql),
        };
        Ok(Typed::new(sql, ty))
    }

    /// date ± interval (folded when both are literals), timestamp ± interval.
    fn temporal_arithmetic(
        &mut self,
        op: char,
        l: &Typed,
        r: &Typed,
        at: Option<(u64, u64)>,
    ) -> Result<Option<Typed>, TrinoError> {
        let (base, iv) = match (&l.ty, &r.ty) {
            (
                TrinoType::Date | TrinoType::Timestamp(_),
                TrinoType::IntervalDayToSecond | TrinoType::IntervalYearToMonth,
            ) => (l, r),
            (
                TrinoType::IntervalDayToSecond | TrinoType::IntervalYearToMonth,
                TrinoType::Date | TrinoType::Timestamp(_),
            ) if op == '+' => (r, l),
            (TrinoType::IntervalDayToSecond, TrinoType::IntervalDayToSecond)
            | (TrinoType::IntervalYearToMonth, TrinoType::IntervalYearToMonth) => {
                let konst = match (&l.konst, &r.konst) {
                    (Some(Konst::Months(a)), Some(Konst::Months(b))) => if op == '+' {
                        a.checked_add(*b)
                    } else {
                        a.checked_sub(*b)
                    }
                    .map(Konst::Months),
                    (Some(Konst::Millis(a)), Some(Konst::Millis(b))) => if op == '+' {
                        a.checked_add(*b)
                    } else {
                        a.checked_sub(*b)
                    }
                    .map(Konst::Millis),
                    _ => None,
                };
                return Ok(Some(Typed {
                    sql: format!("({} {op} {})", l.sql, r.sql),
                    ty: l.ty.clone(),
                    konst,
                }));
            }
            _ => return Ok(None),
        };
        let sign = if op == '-' { -1 } else { 1 };
        let amount = match &iv.konst {
            Some(Konst::Months(m)) | Some(Konst::Millis(m)) => *m * sign,
            _ => return Err(not_supported(at, "Arithmetic with a computed interval")),
        };
        let months = iv.ty == TrinoType::IntervalYearToMonth;
        match &base.ty {
            TrinoType::Date => {
                if !months && amount % 86_400_000 != 0 {
                    return Err(error_at(
                        ErrorName::InvalidFunctionArgument,
                        at,
                        "Cannot add hour, minute or second to a date",
                    ));
                }
                if let Some(Konst::Date(d)) = base.konst {
                    let folded = if months {
                        dates::add_months(d, amount)
                    } else {
                        dates::add_days(d, amount / 86_400_000)
                    }
                    .ok_or_else(|| {
                        error_at(
                            ErrorName::NumericValueOutOfRange,
                            at,
                            "Date is out of range",
                        )
                    })?;
                    return Ok(Some(Typed {
                        sql: sql_string(&dates::format_date(folded)),
                        ty: TrinoType::Date,
                        konst: Some(Konst::Date(folded)),
                    }));
                }
                let sql = if months {
                    format!("qm_add_months({}, {amount})", base.sql)
                } else {
                    format!("date({}, '{:+} days')", base.sql, amount / 86_400_000)
                };
                Ok(Some(Typed::new(sql, TrinoType::Date)))
            }
            _ => {
                let sql = if months {
                    format!(
                        "(qm_add_months({}, {amount}) || substr({}, 11))",
                        base.sql, base.sql
                    )
                } else {
                    format!(
                        "strftime('%Y-%m-%d %H:%M:%f', {}, '{:+} seconds')",
                        base.sql,
                        amount as f64 / 1000.0
                    )
                };
                Ok(Some(Typed::new(sql, base.ty.clone())))
            }
        }
    }

    pub fn cast(
        &mut self,
        t: Typed,
        target: &TrinoType,
        try_cast: bool,
        at: Option<(u64, u64)>,
    ) -> Result<Typed, TrinoError> {
        use TrinoType::*;
        let from = t.ty.clone();
        let via_udf = |t: &Typed| {
            Typed::new(
                format!(
                    "qm_cast({}, '{}', '{}', {})",
                    t.sql,
                    cast_kind(&t.ty),
                    cast_kind(target),
                    i32::from(try_cast)
                ),
                target.clone(),
            )
        };
        let allowed = match (&from, target) {
            (a, b) if a == b => {
                return Ok(Typed {
                    ty: target.clone(),
                    ..t
                });
            }
            (Unknown, _) => return Ok(Typed::new("NULL", target.clone())),
            (a, b) if a.is_numeric() && b.is_numeric() => true,
            (a, Varchar(_) | Char(_))
                if a.is_numeric()
                    || matches!(a, Boolean | Date | Timestamp(_) | Varchar(_) | Char(_)) =>
            {
                true
            }
            (Varchar(_) | Char(_), b)
                if b.is_numeric() || matches!(b, Boolean | Date | Timestamp(_)) =>
            {
                true
            }
            (Boolean, b) if b.is_numeric() => true,
            (a, Boolean) if a.is_numeric() => true,
            (Date, Timestamp(_)) | (Timestamp(_), Date) | (Timestamp(_), Timestamp(_)) => true,
            _ => false,
        };
        if !allowed {
            return Err(error_at(
                ErrorName::TypeMismatch,
                at,
                format!("Cannot cast {from} to {target}"),
            ));
        }
        let sql = match (&from, target) {
            (a, b) if a.is_integral() && b.is_integral() && rank_le(a, b) => t.sql.clone(),
            (a, Double | Real | Decimal { scale: 0, .. }) if a.is_integral() => {
                format!("CAST({} AS REAL)", t.sql)
            }
            (Real, Double) | (Double, Real) => t.sql.clone(),
            (a, Varchar(None)) if a.is_integral() => format!("CAST({} AS TEXT)", t.sql),
            (Varchar(_) | Char(_), Varchar(None)) | (Date, Varchar(None)) => t.sql.clone(),
            (Varchar(_) | Char(_) | Date, Varchar(Some(n))) => format!("substr({}, 1, {n})", t.sql),
            (Date, Timestamp(_)) => format!("({} || ' 00:00:00.000')", t.sql),
            (Timestamp(_), Date) => format!("substr({}, 1, 10)", t.sql),
            (Timestamp(_), Timestamp(_)) => t.sql.clone(),
            (Boolean, b) if b.is_integral() => t.sql.clone(),
            (a, Boolean) if a.is_numeric() => format!("({} <> 0)", t.sql),
            _ => via_udf(&t).sql,
        };
        Ok(Typed::new(sql, target.clone()))
    }

    /// year(), month(), … and EXTRACT: bigint parts of a date or timestamp.
    pub fn date_part(
        &mut self,
        unit: &str,
        t: Typed,
        at: Option<(u64, u64)>,
    ) -> Result<Typed, TrinoError> {
        let is_ts = matches!(t.ty, TrinoType::Timestamp(_) | TrinoType::TimestampTz(_));
        if !(t.ty == TrinoType::Date || is_ts) {
            return Err(error_at(
                ErrorName::FunctionNotFound,
                at,
                format!("Unexpected parameters ({}) for function {unit}", t.ty),
            ));
        }
        let sub =
            |from: u32, len: u32| format!("CAST(substr({}, {from}, {len}) AS INTEGER)", t.sql);
        let sql = match unit {
            "year" => sub(1, 4),
            "month" => sub(6, 2),
            "day" => sub(9, 2),
            "hour" | "minute" | "second" if is_ts => match unit {
                "hour" => sub(12, 2),
                "minute" => sub(15, 2),
                _ => sub(18, 2),
            },
            "hour" | "minute" | "second" => {
                return Err(error_at(
                    ErrorName::InvalidFunctionArgument,
                    at,
                    format!("Invalid EXTRACT field {unit} for date"),
                ));
            }
            other => format!("qm_date_part('{other}', {})", t.sql),
        };
        Ok(Typed::new(sql, TrinoType::BigInt))
    }
}

fn exact(k: &Option<Konst>) -> Option<(i128, u32)> {
    match k {
        Some(Konst::Int(n)) => Some((i128::from(*n), 0)),
        Some(Konst::Decimal(u, s)) => Some((*u, *s)),
        _ => None,
    }
}

fn rescale(u: i128, from: u32, to: u32) -> Option<i128> {
    if to >= from {
        u.checked_mul(10i128.checked_pow(to - from)?)
    } else {
        None
    }
}

/// `a op b` on exact decimals, at `scale`; `None` when not exact (division) or overflowing.
fn exact_op(op: char, (a, sa): (i128, u32), (b, sb): (i128, u32), scale: u32) -> Option<i128> {
    match op {
        '+' => rescale(a, sa, scale)?.checked_add(rescale(b, sb, scale)?),
        '-' => rescale(a, sa, scale)?.checked_sub(rescale(b, sb, scale)?),
        '*' => rescale(a.checked_mul(b)?, sa + sb, scale),
        _ => None,
    }
}

/// An exact decimal as SQL text with `scale` fraction digits (a REAL in SQLite).
fn decimal_text(unscaled: i128, scale: u32) -> String {
    let sign = if unscaled < 0 { "-" } else { "" };
    let digits = format!(
        "{:0width$}",
        unscaled.unsigned_abs(),
        width = scale as usize + 1
    );
    let (int_part, frac) = digits.split_at(digits.len() - scale as usize);
    let frac = if frac.is_empty() { "0" } else { frac };
    format!("{sign}{int_part}.{frac}")
}

fn rank_le(a: &TrinoType, b: &TrinoType) -> bool {
    let rank = |t: &TrinoType| match t {
        TrinoType::TinyInt => 1,
        TrinoType::SmallInt => 2,
        TrinoType::Integer => 3,
        _ => 4,
    };
    rank(a) <= rank(b)
}

/// varchar(n) of a concatenation: the lengths add up, unbounded if any is.
pub fn concat_type(types: &[&TrinoType]) -> TrinoType {
    let mut total: u64 = 0;
    for t in types {
        match t {
            TrinoType::Varchar(Some(n)) | TrinoType::Char(n) => total += u64::from(*n),
            TrinoType::Unknown => {}
            _ => return TrinoType::Varchar(None),
        }
    }
    TrinoType::Varchar(
        u32::try_from(total)
            .ok()
            .filter(|n| *n < crate::querymesh::types::UNBOUNDED_VARCHAR),
    )
}
