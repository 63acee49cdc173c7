//! `qm_format_number` and `qm_parse_data_size`: Trino's FormatNumberFunction and
//! DataSizeFunctions, digit for digit.

use querymesh_values::decimal::{self, to_sqlite};
use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::{Value, ValueRef};

use crate::udf::{FLAGS, define, fail, text};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_FORMAT_NUMBER: SqliteFn = SqliteFn::new("qm_format_number");
pub const QM_PARSE_DATA_SIZE: SqliteFn = SqliteFn::new("qm_parse_data_size");

/// `count` in thousands, millions… (FormatNumberFunction.format): each step divides the
/// double by 1000 while it is at least 1000 in size, then Java's `DecimalFormat` with
/// HALF_UP prints it with 2 decimals below 10 (every negative value included), 1 below 100,
/// none above, trailing zeros dropped.
pub fn format_number(count: i64) -> String {
    let mut value = count as f64;
    let mut unit = "";
    for next in ["K", "M", "B", "T", "Q"] {
        if value >= 1000.0 || value <= -1000.0 {
            value /= 1000.0;
            unit = next;
        }
    }
    let decimals = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    format!("{}{unit}", half_up(value, decimals))
}

/// `x` rounded half up (away from zero) at `decimals` places from its exact binary value, as
/// `DecimalFormat` rounds, without trailing zeros.
fn half_up(x: f64, decimals: u32) -> String {
    // Every double here is an integer or at least 1 in size, so 60 places are its exact
    // expansion (at most 52 fraction bits).
    let unscaled = decimal::parse(&format!("{x:.60}"), decimals).unwrap_or(0);
    let text = decimal::format(unscaled, decimals);
    if decimals == 0 {
        text
    } else {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The bytes `size` names (DataSizeFunctions.parseDataSize): a decimal number, then exactly one
/// of B, kB, MB, GB, TB, PB, EB, ZB, YB (powers of 1024), the fraction of a byte dropped.
pub fn parse_data_size(size: &str) -> Result<i128, (ErrorName, String)> {
    let invalid = || {
        (
            ErrorName::InvalidFunctionArgument,
            format!("Invalid data size: '{size}'"),
        )
    };
    let number_end = size
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(size.len());
    let (number, unit) = size.split_at(number_end);
    let power = match unit {
        "B" => 0,
        "kB" => 1,
        "MB" => 2,
        "GB" => 3,
        "TB" => 4,
        "PB" => 5,
        "EB" => 6,
        "ZB" => 7,
        "YB" => 8,
        _ => return Err(invalid()),
    };
    // java.math.BigDecimal's text: digits with at most one point, at least one digit.
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if (whole.is_empty() && fraction.is_empty()) || fraction.contains('.') {
        return Err(invalid());
    }
    // The digits, times 1024^power one doubling at a time, then the fraction's places cut.
    let mut digits: Vec<u8> = whole
        .bytes()
        .chain(fraction.bytes())
        .map(|d| d - b'0')
        .collect();
    for _ in 0..power * 10 {
        let mut carry = 0;
        for d in digits.iter_mut().rev() {
            let twice = *d * 2 + carry;
            *d = twice % 10;
            carry = twice / 10;
        }
        if carry > 0 {
            digits.insert(0, carry);
        }
    }
    digits.truncate(digits.len() - fraction.len());
    let bytes: String = match digits.iter().position(|d| *d != 0) {
        Some(first) => digits[first..]
            .iter()
            .map(|d| char::from(b'0' + d))
            .collect(),
        None => "0".to_string(),
    };
    // Int128.valueOf: what does not fit 128 bits is out of range.
    bytes.parse::<i128>().map_err(|_| {
        (
            ErrorName::NumericValueOutOfRange,
            format!("Value out of range: '{size}' ('{bytes}B')"),
        )
    })
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_FORMAT_NUMBER.name(), 1, FLAGS, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Integer(n) => Some(format_number(n)),
            // The double overload: Java's `(long) value`, which truncates, saturates, and
            // makes NaN 0 — as Rust's `as` does.
            ValueRef::Real(x) => Some(format_number(x as i64)),
            _ => None,
        })
    })?;
    define(conn, QM_PARSE_DATA_SIZE.name(), 1, FLAGS, |ctx| {
        let Some(size) = text(ctx.get_raw(0)) else {
            return Ok(Value::Null);
        };
        parse_data_size(&size)
            .map(|bytes| to_sqlite(bytes, 38))
            .map_err(|(name, message)| fail(name, message))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // The documentation's examples and FormatNumberFunction's rounding.
    #[test]
    fn numbers_take_a_unit_and_three_significant_digits() {
        for (n, text) in [
            (0, "0"),
            (999, "999"),
            (1000, "1K"),
            (1500, "1.5K"),
            (99_999, "100K"),
            (123_456, "123K"),
            (654_321, "654K"),
            (999_999, "1000K"),
            (1_000_000, "1M"),
            (2_000_000, "2M"),
            (1_234_567_890, "1.23B"),
            (1_234_567_890_123, "1.23T"),
            (1_234_567_890_123_456, "1.23Q"),
            (i64::MAX, "9223Q"),
            (-999, "-999"),
            (-123_456, "-123.46K"),
            (1235, "1.24K"),
            (1234, "1.23K"),
        ] {
            assert_eq!(format_number(n), text, "{n}");
        }
    }

    // DataSizeFunctions' units, and TestDataSizeFunctions' refusals.
    #[test]
    fn data_sizes_are_powers_of_1024_with_the_fraction_dropped() {
        for (size, bytes) in [
            ("0B", 0),
            ("1B", 1),
            ("12345B", 12_345),
            ("1kB", 1024),
            ("1.5kB", 1536),
            ("2.3MB", 2_411_724),
            ("0.5B", 0),
            ("1GB", 1 << 30),
            ("1EB", 1 << 60),
            ("1YB", 1 << 80),
            ("99999999YB", 99_999_999 * (1 << 80)),
            (".5kB", 512),
            ("1.kB", 1024),
        ] {
            assert_eq!(parse_data_size(size), Ok(bytes), "{size}");
        }
        for size in ["", "1", "1KB", "1kb", "3 MB", "-1B", "1.2.3MB", ".B", "B"] {
            let Err((name, message)) = parse_data_size(size) else {
                panic!("{size} parsed");
            };
            assert_eq!(name, ErrorName::InvalidFunctionArgument);
            assert_eq!(message, format!("Invalid data size: '{size}'"));
        }
        let Err((name, message)) = parse_data_size("999999999999999999999YB") else {
            panic!("parsed");
        };
        assert_eq!(name, ErrorName::NumericValueOutOfRange);
        assert!(message.starts_with("Value out of range: '999999999999999999999YB' ('"));
    }
}
