-- family: project_semantics_arrays
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/arrays.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT cardinality(ARRAY[]);

SELECT cardinality(ARRAY[NULL]);

SELECT cardinality(ARRAY[1, NULL, 3]);

SELECT cardinality(ARRAY[ARRAY[1, 2], ARRAY[3]]);

SELECT cardinality(CAST(NULL AS array(integer)));

SELECT contains(ARRAY['puppies', 'dogs'], 'dogs');

SELECT contains(ARRAY[1, 2, 3], BIGINT '2');

SELECT contains(ARRAY[1, 2, 3], 5);

SELECT contains(ARRAY[1, NULL, 3], 1);

SELECT contains(ARRAY[NULL, 2, 3], 1);

SELECT contains(ARRAY[NULL, 2, 3], NULL);

SELECT contains(ARRAY[1, 2.0E0, 3], 3.0E0);

SELECT contains(ARRAY[TRUE, FALSE], TRUE);

SELECT contains(ARRAY[FALSE], TRUE);

SELECT contains(ARRAY[ARRAY[1, 2], ARRAY[3, 4]], ARRAY[3, 4]);

SELECT contains(ARRAY[ARRAY[1, 2], ARRAY[3, 4]], ARRAY[3]);

SELECT contains(ARRAY[], NULL);

SELECT contains(ARRAY[], 1);

SELECT contains(ARRAY[2.2, 1.1], 1.1);

SELECT contains(ARRAY[2.2, 001.20], 1.2);

SELECT array_position(ARRAY[10, 20, 30, 40], 30);

SELECT array_position(ARRAY[CAST(NULL AS bigint)], 30);

SELECT array_position(ARRAY[NULL, NULL, 30, NULL], 30);

SELECT array_position(ARRAY[1.1E0, 2.1E0, 3.1E0, 4.1E0], 3.1E0);

SELECT array_position(ARRAY[false, false, true, true], true);

SELECT array_position(ARRAY[DATE '2000-01-01', DATE '2000-01-02', DATE '2000-01-03'], DATE '2000-01-03');

SELECT array_position(ARRAY[ARRAY[1, 11], ARRAY[2, 12], ARRAY[3, 13]], ARRAY[3, 13]);

SELECT array_position(ARRAY[1, NULL, 2], NULL);

SELECT array_position(ARRAY[1.0, 2.0, 3.0, 4.0], 3);

SELECT contains(ARRAY[ARRAY[1, NULL]], ARRAY[1, 2]);

SELECT contains(ARRAY[1], 'a');

SELECT element_at(ARRAY[], 1);

SELECT element_at(ARRAY[1, 2, 3], 4);

SELECT element_at(ARRAY[1, 2, 3], -4);

SELECT 1 + element_at(ARRAY[2, 1, 3], 2);

SELECT 10000000000 + element_at(ARRAY[2, 1, 3], -2);

SELECT element_at(ARRAY[2, NULL, 3], -2);

SELECT element_at(ARRAY[1.0E0, 2.5E0, 3.5E0], -1);

SELECT element_at(ARRAY[ARRAY[1, 2], ARRAY[3]], -1);

SELECT element_at(element_at(ARRAY[ARRAY[1, 2], ARRAY[3]], 2), -1);

SELECT element_at(ARRAY['puppies', 'kittens'], -1);

SELECT element_at(ARRAY[TRUE, FALSE], 2);

SELECT element_at(ARRAY[], 0);

SELECT element_at(ARRAY[1, 2, 3], 0);

SELECT array_join(ARRAY[1, NULL, 2], ',');

SELECT array_join(ARRAY[1, 2, 3], ';', 'N/A');

SELECT array_join(ARRAY[1, 2, null], ';', 'N/A');

SELECT array_join(ARRAY[null, null], '=');

SELECT array_join(ARRAY[], 'S');

SELECT array_join(ARRAY['a', 'b', 'c', null, null, 'd'], '-', 'N/A');

SELECT array_join(ARRAY[true, false], 'XX');

SELECT array_join(ARRAY[1.0, 2.1, 3.3], 'x');

SELECT array_join(ARRAY[1.0, 2.100, 3.3], 'x');

SELECT array_join(ARRAY[1.0, DOUBLE '002.100', 3.3], 'x');

SELECT array_join(ARRAY[1], ',', NULL);

SELECT array_join(ARRAY[ARRAY[1], ARRAY[2]], '-');

SELECT array_distinct(ARRAY[]);

SELECT array_distinct(ARRAY[2, 3, 4, 3, 1, 2, 3]);

