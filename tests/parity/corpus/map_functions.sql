-- family: map_functions
-- source: Trino 476 docs, functions/map.md (https://trino.io/docs/476/functions/map.html)

-- Constructor
SELECT MAP(ARRAY['alpha', 'beta', 'gamma'], ARRAY[101, 202, 303]);
SELECT MAP(ARRAY['alpha', 'beta'], ARRAY['one', 'two']);
SELECT MAP(ARRAY['alpha', 'beta', 'gamma'], ARRAY[7, 8.25, 9.125]);
SELECT MAP(ARRAY['alpha', 'beta', 'gamma'], ARRAY['one', NULL, 'three']);
SELECT map(), cardinality(map());
SELECT MAP(ARRAY[5, 7], ARRAY[6, 8]);
SELECT MAP(ARRAY[], ARRAY[]);
SELECT MAP(ARRAY[DATE '2024-02-29'], ARRAY['leap']);
SELECT MAP(ARRAY[1.5, 2.5], ARRAY[true, false]);
SELECT MAP(ARRAY[ARRAY[1], ARRAY[2, 3]], ARRAY['a', 'b']);
SELECT MAP(ARRAY['k'], ARRAY[MAP(ARRAY['n'], ARRAY[1])]);
SELECT MAP(ARRAY['k'], ARRAY[ARRAY[1, 2]]);
SELECT CAST(NULL AS map(varchar, integer));
SELECT CAST(MAP(ARRAY[1, 2], ARRAY[3, 4]) AS map(varchar, double));
SELECT CAST(MAP(ARRAY['a'], ARRAY[1]) AS json);
SELECT CAST(JSON '{"x": 1, "y": null}' AS map(varchar, integer));

-- Subscript and element_at
SELECT MAP(ARRAY['alpha', 'beta', 'gamma'], ARRAY['one', 'two', 'three'])['gamma'];
SELECT MAP(ARRAY[5, 7], ARRAY[6, 8])[7];
SELECT MAP(ARRAY['a'], ARRAY[CAST(NULL AS integer)])['a'];
SELECT element_at(MAP(ARRAY['a', 'b'], ARRAY[1, 2]), 'b');
SELECT element_at(MAP(ARRAY['a', 'b'], ARRAY[1, 2]), 'z');
SELECT element_at(MAP(ARRAY[1.0, 2.0], ARRAY['x', 'y']), 2);
SELECT element_at(MAP(ARRAY[BIGINT '10'], ARRAY['x']), 10);
SELECT MAP(ARRAY['k'], ARRAY[MAP(ARRAY['n'], ARRAY[1])])['k']['n'];

-- cardinality, map_keys, map_values, map_entries
SELECT cardinality(MAP(ARRAY['a', 'b', 'c'], ARRAY[1, 2, 3]));
SELECT cardinality(map());
SELECT cardinality(CAST(NULL AS map(integer, integer)));
SELECT array_sort(map_keys(MAP(ARRAY['q', 'a', 'm'], ARRAY[1, 2, 3])));
SELECT array_sort(map_values(MAP(ARRAY['q', 'a', 'm'], ARRAY[30, 10, 20])));
SELECT array_sort(map_values(MAP(ARRAY['q', 'a'], ARRAY[NULL, 10])));
SELECT map_keys(map()), map_values(map());
SELECT array_sort(map_entries(MAP(ARRAY[2, 1], ARRAY['y', 'x'])));
SELECT map_entries(MAP(ARRAY[9], ARRAY['only']));
SELECT map_entries(map());

-- map_from_entries, multimap_from_entries
SELECT map_from_entries(ARRAY[(3, 'p'), (4, 'q')]);
SELECT map_from_entries(ARRAY[('a', 1), ('b', NULL)]);
SELECT map_from_entries(ARRAY[]);
SELECT map_from_entries(CAST(ARRAY[] AS array(row(varchar, integer))));
SELECT map_from_entries(ARRAY[ROW('x', ARRAY[1, 2])]);
SELECT map_from_entries(map_entries(MAP(ARRAY['r', 's'], ARRAY[1, 2])));
SELECT multimap_from_entries(ARRAY[(3, 'p'), (4, 'q'), (3, 'r')]);
SELECT multimap_from_entries(ARRAY[('a', 1), ('a', NULL), ('b', 2)]);
SELECT multimap_from_entries(ARRAY[(1, 'only')]);

-- map_concat
SELECT map_concat(MAP(ARRAY['a', 'b'], ARRAY[1, 2]), MAP(ARRAY['c'], ARRAY[3]));
SELECT map_concat(MAP(ARRAY['a', 'b'], ARRAY[1, 2]), MAP(ARRAY['b', 'c'], ARRAY[20, 30]));
SELECT map_concat(MAP(ARRAY['a'], ARRAY[1]), MAP(ARRAY['a'], ARRAY[2]), MAP(ARRAY['a'], ARRAY[3]));
SELECT map_concat(map(), MAP(ARRAY[1], ARRAY[1]));
SELECT map_concat(MAP(ARRAY['a'], ARRAY[1]), CAST(NULL AS map(varchar(1), integer)));
SELECT map_concat(MAP(ARRAY['a'], ARRAY[1]));

-- Comparison and other operators
SELECT MAP(ARRAY['a', 'b'], ARRAY[1, 2]) = MAP(ARRAY['b', 'a'], ARRAY[2, 1]);
SELECT MAP(ARRAY['a'], ARRAY[1]) <> MAP(ARRAY['a'], ARRAY[2]);
SELECT MAP(ARRAY['a'], ARRAY[NULL]) = MAP(ARRAY['a'], ARRAY[NULL]);
SELECT MAP(ARRAY['a'], ARRAY[NULL]) IS DISTINCT FROM MAP(ARRAY['a'], ARRAY[NULL]);
SELECT MAP(ARRAY['a'], ARRAY[1]) IN (MAP(ARRAY['a'], ARRAY[1]));
SELECT contains(map_keys(MAP(ARRAY['a', 'b'], ARRAY[1, 2])), 'b');

-- Maps with UNNEST and over tpch.tiny
SELECT k, v FROM UNNEST(MAP(ARRAY['x', 'y', 'z'], ARRAY[1, 2, 3])) AS t(k, v) ORDER BY k;
SELECT count(*) FROM UNNEST(map()) AS t(k, v);
SELECT k, v FROM UNNEST(MAP(ARRAY[2, 1], ARRAY[NULL, 'b'])) AS t(k, v) ORDER BY k;
SELECT MAP(ARRAY['name', 'comment'], ARRAY[name, substr(comment, 1, 10)]) FROM tpch.tiny.region ORDER BY regionkey;
SELECT r.name, cardinality(m) FROM (SELECT regionkey, map_agg(nationkey, name) AS m FROM tpch.tiny.nation GROUP BY regionkey) x JOIN tpch.tiny.region r ON r.regionkey = x.regionkey ORDER BY r.name;
SELECT element_at(map_agg(name, nationkey), 'KENYA'), element_at(map_agg(name, nationkey), 'ATLANTIS') FROM tpch.tiny.nation;
SELECT map_agg(name, regionkey)['FRANCE'] FROM tpch.tiny.nation;
SELECT array_sort(map_keys(histogram(orderstatus))) FROM tpch.tiny.orders;
SELECT histogram(orderpriority)['1-URGENT'] FROM tpch.tiny.orders;
SELECT map_from_entries(array_agg(ROW(regionkey, name) ORDER BY regionkey)) FROM tpch.tiny.region;
SELECT multimap_from_entries(array_agg(ROW(regionkey, name) ORDER BY name)) FROM tpch.tiny.nation WHERE nationkey < 8;
SELECT map_concat(map_agg(name, 1), MAP(ARRAY['ASIA'], ARRAY[99])) FROM tpch.tiny.region;
SELECT n.nationkey, MAP(ARRAY['region'], ARRAY[r.name]) FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.regionkey = r.regionkey WHERE n.nationkey < 4 ORDER BY n.nationkey;
SELECT CAST(map_agg(name, regionkey) AS json) IS NOT NULL FROM tpch.tiny.region;

-- Refusals
SELECT MAP(ARRAY['a'], ARRAY[1])['b'];
SELECT MAP(ARRAY['a', 'a'], ARRAY[1, 2]);
SELECT MAP(ARRAY['a', NULL], ARRAY[1, 2]);
SELECT MAP(ARRAY['a', 'b'], ARRAY[1]);
SELECT map_from_entries(ARRAY[(1, 'x'), (1, 'y')]);
SELECT map_from_entries(ARRAY[(NULL, 'x')]);
SELECT MAP(ARRAY['a'], ARRAY[1]) < MAP(ARRAY['a'], ARRAY[2]);
SELECT map_keys(ARRAY[1]);
SELECT element_at(MAP(ARRAY['a'], ARRAY[1]), 1);

-- source: Trino 476 docs, functions/map.md: its examples as written (extracted page by page)
SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY['v1', 'v2', 'v3']);
SELECT MAP(ARRAY['key1', 'key2', 'key3' ], ARRAY[23, 34.63, 45.837]);
SELECT multimap_from_entries(ARRAY[(1, 'x'), (2, 'y'), (1, 'z')]);
SELECT map_zip_with(MAP(ARRAY['k1', 'k2'], ARRAY[1, 2]), MAP(ARRAY['k2', 'k3'], ARRAY[4, 9]), (k, v1, v2) -> (v1, v2));
