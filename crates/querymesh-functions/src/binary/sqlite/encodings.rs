//! The text encodings of varbinary: hex (java.util.HexFormat's messages), base64 and
//! base64url (java.util.Base64's decoder and its messages), base32 (Guava's BaseEncoding).

use base64::Engine as _;

use super::{invalid, reserve};

/// java.util.HexFormat.fromHexDigit, whose message Trino's from_hex passes on; the digit is
/// a signed Java byte.
fn hex_digit(b: u8) -> rusqlite::Result<u8> {
    match b {
        b'0'..=b'9' => Ok(b - b'0'),
        b'a'..=b'f' => Ok(b - b'a' + 10),
        b'A'..=b'F' => Ok(b - b'A' + 10),
        _ => {
            let ch = i32::from(b as i8);
            let shown = char::from_u32((ch as u32) & 0xFFFF).unwrap_or(char::REPLACEMENT_CHARACTER);
            Err(invalid(format!(
                "not a hexadecimal digit: \"{shown}\" = {ch}"
            )))
        }
    }
}

pub(super) fn from_hex(s: &[u8]) -> rusqlite::Result<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return Err(invalid(format!("invalid input length {}", s.len())));
    }
    reserve(s.len() / 2)?;
    s.chunks_exact(2)
        .map(|pair| Ok((hex_digit(pair[0])? << 4) | hex_digit(pair[1])?))
        .collect()
}

pub(super) fn to_hex(b: &[u8]) -> rusqlite::Result<String> {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    reserve(b.len().saturating_mul(2))?;
    let mut out = String::with_capacity(b.len() * 2);
    for byte in b {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0F)]));
    }
    Ok(out)
}

fn base64_value(c: u8, url: bool) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' if !url => 62,
        b'/' if !url => 63,
        b'-' if url => 62,
        b'_' if url => 63,
        _ => return None,
    }))
}

/// java.util.Base64's basic (RFC 4648 §4) or URL (§5) decoder, as Trino's from_base64 uses
/// it: padding optional, a '=' ends the data, and Java's messages for what it refuses.
pub(super) fn java_base64_decode(src: &[u8], url: bool) -> Result<Vec<u8>, String> {
    match src.len() {
        0 => return Ok(Vec::new()),
        1 => return Err("Input byte[] should at least have 2 bytes for base64 bytes".into()),
        _ => {}
    }
    let mut out = Vec::with_capacity(src.len() / 4 * 3 + 2);
    let (mut bits, mut shift) = (0u32, 18i32);
    let mut at = 0;
    while at < src.len() {
        let c = src[at];
        at += 1;
        let Some(v) = base64_value(c, url) else {
            if c != b'=' {
                let signed = i32::from(c as i8);
                let hex = if signed < 0 {
                    format!("-{:x}", -signed)
                } else {
                    format!("{signed:x}")
                };
                return Err(format!("Illegal base64 character {hex}"));
            }
            // `xx=` must be `xx==`; a '=' where a unit starts is not an ending.
            let unpaired = shift == 6
                && (at == src.len() || {
                    let next = src[at];
                    at += 1;
                    next != b'='
                });
            if unpaired || shift == 18 {
                return Err("Input byte array has wrong 4-byte ending unit".into());
            }
            break;
        };
        bits |= v << shift;
        shift -= 6;
        if shift < 0 {
            out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8, bits as u8]);
            shift = 18;
            bits = 0;
        }
    }
    match shift {
        6 => out.push((bits >> 16) as u8),
        0 => out.extend_from_slice(&[(bits >> 16) as u8, (bits >> 8) as u8]),
        12 => return Err("Last unit does not have enough valid bits".into()),
        _ => {}
    }
    if at < src.len() {
        return Err(format!(
            "Input byte array has incorrect ending byte at {at}"
        ));
    }
    Ok(out)
}

pub(super) fn to_base64(b: &[u8], url: bool) -> rusqlite::Result<String> {
    reserve(b.len().div_ceil(3).saturating_mul(4))?;
    Ok(if url {
        base64::engine::general_purpose::URL_SAFE.encode(b)
    } else {
        base64::engine::general_purpose::STANDARD.encode(b)
    })
}

