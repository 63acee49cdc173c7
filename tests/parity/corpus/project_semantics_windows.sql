-- family: project_semantics_windows
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/windows.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT x, row_number() OVER (w ORDER BY x DESC) FROM (VALUES (1, 1), (2, 1), (3, 2)) t(x, p) WINDOW w AS (PARTITION BY p) ORDER BY x;

SELECT x FROM (VALUES 1) t(x) WINDOW w AS (ORDER BY x), w AS (ORDER BY x);

SELECT sum(x) OVER (w PARTITION BY x) FROM (VALUES 1) t(x) WINDOW w AS (ORDER BY x);

SELECT sum(x) OVER (w ORDER BY x) FROM (VALUES 1) t(x) WINDOW w AS (ORDER BY x);

SELECT sum(x) OVER (w) FROM (VALUES 1) t(x) WINDOW w AS (ORDER BY x ROWS 1 PRECEDING);

(VALUES (1, 10), (2, NULL), (3, NULL), (4, 40), (5, NULL)) t(k, x);

SELECT x, count(DISTINCT x) OVER (), count(DISTINCT x) OVER (ORDER BY x) FROM (VALUES 1, 1, 2, NULL) t(x) ORDER BY x;

SELECT rank() IGNORE NULLS OVER (ORDER BY x) FROM (VALUES 1) t(x);

SELECT d, count(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '1' MONTH PRECEDING AND CURRENT ROW) FROM (VALUES DATE '2024-01-15', DATE '2024-02-14', DATE '2024-02-15', DATE '2024-03-16') t(d) ORDER BY d;

SELECT count(*) OVER (ORDER BY x RANGE 1 PRECEDING) FROM (VALUES 'a') t(x);

SELECT x FROM (VALUES 1) t(x) GROUP BY 1 HAVING rank() OVER (ORDER BY x) = 1;

SELECT k, avg(x) OVER (PARTITION BY g ORDER BY k ROWS BETWEEN CURRENT ROW AND k FOLLOWING), count(*) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND 1 FOLLOWING), first_value(x) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1, 'a'), (1, 2, 'a'), (2, 3, 'b'), (3, 4, 'b'), (4, 5, 'a')) t(k, x, g) ORDER BY k;

SELECT k, max(e) OVER (ORDER BY k ROWS BETWEEN k FOLLOWING AND k + 1 FOLLOWING), count(*) OVER (ORDER BY k ROWS BETWEEN k + 2 PRECEDING AND k + 1 PRECEDING) FROM (VALUES (0, 0e0), (1, 1e0), (2, 2e0), (3, 3e0)) t(k, e) ORDER BY k;

SELECT k, sum(d) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW), sum(e) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1.5, nan()), (1, 2.25, 1e0)) t(k, d, e) ORDER BY k;

SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN x PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1), (1, -2), (2, 3)) t(k, x);

SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN IF(k > 0, k) PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1), (1, 2)) t(k, x);

SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN k * 1.5 PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1), (1, 2)) t(k, x);
