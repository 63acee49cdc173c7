//! Binary functions and operators (docs functions/binary): literals, UTF-8 conversion, hashes,
//! hex and base64, integer and IEEE 754 encodings, substr/reverse/pad/concat of varbinary and
//! comparisons. Values are shown through to_hex where the case is about the bytes.

use base64::Engine as _;
use serde_json::{Value, json};

use super::{check_errors, check_values};
use crate::support::engine::engine;

/// ALL_BYTES of TestVarbinaryFunctions: 0x00 to 0xFF.
fn all_bytes() -> Vec<u8> {
    (0..=255u8).collect()
}

/// A JSON number as written (clippy reads 3.14 in Rust as an attempt at π).
fn number(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

#[test]
fn literals_concat_length_and_comparisons() {
    let engine = engine();
    // A run of `||` longer than the analyser nests is emitted balanced, still a varbinary.
    let long_run = format!("SELECT to_hex({})", vec!["X'0A'"; 40].join(" || "));
    check_values(
        &engine,
        &[
            (long_run.as_str(), "varchar", json!("0A".repeat(40))),
            // TestVarbinaryFunctions.testBinaryLiteral; BinaryLiteral drops whitespace.
            ("SELECT to_hex(X'58F7')", "varchar", json!("58F7")),
            ("SELECT to_hex(x'58 f7')", "varchar", json!("58F7")),
            ("SELECT to_hex(X'')", "varchar", json!("")),
            // TestVarbinaryFunctions.testLength: bytes, not code points.
            ("SELECT length(to_utf8(''))", "bigint", json!(0)),
            ("SELECT length(to_utf8('abc'))", "bigint", json!(3)),
            ("SELECT length(to_utf8('€'))", "bigint", json!(3)),
            ("SELECT length(X'00FF00')", "bigint", json!(3)),
            // TestVarbinaryFunctions.testConcat.
            (
                "SELECT to_hex(X'000102' || X'AAABAC' || X'FDFEFF')",
                "varchar",
                json!("000102AAABACFDFEFF"),
            ),
            (
                "SELECT to_hex(X'' || X'58' || X'' || X'F7' || X'')",
                "varchar",
                json!("58F7"),
            ),
            (
                "SELECT to_hex(CONCAT(X'CAFFEE', X'F7', X'DE58'))",
                "varchar",
                json!("CAFFEEF7DE58"),
            ),
            (
                "SELECT from_utf8(to_utf8('foo') || to_utf8('bar') || to_utf8('baz'))",
                "varchar",
                json!("foobarbaz"),
            ),
            // A NUL byte survives the concatenation.
            ("SELECT length(X'00' || X'0000')", "bigint", json!(3)),
            (
                "SELECT typeof(X'00' || X'01')",
                "varchar",
                json!("varbinary"),
            ),
            // VarbinaryOperators / Slice.compareTo: unsigned bytes, lexicographic.
            ("SELECT X'58F7' = X'58F7'", "boolean", json!(true)),
            ("SELECT X'58F7' <> X'58F8'", "boolean", json!(true)),
            ("SELECT X'FF' > X'01'", "boolean", json!(true)),
            ("SELECT X'0102' > X'01'", "boolean", json!(true)),
            ("SELECT X'01' < X'0100'", "boolean", json!(true)),
            ("SELECT to_utf8('a') = X'61'", "boolean", json!(true)),
            (
                "SELECT X'01' BETWEEN X'00' AND X'02'",
                "boolean",
                json!(true),
            ),
            ("SELECT X'01' IS DISTINCT FROM NULL", "boolean", json!(true)),
        ],
    );
    check_errors(
        &engine,
        &[
            // Trino 476: a NULL literal binds both concat(varbinary, varbinary) and
            // concat(E, array(E)) without coercion, and neither is more specific
            // (FunctionResolver; array/concat_overloads.rs).
            ("SELECT X'01' || NULL IS NULL", "AMBIGUOUS_FUNCTION_CALL"),
            ("SELECT concat(X'01', NULL)", "AMBIGUOUS_FUNCTION_CALL"),
            // TestVarbinaryFunctions.testConcat.
            (
                "SELECT CONCAT(X'')",
                "INVALID_FUNCTION_ARGUMENT: line 1:8: There must be two or more concatenation arguments",
            ),
            // BinaryLiteral's ParsingExceptions.
            (
                "SELECT X'0G'",
                "SYNTAX_ERROR: line 1:8: Binary literal can only contain hexadecimal digits",
            ),
            (
                "SELECT X'ABC'",
                "SYNTAX_ERROR: line 1:8: Binary literal must contain an even number of digits",
            ),
            (
                "SELECT X'01' || 'a'",
                "FUNCTION_NOT_FOUND: line 1:14: Unexpected parameters (varbinary, varchar(1)) for function concat",
            ),
            (
                "SELECT X'01' = 'a'",
                "TYPE_MISMATCH: line 1:14: Cannot apply operator: varbinary = varchar(1)",
            ),
        ],
    );
}

#[test]
fn utf8_conversion() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestStringFunctions.testFromUtf8: each invalid sequence is one U+FFFD, or the
            // replacement given as a character or a code point; '' drops it.
            (
                "SELECT from_utf8(to_utf8('hello'))",
                "varchar",
                json!("hello"),
            ),
            (
                "SELECT from_utf8(from_hex('58BF'))",
                "varchar",
                json!("X\u{FFFD}"),
            ),
            (
                "SELECT from_utf8(from_hex('58DF'))",
                "varchar",
                json!("X\u{FFFD}"),
            ),
            (
                "SELECT from_utf8(from_hex('58F7'))",
                "varchar",
                json!("X\u{FFFD}"),
            ),
            (
                "SELECT from_utf8(from_hex('58BF'), '#')",
                "varchar",
                json!("X#"),
            ),
            (
                "SELECT from_utf8(from_hex('58DF'), 35)",
                "varchar",
                json!("X#"),
            ),
            (
                "SELECT from_utf8(from_hex('58BF'), '')",
                "varchar",
                json!("X"),
            ),
            // airlift SliceUtf8.tryGetCodePointAt: a sequence cut short is one invalid
            // sequence; overlong forms and surrogates are invalid.
            (
                "SELECT from_utf8(X'E282' || X'41')",
                "varchar",
                json!("\u{FFFD}A"),
            ),
            ("SELECT from_utf8(X'C0AF')", "varchar", json!("\u{FFFD}")),
            ("SELECT from_utf8(X'EDA080')", "varchar", json!("\u{FFFD}")),
            ("SELECT from_utf8(X'E282AC')", "varchar", json!("€")),
            ("SELECT from_utf8(NULL)", "varchar", json!(null)),
            ("SELECT from_utf8(X'FF', NULL)", "varchar", json!(null)),
            // StringFunctions.toUtf8: a char(n) is padded to n.
            (
                "SELECT to_hex(to_utf8(CAST('a' AS char(3))))",
                "varchar",
                json!("612020"),
            ),
            ("SELECT to_hex(to_utf8('€'))", "varchar", json!("E282AC")),
            ("SELECT to_utf8(NULL) IS NULL", "boolean", json!(true)),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT from_utf8(to_utf8('hello'), 'foo')",
                "INVALID_FUNCTION_ARGUMENT: Replacement character string must empty or a single character",
            ),
            (
                "SELECT from_utf8(to_utf8('hello'), 1114112)",
                "INVALID_FUNCTION_ARGUMENT: Invalid replacement character",
            ),
            (
                "SELECT from_utf8(to_utf8('hello'), 55296)",
                "INVALID_FUNCTION_ARGUMENT: Invalid replacement character",
            ),
            (
                "SELECT from_utf8('hello')",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (varchar(5)) for function from_utf8",
            ),
            (
                "SELECT to_utf8(1)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (integer) for function to_utf8",
            ),
        ],
    );
}

