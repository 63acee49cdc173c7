-- family: casts_and_coercions
-- source: Trino 476 docs, functions/conversion.md (https://trino.io/docs/476/functions/conversion.html)
-- source: Trino 476 docs, language/types.md (https://trino.io/docs/476/language/types.html)
-- source: trinodb/trino core/trino-main/src/test/java/io/trino/type/TestBigintOperators.java, TestDoubleOperators.java, TestVarcharOperators.java, TestBooleanOperators.java, TestDateOperators.java

-- implicit coercions in comparisons and arithmetic
SELECT 1 = 1.0, 1 = BIGINT '1', 1 < 1.5e0, SMALLINT '2' > TINYINT '1';
SELECT typeof(1 + BIGINT '1'), typeof(1 + 1.5), typeof(1 + REAL '1.5'), typeof(REAL '1' + 1e0);
SELECT typeof(BIGINT '1' * 2.5), BIGINT '3' * 2.5;
SELECT typeof(DECIMAL '1.5' + 1e0), DECIMAL '1.5' + 1e0;
SELECT 1.10 = 1.1, DECIMAL '1.10' = DECIMAL '1.100', typeof(DECIMAL '1.10' + DECIMAL '1.100');
SELECT 'abc' = CAST('abc' AS char(5)), CAST('abc' AS char(5)) = CAST('abc  ' AS char(7));
SELECT 'abc' = 'abc ', typeof('abc' || 'de');
SELECT DATE '2020-01-01' = TIMESTAMP '2020-01-01 00:00:00', DATE '2020-01-02' > TIMESTAMP '2020-01-01 23:59:59';
SELECT DATE '2020-01-01' + INTERVAL '1' DAY, TIMESTAMP '2020-01-01 10:00:00' + INTERVAL '90' MINUTE;
SELECT DATE '2020-01-31' + INTERVAL '1' MONTH, DATE '2020-03-31' - INTERVAL '1' MONTH;
SELECT count(*) FROM tpch.tiny.nation WHERE nationkey = 3.0;
SELECT count(*) FROM tpch.tiny.orders WHERE orderdate = TIMESTAMP '1995-03-15 00:00:00';
SELECT count(*) FROM tpch.tiny.lineitem WHERE quantity = 10;
SELECT count(*) FROM tpch.tiny.part WHERE size = BIGINT '10';
SELECT count(*) FROM tpch.tiny.customer WHERE acctbal > DECIMAL '9000.00';
SELECT typeof(size + nationkey) FROM tpch.tiny.part, tpch.tiny.nation LIMIT 1;
SELECT typeof(coalesce(SMALLINT '1', 2)), typeof(greatest(1, 2.5, BIGINT '3'));
SELECT ARRAY[1, 2.5], typeof(ARRAY[1, BIGINT '2']), typeof(ARRAY[1, 1e0]);
SELECT typeof(MAP(ARRAY[1], ARRAY['a'])), typeof(ARRAY['a', 'bcd']);
SELECT NULL = 1, typeof(NULL + 1.5);

-- CAST between numeric types
SELECT CAST(1.9 AS integer), CAST(-1.5 AS integer), CAST(2.5 AS integer), CAST(-2.5 AS bigint);
SELECT CAST(1.5e0 AS integer), CAST(2.5e0 AS integer), CAST(-0.5e0 AS bigint);
SELECT CAST(REAL '3.5' AS integer), CAST(REAL '4.5' AS smallint);
SELECT CAST(300 AS smallint), CAST(-128 AS tinyint), CAST(127 AS tinyint);
SELECT CAST(2147483647 AS bigint) + 1, CAST(BIGINT '2147483647' AS integer);
SELECT CAST(1 AS decimal(10, 2)), CAST(123.456 AS decimal(5, 1)), CAST(-123.456 AS decimal(5, 1));
SELECT CAST(0.125 AS decimal(3, 2)), CAST(0.135 AS decimal(3, 2)), CAST(-0.125 AS decimal(3, 2));
SELECT CAST(1e0 / 3 AS decimal(10, 6)), CAST(DECIMAL '2.5' AS double), CAST(DECIMAL '2.5' AS real);
SELECT CAST(12345678901234567890 AS double), CAST(DECIMAL '99999999999999999999' AS decimal(38, 0));
SELECT CAST(1e300 AS real);
SELECT CAST(DECIMAL '12345678901234567890' AS double), CAST(DECIMAL '99999999999999999999' AS decimal(38, 0));
SELECT CAST(nan() AS real), CAST(infinity() AS real), CAST(-infinity() AS double);
SELECT CAST(BIGINT '9223372036854775807' AS double), CAST(9.2233720368547748E18 AS bigint);
SELECT CAST(255 AS decimal(3, 0)), CAST(DECIMAL '12.34' AS integer), CAST(DECIMAL '-12.5' AS bigint);

-- CAST numeric overflow refusals
SELECT CAST(128 AS tinyint);
SELECT CAST(40000 AS smallint);
SELECT CAST(BIGINT '2147483648' AS integer);
SELECT CAST(1e20 AS bigint);
SELECT CAST(nan() AS bigint);
SELECT CAST(infinity() AS integer);
SELECT CAST(1234.5 AS decimal(4, 1));
SELECT CAST(1e10 AS decimal(5, 2));
SELECT CAST(DECIMAL '123.45' AS decimal(3, 2));
SELECT CAST(1e39 AS decimal(38, 0));

-- numeric and varchar
SELECT CAST(42 AS varchar), CAST(-7 AS varchar(5)), CAST(BIGINT '9000000000' AS varchar);
SELECT CAST(1.50 AS varchar), CAST(DECIMAL '-0.05' AS varchar), CAST(DECIMAL '100' AS varchar);
SELECT CAST(1.5e0 AS varchar), CAST(1e7 AS varchar), CAST(0.001e0 AS varchar), CAST(1.0E-4 AS varchar);
SELECT CAST(123456789.125e0 AS varchar), CAST(REAL '1.25' AS varchar), CAST(1e0 / 3 AS varchar);
SELECT CAST(nan() AS varchar), CAST(infinity() AS varchar), CAST(-0e0 AS varchar);
SELECT CAST('42' AS integer), CAST(' 42 ' AS integer), CAST('-0' AS bigint), CAST('+7' AS smallint);
SELECT CAST('1.5' AS double), CAST('1e3' AS double), CAST('  2.5  ' AS double), CAST('NaN' AS double), CAST('-Infinity' AS double);
SELECT CAST('12.345' AS decimal(5, 2)), CAST('12.355' AS decimal(5, 2)), CAST('-0.5' AS decimal(2, 1));
SELECT CAST('1.5' AS real), CAST('abc' AS varchar(2)), CAST('a' AS char(3));
SELECT CAST(12345 AS varchar(3));
SELECT CAST('abc' AS integer);
SELECT CAST('1.5' AS integer);
SELECT CAST('' AS bigint);
SELECT CAST('99999999999' AS integer);
SELECT CAST('1.2.3' AS double);
SELECT CAST('12345.6' AS decimal(5, 2));

-- boolean
SELECT CAST(true AS varchar), CAST(false AS integer), CAST(true AS bigint), CAST(true AS double), CAST(true AS decimal(3, 1));
SELECT CAST(0 AS boolean), CAST(5 AS boolean), CAST(-1 AS boolean), CAST(0.0e0 AS boolean), CAST(DECIMAL '0.1' AS boolean);
SELECT CAST('true' AS boolean), CAST('FALSE' AS boolean), CAST('t' AS boolean), CAST('f' AS boolean), CAST('1' AS boolean), CAST('0' AS boolean);
SELECT CAST('yes' AS boolean);
SELECT CAST(DATE '2020-01-01' AS boolean);

-- date and timestamp
SELECT CAST('2024-02-29' AS date), CAST(' 2024-03-01 ' AS date), CAST('2024-3-1' AS date);
SELECT CAST(DATE '2024-02-29' AS varchar), CAST(DATE '2024-02-29' AS timestamp), CAST(DATE '2024-02-29' AS timestamp(6));
SELECT CAST(TIMESTAMP '2024-02-29 13:14:15.678' AS date), CAST(TIMESTAMP '2024-02-29 13:14:15.678' AS varchar);
SELECT CAST(TIMESTAMP '2024-02-29 13:14:15.678' AS timestamp(0)), CAST(TIMESTAMP '2024-02-29 13:14:15.5' AS timestamp(0));
SELECT CAST(TIMESTAMP '2024-02-29 13:14:15.123456' AS timestamp(3)), CAST(TIMESTAMP '2024-02-29 13:14:15' AS timestamp(6));
SELECT CAST('2024-02-29 01:02:03' AS timestamp), CAST('2024-02-29 01:02:03.456789' AS timestamp(6)), CAST('2024-02-29' AS timestamp);
SELECT CAST(TIMESTAMP '2020-01-01 00:00:00' AS time), CAST(TIME '10:11:12' AS varchar), CAST('23:59:59.999' AS time);
SELECT CAST(orderdate AS varchar) FROM tpch.tiny.orders WHERE orderkey = 1;
SELECT CAST(shipdate AS timestamp) FROM tpch.tiny.lineitem WHERE orderkey = 1 AND linenumber = 1;
SELECT CAST('2023-02-29' AS date);
SELECT CAST('2024-13-01' AS date);
SELECT CAST('not a date' AS date);
SELECT CAST('2024-01-01 25:00:00' AS timestamp);
SELECT CAST(DATE '2020-01-01' AS integer);
SELECT CAST(1 AS date);
SELECT CAST(TIMESTAMP '2020-01-01 00:00:00' AS bigint);
SELECT CAST(DATE '2020-01-01' AS time);

-- TRY_CAST
SELECT TRY_CAST('abc' AS integer), TRY_CAST('12' AS integer), TRY_CAST(NULL AS integer);
SELECT TRY_CAST(128 AS tinyint), TRY_CAST(1e20 AS bigint), TRY_CAST('2023-02-29' AS date);
SELECT TRY_CAST('1.5' AS decimal(2, 1)), TRY_CAST('123.4' AS decimal(3, 1)), TRY_CAST('yes' AS boolean);
SELECT TRY_CAST(x AS integer) FROM (VALUES '1', 'two', '3') t(x) ORDER BY 1 NULLS FIRST;
SELECT count(TRY_CAST(name AS bigint)) FROM tpch.tiny.nation;
SELECT try_cast('7' AS bigint) + 1, typeof(try_cast('7' AS bigint));
SELECT TRY_CAST(ARRAY['1', 'x'] AS array(integer));
SELECT TRY_CAST(DATE '2020-01-01' AS integer);

-- casts of structural types
SELECT CAST(ARRAY[1, 2] AS array(varchar)), CAST(ARRAY['1', '2'] AS array(bigint)), CAST(ARRAY[1.5, 2.5] AS array(integer));
SELECT CAST(MAP(ARRAY[1], ARRAY['2']) AS map(varchar, integer));
SELECT CAST(ARRAY[1, NULL] AS array(double)), CAST(NULL AS array(integer));
SELECT CAST(ARRAY['a'] AS array(integer));
SELECT CAST(ARRAY[1] AS integer);
SELECT CAST(JSON '123' AS integer), CAST(JSON '"abc"' AS varchar), CAST(JSON 'true' AS boolean), CAST(JSON '1.5' AS double);
SELECT CAST(JSON '[1, 2]' AS array(integer)), CAST(JSON '{"a": 1}' AS map(varchar, integer));
SELECT CAST(ARRAY[1, 2] AS json), CAST(MAP(ARRAY['k'], ARRAY[true]) AS json), CAST('abc' AS json), CAST(1.5 AS json);
SELECT CAST(X'68656C6C6F' AS varchar), CAST('hi' AS varbinary);
SELECT CAST(CAST('abc' AS char(5)) AS varchar), length(CAST('abc' AS char(5))), CAST(CAST('abc' AS char(5)) AS varchar) = 'abc';
SELECT CAST(INTERVAL '2' DAY AS varchar);
SELECT CAST('hi' AS varbinary), from_utf8(CAST('hé' AS varbinary));

-- refusals of implicit coercion
SELECT 1 = '1';
SELECT 'a' + 1;
SELECT DATE '2020-01-01' = '2020-01-01';
SELECT true = 1;
SELECT 1 + true;
SELECT count(*) FROM tpch.tiny.nation WHERE name = 1;
SELECT count(*) FROM tpch.tiny.nation WHERE nationkey = '1';
SELECT DATE '2020-01-01' + 1;
SELECT ARRAY[1] = ARRAY['1'];

-- source: Trino 476 docs, language/types.md "VARCHAR" (Unicode string literals, U&'...' [UESCAPE 'c']); TestSqlParser.testUnicodeString
SELECT U&'Hello winter \2603 !';
SELECT U&'Hello winter #2603 !' UESCAPE '#';
SELECT U&'\0041\+01F600';
SELECT u&'it''s \0041';
SELECT U&'a##b' UESCAPE '#';
SELECT U&'#00e9t#0000' UESCAPE '#';
SELECT U&'x' UESCAPE '';
SELECT U&'x' UESCAPE '+';
SELECT U&'x' UESCAPE '%%';
SELECT U&'hello\6dB\8Bd5';
SELECT U&'hello\K6B';
SELECT U&'hello\+FFFFFD';
SELECT U&'hello\DBFF';
SELECT U&'abc\';

-- source: Trino 476 docs, language/types.md: its examples as written (extracted page by page)
SELECT CHAR 'All right, Mr. DeMille, I''m ready for my close-up.';
SELECT from_utf8(x'65683F');
SELECT TIME '01:02:03.456 -08:00';
SELECT TIMESTAMP '2020-06-10 15:55:23';
SELECT TIMESTAMP '2020-06-10 15:55:23.383345';
SELECT typeof(TIMESTAMP '2020-06-10 15:55:23.383345');
SELECT cast(TIMESTAMP '2020-06-10 15:55:23.383345' as TIMESTAMP(1));
SELECT cast(TIMESTAMP '2020-06-10 15:55:23.383345' as TIMESTAMP(12));
SELECT TIMESTAMP '2001-08-22 03:04:05.321 UTC';
SELECT TIMESTAMP '2001-08-22 03:04:05.321 -08:30';
SELECT TIMESTAMP '2001-08-22 03:04:05.321 GMT-08:30';
SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/New_York';
SELECT -7;
SELECT 0;
SELECT 3;
SELECT 0x0A;
SELECT 0x11;
SELECT 0o40;
SELECT 0o11;
SELECT 0b1001;
SELECT 0b101010;
SELECT 123_456.789_123;
SELECT 123456.789123;
SELECT 1.03e1;
SELECT 123_456.789e4;
SELECT 123456.789e4;
SELECT REAL '10.3';
SELECT REAL '10.3e0';
SELECT REAL '1.03e1';
SELECT DOUBLE '10.3';
SELECT DOUBLE '1.03e1';
SELECT 10.3e0;
SELECT 000123.456;
SELECT 123.456;
SELECT DECIMAL '10.3';
SELECT DECIMAL '1234567890';
SELECT 1.1;
SELECT 'Hello winter !';
SELECT 'I am big, it''s the pictures that got small!';
SELECT X'65683F';
SELECT DATE '2001-08-22';
SELECT TIME '01:02:03.456';
SELECT INTERVAL '3' MONTH;
SELECT INTERVAL '2' DAY;
SELECT ARRAY[1, 2, 3];
SELECT MAP(ARRAY['foo', 'bar'], ARRAY[1, 2]);
SELECT CAST(ROW(1, 2e0) AS ROW(x BIGINT, y DOUBLE));
SELECT ROW(1, 2.0)[1];

-- source: Trino 476 docs, language/types.md (numeric literals with digit separators); Trino 476's lexer: no separator in a DOUBLE_VALUE
SELECT 1_000e2;
SELECT 1_000.5;
