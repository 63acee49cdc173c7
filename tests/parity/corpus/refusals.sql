-- family: refusals
-- source: trinodb/trino core/trino-spi/src/main/java/io/trino/spi/StandardErrorCode.java (errorName and errorType)
-- source: trinodb/trino testing/trino-testing/src/main/java/io/trino/testing/AbstractTestQueries.java and core/trino-main/src/test/java/io/trino/sql/analyzer/TestAnalyzer.java (the semantic errors)
-- source: trinodb/trino plugin/trino-tpch (read-only connector: DDL and DML refused)

-- syntax errors
SELEC 1;
SELECT 1 FROM;
SELECT * FORM tpch.tiny.nation;
SELECT (1;
SELECT 1 +;
SELECT 'unterminated;
SELECT "unterminated;
SELECT 1 1;
SELECT * FROM tpch.tiny.nation WHERE;
SELECT * FROM tpch.tiny.nation ORDER nationkey;
SELECT * FROM tpch.tiny.nation GROUP regionkey;
SELECT * FROM tpch.tiny.nation LIMIT -1;
SELECT * FROM tpch.tiny.nation LIMIT 'a';
SELECT CASE WHEN true THEN 1;
SELECT CAST(1 AS);
SELECT ARRAY[1, 2;
SELECT x FROM (VALUES 1) t(x) WHERE x IN ();
SELECT 1 UNION;
WITH SELECT 1;
SELECT 1 AS select;
SELECT * FROM tpch.tiny.nation n JOIN;
SELECT ** FROM tpch.tiny.nation;
SELECT 1e;
SELECT X'ABC';
SELECT DATE 'x' + ;

-- unknown catalog, schema, table, column, function
SELECT * FROM nope.tiny.nation;
SELECT * FROM tpch.nope.nation;
SELECT * FROM tpch.tiny.nope;
SELECT * FROM nope;
SELECT * FROM a.b.c.d;
SELECT nope FROM tpch.tiny.nation;
SELECT n.nope FROM tpch.tiny.nation n;
SELECT nope.name FROM tpch.tiny.nation n;
SELECT nation.name FROM tpch.tiny.nation n;
SELECT name FROM tpch.tiny.nation ORDER BY nope;
SELECT count(*) FROM tpch.tiny.nation GROUP BY nope;
SELECT nope(1);
SELECT abs();
SELECT abs(1, 2);
SELECT substr('abc');
SELECT concat();
SELECT round('a');
SELECT length(1);
SELECT nope.abs(1);
SELECT count(*, 1) FROM tpch.tiny.nation;
SELECT date_add('day', 1);

-- ambiguous names
SELECT regionkey FROM tpch.tiny.nation, tpch.tiny.region;
SELECT name FROM tpch.tiny.nation a, tpch.tiny.nation b;
SELECT x FROM (VALUES (1, 2)) t(x, x);
SELECT a FROM (SELECT 1 AS a, 2 AS a);

-- type mismatches
SELECT 1 + 'a';
SELECT 'a' * 2;
SELECT name + 1 FROM tpch.tiny.nation;
SELECT * FROM tpch.tiny.nation WHERE name;
SELECT * FROM tpch.tiny.nation WHERE nationkey;
SELECT * FROM tpch.tiny.nation WHERE name = nationkey;
SELECT CASE WHEN 1 THEN 2 END;
SELECT CASE 1 WHEN 'a' THEN 2 END;
SELECT CASE WHEN true THEN 1 ELSE 'a' END;
SELECT coalesce(2, 'b', 3);
SELECT if(1, 2, 3);
SELECT NOT 1;
SELECT 2 AND false;
SELECT -'a';
SELECT 'a' BETWEEN 1 AND 2;
SELECT 1 LIKE 'a';
SELECT ARRAY[1, 'a'];
SELECT MAP(ARRAY[1], ARRAY['a', 'b']);
SELECT nationkey IN ('a', 'b') FROM tpch.tiny.nation;
SELECT DATE '2020-01-01' - 'x';
SELECT sum(DATE '2020-01-01');
SELECT avg('a');
SELECT abs(true);
SELECT ARRAY[1][0];
SELECT ARRAY[5, 6, 7][4];
SELECT element_at(ARRAY[1], 0);

-- non-aggregated columns, nested aggregates, window misuse
SELECT nationkey, count(*) FROM tpch.tiny.nation;
SELECT name FROM tpch.tiny.nation GROUP BY regionkey;
SELECT regionkey, nationkey FROM tpch.tiny.nation GROUP BY regionkey HAVING count(*) > 1;
SELECT max(count(*)) FROM tpch.tiny.nation;
SELECT sum(avg(nationkey)) FROM tpch.tiny.nation GROUP BY regionkey;
SELECT * FROM tpch.tiny.nation WHERE row_number() OVER () = 1;
SELECT * FROM tpch.tiny.nation WHERE sum(nationkey) > 10;
SELECT count(*) FROM tpch.tiny.nation GROUP BY count(*);
SELECT sum(row_number() OVER ()) FROM tpch.tiny.nation;
SELECT row_number() FROM tpch.tiny.region;
SELECT rank() OVER () FROM tpch.tiny.nation GROUP BY rank() OVER ();
SELECT lag(nationkey) OVER (PARTITION BY regionkey ORDER BY nationkey ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM tpch.tiny.nation;
SELECT sum(nationkey) OVER (ORDER BY name RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM tpch.tiny.nation;
SELECT nationkey FROM tpch.tiny.nation HAVING nationkey > 1;
SELECT count(DISTINCT *) FROM tpch.tiny.nation;
SELECT abs(nationkey) OVER () FROM tpch.tiny.nation;

-- ORDER BY and GROUP BY positions
SELECT name FROM tpch.tiny.nation ORDER BY 2;
SELECT name FROM tpch.tiny.nation ORDER BY 0;
SELECT name FROM tpch.tiny.nation GROUP BY 0;
SELECT name, count(*) FROM tpch.tiny.nation GROUP BY 2;
SELECT DISTINCT name FROM tpch.tiny.nation ORDER BY nationkey;
SELECT name FROM tpch.tiny.nation ORDER BY -1;

-- runtime errors
SELECT 7 / 0;
SELECT 9 % 0;
SELECT nationkey / 0 FROM tpch.tiny.nation;
SELECT 2.75 / 0;
SELECT DECIMAL '1.0' % 0;
SELECT sum(1 / (nationkey - 3)) FROM tpch.tiny.nation;
SELECT 9223372036854775807 + 1;
SELECT BIGINT '-9223372036854775808' - 1;
SELECT 2147483647 * 2;
SELECT abs(x) FROM (VALUES BIGINT '-9223372036854775808') t(x);
SELECT -x FROM (VALUES BIGINT '-9223372036854775808') t(x);
SELECT CAST('x' AS bigint);
SELECT CAST('2020-02-30' AS date);
SELECT fail('custom message');
SELECT sqrt(-1) > 0, ln(0);
SELECT power(10, 400) > 0, CAST(power(10, 400) AS bigint);
SELECT chr(-5);
SELECT repeat('a', -1);
SELECT substr('hello', 0, 2);
SELECT split_part('a,b', ',', 0);
SELECT from_base('zz', 10);
SELECT date_add('decade', 2, DATE '2021-05-05');
SELECT json_parse('{bad');
SELECT regexp_like('a', '(');
SELECT sequence(5, 1, 0);
SELECT MAP(ARRAY[1, 1], ARRAY[2, 3]);
SELECT MAP(ARRAY[NULL], ARRAY[1]);

-- DDL and DML on the read-only tpch catalog
CREATE TABLE tpch.tiny.t (x integer);
CREATE TABLE tpch.tiny.t2 AS SELECT 1 AS x;
CREATE SCHEMA tpch.s;
CREATE VIEW tpch.tiny.v AS SELECT 1 AS x;
DROP TABLE tpch.tiny.nation;
DROP SCHEMA tpch.tiny;
DROP VIEW tpch.tiny.nation;
ALTER TABLE tpch.tiny.nation ADD COLUMN x integer;
ALTER TABLE tpch.tiny.nation RENAME TO nation2;
ALTER TABLE tpch.tiny.nation DROP COLUMN comment;
INSERT INTO tpch.tiny.nation VALUES (99, 'X', 0, 'c');
INSERT INTO tpch.tiny.region SELECT * FROM tpch.tiny.region;
DELETE FROM tpch.tiny.nation;
DELETE FROM tpch.tiny.nation WHERE nationkey = 0;
UPDATE tpch.tiny.nation SET name = 'X';
MERGE INTO tpch.tiny.nation t USING (VALUES 1) s(k) ON t.nationkey = s.k WHEN MATCHED THEN DELETE;
TRUNCATE TABLE tpch.tiny.nation;
COMMENT ON TABLE tpch.tiny.nation IS 'x';
COMMENT ON COLUMN tpch.tiny.nation.name IS 'x';
GRANT SELECT ON tpch.tiny.nation TO USER bob;
REVOKE SELECT ON tpch.tiny.nation FROM USER bob;
CREATE ROLE r;
CREATE TABLE nope.s.t (x integer);
DROP TABLE tpch.tiny.nope;
INSERT INTO tpch.tiny.nation VALUES (1);
CREATE MATERIALIZED VIEW tpch.tiny.mv AS SELECT 1 AS x;
ALTER TABLE tpch.tiny.nation SET PROPERTIES x = 1;
