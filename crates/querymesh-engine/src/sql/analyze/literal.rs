//! Literals and type names: numbers (integer, decimal, double as Trino types them),
//! strings, booleans, NULL, typed literals (`DATE '…'`, `DECIMAL '…'`, …), INTERVALs, and the
//! Trino type names CAST accepts.

use querymesh_values::calendar;
use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::{Constant, Typed};
use sqlparser::ast::{DataType, DateTimeField, Value};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::Analyzer;
use crate::types::TrinoType;

pub fn parse_type(dt: &DataType, at: Option<Position>) -> Result<TrinoType, TrinoError> {
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
        DataType::Timestamp(p, TimezoneInfo::WithTimeZone) => {
            let p = p.unwrap_or(3);
            if p > 12 {
                return Err(error_at(
                    ErrorName::InvalidLiteral,
                    at,
                    format!("TIMESTAMP WITH TIME ZONE precision must be in range [0, 12]: {p}"),
                ));
            }
            TrinoType::TimestampTz(p as u8)
        }
        DataType::Time(p, tz) => {
            let p = p.unwrap_or(3);
            if p > 12 {
                return Err(error_at(
                    ErrorName::InvalidLiteral,
                    at,
                    format!("TIME precision must be in range [0, 12]: {p}"),
                ));
            }
            if matches!(tz, TimezoneInfo::WithTimeZone) {
                TrinoType::TimeTz(p as u8)
            } else {
                TrinoType::Time(p as u8)
            }
        }
        DataType::JSON => TrinoType::Json,
        DataType::Uuid => TrinoType::Uuid,
        DataType::Varbinary(_) => TrinoType::Varbinary,
        DataType::Custom(name, args)
            if args.is_empty()
                && let Some(text) =
                    name.0.first().and_then(|p| p.as_ident()).and_then(|i| {
                        crate::sql::syntax::cast_types::placeholder_text(&i.value)
                    }) =>
        {
            crate::sql::syntax::cast_types::placeholder_type(text)
                .map_err(|m| error_at(ErrorName::TypeNotFound, at, m))?
        }
        DataType::Custom(name, args) if args.is_empty() => {
            match name.to_string().to_lowercase().as_str() {
                "bigint" => TrinoType::BigInt,
                "double" => TrinoType::Double,
                "varchar" => TrinoType::Varchar(None),
                "json" => TrinoType::Json,
                "uuid" => TrinoType::Uuid,
                "varbinary" => TrinoType::Varbinary,
                "ipaddress" => TrinoType::IpAddress,
                "color" => TrinoType::Color,
                "setdigest" => TrinoType::SetDigest,
                "bingtile" => TrinoType::BingTile,
                "geometry" => TrinoType::Geometry,
                "sphericalgeography" => TrinoType::SphericalGeography,
                "hyperloglog" => TrinoType::HyperLogLog,
                "p4hyperloglog" => TrinoType::P4HyperLogLog,
                "tdigest" => TrinoType::TDigest,
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

/// The value of Trino's INTEGER_VALUE token as written (SqlBase.g4): decimal, `0x1F`, `0o17`
/// or `0b101`, with `_` between digits (`1_000`). `None` for anything else, or out of range.
pub(in crate::sql) fn integer_literal(text: &str) -> Option<i128> {
    let digits = text.replace('_', "");
    let prefixed = |p: &str| {
        digits
            .get(..2)
            .is_some_and(|head| head.eq_ignore_ascii_case(p))
    };
    let (radix, body) = if prefixed("0x") {
        (16, &digits[2..])
    } else if prefixed("0o") {
        (8, &digits[2..])
    } else if prefixed("0b") {
        (2, &digits[2..])
    } else {
        (10, digits.as_str())
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    i128::from_str_radix(body, radix).ok()
}

pub(in crate::sql) fn numeric_literal(
    text: &str,
    at: Option<Position>,
) -> Result<Typed, TrinoError> {
    if let Some(n) = integer_literal(text)
        && text.contains(['_', 'x', 'X', 'o', 'O', 'b', 'B'])
    {
        // Underscores and prefixes are Trino's spellings; SQLite takes the plain number.
        return numeric_literal(&n.to_string(), at);
    }
    // `1_000.5` and `1_0e3`: the digits without their separators.
    if text.contains('_') {
        return numeric_literal(&text.replace('_', ""), at);
    }
    if text.contains(['e', 'E']) {
        // A finite double, or one too large for a double: SQLite reads `9e999` as infinity.
        let value: f64 = text.parse().map_err(|_| {
            error_at(
                ErrorName::SyntaxError,
                at,
                format!("Invalid numeric literal: {text}"),
            )
        })?;
        return Ok(Typed::new(SqlExpr::Real(value), TrinoType::Double));
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
        // At most 38 digits: the unscaled value fits i128 (decimal.rs stores it exactly).
        let unscaled = digits.parse::<i128>().unwrap_or(0);
        return Ok(querymesh_values::decimal::literal(
            unscaled,
            significant as u8,
            frac.len() as u8,
        ));
    }
    match text.parse::<i64>() {
        Ok(n) => {
            let ty = if i32::try_from(n).is_ok() {
                TrinoType::Integer
            } else {
                TrinoType::BigInt
            };
            Ok(Typed {
                sql: SqlExpr::Integer(n),
                ty,
                constant: Some(Constant::Int(n)),
                bound: None,
            })
        }
        Err(_) => Err(error_at(
            ErrorName::SyntaxError,
            at,
            format!("Invalid numeric literal: {text}"),
        )),
    }
}

/// Milliseconds in one of the day-to-second fields, and its order among them.
fn day_time_unit(field: &DateTimeField) -> Option<(usize, i64)> {
    match field {
        DateTimeField::Day | DateTimeField::Days => Some((0, 86_400_000)),
        DateTimeField::Hour | DateTimeField::Hours => Some((1, 3_600_000)),
        DateTimeField::Minute | DateTimeField::Minutes => Some((2, 60_000)),
        DateTimeField::Second | DateTimeField::Seconds => Some((3, 1000)),
        _ => None,
    }
}

const DAY_TIME_MILLIS: [i64; 4] = [86_400_000, 3_600_000, 60_000, 1000];

/// `'D HH:MM:SS.fff'` from `start` to `end` (`'2 03'` DAY TO HOUR, `'3:04'` HOUR TO MINUTE,
/// `'1.5'` SECOND …) in milliseconds, as Trino's DateTimeUtils.parseDayTimeInterval reads it.
fn day_time_millis(text: &str, start: usize, end: usize) -> Option<i64> {
    let parts: Vec<&str> = text.split([' ', ':']).collect();
    if parts.len() != end.checked_sub(start)? + 1 {
        return None;
    }
    let mut total: i64 = 0;
    for (i, part) in parts.iter().enumerate() {
        let unit = *DAY_TIME_MILLIS.get(start + i)?;
        let millis = if start + i == 3 {
            let seconds: f64 = part.parse().ok()?;
            if !seconds.is_finite() || part.starts_with(['-', '+']) {
                return None;
            }
            (seconds * 1000.0).round() as i64
        } else {
            if !part.chars().all(|c| c.is_ascii_digit()) || part.is_empty() {
                return None;
            }
            part.parse::<i64>().ok()?.checked_mul(unit)?
        };
        total = total.checked_add(millis)?;
    }
    Some(total)
}

/// `INTERVAL 'text' field [TO field]` (docs language/types "INTERVAL YEAR TO MONTH",
/// "INTERVAL DAY TO SECOND"): a year-month interval in months, a day-time one in
/// milliseconds. A leading `-` in the text or before it negates.
pub(in crate::sql) fn interval(
    value: &str,
    field: &DateTimeField,
    last: Option<&DateTimeField>,
    negative: bool,
    at: Option<Position>,
) -> Result<Typed, TrinoError> {
    let bad = || {
        error_at(
            ErrorName::InvalidLiteral,
            at,
            format!("Invalid INTERVAL literal: '{value}'"),
        )
    };
    let text = value.trim();
    let (inner_negative, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let sign = if negative != inner_negative { -1 } else { 1 };
    let years_months = |text: &str, months_per: i64| -> Option<i64> {
        let n: i64 = text
            .parse()
            .ok()
            .filter(|_| !text.starts_with(['-', '+']))?;
        n.checked_mul(months_per)
    };
    let (amount, ty) = match (field, last) {
        (DateTimeField::Year | DateTimeField::Years, None) => {
            (years_months(text, 12), TrinoType::IntervalYearToMonth)
        }
        (DateTimeField::Month | DateTimeField::Months, None) => {
            (years_months(text, 1), TrinoType::IntervalYearToMonth)
        }
        (DateTimeField::Year | DateTimeField::Years, Some(DateTimeField::Month)) => {
            let months = text.split_once('-').and_then(|(y, m)| {
                // IntervalYearMonth.parse: the months may pass 11 ('1-13' is 2-1).
                let m = years_months(m, 1)?;
                years_months(y, 12)?.checked_add(m)
            });
            (months, TrinoType::IntervalYearToMonth)
        }
        (start, end) => {
            let (Some((from, _)), to) = (
                day_time_unit(start),
                end.map_or(Some(None), |e| day_time_unit(e).map(|(i, _)| Some(i))),
            ) else {
                return Err(not_supported(at, "This INTERVAL field"));
            };
            let Some(to) = to else {
                return Err(not_supported(at, "This INTERVAL field"));
            };
            (
                day_time_millis(text, from, to.unwrap_or(from)),
                TrinoType::IntervalDayToSecond,
            )
        }
    };
    // Bounded so that date arithmetic on it cannot overflow (over 30 000 years).
    let amount = amount
        .filter(|a| a.unsigned_abs() <= 1_000_000_000_000_000)
        .ok_or_else(bad)?
        * sign;
    let constant = if ty == TrinoType::IntervalYearToMonth {
        Constant::Months(amount)
    } else {
        Constant::Millis(amount)
    };
    Ok(Typed {
        sql: SqlExpr::Integer(amount),
        ty,
        constant: Some(constant),
        bound: None,
    })
}

/// `X'0A 0B'` (Trino's BinaryLiteral): whitespace is dropped, then only an even number of
/// hex digits may remain; SQLite reads the same spelling as a BLOB.
fn binary_literal(hex: &str, at: Option<Position>) -> Result<Typed, TrinoError> {
    let digits: String = hex.chars().filter(|c| !c.is_whitespace()).collect();
    let refuse = |text: &str| Err(error_at(ErrorName::SyntaxError, at, text));
    if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return refuse("Binary literal can only contain hexadecimal digits");
    }
    if !digits.len().is_multiple_of(2) {
        return refuse("Binary literal must contain an even number of digits");
    }
    let nibbles: Vec<u8> = digits
        .chars()
        .filter_map(|c| c.to_digit(16).and_then(|d| u8::try_from(d).ok()))
        .collect();
    let bytes = nibbles
        .chunks(2)
        .map(|pair| pair.iter().fold(0u8, |byte, n| (byte << 4) | n))
        .collect();
    Ok(Typed::new(SqlExpr::Blob(bytes), TrinoType::Varbinary))
}

impl Analyzer<'_> {
    pub(in crate::sql) fn value(
        &mut self,
        v: &Value,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        match v {
            Value::Number(n, _) => numeric_literal(n, at),
            Value::SingleQuotedString(s) => Ok(Typed::new(
                SqlExpr::text(s),
                TrinoType::Varchar(Some(s.chars().count() as u32)),
            )),
            Value::Boolean(b) => Ok(Typed::new(
                SqlExpr::Integer(i64::from(*b)),
                TrinoType::Boolean,
            )),
            Value::Null => Ok(Typed::new(SqlExpr::Null, TrinoType::Unknown)),
            Value::HexStringLiteral(hex) => binary_literal(hex, at),
            Value::DoubleQuotedString(s) => Err(error_at(
                ErrorName::ColumnNotFound,
                at,
                format!("Column '{s}' cannot be resolved"),
            )),
            Value::Placeholder(_) => match &mut self.describing {
                // A described statement's parameter: unknown until something coerces it.
                Some(describing) => {
                    describing.met(at);
                    Ok(Typed::new(SqlExpr::Null, TrinoType::Unknown))
                }
                None => Err(not_supported(
                    at,
                    "A parameter outside a prepared statement",
                )),
            },
            _ => Err(error_at(
                ErrorName::SyntaxError,
                at,
                format!("mismatched input '{v}'"),
            )),
        }
    }

    pub(in crate::sql) fn typed_literal(
        &mut self,
        dt: &DataType,
        text: &str,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        let ty = parse_type(dt, at)?;
        let invalid = || {
            error_at(
                ErrorName::InvalidLiteral,
                at,
                format!(
                    "'{text}' is not a valid {} literal",
                    ty.raw_type().to_uppercase()
                ),
            )
        };
        // ExpressionAnalyzer.visitTimestampLiteral: "'…' is not a valid TIMESTAMP literal".
        let timestamp_invalid = || {
            error_at(
                ErrorName::InvalidLiteral,
                at,
                format!("'{text}' is not a valid TIMESTAMP literal"),
            )
        };
        match &ty {
            TrinoType::Date => {
                let d = calendar::parse_date(text).ok_or_else(invalid)?;
                Ok(Typed {
                    sql: SqlExpr::text(calendar::format_date(d)),
                    ty,
                    constant: Some(Constant::Date(d)),
                    bound: None,
                })
            }
            // TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' is a timestamp(3) with
            // time zone (docs language/types "TIMESTAMP WITH TIME ZONE"); an unknown zone fails
            // as TimeZoneKey does.
            TrinoType::Timestamp(_) | TrinoType::TimestampTz(_)
                if let Some(parts) =
                    querymesh_functions::datetime::time_zone::sqlite::parse_parts(text)
                    && (parts.zone.is_some() || matches!(ty, TrinoType::TimestampTz(_))) =>
            {
                use querymesh_functions::datetime::time_zone::sqlite::{TextError, from_parts};
                let precision = parts.fraction.len() as u8;
                let zone = self.session_zone();
                let local = parts.day * 86_400 + parts.second_of_day;
                match from_parts(&parts, &zone, precision) {
                    // A wall time a DST gap skips is no literal (Trino reads it strictly),
                    // though a cast moves it past the gap.
                    Ok(z) if z.local() != local => Err(timestamp_invalid()),
                    Ok(z) => Ok(Typed::new(
                        SqlExpr::text(z.stored()),
                        TrinoType::TimestampTz(precision),
                    )),
                    Err(TextError::Zone(_)) => Err(timestamp_invalid()),
                    // TestTimestampWithTimeZone.testLiterals.
                    Err(TextError::Precision(n)) => Err(error_at(
                        ErrorName::NumericValueOutOfRange,
                        at,
                        format!("TIMESTAMP WITH TIME ZONE precision must be in range [0, 12]: {n}"),
                    )),
                    Err(_) => Err(timestamp_invalid()),
                }
            }
            TrinoType::TimestampTz(_) => Err(timestamp_invalid()),
            // ExpressionAnalyzer.visitTimeLiteral (TestTime.testLiterals).
            TrinoType::Time(_) | TrinoType::TimeTz(_) => {
                use querymesh_functions::datetime::time_of_day::{LiteralError, literal};
                literal(text).map_err(|e| match e {
                    LiteralError::Invalid => error_at(
                        ErrorName::InvalidLiteral,
                        at,
                        format!("'{text}' is not a valid TIME literal"),
                    ),
                    LiteralError::Precision(n) => error_at(
                        ErrorName::NumericValueOutOfRange,
                        at,
                        format!("TIME precision must be in range [0, 12]: {n}"),
                    ),
                })
            }
            TrinoType::Timestamp(_) => {
                let t = text.trim();
                let (day, time) = t.split_once(' ').unwrap_or((t, "00:00:00"));
                let d = calendar::parse_date(day).ok_or_else(timestamp_invalid)?;
                let digits = time.split_once('.').map_or(0, |(_, f)| f.len());
                // TestTimestamp.testLiterals: "TIMESTAMP precision must be in range [0, 12]".
                if digits > 12
                    && digits <= 64
                    && time
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b == b':' || b == b'.')
                {
                    return Err(error_at(
                        ErrorName::NumericValueOutOfRange,
                        at,
                        format!("TIMESTAMP precision must be in range [0, 12]: {digits}"),
                    ));
                }
                let precision = digits as u8;
                let stored = querymesh_functions::udf::normalize_timestamp(d, time, precision)
                    .ok_or_else(timestamp_invalid)?;
                Ok(Typed::new(
                    SqlExpr::text(stored),
                    TrinoType::Timestamp(precision),
                ))
            }
            TrinoType::Decimal { .. } => {
                // Trino reads the text exactly: `DECIMAL ' 7.1 '` is no literal.
                if text.trim() != text {
                    return Err(invalid());
                }
                // The type is the digits' (DECIMAL '-1.5' is decimal(2,1)); the sign is value.
                let unsigned = text.trim_start_matches(['-', '+']);
                let ty = if unsigned.contains('.') {
                    numeric_literal(unsigned, at)?.ty
                } else {
                    let digits = unsigned.trim_start_matches('0').len().max(1);
                    if digits > 38 || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(invalid());
                    }
                    TrinoType::Decimal {
                        precision: digits as u8,
                        scale: 0,
                    }
                };
                let TrinoType::Decimal { precision, scale } = ty else {
                    return Err(invalid());
                };
                // The text's exact value (a sign included) at the literal's own scale.
                let u =
                    querymesh_values::decimal::parse(text, u32::from(scale)).ok_or_else(invalid)?;
                Ok(querymesh_values::decimal::literal(u, precision, scale))
            }
            TrinoType::BigInt | TrinoType::Integer | TrinoType::SmallInt | TrinoType::TinyInt => {
                let n: i64 = text.trim().parse().map_err(|_| invalid())?;
                Ok(Typed {
                    sql: SqlExpr::Integer(n),
                    ty,
                    constant: Some(Constant::Int(n)),
                    bound: None,
                })
            }
            TrinoType::Double | TrinoType::Real => {
                // A real holds a float, widened exactly: REAL '0.1' = 0.1E0 is false
                // (docs language/types "REAL").
                let n: f64 = if ty == TrinoType::Real {
                    text.trim().parse::<f32>().map(f64::from)
                } else {
                    text.trim().parse()
                }
                .map_err(|_| invalid())?;
                // NaN travels as the text 'NaN' and the infinities as SQLite's too-large
                // literals (udf::real, `infinity()`): `CAST(NaN AS REAL)` is no SQL.
                let sql = if n.is_nan() {
                    SqlExpr::text("NaN")
                } else {
                    SqlExpr::Real(n)
                };
                Ok(Typed::new(sql, ty))
            }
            // `VARCHAR 'xyz'` is an unbounded varchar and `CHAR 'ab'` a char(2): the literal's
            // type is its keyword's, its length the text's (GenericLiteral, as Trino 476 types
            // `SELECT CHAR 'ab', VARCHAR 'xyz'`).
            TrinoType::Varchar(_) => Ok(Typed::new(SqlExpr::text(text), TrinoType::Varchar(None))),
            // CHAR 'ab ' is a char(3) (its text's length, CHAR '' a char(1)), stored without
            // trailing spaces as every char is (coerce::char_as_varchar).
            TrinoType::Char(_) => Ok(Typed::new(
                SqlExpr::text(text.trim_end_matches(' ')),
                TrinoType::Char(text.chars().count().max(1) as u32),
            )),
            TrinoType::Boolean => match text.trim().to_lowercase().as_str() {
                "true" => Ok(Typed::new(SqlExpr::Integer(1), ty)),
                "false" => Ok(Typed::new(SqlExpr::Integer(0), ty)),
                _ => Err(invalid()),
            },
            // VARBINARY 'text' is the text's UTF-8 bytes (TestVarbinaryFunctions.testVarbinarySubstring).
            TrinoType::Varbinary => Ok(Typed::new(SqlExpr::Blob(text.as_bytes().to_vec()), ty)),
            // UUID 'text' is CAST('text' AS uuid), evaluated now (UuidOperators).
            // The literal takes only the dashed form (`UUID '…'` with 32 bare hex digits is
            // "not a valid UUID literal", though CAST reads it the same way).
            TrinoType::Uuid => match querymesh_functions::binary::sqlite::uuid_from_varchar(text) {
                Ok(canonical) if text.len() == 36 => Ok(Typed::new(SqlExpr::text(canonical), ty)),
                _ => Err(invalid()),
            },
            TrinoType::Json => querymesh_functions::json::literal(text, at).map_err(|_| invalid()),
            // IPADDRESS 'text' (docs language/types IPADDRESS), evaluated now.
            TrinoType::IpAddress => querymesh_functions::ipaddress::literal_sql(text)
                .map(|sql| Typed::new(sql, ty.clone()))
                .ok_or_else(|| {
                    error_at(
                        ErrorName::InvalidLiteral,
                        at,
                        format!("'{text}' is not a valid IPADDRESS literal"),
                    )
                }),
            _ => Err(not_supported(at, &format!("A {ty} literal"))),
        }
    }
}
