//! Function calls: the dispatch (aggregate, window or scalar; DISTINCT, FILTER, OVER) and
//! Trino's scalar functions, typed by Trino's signatures and translated to SQLite (natively or
//! through the `qm_*` functions; aggregates and windows are in `aggregates.rs`). Anything
//! else, SQLite-only functions included, is `FUNCTION_NOT_FOUND`.

use sqlparser::ast::{
    DuplicateTreatment, Function, FunctionArg, FunctionArgExpr, FunctionArguments, ObjectNamePart,
};

use super::analyze::{Analyzer, Constant, Typed, error_at, location, not_supported};
use super::coerce::super_type;
use super::expr::{comparable, concat_type, sql_string};
use super::operators::coerced;
use super::scope::ExprContext;
use crate::querymesh::engine::error::{ErrorName, Position, TrinoError};
use crate::querymesh::engine::types::TrinoType;

pub(super) const AGGREGATES: &[&str] = &[
    "count",
    "sum",
    "avg",
    "min",
    "max",
    "approx_distinct",
    "count_if",
    "bool_and",
    "bool_or",
    "every",
    "arbitrary",
    "any_value",
    "stddev",
    "stddev_samp",
    "stddev_pop",
    "variance",
    "var_samp",
    "var_pop",
];
const WINDOW_ONLY: &[&str] = &[
    "row_number",
    "rank",
    "dense_rank",
    "ntile",
    "percent_rank",
    "cume_dist",
    "lag",
    "lead",
    "first_value",
    "last_value",
    "nth_value",
];

pub(super) fn unexpected(at: Option<Position>, name: &str, args: &[Typed]) -> TrinoError {
    let types: Vec<String> = args.iter().map(|a| a.ty.to_string()).collect();
    error_at(
        ErrorName::FunctionNotFound,
        at,
        format!(
            "Unexpected parameters ({}) for function {name}",
            types.join(", ")
        ),
    )
}

fn is_string_or_null(t: &TrinoType) -> bool {
    t.is_string() || *t == TrinoType::Unknown
}

/// What the date functions are told of their argument: 0 for a date, else the fraction
/// digits its stored text has.
fn fraction_digits(t: &TrinoType) -> usize {
    match t {
        TrinoType::Timestamp(p) => super::udf::stored_digits(*p),
        _ => 0,
    }
}

fn is_date_or_timestamp(t: &TrinoType) -> bool {
    matches!(t, TrinoType::Date | TrinoType::Timestamp(_))
}

/// A char(n) argument becomes varchar(n) in Trino's string functions.
fn as_varchar(t: &TrinoType) -> TrinoType {
    match t {
        TrinoType::Char(n) => TrinoType::Varchar(Some(*n)),
        other => other.clone(),
    }
}

fn varchar_length(t: &TrinoType) -> Option<u64> {
    match t {
        TrinoType::Varchar(n) => n.map(u64::from),
        TrinoType::Char(n) => Some(u64::from(*n)),
        _ => Some(0),
    }
}

/// replace(varchar(x), varchar(y), varchar(z)) is varchar(min(2^31 - 1, x + z * (x + 1)))
/// (StringFunctions.replace's constraint).
fn replaced_type(s: &TrinoType, to: &TrinoType) -> TrinoType {
    let bound = varchar_length(s)
        .zip(varchar_length(to))
        .map(|(x, z)| x + z * (x + 1))
        .filter(|u| *u < u64::from(crate::querymesh::engine::types::UNBOUNDED_VARCHAR));
    TrinoType::Varchar(bound.map(|u| u as u32))
}

/// SQLite's replace leaves the string alone for an empty search, Trino's inserts the
/// replacement around every code point: the native one only for a non-empty literal search.
fn replace_sql(s: &Typed, from: &Typed, to: &str) -> String {
    let nonempty_literal =
        from.sql.starts_with('\'') && matches!(from.ty, TrinoType::Varchar(Some(n)) if n > 0);
    let f = if nonempty_literal {
        "replace"
    } else {
        "qm_replace"
    };
    format!("{f}({}, {}, {to})", s.sql, from.sql)
}