SELECT array_distinct(ARRAY[2.2E0, 3.3E0, 4.4E0, 3.3E0, 1, 2.2E0, 3.3E0]);

SELECT array_distinct(ARRAY[TRUE, FALSE, FALSE, TRUE]);

SELECT array_distinct(ARRAY[ARRAY[1], ARRAY[1, 2], ARRAY[1, 2, 3], ARRAY[1, 2]]);

SELECT array_distinct(ARRAY[2, 3, NULL, 4, 3, 1, 2, 3]);

SELECT array_distinct(ARRAY[NULL, NULL]);

SELECT cardinality(array_distinct(sequence(1, 10000) || sequence(1, 10000)));

SELECT cardinality(array_intersect(sequence(1, 10000), sequence(5001, 15000)));

SELECT array_distinct(ARRAY[2.330, 1.900, 2.330]);

SELECT array_sort(ARRAY[2, 3, 4, 1]);

SELECT array_sort(ARRAY['z', 'f', 's', 'd', 'g']);

SELECT array_sort(ARRAY[TRUE, FALSE]);

SELECT array_sort(ARRAY[22.1E0, 11.1E0, 1.1E0, 44.1E0]);

SELECT array_sort(ARRAY[ARRAY[2], ARRAY[1, 5], ARRAY[1]]);

SELECT array_sort(ARRAY[1, null, 0, null, -1]);

SELECT array_min(ARRAY[]);

SELECT array_min(ARRAY[NULL, 2, 3]);

SELECT array_min(ARRAY[3, 2, 1]);

SELECT array_min(ARRAY[1, 2.0E0, 3]);

SELECT array_min(ARRAY[ARRAY[1, 2], ARRAY[3]]);

SELECT array_min(ARRAY['puppies', 'kittens']);

SELECT array_min(ARRAY[TRUE, FALSE]);

SELECT array_max(ARRAY[BIGINT '1', 2, 3]);

SELECT array_max(ARRAY[ARRAY[1, 2], ARRAY[3]]);

SELECT array_max(ARRAY['puppies', 'kittens']);

SELECT array_max(ARRAY[NULL, FALSE]);

SELECT array_max(ARRAY[2.1, 2.2, 2.3]);

SELECT array_sort(ARRAY[MAP(ARRAY[1], ARRAY[2])]);

SELECT array_sort(ARRAY[3, 2, 5, 1, 2], (x, y) -> IF(x < y, 1, IF(x = y, 0, -1)));

SELECT array_sort(ARRAY['bc', 'ab', 'dc'], (x, y) -> IF(x < y, 1, IF(x = y, 0, -1)));

SELECT array_sort(ARRAY[3, 2, null, 5, null, 1, 2], (x, y) -> CASE WHEN x IS NULL THEN -1 WHEN y IS NULL THEN 1 WHEN x < y THEN 1 WHEN x = y THEN 0 ELSE -1 END);

SELECT array_sort(ARRAY[3, 2, null, 5, null, 1, 2], (x, y) -> CASE WHEN x IS NULL THEN 1 WHEN y IS NULL THEN -1 WHEN x < y THEN 1 WHEN x = y THEN 0 ELSE -1 END);

SELECT array_sort(ARRAY['a', 'abcd', 'abc'], (x, y) -> IF(length(x) < length(y), -1, IF(length(x) = length(y), 0, 1)));

SELECT array_sort(ARRAY[ARRAY[2, 3, 1], ARRAY[4, 2, 1, 4], ARRAY[1, 2]], (x, y) -> IF(cardinality(x) < cardinality(y), -1, IF(cardinality(x) = cardinality(y), 0, 1)));

SELECT array_sort(ARRAY['a', null, 'abcd', null, 'abc', 'zx'], (x, y) -> CASE WHEN x IS NULL THEN -1 WHEN y IS NULL THEN 1 WHEN length(x) < length(y) THEN 1 WHEN length(x) = length(y) THEN 0 ELSE -1 END);

SELECT array_sort(ARRAY[TRUE, null, FALSE, TRUE, null, FALSE, TRUE], (x, y) -> CASE WHEN x IS NULL THEN -1 WHEN y IS NULL THEN 1 WHEN x = y THEN 0 WHEN x THEN -1 ELSE 1 END);

SELECT array_sort(CAST(NULL AS array(integer)), (x, y) -> 0);

SELECT array_sort(ARRAY[2, 1, 2, 4], (x, y) -> y - x);

SELECT array_sort(ARRAY[2, 3, 2, 4, 1], (x, y) -> IF(x > y, NULL, IF(x = y, 0, -1)));

