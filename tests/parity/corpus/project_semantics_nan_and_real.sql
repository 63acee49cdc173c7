-- family: project_semantics_nan_and_real
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/nan_and_real.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT nan() >= nan();

SELECT 1 <= nan();

SELECT x > 0 FROM (VALUES nan()) t(x);

SELECT nan() NOT IN (nan());

SELECT nan() IN (1e0, NULL);

SELECT 1e0 IN (nan(), 1e0);

SELECT greatest(nan(), nan());

SELECT greatest(1e0, NULL, nan());

SELECT nan() + 1;

SELECT x - x - 1e0 FROM (VALUES infinity()) t(x);

SELECT (x - x) * 2 FROM (VALUES infinity()) t(x);

SELECT count(*) FROM (SELECT k FROM (VALUES (1, 2e0), (1, 3e0), (2, 1e0)) t(k, x) GROUP BY k HAVING sum(x) > 4);

SELECT 0 * infinity();

SELECT 2e0 * 3;

SELECT max(x) FROM (VALUES nan(), 1e0, 2e0) t(x);

SELECT min(x) FROM (VALUES nan(), 1e0, 2e0) t(x);

SELECT max(x) FROM (VALUES nan(), nan()) t(x);

SELECT CAST(CAST(1.1E0 AS real) AS double);

SELECT CAST(16777217 AS real);

SELECT CAST('+NaN' AS double);

SELECT CAST('1.5d' AS double);

SELECT try_cast('inf' AS double);

SELECT avg(x) FROM (VALUES 1e0, nan()) t(x);

SELECT sum(x) FROM (VALUES infinity(), -infinity()) t(x);

SELECT avg(x) FROM (VALUES infinity(), 1e0, NULL) t(x);

SELECT sum(x) FROM (VALUES CAST(NULL AS double)) t(x);

SELECT sum(DISTINCT x) FROM (VALUES nan(), 1e0, 1e0) t(x);

SELECT sum(x) FROM (VALUES REAL 'NaN', REAL '1') t(x);

SELECT sum(x) > 1 FROM (VALUES nan(), 1e0) t(x);

SELECT array_agg(s ORDER BY k) FROM (SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM (VALUES (1, 1e0), (2, nan()), (3, 2e0), (4, 3e0)) t(k, x));

SELECT array_agg(a ORDER BY k) FROM (SELECT k, avg(x) OVER (ORDER BY k) AS a FROM (VALUES (1, 1e0), (2, nan()), (3, 2e0)) t(k, x));

SELECT sum(totalprice * 1e300 * 1e300) FROM orders;
