-- family: with_queries
-- source: Trino 476 docs, sql/select.md WITH clause and WITH RECURSIVE clause (https://trino.io/docs/476/sql/select.html#with-clause)
-- source: trinodb/trino core/trino-main/src/test/java/io/trino/sql/query/TestRecursiveCte.java
-- source: trinodb/trino testing/trino-testing/src/main/java/io/trino/testing/AbstractTestQueries.java (testWith*)

WITH t AS (SELECT 1 AS x) SELECT x FROM t;
WITH t(a, b) AS (SELECT 1, 'one') SELECT b, a FROM t;
WITH t AS (SELECT nationkey, name FROM tpch.tiny.nation WHERE regionkey = 3) SELECT name FROM t ORDER BY nationkey;
WITH a AS (SELECT 1 AS v), b AS (SELECT v + 1 AS v FROM a) SELECT * FROM a UNION ALL SELECT * FROM b ORDER BY 1;
WITH a AS (SELECT 2 AS v), b AS (SELECT v * 10 AS w FROM a), c AS (SELECT w + v AS z FROM a, b) SELECT z FROM c;
WITH t AS (SELECT regionkey, count(*) AS c FROM tpch.tiny.nation GROUP BY regionkey) SELECT max(c), min(c), count(*) FROM t;
WITH t AS (SELECT * FROM tpch.tiny.region) SELECT t1.name, t2.name FROM t t1 JOIN t t2 ON t1.regionkey + 1 = t2.regionkey ORDER BY 1;
WITH big AS (SELECT custkey FROM tpch.tiny.orders WHERE totalprice > 450000) SELECT count(*) FROM tpch.tiny.customer WHERE custkey IN (SELECT custkey FROM big);
WITH t AS (SELECT 5 AS x) SELECT (SELECT x FROM t) + 1;
WITH t AS (SELECT 1 AS x) SELECT * FROM (WITH t AS (SELECT 2 AS x) SELECT x FROM t);
WITH t AS (SELECT 1 AS x) SELECT * FROM (WITH u AS (SELECT x + 1 AS y FROM t) SELECT y FROM u);
WITH t AS (SELECT 1 AS x), u AS (WITH t AS (SELECT 10 AS x) SELECT x FROM t) SELECT t.x, u.x FROM t, u;
WITH t AS (SELECT nationkey FROM tpch.tiny.nation) SELECT count(*) FROM t WHERE nationkey > (SELECT avg(nationkey) FROM t);
WITH t AS (SELECT x FROM (VALUES 3, 1, 2) v(x) ORDER BY x LIMIT 2) SELECT x FROM t ORDER BY x DESC;
WITH unused AS (SELECT 1 / 0 AS boom) SELECT 'fine';
WITH t AS (SELECT name FROM tpch.tiny.region) SELECT name FROM t WHERE name LIKE 'A%' ORDER BY 1;
WITH "Quoted" AS (SELECT 1 AS v) SELECT v FROM quoted;
WITH t AS (SELECT 1 AS v) SELECT t.v, v FROM t;
WITH t AS (SELECT orderstatus AS s, count(*) AS c FROM tpch.tiny.orders GROUP BY orderstatus) SELECT s, c * 100 / (SELECT sum(c) FROM t) FROM t ORDER BY s;
WITH a AS (SELECT 1 AS k), b AS (SELECT 1 AS k, 'b' AS w) SELECT * FROM a JOIN b USING (k);
WITH t AS (SELECT ARRAY[1, 2, 3] AS arr) SELECT cardinality(arr), arr[2] FROM t;
WITH t(x) AS (VALUES 1, 2, 3) SELECT sum(x) FROM t;
WITH t(x, y) AS (VALUES (1, 'a'), (2, 'b')) SELECT y FROM t WHERE x = 2;

-- WITH RECURSIVE
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT n FROM t ORDER BY n;
WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM t WHERE n < 10) SELECT sum(n) FROM t;
WITH RECURSIVE fib(i, a, b) AS (SELECT 1, BIGINT '0', BIGINT '1' UNION ALL SELECT i + 1, b, a + b FROM fib WHERE i < 15) SELECT i, a FROM fib ORDER BY i;
WITH RECURSIVE t(n, s) AS (SELECT 1, CAST('x' AS varchar) UNION ALL SELECT n + 1, s || 'x' FROM t WHERE n < 4) SELECT n, s FROM t ORDER BY n;
WITH RECURSIVE r(k) AS (SELECT regionkey FROM tpch.tiny.region WHERE regionkey = 0 UNION ALL SELECT k + 1 FROM r WHERE k < 4) SELECT k FROM r ORDER BY k;
WITH RECURSIVE edges(a, b) AS (VALUES (1, 2), (2, 3), (3, 4), (2, 5)), walk(node, depth) AS (SELECT 1, 0 UNION ALL SELECT e.b, w.depth + 1 FROM walk w JOIN edges e ON w.node = e.a) SELECT node, depth FROM walk ORDER BY node;
WITH RECURSIVE t(n) AS (SELECT 10 UNION ALL SELECT n - 3 FROM t WHERE n > 0) SELECT array_agg(n ORDER BY n DESC) FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n * 2 FROM t WHERE n < 100) SELECT max(n), count(*) FROM t;
WITH RECURSIVE t(d) AS (SELECT DATE '2024-01-30' UNION ALL SELECT d + INTERVAL '1' DAY FROM t WHERE d < DATE '2024-02-02') SELECT d FROM t ORDER BY d;
WITH RECURSIVE a(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM a WHERE x < 3), b AS (SELECT x * 10 AS y FROM a) SELECT y FROM b ORDER BY y;
WITH RECURSIVE t(n) AS (SELECT 1 WHERE false UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT count(*) FROM t;
WITH RECURSIVE t(n, label) AS (SELECT nationkey, name FROM tpch.tiny.nation WHERE nationkey = 24 UNION ALL SELECT n.nationkey, n.name FROM t JOIN tpch.tiny.nation n ON n.nationkey = t.n - 8) SELECT n, label FROM t ORDER BY n;

WITH RECURSIVE fib(i, a, b) AS (SELECT 1, BIGINT '0', BIGINT '1' UNION ALL SELECT i + 1, b, a + b FROM fib WHERE i < 9) SELECT i, a FROM fib ORDER BY i;
WITH RECURSIVE a(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM a WHERE x < 3), b(y) AS (SELECT x * 10 FROM a) SELECT y FROM b ORDER BY y;

WITH t AS (SELECT regionkey, name FROM tpch.tiny.region) SELECT n.name, t.name FROM tpch.tiny.nation n JOIN t ON n.regionkey = t.regionkey WHERE n.nationkey IN (3, 13) ORDER BY 1;
WITH t AS (SELECT custkey, sum(totalprice) AS spent FROM tpch.tiny.orders GROUP BY custkey) SELECT custkey FROM t ORDER BY spent DESC, custkey LIMIT 3;
WITH t AS (VALUES (1, 'a'), (2, 'b')) SELECT * FROM t ORDER BY 1;
WITH t AS (SELECT 1 AS x UNION ALL SELECT 2) SELECT x FROM t INTERSECT SELECT 2;
WITH t AS (SELECT nationkey FROM tpch.tiny.nation WHERE regionkey = 1) SELECT EXISTS (SELECT 1 FROM t WHERE nationkey = 24), EXISTS (SELECT 1 FROM t WHERE nationkey = 0);
WITH RECURSIVE t(n, acc) AS (SELECT 1, ARRAY[1] UNION ALL SELECT n + 1, acc || (n + 1) FROM t WHERE n < 4) SELECT acc FROM t WHERE n = 4;
WITH RECURSIVE t(n) AS (SELECT BIGINT '1' UNION ALL SELECT n * 3 FROM t WHERE n < 1000) SELECT array_agg(n ORDER BY n) FROM t;

-- refusals
WITH t AS (SELECT 1 AS x), t AS (SELECT 2 AS x) SELECT * FROM t;
WITH t(a, b) AS (SELECT 1) SELECT * FROM t;
WITH t AS (SELECT 1 AS x) SELECT y FROM t;
WITH t AS (SELECT * FROM t) SELECT * FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n + 1 FROM t WHERE n < 3) SELECT n FROM t ORDER BY n;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT count(*) FROM t;
WITH RECURSIVE t AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT n FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT 'a' FROM t WHERE n < 3) SELECT n FROM t;
WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM t) SELECT n FROM t;
