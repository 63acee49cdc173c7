-- family: queries_basic
-- source: Trino 476 docs, sql/select.md (https://trino.io/docs/476/sql/select.html)
-- source: trinodb/trino testing/trino-testing/src/main/java/io/trino/testing/AbstractTestQueries.java

-- projections and literals of every type
SELECT 1, 2.5, 1e3, 'abc', true, NULL;
SELECT BIGINT '9007199254740993', INTEGER '-17', SMALLINT '300', TINYINT '-8';
SELECT DECIMAL '123.4500', DECIMAL '-0.01', 12345678901234567890.5;
SELECT REAL '1.5', DOUBLE '2.25', 1.0E-2;
SELECT DATE '2024-02-29', TIMESTAMP '2020-01-02 03:04:05.678', TIMESTAMP '2020-01-02 03:04:05';
SELECT TIME '12:34:56', TIME '01:02:03.456';
SELECT INTERVAL '3' DAY, INTERVAL '2' MONTH, INTERVAL '1-6' YEAR TO MONTH, INTERVAL '1 02:03:04' DAY TO SECOND;
SELECT X'0A0B0C', CHAR 'ab', VARCHAR 'xyz';
SELECT 'it''s', '', U&'\0041\00e9';
SELECT ARRAY[1, 2, 3], ARRAY['a', NULL], MAP(ARRAY['k'], ARRAY[1]);
SELECT JSON '{"a": 1}', typeof(JSON '[1,2]');
SELECT typeof(1), typeof(2147483648), typeof(1.50), typeof(1e0), typeof('abc'), typeof(NULL);
SELECT typeof(DATE '2020-01-01'), typeof(TIMESTAMP '2020-01-01 00:00:00.123456'), typeof(X'FF');

-- arithmetic and precedence
SELECT 1 + 2 * 3, (1 + 2) * 3, 10 - 4 - 3, 2 * 3 % 4;
SELECT 7 / 2, -7 / 2, 7 % 3, -7 % 3, 7.0 / 2;
SELECT 7 / 2.0, 1 / 3.0, 10.5 % 3;
SELECT -(-5), - 3 * 2, +4;
SELECT 2147483647 + 1, typeof(2147483647 + 1);
SELECT 1.5 + 2.25, typeof(1.5 + 2.25), 1.5 * 2.25, typeof(1.5 * 2.25);
SELECT 1 + 1.5e0, typeof(1 + 1.5e0), typeof(SMALLINT '1' + TINYINT '1');
SELECT NOT true AND false, NOT (true AND false), true OR false AND false;
SELECT 1 < 2 = true, 3 BETWEEN 1 AND 5 = true;

-- WHERE
SELECT nationkey, name FROM tpch.tiny.nation WHERE regionkey = 2 ORDER BY nationkey;
SELECT name FROM tpch.tiny.nation WHERE nationkey > 20 AND name <> 'ROMANIA' ORDER BY name;
SELECT name FROM tpch.tiny.region WHERE NOT (regionkey IN (0, 1)) ORDER BY regionkey;
SELECT count(*) FROM tpch.tiny.orders WHERE orderdate >= DATE '1995-01-01' AND orderdate < DATE '1995-02-01';
SELECT count(*) FROM tpch.tiny.lineitem WHERE discount > 0.05 AND quantity < 10;
SELECT custkey, acctbal FROM tpch.tiny.customer WHERE acctbal < -990 ORDER BY custkey;
SELECT orderkey FROM tpch.tiny.orders WHERE orderkey < 40 AND orderstatus = 'F' ORDER BY 1;
SELECT count(*) FROM tpch.tiny.part WHERE size = 15 OR size = 45;
SELECT count(*) FROM tpch.tiny.nation WHERE false;
SELECT count(*) FROM tpch.tiny.nation WHERE NULL;

-- CASE
SELECT nationkey, CASE regionkey WHEN 0 THEN 'africa' WHEN 1 THEN 'america' ELSE 'other' END FROM tpch.tiny.nation WHERE nationkey < 6 ORDER BY nationkey;
SELECT CASE WHEN 1 > 2 THEN 'a' WHEN 2 > 1 THEN 'b' END, CASE WHEN false THEN 1 END;
SELECT CASE 1 WHEN 1.0 THEN 'x' ELSE 'y' END, typeof(CASE WHEN true THEN 1 ELSE 2.5 END);
SELECT CASE NULL WHEN NULL THEN 'eq' ELSE 'ne' END;
SELECT orderpriority, count(*) FROM tpch.tiny.orders GROUP BY orderpriority ORDER BY CASE orderpriority WHEN '1-URGENT' THEN 2 WHEN '2-HIGH' THEN 1 ELSE 0 END, orderpriority;
SELECT if(2 > 1, 'yes', 'no'), if(false, 1), coalesce(NULL, NULL, 3), nullif(4, 4), nullif(4, 5);
SELECT typeof(coalesce(1, 2.5)), typeof(if(true, 1, BIGINT '2'));

-- IN lists
SELECT name FROM tpch.tiny.nation WHERE name IN ('FRANCE', 'GERMANY', 'PERU', 'NOWHERE') ORDER BY name;
SELECT name FROM tpch.tiny.nation WHERE nationkey NOT IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20) ORDER BY name;
SELECT 1 IN (1, NULL), 2 IN (1, NULL), 2 NOT IN (1, NULL), NULL IN (1, 2);
SELECT 1 IN (1.0, 2.5), 'a' IN ('a', 'b');

