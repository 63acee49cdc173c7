//! Trino's types as the stand-in reports them: the display name (`varchar(25)`,
//! `decimal(12, 2)`), the `typeSignature` of the client protocol, and the raw name.

use std::fmt;

use serde_json::{Value, json};

/// The length Trino reports for an unbounded varchar.
pub const UNBOUNDED_VARCHAR: u32 = 2_147_483_647;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TrinoType {
    Boolean,
    TinyInt,
    SmallInt,
    Integer,
    BigInt,
    Real,
    Double,
    Decimal {
        precision: u8,
        scale: u8,
    },
    /// `None` is unbounded `varchar`.
    Varchar(Option<u32>),
    Char(u32),
    Varbinary,
    Json,
    Date,
    /// `time(p)`
    Time(u8),
    /// `timestamp(p)`
    Timestamp(u8),
    /// `timestamp(p) with time zone`
    TimestampTz(u8),
    IntervalYearToMonth,
    IntervalDayToSecond,
    Array(Box<TrinoType>),
    Map(Box<TrinoType>, Box<TrinoType>),
    /// Fields with optional names.
    Row(Vec<(Option<String>, TrinoType)>),
    /// The type of a bare NULL literal.
    Unknown,
}

impl TrinoType {
    /// `typeSignature.rawType`: the name without parameters (`varchar` for `varchar(25)`).
    pub fn raw_type(&self) -> &'static str {
        match self {
            Self::Boolean => "boolean",
            Self::TinyInt => "tinyint",
            Self::SmallInt => "smallint",
            Self::Integer => "integer",
            Self::BigInt => "bigint",
            Self::Real => "real",
            Self::Double => "double",
            Self::Decimal { .. } => "decimal",
            Self::Varchar(_) => "varchar",
            Self::Char(_) => "char",
            Self::Varbinary => "varbinary",
            Self::Json => "json",
            Self::Date => "date",
            Self::Time(_) => "time",
            Self::Timestamp(_) => "timestamp",
            Self::TimestampTz(_) => "timestamp with time zone",
            Self::IntervalYearToMonth => "interval year to month",
            Self::IntervalDayToSecond => "interval day to second",
            Self::Array(_) => "array",
            Self::Map(..) => "map",
            Self::Row(_) => "row",
            Self::Unknown => "unknown",
        }
    }

    /// The protocol's `typeSignature` object.
    pub fn type_signature(&self) -> Value {
        let long = |v: u64| json!({"kind": "LONG", "value": v});
        let ty = |t: &TrinoType| json!({"kind": "TYPE", "value": t.type_signature()});
        let arguments: Vec<Value> = match self {
            Self::Decimal { precision, scale } => {
                vec![long(*precision as u64), long(*scale as u64)]
            }
            Self::Varchar(len) => vec![long(len.unwrap_or(UNBOUNDED_VARCHAR) as u64)],
            Self::Char(len) => vec![long(*len as u64)],
            Self::Time(p) | Self::Timestamp(p) | Self::TimestampTz(p) => vec![long(*p as u64)],
            Self::Array(element) => vec![ty(element)],
            Self::Map(k, v) => vec![ty(k), ty(v)],
            Self::Row(fields) => fields
                .iter()
                .map(|(name, t)| {
                    let mut value = json!({"typeSignature": t.type_signature()});
                    if let Some(name) = name {
                        value["fieldName"] = json!({"name": name});
                    }
                    json!({"kind": "NAMED_TYPE", "value": value})
                })
                .collect(),
            _ => vec![],
        };
        json!({"rawType": self.raw_type(), "arguments": arguments})
    }

    pub fn is_integral(&self) -> bool {
        matches!(
            self,
            Self::TinyInt | Self::SmallInt | Self::Integer | Self::BigInt
        )
    }

    pub fn is_numeric(&self) -> bool {
        self.is_integral() || matches!(self, Self::Real | Self::Double | Self::Decimal { .. })
    }

    pub fn is_string(&self) -> bool {
        matches!(self, Self::Varchar(_) | Self::Char(_))
    }
}

/// The display name Trino puts in a column's `type`.
impl fmt::Display for TrinoType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Decimal { precision, scale } => write!(f, "decimal({precision}, {scale})"),
            Self::Varchar(None) => f.write_str("varchar"),
            Self::Varchar(Some(n)) => write!(f, "varchar({n})"),
            Self::Char(n) => write!(f, "char({n})"),
            Self::Time(p) => write!(f, "time({p})"),
            Self::Timestamp(p) => write!(f, "timestamp({p})"),
            Self::TimestampTz(p) => write!(f, "timestamp({p}) with time zone"),
            Self::Array(e) => write!(f, "array({e})"),
            Self::Map(k, v) => write!(f, "map({k}, {v})"),
            Self::Row(fields) => {
                f.write_str("row(")?;
                for (i, (name, t)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match name {
                        Some(n) => write!(f, "{n} {t}")?,
                        None => write!(f, "{t}")?,
                    }
                }
                f.write_str(")")
            }
            other => f.write_str(other.raw_type()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_signature_match_trino() {
        assert_eq!(TrinoType::Varchar(Some(25)).to_string(), "varchar(25)");
        assert_eq!(
            TrinoType::Decimal {
                precision: 12,
                scale: 2
            }
            .to_string(),
            "decimal(12, 2)"
        );
        assert_eq!(
            TrinoType::Array(Box::new(TrinoType::BigInt)).to_string(),
            "array(bigint)"
        );
        assert_eq!(
            TrinoType::Varchar(None).type_signature(),
            json!({"rawType": "varchar", "arguments": [{"kind": "LONG", "value": 2147483647u64}]})
        );
    }
}
