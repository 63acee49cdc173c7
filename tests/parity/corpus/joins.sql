-- family: joins
-- source: Trino 476 docs, sql/select.md Joins (https://trino.io/docs/476/sql/select.html#joins)
-- source: trinodb/trino testing/trino-testing/src/main/java/io/trino/testing/AbstractTestJoinQueries.java
-- source: trinodb/trino core/trino-main/src/test/java/io/trino/sql/query/TestJoin.java

-- inner joins
SELECT n.name, r.name FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.regionkey = r.regionkey ORDER BY n.name;
SELECT n.name, r.name FROM tpch.tiny.nation n INNER JOIN tpch.tiny.region r ON n.regionkey = r.regionkey WHERE r.name = 'EUROPE' ORDER BY 1;
SELECT n.name, r.name FROM tpch.tiny.nation n, tpch.tiny.region r WHERE n.regionkey = r.regionkey AND r.regionkey = 4 ORDER BY 1;
SELECT count(*) FROM tpch.tiny.orders o JOIN tpch.tiny.customer c ON o.custkey = c.custkey;
SELECT count(*) FROM tpch.tiny.lineitem l JOIN tpch.tiny.orders o ON l.orderkey = o.orderkey WHERE o.orderstatus = 'P';
SELECT c.mktsegment, count(*) FROM tpch.tiny.customer c JOIN tpch.tiny.orders o ON c.custkey = o.custkey GROUP BY 1 ORDER BY 1;
SELECT count(*) FROM tpch.tiny.partsupp ps JOIN tpch.tiny.part p ON ps.partkey = p.partkey JOIN tpch.tiny.supplier s ON ps.suppkey = s.suppkey WHERE p.size = 1;
SELECT s.name, p.name FROM tpch.tiny.partsupp ps JOIN tpch.tiny.part p ON p.partkey = ps.partkey JOIN tpch.tiny.supplier s ON s.suppkey = ps.suppkey WHERE p.partkey = 10 ORDER BY s.name;
SELECT count(*) FROM tpch.tiny.lineitem l JOIN tpch.tiny.partsupp ps ON l.partkey = ps.partkey AND l.suppkey = ps.suppkey;
SELECT n1.name, n2.name FROM tpch.tiny.nation n1 JOIN tpch.tiny.nation n2 ON n1.nationkey = n2.nationkey + 1 WHERE n1.nationkey < 4 ORDER BY 1;

-- outer joins
SELECT r.name, n.name FROM tpch.tiny.region r LEFT JOIN tpch.tiny.nation n ON r.regionkey = n.regionkey AND n.name LIKE 'A%' ORDER BY r.name, n.name;
SELECT r.name, n.name FROM tpch.tiny.region r LEFT OUTER JOIN tpch.tiny.nation n ON r.regionkey = n.regionkey AND n.nationkey > 22 ORDER BY 1, 2;
SELECT n.name, r.name FROM tpch.tiny.nation n RIGHT JOIN tpch.tiny.region r ON n.regionkey = r.regionkey AND n.nationkey < 3 ORDER BY 2, 1;
SELECT a.x, b.y FROM (VALUES 1, 2, 3) a(x) FULL JOIN (VALUES 2, 3, 4) b(y) ON a.x = b.y ORDER BY coalesce(a.x, b.y);
SELECT a.x, b.y FROM (VALUES 1, 2, 3) a(x) FULL OUTER JOIN (VALUES 2, 3, 4) b(y) ON a.x = b.y AND a.x > 2 ORDER BY a.x NULLS LAST, b.y;
SELECT a.x, b.y FROM (VALUES 1, 2) a(x) LEFT JOIN (VALUES 5) b(y) ON true ORDER BY 1;
SELECT a.x, b.y FROM (VALUES 1, 2) a(x) LEFT JOIN (VALUES 5) b(y) ON false ORDER BY 1;
SELECT a.x, b.y FROM (VALUES 1, 2) a(x) RIGHT JOIN (VALUES 5, 6) b(y) ON a.x * 5 = b.y ORDER BY 2;
SELECT count(*), count(o.orderkey), count(DISTINCT c.custkey) FROM tpch.tiny.customer c LEFT JOIN tpch.tiny.orders o ON c.custkey = o.custkey;
SELECT count(*) FROM tpch.tiny.customer c LEFT JOIN tpch.tiny.orders o ON c.custkey = o.custkey WHERE o.orderkey IS NULL;
SELECT c.custkey FROM tpch.tiny.customer c LEFT JOIN tpch.tiny.orders o ON c.custkey = o.custkey WHERE o.orderkey IS NULL ORDER BY c.custkey LIMIT 5;
SELECT r.regionkey, n.nationkey FROM tpch.tiny.region r LEFT JOIN tpch.tiny.nation n ON r.regionkey = n.regionkey WHERE n.nationkey > 20 ORDER BY 2;
SELECT r.regionkey, n.nationkey FROM tpch.tiny.region r LEFT JOIN tpch.tiny.nation n ON r.regionkey = n.regionkey AND n.nationkey > 20 ORDER BY 1, 2;
SELECT a.k, a.v, b.v FROM (VALUES (1, 'a1'), (2, 'a2')) a(k, v) FULL JOIN (VALUES (2, 'b2'), (3, 'b3')) b(k, v) ON a.k = b.k ORDER BY a.k NULLS LAST;
SELECT count(*) FROM tpch.tiny.nation n FULL JOIN tpch.tiny.region r ON n.regionkey = r.regionkey;
SELECT o.orderkey, l.linenumber FROM tpch.tiny.orders o LEFT JOIN tpch.tiny.lineitem l ON o.orderkey = l.orderkey AND l.linenumber > 6 WHERE o.orderkey < 70 ORDER BY 1, 2;

-- cross joins
SELECT count(*) FROM tpch.tiny.nation CROSS JOIN tpch.tiny.region;
SELECT r1.name, r2.name FROM tpch.tiny.region r1 CROSS JOIN tpch.tiny.region r2 WHERE r1.regionkey < r2.regionkey AND r2.regionkey < 3 ORDER BY 1, 2;
SELECT a.x, b.y FROM (VALUES 1, 2) a(x) CROSS JOIN (VALUES 'p', 'q') b(y) ORDER BY 1, 2;
SELECT count(*) FROM tpch.tiny.region, tpch.tiny.region r2, (VALUES 1, 2) t(x);
SELECT * FROM (VALUES 1) a(x) CROSS JOIN (VALUES 2) b(y) CROSS JOIN (VALUES 3) c(z);
SELECT count(*) FROM (VALUES 1, 2) a(x) CROSS JOIN (SELECT * FROM (VALUES 1) WHERE false);

-- NATURAL and USING
SELECT regionkey, n.name, r.name FROM tpch.tiny.nation n JOIN tpch.tiny.region r USING (regionkey) WHERE nationkey IN (5, 6) ORDER BY 1, 2;
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) a(k, v) JOIN (VALUES (1, 'x'), (3, 'y')) b(k, w) USING (k);
SELECT k, a.v, b.v FROM (VALUES (1, 'a'), (2, 'b')) a(k, v) LEFT JOIN (VALUES (1, 'x')) b(k, v) USING (k) ORDER BY k;
SELECT k FROM (VALUES 1, 2) a(k) FULL JOIN (VALUES 2, 3) b(k) USING (k) ORDER BY k;
SELECT * FROM (VALUES 1, 2) a(k) FULL JOIN (VALUES 2, 3) b(k) USING (k) ORDER BY 1;
SELECT k, j FROM (VALUES (1, 10), (1, 20)) a(k, j) JOIN (VALUES (1, 10), (1, 30)) b(k, j) USING (k, j);
SELECT * FROM (VALUES (1, 2)) a(x, y) NATURAL JOIN (VALUES (1, 3)) b(x, z);
SELECT count(*) FROM tpch.tiny.nation NATURAL JOIN tpch.tiny.region;
SELECT typeof(k) FROM (VALUES 1) a(k) JOIN (VALUES BIGINT '1') b(k) USING (k);