#[test]
fn hashes_and_checksums() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestVarbinaryFunctions.testMd5 … testSha512, testXxhash64, testCrc32.
            (
                "SELECT to_hex(md5(to_utf8('')))",
                "varchar",
                json!("D41D8CD98F00B204E9800998ECF8427E"),
            ),
            (
                "SELECT to_hex(md5(to_utf8('hashme')))",
                "varchar",
                json!("533F6357E0210E67D91F651BC49E1278"),
            ),
            (
                "SELECT to_hex(sha1(to_utf8('hashme')))",
                "varchar",
                json!("FB78992E561929A6967D5328F49413FA99048D06"),
            ),
            (
                "SELECT to_hex(sha256(to_utf8('hashme')))",
                "varchar",
                json!("02208B9403A87DF9F4ED6B2EE2657EFAA589026B4CCE9ACCC8E8A5BF3D693C86"),
            ),
            (
                "SELECT to_hex(sha512(to_utf8('')))",
                "varchar",
                json!(
                    "CF83E1357EEFB8BDF1542850D66D8007D620E4050B5715DC83F4A921D36CE9CE47D0D13C5D85F2B0FF8318D2877EEC2F63B931BD47417A81A538327AF927DA3E"
                ),
            ),
            (
                "SELECT to_hex(sha512(to_utf8('hashme')))",
                "varchar",
                json!(
                    "8A4B59FB9188D09B989FF596AC9CEFBF2ED91DED8DCD9498E8BF2236814A92B23BE6867E7FC340880E514F8FDF97E1F147EA4B0FD6C2DA3557D0CF1C0B58A204"
                ),
            ),
            (
                "SELECT to_hex(xxhash64(to_utf8('')))",
                "varchar",
                json!("EF46DB3751D8E999"),
            ),
            (
                "SELECT to_hex(xxhash64(to_utf8('hashme')))",
                "varchar",
                json!("F9D96E0E1165E892"),
            ),
            // TestVarbinaryFunctions.testSpookyHash.
            (
                "SELECT to_hex(spooky_hash_v2_32(to_utf8('hello')))",
                "varchar",
                json!("D382E6CA"),
            ),
            (
                "SELECT to_hex(spooky_hash_v2_64(to_utf8('')))",
                "varchar",
                json!("232706FC6BF50919"),
            ),
            (
                "SELECT to_hex(spooky_hash_v2_64(to_utf8('hello')))",
                "varchar",
                json!("3768826AD382E6CA"),
            ),
            // TestVarbinaryFunctions.testMurmur3 and docs functions/binary (murmur3).
            (
                "SELECT to_hex(murmur3(to_utf8('hashme')))",
                "varchar",
                json!("93192FE805BE23041C8318F67EC4F2BC"),
            ),
            (
                "SELECT to_hex(murmur3(from_base64('aaaaaa')))",
                "varchar",
                json!("BA5855635569B42F4920372CA0E396EF"),
            ),
            (
                "SELECT crc32(to_utf8('CRC me!'))",
                "bigint",
                json!(38028046),
            ),
            (
                "SELECT crc32(to_utf8('1234567890'))",
                "bigint",
                json!(639479525),
            ),
            (
                "SELECT crc32(to_utf8(CAST(1234567890 AS VARCHAR)))",
                "bigint",
                json!(639479525),
            ),
            (
                "SELECT crc32(to_utf8('ABCDEFGHIJKLM'))",
                "bigint",
                json!(4223167559u64),
            ),
            // TestVarbinaryFunctions.testHmacMd5 … testHmacSHA512.
            (
                "SELECT to_hex(hmac_md5(to_utf8('hashme'), to_utf8('key')))",
                "varchar",
                json!("0A26EBEB0E7B65F528D96F7BC631BC8F"),
            ),
            (
                "SELECT to_hex(hmac_sha1(to_utf8(''), to_utf8('key')))",
                "varchar",
                json!("F42BB0EEB018EBBD4597AE7213711EC60760843F"),
            ),
            (
                "SELECT to_hex(hmac_sha256(to_utf8('hashme'), to_utf8('key')))",
                "varchar",
                json!("D3D72F9FACDE059DA3A4EB43A9ABDD4B35118E0FEF00E6D16FB04BB332AF0484"),
            ),
            (
                "SELECT to_hex(hmac_sha512(to_utf8(''), to_utf8('key')))",
                "varchar",
                json!(
                    "84FA5AA0279BBC473267D05A53EA03310A987CECC4C1535FF29B6D76B8F1444A728DF3AADB89D4A9A6709E1998F373566E8F824A8CA93B1821F0B69BC2A2F65E"
                ),
            ),
            ("SELECT md5(NULL) IS NULL", "boolean", json!(true)),
            (
                "SELECT typeof(sha256(X'00'))",
                "varchar",
                json!("varbinary"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT md5('hashme')",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (varchar(6)) for function md5",
            ),
            (
                "SELECT crc32(1)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (integer) for function crc32",
            ),
        ],
    );
}