const BASE32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// Guava's BaseEncoding.base32() (RFC 4648 §6), as Trino's to_base32 uses it: padded.
pub(super) fn to_base32(b: &[u8]) -> rusqlite::Result<String> {
    reserve(b.len().div_ceil(5).saturating_mul(8))?;
    let mut out = String::with_capacity(b.len().div_ceil(5) * 8);
    for chunk in b.chunks(5) {
        let mut block = [0u8; 5];
        block[..chunk.len()].copy_from_slice(chunk);
        let bits = block.iter().fold(0u64, |acc, x| (acc << 8) | u64::from(*x));
        // The characters that carry the chunk's bits: ceil(8 * n / 5).
        let used = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            out.push(if i < used {
                char::from(BASE32[((bits >> (35 - 5 * i)) & 0x1F) as usize])
            } else {
                '='
            });
        }
    }
    Ok(out)
}

/// Guava's base32 decoder: trailing '=' trimmed, a length that no chunk ends at refused,
/// upper case only, Guava's messages (VarbinaryFunctions.decodeBase32 passes them on).
pub(super) fn from_base32(s: &[u8]) -> Result<Vec<u8>, String> {
    // Guava reads the bytes as a Java string (VarbinaryFunctions: slice.toStringUtf8()).
    let text = String::from_utf8_lossy(s);
    let chars: Vec<char> = text.trim_end_matches('=').chars().collect();
    if !matches!(chars.len() % 8, 0 | 2 | 4 | 5 | 7) {
        return Err(format!("Invalid input length {}", chars.len()));
    }
    let mut out = Vec::with_capacity(chars.len() * 5 / 8);
    let (mut bits, mut count) = (0u64, 0u32);
    for c in chars {
        let Some(v) = BASE32.iter().position(|a| char::from(*a) == c) else {
            // CharMatcher.invisible(): controls, spaces and format characters as their code.
            let invisible =
                c.is_control() || c.is_whitespace() || ('\u{2000}'..='\u{200f}').contains(&c);
            return Err(if invisible {
                format!("Unrecognized character: 0x{:x}", c as u32)
            } else {
                format!("Unrecognized character: {c}")
            });
        };
        bits = (bits << 5) | v as u64;
        count += 5;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_base64_accepts_and_refuses_as_java_does() {
        assert_eq!(java_base64_decode(b"YQ==", false).unwrap(), b"a");
        assert_eq!(java_base64_decode(b"YQ", false).unwrap(), b"a");
        assert_eq!(java_base64_decode(b"YWI", false).unwrap(), b"ab");
        assert_eq!(java_base64_decode(b"_-8", true).unwrap(), [0xFF, 0xEF]);
        for (input, message) in [
            (
                "a",
                "Input byte[] should at least have 2 bytes for base64 bytes",
            ),
            ("YQ=", "Input byte array has wrong 4-byte ending unit"),
            ("=YQ", "Input byte array has wrong 4-byte ending unit"),
            (
                "Y",
                "Input byte[] should at least have 2 bytes for base64 bytes",
            ),
            ("YWJjZ", "Last unit does not have enough valid bits"),
            ("YQ==YQ", "Input byte array has incorrect ending byte at 4"),
            ("Y.Q=", "Illegal base64 character 2e"),
        ] {
            assert_eq!(
                java_base64_decode(input.as_bytes(), false).unwrap_err(),
                message,
                "{input}"
            );
        }
        assert_eq!(
            java_base64_decode(&[b'Y', 0xC3], false).unwrap_err(),
            "Illegal base64 character -3d"
        );
    }

    #[test]
    fn base32_is_guavas() {
        // RFC 4648 §10 test vectors.
        for (plain, encoded) in [
            ("", ""),
            ("f", "MY======"),
            ("fo", "MZXQ===="),
            ("foo", "MZXW6==="),
            ("foob", "MZXW6YQ="),
            ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI======"),
        ] {
            assert_eq!(to_base32(plain.as_bytes()).unwrap(), encoded);
            assert_eq!(from_base32(encoded.as_bytes()).unwrap(), plain.as_bytes());
        }
        assert_eq!(from_base32(b"MY").unwrap(), b"f");
        assert_eq!(from_base32(b"M").unwrap_err(), "Invalid input length 1");
        assert_eq!(
            from_base32(b"my======").unwrap_err(),
            "Unrecognized character: m"
        );
        assert_eq!(
            from_base32(b"M=YQ====").unwrap_err(),
            "Unrecognized character: ="
        );
        assert_eq!(from_base32(b"M\nY").unwrap_err(), "Invalid input length 3");
        assert_eq!(
            from_base32(b"M\tYQ").unwrap_err(),
            "Unrecognized character: 0x9"
        );
        assert_eq!(
            from_base32(b"M YQ").unwrap_err(),
            "Unrecognized character: 0x20"
        );
        assert_eq!(
            from_base32("MéYQ".as_bytes()).unwrap_err(),
            "Unrecognized character: é"
        );
    }
}