-- ON with complex predicates, non-equi joins
SELECT a.x, b.y FROM (VALUES 1, 5, 10) a(x) JOIN (VALUES 3, 7) b(y) ON a.x < b.y ORDER BY 1, 2;
SELECT a.x, b.lo, b.hi FROM (VALUES 1, 5, 10) a(x) JOIN (VALUES (0, 4), (4, 8), (9, 9)) b(lo, hi) ON a.x BETWEEN b.lo AND b.hi ORDER BY 1;
SELECT a.x, b.y FROM (VALUES 1, 2, 3) a(x) LEFT JOIN (VALUES 1, 2, 3) b(y) ON a.x <> b.y ORDER BY 1, 2;
SELECT n.name, r.name FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.regionkey = r.regionkey OR n.nationkey = r.regionkey WHERE n.nationkey < 3 ORDER BY 1, 2;
SELECT count(*) FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.regionkey = r.regionkey AND length(n.name) > length(r.name);
SELECT count(*) FROM tpch.tiny.supplier s JOIN tpch.tiny.customer c ON s.nationkey = c.nationkey AND s.acctbal > c.acctbal + 9000;
SELECT n.name FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.regionkey = r.regionkey AND r.name IN ('ASIA', 'AFRICA') AND n.name LIKE '%A' ORDER BY 1;
SELECT a.x, b.y FROM (VALUES 1, 2) a(x) JOIN (VALUES 2, 3) b(y) ON a.x + 1 = b.y ORDER BY 1;
SELECT a.x, b.y FROM (VALUES 'ab', 'cd') a(x) JOIN (VALUES 'AB', 'EF') b(y) ON upper(a.x) = b.y;
SELECT a.x, b.y FROM (VALUES 1, 2, 3) a(x) JOIN (VALUES 10, 20) b(y) ON a.x IN (1, 3) ORDER BY 1, 2;
SELECT a.x, b.y FROM (VALUES 1, 2) a(x) JOIN (VALUES 1, 2) b(y) ON a.x = b.y AND a.x IN (SELECT 2) ORDER BY 1;

