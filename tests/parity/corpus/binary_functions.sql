-- family: binary_functions
-- source: Trino 476 docs, functions/binary.md (https://trino.io/docs/476/functions/binary.html)

-- source: functions/binary.md, binary operators and varbinary literals
SELECT X'0102' || X'0304';
SELECT X'' || X'FF';
SELECT X'AB' || NULL;
SELECT X'00ff10';
SELECT X'';
SELECT typeof(X'01' || X'02');
SELECT X'0G';

-- source: functions/binary.md, concat, length, lpad, rpad, substr, reverse
SELECT concat(X'01', X'02', X'03');
SELECT concat(X'', X'');
SELECT concat(X'01', NULL);
SELECT length(X'010203');
SELECT length(X'');
SELECT length(to_utf8('日本'));
SELECT lpad(X'0102', 5, X'FF');
SELECT lpad(X'01020304', 2, X'FF');
SELECT lpad(X'01', 6, X'AABB');
SELECT lpad(X'01', 0, X'FF');
SELECT lpad(X'01', 3, X'');
SELECT rpad(X'0102', 5, X'FF');
SELECT rpad(X'01020304', 3, X'00');
SELECT rpad(X'', 4, X'AABBCC');
SELECT rpad(X'01', -1, X'00');
SELECT substr(X'0102030405', 2);
SELECT substr(X'0102030405', 2, 2);
SELECT substr(X'0102030405', -2);
SELECT substr(X'0102030405', -4, 2);
SELECT substr(X'0102030405', 9);
SELECT substr(X'0102', 0);
SELECT substr(X'0102030405', 1, 0);
SELECT reverse(X'010203');
SELECT reverse(X'');
SELECT reverse(CAST(NULL AS varbinary));
SELECT reverse(to_utf8(name)) FROM tpch.tiny.region ORDER BY regionkey;

-- source: functions/binary.md, base64 encoding functions
SELECT to_base64(X'48656C6C6F');
SELECT to_base64(X'');
SELECT to_base64(X'FF');
SELECT to_base64(X'FFFE');
SELECT to_base64(X'FBFF');
SELECT to_base64(NULL);
SELECT from_base64('SGVsbG8=');
SELECT from_base64('SGVsbG8');
SELECT from_base64('');
SELECT from_base64('+/8=');
SELECT from_base64('-_8=');
SELECT from_base64('!!!');
SELECT from_base64(to_base64(to_utf8('round ✓')));
SELECT from_base64(X'53475673624738');
SELECT to_base64url(X'FBFF');
SELECT to_base64url(X'FFFE');
SELECT to_base64url(X'');
SELECT from_base64url('-_8=');
SELECT from_base64url('-_8');
SELECT from_base64url('+/8=');
SELECT from_base64url('@@');
SELECT to_base32(X'48656C6C6F');
SELECT to_base32(X'');
SELECT to_base32(X'FF');
SELECT from_base32('JBSWY3DP');
SELECT from_base32('74======');
SELECT from_base32('');
SELECT from_base32('1!');
SELECT from_base32(to_base32(X'0102030405'));
SELECT to_base64(to_utf8(name)) FROM tpch.tiny.nation WHERE nationkey < 4 ORDER BY nationkey;

-- source: functions/binary.md, hex encoding functions
SELECT to_hex(X'00FF10');
SELECT to_hex(X'');
SELECT to_hex(to_utf8('abc'));
SELECT to_hex(NULL);
SELECT from_hex('00ff10');
SELECT from_hex('00FF10');
SELECT from_hex('');
SELECT from_hex('abc');
SELECT from_hex('zz');
SELECT from_hex(X'3031');
SELECT typeof(to_hex(X'01'));
SELECT to_hex(to_utf8(name)) FROM tpch.tiny.region ORDER BY regionkey;

-- source: functions/binary.md, integer encoding functions
SELECT to_big_endian_32(1);
SELECT to_big_endian_32(-1);
SELECT to_big_endian_32(2147483647);
SELECT to_big_endian_32(0);
SELECT from_big_endian_32(X'00000100');
SELECT from_big_endian_32(X'FFFFFFFE');
SELECT from_big_endian_32(X'0001');
SELECT from_big_endian_32(X'0000000001');
SELECT to_big_endian_64(1);
SELECT to_big_endian_64(-2);
SELECT to_big_endian_64(BIGINT '9223372036854775807');
SELECT from_big_endian_64(X'0000000000000100');
SELECT from_big_endian_64(X'8000000000000000');
SELECT from_big_endian_64(X'00');
SELECT from_big_endian_32(to_big_endian_32(-123456));
SELECT to_big_endian_64(nationkey) FROM tpch.tiny.nation WHERE nationkey < 3 ORDER BY nationkey;
SELECT to_big_endian_32(BIGINT '1');

-- source: functions/binary.md, floating-point encoding functions
SELECT to_ieee754_32(REAL '1.0');
SELECT to_ieee754_32(REAL '-2.5');
SELECT to_ieee754_32(REAL 'NaN');
SELECT to_ieee754_32(REAL '0.0');
SELECT from_ieee754_32(X'3F800000');
SELECT from_ieee754_32(X'C0200000');
SELECT from_ieee754_32(X'7F800000');
SELECT from_ieee754_32(X'3F80');
SELECT to_ieee754_64(1.0E0);
SELECT to_ieee754_64(-0.0E0);
SELECT to_ieee754_64(infinity());
SELECT to_ieee754_64(0.1E0);
SELECT from_ieee754_64(X'3FF0000000000000');
SELECT from_ieee754_64(X'400921FB54442D18');
SELECT from_ieee754_64(X'FFF0000000000000');
SELECT from_ieee754_64(X'3FF0');
SELECT from_ieee754_64(to_ieee754_64(acctbal)) = acctbal FROM tpch.tiny.supplier ORDER BY suppkey LIMIT 3;
SELECT to_ieee754_64(1);

-- source: functions/binary.md, hashing functions
SELECT crc32(to_utf8('hello'));
SELECT crc32(X'');
SELECT md5(to_utf8('hello'));
SELECT md5(X'');
SELECT sha1(to_utf8('hello'));
SELECT sha1(X'');
SELECT sha256(to_utf8('hello'));
SELECT sha256(X'');
SELECT sha512(to_utf8('hello'));
SELECT sha512(X'');
SELECT spooky_hash_v2_32(to_utf8('hello'));
SELECT spooky_hash_v2_32(X'');
SELECT spooky_hash_v2_64(to_utf8('hello'));
SELECT spooky_hash_v2_64(X'');
SELECT xxhash64(to_utf8('hello'));
SELECT xxhash64(X'');
SELECT murmur3(to_utf8('hello'));
SELECT murmur3(X'');
SELECT murmur3(from_base64('bbbbbb'));
SELECT crc32(to_utf8('The quick brown fox jumps over the lazy dog'));
SELECT md5(to_utf8('The quick brown fox jumps over the lazy dog'));
SELECT to_hex(sha256(to_utf8('abc')));
SELECT to_hex(md5(to_utf8('日本')));
SELECT md5(NULL);
SELECT crc32(NULL);
SELECT typeof(crc32(X'00'));
SELECT typeof(md5(X'00'));
SELECT to_hex(xxhash64(to_utf8(name))) FROM tpch.tiny.region ORDER BY regionkey;
SELECT crc32(to_utf8(name)) FROM tpch.tiny.nation WHERE nationkey < 5 ORDER BY nationkey;
SELECT md5('hello');
SELECT sha256(1);

-- source: functions/binary.md, HMAC functions
SELECT hmac_md5(to_utf8('message'), to_utf8('key'));
SELECT hmac_sha1(to_utf8('message'), to_utf8('key'));
SELECT hmac_sha256(to_utf8('message'), to_utf8('key'));
SELECT hmac_sha512(to_utf8('message'), to_utf8('key'));
SELECT to_hex(hmac_sha256(to_utf8('The quick brown fox jumps over the lazy dog'), to_utf8('key')));
SELECT hmac_sha256(to_utf8('m'), NULL);
SELECT hmac_md5('m', 'k');

-- source: functions/binary.md, varbinary comparisons and casts
SELECT X'01' = X'01';
SELECT X'0100' = X'01';
SELECT X'FF' > X'7F';
SELECT CAST(X'68656C6C6F' AS varbinary);
SELECT to_utf8('a') = X'61';
SELECT from_utf8(from_hex('e697a5e69cac'));

-- source: Trino 476 docs, functions/binary.md: its examples as written (extracted page by page)
SELECT murmur3(from_base64('aaaaaa'));