SELECT slice(ARRAY[1, 2, 3, 4, 5], 1, 4);

SELECT slice(ARRAY[1, 2], 1, 4);

SELECT slice(ARRAY[1, 2, 3, 4, 5], 3, 2);

SELECT slice(ARRAY[1, 2, 3, 4], -3, 3);

SELECT slice(ARRAY[1, 2, 3, 4], -3, 5);

SELECT slice(ARRAY[1, 2, 3, 4], 1, 0);

SELECT slice(ARRAY[1, 2, 3, 4], -6, 5);

SELECT slice(ARRAY[ARRAY[1], ARRAY[2, 3], ARRAY[4, 5, 6]], 1, 2);

SELECT trim_array(ARRAY[1, 2, 3, 4], 1);

SELECT trim_array(ARRAY[1, 2, 3, 4], 2);

SELECT trim_array(ARRAY[1, 2, 3, 4], 4);

SELECT array_remove(ARRAY[1, 2, NULL, 2, 3], 2);

SELECT array_remove(ARRAY['foo', 'bar'], 'foo');

SELECT array_remove(ARRAY[1.0E0, 2.0E0], 1);

SELECT array_remove(ARRAY[1, 2], NULL);

SELECT flatten(ARRAY[ARRAY[1, 2], NULL, ARRAY[], ARRAY[3]]);

SELECT slice(ARRAY[1, 2, 3, 4], 1, -1);

SELECT slice(ARRAY[1, 2, 3, 4], 0, 1);

SELECT trim_array(ARRAY[1, 2, 3, 4], 5);

SELECT trim_array(ARRAY[1, 2, 3, 4], -1);

SELECT sequence(1, 5);

SELECT sequence(5, 1);

SELECT sequence(-5, 5, 5);

SELECT sequence(10, 2, -3);

SELECT sequence(1, 1);

SELECT cardinality(sequence(1, 10000));

SELECT sequence(DATE '2016-01-01', DATE '2016-01-03');

SELECT sequence(DATE '2016-01-03', DATE '2016-01-01');

SELECT sequence(DATE '2016-01-01', DATE '2016-01-10', INTERVAL '3' DAY);

SELECT sequence(DATE '2016-01-31', DATE '2016-05-01', INTERVAL '1' MONTH);

SELECT sequence(DATE '2016-03-01', DATE '2015-01-01', INTERVAL '-1' YEAR);

SELECT sequence(1, NULL);

SELECT sequence(timestamp '2016-04-16 01:00:10', timestamp '2016-04-16 01:07:00', interval '3' minute);

SELECT sequence(timestamp '2016-04-16 01:00:10', timestamp '2016-04-14 01:00:20', interval '-19' hour);

SELECT sequence(timestamp '2016-09-16 01:10:10', timestamp '2016-04-16 01:00:00', interval '-2' month);

SELECT sequence(timestamp '2016-04-16 01:00:10', timestamp '2021-04-16 01:01:00', interval '2' year);

SELECT sequence(date '2016-04-12', date '2018-04-12', interval '1' year);

SELECT sequence(1, 5, 0);

SELECT sequence(1, 5, -1);

SELECT sequence(1, 10001);

SELECT sequence(DATE '2016-01-01', DATE '2016-01-03', INTERVAL '12' HOUR);

SELECT sequence(date '2000-04-14', date '2030-04-12', interval '1' day);

SELECT sequence(date '2000-04-12', date '3000-06-12', interval '1' month);

SELECT sequence(timestamp '2016-04-16 01:00:10', timestamp '2016-04-16 09:01:00', interval '1' second);

SELECT sequence(timestamp '2016-05-16 01:00:10', timestamp '2016-04-16 01:01:00', interval '1' month);

SELECT sequence(1, 'a');

SELECT split('a.b.c', '.');

SELECT split('ab', '.', 1);

SELECT split('a.b', '.', 1);

SELECT split('a.b.c', '.', 2);

SELECT split('a.b.c.', '.');

SELECT split('.a.b.c', '.', 3);

SELECT split('a..b..c', '.', 3);

SELECT split('a.b..', '.', 3);

SELECT zip(ARRAY[1, 2], ARRAY['1b', null, '3b']);

SELECT arrays_overlap(ARRAY[1, 2], ARRAY[2, 3]);

SELECT arrays_overlap(ARRAY[1, 3], ARRAY[2, 4]);

SELECT arrays_overlap(ARRAY[1, NULL], ARRAY[2]);

SELECT arrays_overlap(ARRAY[1, NULL], ARRAY[1]);