-- self joins
SELECT a.name, b.name FROM tpch.tiny.nation a JOIN tpch.tiny.nation b ON a.regionkey = b.regionkey AND a.nationkey < b.nationkey WHERE a.regionkey = 0 ORDER BY 1, 2;
SELECT count(*) FROM tpch.tiny.nation a JOIN tpch.tiny.nation b ON a.regionkey = b.regionkey;
SELECT c1.custkey, c2.custkey FROM tpch.tiny.customer c1 JOIN tpch.tiny.customer c2 ON c1.phone = c2.phone AND c1.custkey < c2.custkey;
SELECT o1.orderkey, count(*) FROM tpch.tiny.orders o1 JOIN tpch.tiny.orders o2 ON o1.custkey = o2.custkey AND o1.orderdate = o2.orderdate AND o1.orderkey <> o2.orderkey GROUP BY o1.orderkey ORDER BY 1 LIMIT 5;

-- joins of VALUES and subqueries
SELECT t.name, n.regionkey FROM (VALUES 'PERU', 'JAPAN', 'ATLANTIS') t(name) LEFT JOIN tpch.tiny.nation n ON n.name = t.name ORDER BY 1;
SELECT t.k, r.name FROM (VALUES BIGINT '0', BIGINT '4', BIGINT '9') t(k) JOIN tpch.tiny.region r ON r.regionkey = t.k ORDER BY 1;
SELECT v.k, n.name FROM (VALUES 1, 2) v(k) JOIN tpch.tiny.nation n ON n.nationkey = v.k ORDER BY 1;
SELECT x.regionkey, x.cnt, r.name FROM (SELECT regionkey, count(*) AS cnt FROM tpch.tiny.nation GROUP BY regionkey) x JOIN tpch.tiny.region r ON x.regionkey = r.regionkey ORDER BY 1;
SELECT a.x FROM (SELECT DISTINCT regionkey AS x FROM tpch.tiny.nation) a JOIN (SELECT regionkey AS y FROM tpch.tiny.region WHERE regionkey > 2) b ON a.x = b.y ORDER BY 1;

