//! Times and timestamps for a client that does not declare `PARAMETRIC_DATETIME` in
//! `X-Trino-Client-Capabilities` (the JavaScript `trino-client`, plain HTTP): Trino then names
//! the types without their precision (`timestamp`, `time`, `time with time zone`, `timestamp
//! with time zone`, at every
//! depth of arrays, maps and rows) and sends each value rounded half up to milliseconds with
//! three digits (`05.9999` → `06.000`, `05` → `05.000`) — what Trino 476 answers, compared in
//! tests/real_trino and pinned in this module's tests.

use serde_json::{Value, json};

use crate::querymesh::engine::OutputColumn;
use crate::querymesh::engine::types::TrinoType;

/// The capability a client names to receive times and timestamps with their precision.
const PARAMETRIC_DATETIME: &str = "PARAMETRIC_DATETIME";

/// Whether the client's `X-Trino-Client-Capabilities` (a comma-separated list) asks for it.
pub fn parametric(capabilities: Option<&str>) -> bool {
    capabilities.is_some_and(|list| list.split(',').any(|c| c.trim() == PARAMETRIC_DATETIME))
}

/// The column types whose values need rewriting for such a client; `None` when none does.
pub fn column_types(columns: &[OutputColumn]) -> Option<Vec<TrinoType>> {
    columns
        .iter()
        .any(|c| has_datetime(&c.ty))
        .then(|| columns.iter().map(|c| c.ty.clone()).collect())
}

fn has_datetime(ty: &TrinoType) -> bool {
    match ty {
        TrinoType::Time(_)
        | TrinoType::TimeTz(_)
        | TrinoType::Timestamp(_)
        | TrinoType::TimestampTz(_) => true,
        TrinoType::Array(element) => has_datetime(element),
        TrinoType::Map(key, value) => has_datetime(key) || has_datetime(value),
        TrinoType::Row(fields) => fields.iter().any(|(_, t)| has_datetime(t)),
        _ => false,
    }
}

/// The `columns` array as Trino sends it to such a client.
pub fn columns_json(columns: &[OutputColumn]) -> Vec<Value> {
    columns
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "type": super::protocol::client_type_name(&c.ty, false),
                "typeSignature": signature(&c.ty),
            })
        })
        .collect()
}

fn signature(ty: &TrinoType) -> Value {
    let of = |t: &TrinoType| json!({"kind": "TYPE", "value": signature(t)});
    let arguments: Vec<Value> = match ty {
        TrinoType::Time(_)
        | TrinoType::TimeTz(_)
        | TrinoType::Timestamp(_)
        | TrinoType::TimestampTz(_) => vec![],
        TrinoType::Array(element) => vec![of(element)],
        TrinoType::Map(key, value) => vec![of(key), of(value)],
        TrinoType::Row(fields) => fields
            .iter()
            .map(|(field, t)| {
                let mut value = json!({"typeSignature": signature(t)});
                if let Some(field) = field {
                    value["fieldName"] = json!({"name": field});
                }
                json!({"kind": "NAMED_TYPE", "value": value})
            })
            .collect(),
        other => return other.type_signature(),
    };
    json!({"rawType": ty.raw_type(), "arguments": arguments})
}

/// Rewrites one row's values of these column types in place.
pub fn rewrite_row(types: &[TrinoType], row: &mut [Value]) {
    for (ty, value) in types.iter().zip(row.iter_mut()) {
        rewrite(ty, value);
    }
}

