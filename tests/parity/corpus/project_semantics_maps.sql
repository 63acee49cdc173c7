-- family: project_semantics_maps
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/maps.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT map();

SELECT map(ARRAY[1,3], ARRAY[2,4]);

SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY[2373, 3463, 45837]);

SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', NULL, 'v3']);

SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', 'v2', 'v3'])['key2'];

SELECT MAP(ARRAY[1, 2], ARRAY[ARRAY[1, 2], ARRAY[3]]);

SELECT MAP(ARRAY['x'], ARRAY[MAP(ARRAY[1], ARRAY[2.0E0])])['x'][1];

SELECT MAP(NULL, ARRAY[1]);

SELECT map_from_entries(ARRAY[ROW(1, 'x'), ROW(2, 'y')]);

SELECT map_from_entries(ARRAY[(1, 'x'), (2, 'y')]);

SELECT (1, 'a') = ROW(1, 'a');

SELECT map_from_entries(NULL);

SELECT multimap_from_entries(ARRAY[ROW(1, 'x'), ROW(2, 'y'), ROW(1, 'z')]);

SELECT map_entries(MAP(ARRAY[1, 2], ARRAY['x', 'y']));

SELECT MAP(ARRAY [1], ARRAY [2, 4]);

SELECT MAP(ARRAY [1, 2, 3, 2], ARRAY [4, 5, 6, 7]);

SELECT MAP(ARRAY [ARRAY [1, 2], ARRAY [1, 3], ARRAY [1, 2]], ARRAY [1, 2, 3]);

SELECT MAP(ARRAY [1, NULL], ARRAY [2, 4]);

SELECT MAP(ARRAY [1], 2);

SELECT map_from_entries(ARRAY[ROW(1, 'x'), NULL]);

SELECT map_from_entries(ARRAY[ROW(NULL, 'x')]);

SELECT map_from_entries(ARRAY[ROW('a', 1), ROW('a', 2)]);

SELECT map_from_entries(ARRAY[1]);

SELECT map_entries(ARRAY[1]);

SELECT map_keys(MAP(ARRAY['1', '3'], ARRAY['2', '4']));

SELECT map_keys(MAP(ARRAY[ARRAY[1, 2], ARRAY[3]], ARRAY['a', 'b']));

SELECT map_values(MAP(ARRAY['1'], ARRAY[ARRAY[TRUE, FALSE, NULL]]));

SELECT map_values(MAP(ARRAY[1, 2], ARRAY[NULL, 'x']));

SELECT map_keys(map());

SELECT map_concat(MAP(ARRAY[1, 2], ARRAY['a', 'b']), MAP(ARRAY[2, 3], ARRAY['c', 'd']));

SELECT map_concat(MAP(ARRAY[1], ARRAY[1]), MAP(ARRAY[1, 2], ARRAY[2, 2]), MAP(ARRAY[BIGINT '3'], ARRAY[3]));

SELECT map_concat(MAP(ARRAY[1], ARRAY[1]), NULL);

SELECT map_keys(map_concat(MAP(ARRAY['k', 'j'], ARRAY[1, 2]), MAP(ARRAY['k'], ARRAY[3])));

SELECT map_concat(MAP(ARRAY[1], ARRAY[1]), MAP(ARRAY['a'], ARRAY[1]));

SELECT map_filter(MAP(ARRAY[], ARRAY[]), (k, v) -> true);

SELECT map_filter(MAP(ARRAY[10, 20, 30], ARRAY['a', NULL, 'c']), (k, v) -> v IS NOT NULL);

SELECT map_filter(MAP(ARRAY['k1', 'k2', 'k3'], ARRAY[20, 3, 15]), (k, v) -> v > 10);

SELECT transform_keys(MAP(ARRAY[], ARRAY[]), (k, v) -> k + 1);

SELECT transform_keys(MAP(ARRAY [1, 2, 3], ARRAY ['a', 'b', 'c']), (k, v) -> k + 1);

SELECT transform_keys(MAP(ARRAY ['a', 'b', 'c'], ARRAY [1, 2, 3]), (k, v) -> v * v);

SELECT transform_keys(MAP(ARRAY ['a', 'b'], ARRAY [1, 2]), (k, v) -> k || CAST(v as VARCHAR));

SELECT transform_keys(MAP(ARRAY [1, 2], ARRAY [1.0, 1.4]), (k, v) -> MAP(ARRAY[1, 2], ARRAY['one', 'two'])[k]);

SELECT map_zip_with(MAP(ARRAY[1, 2, 3], ARRAY['a', 'b', 'c']), MAP(ARRAY[1, 2, 3], ARRAY['d', 'e', 'f']), (k, v1, v2) -> concat(v1, v2));

SELECT map_zip_with(MAP(ARRAY['k1', 'k2'], ARRAY[1, 2]), MAP(ARRAY['k2', 'k3'], ARRAY[4, 9]), (k, v1, v2) -> ROW(v1, v2));

SELECT map_zip_with(MAP(ARRAY['a', 'b', 'c'], ARRAY[1, 8, 27]), MAP(ARRAY['a', 'b', 'c'], ARRAY[1, 2, 3]), (k, v1, v2) -> k || CAST(v1 / v2 AS VARCHAR));

SELECT transform_values(MAP(ARRAY [1, 2, 3], ARRAY [10, 20, 30]), (k, v) -> v + k);

SELECT transform_values(MAP(ARRAY [1, 2, 3], ARRAY ['a', 'b', 'c']), (k, v) -> k * k);

SELECT transform_values(MAP(ARRAY ['a', 'b'], ARRAY [1, 2]), (k, v) -> k || CAST(v as VARCHAR));

