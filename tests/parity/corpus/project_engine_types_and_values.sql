-- family: project_engine_types_and_values
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/engine/types_and_values.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT avg(nationkey) FROM nation;

SELECT 7 / 2;

SELECT 7 % 3;

SELECT nationkey * 1000000000000 FROM nation WHERE nationkey = 3;

SELECT extract(YEAR FROM orderdate) FROM orders WHERE orderkey = 1;

SELECT 0.06 - 0.01;

SELECT orderdate FROM orders WHERE orderkey = 1;

SELECT DATE '1998-12-01' - INTERVAL '90' DAY;

SELECT DATE '2020-01-31' + INTERVAL '1' MONTH;

SELECT CAST(17 AS double);

SELECT quantity FROM lineitem WHERE orderkey = 1 AND linenumber = 1;

SELECT 1e0 / 0e0;

SELECT CAST('42' AS bigint);

SELECT TRY_CAST('abc' AS bigint);

SELECT name || '!' FROM region WHERE regionkey = 0;

SELECT concat('a', 'bc');

SELECT substring('Trino', 2, 3);

SELECT strpos('Trino', 'in');

SELECT length(name) FROM region WHERE regionkey = 1;

SELECT upper(lower('AbC'));

SELECT trim('  x ');

SELECT coalesce(NULL, 2);

SELECT CASE WHEN 1 = 1 THEN 'yes' ELSE 'no' END;

SELECT date_trunc('month', DATE '1995-03-15');

SELECT date_add('day', 20, DATE '1995-03-15');

SELECT date_diff('day', DATE '1995-03-01', DATE '1995-03-15');

SELECT 'Abc' LIKE 'a%';

SELECT 3 BETWEEN 1 AND 5;

SELECT TIMESTAMP '2020-01-02 03:04:05.678';

SELECT 1000000 * 1000000;

SELECT 1 -- a comment
 + /* another */ 1;

SELECT 0E0 / 0E0, -1E0 / 0E0, CAST('NaN' AS double), - -1, -(-2);

SELECT CAST('abc' AS bigint);

WITH r AS (SELECT regionkey, name FROM region) SELECT name FROM r WHERE regionkey = 2;

SELECT x FROM (SELECT regionkey FROM region WHERE regionkey < 2) AS t (x) ORDER BY x DESC;

SELECT regionkey FROM region WHERE regionkey < 2 UNION SELECT regionkey FROM region WHERE regionkey < 3 ORDER BY 1;

SELECT regionkey FROM region INTERSECT SELECT 3;

SELECT regionkey FROM region EXCEPT SELECT regionkey FROM region WHERE regionkey > 0;

SELECT regionkey FROM region ORDER BY regionkey OFFSET 3 ROWS;

SELECT regionkey FROM region ORDER BY regionkey FETCH FIRST 2 ROWS ONLY;

SELECT x FROM (VALUES (2), (NULL), (1)) AS t (x) ORDER BY x NULLS FIRST;

SELECT x FROM (VALUES (2), (NULL), (1)) AS t (x) ORDER BY x DESC;

SELECT name, rank() OVER (ORDER BY regionkey DESC) FROM region ORDER BY 2 LIMIT 2;

SELECT regionkey, count(*) FROM nation GROUP BY regionkey HAVING count(*) > 4 ORDER BY regionkey;

SELECT r.name FROM region r WHERE EXISTS (SELECT 1 FROM nation n WHERE n.regionkey = r.regionkey AND n.name = 'JAPAN');

SELECT name FROM region WHERE regionkey IN (SELECT regionkey FROM nation WHERE name = 'PERU');

SELECT n.name, r.name FROM nation n JOIN region r ON n.regionkey = r.regionkey WHERE n.nationkey = 0;

SELECT count(*) FROM nation n LEFT JOIN region r ON n.regionkey = r.regionkey AND r.regionkey = 9;

SELECT count(*) FILTER (WHERE regionkey = 1) FROM nation;

SELECT count(*) FROM tpch.tiny.nation, tiny.region;

SELECT regionkey AS Region FROM region ORDER BY region DESC LIMIT 1;

SELECT DISTINCT regionkey FROM nation ORDER BY regionkey DESC LIMIT 2;

SELECT DISTINCT n.regionkey FROM nation n ORDER BY n.regionkey LIMIT 1;

SELECT * FROM nation JOIN region USING (regionkey) WHERE nationkey = 0;

SELECT regionkey, n.nationkey FROM nation n JOIN region USING (regionkey) WHERE nationkey = 1;

SELECT (SELECT name FROM region WHERE regionkey = 1);

SELECT (SELECT name FROM region WHERE regionkey = 99);
