//! Trino's varbinary functions as `qm_*` SQLite functions over BLOBs (trinodb/trino's
//! VarbinaryFunctions, HmacFunctions, StringFunctions.fromUtf8/toUtf8): hashes, hex and
//! base64 with Java's decoders and their messages, byte-wise substr/reverse/pad, integer and
//! IEEE 754 encodings, and UTF-8 decoding that replaces invalid sequences as airlift's
//! SliceUtf8.fixInvalidUtf8 does. Also uuid: `uuid()` and the casts between uuid, varchar and
//! varbinary (UuidOperators), a uuid being its canonical lowercase text.

use std::borrow::Cow;

use base64::Engine as _;
use hmac::{KeyInit, Mac};
use rusqlite::functions::FunctionFlags;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error};
use sha2::Digest;

use super::{FLAGS, fail, reserve};
use crate::querymesh::engine::error::ErrorName;

/// The bytes of a varbinary argument: a BLOB, or the bytes of any other stored value.
fn bytes(v: ValueRef<'_>) -> Option<Cow<'_, [u8]>> {
    match v {
        ValueRef::Blob(b) | ValueRef::Text(b) => Some(Cow::Borrowed(b)),
        ValueRef::Integer(i) => Some(Cow::Owned(i.to_string().into_bytes())),
        ValueRef::Real(r) => Some(Cow::Owned(r.to_string().into_bytes())),
        ValueRef::Null => None,
    }
}

fn int(v: ValueRef<'_>) -> Option<i64> {
    match v {
        ValueRef::Integer(i) => Some(i),
        ValueRef::Real(r) => Some(r as i64),
        _ => None,
    }
}

/// A real or double argument; NaN travels as the text `NaN` (udf::real).
fn float(v: ValueRef<'_>) -> Option<f64> {
    match v {
        ValueRef::Integer(i) => Some(i as f64),
        ValueRef::Real(r) => Some(r),
        ValueRef::Text(t) => std::str::from_utf8(t).ok()?.trim().parse().ok(),
        _ => None,
    }
}

fn invalid(text: impl Into<String>) -> Error {
    fail(ErrorName::InvalidFunctionArgument, text)
}

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
fn fix_utf8(b: &[u8], replacement: Option<char>) -> rusqlite::Result<String> {
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
fn replacement_char(s: &[u8]) -> rusqlite::Result<Option<char>> {
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
fn replacement_code_point(n: i64) -> rusqlite::Result<char> {
    u32::try_from(n)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| invalid("Invalid replacement character"))
}

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

fn from_hex(s: &[u8]) -> rusqlite::Result<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return Err(invalid(format!("invalid input length {}", s.len())));
    }
    reserve(s.len() / 2)?;
    s.chunks_exact(2)
        .map(|pair| Ok((hex_digit(pair[0])? << 4) | hex_digit(pair[1])?))
        .collect()
}

