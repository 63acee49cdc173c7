-- family: array_functions
-- source: Trino 476 docs, functions/array.md (https://trino.io/docs/476/functions/array.html)

-- Constructor, subscript, concatenation
SELECT ARRAY[3, 5, 8];
SELECT ARRAY['ant', 'bee', 'cow'];
SELECT ARRAY[2, 2.5, 7];
SELECT ARRAY[1, NULL, 3, NULL, -9];
SELECT ARRAY[], cardinality(ARRAY[]);
SELECT ARRAY[NULL, NULL];
SELECT ARRAY[1e0, 2];
SELECT ARRAY[ARRAY[1, 2], ARRAY[3]];
SELECT ARRAY[DATE '2024-02-29', DATE '2024-03-01'];
SELECT ARRAY[ROW(7, 'q'), ROW(8, 'rs')];
SELECT ARRAY[BIGINT '1', 2];
SELECT ARRAY['a', 'bcd'];
SELECT ARRAY[3, 2.75, 9][2];
SELECT ARRAY['x', 'y', 'z'][3];
SELECT ARRAY[ARRAY[4, 5], ARRAY[6]][1][2];
SELECT ARRAY[6, NULL][2];
SELECT ARRAY[4] || ARRAY[5, 6];
SELECT ARRAY[4] || 7;
SELECT 3 || ARRAY[4];
SELECT ARRAY['a'] || CAST(ARRAY[NULL] AS array(varchar));
SELECT ARRAY[1, 2] || CAST(ARRAY[] AS array(integer));
SELECT ARRAY[ARRAY[1]] || ARRAY[2];
SELECT concat(ARRAY[1], ARRAY[2, 3], ARRAY[4]);
SELECT CAST(NULL AS array(integer)) || ARRAY[1];
SELECT ARRAY[1, 2] = ARRAY[1, 2], ARRAY[1, 2] < ARRAY[1, 3], ARRAY[1, 2] <> ARRAY[2];
SELECT ARRAY[1, NULL] = ARRAY[1, NULL], ARRAY[1, NULL] IS DISTINCT FROM ARRAY[1, NULL];
SELECT ARRAY[1, 2] IN (ARRAY[1, 2], ARRAY[3]);
SELECT CAST(ARRAY[1, 2, 3] AS array(varchar)), CAST(ARRAY['4', '5'] AS array(bigint));
SELECT CAST(ARRAY[1.5, 2.5] AS array(integer));
SELECT CAST(ARRAY[1, 2] AS json);
SELECT CAST(JSON '[1, 2, null]' AS array(integer));

-- cardinality, element_at, array_first/last
SELECT cardinality(ARRAY[4, 5, 6]), cardinality(ARRAY[]), cardinality(ARRAY[NULL, NULL]);
SELECT cardinality(CAST(NULL AS array(varchar)));
SELECT element_at(ARRAY[10, 20, 30], 2), element_at(ARRAY[10, 20, 30], -1), element_at(ARRAY[10, 20, 30], 5);
SELECT element_at(ARRAY[10, 20, 30], -3), element_at(ARRAY[10, 20, 30], -4);
SELECT element_at(ARRAY['a'], 1);

-- array_distinct, array_intersect, array_union, array_except
SELECT array_distinct(ARRAY[3, 1, 3, 2, 1]);
SELECT array_distinct(ARRAY['b', NULL, 'a', NULL, 'b']);
SELECT array_distinct(CAST(ARRAY[] AS array(bigint)));
SELECT array_distinct(ARRAY[0.0E0, -0.0E0]);
SELECT array_distinct(ARRAY[nan(), nan(), 1e0]);
SELECT array_intersect(ARRAY[1, 2, 3, 2], ARRAY[2, 3, 4, 2]);
SELECT array_intersect(ARRAY[1, NULL], ARRAY[NULL, 5]);
SELECT array_intersect(ARRAY['x'], ARRAY['y']);
SELECT array_intersect(ARRAY[ARRAY[1, 2], ARRAY[3]], ARRAY[ARRAY[3]]);
SELECT array_union(ARRAY[1, 2, 2], ARRAY[2, 3, 1]);
SELECT array_union(ARRAY[NULL, 1], ARRAY[NULL]);
SELECT array_union(ARRAY['a'], ARRAY[]);
SELECT array_except(ARRAY[1, 2, 3, 1], ARRAY[2]);
SELECT array_except(ARRAY[1, NULL, NULL], ARRAY[1]);
SELECT array_except(ARRAY[1, 2], ARRAY[1, 2]);
SELECT array_except(ARRAY[], ARRAY[1]);

-- array_histogram, array_join
SELECT array_histogram(ARRAY[15, 3, 15, NULL, 15]);
SELECT array_histogram(ARRAY[NULL, NULL, NULL]);
SELECT array_histogram(ARRAY['q', 'r', 'q']);
SELECT array_histogram(ARRAY[]);
SELECT array_join(ARRAY['a', 'b', 'c'], '-');
SELECT array_join(ARRAY['a', NULL, 'c'], ',');
SELECT array_join(ARRAY['a', NULL, 'c'], ',', '?');
SELECT array_join(ARRAY[1, 2, 3], '+');
SELECT array_join(ARRAY[1.50, 2.25], ';');
SELECT array_join(ARRAY[], ',');
SELECT array_join(ARRAY[NULL, NULL], ',');
SELECT array_join(ARRAY[true, false], ' ');
SELECT array_join(ARRAY[DATE '2024-02-29'], '');

-- array_max, array_min
SELECT array_max(ARRAY[4, 9, 2]), array_min(ARRAY[4, 9, 2]);
SELECT array_max(ARRAY[4, NULL, 2]), array_min(ARRAY[4, NULL, 2]);
SELECT array_max(ARRAY[]), array_min(ARRAY[]);
SELECT array_max(ARRAY['pear', 'fig']), array_min(ARRAY['pear', 'fig']);
SELECT array_max(ARRAY[1e0, nan()]), array_min(ARRAY[1e0, nan()]);
SELECT array_max(ARRAY[ARRAY[1, 2], ARRAY[1, 3]]);
SELECT array_max(ARRAY[DATE '2020-01-01', DATE '2021-01-01']);

-- array_position, array_remove, contains, contains_sequence, arrays_overlap
SELECT array_position(ARRAY[7, 8, 9, 8], 8), array_position(ARRAY[7, 8, 9], 1);
SELECT array_position(ARRAY[7, NULL, 9], NULL);
SELECT array_position(ARRAY['a', 'b'], 'b');
SELECT array_remove(ARRAY[1, 2, 1, 3], 1);
SELECT array_remove(ARRAY[1, NULL, 3], NULL);
SELECT array_remove(ARRAY['x', 'y'], 'z');
SELECT contains(ARRAY[1, 2, 3], 2), contains(ARRAY[1, 2, 3], 5);
SELECT contains(ARRAY[1, NULL], 5), contains(ARRAY[1, NULL], 1);
SELECT contains(ARRAY['a', 'b'], NULL);
SELECT contains(ARRAY[], 'x');
SELECT contains_sequence(ARRAY[5, 6, 7, 8], ARRAY[6, 7]);
SELECT contains_sequence(ARRAY[5, 6, 7, 8], ARRAY[7, 6]);
SELECT contains_sequence(ARRAY[1, 2, 3], ARRAY[]);
SELECT contains_sequence(ARRAY[5, NULL, 7], ARRAY[NULL, 7]);
SELECT arrays_overlap(ARRAY[5, 6], ARRAY[6, 7]);
SELECT arrays_overlap(ARRAY[1, 2], ARRAY[3, 4]);
SELECT arrays_overlap(ARRAY[1, NULL], ARRAY[3]);
SELECT arrays_overlap(ARRAY[1, NULL], ARRAY[1, 3]);
SELECT arrays_overlap(ARRAY[], ARRAY[1]);

-- array_sort (natural order), reverse, flatten
SELECT array_sort(ARRAY[5, 1, 4, 1]);
SELECT array_sort(ARRAY[5, NULL, 1, NULL]);
SELECT array_sort(ARRAY['beta', 'Alpha', 'alpha']);
SELECT array_sort(ARRAY[ARRAY[2], ARRAY[1, 9], ARRAY[1]]);
SELECT array_sort(ARRAY[nan(), 1e0, -infinity()]);
SELECT array_sort(ARRAY[]);
SELECT array_sort(ARRAY[TRUE, FALSE, TRUE]);
SELECT reverse(ARRAY[1, 2, 3]), reverse(ARRAY[]), reverse(ARRAY['a', NULL]);
SELECT flatten(ARRAY[ARRAY[1, 2], ARRAY[3], ARRAY[]]);
SELECT flatten(ARRAY[ARRAY[1], NULL, ARRAY[2]]);
SELECT flatten(ARRAY[ARRAY['a'], ARRAY[NULL]]);

-- combinations, ngrams
SELECT combinations(ARRAY['p', 'q', 'r'], 2);
SELECT combinations(ARRAY[4, 5, 6], 2);
SELECT combinations(ARRAY[4, 5, 5], 2);
SELECT combinations(ARRAY[1, 2, 3, 4], 3);
SELECT combinations(ARRAY[8, 9], 4);
SELECT combinations(ARRAY[1, 2], 0);
SELECT ngrams(ARRAY['p', 'q', 'r', 'p'], 2);
SELECT ngrams(ARRAY['p', 'q', 'r', 'p'], 3);
SELECT ngrams(ARRAY['p', 'q', 'r', 'p'], 4);
SELECT ngrams(ARRAY['p', 'q', 'r', 'p'], 6);
SELECT ngrams(ARRAY[10, 20, 30], 1);
SELECT ngrams(ARRAY[], 2);

-- repeat, sequence, slice, trim_array
SELECT repeat('ab', 3), repeat(7, 0);
SELECT repeat(NULL, 3);
SELECT repeat(ARRAY[4, 5], 2);
SELECT sequence(2, 6);
SELECT sequence(6, 2);
SELECT sequence(0, 10, 3);
SELECT sequence(10, 0, -4);
SELECT sequence(3, 3);
SELECT sequence(-2, 2, 2);
SELECT sequence(DATE '2024-02-27', DATE '2024-03-02');
SELECT sequence(DATE '2024-03-02', DATE '2024-02-28');
SELECT sequence(DATE '2024-01-31', DATE '2024-06-30', INTERVAL '1' MONTH);
SELECT sequence(DATE '2024-01-01', DATE '2024-01-22', INTERVAL '7' DAY);
SELECT sequence(DATE '2020-02-29', DATE '2024-03-01', INTERVAL '1' YEAR);
SELECT sequence(TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 03:00:00', INTERVAL '90' MINUTE);
SELECT sequence(TIMESTAMP '2024-01-31 10:00:00.123', TIMESTAMP '2024-04-30 10:00:00.123', INTERVAL '1' MONTH);
SELECT sequence(TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2023-12-31 22:00:00', INTERVAL '-1' HOUR);
SELECT slice(ARRAY[1, 2, 3, 4, 5], 2, 3);
SELECT slice(ARRAY[1, 2, 3, 4, 5], -2, 5);
SELECT slice(ARRAY[1, 2, 3], 3, 10);
SELECT slice(ARRAY[1, 2, 3], 5, 1);
SELECT slice(ARRAY[1, 2, 3], 1, 0);
SELECT slice(ARRAY[1, 2, 3], -5, 2);
SELECT trim_array(ARRAY[5, 6, 7, 8], 1);
SELECT trim_array(ARRAY[5, 6, 7, 8], 3);
SELECT trim_array(ARRAY[5, 6], 2);
SELECT trim_array(ARRAY[5, 6, 7], 0);

-- euclidean_distance, dot_product
SELECT euclidean_distance(ARRAY[0.0, 0.0], ARRAY[3.0, 4.0]);
SELECT euclidean_distance(ARRAY[1e0, 1e0, 1e0], ARRAY[2e0, 2e0, 2e0]);
SELECT dot_product(ARRAY[2.0, 3.0], ARRAY[4.0, 5.0]);
SELECT dot_product(ARRAY[1e0, -1e0, 0.5e0], ARRAY[2e0, 2e0, 4e0]);
SELECT euclidean_distance(ARRAY[REAL '1', REAL '2'], ARRAY[REAL '4', REAL '6']);

-- zip
SELECT zip(ARRAY[3, 4], ARRAY['3c', NULL, '5c']);
SELECT zip(ARRAY[1, 2], ARRAY['a', 'b']);
SELECT zip(ARRAY[1], ARRAY[2.5], ARRAY['z']);
SELECT zip(ARRAY[], ARRAY[1]);
SELECT zip(ARRAY[1, 2], ARRAY['a', 'b'])[2];

-- UNNEST and arrays over tpch.tiny
SELECT x FROM UNNEST(ARRAY[3, 1, 2]) AS t(x) ORDER BY x;
SELECT x, n FROM UNNEST(ARRAY['a', 'b', 'c']) WITH ORDINALITY AS t(x, n) ORDER BY n;
SELECT a, b FROM UNNEST(ARRAY[1, 2, 3], ARRAY['x']) AS t(a, b) ORDER BY a;
SELECT count(*) FROM UNNEST(ARRAY[]) AS t(x);
SELECT r.name, n.x FROM tpch.tiny.region r CROSS JOIN UNNEST(ARRAY[1, 2]) AS n(x) ORDER BY r.name, n.x;
SELECT regionkey, cardinality(array_agg(nationkey)) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, array_max(array_agg(name)), array_min(array_agg(name)) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, array_join(array_sort(array_agg(name)), '/') FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, contains(array_agg(name), 'JAPAN') FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT orderkey, slice(array_sort(array_agg(linenumber)), 1, 2) FROM tpch.tiny.lineitem WHERE orderkey < 8 GROUP BY orderkey ORDER BY orderkey;
SELECT nationkey, split(name, ' ') FROM tpch.tiny.nation WHERE name LIKE '% %' ORDER BY nationkey;
SELECT nationkey, cardinality(split(comment, ' ')) FROM tpch.tiny.nation ORDER BY nationkey LIMIT 5;
SELECT array_distinct(array_agg(orderstatus ORDER BY orderstatus)) FROM tpch.tiny.orders;
SELECT array_position(array_agg(name ORDER BY nationkey), 'PERU') FROM tpch.tiny.nation;
SELECT element_at(array_agg(name ORDER BY name DESC), 1) FROM tpch.tiny.nation;
SELECT array_intersect(array_agg(DISTINCT nationkey), ARRAY[BIGINT '3', 30]) FROM tpch.tiny.supplier;
SELECT custkey, sequence(1, CAST(count(*) AS integer) / 10) FROM tpch.tiny.orders WHERE custkey IN (4, 7) GROUP BY custkey ORDER BY custkey;

-- Refusals
SELECT ARRAY[1, 2][3];
SELECT ARRAY[1, 2][0];
SELECT element_at(ARRAY[1, 2], 0);
SELECT ARRAY[7, 'seven'];
SELECT sequence(1, 10, 0);
SELECT sequence(1, 100000000);
SELECT combinations(ARRAY[1, 2, 3, 4, 5, 6, 7], 6);
SELECT trim_array(ARRAY[1, 2], 3);
SELECT ngrams(ARRAY[1, 2], 0);
SELECT array_join(ARRAY[ARRAY[1]], ',');
SELECT slice(ARRAY[1, 2], 0, 1);
SELECT euclidean_distance(ARRAY[1.0], ARRAY[1.0, 2.0]);
SELECT array_max(ARRAY[MAP(ARRAY[1], ARRAY[2])]);
SELECT cardinality(5);
SELECT ARRAY[1, 2] || ARRAY[];
SELECT ARRAY['a'] || ARRAY[NULL];

-- source: Trino 476 docs, functions/array.md: its examples as written (extracted page by page)
SELECT ARRAY[1, 2, 4];
SELECT ARRAY['foo', 'bar', 'bazz'];
SELECT ARRAY[1, 1.2, 4];
SELECT ARRAY[1, 2, NULL, -4, NULL];
SELECT ARRAY[1, 1.2, 4][2];
SELECT ARRAY[1] || 2;
SELECT 2 || ARRAY[1];
SELECT ngrams(ARRAY['foo', 'bar', 'baz', 'foo'], 3);
SELECT ngrams(ARRAY['foo', 'bar', 'baz', 'foo'], 4);
SELECT euclidean_distance(ARRAY[1.0, 2.0], ARRAY[3.0, 4.0]);
SELECT dot_product(ARRAY[1.0, 2.0], ARRAY[3.0, 4.0]);
SELECT zip_with(ARRAY[1, 3, 5], ARRAY['a', 'b', 'c'], (x, y) -> (y, x));