#[test]
fn hex_and_base64() {
    let engine = engine();
    let every_byte_b64 = base64::engine::general_purpose::STANDARD.encode(all_bytes());
    let every_byte_b64url = base64::engine::general_purpose::URL_SAFE.encode(all_bytes());
    let every_byte_hex: String = all_bytes().iter().map(|b| format!("{b:02X}")).collect();
    let round_trips = [
        format!("SELECT to_base64(from_base64('{every_byte_b64}'))"),
        format!("SELECT to_base64url(from_base64url('{every_byte_b64url}'))"),
        format!("SELECT to_hex(from_hex('{every_byte_hex}'))"),
    ];
    check_values(
        &engine,
        &[
            // TestVarbinaryFunctions.testToBase64 … testFromBase64Url, testToHex, testFromHex.
            (
                "SELECT to_base64(to_utf8('hello world'))",
                "varchar",
                json!("aGVsbG8gd29ybGQ="),
            ),
            ("SELECT to_base64(to_utf8(''))", "varchar", json!("")),
            ("SELECT to_base64(to_utf8('a'))", "varchar", json!("YQ==")),
            (
                "SELECT to_base64url(to_utf8('hello world'))",
                "varchar",
                json!("aGVsbG8gd29ybGQ="),
            ),
            ("SELECT to_base64(X'FBFF')", "varchar", json!("+/8=")),
            ("SELECT to_base64url(X'FBFF')", "varchar", json!("-_8=")),
            (
                "SELECT from_utf8(from_base64(to_base64(to_utf8('abc'))))",
                "varchar",
                json!("abc"),
            ),
            (
                "SELECT from_utf8(from_base64(to_utf8(to_base64(to_utf8('abc')))))",
                "varchar",
                json!("abc"),
            ),
            (
                "SELECT from_utf8(from_base64url(to_base64url(to_utf8('a'))))",
                "varchar",
                json!("a"),
            ),
            // java.util.Base64's decoder: padding is optional.
            ("SELECT from_utf8(from_base64('YQ'))", "varchar", json!("a")),
            (
                "SELECT to_hex(from_base64url('-_8'))",
                "varchar",
                json!("FBFF"),
            ),
            (round_trips[0].as_str(), "varchar", json!(every_byte_b64)),
            (round_trips[1].as_str(), "varchar", json!(every_byte_b64url)),
            (
                "SELECT to_hex(to_utf8('hello world'))",
                "varchar",
                json!("68656C6C6F20776F726C64"),
            ),
            ("SELECT from_utf8(from_hex(''))", "varchar", json!("")),
            (
                "SELECT from_utf8(from_hex('617a6f'))",
                "varchar",
                json!("azo"),
            ),
            (
                "SELECT from_utf8(from_hex('617A6F'))",
                "varchar",
                json!("azo"),
            ),
            (
                "SELECT from_utf8(from_hex(to_utf8('617a6F')))",
                "varchar",
                json!("azo"),
            ),
            (round_trips[2].as_str(), "varchar", json!(every_byte_hex)),
            ("SELECT from_hex(NULL) IS NULL", "boolean", json!(true)),
            // docs functions/binary to_base32/from_base32 (Guava's base32), RFC 4648 §10.
            (
                "SELECT to_base32(to_utf8('foobar'))",
                "varchar",
                json!("MZXW6YTBOI======"),
            ),
            (
                "SELECT from_utf8(from_base32('MZXW6YTBOI======'))",
                "varchar",
                json!("foobar"),
            ),
            ("SELECT from_utf8(from_base32('MY'))", "varchar", json!("f")),
        ],
    );
    check_errors(
        &engine,
        &[
            // TestVarbinaryFunctions.testFromHex; the message is HexFormat.fromHexDigit's.
            (
                "SELECT from_hex('f/')",
                "INVALID_FUNCTION_ARGUMENT: not a hexadecimal digit: \"/\" = 47",
            ),
            (
                "SELECT from_hex('f:')",
                "INVALID_FUNCTION_ARGUMENT: not a hexadecimal digit: \":\" = 58",
            ),
            (
                "SELECT from_hex('fG')",
                "INVALID_FUNCTION_ARGUMENT: not a hexadecimal digit: \"G\" = 71",
            ),
            (
                "SELECT from_hex('f`')",
                "INVALID_FUNCTION_ARGUMENT: not a hexadecimal digit: \"`\" = 96",
            ),
            (
                "SELECT from_hex('fff')",
                "INVALID_FUNCTION_ARGUMENT: invalid input length 3",
            ),
            // java.util.Base64.Decoder's messages (VarbinaryFunctions.fromBase64Varchar).
            (
                "SELECT from_base64('a')",
                "INVALID_FUNCTION_ARGUMENT: Input byte[] should at least have 2 bytes for base64 bytes",
            ),
            (
                "SELECT from_base64('YQ=')",
                "INVALID_FUNCTION_ARGUMENT: Input byte array has wrong 4-byte ending unit",
            ),
            (
                "SELECT from_base64('Y.Q=')",
                "INVALID_FUNCTION_ARGUMENT: Illegal base64 character 2e",
            ),
            (
                "SELECT from_base64('-_8=')",
                "INVALID_FUNCTION_ARGUMENT: Illegal base64 character 2d",
            ),
            (
                "SELECT from_base64url('+/8=')",
                "INVALID_FUNCTION_ARGUMENT: Illegal base64 character 2b",
            ),
            (
                "SELECT from_base64('YWJjZ')",
                "INVALID_FUNCTION_ARGUMENT: Last unit does not have enough valid bits",
            ),
            (
                "SELECT from_base32('M')",
                "INVALID_FUNCTION_ARGUMENT: Invalid input length 1",
            ),
            (
                "SELECT from_base32('my======')",
                "INVALID_FUNCTION_ARGUMENT: Unrecognized character: m",
            ),
            (
                "SELECT to_hex('abc')",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (varchar(3)) for function to_hex",
            ),
        ],
    );
}

