-- family: project_semantics_lambdas
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/lambdas.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT transform(ARRAY[], x -> x + 1);

SELECT transform(ARRAY[5, 6], x -> x + 1);

SELECT transform(ARRAY[5, NULL, 6], x -> coalesce(x, 0) + 1);

SELECT transform(ARRAY['x', 'abc', 'z'], x -> x || '0');

SELECT transform(ARRAY[ARRAY[1, NULL, 2], ARRAY[3, NULL]], a -> filter(a, x -> x IS NOT NULL));

SELECT transform(ARRAY[1, 2], x -> x * regionkey) FROM tpch.tiny.region WHERE regionkey = 3;

SELECT transform(CAST(NULL AS array(integer)), x -> x);

SELECT filter(ARRAY[], x -> true);

SELECT filter(ARRAY[5, -6, NULL, 7], x -> x > 0);

SELECT filter(ARRAY[5, NULL, 7, NULL], x -> x IS NOT NULL);

SELECT reduce(ARRAY[], 0, (s, x) -> s + x, s -> s);

SELECT reduce(ARRAY[5, 20, 50], 0, (s, x) -> s + x, s -> s);

SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> s + x, s -> s);

SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> s + coalesce(x, 0), s -> s);

SELECT reduce(ARRAY[5, 20, NULL, 50], 0, (s, x) -> IF(x IS NULL, s, s + x), s -> s);

SELECT reduce(ARRAY[2147483647, 1], BIGINT '0', (s, x) -> s + x, s -> s);

SELECT reduce(ARRAY[5, 6, 10, 20], CAST(ROW(0.0, 0) AS ROW(sum DOUBLE, count INTEGER)), (s, x) -> CAST(ROW(x + s.sum, s.count + 1) AS ROW(sum DOUBLE, count INTEGER)), s -> IF(s.count = 0, NULL, s.sum / s.count));

SELECT all_match(ARRAY[5, -6, 0, 7], x -> x > 0);

SELECT any_match(ARRAY[5, -6, 0, 7], x -> x > 0);

SELECT none_match(ARRAY[5, -6, 0, 7], x -> x > 7);

SELECT all_match(ARRAY[], x -> x > 0);

SELECT any_match(ARRAY[], x -> x > 0);

SELECT none_match(ARRAY[], x -> x > 0);

SELECT all_match(ARRAY[1, NULL], x -> x > 0);

SELECT any_match(ARRAY[-1, NULL], x -> x > 0);

SELECT any_match(ARRAY[1, NULL], x -> x > 0);

SELECT none_match(ARRAY[-1, NULL], x -> x > 0);

SELECT all_match(ARRAY[-1, NULL], x -> x > 0);

SELECT zip_with(ARRAY[1, 2], ARRAY[3, 4], (x, y) -> x + y);

SELECT zip_with(ARRAY['a', 'b', 'c'], ARRAY['d', 'e', 'f'], (x, y) -> concat(x, y));

SELECT zip_with(ARRAY['a'], ARRAY['d', null, 'f'], (x, y) -> coalesce(x, y));

SELECT zip_with(ARRAY[1, 3, 5], ARRAY['a', 'b', 'c'], (x, y) -> ROW(y, x));

SELECT transform(ARRAY[1], (x, y) -> x);

SELECT filter(ARRAY[1], x -> x + 1);

SELECT transform(1, x -> x);

SELECT abs(x -> x);

SELECT transform(ARRAY[1], x -> y);
