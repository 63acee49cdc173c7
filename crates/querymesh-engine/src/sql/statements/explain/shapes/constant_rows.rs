//! Constant rows: Trino folds a SELECT of literals without FROM, or a VALUES of literals,
//! into one Values node (ValuesStatsRule estimates it), each literal printed by its type.

use querymesh_values::java_number::double_to_string;
use sqlparser::ast::{Expr, UnaryOperator, Value};

use super::estimate::symbol_size;
use super::{drawing, output, single_fragment, symbol_names, symbols};
use crate::OutputColumn;
use crate::sql::statements::explain::trino_plan::{Estimate, Node, TrinoPlan};
use crate::types::TrinoType;

/// One Values node of literal rows, under an Output; `None` when a value is not a literal the
/// stand-in prints as Trino does.
pub(super) fn constant_rows(
    rows: &[Vec<&Expr>],
    base: &str,
    output_id: u32,
    columns: &[OutputColumn],
) -> Option<TrinoPlan> {
    let width = columns.len();
    if rows.is_empty() || rows.iter().any(|r| r.len() != width) {
        return None;
    }
    let names = symbol_names(base, width);
    let mut details = Vec::new();
    let mut nulls = vec![0usize; width];
    for row in rows {
        let mut values = Vec::new();
        for (i, (expr, column)) in row.iter().zip(columns).enumerate() {
            let value = literal(expr, &column.ty)?;
            if value.is_none() {
                nulls[i] += 1;
            }
            values.push(value.unwrap_or_else(|| format!("null::{}", column.ty.display_name())));
        }
        details.push(format!("({})", values.join(", ")));
    }
    let count = rows.len() as f64;
    let sizes: Vec<f64> = columns
        .iter()
        .zip(&nulls)
        .map(|(c, &n)| symbol_size(count, count - n as f64, f64::NAN, &c.ty))
        .collect();
    let size: f64 = sizes.iter().sum();
    let values = Node {
        id: 0,
        name: "Values",
        descriptor: Vec::new(),
        outputs: symbols(&names, columns),
        details,
        estimates: vec![Estimate::free(count, size)],
        children: Vec::new(),
        drawing: drawing("Values", "", "deepskyblue"),
        remote_fragments: Vec::new(),
        input: None,
    };
    let root = output(output_id, columns, &names, values, count, &sizes);
    Some(single_fragment(root, "SINGLE"))
}

/// A literal as Trino's plan prints a constant of `ty`: `Some(None)` for NULL, `None` when it
/// is not a literal of that type.
fn literal(expr: &Expr, ty: &TrinoType) -> Option<Option<String>> {
    let (negative, value) = match expr {
        Expr::Nested(inner) => return literal(inner, ty),
        Expr::UnaryOp {
            op: op @ (UnaryOperator::Minus | UnaryOperator::Plus),
            expr,
        } => match expr.as_ref() {
            Expr::Value(v) if matches!(v.value, Value::Number(..)) => {
                (*op == UnaryOperator::Minus, &v.value)
            }
            _ => return None,
        },
        Expr::Value(v) => (false, &v.value),
        _ => return None,
    };
    let text = match value {
        Value::Null => return Some(None),
        Value::Boolean(b) if *ty == TrinoType::Boolean => format!("'{b}'"),
        Value::SingleQuotedString(s) if matches!(ty, TrinoType::Varchar(Some(_))) => {
            format!("'{s}'")
        }
        Value::Number(digits, _) => format!("'{}'", number(digits, negative, ty)?),
        _ => return None,
    };
    Some(Some(format!("{} {text}", ty.display_name())))
}

/// A numeric literal's value as Trino prints one of `ty`.
fn number(digits: &str, negative: bool, ty: &TrinoType) -> Option<String> {
    if !digits
        .chars()
        .all(|c| c.is_ascii_digit() || ".eE+-".contains(c))
    {
        return None;
    }
    let exponent = digits.contains(['e', 'E']);
    let point = digits.contains('.');
    match ty {
        TrinoType::Integer | TrinoType::BigInt if !exponent && !point => {
            let value: i128 = digits.parse().ok()?;
            Some((if negative { -value } else { value }).to_string())
        }
        TrinoType::Double if exponent => {
            let value: f64 = digits.parse().ok()?;
            Some(double_to_string(if negative { -value } else { value }))
        }
        TrinoType::Decimal { scale, .. } if point && !exponent => {
            decimal(digits, negative, usize::from(*scale))
        }
        _ => None,
    }
}

/// A decimal literal with `scale` digits after the point (`.5` is `0.5`, `-0.0` is `0.0`).
fn decimal(digits: &str, negative: bool, scale: usize) -> Option<String> {
    let (whole, fraction) = digits.split_once('.')?;
    if fraction.len() != scale {
        return None;
    }
    let whole = whole.trim_start_matches('0');
    let zero = whole.is_empty() && fraction.chars().all(|c| c == '0');
    let sign = if negative && !zero { "-" } else { "" };
    let whole = if whole.is_empty() { "0" } else { whole };
    Some(match scale {
        0 => format!("{sign}{whole}"),
        _ => format!("{sign}{whole}.{fraction}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_print_with_their_scale() {
        assert_eq!(decimal(".5", false, 1).as_deref(), Some("0.5"));
        assert_eq!(decimal("007.50", false, 2).as_deref(), Some("7.50"));
        assert_eq!(decimal("0.0", true, 1).as_deref(), Some("0.0"));
        assert_eq!(decimal("2.5", true, 1).as_deref(), Some("-2.5"));
        assert_eq!(decimal("2.5", false, 2), None);
    }
}