/// An integer argument; a bare NULL is one too (Trino coerces `unknown` to the parameter).
fn is_integer_or_null(t: &TrinoType) -> bool {
    t.is_integral() || *t == TrinoType::Unknown
}

pub(super) fn is_numeric_or_null(t: &TrinoType) -> bool {
    t.is_numeric() || *t == TrinoType::Unknown
}

impl Analyzer<'_> {
    pub fn function(&mut self, f: &Function, cx: &ExprContext<'_>) -> Result<Typed, TrinoError> {
        let at = location(&f.name);
        let name = match f.name.0.as_slice() {
            [ObjectNamePart::Identifier(i)] => i.value.to_lowercase(),
            _ => {
                return Err(error_at(
                    ErrorName::FunctionNotFound,
                    at,
                    format!(
                        "Function '{}' not registered",
                        f.name.to_string().to_lowercase()
                    ),
                ));
            }
        };
        if f.uses_odbc_syntax
            || !f.within_group.is_empty()
            || !matches!(f.parameters, FunctionArguments::None)
        {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input: this call syntax is not Trino's",
            ));
        }
        let (distinct, arg_exprs, star) = match &f.args {
            FunctionArguments::None => (false, Vec::new(), false),
            FunctionArguments::Subquery(_) => {
                return Err(not_supported(
                    at,
                    "A subquery as a function's argument list",
                ));
            }
            FunctionArguments::List(list) => {
                if !list.clauses.is_empty() {
                    return Err(not_supported(
                        at,
                        "ORDER BY, LIMIT or separators inside a function call",
                    ));
                }
                let distinct =
                    matches!(list.duplicate_treatment, Some(DuplicateTreatment::Distinct));
                let mut exprs = Vec::new();
                let mut star = false;
                for arg in &list.args {
                    match arg {
                        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => exprs.push(e),
                        FunctionArg::Unnamed(FunctionArgExpr::Wildcard) => star = true,
                        _ => {
                            return Err(not_supported(at, "Named or qualified-wildcard arguments"));
                        }
                    }
                }
                (distinct, exprs, star)
            }
        };
        let is_aggregate = AGGREGATES.contains(&name.as_str());
        let is_window_only = WINDOW_ONLY.contains(&name.as_str());
        if star && !(name == "count" && arg_exprs.is_empty()) {
            return Err(error_at(ErrorName::SyntaxError, at, "mismatched input '*'"));
        }
        if f.over.is_some() {
            if !(is_aggregate || is_window_only) {
                return Err(error_at(
                    ErrorName::FunctionNotFound,
                    at,
                    format!("Not an aggregate or window function: {name}"),
                ));
            }
            if distinct || f.filter.is_some() {
                return Err(not_supported(at, "DISTINCT or FILTER in a window function"));
            }
            return self.window_call(&name, &arg_exprs, f, cx, at);
        }
        if f.null_treatment.is_some() {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input 'IGNORE'",
            ));
        }
        if is_window_only {
            return Err(error_at(
                ErrorName::GenericUserError,
                at,
                format!("Window function {name}() requires an OVER clause"),
            ));
        }
        if is_aggregate {
            if !cx.clause.allows_aggregates() {
                return Err(error_at(
                    ErrorName::ExpressionNotScalar,
                    at,
                    format!(
                        "{} cannot contain aggregations, window functions or grouping operations: [{}]",
                        cx.clause.describe(),
                        f
                    ),
                ));
            }
            if cx.in_aggregate {
                return Err(error_at(
                    ErrorName::NestedAggregation,
                    at,
                    format!("Cannot nest aggregations inside aggregation '{name}'"),
                ));
            }
            self.aggregates_seen += 1;
            let inner = ExprContext {
                in_aggregate: true,
                ..*cx
            };
            let mut args = Vec::new();
            for e in &arg_exprs {
                args.push(self.expr(e, &inner)?);
            }
            let filter = match &f.filter {
                Some(e) => {
                    let t = self.expr(e, &inner)?;
                    self.require_boolean(&t, e, "FILTER clause")?;
                    format!(" FILTER (WHERE {})", t.sql)
                }
                None => String::new(),
            };
            let (sql, ty) = self.aggregate(&name, &args, star, distinct, at)?;
            return Ok(Typed::new(format!("{sql}{filter}"), ty));
        }
        if distinct || f.filter.is_some() {
            return Err(error_at(
                ErrorName::FunctionNotFound,
                at,
                format!("Function '{name}' is not an aggregate function"),
            ));
        }
        let mut args = Vec::new();
        for e in &arg_exprs {
            args.push(self.expr(e, cx)?);
        }
        self.scalar_function(&name, args, at)
    }

    pub fn rounding(
        &mut self,
        name: &str,
        t: Typed,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        match &t.ty {
            ty if ty.is_integral() => Ok(t),
            TrinoType::Double | TrinoType::Real => {
                Ok(Typed::new(format!("qm_{name}({})", t.sql), t.ty.clone()))
            }
            TrinoType::Decimal { precision, scale } => {
                let p = (precision - scale + u8::from(*scale > 0)).clamp(1, 38);
                Ok(Typed::new(
                    format!("qm_{name}({})", t.sql),
                    TrinoType::Decimal {
                        precision: p,
                        scale: 0,
                    },
                ))
            }
            TrinoType::Unknown => Ok(t),
            _ => Err(unexpected(at, name, &[t])),
        }
    }

    pub fn scalar_function(
        &mut self,
        name: &str,
        args: Vec<Typed>,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        let bad = |args: &[Typed]| unexpected(at, name, args);
        let sql = |args: &[Typed]| args.iter().map(|a| a.sql.clone()).collect::<Vec<_>>();
        let strings = |args: &[Typed]| args.iter().all(|a| is_string_or_null(&a.ty));
        match (name, args.as_slice()) {
            ("abs", [a]) if is_numeric_or_null(&a.ty) => {
                Ok(Typed::new(format!("abs({})", a.sql), a.ty.clone()))
            }
            ("round", [a]) if is_numeric_or_null(&a.ty) => match &a.ty {
                t if t.is_integral() || *t == TrinoType::Unknown => Ok(a.clone()),
                // MathFunctions.Round: decimal(p - s + min(1, s), 0), half away from zero.
                TrinoType::Decimal { precision, scale } => Ok(Typed::new(
                    format!("qm_round_decimal({}, 0)", a.sql),
                    TrinoType::Decimal {
                        precision: (precision - scale + u8::from(*scale > 0)).clamp(1, 38),
                        scale: 0,
                    },
                )),
                other => Ok(Typed::new(
                    format!("qm_round_double({}, 0)", a.sql),
                    other.clone(),
                )),
            },
            ("round", [a, d]) if is_numeric_or_null(&a.ty) && is_integer_or_null(&d.ty) => {
                match &a.ty {
                    TrinoType::Unknown => Ok(a.clone()),
                    // MathFunctions.roundLong: a negative d rounds HALF_UP, in the same type.
                    t if t.is_integral() => Ok(Typed::new(
                        format!("qm_round_integer({}, {}, '{t}')", a.sql, d.sql),
                        t.clone(),
                    )),
                    // RoundN: decimal(min(38, p + 1), s).
                    TrinoType::Decimal { precision, scale } => Ok(Typed::new(
                        format!("qm_round_decimal({}, {})", a.sql, d.sql),
                        TrinoType::Decimal {
                            precision: (precision + 1).min(38),
                            scale: *scale,
                        },
                    )),
                    other => Ok(Typed::new(
                        format!("qm_round_double({}, {})", a.sql, d.sql),
                        other.clone(),
                    )),
                }
            }
            ("ceil" | "ceiling" | "floor" | "truncate", [a]) => {
                let base = if name == "ceiling" { "ceil" } else { name };
                self.rounding(base, a.clone(), at)
            }
            ("sqrt" | "ln" | "log10" | "exp", [a]) if is_numeric_or_null(&a.ty) => Ok(Typed::new(
                format!("qm_{name}({})", a.sql),
                TrinoType::Double,
            )),
            ("power" | "pow", [a, b]) if is_numeric_or_null(&a.ty) && is_numeric_or_null(&b.ty) => {
                Ok(Typed::new(
                    format!("qm_power({}, {})", a.sql, b.sql),
                    TrinoType::Double,
                ))
            }
            ("mod", [a, b]) => self.numeric_op('%', a.clone(), b.clone(), at),
            ("sign", [a]) if is_numeric_or_null(&a.ty) => {
                let ty = if a.ty.is_integral() {
                    a.ty.clone()
                } else if matches!(a.ty, TrinoType::Decimal { .. }) {
                    TrinoType::Decimal {
                        precision: 1,
                        scale: 0,
                    }
                } else {
                    a.ty.clone()
                };
                Ok(Typed::new(
                    format!(
                        "(CASE WHEN {0} > 0 THEN 1 WHEN {0} < 0 THEN -1 WHEN {0} = 0 THEN 0 END)",
                        a.sql
                    ),
                    ty,
                ))
            }
            ("greatest" | "least" | "coalesce", [first, ..]) => {
                let mut ty = first.ty.clone();
                for a in &args[1..] {
                    ty = super_type(&ty, &a.ty).ok_or_else(|| bad(&args))?;
                }
                let f = match name {
                    "greatest" => "max",
                    "least" => "min",
                    _ => "coalesce",
                };
                let mut parts: Vec<String> = args.iter().map(|a| coerced(a, &ty)).collect();
                if parts.len() == 1 {
                    if f != "coalesce" {
                        return Ok(first.clone());
                    }
                    parts.push("NULL".into());
                }
                Ok(Typed::new(format!("{f}({})", parts.join(", ")), ty))
            }
            ("nullif", [a, b]) if comparable(&a.ty, &b.ty) => Ok(Typed::new(
                format!("nullif({}, {})", a.sql, b.sql),
                a.ty.clone(),
            )),
            ("if", [c, rest @ ..])
                if matches!(c.ty, TrinoType::Boolean | TrinoType::Unknown)
                    && (1..=2).contains(&rest.len()) =>
            {
                let otherwise = rest
                    .get(1)
                    .map_or_else(|| "NULL".to_string(), |e| e.sql.clone());
                let ty = match rest.get(1) {
                    Some(e) => super_type(&rest[0].ty, &e.ty).ok_or_else(|| bad(&args))?,
                    None => rest[0].ty.clone(),
                };
                Ok(Typed::new(
                    format!(
                        "(CASE WHEN {} THEN {} ELSE {otherwise} END)",
                        c.sql, rest[0].sql
                    ),
                    ty,
                ))
            }
            // StringFunctions.charLength: a char(n) is n long, padding included.
            ("length", [a]) if matches!(a.ty, TrinoType::Char(_)) => {
                let n = match a.ty {
                    TrinoType::Char(n) => n,
                    _ => 0,
                };
                Ok(Typed::new(
                    format!("(CASE WHEN {} IS NULL THEN NULL ELSE {n} END)", a.sql),
                    TrinoType::BigInt,
                ))
            }
            ("length", [a]) if strings(&args) => {
                Ok(Typed::new(format!("length({})", a.sql), TrinoType::BigInt))
            }
            ("lower" | "upper", [a]) if strings(&args) => {
                // SQLite maps ASCII only; Trino every code point (StringFunctions.lower).
                Ok(Typed::new(format!("qm_{name}({})", a.sql), a.ty.clone()))
            }
            ("trim" | "ltrim" | "rtrim", [a]) if strings(&args) => {
                // Trino trims Java whitespace (tabs, newlines, …), SQLite only spaces.
                let mode = match name {
                    "ltrim" => 1,
                    "rtrim" => 2,
                    _ => 0,
                };
                Ok(Typed::new(
                    format!("qm_trim({}, {mode})", a.sql),
                    as_varchar(&a.ty),
                ))
            }
            // trim(s, chars): SQLite's trim(X, Y) removes exactly the code points in Y.
            ("trim" | "ltrim" | "rtrim", [a, chars]) if strings(&args) => Ok(Typed::new(
                format!("{name}({}, {})", a.sql, chars.sql),
                as_varchar(&a.ty),
            )),
            ("reverse", [a]) if strings(&args) => {
                Ok(Typed::new(format!("qm_reverse({})", a.sql), a.ty.clone()))
            }
            ("replace", [s, from]) if strings(&args) => {
                Ok(Typed::new(replace_sql(s, from, "''"), as_varchar(&s.ty)))
            }
            ("replace", [s, from, to]) if strings(&args) => Ok(Typed::new(
                replace_sql(s, from, &to.sql),
                replaced_type(&s.ty, &to.ty),
            )),
            ("substr" | "substring", [s, start, rest @ ..])
                if is_string_or_null(&s.ty)
                    && is_integer_or_null(&start.ty)
                    && rest.len() <= 1
                    && rest.iter().all(|r| is_integer_or_null(&r.ty)) =>
            {
                // SQLite's substr agrees with Trino's for a positive start and length only;
                // 0, negative starts and lengths need StringFunctions.substring's rules.
                let positive = |t: &Typed| matches!(t.constant, Some(Constant::Int(n)) if n > 0);
                let f = if positive(start) && rest.iter().all(positive) {
                    "substr"
                } else {
                    "qm_substr"
                };
                Ok(Typed::new(
                    format!("{f}({})", sql(&args).join(", ")),
                    as_varchar(&s.ty),
                ))
            }
            ("strpos", [s, sub]) if strings(&args) => Ok(Typed::new(
                format!("instr({}, {})", s.sql, sub.sql),
                TrinoType::BigInt,
            )),
            ("strpos", [s, sub, instance])
                if is_string_or_null(&s.ty)
                    && is_string_or_null(&sub.ty)
                    && is_integer_or_null(&instance.ty) =>
            {
                Ok(Typed::new(
                    format!("qm_strpos({})", sql(&args).join(", ")),
                    TrinoType::BigInt,
                ))
            }
            ("starts_with", [_, _]) if strings(&args) => Ok(Typed::new(
                format!("qm_starts_with({})", sql(&args).join(", ")),
                TrinoType::Boolean,
            )),
            ("split_part", [s, sep, i])
                if is_string_or_null(&s.ty)
                    && is_string_or_null(&sep.ty)
                    && is_integer_or_null(&i.ty) =>
            {
                Ok(Typed::new(
                    format!("qm_split_part({})", sql(&args).join(", ")),
                    s.ty.clone(),
                ))
            }
            ("lpad" | "rpad", [s, n, pad])
                if is_string_or_null(&s.ty)
                    && is_integer_or_null(&n.ty)
                    && is_string_or_null(&pad.ty) =>
            {
                Ok(Typed::new(
                    format!("qm_{name}({})", sql(&args).join(", ")),
                    TrinoType::Varchar(None),
                ))
            }
            ("concat", [_]) => Err(error_at(
                ErrorName::InvalidFunctionArgument,
                at,
                "There must be two or more concatenation arguments",
            )),
            ("concat", [_, ..]) if strings(&args) => {
                let types: Vec<&TrinoType> = args.iter().map(|a| &a.ty).collect();
                Ok(Typed::new(
                    format!("({})", sql(&args).join(" || ")),
                    concat_type(&types),
                ))
            }
            (
                "year" | "month" | "day" | "day_of_month" | "quarter" | "day_of_week" | "dow"
                | "day_of_year" | "doy" | "week" | "week_of_year" | "year_of_week" | "yow" | "hour"
                | "minute" | "second",
                [a],
            ) => {
                let unit = match name {
                    "day_of_month" => "day",
                    "dow" => "day_of_week",
                    "doy" => "day_of_year",
                    "week_of_year" => "week",
                    "yow" => "year_of_week",
                    other => other,
                };
                self.date_part(unit, a.clone(), at)
            }
            // DateTimeFunctions: date_trunc, date_add and date_diff take a date or a
            // timestamp(p) and keep its type.
            ("date_trunc", [unit, d]) if unit.ty.is_string() && is_date_or_timestamp(&d.ty) => {
                Ok(Typed::new(
                    format!(
                        "qm_date_trunc({}, {}, {})",
                        unit.sql,
                        d.sql,
                        fraction_digits(&d.ty)
                    ),
                    d.ty.clone(),
                ))
            }
            ("date_add", [unit, n, d])
                if unit.ty.is_string()
                    && is_integer_or_null(&n.ty)
                    && is_date_or_timestamp(&d.ty) =>
            {
                Ok(Typed::new(
                    format!(
                        "qm_date_add({}, {}, {}, {})",
                        unit.sql,
                        n.sql,
                        d.sql,
                        fraction_digits(&d.ty)
                    ),
                    d.ty.clone(),
                ))
            }
            ("date_diff", [unit, a, b])
                if unit.ty.is_string()
                    && is_date_or_timestamp(&a.ty)
                    && is_date_or_timestamp(&b.ty) =>
            {
                let ty = super_type(&a.ty, &b.ty).ok_or_else(|| bad(&args))?;
                let widen = |t: &Typed| super::operators::coerced(t, &ty);
                Ok(Typed::new(
                    format!(
                        "qm_date_diff({}, {}, {}, {})",
                        unit.sql,
                        widen(a),
                        widen(b),
                        fraction_digits(&ty)
                    ),
                    TrinoType::BigInt,
                ))
            }
            ("date" | "from_iso8601_date", [a])
                if a.ty.is_string()
                    || matches!(a.ty, TrinoType::Timestamp(_) | TrinoType::Date) =>
            {
                self.cast(a.clone(), &TrinoType::Date, false, at)
            }
            ("current_date", []) => Ok(Typed::new("date('now')", TrinoType::Date)),
            ("now" | "current_timestamp", []) => Ok(Typed::new(
                "strftime('%Y-%m-%d %H:%M:%f', 'now')",
                TrinoType::TimestampTz(3),
            )),
            ("typeof", [a]) => {
                // The argument stays in the SQL so an aggregate inside still makes SQLite
                // aggregate (`typeof(avg(x))` is one row, as in Trino).
                let name = sql_string(&a.ty.to_string());
                Ok(Typed::new(
                    format!("CASE WHEN ({}) IS NULL THEN {name} ELSE {name} END", a.sql),
                    TrinoType::Varchar(None),
                ))
            }
            (n, _) if KNOWN_SCALARS.contains(&n) => Err(bad(&args)),
            (n, _) => Err(error_at(
                ErrorName::FunctionNotFound,
                at,
                format!("Function '{n}' not registered"),
            )),
        }
    }
}

const KNOWN_SCALARS: &[&str] = &[
    "abs",
    "round",
    "ceil",
    "ceiling",
    "floor",
    "truncate",
    "sqrt",
    "ln",
    "log10",
    "exp",
    "power",
    "pow",
    "mod",
    "sign",
    "greatest",
    "least",
    "coalesce",
    "nullif",
    "if",
    "length",
    "lower",
    "upper",
    "trim",
    "ltrim",
    "rtrim",
    "reverse",
    "replace",
    "substr",
    "substring",
    "strpos",
    "starts_with",
    "split_part",
    "lpad",
    "rpad",
    "concat",
    "year",
    "month",
    "day",
    "day_of_month",
    "quarter",
    "day_of_week",
    "dow",
    "day_of_year",
    "doy",
    "week",
    "week_of_year",
    "year_of_week",
    "yow",
    "hour",
    "minute",
    "second",
    "date_trunc",
    "date_add",
    "date_diff",
    "date",
    "from_iso8601_date",
    "current_date",
    "now",
    "current_timestamp",
    "typeof",
];
