-- family: project_semantics_subqueries
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/subqueries.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT 1 UNION ALL (VALUES 2) ORDER BY 1;

SELECT x FROM (VALUES 1.5, 2.0) t(x) WHERE x IN (SELECT 2 FROM (VALUES 1) u(y)) ORDER BY 1;

SELECT (a, b) IN (SELECT x, y FROM (VALUES (1, 2), (3, 4)) u(x, y)) FROM (VALUES (1, 2), (1, 4)) t(a, b) ORDER BY b;
