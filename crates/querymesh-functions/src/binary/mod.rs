//! Binary functions (Trino docs functions/binary): UTF-8 conversion, hashes, hex and base64,
//! integer and IEEE 754 encodings, with trinodb/trino's VarbinaryFunctions signatures and
//! descriptions. varbinary is a BLOB; the `qm_*` functions are in querymesh-functions/src/binary/sqlite. The varbinary
//! forms of length, concat, substr, reverse, lpad and rpad share their string entries. Also
//! `uuid()` (docs functions/uuid).

pub mod sqlite;

use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing, scalar};

const HASH: &[(&str, &str)] = &[("varbinary", "varbinary")];
const HMAC: &[(&str, &str)] = &[("varbinary, varbinary", "varbinary")];
const DECODE: &[(&str, &str)] = &[("varchar(x)", "varbinary"), ("varbinary", "varbinary")];
const ENCODE: &[(&str, &str)] = &[("varbinary", "varchar")];

pub const FUNCTIONS: &[FunctionDef] = &[
    // docs functions/uuid: a random (type 4) UUID, a new one at every call.
    FunctionDef {
        name: "uuid",
        kind: Kind::Scalar,
        signatures: &[("", "uuid")],
        typing: Typing::Resolved,
        lower: Lower::Template("qm_random_uuid()"),
        description: "Generates a random UUID",
        deterministic: false,
    },
    scalar(
        "to_utf8",
        &[("varchar(x)", "varbinary"), ("char(x)", "varbinary")],
        Typing::Resolved,
        Lower::Scalar(to_utf8),
        "Encodes the string to UTF-8",
    ),
    scalar(
        "from_utf8",
        &[
            ("varbinary", "varchar"),
            ("varbinary, varchar(x)", "varchar"),
            ("varbinary, bigint", "varchar"),
        ],
        Typing::Resolved,
        Lower::Scalar(from_utf8),
        "Decodes the UTF-8 encoded string",
    ),
    scalar(
        "md5",
        HASH,
        Typing::Resolved,
        Lower::Template("qm_md5({0})"),
        "Compute md5 hash",
    ),
    scalar(
        "sha1",
        HASH,
        Typing::Resolved,
        Lower::Template("qm_sha1({0})"),
        "Compute sha1 hash",
    ),
    scalar(
        "sha256",
        HASH,
        Typing::Resolved,
        Lower::Template("qm_sha256({0})"),
        "Compute sha256 hash",
    ),
    scalar(
        "sha512",
        HASH,
        Typing::Resolved,
        Lower::Template("qm_sha512({0})"),
        "Compute sha512 hash",
    ),
    scalar(
        "xxhash64",
        HASH,
        Typing::Resolved,
        Lower::Template("qm_xxhash64({0})"),
        "Compute xxhash64 hash",
    ),
    scalar(
        "murmur3",
        HASH,
        Typing::Resolved,
        Lower::Template("qm_murmur3({0})"),
        "Compute murmur3 hash",
    ),
    scalar(
        "spooky_hash_v2_32",
        HASH,
        Typing::Resolved,
        Lower::Template("qm_spooky_hash_v2_32({0})"),
        "Compute SpookyHashV2 32-bit hash",
    ),
    scalar(
        "spooky_hash_v2_64",
        HASH,
        Typing::Resolved,
        Lower::Template("qm_spooky_hash_v2_64({0})"),
        "Compute SpookyHashV2 64-bit hash",
    ),
    scalar(
        "crc32",
        &[("varbinary", "bigint")],
        Typing::Resolved,
        Lower::Template("qm_crc32({0})"),
        "Compute CRC-32",
    ),
    scalar(
        "hmac_md5",
        HMAC,
        Typing::Resolved,
        Lower::Template("qm_hmac_md5({0}, {1})"),
        "Compute HMAC with MD5",
    ),
    scalar(
        "hmac_sha1",
        HMAC,
        Typing::Resolved,
        Lower::Template("qm_hmac_sha1({0}, {1})"),
        "Compute HMAC with SHA1",
    ),
    scalar(
        "hmac_sha256",
        HMAC,
        Typing::Resolved,
        Lower::Template("qm_hmac_sha256({0}, {1})"),
        "Compute HMAC with SHA256",
    ),
    scalar(
        "hmac_sha512",
        HMAC,
        Typing::Resolved,
        Lower::Template("qm_hmac_sha512({0}, {1})"),
        "Compute HMAC with SHA512",
    ),
    scalar(
        "to_hex",
        ENCODE,
        Typing::Resolved,
        Lower::Template("qm_to_hex({0})"),
        "Encode binary data as hex",
    ),
    scalar(
        "from_hex",
        DECODE,
        Typing::Resolved,
        Lower::Template("qm_from_hex({0})"),
        "Decode hex encoded binary data",
    ),
    scalar(
        "to_base64",
        ENCODE,
        Typing::Resolved,
        Lower::Template("qm_to_base64({0})"),
        "Encode binary data as base64",
    ),
    scalar(
        "from_base64",
        DECODE,
        Typing::Resolved,
        Lower::Template("qm_from_base64({0})"),
        "Decode base64 encoded binary data",
    ),
    scalar(
        "to_base32",
        ENCODE,
        Typing::Resolved,
        Lower::Template("qm_to_base32({0})"),
        "Encode binary data as base32",
    ),
    scalar(
        "from_base32",
        DECODE,
        Typing::Resolved,
        Lower::Template("qm_from_base32({0})"),
        "Decode base32 encoded binary data",
    ),
    scalar(
        "to_base64url",
        ENCODE,
        Typing::Resolved,
        Lower::Template("qm_to_base64url({0})"),
        "Encode binary data as base64 using the URL safe alphabet",
    ),
    scalar(
        "from_base64url",
        DECODE,
        Typing::Resolved,
        Lower::Template("qm_from_base64url({0})"),
        "Decode URL safe base64 encoded binary data",
    ),
    scalar(
        "to_big_endian_64",
        &[("bigint", "varbinary")],
        Typing::Resolved,
        Lower::Template("qm_to_big_endian_64({0})"),
        "Encode value as a 64-bit 2's complement big endian varbinary",
    ),
    scalar(
        "from_big_endian_64",
        &[("varbinary", "bigint")],
        Typing::Resolved,
        Lower::Template("qm_from_big_endian_64({0})"),
        "Decode bigint value from a 64-bit 2's complement big endian varbinary",
    ),
    scalar(
        "to_big_endian_32",
        &[("integer", "varbinary")],
        Typing::Resolved,
        Lower::Template("qm_to_big_endian_32({0})"),
        "Encode value as a 32-bit 2's complement big endian varbinary",
    ),
    scalar(
        "from_big_endian_32",
        &[("varbinary", "integer")],
        Typing::Resolved,
        Lower::Template("qm_from_big_endian_32({0})"),
        "Decode bigint value from a 32-bit 2's complement big endian varbinary",
    ),
    scalar(
        "to_ieee754_32",
        &[("real", "varbinary")],
        Typing::Resolved,
        Lower::Template("qm_to_ieee754_32({0})"),
        "Encode value as a big endian varbinary according to IEEE 754 single-precision floating-point format",
    ),
    scalar(
        "from_ieee754_32",
        &[("varbinary", "real")],
        Typing::Resolved,
        Lower::Template("qm_from_ieee754_32({0})"),
        "Decode the 32-bit big-endian binary in IEEE 754 single-precision floating-point format",
    ),
    scalar(
        "to_ieee754_64",
        &[("double", "varbinary")],
        Typing::Resolved,
        Lower::Template("qm_to_ieee754_64({0})"),
        "Encode value as a big endian varbinary according to IEEE 754 double-precision floating-point format",
    ),
    scalar(
        "from_ieee754_64",
        &[("varbinary", "double")],
        Typing::Resolved,
        Lower::Template("qm_from_ieee754_64({0})"),
        "Decode the 64-bit big-endian binary in IEEE 754 double-precision floating-point format",
    ),
];

