-- family: project_semantics_joins
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/joins.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT k FROM (VALUES 1, 2) a(k) RIGHT JOIN (VALUES 2, 3) b(k) USING (k) ORDER BY k;

SELECT region.regionkey FROM tpch.tiny.nation JOIN tpch.tiny.region USING (regionkey);

SELECT a.k FROM (VALUES 1) a(k) JOIN (VALUES 1) b(k) USING (k);

SELECT * FROM (VALUES (1, ARRAY[1])) t(id, arr) FULL JOIN LATERAL (SELECT id AS z) u ON true;

SELECT a.x FROM UNNEST(ARRAY[1, 2, 3]) a(x) JOIN UNNEST(ARRAY[2, 3, 4]) b(y) ON a.x = b.y;

SELECT id FROM (VALUES (1, ARRAY[1])) t(id, arr) LEFT JOIN UNNEST(arr) u(x) ON x > 0;

SELECT a.x, t.y FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y);

SELECT * FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y);

SELECT a.x FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y) WHERE t.y > 0;

SELECT a.x, t.y FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES (a.x, 1), (a.x, 2)) t(y, z);

SELECT a.x, t.y FROM (VALUES 1, 2) a(x) LEFT JOIN LATERAL (SELECT a.x AS y WHERE a.x > 1) t ON true;

SELECT t.y, nosuch FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y);

SELECT * FROM (VALUES (1, ARRAY[1])) t(id, arr) RIGHT JOIN UNNEST(ARRAY[1, 2]) u(x) ON true;

SELECT a.x, t.y FROM (VALUES 1, 2) a(x) LEFT JOIN LATERAL (SELECT 5 AS y WHERE a.x > 1) t ON true ORDER BY 1;

SELECT a.x, t.y FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x) t(y) ORDER BY 1;

SELECT a.x FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y) ORDER BY 1;

SELECT count(*) FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y);

SELECT a.x, t.z FROM (VALUES 1, 2) a(x) CROSS JOIN LATERAL (VALUES (a.x, 1), (a.x, 2)) t(y, z) ORDER BY 1, 2;

SELECT a.x FROM (VALUES 1, 2) a(x) LEFT JOIN LATERAL (SELECT a.x AS y WHERE a.x > 1) t ON true ORDER BY 1;

SELECT a FROM (VALUES ARRAY[3, 1], ARRAY[20], ARRAY[3], ARRAY[-5, 2]) t(a) ORDER BY a;

SELECT a FROM (VALUES ARRAY['b'], ARRAY['ab'], ARRAY['a', 'z']) t(a) ORDER BY 1 DESC;