#[test]
fn integer_and_float_encodings() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestVarbinaryFunctions.testToBigEndian64 … testFromIEEE754Binary64.
            (
                "SELECT to_hex(to_big_endian_64(1))",
                "varchar",
                json!("0000000000000001"),
            ),
            (
                "SELECT to_hex(to_big_endian_64(-9223372036854775807))",
                "varchar",
                json!("8000000000000001"),
            ),
            (
                "SELECT from_big_endian_64(from_hex('7FFFFFFFFFFFFFFF'))",
                "bigint",
                json!(9223372036854775807i64),
            ),
            (
                "SELECT from_big_endian_64(from_hex('8000000000000001'))",
                "bigint",
                json!(-9223372036854775807i64),
            ),
            (
                "SELECT to_hex(to_big_endian_32(2147483647))",
                "varchar",
                json!("7FFFFFFF"),
            ),
            (
                "SELECT to_hex(to_big_endian_32(-2147483647))",
                "varchar",
                json!("80000001"),
            ),
            (
                "SELECT from_big_endian_32(from_hex('80000001'))",
                "integer",
                json!(-2147483647),
            ),
            (
                "SELECT to_hex(to_ieee754_32(CAST(3.14 AS REAL)))",
                "varchar",
                json!("4048F5C3"),
            ),
            (
                "SELECT to_hex(to_ieee754_32(CAST(-3.4028235E38 AS REAL)))",
                "varchar",
                json!("FF7FFFFF"),
            ),
            (
                "SELECT from_ieee754_32(from_hex('3F800000'))",
                "real",
                json!(1.0),
            ),
            (
                "SELECT from_ieee754_32(from_hex('4048F5C3'))",
                "real",
                number("3.14"),
            ),
            (
                "SELECT to_hex(to_ieee754_64(3.1415926))",
                "varchar",
                json!("400921FB4D12D84A"),
            ),
            (
                "SELECT to_hex(to_ieee754_64(1.7976931348623157E308))",
                "varchar",
                json!("7FEFFFFFFFFFFFFF"),
            ),
            (
                "SELECT from_ieee754_64(to_ieee754_64(3.1415926))",
                "double",
                number("3.1415926"),
            ),
            (
                "SELECT from_ieee754_64(from_hex('7FF0000000000000'))",
                "double",
                json!("Infinity"),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT from_big_endian_64(from_hex('1111'))",
                "INVALID_FUNCTION_ARGUMENT: expected 8-byte input, but got instead: 2",
            ),
            (
                "SELECT from_big_endian_32(from_hex(''))",
                "INVALID_FUNCTION_ARGUMENT: expected 4-byte input, but got instead: 0",
            ),
            (
                "SELECT from_ieee754_32(from_hex('0000'))",
                "INVALID_FUNCTION_ARGUMENT: Input floating-point value must be exactly 4 bytes long",
            ),
            (
                "SELECT from_ieee754_64(from_hex('00000000'))",
                "INVALID_FUNCTION_ARGUMENT: Input floating-point value must be exactly 8 bytes long",
            ),
        ],
    );
}