fn to_utf8(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        // StringFunctions.toUtf8(char(x)): the padded value.
        [a] if matches!(a.ty, TrinoType::Char(_)) => {
            let n = match a.ty {
                TrinoType::Char(n) => n,
                _ => 0,
            };
            Some(varbinary(format!("qm_to_utf8_char({}, {n})", a.sql)))
        }
        [a] => Some(varbinary(format!("CAST({} AS BLOB)", a.sql))),
        _ => None,
    })
}

fn from_utf8(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let sql = match c.args.as_slice() {
        [b] => format!("qm_from_utf8({})", b.sql),
        [b, r] if r.ty.is_integral() => format!("qm_from_utf8_code({}, {})", b.sql, r.sql),
        [b, r] => format!("qm_from_utf8_char({}, {})", b.sql, r.sql),
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(sql, TrinoType::Varchar(None))))
}

fn varbinary(sql: String) -> Typed {
    Typed::new(sql, TrinoType::Varbinary)
}

/// Whether a string function's call is its varbinary form: the first argument that is not a
/// bare NULL is a varbinary.
pub(super) fn is_binary_call(c: &Call) -> bool {
    c.args
        .iter()
        .find(|a| a.ty != TrinoType::Unknown)
        .is_some_and(|a| a.ty == TrinoType::Varbinary)
}

fn binary_or_null(t: &Typed) -> bool {
    matches!(t.ty, TrinoType::Varbinary | TrinoType::Unknown)
}

fn integer_or_null(t: &Typed) -> bool {
    t.ty.is_integral() || t.ty == TrinoType::Unknown
}

/// `length(varbinary)`: bytes (VarbinaryFunctions.length); SQLite counts a BLOB's bytes.
pub(super) fn length(c: &Call) -> Option<Typed> {
    match c.args.as_slice() {
        [b] => Some(Typed::new(format!("length({})", b.sql), TrinoType::BigInt)),
        _ => None,
    }
}

/// `a || b || …` of varbinary: SQLite concatenates the bytes as text, cast back to a BLOB.
pub fn concat_sql(parts: &[String]) -> String {
    format!("CAST(({}) AS BLOB)", parts.join(" || "))
}

/// `concat(varbinary, …)`.
pub(super) fn concat(c: &Call) -> Option<Typed> {
    if c.args.len() < 2 || !c.args.iter().all(binary_or_null) {
        return None;
    }
    Some(varbinary(concat_sql(&c.sql())))
}

/// `substr(varbinary, start[, length])`.
pub(super) fn substr(c: &Call) -> Option<Typed> {
    match c.args.as_slice() {
        [_, start, rest @ ..] if integer_or_null(start) && rest.len() <= 1 => {
            if !rest.iter().all(integer_or_null) {
                return None;
            }
            Some(varbinary(format!(
                "qm_varbinary_substr({})",
                c.sql().join(", ")
            )))
        }
        _ => None,
    }
}

pub(super) fn reverse(c: &Call) -> Option<Typed> {
    match c.args.as_slice() {
        [b] => Some(varbinary(format!("qm_varbinary_reverse({})", b.sql))),
        _ => None,
    }
}

/// `lpad` / `rpad` of varbinary.
pub(super) fn pad(c: &Call) -> Option<Typed> {
    match c.args.as_slice() {
        [_, n, p] if integer_or_null(n) && binary_or_null(p) => Some(varbinary(format!(
            "qm_varbinary_{}({})",
            c.name,
            c.sql().join(", ")
        ))),
        _ => None,
    }
}