-- BETWEEN
SELECT count(*) FROM tpch.tiny.customer WHERE acctbal BETWEEN 1000 AND 2000;
SELECT count(*) FROM tpch.tiny.orders WHERE orderdate NOT BETWEEN DATE '1993-01-01' AND DATE '1997-12-31';
SELECT 5 BETWEEN 10 AND 1, 5 BETWEEN 1 AND NULL, 0 BETWEEN 1 AND NULL;
SELECT 'm' BETWEEN 'a' AND 'z', 2.5 BETWEEN 2 AND 3;

-- LIKE
SELECT name FROM tpch.tiny.nation WHERE name LIKE 'A%' ORDER BY name;
SELECT name FROM tpch.tiny.nation WHERE name LIKE '_R%' ORDER BY name;
SELECT name FROM tpch.tiny.nation WHERE name NOT LIKE '%A%' ORDER BY name;
SELECT 'a_c' LIKE 'a\_c' ESCAPE '\', 'abc' LIKE 'a\_c' ESCAPE '\', '100%' LIKE '100#%' ESCAPE '#';
SELECT 'abc' LIKE 'ABC', 'abc' LIKE '%', '' LIKE '%', NULL LIKE 'a';
SELECT count(*) FROM tpch.tiny.part WHERE type LIKE '%BRASS' AND name LIKE '%green%';

-- NULL semantics
SELECT NULL = NULL, NULL <> 1, NULL IS NULL, 1 IS NOT NULL, NULL AND false, NULL OR true, NULL AND true;
SELECT NULL IS DISTINCT FROM NULL, 1 IS DISTINCT FROM NULL, 2 IS NOT DISTINCT FROM 2;
SELECT 1 + NULL, NULL * 2.5, 'a' || NULL, typeof(1 + NULL);
SELECT count(x), count(*) FROM (VALUES 1, NULL, 3) t(x);
SELECT x FROM (VALUES 1, NULL, 3) t(x) WHERE x <> 1 ORDER BY x;
SELECT x FROM (VALUES 1, NULL, 3) t(x) WHERE NOT (x = 1) OR x IS NULL ORDER BY x NULLS FIRST;

