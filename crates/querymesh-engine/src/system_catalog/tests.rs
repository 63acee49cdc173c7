//! JDBC's view of Trino's types, as core/trino-main/src/main/java/io/trino/connector/system/
//! jdbc/ColumnJdbcTable.java computes it and Trino 476's `system.jdbc.columns` shows it.

use super::jdbc_types::{JdbcFacts, jdbc_facts};
use crate::types::TrinoType;

fn facts(
    data_type: i64,
    column_size: Option<i64>,
    decimal_digits: Option<i64>,
    num_prec_radix: Option<i64>,
    char_octet_length: Option<i64>,
) -> JdbcFacts {
    JdbcFacts {
        data_type,
        column_size,
        decimal_digits,
        num_prec_radix,
        char_octet_length,
    }
}

#[test]
fn jdbc_facts_match_trino_476() {
    use TrinoType as T;
    let cases = [
        (T::BigInt, facts(-5, Some(19), None, Some(10), None)),
        (T::Integer, facts(4, Some(10), None, Some(10), None)),
        (T::Double, facts(8, Some(53), None, Some(2), None)),
        (
            T::Varchar(Some(25)),
            facts(12, Some(25), None, None, Some(25)),
        ),
        (
            T::Varchar(None),
            facts(12, Some(2_147_483_647), None, None, Some(2_147_483_647)),
        ),
        (T::Date, facts(91, Some(14), None, None, None)),
        (
            T::Decimal {
                precision: 12,
                scale: 2,
            },
            facts(3, Some(12), Some(2), Some(10), None),
        ),
        (T::Boolean, facts(16, None, None, None, None)),
        (
            T::TimestampTz(3),
            facts(2014, Some(59), Some(3), None, None),
        ),
        (
            T::TimestampTz(9),
            facts(2014, Some(65), Some(9), None, None),
        ),
        (T::Timestamp(0), facts(93, Some(21), Some(0), None, None)),
        (
            T::Array(Box::new(T::Varchar(None))),
            facts(2003, None, None, None, None),
        ),
        (
            T::Map(Box::new(T::Double), Box::new(T::Double)),
            facts(2000, None, None, None, None),
        ),
    ];
    for (ty, expected) in cases {
        assert_eq!(jdbc_facts(&ty), expected, "{ty}");
    }
}
