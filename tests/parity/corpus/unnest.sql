-- family: unnest
-- source: Trino 476 docs, sql/select.md UNNEST (https://trino.io/docs/476/sql/select.html#unnest)
-- source: trinodb/trino core/trino-main/src/test/java/io/trino/sql/query/TestUnnest.java
-- source: trinodb/trino testing/trino-testing/src/main/java/io/trino/testing/AbstractTestQueries.java (testUnnest*)

SELECT * FROM UNNEST(ARRAY[1, 2, 3]);
SELECT * FROM UNNEST(ARRAY[1, 2, 3]) AS t(x) ORDER BY x DESC;
SELECT x FROM UNNEST(ARRAY['b', 'a', NULL]) t(x) ORDER BY x NULLS FIRST;
SELECT * FROM UNNEST(ARRAY[]);
SELECT count(*) FROM UNNEST(CAST(ARRAY[] AS array(integer)));
SELECT * FROM UNNEST(CAST(NULL AS array(integer)));
SELECT * FROM UNNEST(ARRAY[1, 2], ARRAY['a', 'b', 'c']) t(n, s) ORDER BY s;
SELECT * FROM UNNEST(ARRAY[1, 2, 3], ARRAY[10]) t(a, b) ORDER BY a;
SELECT * FROM UNNEST(ARRAY[1, 2], ARRAY[3, 4], ARRAY[5, 6]) t(a, b, c) ORDER BY a;
SELECT * FROM UNNEST(MAP(ARRAY['k1', 'k2'], ARRAY[10, 20])) t(k, v) ORDER BY k;
SELECT * FROM UNNEST(MAP(ARRAY[1], ARRAY['x']), ARRAY[7, 8]) t(k, v, n) ORDER BY n;
SELECT * FROM UNNEST(ARRAY[ROW(1, 'a'), ROW(2, 'b')]) t(n, s) ORDER BY n;
SELECT * FROM UNNEST(ARRAY[CAST(ROW(1, 'a') AS row(id integer, tag varchar))]);
SELECT * FROM UNNEST(ARRAY[ARRAY[1, 2], ARRAY[3]]) t(inner_arr) ORDER BY cardinality(inner_arr);
SELECT typeof(x) FROM UNNEST(ARRAY[1.5, 2.25]) t(x) LIMIT 1;
SELECT sum(x) FROM UNNEST(sequence(1, 100)) t(x);

-- WITH ORDINALITY
SELECT * FROM UNNEST(ARRAY['a', 'b', 'c']) WITH ORDINALITY t(v, i) ORDER BY i;
SELECT * FROM UNNEST(ARRAY['a', 'b'], ARRAY[1, 2, 3]) WITH ORDINALITY t(s, n, ord) ORDER BY ord;
SELECT * FROM UNNEST(MAP(ARRAY[5], ARRAY[50])) WITH ORDINALITY t(k, v, o);
SELECT typeof(o) FROM UNNEST(ARRAY[1]) WITH ORDINALITY t(x, o);
SELECT * FROM UNNEST(ARRAY[7, 8]) WITH ORDINALITY ORDER BY 2;

-- CROSS JOIN UNNEST
SELECT id, x FROM (VALUES (1, ARRAY[10, 11]), (2, ARRAY[20])) t(id, arr) CROSS JOIN UNNEST(arr) AS u(x) ORDER BY id, x;
SELECT id, x FROM (VALUES (1, ARRAY[10, 11]), (2, ARRAY[]), (3, NULL)) t(id, arr) CROSS JOIN UNNEST(arr) AS u(x) ORDER BY id, x;
SELECT id, x, o FROM (VALUES (1, ARRAY['p', 'q']), (2, ARRAY['r'])) t(id, arr) CROSS JOIN UNNEST(arr) WITH ORDINALITY AS u(x, o) ORDER BY id, o;
SELECT id, k, v FROM (VALUES (1, MAP(ARRAY['a', 'b'], ARRAY[1, 2]))) t(id, m) CROSS JOIN UNNEST(m) AS u(k, v) ORDER BY k;
SELECT id, a, b FROM (VALUES (1, ARRAY[1, 2], ARRAY['x'])) t(id, x, y) CROSS JOIN UNNEST(x, y) AS u(a, b) ORDER BY a;
SELECT n.name, w FROM tpch.tiny.nation n CROSS JOIN UNNEST(split(n.name, ' ')) AS u(w) WHERE n.nationkey IN (22, 23, 24) ORDER BY 1, 2;
SELECT r.name, u.x FROM tpch.tiny.region r CROSS JOIN UNNEST(ARRAY[r.regionkey, r.regionkey * 10]) u(x) WHERE r.regionkey < 3 ORDER BY 1, 2;
SELECT regionkey, count(*) FROM tpch.tiny.region, UNNEST(sequence(0, regionkey)) t(i) GROUP BY regionkey ORDER BY 1;
SELECT x, y FROM UNNEST(ARRAY[1, 2]) a(x) CROSS JOIN UNNEST(ARRAY['a', 'b']) b(y) ORDER BY 1, 2;
SELECT t.id, u.n, u.s FROM (VALUES (1, ARRAY[ROW(1, 'a'), ROW(2, 'b')])) t(id, r) CROSS JOIN UNNEST(r) u(n, s) ORDER BY u.n;
SELECT word, count(*) FROM tpch.tiny.region CROSS JOIN UNNEST(split(comment, ' ')) u(word) WHERE word IN ('final', 'regular', 'ironic') GROUP BY word ORDER BY word;
SELECT c.custkey, d FROM tpch.tiny.customer c CROSS JOIN UNNEST(ARRAY[c.acctbal, -c.acctbal]) u(d) WHERE c.custkey = 1 ORDER BY d;
SELECT id, x FROM (VALUES (1, ARRAY[3, 1, 2])) t(id, arr), UNNEST(arr) u(x) ORDER BY x;

-- LEFT JOIN UNNEST ... ON true
SELECT id, x FROM (VALUES (1, ARRAY[10, 11]), (2, ARRAY[]), (3, NULL)) t(id, arr) LEFT JOIN UNNEST(arr) AS u(x) ON true ORDER BY id, x;
SELECT id, x, o FROM (VALUES (1, ARRAY['a']), (2, CAST(ARRAY[] AS array(varchar)))) t(id, arr) LEFT JOIN UNNEST(arr) WITH ORDINALITY u(x, o) ON true ORDER BY id;
SELECT id, k, v FROM (VALUES (1, MAP(ARRAY[1], ARRAY[2])), (2, NULL)) t(id, m) LEFT JOIN UNNEST(m) u(k, v) ON true ORDER BY id;
SELECT count(*), count(x) FROM (VALUES ARRAY[1, 2], ARRAY[], NULL) t(arr) LEFT JOIN UNNEST(arr) u(x) ON true;

-- UNNEST in subqueries and aggregation
SELECT array_agg(x * 2 ORDER BY x) FROM UNNEST(ARRAY[3, 1, 2]) t(x);
SELECT (SELECT max(x) FROM UNNEST(arr) t(x)) FROM (VALUES ARRAY[4, 9, 2]) v(arr);
SELECT id, (SELECT sum(x) FROM UNNEST(arr) u(x)) FROM (VALUES (1, ARRAY[1, 2]), (2, ARRAY[5])) t(id, arr) ORDER BY id;
SELECT x FROM UNNEST(ARRAY[5, 3, 5, 1]) t(x) GROUP BY x ORDER BY x;
SELECT x FROM UNNEST(ARRAY[1, 2, 3, 4]) t(x) WHERE x % 2 = 0 ORDER BY x;
SELECT * FROM UNNEST(ARRAY[1, 2]) t(x) UNION ALL SELECT * FROM UNNEST(ARRAY[3]) ORDER BY 1;
SELECT a.x FROM UNNEST(ARRAY[1, 2, 3]) a(x) JOIN UNNEST(ARRAY[2, 3, 4]) b(y) ON a.x = b.y ORDER BY 1;
SELECT x FROM UNNEST(ARRAY[1, 2, 3]) t(x) WHERE x IN (SELECT * FROM UNNEST(ARRAY[3, 1])) ORDER BY x;

SELECT n.name, s.x FROM tpch.tiny.nation n CROSS JOIN UNNEST(ARRAY[n.nationkey, n.regionkey]) WITH ORDINALITY s(x, o) WHERE n.nationkey = 7 ORDER BY o;
SELECT k, sum(v) FROM UNNEST(MAP(ARRAY['a', 'b', 'c'], ARRAY[1, 2, 3])) t(k, v) WHERE k <> 'b' GROUP BY k ORDER BY k;
SELECT cardinality(arr), count(*) FROM (VALUES ARRAY[1], ARRAY[1, 2], ARRAY[3]) t(arr) CROSS JOIN UNNEST(arr) u(x) GROUP BY cardinality(arr) ORDER BY 1;
SELECT x FROM UNNEST(sequence(DATE '2024-02-27', DATE '2024-03-02', INTERVAL '1' DAY)) t(x) ORDER BY x;
SELECT typeof(x) FROM UNNEST(sequence(DATE '2024-02-27', DATE '2024-02-28', INTERVAL '1' DAY)) t(x) LIMIT 1;
SELECT * FROM UNNEST(ARRAY[1, 2]) WITH ORDINALITY t(x, o) WHERE o = 2;
SELECT s.* FROM (VALUES ARRAY['p', 'q']) t(arr) CROSS JOIN UNNEST(arr) AS s(letter) ORDER BY letter;

-- refusals
SELECT * FROM UNNEST(1);
SELECT * FROM UNNEST(ARRAY[1, 2]) t(a, b);
SELECT * FROM UNNEST('abc');
SELECT id, x FROM (VALUES (1, ARRAY[1])) t(id, arr) LEFT JOIN UNNEST(arr) u(x) ON x > 0;
SELECT * FROM (VALUES (1, ARRAY[1])) t(id, arr) RIGHT JOIN UNNEST(arr) u(x) ON true;
