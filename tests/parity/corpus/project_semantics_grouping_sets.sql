-- family: project_semantics_grouping_sets
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/grouping_sets.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

(VALUES (1, 'x'), (1, 'y'), (2, 'x')) t(a, b);

SELECT a, b, grouping(a, b), grouping(b) FROM {T} GROUP BY ROLLUP (a, b) ORDER BY 3, a, b;

SELECT x, count(*) FROM (VALUES 1) t(x) WHERE false GROUP BY GROUPING SETS ((x), ());

SELECT a AS k, count(*) AS n FROM {T} GROUP BY ROLLUP (a) ORDER BY k DESC;

SELECT count(*) FROM (VALUES (1, 'x'), (1, 'y'), (2, 'x')) t(a, b) GROUP BY DISTINCT GROUPING SETS ((), ());

SELECT count(*) FROM (VALUES (1, 'x'), (1, 'y'), (2, 'x')) t(a, b) GROUP BY ALL GROUPING SETS ((), ());

SELECT a, grouping(a) FROM (VALUES (1, 'x'), (1, 'y'), (2, 'x')) t(a, b) GROUP BY a ORDER BY a;

SELECT grouping(a) FROM (VALUES 1) t(a);

SELECT grouping(b) FROM (VALUES (1, 'x'), (1, 'y'), (2, 'x')) t(a, b) GROUP BY ROLLUP (a);

SELECT count(*) FROM (VALUES (1, 'x'), (1, 'y'), (2, 'x')) t(a, b) WHERE grouping(a) = 0 GROUP BY ROLLUP (a);

SELECT a, count(*) FROM {T} GROUP BY GROUPING SETS ((a), ()) ORDER BY grouping(a);

SELECT count(*) FROM (VALUES (1, 'x'), (1, 'y'), (2, 'x')) t(a, b) GROUP BY ROLLUP (a * 10);

SELECT b, count(*) FROM (VALUES (1, 'x'), (1, 'y'), (2, 'x')) t(a, b) GROUP BY ROLLUP (a);
