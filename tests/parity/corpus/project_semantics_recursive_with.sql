-- family: project_semantics_recursive_with
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/recursive_with.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 4) SELECT sum(n) FROM t;

WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 11) SELECT max(n) FROM t;

WITH RECURSIVE r(k) AS (SELECT min(regionkey) FROM tpch.tiny.region UNION ALL SELECT k + 1 FROM r WHERE k < 4), plain(one) AS (SELECT 1) SELECT count(*) + max(one) FROM r, plain;

WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 20) SELECT max(n) FROM t;

WITH RECURSIVE t AS (VALUES (1) UNION ALL SELECT 1 FROM t) SELECT * FROM t;

WITH t AS (SELECT 1 AS x), T AS (SELECT 2 AS x) SELECT * FROM t;

WITH RECURSIVE a(x) AS (SELECT 1), b AS (SELECT 2 AS y) SELECT * FROM a, b;

WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT 1 FROM t) SELECT n FROM t;