-- join with NULL keys
SELECT a.k, b.k FROM (VALUES 1, NULL) a(k) JOIN (VALUES 1, NULL) b(k) ON a.k = b.k;
SELECT a.k, b.k FROM (VALUES 1, NULL) a(k) LEFT JOIN (VALUES 1, NULL) b(k) ON a.k = b.k ORDER BY a.k;
SELECT a.k, b.k FROM (VALUES 1, NULL) a(k) FULL JOIN (VALUES 1, NULL) b(k) ON a.k = b.k ORDER BY a.k NULLS FIRST, b.k NULLS FIRST;
SELECT a.k, b.k FROM (VALUES 1, NULL) a(k) JOIN (VALUES 1, NULL) b(k) ON a.k IS NOT DISTINCT FROM b.k ORDER BY a.k;
SELECT count(*) FROM (VALUES (1, NULL), (2, 3)) a(x, y) JOIN (VALUES (1, NULL), (2, 3)) b(x, y) ON a.x = b.x AND a.y = b.y;
SELECT a.k FROM (VALUES 1, 2, NULL) a(k) LEFT JOIN (VALUES 2) b(k) ON a.k = b.k WHERE b.k IS NULL ORDER BY a.k;

-- lateral joins
SELECT n.name, x.c FROM tpch.tiny.region r CROSS JOIN LATERAL (SELECT count(*) AS c FROM tpch.tiny.nation n2 WHERE n2.regionkey = r.regionkey) x JOIN tpch.tiny.nation n ON n.nationkey = r.regionkey ORDER BY 1;
SELECT r.name, t.n FROM tpch.tiny.region r, LATERAL (SELECT max(name) AS n FROM tpch.tiny.nation WHERE regionkey = r.regionkey) t ORDER BY 1;
SELECT a.x, t.y FROM (VALUES 1, 2, 3) a(x), LATERAL (SELECT a.x * 10 AS y) t ORDER BY 1;
SELECT a.x, t.y FROM (VALUES 1, 2, 3) a(x) CROSS JOIN LATERAL (VALUES a.x, a.x + 100) t(y) ORDER BY 1, 2;
SELECT a.x, t.y FROM (VALUES 1, 2) a(x) LEFT JOIN LATERAL (SELECT a.x AS y WHERE a.x > 1) t ON true ORDER BY 1;
SELECT r.regionkey, t.nk FROM tpch.tiny.region r JOIN LATERAL (SELECT nationkey AS nk FROM tpch.tiny.nation n WHERE n.regionkey = r.regionkey ORDER BY nationkey LIMIT 1) t ON true ORDER BY 1;

-- multi-way joins and join order
SELECT r.name, count(*) FROM tpch.tiny.lineitem l JOIN tpch.tiny.supplier s ON l.suppkey = s.suppkey JOIN tpch.tiny.nation n ON s.nationkey = n.nationkey JOIN tpch.tiny.region r ON n.regionkey = r.regionkey GROUP BY r.name ORDER BY 1;
SELECT count(*) FROM tpch.tiny.region r LEFT JOIN tpch.tiny.nation n ON r.regionkey = n.regionkey LEFT JOIN tpch.tiny.supplier s ON s.nationkey = n.nationkey;
SELECT count(*) FROM (tpch.tiny.nation n JOIN tpch.tiny.region r ON n.regionkey = r.regionkey) JOIN tpch.tiny.customer c ON c.nationkey = n.nationkey;
SELECT x, y, z FROM (VALUES 1, 2) a(x) LEFT JOIN ((VALUES 1) b(y) JOIN (VALUES 1) c(z) ON y = z) ON x = y ORDER BY 1;
SELECT c.name, o.orderkey FROM tpch.tiny.customer c JOIN tpch.tiny.orders o ON c.custkey = o.custkey WHERE c.custkey = 7 ORDER BY o.orderkey;

-- refusals
SELECT name FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.regionkey = r.regionkey;
SELECT * FROM tpch.tiny.nation JOIN tpch.tiny.region ON nope = 1;
SELECT * FROM tpch.tiny.nation n JOIN tpch.tiny.region r USING (nationkey);
SELECT * FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.regionkey;
SELECT * FROM (VALUES 1) a(x) JOIN (VALUES 'a') b(y) ON a.x = b.y;
SELECT count(*) FROM tpch.tiny.region n JOIN tpch.tiny.region n ON true;
SELECT * FROM (VALUES 1) a(x) JOIN (VALUES 2) b(y);
SELECT n.name FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.regionkey = r.regionkey AND count(*) > 0;
