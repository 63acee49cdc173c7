//! `qm_sort_key(value, type)`: a blob whose byte order is Trino's order of arrays and rows, so
//! ORDER BY sorts them as Trino does (element by element, then the shorter array first; field
//! by field; NULL elements after the others — docs functions/comparison, the ordering of
//! arrays and rows) where their stored JSON text would sort as text (`[150, …]` before
//! `[40, …]`). The same order as `values::compare`.

use querymesh_values::types::TrinoType;
use serde_json::Value;

/// Appends `value`'s key, `ty` its type.
fn push_key(out: &mut Vec<u8>, value: &Value, ty: &TrinoType) {
    match (ty, value) {
        (TrinoType::Array(element), Value::Array(items)) => {
            for item in items {
                push_item(out, item, element);
            }
            out.push(0);
        }
        (TrinoType::Row(fields), Value::Array(items)) => {
            for ((_, field), item) in fields.iter().zip(items) {
                push_item(out, item, field);
            }
            out.push(0);
        }
        (TrinoType::Boolean, v) => out.push(u8::from(super::values::bool_of(v).unwrap_or(false))),
        (t, v)
            if t.is_integral()
                || matches!(t, TrinoType::Decimal { precision, .. } if *precision > 18) =>
        {
            match whole(v) {
                Some(x) => out.extend_from_slice(&((x as u128) ^ (1 << 127)).to_be_bytes()),
                None => push_double(out, super::values::number(v).unwrap_or(f64::NAN)),
            }
        }
        (t, v) if t.is_numeric() => push_double(out, super::values::number(v).unwrap_or(f64::NAN)),
        (_, Value::String(s)) => push_bytes(out, s.as_bytes()),
        (_, other) => push_bytes(out, other.to_string().as_bytes()),
    }
}

/// An element or field: present ones first, in their order, NULLs after them.
fn push_item(out: &mut Vec<u8>, item: &Value, ty: &TrinoType) {
    if item.is_null() {
        out.push(2);
    } else {
        out.push(1);
        push_key(out, item, ty);
    }
}

/// An integer, or a long decimal's unscaled digits.
fn whole(v: &Value) -> Option<i128> {
    match v {
        Value::Number(n) => n.as_i64().map(i128::from),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// A double's bits made to sort as the doubles do (NaN above all, as Trino orders it).
fn push_double(out: &mut Vec<u8>, x: f64) {
    let x = if x.is_nan() { f64::NAN } else { x };
    let bits = x.to_bits();
    let key = if bits >> 63 == 1 {
        !bits
    } else {
        bits | (1 << 63)
    };
    out.extend_from_slice(&key.to_be_bytes());
}

/// Bytes in their order, a shorter prefix first: a zero byte is escaped, a zero pair ends.
fn push_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        out.push(b);
        if b == 0 {
            out.push(0xFF);
        }
    }
    out.extend_from_slice(&[0, 0]);
}

/// The sort key of a stored array or row (JSON text) of type `ty`; `None` for text that is
/// not JSON.
pub(super) fn sort_key(text: &str, ty: &TrinoType) -> Option<Vec<u8>> {
    let value: Value = serde_json::from_str(text).ok()?;
    let mut out = Vec::with_capacity(text.len() + 8);
    push_key(&mut out, &value, ty);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str, ty: &TrinoType) -> Vec<u8> {
        sort_key(text, ty).unwrap_or_default()
    }

    /// Trino orders arrays element by element (the corpus's lambda_functions 2f8602a01ec0:
    /// ARRAY[40, 5] before ARRAY[150, 250]), a prefix first, NULL elements last.
    #[test]
    fn arrays_sort_element_by_element() {
        let ints = TrinoType::Array(Box::new(TrinoType::Integer));
        assert!(key("[40,5]", &ints) < key("[150,250]", &ints));
        assert!(key("[1]", &ints) < key("[1,0]", &ints));
        assert!(key("[-3]", &ints) < key("[2]", &ints));
        assert!(key("[1,2]", &ints) < key("[1,null]", &ints));
        let doubles = TrinoType::Array(Box::new(TrinoType::Double));
        assert!(key("[-1.5]", &doubles) < key("[-0.5]", &doubles));
        assert!(key("[2.5]", &doubles) < key("[\"NaN\"]", &doubles));
        let text = TrinoType::Array(Box::new(TrinoType::Varchar(None)));
        assert!(key("[\"a\"]", &text) < key("[\"a\",\"\"]", &text));
        assert!(key("[\"ab\"]", &text) < key("[\"b\"]", &text));
        let row = TrinoType::Row(vec![
            (None, TrinoType::Integer),
            (None, TrinoType::Varchar(None)),
        ]);
        assert!(key("[1,\"z\"]", &row) < key("[2,\"a\"]", &row));
    }
}
