-- family: project_semantics_binary
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/binary.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT to_hex(X'58F7');

SELECT to_hex(x'58 f7');

SELECT length(to_utf8(''));

SELECT length(to_utf8('abc'));

SELECT length(to_utf8('€'));

SELECT length(X'00FF00');

SELECT to_hex(X'000102' || X'AAABAC' || X'FDFEFF');

SELECT to_hex(X'' || X'58' || X'' || X'F7' || X'');

SELECT to_hex(CONCAT(X'CAFFEE', X'F7', X'DE58'));

SELECT from_utf8(to_utf8('foo') || to_utf8('bar') || to_utf8('baz'));

SELECT length(X'00' || X'0000');

SELECT typeof(X'00' || X'01');

SELECT X'58F7' = X'58F7';

SELECT X'58F7' <> X'58F8';

SELECT X'FF' > X'01';

SELECT X'01' < X'0100';

SELECT X'01' BETWEEN X'00' AND X'02';

SELECT X'01' IS DISTINCT FROM NULL;

SELECT X'01' || NULL IS NULL;

SELECT CONCAT(X'');

SELECT X'01' || 'a';

SELECT X'01' = 'a';

SELECT from_utf8(to_utf8('hello'));

SELECT from_utf8(from_hex('58BF'));

SELECT from_utf8(from_hex('58DF'));

SELECT from_utf8(from_hex('58F7'));

SELECT from_utf8(from_hex('58BF'), '#');

SELECT from_utf8(from_hex('58DF'), 35);

SELECT from_utf8(from_hex('58BF'), '');

SELECT from_utf8(X'E282' || X'41');

SELECT from_utf8(X'C0AF');

SELECT from_utf8(X'EDA080');

SELECT from_utf8(X'E282AC');

SELECT from_utf8(NULL);

SELECT from_utf8(X'FF', NULL);

SELECT to_hex(to_utf8(CAST('a' AS char(3))));

SELECT to_hex(to_utf8('€'));

SELECT to_utf8(NULL) IS NULL;

SELECT from_utf8(to_utf8('hello'), 'foo');

SELECT from_utf8(to_utf8('hello'), 1114112);

SELECT from_utf8(to_utf8('hello'), 55296);

SELECT from_utf8('hello');

SELECT to_utf8(1);

SELECT to_hex(md5(to_utf8('')));

SELECT to_hex(md5(to_utf8('hashme')));

SELECT to_hex(sha1(to_utf8('hashme')));

SELECT to_hex(sha256(to_utf8('hashme')));

SELECT to_hex(sha512(to_utf8('')));

SELECT to_hex(sha512(to_utf8('hashme')));

SELECT to_hex(xxhash64(to_utf8('')));

SELECT to_hex(xxhash64(to_utf8('hashme')));

SELECT to_hex(spooky_hash_v2_32(to_utf8('hello')));

SELECT to_hex(spooky_hash_v2_64(to_utf8('')));

SELECT to_hex(spooky_hash_v2_64(to_utf8('hello')));

SELECT to_hex(murmur3(to_utf8('hashme')));

SELECT to_hex(murmur3(from_base64('aaaaaa')));

SELECT crc32(to_utf8('CRC me!'));

SELECT crc32(to_utf8('1234567890'));

SELECT crc32(to_utf8(CAST(1234567890 AS VARCHAR)));

SELECT crc32(to_utf8('ABCDEFGHIJKLM'));

SELECT to_hex(hmac_md5(to_utf8('hashme'), to_utf8('key')));

SELECT to_hex(hmac_sha1(to_utf8(''), to_utf8('key')));

SELECT to_hex(hmac_sha256(to_utf8('hashme'), to_utf8('key')));

SELECT to_hex(hmac_sha512(to_utf8(''), to_utf8('key')));

SELECT md5(NULL) IS NULL;

SELECT typeof(sha256(X'00'));

SELECT md5('hashme');

SELECT crc32(1);

SELECT to_base64(to_utf8('hello world'));

SELECT to_base64(to_utf8(''));

SELECT to_base64(to_utf8('a'));

SELECT to_base64url(to_utf8('hello world'));

SELECT from_utf8(from_base64(to_base64(to_utf8('abc'))));

SELECT from_utf8(from_base64(to_utf8(to_base64(to_utf8('abc')))));

SELECT from_utf8(from_base64url(to_base64url(to_utf8('a'))));

SELECT from_utf8(from_base64('YQ'));

SELECT to_hex(from_base64url('-_8'));

SELECT to_hex(to_utf8('hello world'));

