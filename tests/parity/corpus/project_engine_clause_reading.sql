-- family: project_engine_clause_reading
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/engine/clause_reading.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT typeof(avg(1)) FROM tpch.tiny.region;

SELECT upper(max(name)) FROM tpch.tiny.nation;

SELECT coalesce(max(nationkey), 0) + 1 FROM tpch.tiny.nation;

SELECT * FROM (SELECT name FROM nation ORDER BY name LIMIT 5) ORDER BY name DESC;

SELECT name FROM nation WHERE nationkey IN (SELECT nationkey FROM nation ORDER BY nationkey OFFSET 20 ROWS) OFFSET 2 LIMIT 10;

SELECT sum(nationkey) OVER (ORDER BY nationkey ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM nation ORDER BY 1 FETCH FIRST 3 ROWS ONLY;

SELECT "limit".name FROM nation AS "limit" LIMIT ALL;

SELECT 1 AS "offset" UNION ALL SELECT 2 ORDER BY 1 OFFSET 1 ROW;

SELECT name FROM nation ORDER BY name FETCH NEXT ROW ONLY;

SELECT name FROM nation LIMIT 5 OFFSET 2;

SELECT * FROM (SELECT name FROM nation LIMIT 5 OFFSET 1);

SELECT name FROM nation LIMIT 2 ORDER BY name;

SELECT FROM;

SELECT
  FROM nation;

SELECT a, FROM nation;
