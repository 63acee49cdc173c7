//! UTF-8 decoding for `from_utf8`: invalid sequences replaced as airlift's
//! SliceUtf8.fixInvalidUtf8 does, and the replacement argument's checks.

use super::{invalid, reserve};

/// One step of airlift's SliceUtf8.tryGetCodePointAt: the code point at `at`, or `None` for
/// an invalid sequence; either way the number of bytes it covers.
fn code_point_at(b: &[u8], at: usize) -> (Option<u32>, usize) {
    let Some(&first) = b.get(at) else {
        return (None, 1);
    };
    let length = match first {
        0x00..=0x7F => return (Some(u32::from(first)), 1),
        0x80..=0xBF => return (None, 1),
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        0xF8..=0xFB => 5,
        0xFC..=0xFD => 6,
        _ => return (None, 1),
    };
    // The continuation bytes present, up to the sequence's length.
    let mut valid = 1;
    while valid < length && b.get(at + valid).is_some_and(|c| c & 0xC0 == 0x80) {
        valid += 1;
    }
    if valid < length {
        // A sequence cut short covers its start and the continuation bytes it has.
        return (None, valid);
    }
    let tail = |n: usize| u32::from(b[at + n] & 0x3F);
    match length {
        2 => {
            let cp = (u32::from(first & 0x1F) << 6) | tail(1);
            if cp < 0x80 { (None, 2) } else { (Some(cp), 2) }
        }
        3 => {
            let cp = (u32::from(first & 0x0F) << 12) | (tail(1) << 6) | tail(2);
            if (0xD800..=0xDFFF).contains(&cp) || cp < 0x800 {
                (None, 3)
            } else {
                (Some(cp), 3)
            }
        }
        4 => {
            let cp = (u32::from(first & 0x07) << 18) | (tail(1) << 12) | (tail(2) << 6) | tail(3);
            if (0x1_0000..0x11_0000).contains(&cp) {
                (Some(cp), 4)
            } else {
                (None, 4)
            }
        }
        // RFC 3629 ends UTF-8 at 4 bytes.
        n => (None, n),
    }
}

/// `from_utf8`: each invalid sequence becomes `replacement`, or nothing without one
/// (SliceUtf8.fixInvalidUtf8). Sized before it is built.
pub(super) fn fix_utf8(b: &[u8], replacement: Option<char>) -> rusqlite::Result<String> {
    // Rust's UTF-8 is airlift's: no overlong forms, surrogates or code points past U+10FFFF.
    if let Ok(s) = std::str::from_utf8(b) {
        reserve(b.len())?;
        return Ok(s.to_string());
    }
    let steps = || {
        let mut at = 0;
        std::iter::from_fn(move || {
            (at < b.len()).then(|| {
                let (cp, n) = code_point_at(b, at);
                at += n;
                cp.and_then(char::from_u32).or(replacement)
            })
        })
    };
    let size: usize = steps().flatten().map(char::len_utf8).sum();
    reserve(size)?;
    Ok(steps().flatten().collect())
}

/// The replacement of `from_utf8(b, varchar)`: empty or one code point.
pub(super) fn replacement_char(s: &[u8]) -> rusqlite::Result<Option<char>> {
    let text = std::str::from_utf8(s).map_err(|_| invalid("Invalid replacement character"))?;
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (None, _) => Ok(None),
        (Some(c), None) => Ok(Some(c)),
        _ => Err(invalid(
            "Replacement character string must empty or a single character",
        )),
    }
}

/// The replacement of `from_utf8(b, bigint)`: a code point, not a surrogate.
pub(super) fn replacement_code_point(n: i64) -> rusqlite::Result<char> {
    u32::try_from(n)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| invalid("Invalid replacement character"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_is_replaced_per_sequence() {
        let fixed = |b: &[u8], r| fix_utf8(b, r).unwrap();
        let r = Some(char::REPLACEMENT_CHARACTER);
        assert_eq!(fixed(b"X\xBF", r), "X\u{FFFD}");
        assert_eq!(fixed(b"X\xDF", r), "X\u{FFFD}");
        assert_eq!(fixed(b"X\xF7", r), "X\u{FFFD}");
        assert_eq!(fixed(b"X\xBF", None), "X");
        // A truncated 3-byte sequence is one invalid sequence, then the next byte is read.
        assert_eq!(fixed(b"\xE2\x82X", r), "\u{FFFD}X");
        // Overlong and surrogate encodings are invalid.
        assert_eq!(fixed(b"\xC0\xAF", r), "\u{FFFD}");
        assert_eq!(fixed(b"\xED\xA0\x80", r), "\u{FFFD}");
        assert_eq!(fixed("€ok".as_bytes(), r), "€ok");
    }
}