-- DISTINCT
SELECT DISTINCT regionkey FROM tpch.tiny.nation ORDER BY regionkey;
SELECT DISTINCT orderstatus, orderpriority FROM tpch.tiny.orders ORDER BY 1, 2;
SELECT count(*) FROM (SELECT DISTINCT custkey FROM tpch.tiny.orders);
SELECT DISTINCT x FROM (VALUES 1, NULL, 1, NULL, 2) t(x) ORDER BY x;
SELECT DISTINCT returnflag, linestatus FROM tpch.tiny.lineitem ORDER BY returnflag DESC, linestatus;

-- ORDER BY with NULLS FIRST/LAST
SELECT x FROM (VALUES 3, NULL, 1, 2) t(x) ORDER BY x;
SELECT x FROM (VALUES 3, NULL, 1, 2) t(x) ORDER BY x DESC;
SELECT x FROM (VALUES 3, NULL, 1, 2) t(x) ORDER BY x NULLS FIRST;
SELECT x FROM (VALUES 3, NULL, 1, 2) t(x) ORDER BY x DESC NULLS LAST;
SELECT x, y FROM (VALUES (1, 'b'), (1, 'a'), (0, 'z'), (NULL, 'm')) t(x, y) ORDER BY x DESC NULLS FIRST, y ASC;
SELECT name, regionkey FROM tpch.tiny.nation ORDER BY regionkey DESC, name ASC;
SELECT name FROM tpch.tiny.nation ORDER BY length(name), name;
SELECT nationkey AS k FROM tpch.tiny.nation ORDER BY -k LIMIT 3;

-- LIMIT / OFFSET / FETCH FIRST ... WITH TIES
SELECT nationkey FROM tpch.tiny.nation ORDER BY nationkey LIMIT 5;
SELECT nationkey FROM tpch.tiny.nation ORDER BY nationkey OFFSET 22;
SELECT nationkey FROM tpch.tiny.nation ORDER BY nationkey OFFSET 10 ROWS LIMIT 3;
SELECT nationkey FROM tpch.tiny.nation ORDER BY nationkey OFFSET 3 ROWS FETCH NEXT 2 ROWS ONLY;
SELECT nationkey FROM tpch.tiny.nation ORDER BY nationkey DESC FETCH FIRST 3 ROWS ONLY;
SELECT nationkey FROM tpch.tiny.nation ORDER BY nationkey FETCH FIRST ROW ONLY;
SELECT * FROM (SELECT regionkey, name FROM tpch.tiny.nation ORDER BY regionkey FETCH FIRST 3 ROWS WITH TIES) ORDER BY name;
SELECT x FROM (VALUES 1, 1, 2, 2, 2, 3) t(x) ORDER BY x FETCH FIRST 3 ROWS WITH TIES;
SELECT count(*) FROM (SELECT * FROM tpch.tiny.orders LIMIT 10);
SELECT nationkey FROM tpch.tiny.nation ORDER BY nationkey LIMIT 0;
SELECT nationkey FROM tpch.tiny.nation ORDER BY nationkey LIMIT ALL OFFSET 24;
SELECT x FROM (VALUES 5, 4, 3) t(x) ORDER BY x OFFSET 5;

-- column aliases and name resolution
SELECT nationkey AS id, name AS "Nation Name" FROM tpch.tiny.nation WHERE nationkey = 7;
SELECT n.name, r.name FROM tpch.tiny.nation n, tpch.tiny.region r WHERE n.regionkey = r.regionkey AND n.nationkey = 3;
SELECT nation.name FROM tpch.tiny.nation WHERE nation.nationkey = 1;
SELECT tiny.nation.name FROM tpch.tiny.nation WHERE nationkey = 2;
SELECT "NAME", "nationKEY" FROM tpch.tiny.nation WHERE nationkey = 4;
SELECT t.a, t.b FROM (VALUES (1, 'one')) AS t (a, b);
SELECT a + 1 AS a FROM (VALUES 1, 2) t(a) ORDER BY a;
SELECT a * -1 AS b FROM (VALUES 1, 2, 3) t(a) ORDER BY a;
SELECT nationkey x, regionkey x FROM tpch.tiny.nation WHERE nationkey = 9;
SELECT 1 AS "", 2;
SELECT *, nationkey + 100 FROM tpch.tiny.region r CROSS JOIN (VALUES 0) v(nationkey) WHERE r.regionkey = 1;
SELECT r.* FROM tpch.tiny.region r ORDER BY r.regionkey;
SELECT * FROM tpch.tiny.nation WHERE nationkey = 0;
SELECT name FROM tpch.tiny.nation ORDER BY nationkey DESC LIMIT 2;
SELECT count(*) AS c FROM tpch.tiny.lineitem;
SELECT sum(totalprice) > 0, min(orderdate), max(orderdate) FROM tpch.tiny.orders;
SELECT x.a FROM (SELECT 1 AS a) x;
SELECT lower(name) AS name FROM tpch.tiny.region ORDER BY name;
SELECT upper(name) n FROM tpch.tiny.region ORDER BY region.name DESC;
SELECT ROW(1, 'a').field0;

