//! An expression as the analysis passes it around: its SQLite expression, its Trino type, and the
//! value it is known to have when constant. Below the analysis, so function families and
//! helpers that only read typed values do not depend on the analyser.

use crate::sqlite_expr::SqlExpr;
use crate::types::TrinoType;

/// An expression typed and translated.
#[derive(Clone, Debug)]
pub struct Typed {
    /// The SQLite expression that computes it (sqlite_expr/).
    pub sql: SqlExpr,
    pub ty: TrinoType,
    pub constant: Option<Constant>,
    /// For a double or real computed from data that holds no NaN or infinity (tpch's
    /// columns) and number literals by `+ - *` and CASE: every value is finite with at most
    /// this magnitude, so a sum of it needs no NaN check (aggregate/mod.rs). None: unknown.
    pub bound: Option<f64>,
}

/// Values known while analysing, for folding date and interval arithmetic.
#[derive(Clone, Debug, PartialEq)]
pub enum Constant {
    /// Days since 1970-01-01.
    Date(i64),
    Months(i64),
    Millis(i64),
    Int(i64),
    /// An exact decimal: unscaled value and scale.
    Decimal(i128, u32),
}

impl Typed {
    pub fn new(sql: impl Into<SqlExpr>, ty: TrinoType) -> Self {
        Self {
            sql: sql.into(),
            ty,
            constant: None,
            bound: None,
        }
    }

    /// `self` known finite with at most `bound`'s magnitude (see the field).
    pub fn bounded(self, bound: Option<f64>) -> Self {
        Self {
            bound: bound.filter(|b| *b <= LARGEST_BOUND),
            ..self
        }
    }

    /// The largest magnitude this value may have when it is known never to be NaN or
    /// infinite: by its type for integers and decimals, by its text for a number literal,
    /// by `bound` for a computed double. None when it may be NaN or infinite.
    pub fn finite_bound(&self) -> Option<f64> {
        match self.constant {
            Some(Constant::Int(n)) => return Some(n.unsigned_abs() as f64),
            Some(Constant::Decimal(u, s)) => {
                return Some(u.unsigned_abs() as f64 / 10f64.powi(s.min(38) as i32));
            }
            _ => {}
        }
        match &self.ty {
            TrinoType::Double | TrinoType::Real => self.bound.or_else(|| {
                let literal = self.sql.number_literal()?;
                literal.is_finite().then_some(literal.abs())
            }),
            TrinoType::TinyInt | TrinoType::SmallInt | TrinoType::Integer | TrinoType::BigInt => {
                Some(i64::MAX as f64)
            }
            TrinoType::Decimal { precision, scale } => {
                Some(10f64.powi(i32::from(*precision) - i32::from(*scale)))
            }
            // NULL.
            TrinoType::Unknown => Some(0.0),
            _ => None,
        }
    }
}

/// Past this, a bound is dropped: the next operation could overflow to infinity, and
/// infinity less infinity is NaN.
const LARGEST_BOUND: f64 = 1e300;

/// The bound of `l op r` (`+`, `-`, `*`) when both sides are known finite.
pub fn arithmetic_bound(op: char, l: &Typed, r: &Typed) -> Option<f64> {
    let (a, b) = (l.finite_bound()?, r.finite_bound()?);
    match op {
        '+' | '-' => Some(a + b),
        '*' => Some(a * b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_values_and_what_keeps_them_finite() {
        let column = Typed::new("t1.\"price\"", TrinoType::Double).bounded(Some(1e7));
        let unknown = Typed::new("t1.\"x\"", TrinoType::Double);
        let one = Typed {
            constant: Some(Constant::Int(1)),
            ..Typed::new("1", TrinoType::Integer)
        };
        let huge = Typed::new("1e300", TrinoType::Double);
        assert_eq!(unknown.finite_bound(), None);
        assert_eq!(Typed::new("9e999", TrinoType::Double).finite_bound(), None);
        assert_eq!(
            Typed::new("(2.5)", TrinoType::Double).finite_bound(),
            Some(2.5)
        );
        assert_eq!(arithmetic_bound('-', &one, &column), Some(1e7 + 1.0));
        let integer = Typed::new("i", TrinoType::Integer);
        assert_eq!(integer.finite_bound(), Some(i64::MAX as f64));
        assert_eq!(arithmetic_bound('*', &column, &column), Some(1e14));
        assert_eq!(arithmetic_bound('+', &column, &unknown), None);
        assert_eq!(arithmetic_bound('/', &column, &column), None);
        // A product that may overflow to infinity is no longer known finite.
        let product =
            Typed::new("p", TrinoType::Double).bounded(arithmetic_bound('*', &column, &huge));
        assert_eq!(product.finite_bound(), None);
    }
}
