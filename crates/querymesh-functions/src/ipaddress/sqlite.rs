//! The ipaddress casts and `contains` as `qm_*` SQLite functions over 16-byte BLOBs
//! (IpAddressOperators, IpAddressFunctions.contains), with Trino's errors.

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use super::address::{self, Address, Parsed};
use crate::udf::{FLAGS, define, fail};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_VARCHAR_TO_IPADDRESS: SqliteFn = SqliteFn::new("qm_varchar_to_ipaddress");
pub const QM_VARBINARY_TO_IPADDRESS: SqliteFn = SqliteFn::new("qm_varbinary_to_ipaddress");
pub const QM_IPADDRESS_TO_VARCHAR: SqliteFn = SqliteFn::new("qm_ipaddress_to_varchar");
pub const QM_IPADDRESS_CONTAINS: SqliteFn = SqliteFn::new("qm_ipaddress_contains");

/// A cast's failure: NULL under TRY_CAST, else INVALID_CAST_ARGUMENT.
fn cast_result(r: Result<Address, String>, try_cast: bool) -> rusqlite::Result<Option<Vec<u8>>> {
    match r {
        Ok(a) => Ok(Some(a.to_vec())),
        Err(_) if try_cast => Ok(None),
        Err(e) => Err(fail(ErrorName::InvalidCastArgument, e)),
    }
}

/// castFromVarcharToIpAddress.
pub fn from_varchar(text: &str) -> Result<Address, String> {
    address::parse(text)
        .map(|p| p.address())
        .ok_or_else(|| format!("Cannot cast value to IPADDRESS: {text}"))
}

/// castFromVarbinaryToIpAddress: 4 bytes are IPv4, 16 are the value itself.
pub fn from_varbinary(bytes: &[u8]) -> Result<Address, String> {
    if let Ok(v4) = <[u8; 4]>::try_from(bytes) {
        return Ok(address::mapped(v4));
    }
    <Address>::try_from(bytes)
        .map_err(|_| format!("Invalid IP address binary length: {}", bytes.len()))
}

/// `contains(network, address)` as Trino 476 answers it (IpAddressFunctions.contains; the
/// answers of the reference server where they differ from older sources): `network` is
/// `base/prefix`. An IPv4 base (a dotted quad) may not have host bits set nor a prefix over
/// 32, and stands for its IPv4-mapped network (`10.0.0.0/8` is `::ffff:10.0.0.0/104`, so no
/// IPv6 address is in it); any other base is an IPv6 network of up to 128 bits whose host bits
/// are ignored (`::ffff:10.0.0.0/8` holds every address starting with 8 zero bits). A prefix
/// that is not an int fails as Integer.parseInt does, which Trino reports as
/// GENERIC_INTERNAL_ERROR.
pub fn contains(network: &str, value: &Address) -> Result<bool, (ErrorName, String)> {
    let invalid = |m: &str| (ErrorName::InvalidFunctionArgument, m.to_string());
    let Some((base, prefix)) = network.split_once('/') else {
        return Err(invalid("Invalid CIDR"));
    };
    let base = address::parse(base).ok_or_else(|| invalid("Invalid network IP address"))?;
    let prefix: i32 = prefix.parse().map_err(|_| {
        (
            ErrorName::GenericInternalError,
            format!("For input string: \"{prefix}\""),
        )
    })?;
    if prefix < 0 {
        return Err(invalid("Invalid prefix length"));
    }
    let prefix = prefix as u32;
    let (network, prefix) = match &base {
        Parsed::V4(v4) => {
            let host_bits = u32::MAX.checked_shr(prefix).unwrap_or(0);
            if prefix > 32 || u32::from_be_bytes(*v4) & host_bits != 0 {
                return Err(invalid("Invalid CIDR"));
            }
            (base.address(), prefix + 96)
        }
        Parsed::V6(bytes) if prefix <= 128 => (*bytes, prefix),
        Parsed::V6(_) => return Err(invalid("Invalid CIDR")),
    };
    let top = |a: &Address| {
        u128::from_be_bytes(*a)
            .checked_shr(128 - prefix)
            .unwrap_or(0)
    };
    Ok(top(&network) == top(value))
}