SELECT arrays_overlap(ARRAY[], ARRAY[NULL]);

SELECT array_intersect(ARRAY[1, 5, 3, 3, NULL], ARRAY[3, 1, NULL]);

SELECT array_intersect(ARRAY[1, 2], ARRAY[2.0E0]);

SELECT array_union(ARRAY[1, 2, 2, NULL], ARRAY[3, 1, NULL]);

SELECT array_except(ARRAY[1, 2, 2, 3, NULL], ARRAY[3]);

SELECT split('a.b.c', '', 1);

SELECT split('a.b.c', '.', 0);

SELECT split('a.b.c', '.', 2147483648);

SELECT ARRAY[1, NULL] || ARRAY[3];

SELECT ARRAY[1, 2] || ARRAY[3, BIGINT '4'];

SELECT ARRAY[NULL] || ARRAY[NULL];

SELECT ARRAY['puppies'] || ARRAY['kittens'];

SELECT concat(ARRAY[1], ARRAY[2, 3]);

SELECT ARRAY[] || ARRAY[];

SELECT ARRAY[1] || ARRAY[2.0E0] || ARRAY[3] || ARRAY[4.0E0];

SELECT ARRAY[ARRAY[1], ARRAY[2, 8]] || ARRAY[ARRAY[3, 6], ARRAY[4]];

SELECT concat(ARRAY[], ARRAY[NULL], ARRAY[], ARRAY[NULL], ARRAY[]);

SELECT concat(ARRAY[], ARRAY[], ARRAY[], NULL, ARRAY[]);

SELECT concat(ARRAY[1], ARRAY[2, 3, 3], ARRAY[2, 1]);

SELECT 1 || ARRAY[2];

SELECT ARRAY[2] || 1;

SELECT ARRAY[2] || BIGINT '1';

SELECT TRUE || ARRAY[FALSE];

SELECT ARRAY[2.0E0] || 1.0E0;

SELECT 'puppies' || ARRAY['kittens'];

SELECT ARRAY[2, 8] || ARRAY[ARRAY[3, 6], ARRAY[4]];

SELECT ARRAY[ARRAY[1], ARRAY[2, 8]] || ARRAY[3, 6];

SELECT ARRAY[2, 8] || CAST(NULL AS integer);

SELECT CAST(NULL AS integer) || ARRAY[2, 8];

SELECT 1 || NULL;

SELECT concat(ARRAY[2], 1);

SELECT ARRAY[1] || ARRAY[2];

SELECT ARRAY[ARRAY[1]] || ARRAY[ARRAY[true], ARRAY[false]];

SELECT ARRAY[2, 8] || NULL;

SELECT NULL || ARRAY[2];

SELECT concat(NULL);

SELECT array_agg(x ORDER BY x DESC) FROM (VALUES 1, 3, 2) AS t(x);

SELECT array_agg(DISTINCT x ORDER BY x) FROM (VALUES 2, 1, 2, 1) AS t(x);

SELECT array_agg(name ORDER BY regionkey) FROM region;

SELECT regionkey, array_agg(nationkey ORDER BY nationkey) FROM nation WHERE nationkey < 5 GROUP BY regionkey ORDER BY regionkey;

SELECT array_distinct(NULL);

SELECT array_sort(CAST(NULL AS array(integer)));

SELECT slice(CAST(NULL AS array(integer)), 1, 1);

SELECT array_max(CAST(NULL AS array(integer)));

SELECT flatten(CAST(NULL AS array(array(integer))));

SELECT array_join(NULL, ',');

SELECT zip(ARRAY[1], NULL);

SELECT cardinality(1);

SELECT slice(ARRAY[1], 'a', 1);

SELECT array_position(ARRAY[1], 'x');

SELECT flatten(ARRAY[1]);

SELECT zip(ARRAY[1]);

SELECT array_sort(ARRAY[1], x -> x);

SELECT concat(ARRAY[1]);

SELECT ARRAY[1] || 'a';

SELECT transform(ARRAY[ARRAY[3, 1, 2], ARRAY[5, 4]], a -> array_sort(a, (x, y) -> IF(x < y, 1, IF(x = y, 0, -1))));

SELECT array_sort(ARRAY[ARRAY[3, 1], ARRAY[1], ARRAY[2, 2, 2]], (x, y) -> IF(reduce(x, 0, (s, e) -> s + e, s -> s) < reduce(y, 0, (s, e) -> s + e, s -> s), -1, IF(reduce(x, 0, (s, e) -> s + e, s -> s) = reduce(y, 0, (s, e) -> s + e, s -> s), 0, 1)));

