-- family: row_functions
-- source: Trino 476 docs, functions/row.md (https://trino.io/docs/476/functions/row.html) and language/types.md (ROW)

-- source: functions/row.md, ROW construction and CAST to named fields
SELECT ROW(7, 'q', false);
SELECT typeof(ROW(1, 'a', true));
SELECT CAST(ROW('Bob', 42) AS ROW(name VARCHAR, age INTEGER));
SELECT typeof(CAST(ROW('Bob', 42) AS ROW(name VARCHAR, age INTEGER)));
SELECT ROW(NULL, NULL);
SELECT ROW(1, ROW(2, ROW(3)));
SELECT ROW(ARRAY[1, 2], MAP(ARRAY['k'], ARRAY[1.5]));
SELECT (1, 'x');
SELECT typeof((1, 'x'));
SELECT ROW(1);
SELECT CAST(ROW(1, ROW('x', 2)) AS ROW(id bigint, inner_row ROW(tag varchar, n double)));
SELECT CAST(NULL AS ROW(a integer, b varchar));
SELECT CAST(ROW('12', '3.5') AS ROW(a integer, b double));
SELECT CAST(ROW(1, 2) AS ROW(a integer, b integer, c integer));
SELECT CAST(ROW('x', 1) AS ROW(a integer, b integer));
SELECT CAST(ROW(1, 2) AS ROW("Mixed Case" integer, "x y" integer));
SELECT CAST(ROW(1) AS ROW(a integer, a integer));

-- source: language/types.md, ROW field access
SELECT CAST(ROW('Bob', 42) AS ROW(name VARCHAR, age INTEGER)).age;
SELECT CAST(ROW('Bob', 42) AS ROW(name VARCHAR, age INTEGER)).name;
SELECT r.age FROM (SELECT CAST(ROW('Ann', 30) AS ROW(name varchar, age integer)) AS r);
SELECT r.inner_row.tag FROM (SELECT CAST(ROW(1, ROW('x', 2)) AS ROW(id bigint, inner_row ROW(tag varchar, n double))) AS r);
SELECT ROW(10, 'b')[1];
SELECT ROW(10, 'b')[2];
SELECT CAST(ROW(1, 2) AS ROW(a integer, b integer))[2];
SELECT ROW(10, 'b')[3];
SELECT ROW(10, 'b')[0];
SELECT CAST(ROW(1, 2) AS ROW(a integer, b integer)).c;
SELECT CAST(NULL AS ROW(a integer)).a;
SELECT CAST(ROW(1, 2) AS ROW(a integer, b integer)).A;
SELECT x.f FROM (SELECT CAST(ROW(1) AS ROW(f integer)) AS x UNION ALL SELECT CAST(ROW(2) AS ROW(f integer))) t ORDER BY x.f DESC;
SELECT t.r.k, t.r.v FROM (SELECT CAST(ROW(regionkey, name) AS ROW(k bigint, v varchar(25))) AS r FROM tpch.tiny.region) t ORDER BY t.r.k;

-- source: language/types.md, ROW comparison, DISTINCT, GROUP BY, ORDER BY
SELECT ROW(3, 4) = ROW(3, 4);
SELECT ROW(1, 2) = ROW(1, 3);
SELECT ROW(1, 2) < ROW(1, 3);
SELECT ROW(2, 0) > ROW(1, 99);
SELECT ROW(1, NULL) = ROW(1, NULL);
SELECT ROW(1, NULL) = ROW(2, NULL);
SELECT ROW(1, 'a') = ROW(1.0, 'a');
SELECT ROW(1, 2) IN (ROW(1, 2), ROW(3, 4));
SELECT ROW(1, 2) IS DISTINCT FROM ROW(1, NULL);
SELECT count(DISTINCT r) FROM (SELECT ROW(1, 'a') AS r UNION ALL SELECT ROW(1, 'a') UNION ALL SELECT ROW(2, 'a')) t;
SELECT r, count(*) FROM (SELECT ROW(1, 'a') AS r UNION ALL SELECT ROW(1, 'a') UNION ALL SELECT ROW(2, 'a')) t GROUP BY r ORDER BY r;
SELECT r FROM (SELECT ROW(2, 'a') AS r UNION ALL SELECT ROW(1, 'b') UNION ALL SELECT ROW(1, 'a')) t ORDER BY r;
SELECT max(r), min(r) FROM (SELECT ROW(2, 'a') AS r UNION ALL SELECT ROW(1, 'b') UNION ALL SELECT ROW(1, 'a')) t;
SELECT ROW(1, 2) = ROW(1, 2, 3);
SELECT ROW(1, 'a') < ROW(1, 2);

-- source: language/types.md, ROW in arrays, JSON and UNNEST
SELECT ARRAY[ROW(5, 'm'), ROW(6, 'n')];
SELECT typeof(ARRAY[ROW(1, 'a'), ROW(2, 'bc')]);
SELECT CAST(ROW(2, 'y') AS JSON);
SELECT CAST(CAST(ROW(1, 'x') AS ROW(n integer, s varchar)) AS JSON);
SELECT CAST(JSON '{"n": 5, "s": "q"}' AS ROW(n integer, s varchar));
SELECT n, s FROM UNNEST(ARRAY[ROW(1, 'a'), ROW(2, 'b')]) AS t(n, s) ORDER BY n;
SELECT transform(ARRAY[ROW(1, 2), ROW(3, 4)], r -> r[1] + r[2]);
SELECT array_agg(ROW(nationkey, name) ORDER BY nationkey) FROM tpch.tiny.nation WHERE regionkey = 2;
SELECT ROW(nationkey, name) FROM tpch.tiny.nation WHERE regionkey = 4 ORDER BY nationkey;
SELECT CAST(ROW(nationkey, name) AS ROW(id bigint, label varchar)) FROM tpch.tiny.nation WHERE regionkey = 4 ORDER BY nationkey;
SELECT x, y FROM (VALUES ROW(1, 'a'), ROW(2, 'b')) t(x, y) ORDER BY x;
SELECT count(*) FROM (VALUES ROW(1, 'a'), ROW(2, 'b')) t(r);
SELECT map_entries(MAP(ARRAY['a', 'b'], ARRAY[1, 2]));
SELECT zip(ARRAY[1, 2], ARRAY['x', 'y']);

-- source: Trino 476 docs, functions/row.md: its examples as written (extracted page by page)
SELECT CAST(ROW('Alice', 30) AS ROW(name VARCHAR, age INTEGER));