#[test]
fn substr_reverse_and_pad() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestVarbinaryFunctions.testVarbinarySubstring: bytes, a negative start from the
            // end, 0 or out of range gives empty.
            (
                "SELECT from_utf8(substr(to_utf8('Quadratically'), 5))",
                "varchar",
                json!("ratically"),
            ),
            (
                "SELECT from_utf8(substr(to_utf8('Quadratically'), -5))",
                "varchar",
                json!("cally"),
            ),
            (
                "SELECT from_utf8(substr(to_utf8('Quadratically'), -50))",
                "varchar",
                json!(""),
            ),
            (
                "SELECT from_utf8(substr(to_utf8('Quadratically'), 0))",
                "varchar",
                json!(""),
            ),
            (
                "SELECT from_utf8(substr(to_utf8('Quadratically'), 5, 6))",
                "varchar",
                json!("ratica"),
            ),
            (
                "SELECT from_utf8(substr(to_utf8('Quadratically'), -5, 4))",
                "varchar",
                json!("call"),
            ),
            (
                "SELECT from_utf8(substr(to_utf8('Quadratically'), 5, 0))",
                "varchar",
                json!(""),
            ),
            (
                "SELECT from_utf8(SUBSTRING(to_utf8('Quadratically') FROM 5 FOR 50))",
                "varchar",
                json!("ratically"),
            ),
            (
                "SELECT to_hex(SUBSTRING(X'4FE15FF5' FROM 2 FOR 2))",
                "varchar",
                json!("E15F"),
            ),
            (
                "SELECT to_hex(SUBSTRING(X'4FE15FF5' FROM -2))",
                "varchar",
                json!("5FF5"),
            ),
            (
                "SELECT typeof(substr(X'01', 1))",
                "varchar",
                json!("varbinary"),
            ),
            // TestVarbinaryFunctions.testReverse.
            (
                "SELECT from_utf8(reverse(to_utf8('hello')))",
                "varchar",
                json!("olleh"),
            ),
            (
                "SELECT to_hex(reverse(X'0102FF'))",
                "varchar",
                json!("FF0201"),
            ),
            // TestVarbinaryFunctions.testLpad / testRpad.
            (
                "SELECT to_hex(lpad(x'1234', 7, x'4524'))",
                "varchar",
                json!("45244524451234"),
            ),
            (
                "SELECT to_hex(lpad(x'1234', 1, x'4524'))",
                "varchar",
                json!("12"),
            ),
            (
                "SELECT to_hex(rpad(x'1234', 7, x'4524'))",
                "varchar",
                json!("12344524452445"),
            ),
            (
                "SELECT to_hex(rpad(x'23', 0, x'4524'))",
                "varchar",
                json!(""),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT lpad(x'2312', -1, x'4524')",
                "INVALID_FUNCTION_ARGUMENT: Target length must be in the range [0..2147483647]",
            ),
            (
                "SELECT rpad(x'1234', 1, x'')",
                "INVALID_FUNCTION_ARGUMENT: Padding bytes must not be empty",
            ),
            (
                "SELECT lpad(x'1234', 3, 'a')",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (varbinary, integer, varchar(1)) for function lpad",
            ),
        ],
    );
}