SELECT array_distinct(filter(ARRAY[1, 2, 2, 3, 3, 3], x -> x > 1));

SELECT transform(sequence(1, 3), x -> contains(ARRAY[2], x));

SELECT array_join(transform(split('a,b', ','), s -> upper(s)), '-');

SELECT transform(ARRAY[1, 2], x -> element_at(ARRAY[10, 20], x));

SELECT reverse(ARRAY[1, 2, 3, 4]);

SELECT reverse(ARRAY['a', 'b', 'c', 'd']);

SELECT reverse('abc');

SELECT repeat(1, 5);

SELECT repeat('ab', 2);

SELECT repeat(ARRAY[1], 2);

SELECT repeat(NULL, 2);

SELECT repeat(1, 0);

SELECT ngrams(ARRAY['foo', 'bar', 'baz', 'foo'], 2);

SELECT ngrams(ARRAY['foo', 'bar', 'baz', 'foo'], 5);

SELECT ngrams(ARRAY[1, 2, 3, 4], 2);

SELECT combinations(ARRAY['foo', 'bar', 'baz'], 2);

SELECT combinations(ARRAY[1, 2, 3], 2);

SELECT combinations(ARRAY[1, 2, 2], 2);

SELECT combinations(ARRAY[1, 2], 3);

SELECT contains_sequence(ARRAY[1, 2, 3, 4], ARRAY[2, 3]);

SELECT contains_sequence(ARRAY[1, 2, 3, 4], ARRAY[3, 2]);

SELECT contains_sequence(ARRAY[1, NULL, 3], ARRAY[NULL, 3]);

SELECT contains_sequence(ARRAY[1], ARRAY[]);

SELECT array_first(ARRAY[1, 2, 3]);

SELECT array_last(ARRAY[1, 2, 3]);

SELECT repeat(1, 10001);

SELECT repeat(1, -1);

SELECT ngrams(ARRAY[1], 0);

SELECT combinations(ARRAY[1], 6);

SELECT combinations(ARRAY[1], -1);

SELECT combinations(sequence(1, 1000), 5);

SELECT array_histogram(ARRAY[42, 7, 42, NULL]);

SELECT array_histogram(ARRAY[NULL, NULL]);

SELECT cardinality(ngrams(sequence(1, 10000), 5000));

SELECT array_sort(ARRAY[TIMESTAMP '1973-07-08 22:00:01', TIMESTAMP '1970-01-01 00:00:01', TIMESTAMP '1989-02-06 12:00:00']);

SELECT array_distinct(ARRAY[DATE '2020-01-02', DATE '2020-01-01', DATE '2020-01-02']);

SELECT array_sort(ARRAY[INTERVAL '2' DAY, INTERVAL '1' DAY]);

SELECT contains(ARRAY[INTERVAL '1' MONTH], INTERVAL '1' MONTH);

SELECT array_sort(ARRAY[2.3, 2.1, 2.2]);

SELECT array_sort(ARRAY[ROW(2, 'a'), ROW(1, 'b'), ROW(1, 'a')]);

SELECT array_distinct(ARRAY[CAST('abc' AS varbinary), CAST('abc' AS varbinary)]);

SELECT element_at(ARRAY[CAST('abc' AS varbinary)], -1) = CAST('abc' AS varbinary);

SELECT array_max(ARRAY[CAST('ab' AS varbinary), CAST('b' AS varbinary)]) = CAST('b' AS varbinary);

SELECT array_sort(ARRAY[CAST('Р' AS varbinary), CAST('h' AS varbinary)]);

SELECT array_join(ARRAY[DATE '2020-01-02', NULL], ',', 'none');

SELECT array_join(ARRAY[TIMESTAMP '2020-01-02 03:04:05.123'], ',');

SELECT ARRAY[1, NULL] = ARRAY[1, 2];

SELECT ARRAY[1, 2] <> ARRAY[1];

SELECT ARRAY[1] = ARRAY[1.0E0];

SELECT ARRAY[2] > ARRAY[1, 5];

SELECT ARRAY['a', 'b'] >= ARRAY['a'];

SELECT ARRAY[infinity()];

SELECT array_max(ARRAY[1e0, infinity()]);

SELECT contains(ARRAY[infinity()], infinity());

SELECT MAP(ARRAY['a'], ARRAY[-infinity()]);

SELECT CAST(ARRAY[infinity(), nan()] AS JSON);

SELECT x > 0 FROM UNNEST(ARRAY[infinity(), -infinity()]) AS t(x);
