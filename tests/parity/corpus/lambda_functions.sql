-- family: lambda_functions
-- source: Trino 476 docs, functions/lambda.md (https://trino.io/docs/476/functions/lambda.html)

-- The page's examples, other values
SELECT numbers, transform(numbers, n -> n * n) AS squared FROM (VALUES (ARRAY[2, 3]), (ARRAY[4, 5]), (ARRAY[6, 7, 8])) AS t(numbers) ORDER BY cardinality(numbers), numbers;
SELECT transform(prices, n -> TRY_CAST(n AS varchar) || ' EUR') AS tags FROM (VALUES (ARRAY[150, 250]), (ARRAY[40, 5])) AS t(prices) ORDER BY prices;
SELECT xs, a, b, transform(xs, x -> a * x + b) FROM (VALUES (ARRAY[1, 2], 3, 7), (ARRAY[5, 6], -2, 1)) AS t(xs, a, b) ORDER BY a;
SELECT numbers FROM (VALUES (ARRAY[2, NULL, 4]), (ARRAY[20, 40, 60]), (ARRAY[150, 250])) AS t(numbers) WHERE any_match(numbers, n -> COALESCE(n, 0) > 100);
SELECT regexp_replace('the quick brown fox', '^(\w)(\w*)(\s+.*)$', x -> upper(x[1]) || x[2] || x[3]);
SELECT regexp_replace('a1b22c333', '(\d+)', x -> CAST(length(x[1]) AS varchar));
SELECT reduce_agg(v, 0, (a, b) -> a + b, (a, b) -> a + b) FROM (VALUES 3, 6, 9, 12) AS t(v);
SELECT transform(ARRAY[1, 2], x -> x + TRY(1 / 0));
SELECT transform(ARRAY[-3, 4], x -> IF(x > 0, x, -x));
SELECT transform(ARRAY[ARRAY[6, 3], ARRAY[10, 4]], x -> x[1] / x[2]);
SELECT transform(ARRAY['aaa', 'bab', 'ccc'], x -> regexp_like(x, 'a+'));
SELECT transform(ARRAY[1, NULL], x -> CAST(x AS json));

-- source: Trino 476 docs, functions/array.md, lambda-taking functions (https://trino.io/docs/476/functions/array.html)
-- transform
SELECT transform(ARRAY[], x -> x * 2);
SELECT transform(ARRAY[8, 9], x -> x + 1);
SELECT transform(ARRAY[8, NULL, 9], x -> coalesce(x, 0) + 1);
SELECT transform(ARRAY['p', 'qr', 's'], x -> x || '!');
SELECT transform(ARRAY[ARRAY[4, NULL, 5], ARRAY[NULL, 6]], a -> filter(a, x -> x IS NOT NULL));
SELECT transform(ARRAY[1, 2, 3], x -> x * 1.5);
SELECT transform(ARRAY[1, 2, 3], x -> CAST(x AS double) / 2);
SELECT transform(ARRAY['a', 'b'], x -> ROW(x, length(x)));
SELECT transform(ARRAY[DATE '2024-02-28', DATE '2024-12-31'], d -> d + INTERVAL '1' DAY);
SELECT transform(ARRAY[1, 2], x -> ARRAY[x, x * 10]);
SELECT transform(ARRAY[1, 2, 3], x -> NULL);
SELECT transform(CAST(NULL AS array(integer)), x -> x + 1);
SELECT transform(ARRAY[1, 2, 3], x -> transform(ARRAY[10, 20], y -> x + y));
SELECT transform(sequence(1, 5), i -> i * i);

-- filter
SELECT filter(ARRAY[], x -> false);
SELECT filter(ARRAY[8, -2, NULL, 11], x -> x > 0);
SELECT filter(ARRAY[8, NULL, 11, NULL], x -> x IS NOT NULL);
SELECT filter(ARRAY['apple', 'kiwi', 'plum'], s -> length(s) = 4);
SELECT filter(ARRAY[1, 2, 3, 4, 5, 6], x -> x % 2 = 0);
SELECT filter(ARRAY[1, 2, 3], x -> CAST(NULL AS boolean));
SELECT filter(ARRAY[1, 2, 3], x -> NULL);
SELECT filter(ARRAY[1, 2, 3], x -> false);
SELECT filter(ARRAY[ARRAY[1], ARRAY[], ARRAY[2, 3]], a -> cardinality(a) > 0);

-- reduce
SELECT reduce(ARRAY[], 5, (s, x) -> s + x, s -> s);
SELECT reduce(ARRAY[4, 15, 60], 0, (s, x) -> s + x, s -> s);
SELECT reduce(ARRAY[4, 15, NULL, 60], 0, (s, x) -> s + x, s -> s);
SELECT reduce(ARRAY[4, 15, NULL, 60], 0, (s, x) -> s + coalesce(x, 0), s -> s);
SELECT reduce(ARRAY[4, 15, NULL, 60], 0, (s, x) -> IF(x IS NULL, s, s + x), s -> s);
SELECT reduce(ARRAY[2147483647, 5], BIGINT '0', (s, x) -> s + x, s -> s);
SELECT reduce(ARRAY[4, 8, 12, 30], CAST(ROW(0.0, 0) AS ROW(sum double, count integer)), (s, x) -> CAST(ROW(x + s.sum, s.count + 1) AS ROW(sum double, count integer)), s -> IF(s.count = 0, NULL, s.sum / s.count));
SELECT reduce(ARRAY['a', 'b', 'c'], '', (s, x) -> x || s, s -> s);
SELECT reduce(ARRAY[3, 9, 4], 0, (s, x) -> greatest(s, x), s -> s * 10);
SELECT reduce(ARRAY[1, 2, 3, 4], 1, (s, x) -> s * x, s -> CAST(s AS varchar));
SELECT reduce(sequence(1, 10), 0, (s, x) -> s + x, s -> s);

-- zip_with
SELECT zip_with(ARRAY[2, 4, 6], ARRAY['p', 'q', 'r'], (x, y) -> (y, x));
SELECT zip_with(ARRAY[5, 6], ARRAY[7, 8], (x, y) -> x + y);
SELECT zip_with(ARRAY['g', 'h', 'i'], ARRAY['j', 'k', 'l'], (x, y) -> concat(x, y));
SELECT zip_with(ARRAY['g'], ARRAY['j', NULL, 'l'], (x, y) -> coalesce(x, y));
SELECT zip_with(ARRAY[1, 2, 3], ARRAY[10], (x, y) -> x * y);
SELECT zip_with(ARRAY[], ARRAY[], (x, y) -> x);
SELECT zip_with(ARRAY[1.5, 2.5], ARRAY[2, 4], (x, y) -> x * y);

-- any_match, all_match, none_match
SELECT any_match(ARRAY[1, 5, 9], x -> x > 8), any_match(ARRAY[1, 5, 9], x -> x > 9);
SELECT all_match(ARRAY[1, 5, 9], x -> x > 0), all_match(ARRAY[1, 5, 9], x -> x > 1);
SELECT none_match(ARRAY[1, 5, 9], x -> x > 9), none_match(ARRAY[1, 5, 9], x -> x = 5);
SELECT any_match(ARRAY[], x -> true), all_match(ARRAY[], x -> false), none_match(ARRAY[], x -> true);
SELECT any_match(ARRAY[1, NULL], x -> x > 1), any_match(ARRAY[2, NULL], x -> x > 1);
SELECT all_match(ARRAY[1, NULL], x -> x > 0), all_match(ARRAY[0, NULL], x -> x > 0);
SELECT none_match(ARRAY[1, NULL], x -> x > 1), none_match(ARRAY[2, NULL], x -> x > 1);
SELECT any_match(ARRAY['x', 'yy'], s -> length(s) = 2);

-- array_sort with a comparator
SELECT array_sort(ARRAY[4, 1, 7, 2, 4], (x, y) -> IF(x < y, 1, IF(x = y, 0, -1)));
SELECT array_sort(ARRAY['mn', 'ab', 'zz'], (x, y) -> IF(x < y, 1, IF(x = y, 0, -1)));
SELECT array_sort(ARRAY[4, 1, NULL, 7, NULL, 2], (x, y) -> CASE WHEN x IS NULL THEN -1 WHEN y IS NULL THEN 1 WHEN x < y THEN 1 WHEN x = y THEN 0 ELSE -1 END);
SELECT array_sort(ARRAY[4, 1, NULL, 7, NULL, 2], (x, y) -> CASE WHEN x IS NULL THEN 1 WHEN y IS NULL THEN -1 WHEN x < y THEN 1 WHEN x = y THEN 0 ELSE -1 END);
SELECT array_sort(ARRAY['xyz', 'x', 'xy'], (x, y) -> IF(length(x) < length(y), -1, IF(length(x) = length(y), 0, 1)));
SELECT array_sort(ARRAY[ARRAY[7, 8, 9], ARRAY[1, 2, 3, 4], ARRAY[5]], (x, y) -> IF(cardinality(x) < cardinality(y), -1, IF(cardinality(x) = cardinality(y), 0, 1)));
SELECT array_sort(ARRAY[-5, 3, -1, 2], (x, y) -> IF(abs(x) < abs(y), -1, IF(abs(x) = abs(y), 0, 1)));
SELECT array_sort(ARRAY[ROW('b', 2), ROW('a', 2), ROW('c', 1)], (x, y) -> IF(x[2] < y[2], -1, IF(x[2] = y[2], IF(x[1] < y[1], -1, IF(x[1] = y[1], 0, 1)), 1)));
SELECT array_sort(ARRAY[3, 1, 2], (x, y) -> y - x);

-- source: Trino 476 docs, functions/map.md, lambda-taking functions (https://trino.io/docs/476/functions/map.html)
-- Map lambdas: map_filter, transform_keys, transform_values, map_zip_with
SELECT map_filter(MAP(ARRAY[], ARRAY[]), (k, v) -> false);
SELECT map_filter(MAP(ARRAY[11, 22, 33], ARRAY['p', NULL, 'r']), (k, v) -> v IS NOT NULL);
SELECT map_filter(MAP(ARRAY['m1', 'm2', 'm3'], ARRAY[25, 4, 16]), (k, v) -> v > 10);
SELECT map_filter(MAP(ARRAY['a', 'b'], ARRAY[1, 2]), (k, v) -> k = 'b');
SELECT map_filter(MAP(ARRAY['a', 'b'], ARRAY[1, 2]), (k, v) -> CAST(NULL AS boolean));
SELECT map_filter(MAP(ARRAY['a', 'b'], ARRAY[1, 2]), (k, v) -> NULL);
SELECT transform_keys(MAP(ARRAY[], ARRAY[]), (k, v) -> k * 3);
SELECT transform_keys(MAP(ARRAY[4, 5, 6], ARRAY['d', 'e', 'f']), (k, v) -> k * 10);
SELECT transform_keys(MAP(ARRAY['d', 'e', 'f'], ARRAY[4, 5, 6]), (k, v) -> v * v);
SELECT transform_keys(MAP(ARRAY['d', 'e'], ARRAY[4, 5]), (k, v) -> k || CAST(v AS varchar));
SELECT transform_keys(MAP(ARRAY[1, 2], ARRAY[2.5, 3.5]), (k, v) -> MAP(ARRAY[1, 2], ARRAY['uno', 'dos'])[k]);
SELECT transform_keys(MAP(ARRAY['a', 'b'], ARRAY[1, 2]), (k, v) -> upper(k));
SELECT transform_values(MAP(ARRAY[], ARRAY[]), (k, v) -> v + 1);
SELECT transform_values(MAP(ARRAY[4, 5, 6], ARRAY[40, 50, 60]), (k, v) -> v - k);
SELECT transform_values(MAP(ARRAY[4, 5, 6], ARRAY['d', 'e', 'f']), (k, v) -> k * k);
SELECT transform_values(MAP(ARRAY['d', 'e'], ARRAY[4, 5]), (k, v) -> k || CAST(v AS varchar));
SELECT transform_values(MAP(ARRAY[1, 2], ARRAY[2.5, 3.5]), (k, v) -> MAP(ARRAY[1, 2], ARRAY['uno', 'dos'])[k] || '=' || CAST(v AS varchar));
SELECT transform_values(MAP(ARRAY['a', 'b'], ARRAY[1, NULL]), (k, v) -> v IS NULL);
SELECT map_zip_with(MAP(ARRAY[4, 5, 6], ARRAY['g', 'h', 'i']), MAP(ARRAY[4, 5, 6], ARRAY['j', 'k', 'l']), (k, v1, v2) -> concat(v1, v2));
SELECT map_zip_with(MAP(ARRAY['m1', 'm2'], ARRAY[3, 4]), MAP(ARRAY['m2', 'm3'], ARRAY[6, 8]), (k, v1, v2) -> (v1, v2));
SELECT map_zip_with(MAP(ARRAY['a', 'b', 'c'], ARRAY[8, 27, 64]), MAP(ARRAY['a', 'b', 'c'], ARRAY[2, 3, 4]), (k, v1, v2) -> k || CAST(v1 / v2 AS varchar));
SELECT map_zip_with(MAP(ARRAY[1], ARRAY[1]), MAP(ARRAY[2], ARRAY[2]), (k, v1, v2) -> coalesce(v1, 0) + coalesce(v2, 0));
SELECT map_zip_with(map(), map(), (k, v1, v2) -> v1);

-- source: Trino 476 docs, functions/lambda.md (https://trino.io/docs/476/functions/lambda.html)
-- Captures, nesting, lambdas over tpch.tiny
SELECT regionkey, transform(array_agg(nationkey ORDER BY nationkey), k -> k * 100 + regionkey) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, filter(array_agg(name ORDER BY name), n -> n LIKE '%A') FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, reduce(array_agg(nationkey), 0, (s, x) -> s + x, s -> s) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, any_match(array_agg(name), n -> starts_with(n, 'I')) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, all_match(array_agg(nationkey), k -> k < 20) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT name, transform(split(name, ' '), w -> lower(w)) FROM tpch.tiny.region ORDER BY name;
SELECT orderkey, zip_with(array_agg(quantity ORDER BY linenumber), array_agg(discount ORDER BY linenumber), (q, d) -> round(q * (1 - d), 2)) FROM tpch.tiny.lineitem WHERE orderkey IN (1, 2, 3) GROUP BY orderkey ORDER BY orderkey;
SELECT map_filter(histogram(orderpriority), (k, v) -> v > 3000) FROM tpch.tiny.orders;
SELECT transform_values(map_agg(name, regionkey), (k, v) -> v * 2) FROM tpch.tiny.nation WHERE nationkey < 4;
SELECT transform_keys(map_agg(regionkey, name), (k, v) -> substr(v, 1, 2)) FROM tpch.tiny.region;
SELECT regionkey, array_sort(array_agg(name), (x, y) -> IF(length(x) < length(y), 1, IF(length(x) = length(y), IF(x < y, -1, IF(x = y, 0, 1)), -1))) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT count(*) FROM tpch.tiny.nation WHERE any_match(split(comment, ' '), w -> w = 'furiously');
SELECT nationkey FROM tpch.tiny.nation WHERE cardinality(filter(regexp_extract_all(name, '.'), c -> c = 'A')) >= 3 ORDER BY nationkey;
SELECT transform(ARRAY[1, 2], x -> transform(ARRAY[3], y -> ARRAY[x, y]));
SELECT filter(transform(ARRAY[1, 2, 3, 4], x -> x * 3), y -> y % 2 = 0);
SELECT transform(ARRAY[1, 2], x -> (SELECT 1) + x);

-- Refusals
SELECT transform(ARRAY[1, 2], x -> max(x));
SELECT transform(ARRAY[1, 2], (x, y) -> x + y);
SELECT filter(ARRAY[1, 2], x -> x + 1);
SELECT array_sort(ARRAY[3, 1, 2], (x, y) -> 5);
SELECT transform_keys(MAP(ARRAY[3, 4], ARRAY['c', 'd']), (k, v) -> 9);
SELECT transform_keys(MAP(ARRAY[3, 4], ARRAY['c', 'd']), (k, v) -> NULL);
SELECT transform(ARRAY[2], x -> z);
SELECT reduce(ARRAY[1, 2], 0, (s, x) -> s || x, s -> s);

-- source: Trino 476 docs, functions/lambda.md: its examples as written (extracted page by page)
SELECT numbers, transform(numbers, n -> n * n) as squared_numbers FROM (VALUES (ARRAY[1, 2]), (ARRAY[3, 4]), (ARRAY[5, 6, 7])) AS t(numbers);
SELECT transform(prices, n -> TRY_CAST(n AS VARCHAR) || '$') as price_tags FROM (VALUES (ARRAY[100, 200]), (ARRAY[30, 4])) AS t(prices);
SELECT xvalues, a, b, transform(xvalues, x -> a * x + b) as linear_function_values FROM (VALUES (ARRAY[1, 2], 10, 5), (ARRAY[3, 4], 4, 2)) AS t(xvalues, a, b);
SELECT numbers FROM (VALUES (ARRAY[1,NULL,3]), (ARRAY[10,20,30]), (ARRAY[100,200,300])) AS t(numbers) WHERE any_match(numbers, n ->  COALESCE(n, 0) > 100);
SELECT regexp_replace('once upon a time ...', '^(\w)(\w*)(\s+.*)$',x -> upper(x[1]) || x[2] || x[3]);
SELECT reduce_agg(value, 0, (a, b) -> a + b, (a, b) -> a + b) sum_values FROM (VALUES (1), (2), (3), (4), (5)) AS t(value);
