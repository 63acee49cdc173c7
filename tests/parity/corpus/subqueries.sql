-- family: subqueries
-- source: Trino 476 docs, sql/select.md Subqueries (https://trino.io/docs/476/sql/select.html#subqueries)
-- source: trinodb/trino core/trino-main/src/test/java/io/trino/sql/query/TestSubqueries.java
-- source: trinodb/trino testing/trino-testing/src/main/java/io/trino/testing/AbstractTestQueries.java

-- scalar subqueries
SELECT (SELECT count(*) FROM tpch.tiny.region);
SELECT name, (SELECT max(nationkey) FROM tpch.tiny.nation) - nationkey FROM tpch.tiny.nation WHERE nationkey < 3 ORDER BY 1;
SELECT name FROM tpch.tiny.nation WHERE nationkey = (SELECT min(nationkey) + 5 FROM tpch.tiny.nation);
SELECT (SELECT 1 WHERE false);
SELECT (SELECT name FROM tpch.tiny.region WHERE regionkey = 9) IS NULL;
SELECT typeof((SELECT 1.5)), (SELECT 'a') || (SELECT 'b');
SELECT count(*) FROM tpch.tiny.orders WHERE totalprice > (SELECT avg(totalprice) FROM tpch.tiny.orders);
SELECT (SELECT x FROM (VALUES 7) t(x)) + (SELECT y FROM (VALUES 3) u(y));
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY regionkey HAVING count(*) = (SELECT count(*) FROM tpch.tiny.region) ORDER BY 1;
SELECT * FROM tpch.tiny.region WHERE regionkey = (SELECT regionkey FROM tpch.tiny.nation WHERE name = 'JAPAN');

-- EXISTS
SELECT r.name FROM tpch.tiny.region r WHERE EXISTS (SELECT 1 FROM tpch.tiny.nation n WHERE n.regionkey = r.regionkey AND n.name LIKE 'C%') ORDER BY 1;
SELECT r.name FROM tpch.tiny.region r WHERE NOT EXISTS (SELECT 1 FROM tpch.tiny.nation n WHERE n.regionkey = r.regionkey AND n.name LIKE 'I%') ORDER BY 1;
SELECT EXISTS (SELECT 1 FROM tpch.tiny.nation), EXISTS (SELECT 1 FROM tpch.tiny.nation WHERE false);
SELECT EXISTS (SELECT NULL), NOT EXISTS (SELECT * FROM (VALUES 1) t(x) WHERE x > 1);
SELECT count(*) FROM tpch.tiny.customer c WHERE NOT EXISTS (SELECT * FROM tpch.tiny.orders o WHERE o.custkey = c.custkey);
SELECT count(*) FROM tpch.tiny.orders o WHERE EXISTS (SELECT * FROM tpch.tiny.lineitem l WHERE l.orderkey = o.orderkey AND l.commitdate < l.receiptdate) AND o.orderdate >= DATE '1993-07-01' AND o.orderdate < DATE '1993-10-01';
SELECT x FROM (VALUES 1, 2, 3) t(x) WHERE EXISTS (SELECT y FROM (VALUES 2, 3, 4) u(y) WHERE y = x + 1) ORDER BY 1;
SELECT x, EXISTS (SELECT 1 FROM (VALUES 2, 3) u(y) WHERE y = x) FROM (VALUES 1, 2, 3) t(x) ORDER BY 1;
SELECT count(*) FROM tpch.tiny.nation WHERE EXISTS (SELECT count(*) FROM tpch.tiny.region WHERE false);

-- IN subqueries
SELECT name FROM tpch.tiny.nation WHERE regionkey IN (SELECT regionkey FROM tpch.tiny.region WHERE name LIKE 'A%') ORDER BY 1;
SELECT name FROM tpch.tiny.nation WHERE regionkey NOT IN (SELECT regionkey FROM tpch.tiny.region WHERE name <> 'ASIA') ORDER BY 1;
SELECT count(*) FROM tpch.tiny.customer WHERE custkey IN (SELECT custkey FROM tpch.tiny.orders WHERE orderpriority = '1-URGENT');
SELECT count(*) FROM tpch.tiny.customer WHERE custkey NOT IN (SELECT custkey FROM tpch.tiny.orders);
SELECT x, x IN (SELECT y FROM (VALUES 1, 2) u(y)) FROM (VALUES 1, 3, NULL) t(x) ORDER BY 1;
SELECT (nationkey, regionkey) IN (SELECT nationkey, regionkey FROM tpch.tiny.nation WHERE nationkey < 3) FROM tpch.tiny.nation WHERE nationkey IN (1, 5) ORDER BY nationkey;
SELECT name FROM tpch.tiny.nation WHERE nationkey IN (SELECT regionkey FROM tpch.tiny.region) AND regionkey IN (SELECT 1) ORDER BY 1;
SELECT 1 IN (SELECT x FROM (VALUES 1) t(x) WHERE false), NULL IN (SELECT x FROM (VALUES 1) t(x) WHERE false);
SELECT count(*) FROM tpch.tiny.part WHERE partkey IN (SELECT partkey FROM tpch.tiny.lineitem WHERE quantity = 50);
SELECT x FROM (VALUES 1.5, 2.0) t(x) WHERE x IN (SELECT 2 FROM tpch.tiny.region) ORDER BY 1;

-- NOT IN with NULLs
SELECT x FROM (VALUES 1, 2, 3) t(x) WHERE x NOT IN (SELECT y FROM (VALUES 2, NULL) u(y));
SELECT x FROM (VALUES 1, 2, 3) t(x) WHERE x NOT IN (SELECT y FROM (VALUES 2) u(y)) ORDER BY 1;
SELECT x, x NOT IN (SELECT y FROM (VALUES 2, NULL) u(y)) FROM (VALUES 1, 2) t(x) ORDER BY 1;
SELECT x FROM (VALUES 1, NULL) t(x) WHERE x NOT IN (SELECT y FROM (VALUES 5) u(y));
SELECT x FROM (VALUES 1, NULL) t(x) WHERE x NOT IN (SELECT y FROM (VALUES 5) u(y) WHERE false) ORDER BY 1;
SELECT x FROM (VALUES 1, NULL) t(x) WHERE x IN (SELECT y FROM (VALUES 1, NULL) u(y));

-- correlated subqueries in select, where, having
SELECT r.name, (SELECT count(*) FROM tpch.tiny.nation n WHERE n.regionkey = r.regionkey) FROM tpch.tiny.region r ORDER BY 1;
SELECT n.name, (SELECT r.name FROM tpch.tiny.region r WHERE r.regionkey = n.regionkey) FROM tpch.tiny.nation n WHERE n.nationkey < 5 ORDER BY 1;
SELECT n.name FROM tpch.tiny.nation n WHERE n.nationkey > (SELECT avg(n2.nationkey) FROM tpch.tiny.nation n2 WHERE n2.regionkey = n.regionkey) ORDER BY 1;
SELECT c.custkey, (SELECT max(o.totalprice) FROM tpch.tiny.orders o WHERE o.custkey = c.custkey) FROM tpch.tiny.customer c WHERE c.custkey <= 5 ORDER BY 1;
SELECT regionkey, count(*) FROM tpch.tiny.nation n GROUP BY regionkey HAVING count(*) = (SELECT count(*) FROM tpch.tiny.nation n2 WHERE n2.regionkey = n.regionkey) ORDER BY 1;
SELECT r.regionkey FROM tpch.tiny.region r WHERE (SELECT min(name) FROM tpch.tiny.nation n WHERE n.regionkey = r.regionkey) < 'C' ORDER BY 1;
SELECT x, (SELECT sum(y) FROM (VALUES 1, 2, 3) u(y) WHERE y <= x) FROM (VALUES 1, 2, 3) t(x) ORDER BY 1;
SELECT x, (SELECT y FROM (VALUES 10, 20) u(y) WHERE y = x * 10) FROM (VALUES 1, 2, 3) t(x) ORDER BY 1;
SELECT o.orderkey FROM tpch.tiny.orders o WHERE o.orderkey < 100 AND o.totalprice > (SELECT sum(l.extendedprice) FROM tpch.tiny.lineitem l WHERE l.orderkey = o.orderkey) ORDER BY 1;
SELECT count(*) FROM tpch.tiny.part p WHERE p.retailprice > (SELECT 1.1 * avg(p2.retailprice) FROM tpch.tiny.part p2 WHERE p2.brand = p.brand);
SELECT s.name FROM tpch.tiny.supplier s WHERE s.acctbal = (SELECT max(acctbal) FROM tpch.tiny.supplier s2 WHERE s2.nationkey = s.nationkey) AND s.nationkey < 3 ORDER BY 1;

-- quantified comparisons
SELECT x FROM (VALUES 1, 5, 10) t(x) WHERE x > ALL (SELECT y FROM (VALUES 2, 4) u(y)) ORDER BY 1;
SELECT x FROM (VALUES 1, 5, 10) t(x) WHERE x > ANY (SELECT y FROM (VALUES 2, 4) u(y)) ORDER BY 1;
SELECT x FROM (VALUES 1, 5, 10) t(x) WHERE x = SOME (SELECT y FROM (VALUES 5, 10) u(y)) ORDER BY 1;
SELECT x FROM (VALUES 1, 5, 10) t(x) WHERE x <> ALL (SELECT y FROM (VALUES 5, 10) u(y)) ORDER BY 1;
SELECT x FROM (VALUES 1, 5, 10) t(x) WHERE x <= ALL (VALUES 5, 10) ORDER BY 1;
SELECT x FROM (VALUES 1, 5, 10) t(x) WHERE x >= ANY (VALUES 6) ORDER BY 1;
SELECT 3 > ALL (SELECT x FROM (VALUES 1) t(x) WHERE false), 3 > ANY (SELECT x FROM (VALUES 1) t(x) WHERE false);
SELECT 3 > ALL (VALUES 1, NULL), 3 > ALL (VALUES 5, NULL), 3 = ANY (VALUES 3, NULL), 3 = ANY (VALUES 4, NULL);
SELECT 3 < SOME (VALUES 1, 2), 3 < SOME (VALUES 1, 4), 2 = ALL (VALUES 2, 2);
SELECT name FROM tpch.tiny.nation WHERE nationkey >= ALL (SELECT nationkey FROM tpch.tiny.nation);
SELECT count(*) FROM tpch.tiny.orders WHERE totalprice > ALL (SELECT acctbal * 40 FROM tpch.tiny.customer WHERE custkey < 10);
SELECT r.name FROM tpch.tiny.region r WHERE r.regionkey = ANY (SELECT regionkey FROM tpch.tiny.nation WHERE name LIKE 'I%') ORDER BY 1;

-- subqueries in FROM and nesting
SELECT avg(c) FROM (SELECT regionkey, count(*) AS c FROM tpch.tiny.nation GROUP BY regionkey) t;
SELECT * FROM (SELECT * FROM (SELECT nationkey, name FROM tpch.tiny.nation WHERE nationkey < 10) WHERE nationkey > 6) ORDER BY 1;
SELECT t.k FROM (SELECT regionkey AS k FROM tpch.tiny.region ORDER BY regionkey DESC LIMIT 2) t ORDER BY 1;
SELECT (SELECT (SELECT max(regionkey) FROM tpch.tiny.region));
SELECT name FROM tpch.tiny.nation WHERE regionkey = (SELECT regionkey FROM tpch.tiny.region WHERE name = (SELECT 'EUROPE')) ORDER BY 1;
SELECT x FROM (SELECT 1 AS x UNION ALL SELECT 2) WHERE x IN (SELECT 2) ;
SELECT count(*) FROM (SELECT DISTINCT custkey FROM tpch.tiny.orders WHERE custkey IN (SELECT custkey FROM tpch.tiny.customer WHERE mktsegment = 'BUILDING'));
SELECT x FROM (VALUES 1, 2, 3) t(x) WHERE x IN (SELECT y FROM (VALUES 1, 2) u(y) WHERE y IN (SELECT z FROM (VALUES 2, 3) v(z)));

-- refusals
SELECT (SELECT nationkey FROM tpch.tiny.nation);
SELECT name FROM tpch.tiny.nation WHERE regionkey = (SELECT regionkey FROM tpch.tiny.region WHERE regionkey < 2);
SELECT (SELECT 1, 2);
SELECT x FROM (VALUES 1) t(x) WHERE x IN (SELECT 1, 2);
SELECT x FROM (VALUES 1) t(x) WHERE x IN (SELECT 'a');
SELECT x FROM (VALUES 1) t(x) WHERE x > ALL (SELECT 'a');
SELECT (SELECT y FROM (VALUES 1, 2) u(y) WHERE y >= x) FROM (VALUES 1) t(x);
SELECT * FROM (SELECT 1) WHERE EXISTS (SELECT nope);