fn rewrite(ty: &TrinoType, value: &mut Value) {
    match (ty, value) {
        (TrinoType::Timestamp(_), Value::String(text)) => {
            if let Some(rounded) = timestamp(text.as_str()) {
                *text = rounded;
            }
        }
        (TrinoType::TimestampTz(_), Value::String(text)) => {
            // `2020-01-02 03:04:05.123456 America/New_York`: the zone follows the time.
            let parts: Vec<&str> = text.splitn(3, ' ').collect();
            if let [date, time, zone] = parts[..]
                && let Some(rounded) = timestamp(&format!("{date} {time}"))
            {
                *text = format!("{rounded} {zone}");
            }
        }
        (TrinoType::Time(_), Value::String(text)) => {
            if let Some(rounded) = time(text.as_str()) {
                *text = rounded;
            }
        }
        (TrinoType::TimeTz(_), Value::String(text)) => {
            // `01:02:03.456789-08:00`: the offset follows the time.
            if let Some(sign) = text.rfind(['+', '-'])
                && let Some(rounded) = time(&text[..sign])
            {
                *text = format!("{rounded}{}", &text[sign..]);
            }
        }
        (TrinoType::Array(element), Value::Array(items)) => {
            items.iter_mut().for_each(|item| rewrite(element, item));
        }
        (TrinoType::Map(_, value_type), Value::Object(entries)) => {
            // Trino 476 leaves the keys at their precision (`{"2020-01-01 00:00:00.1234": 1}`).
            entries.values_mut().for_each(|v| rewrite(value_type, v));
        }
        (TrinoType::Row(fields), Value::Array(items)) => {
            for ((_, t), item) in fields.iter().zip(items.iter_mut()) {
                rewrite(t, item);
            }
        }
        _ => {}
    }
}

/// `HH:MM:SS[.f…]` split into whole seconds of the day part and milliseconds rounded half up:
/// (text before the fraction, milliseconds, carried into the next second).
fn round_fraction(text: &str) -> Option<(&str, u32, bool)> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digit = |i: usize| {
        fraction
            .as_bytes()
            .get(i)
            .map_or(0, |b| u32::from(b - b'0'))
    };
    let mut millis = digit(0) * 100 + digit(1) * 10 + digit(2);
    if digit(3) >= 5 {
        millis += 1;
    }
    Some((whole, millis % 1000, millis == 1000))
}

fn timestamp(text: &str) -> Option<String> {
    let (whole, millis, carry) = round_fraction(text)?;
    let whole = if carry {
        let parsed: jiff::civil::DateTime = whole.parse().ok()?;
        parsed
            .checked_add(jiff::SignedDuration::from_secs(1))
            .ok()?
            .strftime("%Y-%m-%d %H:%M:%S")
            .to_string()
    } else {
        whole.to_string()
    };
    Some(format!("{whole}.{millis:03}"))
}

