//! What JDBC is told of Trino's types: `java.sql.Types` codes and sizes for a column
//! (`ColumnJdbcTable`'s `jdbcDataType`, `columnSize`, `decimalDigits`, `numPrecRadix`,
//! `charOctetLength`), and the rows of `system.jdbc.types` (`TypesJdbcTable`).

use crate::types::{TrinoType, UNBOUNDED_VARCHAR};

/// `java.sql.Types` codes.
mod sql_types {
    pub const BOOLEAN: i64 = 16;
    pub const BIGINT: i64 = -5;
    pub const INTEGER: i64 = 4;
    pub const SMALLINT: i64 = 5;
    pub const TINYINT: i64 = -6;
    pub const REAL: i64 = 7;
    pub const DOUBLE: i64 = 8;
    pub const DECIMAL: i64 = 3;
    pub const VARCHAR: i64 = 12;
    pub const CHAR: i64 = 1;
    pub const VARBINARY: i64 = -3;
    pub const DATE: i64 = 91;
    pub const TIME: i64 = 92;
    pub const TIMESTAMP: i64 = 93;
    pub const TIME_WITH_TIMEZONE: i64 = 2013;
    pub const TIMESTAMP_WITH_TIMEZONE: i64 = 2014;
    pub const ARRAY: i64 = 2003;
    pub const JAVA_OBJECT: i64 = 2000;
}

/// Trino's `MAX_TIMEZONE_LENGTH`: room for the longest zone id in a timestamp's text.
const MAX_TIMEZONE_LENGTH: i64 = 32;

/// A column's JDBC description by its Trino type.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct JdbcFacts {
    pub(super) data_type: i64,
    pub(super) column_size: Option<i64>,
    pub(super) decimal_digits: Option<i64>,
    pub(super) num_prec_radix: Option<i64>,
    pub(super) char_octet_length: Option<i64>,
}

pub(super) fn jdbc_facts(ty: &TrinoType) -> JdbcFacts {
    use TrinoType as T;
    let fraction = |p: u8| i64::from(p.min(1)) + i64::from(p);
    let (data_type, column_size) = match ty {
        T::Boolean => (sql_types::BOOLEAN, None),
        T::BigInt => (sql_types::BIGINT, Some(19)),
        T::Integer => (sql_types::INTEGER, Some(10)),
        T::SmallInt => (sql_types::SMALLINT, Some(5)),
        T::TinyInt => (sql_types::TINYINT, Some(3)),
        T::Real => (sql_types::REAL, Some(24)),
        T::Double => (sql_types::DOUBLE, Some(53)),
        T::Decimal { precision, .. } => (sql_types::DECIMAL, Some(i64::from(*precision))),
        T::Varchar(n) => (
            sql_types::VARCHAR,
            Some(i64::from(n.unwrap_or(UNBOUNDED_VARCHAR))),
        ),
        T::Char(n) => (sql_types::CHAR, Some(i64::from(*n))),
        T::Varbinary => (sql_types::VARBINARY, Some(i64::from(i32::MAX))),
        T::Date => (sql_types::DATE, Some(14)),
        // "HH:MM:SS", then the fraction.
        T::Time(p) => (sql_types::TIME, Some(8 + fraction(*p))),
        // "HH:MM:SS", the fraction, then "+HH:MM".
        T::TimeTz(p) => (sql_types::TIME_WITH_TIMEZONE, Some(8 + fraction(*p) + 6)),
        // Year sign and 5 digits, "-MM-DD HH:MM:SS", then the fraction.
        T::Timestamp(p) => (sql_types::TIMESTAMP, Some(1 + 5 + 15 + fraction(*p))),
        // Year sign and 6 digits, "-MM-DD HH:MM:SS", the fraction, a space and the zone.
        T::TimestampTz(p) => (
            sql_types::TIMESTAMP_WITH_TIMEZONE,
            Some(1 + 6 + 15 + fraction(*p) + 1 + MAX_TIMEZONE_LENGTH),
        ),
        T::Array(_) => (sql_types::ARRAY, None),
        T::Json
        | T::Uuid
        | T::IpAddress
        | T::Color
        | T::SetDigest
        | T::BingTile
        | T::Geometry
        | T::SphericalGeography
        | T::HyperLogLog
        | T::P4HyperLogLog
        | T::QDigest(_)
        | T::TDigest
        | T::IntervalYearToMonth
        | T::IntervalDayToSecond
        | T::Map(..)
        | T::Row(_)
        | T::Unknown => (sql_types::JAVA_OBJECT, None),
    };
    let decimal_digits = match ty {
        T::Decimal { scale, .. } => Some(i64::from(*scale)),
        T::Time(p) | T::TimeTz(p) | T::Timestamp(p) | T::TimestampTz(p) => Some(i64::from(*p)),
        _ => None,
    };
    let num_prec_radix = match ty {
        T::BigInt | T::Integer | T::SmallInt | T::TinyInt | T::Decimal { .. } => Some(10),
        T::Real | T::Double => Some(2),
        _ => None,
    };
    let char_octet_length = match ty {
        T::Varchar(n) => Some(i64::from(n.unwrap_or(UNBOUNDED_VARCHAR))),
        T::Char(n) => Some(i64::from(*n)),
        T::Varbinary => Some(i64::from(i32::MAX)),
        _ => None,
    };
    JdbcFacts {
        data_type,
        column_size,
        decimal_digits,
        num_prec_radix,
        char_octet_length,
    }
}

