-- family: project_engine_refusals
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/engine/refusals.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT * FROM nation WHERE name = "ALGERIA";

SELECT * FROM nation MATCH_RECOGNIZE (ORDER BY nationkey PATTERN (A) DEFINE A AS true);

SELECT ifnull(NULL, 1);

SELECT group_concat(name) FROM nation;

SELECT strftime('%Y', orderdate) FROM orders;

SELECT name FROM nation WHERE name = 1;

SELECT name FROM nation WHERE nationkey = '1';

SELECT orderkey FROM orders WHERE orderdate < '1995-01-01';

SELECT foo FROM nation;

SELECT name
FROM nation
WHERE bar = 1;

SELECT * FROM foo;

SELECT name FROM nation n JOIN region r ON n.regionkey = r.regionkey;

SELECT regionkey, name FROM nation GROUP BY regionkey;

SELECT name FROM nation WHERE count(*) > 1;

SELECT name FROM nation WHERE regionkey;

SELECT `name` FROM nation;

SELECT name FROM nation LIMIT 1, 2;

SELECT name FORM nation;

SELECT name FROM nation;

SELECT name::varchar FROM nation;

SELECT DISTINCT regionkey FROM nation ORDER BY name;

SELECT * FROM nation WHERE;

SELECT (SELECT name FROM region);

SELECT name || (SELECT max(name) FROM region) FROM nation GROUP BY regionkey;

SELECT concat(name, 1) FROM nation;

INSERT INTO nation VALUES (99, 'X', 0, 'x');

UPDATE nation SET name = 'X';

DELETE FROM nation;

CREATE TABLE t (x bigint);

DROP TABLE nation;

ALTER TABLE nation ADD COLUMN y bigint;

SELECT count(*), max(name) FROM nation;

DELETE FROM tpch_tiny.nation;

SELECT count(*) FROM nation;

CREATE TABLE tpch.tiny.nation (x integer);

CREATE TABLE tpch.tiny.t (x nope);

CREATE TABLE tpch.tiny.t (x integer) WITH (foo = 1);

CREATE TABLE tpch.tiny.t AS SELECT 1;

INSERT INTO tpch.tiny.region SELECT * FROM nope;

INSERT INTO tpch.tiny.nation (nope) VALUES (1);

INSERT INTO tpch.tiny.region VALUES (1.5, 'x', 'y');

ALTER TABLE tpch.tiny.nation DROP COLUMN nope;

UPDATE tpch.tiny.nation SET nope = 'x';

CALL system.runtime.kill_query();

CALL system.runtime.kill_query(1, 'x');

DROP TABLE IF EXISTS tpch.tiny.nope;

DROP SCHEMA IF EXISTS nope.x;

CREATE TABLE IF NOT EXISTS tpch.tiny.nation (x integer);

ALTER TABLE tpch.tiny.nation DROP COLUMN IF EXISTS nope;