fn time(text: &str) -> Option<String> {
    let (whole, millis, carry) = round_fraction(text)?;
    let whole = if carry {
        let parsed: jiff::civil::Time = whole.parse().ok()?;
        // A time of day wraps past midnight.
        parsed
            .wrapping_add(jiff::SignedDuration::from_secs(1))
            .strftime("%H:%M:%S")
            .to_string()
    } else {
        whole.to_string()
    };
    Some(format!("{whole}.{millis:03}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(ty: TrinoType) -> OutputColumn {
        OutputColumn {
            name: "c".into(),
            ty,
        }
    }

    #[test]
    fn only_the_declared_capability_counts() {
        assert!(parametric(Some(
            "PATH, PARAMETRIC_DATETIME,SESSION_AUTHORIZATION"
        )));
        assert!(!parametric(Some("PATH")));
        assert!(!parametric(Some("PARAMETRIC_DATETIMES")));
        assert!(!parametric(None));
    }

    // What Trino 476 answered a client without the capability for
    // `SELECT TIMESTAMP '2020-01-02 03:04:05.123456789012', TIMESTAMP '… 05.9999',
    // TIMESTAMP '… 05.1', TIME '01:02:03.4567', ARRAY[TIMESTAMP '… 05.123456'],
    // CAST(ROW(TIMESTAMP '… 05.5') AS row(t timestamp(6))), MAP(ARRAY[1], ARRAY[TIME '01:02:03.9999'])`,
    // and for `TIMESTAMP '2020-12-31 23:59:59.9995'`, `TIME '23:59:59.9995'`, `TIME
    // '23:59:59.9999 +05:30'`, `TIME '01:02:03.4567 -08:00'`, `ARRAY[TIME '01:02:03 +01:00']`.
    #[test]
    fn types_lose_their_precision_at_every_depth() {
        let cases = [
            (TrinoType::Timestamp(12), "timestamp"),
            (TrinoType::Time(4), "time"),
            (TrinoType::TimestampTz(0), "timestamp with time zone"),
            (
                TrinoType::Array(Box::new(TrinoType::Timestamp(6))),
                "array(timestamp)",
            ),
            (
                TrinoType::Row(vec![(Some("t".into()), TrinoType::Timestamp(6))]),
                "row(t timestamp)",
            ),
            (
                TrinoType::Map(Box::new(TrinoType::Integer), Box::new(TrinoType::Time(4))),
                "map(integer, time)",
            ),
            (TrinoType::Varchar(Some(3)), "varchar(3)"),
            // `SELECT TIME '01:02:03.456 -08:00', ARRAY[TIME '01:02:03 +01:00']`.
            (TrinoType::TimeTz(3), "time with time zone"),
            (
                TrinoType::Array(Box::new(TrinoType::TimeTz(0))),
                "array(time with time zone)",
            ),
            // Intervals are named in capitals, whatever the client declares.
            (TrinoType::IntervalDayToSecond, "INTERVAL DAY TO SECOND"),
            (
                TrinoType::Array(Box::new(TrinoType::IntervalYearToMonth)),
                "array(INTERVAL YEAR TO MONTH)",
            ),
        ];
        for (ty, expected) in cases {
            let columns = columns_json(&[column(ty)]);
            assert_eq!(columns[0]["type"], expected);
        }
        let row = &columns_json(&[column(TrinoType::Row(vec![(
            Some("t".into()),
            TrinoType::Timestamp(6),
        )]))])[0]["typeSignature"];
        assert_eq!(
            row["arguments"][0]["value"]["typeSignature"],
            json!({"rawType": "timestamp", "arguments": []})
        );
    }

    #[test]
    fn values_are_rounded_half_up_to_milliseconds() {
        let types = [
            TrinoType::Timestamp(12),
            TrinoType::Timestamp(4),
            TrinoType::Timestamp(1),
            TrinoType::Time(4),
            TrinoType::TimestampTz(6),
            TrinoType::TimestampTz(0),
            TrinoType::Array(Box::new(TrinoType::Timestamp(6))),
            TrinoType::Row(vec![(Some("t".into()), TrinoType::Timestamp(6))]),
            TrinoType::Map(Box::new(TrinoType::Integer), Box::new(TrinoType::Time(4))),
            TrinoType::Timestamp(4),
            TrinoType::Time(4),
            TrinoType::TimeTz(4),
            TrinoType::TimeTz(4),
            TrinoType::Array(Box::new(TrinoType::TimeTz(0))),
        ];
        let mut row = vec![
            json!("2020-01-02 03:04:05.123456789012"),
            json!("2020-01-02 03:04:05.9999"),
            json!("2020-01-02 03:04:05.1"),
            json!("01:02:03.4567"),
            json!("2020-01-02 03:04:05.123456 America/New_York"),
            json!("2020-01-02 03:04:05 UTC"),
            json!(["2020-01-02 03:04:05.123456", null]),
            json!(["2020-01-02 03:04:05.500000"]),
            json!({"1": "01:02:03.9999"}),
            json!("2020-12-31 23:59:59.9995"),
            json!("23:59:59.9995"),
            json!("23:59:59.9999+05:30"),
            json!("01:02:03.4567-08:00"),
            json!(["01:02:03+01:00"]),
        ];
        rewrite_row(&types, &mut row);
        assert_eq!(
            row,
            vec![
                json!("2020-01-02 03:04:05.123"),
                json!("2020-01-02 03:04:06.000"),
                json!("2020-01-02 03:04:05.100"),
                json!("01:02:03.457"),
                json!("2020-01-02 03:04:05.123 America/New_York"),
                json!("2020-01-02 03:04:05.000 UTC"),
                json!(["2020-01-02 03:04:05.123", null]),
                json!(["2020-01-02 03:04:05.500"]),
                json!({"1": "01:02:04.000"}),
                json!("2021-01-01 00:00:00.000"),
                json!("00:00:00.000"),
                json!("00:00:00.000+05:30"),
                json!("01:02:03.457-08:00"),
                json!(["01:02:03.000+01:00"]),
            ]
        );
    }
}