/// One row of `system.jdbc.types`; the columns not here are the same in every row.
pub(super) struct TypeInfo {
    pub(super) name: &'static str,
    pub(super) data_type: i64,
    pub(super) precision: Option<i64>,
    /// `typePredNone` (0) or `typeSearchable` (3): whether the type is orderable.
    pub(super) searchable: i64,
    pub(super) num_prec_radix: Option<i64>,
}

const fn info(name: &'static str, data_type: i64, searchable: i64) -> TypeInfo {
    TypeInfo {
        name,
        data_type,
        precision: None,
        searchable,
        num_prec_radix: None,
    }
}

const fn numeric(name: &'static str, data_type: i64, precision: i64, radix: i64) -> TypeInfo {
    TypeInfo {
        name,
        data_type,
        precision: Some(precision),
        searchable: 3,
        num_prec_radix: Some(radix),
    }
}

/// Trino 476's `system.jdbc.types`, in the order it lists them: every type its type manager
/// knows (plugins' types included, and `integer` twice, as Trino lists it), whether or not the
/// stand-in implements it.
pub(super) const TYPE_INFO: &[TypeInfo] = &[
    info("uuid", 2000, 3),
    info("color", 2000, 3),
    numeric("integer", 4, 10, 10),
    info("HyperLogLog", 2000, 0),
    TypeInfo {
        precision: Some(2_147_483_647),
        ..info("varbinary", -3, 3)
    },
    info("KdbTree", 2000, 0),
    info("BingTile", 2000, 3),
    info("boolean", 16, 3),
    info("CodePoints", 2000, 0),
    info("json2016", 2000, 0),
    info("JsonPath", 2000, 0),
    info("SphericalGeography", 2000, 0),
    numeric("real", 7, 24, 2),
    info("JoniRegExp", 2000, 0),
    info("json", 2000, 3),
    info("unknown", 2000, 3),
    info("ipaddress", 2000, 3),
    numeric("bigint", -5, 19, 10),
    info("interval year to month", 2000, 3),
    info("SetDigest", 2000, 0),
    info("P4HyperLogLog", 2000, 0),
    info("Re2JRegExp", 2000, 0),
    numeric("double", 8, 53, 2),
    info("Geometry", 2000, 3),
    info("interval day to second", 2000, 3),
    numeric("smallint", 5, 5, 10),
    numeric("tinyint", -6, 3, 10),
    info("tdigest", 2000, 0),
    info("JsonPath2016", 2000, 0),
    TypeInfo {
        precision: Some(14),
        ..info("date", 91, 3)
    },
    info("LikePattern", 2000, 0),
    numeric("integer", 4, 10, 10),
    info("time with time zone", 2000, 0),
    info("varchar", 2000, 0),
    info("qdigest", 2000, 0),
    info("timestamp with time zone", 2000, 0),
    info("array", 2003, 0),
    info("function", 2000, 0),
    info("char", 2000, 0),
    info("row", 2000, 0),
    info("time", 2000, 0),
    info("decimal", 2000, 0),
    info("map", 2000, 0),
    info("timestamp", 2000, 0),
];