fn blob(v: ValueRef<'_>) -> Option<&[u8]> {
    match v {
        ValueRef::Blob(b) | ValueRef::Text(b) => Some(b),
        _ => None,
    }
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_VARCHAR_TO_IPADDRESS.name(), 2, FLAGS, |ctx| {
        let Some(text) = blob(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(text);
        cast_result(from_varchar(&text), ctx.get::<bool>(1)?)
    })?;
    define(conn, QM_VARBINARY_TO_IPADDRESS.name(), 2, FLAGS, |ctx| {
        let Some(bytes) = blob(ctx.get_raw(0)) else {
            return Ok(None);
        };
        cast_result(from_varbinary(bytes), ctx.get::<bool>(1)?)
    })?;
    define(conn, QM_IPADDRESS_TO_VARCHAR.name(), 1, FLAGS, |ctx| {
        Ok(blob(ctx.get_raw(0))
            .and_then(|b| <Address>::try_from(b).ok())
            .map(|a| address::to_text(&a)))
    })?;
    define(conn, QM_IPADDRESS_CONTAINS.name(), 2, FLAGS, |ctx| {
        let (Some(network), Some(value)) = (blob(ctx.get_raw(0)), blob(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let network = String::from_utf8_lossy(network).into_owned();
        let Ok(value) = <Address>::try_from(value) else {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                "Invalid IP address",
            ));
        };
        contains(&network, &value)
            .map(Some)
            .map_err(|(name, text)| fail(name, text))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> Address {
        from_varchar(text).unwrap_or([0xee; 16])
    }

    #[test]
    fn contains_answers_as_trino() {
        // docs functions/ipaddress (contains) and TestIpAddressFunctions.
        let yes = |n: &str, a: &str| assert_eq!(contains(n, &ip(a)), Ok(true), "{n} {a}");
        let no = |n: &str, a: &str| assert_eq!(contains(n, &ip(a)), Ok(false), "{n} {a}");
        yes("10.0.0.0/8", "10.200.1.1");
        no("10.0.0.0/8", "12.0.0.1");
        yes(
            "2001:0db8:0:0:0:ff00:0042:8329/128",
            "2001:0db8:0:0:0:ff00:0042:8329",
        );
        no(
            "2001:0db8:0:0:0:ff00:0042:8329/128",
            "2001:0db8:0:0:0:ff00:0042:832a",
        );
        yes("0.0.0.0/0", "8.8.8.8");
        yes("1.2.3.4/32", "1.2.3.4");
        no("1.2.3.4/32", "1.2.3.5");
        yes("2001:db8::/32", "2001:db8:ffff::1");
        no("2001:db8::/32", "2001:db9::1");
        yes("::/0", "::1");
        yes("::/0", "1.2.3.4");
        yes("10.0.0.0/8", "::ffff:10.1.1.1");
        no("10.0.0.0/8", "2001:db8::1");
        let error = |n: &str| contains(n, &ip("10.0.0.1"));
        let invalid = |m: &str| Err((ErrorName::InvalidFunctionArgument, m.to_string()));
        assert_eq!(error("10.0.0.0"), invalid("Invalid CIDR"));
        assert_eq!(error("10.1.2.3/8"), invalid("Invalid CIDR"));
        assert_eq!(error("not-a-cidr/8"), invalid("Invalid network IP address"));
        assert_eq!(error("10.0.0.0/-1"), invalid("Invalid prefix length"));
        assert_eq!(error("10.0.0.0/33"), invalid("Invalid CIDR"));
        assert_eq!(error("x/x"), invalid("Invalid network IP address"));
        // Other IPv6 texts of IPv4-mapped networks are IPv6 networks (Trino 476's answers).
        yes("::ffff:10.0.0.0/104", "10.1.1.1");
        no("::ffff:10.0.0.0/104", "11.0.0.0");
        yes("::ffff:10.0.0.0/8", "11.0.0.0");
        yes("::ffff:10.0.0.1/31", "10.0.0.0");
        yes("::ffff:1.2.3.4/0", "::1");
        no("0.0.0.0/0", "::1");
        yes("0.0.0.0/0", "::ffff:0:0");
        no("10.0.0.0/8", "::a00:1");
        yes("2001:db8::1/32", "2001:db8::5");
        assert_eq!(error("::ffff:10.0.0.0/129"), invalid("Invalid CIDR"));
        assert_eq!(error("2001:db8::/129"), invalid("Invalid CIDR"));
        assert_eq!(
            error("10.0.0.0/x"),
            Err((
                ErrorName::GenericInternalError,
                "For input string: \"x\"".into()
            ))
        );
    }

    #[test]
    fn casts_from_varbinary_by_length() {
        // TestIpAddressOperators.testVarbinaryToIpAddressCast.
        assert_eq!(from_varbinary(&[1, 2, 3, 4]), Ok(ip("1.2.3.4")));
        assert_eq!(
            from_varbinary(&[1, 2]),
            Err("Invalid IP address binary length: 2".into())
        );
    }
}