-- source: Trino 476 docs, sql/select.md "SELECT clause" (a row's fields: `row_expression.* [AS (alias, ...)]`); StatementAnalyzer.analyzeSelectAllColumns
SELECT (ROW(1, 'a')).*;
SELECT (CAST(ROW(1, 2) AS ROW(a integer, b integer))).*, 3;
SELECT (CAST(ROW(1, 2) AS ROW(a integer, b integer))).* AS (x, y);
SELECT (ROW(1, 2)).* AS ("x", y);
SELECT (ROW(1, 'a')).* AS (x);
SELECT (1).*;
SELECT t.r.* FROM (SELECT ROW(1, 2) r) t;
SELECT r.* AS (a, b, c) FROM tpch.tiny.region r;
SELECT (n).* FROM tpch.tiny.nation n WHERE nationkey = 1;
SELECT (ROW(nationkey, name)).* FROM tpch.tiny.nation WHERE nationkey < 3 ORDER BY 1;
SELECT (ROW(regionkey, count(*))).* FROM tpch.tiny.nation GROUP BY regionkey ORDER BY 1;
SELECT (ROW(name, count(*))).* FROM tpch.tiny.nation GROUP BY regionkey;
SELECT (r).* FROM (SELECT CAST(ROW(1, 2) AS ROW(a int, b int)) r) t;
-- source: trinodb/trino TestSqlParser.testStackOverflowStatement; deep nesting well inside what Trino 476's parser takes (its limit is its JVM stack's: a freshly started Trino refused 300 derived tables that a warmed one answered)
SELECT ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
SELECT count(*) FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM tpch.tiny.nation))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
SELECT CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(CAST(1 AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint) AS bigint);
-- nested scalar and EXISTS subqueries, each one level of SQLite's compilation (a cold Trino 476 answers 100 and 50; 80 EXISTS failed inside it)
SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT count(*) FROM tpch.tiny.nation))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT 1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
SELECT EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE EXISTS (SELECT 1 WHERE true))))))))))))))))))))))))))))))))))))))))))))))))));
SELECT n.name FROM tpch.tiny.nation n WHERE EXISTS (SELECT 1 FROM tpch.tiny.region r1 WHERE r1.regionkey = n.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r2 WHERE r2.regionkey = r1.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r3 WHERE r3.regionkey = r2.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r4 WHERE r4.regionkey = r3.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r5 WHERE r5.regionkey = r4.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r6 WHERE r6.regionkey = r5.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r7 WHERE r7.regionkey = r6.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r8 WHERE r8.regionkey = r7.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r9 WHERE r9.regionkey = r8.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r10 WHERE r10.regionkey = r9.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r11 WHERE r11.regionkey = r10.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r12 WHERE r12.regionkey = r11.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r13 WHERE r13.regionkey = r12.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r14 WHERE r14.regionkey = r13.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r15 WHERE r15.regionkey = r14.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r16 WHERE r16.regionkey = r15.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r17 WHERE r17.regionkey = r16.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r18 WHERE r18.regionkey = r17.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r19 WHERE r19.regionkey = r18.regionkey AND EXISTS (SELECT 1 FROM tpch.tiny.region r20 WHERE r20.regionkey = r19.regionkey AND true)))))))))))))))))))) ORDER BY 1 LIMIT 3;

