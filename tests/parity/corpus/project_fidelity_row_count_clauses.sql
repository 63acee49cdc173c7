-- family: project_fidelity_row_count_clauses
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/fidelity/row_count_clauses.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT name FROM tpch.tiny.nation ORDER BY nationkey;

SELECT name FROM tpch.tiny.nation ORDER BY nationkey LIMIT ALL;

SELECT count(*) FROM (SELECT name AS offset FROM tpch.tiny.nation OFFSET 20);

SELECT name FROM tpch.tiny.nation ORDER BY nationkey LIMIT 5 OFFSET 2;

SELECT name FROM tpch.tiny.nation ORDER BY nationkey limit all offset 2;

SELECT * FROM (SELECT name FROM tpch.tiny.nation LIMIT 5 OFFSET 2);

SELECT name FROM tpch.tiny.nation ORDER BY nationkey LIMIT 3 FETCH FIRST 1 ROWS ONLY;

SELECT name FROM tpch.tiny.nation ORDER BY nationkey FETCH 3 ROWS ONLY;

SELECT name FROM tpch.tiny.nation ORDER BY nationkey FETCH FIRST 3 ONLY;

SELECT name FROM tpch.tiny.nation ORDER BY nationkey OFFSET 2 + 1;

SELECT name FROM tpch.tiny.nation ORDER BY nationkey LIMIT 2.5;

SELECT name FROM tpch.tiny.nation ORDER BY nationkey LIMIT -1;

SELECT name FROM tpch.tiny.nation ORDER BY nationkey OFFSET (2);

SELECT name FROM tpch.tiny.nation LIMIT 5 ORDER BY name;

SELECT name FROM tpch.tiny.nation OFFSET 5 ORDER BY name;

SELECT 1 UNION (WITH a AS (SELECT 2 x) SELECT x FROM a);

SELECT x FROM (WITH a AS (SELECT 2 x) SELECT x FROM a);

SELECT name FROM tpch.tiny.nation ORDER BY nationkey FETCH FIRST 3 ROWS;