#[test]
fn varbinary_values_casts_and_typed_literals() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // A varbinary value is base64 in the protocol (trino-facts.md "Value encoding").
            ("SELECT X'58F7'", "varbinary", json!("WPc=")),
            ("SELECT X''", "varbinary", json!("")),
            ("SELECT CAST(NULL AS varbinary)", "varbinary", json!(null)),
            (
                "SELECT md5(CAST('hashme' AS VARBINARY))",
                "varbinary",
                json!("Uz9jV+AhDmfZH2UbxJ4SeA=="),
            ),
            // TestVarbinaryFunctions with CAST(… AS VARBINARY) and VARBINARY '…'.
            (
                "SELECT length(CAST('abc' AS VARBINARY))",
                "bigint",
                json!(3),
            ),
            (
                "SELECT to_base64(CAST('hello world' AS VARBINARY))",
                "varchar",
                json!("aGVsbG8gd29ybGQ="),
            ),
            (
                "SELECT CAST('foo' AS VARBINARY) || CAST('bar' AS VARBINARY)",
                "varbinary",
                json!("Zm9vYmFy"),
            ),
            (
                "SELECT SUBSTR(VARBINARY 'Quadratically', 5, 6)",
                "varbinary",
                json!("cmF0aWNh"),
            ),
            (
                "SELECT SUBSTRING(VARBINARY 'Quadratically' FROM -5)",
                "varbinary",
                json!("Y2FsbHk="),
            ),
            (
                "SELECT REVERSE(CAST('hello' AS VARBINARY))",
                "varbinary",
                json!("b2xsZWg="),
            ),
            (
                "SELECT from_base64(CAST(to_base64(CAST('abc' AS VARBINARY)) AS VARBINARY))",
                "varbinary",
                json!("YWJj"),
            ),
            (
                "SELECT from_hex(CAST('61' AS VARBINARY))",
                "varbinary",
                json!("YQ=="),
            ),
            // Inside an array a varbinary is its base64 too (docs/complex-design.md).
            (
                "SELECT ARRAY[X'01', X'FF']",
                "array(varbinary)",
                json!(["AQ==", "/w=="]),
            ),
            (
                "SELECT ARRAY[X'01', X'FF'][2] = X'FF'",
                "boolean",
                json!(true),
            ),
        ],
    );
}