SELECT transform_values(MAP(ARRAY [1, 2], ARRAY [1.0, 1.4]), (k, v) -> MAP(ARRAY[1, 2], ARRAY['one', 'two'])[k] || '_' || CAST(v AS VARCHAR));

SELECT transform_values(CAST(NULL AS map(integer, integer)), (k, v) -> v);

SELECT map_keys(map_filter(MAP(ARRAY[1, 2, 3], ARRAY[10, 20, 30]), (k, v) -> k <= n.regionkey)) FROM nation n WHERE n.nationkey = 1;

SELECT transform_keys(MAP(ARRAY[1, 2], ARRAY['a', 'b']), (k, v) -> 7);

SELECT transform_keys(MAP(ARRAY[1, 2], ARRAY['a', 'b']), (k, v) -> NULL);

SELECT map_filter(MAP(ARRAY[1], ARRAY[2]), (k, v) -> 1);

SELECT map_filter(MAP(ARRAY[1], ARRAY[2]), k -> true);

SELECT map_agg(k, v) FROM (VALUES ('a', 1), ('b', NULL), (NULL, 3), ('a', 4)) AS t(k, v);

SELECT map_agg(k, v) FROM (VALUES ('a', 1)) AS t(k, v) WHERE k = 'z';

SELECT multimap_agg(k, v) FROM (VALUES (1, 'x'), (2, 'y'), (1, 'z'), (1, NULL)) AS t(k, v);

SELECT histogram(x) FROM (VALUES 'a', 'b', 'a', NULL) AS t(x);

SELECT histogram(regionkey) FROM nation;

SELECT map_agg(name, regionkey) FILTER (WHERE nationkey < 2) FROM nation;

SELECT map_agg(r.name, ARRAY[r.regionkey])['ASIA'] FROM region r;

SELECT regionkey, map_keys(map_agg(nationkey, name ORDER BY nationkey DESC)) FROM nation WHERE regionkey = 0 GROUP BY regionkey;

SELECT map_keys(map_agg(nationkey, name)) FROM nation;

SELECT map_keys(map_agg(name, 1)) FROM nation WHERE nationkey < 13;

SELECT map_keys(map_agg(x, 1)) FROM (VALUES 'ALGERIA', 'ARGENTINA', 'BRAZIL', 'CANADA', 'EGYPT', 'ETHIOPIA', 'FRANCE', 'GERMANY', 'INDIA', 'INDONESIA', 'IRAN', 'IRAQ', 'JAPAN') t(x);

SELECT map_keys(map_agg(x, 1)) FROM (VALUES 1.5e0, 0e0, -0e0, nan(), 2e0, infinity()) t(x);

SELECT x, map_keys(map_agg(x, x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)) FROM (VALUES 1, 2, 3) AS t(x) ORDER BY x;

SELECT x, histogram(y) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1, 'a'), (2, 'a'), (3, 'b')) AS t(x, y) ORDER BY x;

SELECT ROW(2, 1) != ROW(1, 2);

SELECT row(1, CAST(NULL AS INTEGER)) = row(1, 2);

SELECT row(1, CAST(NULL AS INTEGER)) != row(1, 2);

SELECT row(2, CAST(NULL AS INTEGER)) = row(1, 2);

SELECT row(2, CAST(NULL AS INTEGER)) != row(1, 2);

SELECT row(TRUE, ARRAY [1], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0])) = row(TRUE, ARRAY [1, 2], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0]));

SELECT row(TRUE, ARRAY [1, 2], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0])) = row(TRUE, ARRAY [1, 2], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0]));

SELECT ROW(1, 2) < ROW(2, 1);

SELECT ROW(1, 2) >= ROW(2, 1);

SELECT row(1.0E0, 'kittens') < row(1.0E0, 'puppies');

SELECT row(1, 2.0E0) > row(5, 2.0E0);

SELECT row(TRUE, FALSE, TRUE, FALSE) <= row(TRUE, TRUE, TRUE, FALSE);

SELECT row(1.0E0, ARRAY [1,2,3], row(2, 2.0E0)) < row(1.0E0, ARRAY [1,3,3], row(2, 2.0E0));

SELECT row(TRUE, ARRAY [1]) < row(TRUE, ARRAY [1, 2]);

SELECT CAST(NULL AS row(a integer)) < ROW(1);

SELECT MAP(ARRAY[1, 3], ARRAY[2, 4]) = MAP(ARRAY[3, 1], ARRAY[4, 2]);

SELECT MAP(ARRAY[1, 3], ARRAY[2, 4]) != MAP(ARRAY[1], ARRAY[2]);

SELECT MAP(ARRAY[1], ARRAY[NULL]) = MAP(ARRAY[1], ARRAY[2]);

SELECT row(1, CAST(NULL AS INTEGER)) < row(1, 2);

SELECT row(TRUE, ARRAY [1, 2], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0])) > row(TRUE, ARRAY [1, 2], MAP(ARRAY[1, 3], ARRAY[2.0E0, 4.0E0]));

SELECT MAP(ARRAY[1], ARRAY[2]) < MAP(ARRAY[1], ARRAY[2]);

SELECT ROW(1, 2) = ROW(1);

SELECT MAP(ARRAY['a'], ARRAY[1]) IS DISTINCT FROM MAP(ARRAY['a'], ARRAY[2]);

SELECT MAP(ARRAY['a'], ARRAY[1]) IS DISTINCT FROM NULL;

SELECT MAP(ARRAY['a', 'b'], ARRAY[1, 2]) IN (MAP(ARRAY['b', 'a'], ARRAY[2, 1]));

SELECT MAP(ARRAY['a'], ARRAY[1]) IN (MAP(ARRAY['a'], ARRAY[2]), NULL);

SELECT map_concat(NULL);