-- source: Trino 476 docs, sql/match-recognize.md: its examples as written (extracted page by page)
SELECT * FROM orders MATCH_RECOGNIZE(
     PARTITION BY custkey
     ORDER BY orderdate
     MEASURES
              A.totalprice AS starting_price,
              LAST(B.totalprice) AS bottom_price,
              LAST(U.totalprice) AS top_price
     ONE ROW PER MATCH
     AFTER MATCH SKIP PAST LAST ROW
     PATTERN (A B+ C+ D+)
     SUBSET U = (C, D)
     DEFINE
              B AS totalprice < PREV(totalprice),
              C AS totalprice > PREV(totalprice) AND totalprice <= A.totalprice,
              D AS totalprice > PREV(totalprice)
     );

-- source: Trino 476 docs, sql/select.md: its examples as written (extracted page by page)
WITH
  FUNCTION hello(name varchar)
    RETURNS varchar
    RETURN format('Hello %s!', name),
  FUNCTION bye(name varchar)
    RETURNS varchar
    RETURN format('Bye %s!', name)
SELECT hello('Finn') || ' and ' || bye('Joe');

WITH RECURSIVE t(n) AS (
    VALUES (1)
    UNION ALL
    SELECT n + 1 FROM t WHERE n < 4
)
SELECT sum(n) FROM t;

SELECT (CAST(ROW(1, true) AS ROW(field1 bigint, field2 boolean))).* AS (alias1, alias2);
SELECT (CAST(ROW(1, true) AS ROW(field1 bigint, field2 boolean))).*;
SELECT (ROW(1, true)).*;
SELECT count(*), nationkey FROM customer GROUP BY 2;
SELECT count(*), nationkey FROM customer GROUP BY nationkey;
SELECT count(*) FROM customer GROUP BY mktsegment;
SELECT count(*), mktsegment, nationkey,
       CAST(sum(acctbal) AS bigint) AS totalbal
FROM customer
GROUP BY mktsegment, nationkey
HAVING sum(acctbal) > 5700000
ORDER BY totalbal DESC;
SELECT orderkey, clerk, totalprice,
      rank() OVER w AS rnk
FROM orders
WINDOW w AS (PARTITION BY clerk ORDER BY totalprice DESC)
ORDER BY count() OVER w, clerk, rnk;
SELECT 13
UNION
SELECT 42;
SELECT 13
UNION
SELECT * FROM (VALUES 42, 13);
SELECT 13
UNION ALL
SELECT * FROM (VALUES 42, 13);
SELECT * FROM (VALUES (1, 'alice')) AS t(id, name)
UNION ALL CORRESPONDING
SELECT * FROM (VALUES ('bob', 2)) AS t(name, id);
SELECT * FROM (VALUES (DATE '2025-04-23', 'alice')) AS t(order_date, name)
UNION ALL CORRESPONDING
SELECT * FROM (VALUES ('bob', 123.45)) AS t(name, price);
SELECT * FROM (VALUES 13, 42)
INTERSECT
SELECT 13;
SELECT * FROM (VALUES (1, 'alice')) AS t(id, name)
INTERSECT CORRESPONDING
SELECT * FROM (VALUES ('alice', 1)) AS t(name, id);
SELECT * FROM (VALUES 13, 42)
EXCEPT
SELECT 13;
SELECT * FROM (VALUES (1, 'alice'), (2, 'bob')) AS t(id, name)
EXCEPT CORRESPONDING
SELECT * FROM (VALUES ('alice', 1)) AS t(name, id);
SELECT name FROM nation ORDER BY name OFFSET 22;
SELECT * FROM (VALUES 5, 2, 4, 1, 3) t(x) ORDER BY x OFFSET 2 LIMIT 2;
SELECT name, regionkey
FROM nation
ORDER BY regionkey FETCH FIRST ROW WITH TIES;
SELECT * FROM UNNEST(
        map_from_entries(
            ARRAY[
                ('SQL',1974),
                ('Java', 1995)
            ]
        )
) AS t(language, first_appeared_year);
SELECT *
FROM UNNEST(
        ARRAY[
            ROW('Java',  1995),
            ROW('SQL' , 1974)],
        ARRAY[
            ROW(false),
            ROW(true)]
) as t(language,first_appeared_year,declarative);
SELECT a, b, rownumber
FROM UNNEST (
    ARRAY[2, 5],
    ARRAY[7, 8, 9]
     ) WITH ORDINALITY AS t(a, b, rownumber);
