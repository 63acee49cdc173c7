//! The ipaddress type and its function (Trino docs language/types IPADDRESS,
//! functions/ipaddress): `IPADDRESS '…'` literals, the casts between varchar, varbinary and
//! ipaddress (IpAddressOperators), and `contains(varchar, ipaddress)` (IpAddressFunctions).
//! Trino 476's server has no IPPREFIX type nor the `ip_*` functions (they answer
//! "Unknown type: ipprefix" and "Function 'ip_prefix' not registered"), so neither has the
//! stand-in.
//!
//! A value is stored as the 16 bytes Trino holds (IPv4 as IPv4-mapped IPv6), a BLOB, so that
//! SQLite's byte-wise order of BLOBs is Trino's order and equal values are equal BLOBs. Inside
//! arrays, maps and rows (JSON text) it is those bytes as 32 uppercase hex digits, which order
//! the same way.

pub mod address;
pub mod sqlite;

use querymesh_values::sqlite_expr::{SqlExpr, builtin};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;
use rusqlite::types::ValueRef;

use super::Call;
use super::context::LowerContext;
use super::entry::LowerResult;
use sqlite::{
    QM_IPADDRESS_CONTAINS, QM_IPADDRESS_TO_VARCHAR, QM_VARBINARY_TO_IPADDRESS,
    QM_VARCHAR_TO_IPADDRESS,
};

/// The one signature `contains` adds to the array function's entry (array/mod.rs).
pub const CONTAINS_SIGNATURE: (&str, &str) = ("varchar, ipaddress", "boolean");

/// `contains(varchar, ipaddress)`: whether the address is in the CIDR network.
pub fn contains(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [network, address] = c.args.as_slice() else {
        return Ok(None);
    };
    Ok(Some(Typed::new(
        QM_IPADDRESS_CONTAINS.call([network.sql.clone(), address.sql.clone()]),
        TrinoType::Boolean,
    )))
}

/// The SQL of CAST(`t` AS `target`) where one side is an ipaddress and Trino has the cast:
/// from varchar(x) and varbinary, to unbounded varchar and varbinary. `None` for any other
/// pair, which the caller refuses as Trino does ("Cannot cast ipaddress to varchar(3)").
pub fn cast_sql(t: &Typed, target: &TrinoType, try_cast: bool) -> Option<SqlExpr> {
    use TrinoType::*;
    let value = t.sql.clone();
    let try_cast = SqlExpr::Integer(i64::from(try_cast));
    Some(match (&t.ty, target) {
        (Varchar(_), IpAddress) => QM_VARCHAR_TO_IPADDRESS.call([value, try_cast]),
        (Varbinary, IpAddress) => QM_VARBINARY_TO_IPADDRESS.call([value, try_cast]),
        (IpAddress, Varbinary) => value,
        (IpAddress, Varchar(None)) => QM_IPADDRESS_TO_VARCHAR.call([value]),
        _ => return None,
    })
}

/// `IPADDRESS 'text'`: the value as a BLOB literal, or `None` where Trino answers
/// "'text' is not a valid IPADDRESS literal".
pub fn literal_sql(text: &str) -> Option<SqlExpr> {
    let parsed = address::parse(text)?;
    Some(SqlExpr::Blob(parsed.address().to_vec()))
}

/// The SQL of a value in element form (the hex digits of its bytes).
pub fn to_element_sql(sql: SqlExpr) -> SqlExpr {
    builtin::HEX.call([sql])
}

/// The SQL of an element read back as a value.
pub fn from_element_sql(sql: SqlExpr) -> SqlExpr {
    builtin::UNHEX.call([sql])
}

/// The text the client protocol carries for a stored value: its 16 bytes at top level, their
/// hex digits as an element (`IPADDRESS '::ffff:1.2.3.4'` is `1.2.3.4`).
pub fn protocol_text(v: ValueRef<'_>) -> Option<String> {
    let bytes: address::Address = match v {
        ValueRef::Blob(b) => b.try_into().ok()?,
        ValueRef::Text(hex) if hex.len() == 32 => {
            let mut out = [0u8; 16];
            for (i, pair) in hex.chunks_exact(2).enumerate() {
                out[i] = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
            }
            out
        }
        _ => return None,
    };
    Some(address::to_text(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_protocol_text() {
        // docs language/types IPADDRESS: IPv4 is stored IPv4-mapped.
        assert_eq!(
            literal_sql("1.2.3.4").map(|e| e.to_string()).as_deref(),
            Some("X'00000000000000000000FFFF01020304'")
        );
        assert!(literal_sql("1.2.3.256").is_none());
        let bytes = address::mapped([10, 0, 0, 1]);
        assert_eq!(
            protocol_text(ValueRef::Blob(&bytes)).as_deref(),
            Some("10.0.0.1")
        );
        assert_eq!(
            protocol_text(ValueRef::Text(b"20010DB8000000000000000000000001")).as_deref(),
            Some("2001:db8::1")
        );
        assert_eq!(protocol_text(ValueRef::Blob(&[1, 2])), None);
    }
}
