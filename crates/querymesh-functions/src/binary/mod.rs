//! Binary functions (Trino docs functions/binary): UTF-8 conversion, hashes, hex and base64,
//! integer and IEEE 754 encodings, with trinodb/trino's VarbinaryFunctions signatures and
//! descriptions. varbinary is a BLOB; the `qm_*` functions are in querymesh-functions/src/binary/sqlite. The varbinary
//! forms of length, concat, substr, reverse, lpad and rpad share their string entries. Also
//! `uuid()` (docs functions/uuid).

pub mod sqlite;

use querymesh_values::sqlite_expr::{Affinity, BinaryOp, SqlExpr, builtin};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing, calls, scalar};
use sqlite::{
    QM_CRC32, QM_FROM_BASE32, QM_FROM_BASE64, QM_FROM_BASE64URL, QM_FROM_BIG_ENDIAN_32,
    QM_FROM_BIG_ENDIAN_64, QM_FROM_HEX, QM_FROM_IEEE754_32, QM_FROM_IEEE754_64, QM_FROM_UTF8,
    QM_FROM_UTF8_CHAR, QM_FROM_UTF8_CODE, QM_HMAC_MD5, QM_HMAC_SHA1, QM_HMAC_SHA256,
    QM_HMAC_SHA512, QM_MD5, QM_MURMUR3, QM_RANDOM_UUID, QM_SHA1, QM_SHA256, QM_SHA512,
    QM_SPOOKY_HASH_V2_32, QM_SPOOKY_HASH_V2_64, QM_TO_BASE32, QM_TO_BASE64, QM_TO_BASE64URL,
    QM_TO_BIG_ENDIAN_32, QM_TO_BIG_ENDIAN_64, QM_TO_HEX, QM_TO_IEEE754_32, QM_TO_IEEE754_64,
    QM_TO_UTF8_CHAR, QM_VARBINARY_LPAD, QM_VARBINARY_REVERSE, QM_VARBINARY_RPAD,
    QM_VARBINARY_SUBSTR, QM_XXHASH64,
};

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
        lower: calls!(QM_RANDOM_UUID),
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
        calls!(QM_MD5),
        "Compute md5 hash",
    ),
    scalar(
        "sha1",
        HASH,
        Typing::Resolved,
        calls!(QM_SHA1),
        "Compute sha1 hash",
    ),
    scalar(
        "sha256",
        HASH,
        Typing::Resolved,
        calls!(QM_SHA256),
        "Compute sha256 hash",
    ),
    scalar(
        "sha512",
        HASH,
        Typing::Resolved,
        calls!(QM_SHA512),
        "Compute sha512 hash",
    ),
    scalar(
        "xxhash64",
        HASH,
        Typing::Resolved,
        calls!(QM_XXHASH64),
        "Compute xxhash64 hash",
    ),
    scalar(
        "murmur3",
        HASH,
        Typing::Resolved,
        calls!(QM_MURMUR3),
        "Compute murmur3 hash",
    ),
    scalar(
        "spooky_hash_v2_32",
        HASH,
        Typing::Resolved,
        calls!(QM_SPOOKY_HASH_V2_32),
        "Compute SpookyHashV2 32-bit hash",
    ),
    scalar(
        "spooky_hash_v2_64",
        HASH,
        Typing::Resolved,
        calls!(QM_SPOOKY_HASH_V2_64),
        "Compute SpookyHashV2 64-bit hash",
    ),
    scalar(
        "crc32",
        &[("varbinary", "bigint")],
        Typing::Resolved,
        calls!(QM_CRC32),
        "Compute CRC-32",
    ),
    scalar(
        "hmac_md5",
        HMAC,
        Typing::Resolved,
        calls!(QM_HMAC_MD5),
        "Compute HMAC with MD5",
    ),
    scalar(
        "hmac_sha1",
        HMAC,
        Typing::Resolved,
        calls!(QM_HMAC_SHA1),
        "Compute HMAC with SHA1",
    ),
    scalar(
        "hmac_sha256",
        HMAC,
        Typing::Resolved,
        calls!(QM_HMAC_SHA256),
        "Compute HMAC with SHA256",
    ),
    scalar(
        "hmac_sha512",
        HMAC,
        Typing::Resolved,
        calls!(QM_HMAC_SHA512),
        "Compute HMAC with SHA512",
    ),
    scalar(
        "to_hex",
        ENCODE,
        Typing::Resolved,
        calls!(QM_TO_HEX),
        "Encode binary data as hex",
    ),
    scalar(
        "from_hex",
        DECODE,
        Typing::Resolved,
        calls!(QM_FROM_HEX),
        "Decode hex encoded binary data",
    ),
    scalar(
        "to_base64",
        ENCODE,
        Typing::Resolved,
        calls!(QM_TO_BASE64),
        "Encode binary data as base64",
    ),
    scalar(
        "from_base64",
        DECODE,
        Typing::Resolved,
        calls!(QM_FROM_BASE64),
        "Decode base64 encoded binary data",
    ),
    scalar(
        "to_base32",
        ENCODE,
        Typing::Resolved,
        calls!(QM_TO_BASE32),
        "Encode binary data as base32",
    ),
    scalar(
        "from_base32",
        DECODE,
        Typing::Resolved,
        calls!(QM_FROM_BASE32),
        "Decode base32 encoded binary data",
    ),
    scalar(
        "to_base64url",
        ENCODE,
        Typing::Resolved,
        calls!(QM_TO_BASE64URL),
        "Encode binary data as base64 using the URL safe alphabet",
    ),
    scalar(
        "from_base64url",
        DECODE,
        Typing::Resolved,
        calls!(QM_FROM_BASE64URL),
        "Decode URL safe base64 encoded binary data",
    ),
    scalar(
        "to_big_endian_64",
        &[("bigint", "varbinary")],
        Typing::Resolved,
        calls!(QM_TO_BIG_ENDIAN_64),
        "Encode value as a 64-bit 2's complement big endian varbinary",
    ),
    scalar(
        "from_big_endian_64",
        &[("varbinary", "bigint")],
        Typing::Resolved,
        calls!(QM_FROM_BIG_ENDIAN_64),
        "Decode bigint value from a 64-bit 2's complement big endian varbinary",
    ),
    scalar(
        "to_big_endian_32",
        &[("integer", "varbinary")],
        Typing::Resolved,
        calls!(QM_TO_BIG_ENDIAN_32),
        "Encode value as a 32-bit 2's complement big endian varbinary",
    ),
    scalar(
        "from_big_endian_32",
        &[("varbinary", "integer")],
        Typing::Resolved,
        calls!(QM_FROM_BIG_ENDIAN_32),
        "Decode bigint value from a 32-bit 2's complement big endian varbinary",
    ),
    scalar(
        "to_ieee754_32",
        &[("real", "varbinary")],
        Typing::Resolved,
        calls!(QM_TO_IEEE754_32),
        "Encode value as a big endian varbinary according to IEEE 754 single-precision floating-point format",
    ),
    scalar(
        "from_ieee754_32",
        &[("varbinary", "real")],
        Typing::Resolved,
        calls!(QM_FROM_IEEE754_32),
        "Decode the 32-bit big-endian binary in IEEE 754 single-precision floating-point format",
    ),
    scalar(
        "to_ieee754_64",
        &[("double", "varbinary")],
        Typing::Resolved,
        calls!(QM_TO_IEEE754_64),
        "Encode value as a big endian varbinary according to IEEE 754 double-precision floating-point format",
    ),
    scalar(
        "from_ieee754_64",
        &[("varbinary", "double")],
        Typing::Resolved,
        calls!(QM_FROM_IEEE754_64),
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
            Some(varbinary(
                QM_TO_UTF8_CHAR.call([a.sql.clone(), SqlExpr::Integer(i64::from(n))]),
            ))
        }
        [a] => Some(varbinary(SqlExpr::cast(a.sql.clone(), Affinity::Blob))),
        _ => None,
    })
}

