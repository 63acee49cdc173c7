//! An expression as the analysis passes it around: its SQLite text, its Trino type, and the
//! value it is known to have when constant. Below the analysis, so function families and
//! helpers that only read typed values do not depend on the analyser.

use crate::types::TrinoType;

/// An expression typed and translated.
#[derive(Clone, Debug)]
pub struct Typed {
    pub sql: String,
    pub ty: TrinoType,
    pub constant: Option<Constant>,
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
    pub fn new(sql: impl Into<String>, ty: TrinoType) -> Self {
        Self {
            sql: sql.into(),
            ty,
            constant: None,
        }
    }
}