fn to_hex(b: &[u8]) -> rusqlite::Result<String> {
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
fn java_base64_decode(src: &[u8], url: bool) -> Result<Vec<u8>, String> {
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

fn to_base64(b: &[u8], url: bool) -> rusqlite::Result<String> {
    reserve(b.len().div_ceil(3).saturating_mul(4))?;
    Ok(if url {
        base64::engine::general_purpose::URL_SAFE.encode(b)
    } else {
        base64::engine::general_purpose::STANDARD.encode(b)
    })
}

const BASE32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// Guava's BaseEncoding.base32() (RFC 4648 §6), as Trino's to_base32 uses it: padded.
fn to_base32(b: &[u8]) -> rusqlite::Result<String> {
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
fn from_base32(s: &[u8]) -> Result<Vec<u8>, String> {
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

/// CRC-32 (ISO-HDLC, java.util.zip.CRC32), bitwise: the inputs here are small.
fn crc32(b: &[u8]) -> u32 {
    let mut crc = !0u32;
    for byte in b {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// MurmurHash3 x64 128 with seed 0 (airlift's Murmur3Hash128): h1 then h2, little-endian.
fn murmur3(b: &[u8]) -> Vec<u8> {
    const C1: u64 = 0x87c3_7b91_1142_53d5;
    const C2: u64 = 0x4cf5_ad43_2745_937f;
    let mix_k1 = |k: u64| k.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
    let mix_k2 = |k: u64| k.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
    let fmix = |mut k: u64| {
        k ^= k >> 33;
        k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
        k ^= k >> 33;
        k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        k ^ (k >> 33)
    };
    let (mut h1, mut h2) = (0u64, 0u64);
    let mut blocks = b.chunks_exact(16);
    for block in &mut blocks {
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&block[i..i + 8]);
            u64::from_le_bytes(w)
        };
        h1 ^= mix_k1(word(0));
        h1 = h1
            .rotate_left(27)
            .wrapping_add(h2)
            .wrapping_mul(5)
            .wrapping_add(0x52dc_e729);
        h2 ^= mix_k2(word(8));
        h2 = h2
            .rotate_left(31)
            .wrapping_add(h1)
            .wrapping_mul(5)
            .wrapping_add(0x3849_5ab5);
    }
    let tail = blocks.remainder();
    let (mut k1, mut k2) = (0u64, 0u64);
    for (i, byte) in tail.iter().enumerate() {
        if i < 8 {
            k1 |= u64::from(*byte) << (8 * i);
        } else {
            k2 |= u64::from(*byte) << (8 * (i - 8));
        }
    }
    if tail.len() > 8 {
        h2 ^= mix_k2(k2);
    }
    if !tail.is_empty() {
        h1 ^= mix_k1(k1);
    }
    let len = b.len() as u64;
    h1 ^= len;
    h2 ^= len;
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 = h1.wrapping_add(h2);
    h2 = h2.wrapping_add(h1);
    let mut out = h1.to_le_bytes().to_vec();
    out.extend_from_slice(&h2.to_le_bytes());
    out
}

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

fn uuid_text(u: u128) -> String {
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
fn cast_result<T>(r: Result<T, String>, try_cast: bool) -> rusqlite::Result<Option<T>> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(_) if try_cast => Ok(None),
        Err(e) => Err(fail(ErrorName::InvalidCastArgument, e)),
    }
}

/// SpookyHash V2 (Bob Jenkins, 2012), 64 bits with seed 0, as airlift's SpookyHashV2.hash64;
/// the 32-bit hash is its low half.
mod spooky {
    const CONST: u64 = 0xdead_beef_dead_beef;
    const BLOCK: usize = 96;

    fn words<const N: usize>(b: &[u8]) -> [u64; N] {
        let mut out = [0u64; N];
        for (w, chunk) in out.iter_mut().zip(b.chunks(8)) {
            let mut raw = [0u8; 8];
            raw[..chunk.len()].copy_from_slice(chunk);
            *w = u64::from_le_bytes(raw);
        }
        out
    }

    fn short_mix(h: &mut [u64; 4]) {
        for (x, y, r) in [
            (2, 3, 50),
            (3, 0, 52),
            (0, 1, 30),
            (1, 2, 41),
            (2, 3, 54),
            (3, 0, 48),
            (0, 1, 38),
            (1, 2, 37),
            (2, 3, 62),
            (3, 0, 34),
            (0, 1, 5),
            (1, 2, 36),
        ] {
            // h[x] = rot(h[x], r); h[x] += h[y]; h[x - 2] ^= h[x]
            h[x] = h[x].rotate_left(r).wrapping_add(h[y]);
            h[(x + 2) % 4] ^= h[x];
        }
    }

    fn short_end(h: &mut [u64; 4]) {
        for (x, y, r) in [
            (3, 2, 15),
            (0, 3, 52),
            (1, 0, 26),
            (2, 1, 51),
            (3, 2, 28),
            (0, 3, 9),
            (1, 0, 47),
            (2, 1, 54),
            (3, 2, 32),
            (0, 3, 25),
            (1, 0, 63),
        ] {
            // h[x] ^= h[y]; h[y] = rot(h[y], r); h[x] += h[y]
            h[x] ^= h[y];
            h[y] = h[y].rotate_left(r);
            h[x] = h[x].wrapping_add(h[y]);
        }
    }

    fn short(b: &[u8], seed: u64) -> u64 {
        let mut h = [seed, seed, CONST, CONST];
        let mut rest = b;
        while rest.len() >= 32 {
            let w: [u64; 4] = words(&rest[..32]);
            h[2] = h[2].wrapping_add(w[0]);
            h[3] = h[3].wrapping_add(w[1]);
            short_mix(&mut h);
            h[0] = h[0].wrapping_add(w[2]);
            h[1] = h[1].wrapping_add(w[3]);
            rest = &rest[32..];
        }
        if rest.len() >= 16 {
            let w: [u64; 2] = words(&rest[..16]);
            h[2] = h[2].wrapping_add(w[0]);
            h[3] = h[3].wrapping_add(w[1]);
            short_mix(&mut h);
            rest = &rest[16..];
        }
        h[3] = h[3].wrapping_add((b.len() as u64) << 56);
        if rest.is_empty() {
            h[2] = h[2].wrapping_add(CONST);
            h[3] = h[3].wrapping_add(CONST);
        } else {
            // The last 0..15 bytes as two little-endian words, zero-filled.
            let w: [u64; 2] = words(rest);
            h[2] = h[2].wrapping_add(w[0]);
            h[3] = h[3].wrapping_add(w[1]);
        }
        short_end(&mut h);
        h[0]
    }

    fn mix(d: &[u64; 12], s: &mut [u64; 12]) {
        const ROT: [u32; 12] = [11, 32, 43, 31, 17, 28, 39, 57, 55, 54, 22, 46];
        for i in 0..12 {
            s[i] = s[i].wrapping_add(d[i]);
            s[(i + 2) % 12] ^= s[(i + 10) % 12];
            s[(i + 11) % 12] ^= s[i];
            s[i] = s[i].rotate_left(ROT[i]);
            s[(i + 11) % 12] = s[(i + 11) % 12].wrapping_add(s[(i + 1) % 12]);
        }
    }

    fn end_partial(h: &mut [u64; 12]) {
        const ROT: [u32; 12] = [44, 15, 34, 21, 38, 33, 10, 13, 38, 53, 42, 54];
        for (i, r) in ROT.into_iter().enumerate() {
            // h[i-1] += h[i+1]; h[i+2] ^= h[i-1]; h[i+1] = rot(h[i+1], r)
            let (a, b, c) = ((i + 11) % 12, (i + 1) % 12, (i + 2) % 12);
            h[a] = h[a].wrapping_add(h[b]);
            h[c] ^= h[a];
            h[b] = h[b].rotate_left(r);
        }
    }

    pub fn hash64(b: &[u8]) -> u64 {
        if b.len() < 2 * BLOCK {
            return short(b, 0);
        }
        let mut h = [0, 0, CONST, 0, 0, CONST, 0, 0, CONST, 0, 0, CONST];
        let mut blocks = b.chunks_exact(BLOCK);
        for block in &mut blocks {
            mix(&words(block), &mut h);
        }
        let rest = blocks.remainder();
        let mut last = [0u8; BLOCK];
        last[..rest.len()].copy_from_slice(rest);
        last[BLOCK - 1] = rest.len() as u8;
        let d: [u64; 12] = words(&last);
        for (x, y) in h.iter_mut().zip(d) {
            *x = x.wrapping_add(y);
        }
        for _ in 0..3 {
            end_partial(&mut h);
        }
        h[0]
    }
}

/// `substr(varbinary, start[, length])` (VarbinaryFunctions.substr): 1-based bytes, a
/// negative start counts from the end, 0 or a start outside gives empty.
fn substr(b: &[u8], start: i64, length: Option<i64>) -> &[u8] {
    let n = b.len() as i64;
    if start == 0 || length.is_some_and(|l| l <= 0) || n == 0 {
        return &[];
    }
    let from = if start > 0 { start - 1 } else { n + start };
    if from < 0 || from >= n {
        return &[];
    }
    let to = length.map_or(n, |l| from.saturating_add(l).min(n));
    &b[from as usize..to as usize]
}

/// lpad/rpad of varbinary (VarbinaryFunctions.pad): both checks come first.
fn pad(b: &[u8], target: i64, padding: &[u8], left: bool) -> rusqlite::Result<Vec<u8>> {
    let target = usize::try_from(target)
        .ok()
        .filter(|t| *t <= i32::MAX as usize)
        .ok_or_else(|| invalid("Target length must be in the range [0..2147483647]"))?;
    if padding.is_empty() {
        return Err(invalid("Padding bytes must not be empty"));
    }
    if b.len() >= target {
        return Ok(b[..target].to_vec());
    }
    reserve(target)?;
    let fill: Vec<u8> = padding
        .iter()
        .copied()
        .cycle()
        .take(target - b.len())
        .collect();
    let mut out = Vec::with_capacity(target);
    if left {
        out.extend_from_slice(&fill);
        out.extend_from_slice(b);
    } else {
        out.extend_from_slice(b);
        out.extend_from_slice(&fill);
    }
    Ok(out)
}

fn exact_bytes<const N: usize>(
    b: &[u8],
    message: impl FnOnce() -> String,
) -> rusqlite::Result<[u8; N]> {
    <[u8; N]>::try_from(b).map_err(|_| invalid(message()))
}

fn hmac<M: Mac + KeyInit>(data: &[u8], key: &[u8]) -> Vec<u8> {
    // Every key length is valid for HMAC (RFC 2104 §2).
    match <M as KeyInit>::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(data);
            mac.finalize().into_bytes().to_vec()
        }
        Err(_) => Vec::new(),
    }
}

/// A function of one varbinary argument; NULL gives NULL.
fn unary<T: rusqlite::types::ToSql + 'static>(
    conn: &Connection,
    name: &str,
    flags: FunctionFlags,
    f: fn(&[u8]) -> rusqlite::Result<T>,
) -> rusqlite::Result<()> {
    conn.create_scalar_function(name, 1, flags, move |ctx| {
        bytes(ctx.get_raw(0)).map(|b| f(&b)).transpose()
    })
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    unary(conn, "qm_md5", FLAGS, |b| Ok(md5::Md5::digest(b).to_vec()))?;
    unary(conn, "qm_sha1", FLAGS, |b| {
        Ok(sha1::Sha1::digest(b).to_vec())
    })?;
    unary(conn, "qm_sha256", FLAGS, |b| {
        Ok(sha2::Sha256::digest(b).to_vec())
    })?;
    unary(conn, "qm_sha512", FLAGS, |b| {
        Ok(sha2::Sha512::digest(b).to_vec())
    })?;
    // VarbinaryFunctions.xxhash64: the seed-0 hash, big-endian.
    unary(conn, "qm_xxhash64", FLAGS, |b| {
        Ok(xxhash_rust::xxh64::xxh64(b, 0).to_be_bytes().to_vec())
    })?;
    unary(conn, "qm_murmur3", FLAGS, |b| Ok(murmur3(b)))?;
    // VarbinaryFunctions.spookyHashV2_64 / _32: big-endian.
    unary(conn, "qm_spooky_hash_v2_64", FLAGS, |b| {
        Ok(spooky::hash64(b).to_be_bytes().to_vec())
    })?;
    unary(conn, "qm_spooky_hash_v2_32", FLAGS, |b| {
        Ok((spooky::hash64(b) as u32).to_be_bytes().to_vec())
    })?;
    unary(conn, "qm_crc32", FLAGS, |b| Ok(i64::from(crc32(b))))?;
    unary(conn, "qm_to_hex", FLAGS, to_hex)?;
    unary(conn, "qm_from_hex", FLAGS, from_hex)?;
    unary(conn, "qm_to_base64", FLAGS, |b| to_base64(b, false))?;
    unary(conn, "qm_to_base64url", FLAGS, |b| to_base64(b, true))?;
    unary(conn, "qm_from_base64", FLAGS, |b| {
        java_base64_decode(b, false).map_err(invalid)
    })?;
    unary(conn, "qm_to_base32", FLAGS, to_base32)?;
    unary(conn, "qm_from_base32", FLAGS, |b| {
        from_base32(b).map_err(invalid)
    })?;
    unary(conn, "qm_from_base64url", FLAGS, |b| {
        java_base64_decode(b, true).map_err(invalid)
    })?;
    unary(conn, "qm_varbinary_reverse", FLAGS, |b| {
        reserve(b.len())?;
        Ok(b.iter().rev().copied().collect::<Vec<u8>>())
    })?;
    unary(conn, "qm_from_utf8", FLAGS, |b| {
        fix_utf8(b, Some(char::REPLACEMENT_CHARACTER))
    })?;
    unary(conn, "qm_from_big_endian_64", FLAGS, |b| {
        let raw = exact_bytes::<8>(b, || {
            format!("expected 8-byte input, but got instead: {}", b.len())
        })?;
        Ok(i64::from_be_bytes(raw))
    })?;
    unary(conn, "qm_from_big_endian_32", FLAGS, |b| {
        let raw = exact_bytes::<4>(b, || {
            format!("expected 4-byte input, but got instead: {}", b.len())
        })?;
        Ok(i64::from(i32::from_be_bytes(raw)))
    })?;
    unary(conn, "qm_from_ieee754_32", FLAGS, |b| {
        let raw = exact_bytes::<4>(b, || {
            "Input floating-point value must be exactly 4 bytes long".into()
        })?;
        Ok(super::real(f64::from(f32::from_be_bytes(raw))))
    })?;
    unary(conn, "qm_from_ieee754_64", FLAGS, |b| {
        let raw = exact_bytes::<8>(b, || {
            "Input floating-point value must be exactly 8 bytes long".into()
        })?;
        Ok(super::real(f64::from_be_bytes(raw)))
    })?;
    conn.create_scalar_function("qm_to_big_endian_64", 1, FLAGS, |ctx| {
        Ok(int(ctx.get_raw(0)).map(|i| i.to_be_bytes().to_vec()))
    })?;
    conn.create_scalar_function("qm_to_big_endian_32", 1, FLAGS, |ctx| {
        Ok(int(ctx.get_raw(0)).map(|i| (i as i32).to_be_bytes().to_vec()))
    })?;
    conn.create_scalar_function("qm_to_ieee754_32", 1, FLAGS, |ctx| {
        Ok(float(ctx.get_raw(0)).map(|x| (x as f32).to_bits().to_be_bytes().to_vec()))
    })?;
    conn.create_scalar_function("qm_to_ieee754_64", 1, FLAGS, |ctx| {
        Ok(float(ctx.get_raw(0)).map(|x| x.to_bits().to_be_bytes().to_vec()))
    })?;
    for (name, f) in [
        (
            "qm_hmac_md5",
            hmac::<hmac::Hmac<md5::Md5>> as fn(&[u8], &[u8]) -> Vec<u8>,
        ),
        ("qm_hmac_sha1", hmac::<hmac::Hmac<sha1::Sha1>>),
        ("qm_hmac_sha256", hmac::<hmac::Hmac<sha2::Sha256>>),
        ("qm_hmac_sha512", hmac::<hmac::Hmac<sha2::Sha512>>),
    ] {
        conn.create_scalar_function(name, 2, FLAGS, move |ctx| {
            Ok(match (bytes(ctx.get_raw(0)), bytes(ctx.get_raw(1))) {
                (Some(data), Some(key)) => Some(f(&data, &key)),
                _ => None,
            })
        })?;
    }
    conn.create_scalar_function("qm_from_utf8_char", 2, FLAGS, |ctx| {
        let (Some(b), Some(r)) = (bytes(ctx.get_raw(0)), bytes(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let replacement = replacement_char(&r)?;
        fix_utf8(&b, replacement).map(Some)
    })?;
    conn.create_scalar_function("qm_from_utf8_code", 2, FLAGS, |ctx| {
        let (Some(b), Some(n)) = (bytes(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let replacement = replacement_code_point(n)?;
        fix_utf8(&b, Some(replacement)).map(Some)
    })?;
    // to_utf8(char(n)): the value padded to n code points (StringFunctions.toUtf8).
    conn.create_scalar_function("qm_to_utf8_char", 2, FLAGS, |ctx| {
        let (Some(b), Some(n)) = (bytes(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&b);
        let missing = usize::try_from(n)
            .unwrap_or(0)
            .saturating_sub(text.chars().count());
        reserve(b.len().saturating_add(missing))?;
        let mut out = b.into_owned();
        out.resize(out.len() + missing, b' ');
        Ok(Some(out))
    })?;
    conn.create_scalar_function("qm_varbinary_substr", -1, FLAGS, |ctx| {
        let n = ctx.len();
        let Some(b) = bytes(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let (Some(start), length) = (int(ctx.get_raw(1)), (n > 2).then(|| int(ctx.get_raw(2))))
        else {
            return Ok(None);
        };
        let part = match length {
            Some(None) => return Ok(None),
            Some(l) => substr(&b, start, l),
            None => substr(&b, start, None),
        };
        reserve(part.len())?;
        Ok(Some(part.to_vec()))
    })?;
    for (name, left) in [("qm_varbinary_lpad", true), ("qm_varbinary_rpad", false)] {
        conn.create_scalar_function(name, 3, FLAGS, move |ctx| {
            let (Some(b), Some(n), Some(p)) = (
                bytes(ctx.get_raw(0)),
                int(ctx.get_raw(1)),
                bytes(ctx.get_raw(2)),
            ) else {
                return Ok(None);
            };
            pad(&b, n, &p, left).map(Some)
        })?;
    }
    conn.create_scalar_function("qm_varchar_to_uuid", 2, FLAGS, |ctx| {
        let Some(b) = bytes(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let text = String::from_utf8_lossy(&b);
        cast_result(uuid_from_varchar(&text), ctx.get::<bool>(1)?)
    })?;
    // UuidOperators.castFromVarbinaryToUuid / castFromUuidToVarbinary: the 16 bytes in order.
    conn.create_scalar_function("qm_varbinary_to_uuid", 2, FLAGS, |ctx| {
        let Some(b) = bytes(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let parsed = <[u8; 16]>::try_from(b.as_ref())
            .map(|raw| uuid_text(u128::from_be_bytes(raw)))
            .map_err(|_| format!("Invalid UUID binary length: {}", b.len()));
        cast_result(parsed, ctx.get::<bool>(1)?)
    })?;
    conn.create_scalar_function("qm_uuid_to_varbinary", 1, FLAGS, |ctx| {
        let Some(b) = bytes(ctx.get_raw(0)) else {
            return Ok(None);
        };
        // A uuid value is always canonical text; anything else is not one.
        Ok(uuid::Uuid::try_parse_ascii(&b)
            .ok()
            .map(|u| u.as_bytes().to_vec()))
    })?;
    // uuid(): random, so not deterministic for SQLite either.
    conn.create_scalar_function("qm_random_uuid", 0, FunctionFlags::SQLITE_UTF8, |_| {
        Ok(Value::Text(uuid::Uuid::new_v4().to_string()))
    })?;
    Ok(())
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

    #[test]
    fn checksums_match_the_reference_values() {
        // TestVarbinaryFunctions.testCrc32.
        assert_eq!(crc32(b"CRC me!"), 38_028_046);
        assert_eq!(crc32(b"ABCDEFGHIJKLM"), 4_223_167_559);
        let hex = |b: Vec<u8>| b.iter().map(|x| format!("{x:02X}")).collect::<String>();
        // TestVarbinaryFunctions.testMurmur3, and the docs' murmur3(from_base64('aaaaaa')).
        assert_eq!(hex(murmur3(b"")), "0".repeat(32));
        assert_eq!(hex(murmur3(b"hashme")), "93192FE805BE23041C8318F67EC4F2BC");
        assert_eq!(
            hex(murmur3(&[0x69, 0xA6, 0x9A, 0x69])),
            "BA5855635569B42F4920372CA0E396EF"
        );
        // TestVarbinaryFunctions.testSpookyHash; past two blocks, the long path
        // (SpookyHash V2's own 445-byte Lorem ipsum vector).
        assert_eq!(spooky::hash64(b""), 0x2327_06FC_6BF5_0919);
        assert_eq!(spooky::hash64(b"hello"), 0x3768_826A_D382_E6CA);
        assert_eq!(spooky::hash64(b"foo"), 0x7f84_3a73_314f_cf27);
        assert_eq!(spooky::hash64(b"test000026"), 0x0c1b_2b3b_a63f_3e46);
        let lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.";
        assert_eq!(spooky::hash64(lorem.as_bytes()), 0xb6e1_542b_9044_ed66);
        // Past one 16-byte block, with a tail in both words.
        assert_eq!(murmur3(&[7u8; 41]).len(), 16);
    }
}
