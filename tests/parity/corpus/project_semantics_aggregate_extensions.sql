-- family: project_semantics_aggregate_extensions
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/aggregate_extensions.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT covar_samp(x, y) FROM (VALUES (1e0, 10e0), (2e0, 20e0), (3e0, 31e0)) t(x, y);

SELECT corr(x, y) FROM (VALUES (1e0, 10e0), (2e0, 20e0), (3e0, 31e0)) t(x, y);

SELECT regr_slope(y, x) FROM (VALUES (1, 3), (2, 5), (3, 7)) t(x, y);

SELECT regr_intercept(y, x) FROM (VALUES (1, 3), (2, 5), (3, 7)) t(x, y);

SELECT covar_pop(y, x) FROM (VALUES (1, 2)) t(x, y);

SELECT covar_samp(y, x) FROM (VALUES (1, 2)) t(x, y);

SELECT regr_slope(y, x) FROM (VALUES (2, 1), (2, 3)) t(x, y);

SELECT skewness(x) FROM (VALUES 1, 2, 3, 4, 10) t(x);

SELECT kurtosis(x) FROM (VALUES 1, 2, 3, 4, 10) t(x);

SELECT max(x) FROM (VALUES ARRAY[1, 2], ARRAY[1, 3], ARRAY[0, 9]) t(x);

SELECT min(ROW(a, b)) FROM (VALUES (1, 'b'), (1, 'a'), (0, 'z')) t(a, b);

SELECT max_by(name, ARRAY[nationkey]) FROM tpch.tiny.nation;

SELECT map_union(m) FROM (VALUES MAP(ARRAY[1], ARRAY['x']), NULL) t(m);