SELECT student, score
FROM (
   VALUES
      ('John', ARRAY[7, 10, 9]),
      ('Mary', ARRAY[4, 8, 9])
) AS tests (student, scores)
CROSS JOIN UNNEST(scores) AS t(score);
SELECT numbers, animals, n, a
FROM (
  VALUES
    (ARRAY[2, 5], ARRAY['dog', 'cat', 'bird']),
    (ARRAY[7, 8, 9], ARRAY['cow', 'pig'])
) AS x (numbers, animals)
CROSS JOIN UNNEST(numbers, animals) AS t (n, a);
SELECT runner, checkpoint
FROM (
   VALUES
      ('Joe', ARRAY[10, 20, 30, 42]),
      ('Roger', ARRAY[10]),
      ('Dave', ARRAY[]),
      ('Levi', NULL)
) AS marathon (runner, checkpoints)
LEFT JOIN UNNEST(checkpoints) AS t(checkpoint) ON TRUE;
SELECT *
FROM nation
CROSS JOIN region;
SELECT *
FROM nation, region;
SELECT n.name AS nation, r.name AS region
FROM nation AS n
CROSS JOIN region AS r
ORDER BY 1, 2;
SELECT name, x, y
FROM nation
CROSS JOIN LATERAL (SELECT name || ' :-' AS x)
CROSS JOIN LATERAL (SELECT x || ')' AS y);
SELECT nation.name, region.name
FROM nation
CROSS JOIN region;
SELECT n.name, r.name
FROM nation AS n
CROSS JOIN region AS r;
SELECT n.name, r.name
FROM nation n
CROSS JOIN region r;
SELECT name
FROM nation
CROSS JOIN region;
SELECT name
FROM nation
WHERE EXISTS (
     SELECT *
     FROM region
     WHERE region.regionkey = nation.regionkey
);
SELECT name
FROM nation
WHERE regionkey IN (
     SELECT regionkey
     FROM region
     WHERE name = 'AMERICA' OR name = 'AFRICA'
);
SELECT name
FROM nation
WHERE regionkey = (SELECT max(regionkey) FROM region);

-- source: Trino 476 docs, sql/select.md "UNION | INTERSECT | EXCEPT clause" (CORRESPONDING); Trino 476's refusals of it
SELECT 1 a UNION CORRESPONDING SELECT 2 b;
SELECT 1 a, 2 a UNION CORRESPONDING SELECT 2 a;
SELECT 1 a UNION CORRESPONDING BY (a) SELECT 2 a;
SELECT 1 a UNION ALL CORRESPONDING SELECT 2 A;
SELECT 1 a, 2 b UNION ALL CORRESPONDING SELECT 3 b, 4 a UNION ALL SELECT 5, 6;
SELECT 1 a, 2 b INTERSECT ALL CORRESPONDING SELECT 2 b, 1 a;
SELECT * FROM (VALUES (1, 'alice', 5)) AS t(id, name, x) UNION CORRESPONDING SELECT * FROM (VALUES ('bob', 2)) AS t(name, id);
SELECT corresponding FROM (VALUES 1) t(corresponding);