SELECT from_utf8(from_hex(''));

SELECT from_utf8(from_hex('617a6f'));

SELECT from_utf8(from_hex('617A6F'));

SELECT from_utf8(from_hex(to_utf8('617a6F')));

SELECT from_hex(NULL) IS NULL;

SELECT to_base32(to_utf8('foobar'));

SELECT from_utf8(from_base32('MZXW6YTBOI======'));

SELECT from_utf8(from_base32('MY'));

SELECT from_hex('f/');

SELECT from_hex('f:');

SELECT from_hex('fG');

SELECT from_hex('f`');

SELECT from_hex('fff');

SELECT from_base64('a');

SELECT from_base64('YQ=');

SELECT from_base64('Y.Q=');

SELECT from_base64('YWJjZ');

SELECT from_base32('M');

SELECT from_base32('my======');

SELECT to_hex('abc');

SELECT to_hex(to_big_endian_64(1));

SELECT to_hex(to_big_endian_64(-9223372036854775807));

SELECT from_big_endian_64(from_hex('7FFFFFFFFFFFFFFF'));

SELECT from_big_endian_64(from_hex('8000000000000001'));

SELECT to_hex(to_big_endian_32(2147483647));

SELECT to_hex(to_big_endian_32(-2147483647));

SELECT from_big_endian_32(from_hex('80000001'));

SELECT to_hex(to_ieee754_32(CAST(3.14 AS REAL)));

SELECT to_hex(to_ieee754_32(CAST(-3.4028235E38 AS REAL)));

SELECT from_ieee754_32(from_hex('3F800000'));

SELECT from_ieee754_32(from_hex('4048F5C3'));

SELECT to_hex(to_ieee754_64(3.1415926));

SELECT to_hex(to_ieee754_64(1.7976931348623157E308));

SELECT from_ieee754_64(to_ieee754_64(3.1415926));

SELECT from_ieee754_64(from_hex('7FF0000000000000'));

SELECT from_big_endian_64(from_hex('1111'));

SELECT from_big_endian_32(from_hex(''));

SELECT from_ieee754_32(from_hex('0000'));

SELECT from_ieee754_64(from_hex('00000000'));

SELECT from_utf8(substr(to_utf8('Quadratically'), 5));

SELECT from_utf8(substr(to_utf8('Quadratically'), -5));

SELECT from_utf8(substr(to_utf8('Quadratically'), -50));

SELECT from_utf8(substr(to_utf8('Quadratically'), 0));

SELECT from_utf8(substr(to_utf8('Quadratically'), 5, 6));

SELECT from_utf8(substr(to_utf8('Quadratically'), -5, 4));

SELECT from_utf8(substr(to_utf8('Quadratically'), 5, 0));

SELECT from_utf8(SUBSTRING(to_utf8('Quadratically') FROM 5 FOR 50));

SELECT to_hex(SUBSTRING(X'4FE15FF5' FROM 2 FOR 2));

SELECT to_hex(SUBSTRING(X'4FE15FF5' FROM -2));

SELECT typeof(substr(X'01', 1));

SELECT from_utf8(reverse(to_utf8('hello')));

SELECT to_hex(reverse(X'0102FF'));

SELECT to_hex(lpad(x'1234', 7, x'4524'));

SELECT to_hex(lpad(x'1234', 1, x'4524'));

SELECT to_hex(rpad(x'1234', 7, x'4524'));

SELECT to_hex(rpad(x'23', 0, x'4524'));

SELECT lpad(x'2312', -1, x'4524');

SELECT rpad(x'1234', 1, x'');

SELECT lpad(x'1234', 3, 'a');

SELECT X'58F7';

SELECT CAST(NULL AS varbinary);

SELECT md5(CAST('hashme' AS VARBINARY));

SELECT length(CAST('abc' AS VARBINARY));

SELECT to_base64(CAST('hello world' AS VARBINARY));

SELECT CAST('foo' AS VARBINARY) || CAST('bar' AS VARBINARY);

SELECT SUBSTR(VARBINARY 'Quadratically', 5, 6);

SELECT SUBSTRING(VARBINARY 'Quadratically' FROM -5);

SELECT REVERSE(CAST('hello' AS VARBINARY));

SELECT from_base64(CAST(to_base64(CAST('abc' AS VARBINARY)) AS VARBINARY));

SELECT from_hex(CAST('61' AS VARBINARY));

SELECT ARRAY[X'01', X'FF'];

SELECT ARRAY[X'01', X'FF'][2] = X'FF';
