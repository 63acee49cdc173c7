//! uuid: parsing varchar as java.util.UUID.fromString does (UuidOperators), the canonical
//! lowercase text a uuid is stored as, and a cast's failure under TRY_CAST.

use querymesh_values::error::ErrorName;

use super::fail;

/// Long.parseLong(s, 16) of one UUID component: an optional sign, hex digits, within a long.
fn java_hex_long(s: &str) -> Option<i64> {
    i64::from_str_radix(s, 16).ok()
}

/// java.util.UUID.fromString: five components between exactly four dashes, each masked to
/// its width; at the canonical length the fast path takes hex digits only.
fn java_uuid(s: &str) -> Option<u128> {
    if s.encode_utf16().count() > 36 {
        return None;
    }
    let dashes: Vec<usize> = s.match_indices('-').map(|(i, _)| i).collect();
    let [d1, d2, d3, d4] = dashes.as_slice() else {
        return None;
    };
    if s.len() == 36
        && [*d1, *d2, *d3, *d4] == [8, 13, 18, 23]
        && !s.bytes().all(|b| b == b'-' || b.is_ascii_hexdigit())
    {
        return None;
    }
    let part = |from: usize, to: usize, mask: u64| -> Option<u128> {
        Some(u128::from(java_hex_long(s.get(from..to)?)? as u64 & mask))
    };
    let high = (part(0, *d1, 0xffff_ffff)? << 32)
        | (part(d1 + 1, *d2, 0xffff)? << 16)
        | part(d2 + 1, *d3, 0xffff)?;
    let low = (part(d3 + 1, *d4, 0xffff)? << 48) | part(d4 + 1, s.len(), 0xffff_ffff_ffff)?;
    Some((high << 64) | low)
}

pub(super) fn uuid_text(u: u128) -> String {
    uuid::Uuid::from_u128(u).hyphenated().to_string()
}

/// CAST(varchar AS uuid) (UuidOperators.castFromVarcharToUuid): what Java parses, but only
/// at the canonical length of 36 bytes; the canonical lowercase text.
pub fn uuid_from_varchar(s: &str) -> Result<String, String> {
    match java_uuid(s) {
        Some(u) if s.len() == 36 => Ok(uuid_text(u)),
        Some(_) => Err(format!("Invalid UUID string length: {}", s.len())),
        None => Err(format!("Cannot cast value to UUID: {s}")),
    }
}

/// A cast's failure: NULL under TRY_CAST.
pub(super) fn cast_result<T>(r: Result<T, String>, try_cast: bool) -> rusqlite::Result<Option<T>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(_) if try_cast => Ok(None),
        Err(e) => Err(fail(ErrorName::InvalidCastArgument, e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_text_is_read_as_java_reads_it() {
        // TestUuidOperators.testVarcharToUUIDCast.
        assert_eq!(
            uuid_from_varchar("12151FD2-7586-11E9-8F9E-2A86E4085A59").as_deref(),
            Ok("12151fd2-7586-11e9-8f9e-2a86e4085a59")
        );
        assert_eq!(
            uuid_from_varchar("1-2-3-4-1").unwrap_err(),
            "Invalid UUID string length: 9"
        );
        assert_eq!(
            uuid_from_varchar("12151fd217586211e938f9e42a86e4085a59").unwrap_err(),
            "Cannot cast value to UUID: 12151fd217586211e938f9e42a86e4085a59"
        );
        // Without dashes, braces, a sign at the canonical length, a component over a long.
        for s in [
            "12151fd2758611e98f9e2a86e4085a59",
            "{12151fd2-7586-11e9-8f9e-2a86e4085a59}",
            "+2151fd2-7586-11e9-8f9e-2a86e4085a59",
            "1-2-3-4-10000000000000000",
            "1-2-3--1",
            "",
        ] {
            assert!(
                uuid_from_varchar(s)
                    .unwrap_err()
                    .starts_with("Cannot cast value to UUID"),
                "{s}"
            );
        }
        // Java masks a component to its width.
        assert_eq!(
            java_uuid("1-2-3-4-5"),
            Some(0x0000_0001_0002_0003_0004_0000_0000_0005)
        );
        assert_eq!(java_uuid("1ffffffff-0-0-0-0"), Some(0xffff_ffff_u128 << 96));
    }
}
