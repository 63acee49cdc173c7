-- family: project_semantics_unnest
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/unnest.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT * FROM UNNEST(ARRAY[1,2]) AS t(number);

SELECT * FROM UNNEST(map_from_entries(ARRAY[('SQL', 1974), ('Java', 1995)])) AS t(language, first_appeared_year);

SELECT * FROM UNNEST(ARRAY[ROW('Java', 1995), ROW('SQL' , 1974)], ARRAY[ROW(false), ROW(true)]) as t(language, first_appeared_year, declarative);

SELECT a, b, rownumber FROM UNNEST (ARRAY[2, 5], ARRAY[7, 8, 9]) WITH ORDINALITY AS t(a, b, rownumber);

SELECT * FROM UNNEST (ARRAY[]) AS t(value);

SELECT * FROM UNNEST (CAST(null AS ARRAY(integer))) AS t(number);

SELECT x FROM UNNEST(ARRAY[ARRAY[1, 2], NULL, ARRAY[]]) AS t(x);

SELECT x, n FROM UNNEST(ARRAY['a', NULL, 'c']) WITH ORDINALITY AS t(x, n) WHERE n > 1;

SELECT sum(x) FROM UNNEST(ARRAY[1, 2, 3]) AS t(x);

SELECT * FROM UNNEST(ARRAY[1, 2]);

SELECT * FROM UNNEST(ARRAY[CAST(ROW(1, 'a') AS row(id integer, tag varchar))]) WITH ORDINALITY;

SELECT * FROM UNNEST(MAP(ARRAY['k'], ARRAY[1.5E0])) AS m(k, v);

SELECT * FROM UNNEST(ARRAY[1], ARRAY[2]) AS t(x);

SELECT y FROM UNNEST(ARRAY[1]) AS t(x);

SELECT student, score FROM (VALUES ('John', ARRAY[7, 10, 9]), ('Mary', ARRAY[4, 8, 9])) AS tests (student, scores) CROSS JOIN UNNEST(scores) AS t(score);

SELECT numbers, animals, n, a FROM (VALUES (ARRAY[2, 5], ARRAY['dog', 'cat', 'bird']), (ARRAY[7, 8, 9], ARRAY['cow', 'pig'])) AS x (numbers, animals) CROSS JOIN UNNEST(numbers, animals) AS t (n, a);

SELECT runner, checkpoint FROM (VALUES ('Joe', ARRAY[10, 20, 30, 42]), ('Roger', ARRAY[10]), ('Dave', ARRAY[]), ('Levi', NULL)) AS marathon (runner, checkpoints) LEFT JOIN UNNEST(checkpoints) AS t(checkpoint) ON TRUE;

SELECT r.name, x FROM region r, UNNEST(ARRAY[r.regionkey, r.regionkey * 10]) AS u(x) WHERE r.regionkey < 2 ORDER BY r.name, x;

SELECT (SELECT sum(x) FROM UNNEST(ARRAY[n.nationkey, 1]) AS u(x)) FROM nation n WHERE n.nationkey = 3;

SELECT k, count(*) FROM nation CROSS JOIN UNNEST(ARRAY[regionkey]) AS u(k) GROUP BY k ORDER BY k;

SELECT n.name, k, v FROM nation n CROSS JOIN UNNEST(MAP(ARRAY[n.name], ARRAY[n.nationkey])) AS m(k, v) WHERE n.nationkey = 1;

SELECT name, x, y FROM nation CROSS JOIN LATERAL (SELECT name || ' :-' AS x) CROSS JOIN LATERAL (SELECT x || ')' AS y) WHERE nationkey = 0;

SELECT r.name, l.n FROM region r, LATERAL (SELECT count(*) AS n FROM nation WHERE nation.regionkey = r.regionkey) AS l ORDER BY r.name LIMIT 2;

SELECT r.regionkey, l.name FROM region r LEFT JOIN LATERAL (SELECT name FROM nation WHERE nation.regionkey = r.regionkey AND nation.nationkey > 23) AS l ON TRUE ORDER BY r.regionkey;

SELECT r.regionkey, l.name FROM region r CROSS JOIN LATERAL (SELECT name FROM nation WHERE nation.regionkey = r.regionkey ORDER BY name DESC LIMIT 2) AS l WHERE r.regionkey < 2 ORDER BY r.regionkey;

SELECT x FROM nation n CROSS JOIN UNNEST(ARRAY[n.comment]) AS u(x);

SELECT n.name FROM nation n, UNNEST(ARRAY[n.comment]) AS u(x);

SELECT l.c FROM nation n CROSS JOIN LATERAL (SELECT n.comment AS c) AS l;

SELECT map_filter(MAP(ARRAY[1], ARRAY[n.name]), (k, v) -> v = n.comment) FROM nation n;

SELECT transform_values(MAP(ARRAY[n.name], ARRAY[1]), (k, v) -> length(n.comment)) FROM nation n;

SELECT map_agg(n.name, n.comment) FROM nation n;

SELECT x FROM nation n CROSS JOIN UNNEST(ARRAY[n.name]) AS u(x);

SELECT map_filter(MAP(ARRAY[1], ARRAY[n.name]), (k, v) -> v = 'x') FROM nation n;