#[test]
fn uuid_values_casts_and_comparisons() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestUuidOperators.testVarcharToUUIDCast: canonical lowercase.
            (
                "SELECT CAST('12151FD2-7586-11E9-8F9E-2A86E4085A59' AS UUID)",
                "uuid",
                json!("12151fd2-7586-11e9-8f9e-2a86e4085a59"),
            ),
            (
                "SELECT CAST('00000000-0000-0000-0000-000000000000' AS UUID)",
                "uuid",
                json!("00000000-0000-0000-0000-000000000000"),
            ),
            ("SELECT TRY_CAST('1-2-3-4-1' AS UUID)", "uuid", json!(null)),
            // testUUIDToVarcharCast.
            (
                "SELECT CAST(UUID 'd3074e99-de12-4b8c-a2a1-b7faf79faba6' AS VARCHAR)",
                "varchar",
                json!("d3074e99-de12-4b8c-a2a1-b7faf79faba6"),
            ),
            // testVarbinaryToUUIDCast / testUUIDToVarbinaryCast: the 16 bytes in order.
            (
                "SELECT CAST(x'12151fd2758611e98f9e2a86e4085a59' AS UUID)",
                "uuid",
                json!("12151fd2-7586-11e9-8f9e-2a86e4085a59"),
            ),
            (
                "SELECT to_hex(CAST(UUID '6b5f5b65-67e4-43b0-8ee3-586cd49f58a0' AS VARBINARY))",
                "varchar",
                json!("6B5F5B6567E443B08EE3586CD49F58A0"),
            ),
            (
                "SELECT TRY_CAST(x'f000001100' AS UUID)",
                "uuid",
                json!(null),
            ),
            // testEquals, testDistinctFrom, testNotEquals, testOrderOperators.
            (
                "SELECT UUID '6b5f5b65-67e4-43b0-8ee3-586cd49f58a0' = CAST('6B5F5B65-67E4-43B0-8EE3-586CD49F58A0' AS UUID)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT CAST(NULL AS UUID) IS DISTINCT FROM CAST(NULL AS UUID)",
                "boolean",
                json!(false),
            ),
            (
                "SELECT UUID '6b5f5b65-67e4-43b0-8ee3-586cd49f58a0' IS DISTINCT FROM UUID '6b5f5b65-67e4-43b0-8ee3-586cd49f58a1'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT UUID '6b5f5b65-67e4-43b0-8ee3-586cd49f58a0' != UUID '12151fd2-7586-11e9-8f9e-2a86e4085a59'",
                "boolean",
                json!(true),
            ),
            (
                "SELECT CAST('12151fd2-7586-11e9-8f9e-2a86e4085a58' AS UUID) < CAST('6b5f5b65-67e4-43b0-8ee3-586cd49f58a0' AS UUID)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT CAST('dfa7eaf8-6a26-5749-8d36-336025df74e8' AS UUID) > CAST('6b5f5b65-67e4-43b0-8ee3-586cd49f58a0' AS UUID)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT UUID '6b5f5b65-67e4-43b0-8ee3-586cd49f58a0' BETWEEN UUID '12151fd2-7586-11e9-8f9e-2a86e4085a50' AND UUID 'dfa7eaf8-6a26-5749-8d36-336025df74e8'",
                "boolean",
                json!(true),
            ),
            // docs functions/uuid: uuid() is a type 4 UUID, new at every call.
            ("SELECT typeof(uuid())", "varchar", json!("uuid")),
            (
                "SELECT substr(CAST(uuid() AS VARCHAR), 15, 1)",
                "varchar",
                json!("4"),
            ),
            (
                "SELECT count(DISTINCT uuid()) FROM nation",
                "bigint",
                json!(25),
            ),
            ("SELECT uuid() = uuid()", "boolean", json!(false)),
            (
                "SELECT ARRAY[UUID '6b5f5b65-67e4-43b0-8ee3-586cd49f58a0']",
                "array(uuid)",
                json!(["6b5f5b65-67e4-43b0-8ee3-586cd49f58a0"]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            // TestUuidOperators.testVarcharToUUIDCast / testVarbinaryToUUIDCast.
            (
                "SELECT CAST('1-2-3-4-1' AS UUID)",
                "INVALID_CAST_ARGUMENT: Invalid UUID string length: 9",
            ),
            (
                "SELECT CAST('12151fd217586211e938f9e42a86e4085a59' AS UUID)",
                "INVALID_CAST_ARGUMENT: Cannot cast value to UUID: 12151fd217586211e938f9e42a86e4085a59",
            ),
            (
                "SELECT CAST(x'f000001100' AS UUID)",
                "INVALID_CAST_ARGUMENT: Invalid UUID binary length: 5",
            ),
            // The literal is its cast, evaluated at analysis (reported at its string).
            (
                "SELECT UUID 'nope'",
                // Trino 476 (trino-q): a literal's own error, not the cast's.
                "INVALID_LITERAL: line 1:8: 'nope' is not a valid UUID literal",
            ),
            (
                "SELECT UUID '6b5f5b65-67e4-43b0-8ee3-586cd49f58a0' = 'x'",
                "TYPE_MISMATCH: line 1:52: Cannot apply operator: uuid = varchar(1)",
            ),
            (
                "SELECT uuid(1)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (integer) for function uuid",
            ),
        ],
    );
}