fn from_utf8(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let sql = match c.args.as_slice() {
        [b] => QM_FROM_UTF8.call([b.sql.clone()]),
        [b, r] if r.ty.is_integral() => QM_FROM_UTF8_CODE.call([b.sql.clone(), r.sql.clone()]),
        [b, r] => QM_FROM_UTF8_CHAR.call([b.sql.clone(), r.sql.clone()]),
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(sql, TrinoType::Varchar(None))))
}

fn varbinary(sql: SqlExpr) -> Typed {
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
        [b] => Some(Typed::new(
            builtin::LENGTH.call([b.sql.clone()]),
            TrinoType::BigInt,
        )),
        _ => None,
    }
}

/// `a || b || …` of varbinary: SQLite concatenates the bytes as text, cast back to a BLOB.
/// (Generic so a caller still holding text compiles while issue 27 lands.)
pub fn concat_sql<E: Into<SqlExpr> + Clone>(parts: &[E]) -> SqlExpr {
    let joined = parts
        .iter()
        .cloned()
        .map(Into::into)
        .reduce(|l, r| SqlExpr::binary(l, BinaryOp::Concat, r))
        .unwrap_or(SqlExpr::Null);
    SqlExpr::cast(joined, Affinity::Blob)
}

/// `concat(varbinary, …)`.
pub(super) fn concat(c: &Call) -> Option<Typed> {
    if c.args.len() < 2 || !c.args.iter().all(binary_or_null) {
        return None;
    }
    Some(varbinary(concat_sql(&c.arg_exprs())))
}

/// `substr(varbinary, start[, length])`.
pub(super) fn substr(c: &Call) -> Option<Typed> {
    match c.args.as_slice() {
        [_, start, rest @ ..] if integer_or_null(start) && rest.len() <= 1 => {
            if !rest.iter().all(integer_or_null) {
                return None;
            }
            Some(varbinary(QM_VARBINARY_SUBSTR.call(c.arg_exprs())))
        }
        _ => None,
    }
}

pub(super) fn reverse(c: &Call) -> Option<Typed> {
    match c.args.as_slice() {
        [b] => Some(varbinary(QM_VARBINARY_REVERSE.call([b.sql.clone()]))),
        _ => None,
    }
}

/// `lpad` / `rpad` of varbinary.
pub(super) fn pad(c: &Call) -> Option<Typed> {
    match c.args.as_slice() {
        [_, n, p] if integer_or_null(n) && binary_or_null(p) => {
            let f = if c.name == "lpad" {
                QM_VARBINARY_LPAD
            } else {
                QM_VARBINARY_RPAD
            };
            Some(varbinary(f.call(c.arg_exprs())))
        }
        _ => None,
    }
}
