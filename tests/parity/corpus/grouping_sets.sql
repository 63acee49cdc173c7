-- family: grouping_sets
-- source: Trino 476 docs, sql/select.md GROUPING SETS, CUBE, ROLLUP (https://trino.io/docs/476/sql/select.html#grouping-sets)
-- source: Trino 476 docs, functions/aggregate.md grouping() (https://trino.io/docs/476/functions/aggregate.html)
-- source: trinodb/trino core/trino-main/src/test/java/io/trino/sql/query/TestGroupingSets.java

SELECT orderstatus, orderpriority, count(*) FROM tpch.tiny.orders GROUP BY GROUPING SETS ((orderstatus), (orderpriority)) ORDER BY orderstatus NULLS FIRST, orderpriority NULLS FIRST;
SELECT orderstatus, orderpriority, count(*) FROM tpch.tiny.orders GROUP BY GROUPING SETS ((orderstatus, orderpriority), ()) ORDER BY 1 NULLS LAST, 2 NULLS LAST;
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY GROUPING SETS ((regionkey), ()) ORDER BY regionkey NULLS FIRST;
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY GROUPING SETS (regionkey, ()) ORDER BY regionkey NULLS LAST;
SELECT count(*) FROM tpch.tiny.nation GROUP BY GROUPING SETS ((), ());
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY GROUPING SETS ((regionkey), (regionkey)) ORDER BY 1;
SELECT returnflag, linestatus, sum(quantity) FROM tpch.tiny.lineitem GROUP BY ROLLUP (returnflag, linestatus) ORDER BY 1 NULLS LAST, 2 NULLS LAST;
SELECT returnflag, linestatus, count(*) FROM tpch.tiny.lineitem GROUP BY CUBE (returnflag, linestatus) ORDER BY 1 NULLS LAST, 2 NULLS LAST;
SELECT orderstatus, count(*) FROM tpch.tiny.orders GROUP BY ROLLUP (orderstatus) ORDER BY 1 NULLS FIRST;
SELECT orderstatus, count(*) FROM tpch.tiny.orders GROUP BY CUBE (orderstatus) ORDER BY 1 NULLS FIRST;
SELECT a, b, c, sum(v) FROM (VALUES (1, 'x', true, 1), (1, 'y', false, 2), (2, 'x', true, 4)) t(a, b, c, v) GROUP BY ROLLUP (a, b, c) ORDER BY a NULLS LAST, b NULLS LAST, c NULLS LAST;
SELECT a, b, c, sum(v) FROM (VALUES (1, 'x', true, 1), (1, 'y', false, 2), (2, 'x', true, 4)) t(a, b, c, v) GROUP BY CUBE (a, b, c) ORDER BY a NULLS LAST, b NULLS LAST, c NULLS LAST;
SELECT a, b, sum(v) FROM (VALUES (1, 10, 1), (2, 20, 2)) t(a, b, v) GROUP BY ROLLUP ((a, b)) ORDER BY a NULLS LAST;
SELECT a, b, sum(v) FROM (VALUES (1, 10, 1), (2, 20, 2)) t(a, b, v) GROUP BY CUBE ((a, b)) ORDER BY a NULLS LAST;

-- grouping()
SELECT orderstatus, grouping(orderstatus), count(*) FROM tpch.tiny.orders GROUP BY ROLLUP (orderstatus) ORDER BY 2, 1;
SELECT returnflag, linestatus, grouping(returnflag, linestatus), count(*) FROM tpch.tiny.lineitem GROUP BY CUBE (returnflag, linestatus) ORDER BY 3, 1, 2;
SELECT returnflag, linestatus, grouping(linestatus, returnflag) FROM tpch.tiny.lineitem GROUP BY GROUPING SETS ((returnflag), (linestatus), ()) ORDER BY 3, 1, 2;
SELECT a, b, grouping(a), grouping(b), grouping(a, b), grouping(b, a) FROM (VALUES (1, 2)) t(a, b) GROUP BY CUBE (a, b) ORDER BY 5, 6;
SELECT typeof(grouping(regionkey)) FROM tpch.tiny.nation GROUP BY ROLLUP (regionkey) HAVING grouping(regionkey) = 1;
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY ROLLUP (regionkey) HAVING grouping(regionkey) = 0 ORDER BY regionkey;
SELECT CASE grouping(regionkey) WHEN 1 THEN 'all' ELSE CAST(regionkey AS varchar) END AS k, count(*) FROM tpch.tiny.nation GROUP BY ROLLUP (regionkey) ORDER BY k;
SELECT regionkey, sum(nationkey) FROM tpch.tiny.nation GROUP BY GROUPING SETS ((regionkey), ()) ORDER BY grouping(regionkey), regionkey;

-- NULLs in data versus NULLs of grouping
SELECT x, grouping(x), count(*) FROM (VALUES 1, NULL, NULL) t(x) GROUP BY ROLLUP (x) ORDER BY 2, 1 NULLS FIRST;
SELECT x, y, count(*) FROM (VALUES (NULL, 'a'), (NULL, 'b'), (1, 'a')) t(x, y) GROUP BY GROUPING SETS ((x), (y)) ORDER BY x NULLS FIRST, y NULLS FIRST;

-- mixing GROUP BY elements
SELECT orderstatus, orderpriority, count(*) FROM tpch.tiny.orders GROUP BY orderstatus, ROLLUP (orderpriority) ORDER BY 1, 2 NULLS LAST;
SELECT orderstatus, orderpriority, shippriority, count(*) FROM tpch.tiny.orders GROUP BY orderstatus, CUBE (orderpriority, shippriority) ORDER BY 1, 2 NULLS LAST, 3 NULLS LAST;
SELECT a, b, c, count(*) FROM (VALUES (1, 2, 3), (1, 2, 4)) t(a, b, c) GROUP BY GROUPING SETS ((a), (b)), GROUPING SETS ((c)) ORDER BY a NULLS LAST, b NULLS LAST, c;
SELECT a, b, count(*) FROM (VALUES (1, 2), (1, 3)) t(a, b) GROUP BY ROLLUP (a), ROLLUP (b) ORDER BY a NULLS LAST, b NULLS LAST;
SELECT a, b, count(*) FROM (VALUES (1, 2), (1, 3)) t(a, b) GROUP BY ROLLUP (a), CUBE (b) ORDER BY a NULLS LAST, b NULLS LAST;

-- GROUP BY ALL / DISTINCT
SELECT a, b, count(*) FROM (VALUES (1, 2), (1, 3)) t(a, b) GROUP BY ALL ROLLUP (a, b), ROLLUP (a) ORDER BY a NULLS LAST, b NULLS LAST, 3;
SELECT a, b, count(*) FROM (VALUES (1, 2), (1, 3)) t(a, b) GROUP BY DISTINCT ROLLUP (a, b), ROLLUP (a) ORDER BY a NULLS LAST, b NULLS LAST;
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY ALL regionkey ORDER BY 1;
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY DISTINCT regionkey, regionkey ORDER BY 1;
SELECT count(*) FROM tpch.tiny.nation GROUP BY DISTINCT GROUPING SETS ((), ());
SELECT count(*) FROM tpch.tiny.nation GROUP BY ALL GROUPING SETS ((), ());
SELECT orderstatus, count(*) FROM tpch.tiny.orders GROUP BY DISTINCT CUBE (orderstatus), ROLLUP (orderstatus) ORDER BY 1 NULLS LAST;

-- with joins, expressions and aggregates
SELECT r.name, n.name, count(s.suppkey) FROM tpch.tiny.region r JOIN tpch.tiny.nation n ON r.regionkey = n.regionkey JOIN tpch.tiny.supplier s ON s.nationkey = n.nationkey WHERE r.regionkey = 1 GROUP BY ROLLUP (r.name, n.name) ORDER BY 1 NULLS LAST, 2 NULLS LAST;
SELECT year(orderdate) AS y, orderstatus, count(*) FROM tpch.tiny.orders WHERE year(orderdate) IN (1995, 1996) GROUP BY CUBE (year(orderdate), orderstatus) ORDER BY 1 NULLS LAST, 2 NULLS LAST;
SELECT regionkey % 2, count(*), max(name) FROM tpch.tiny.nation GROUP BY GROUPING SETS ((regionkey % 2), ()) ORDER BY 1 NULLS LAST;
SELECT mktsegment, count(DISTINCT nationkey), count(*) FROM tpch.tiny.customer GROUP BY ROLLUP (mktsegment) ORDER BY 1 NULLS LAST;
SELECT mktsegment, round(sum(acctbal), 2) FROM tpch.tiny.customer GROUP BY GROUPING SETS ((mktsegment), ()) HAVING count(*) > 300 ORDER BY 1 NULLS LAST;
SELECT returnflag, shipmode, count(*) FILTER (WHERE discount > 0.05) FROM tpch.tiny.lineitem WHERE shipmode IN ('AIR', 'RAIL') GROUP BY CUBE (returnflag, shipmode) ORDER BY 1 NULLS LAST, 2 NULLS LAST;
SELECT array_agg(name ORDER BY name), regionkey FROM tpch.tiny.nation WHERE regionkey < 2 GROUP BY ROLLUP (regionkey) ORDER BY 2 NULLS LAST;
SELECT count(*) FROM (SELECT orderstatus, orderpriority FROM tpch.tiny.orders GROUP BY CUBE (orderstatus, orderpriority));
SELECT a, sum(b) FROM (VALUES (1, 10), (2, 20)) t(a, b) GROUP BY GROUPING SETS ((a)) ORDER BY a;
SELECT a, count(*) FROM (VALUES 1) t(a) WHERE a > 5 GROUP BY ROLLUP (a);
SELECT a, count(*) FROM (VALUES 1) t(a) WHERE a > 5 GROUP BY GROUPING SETS ((a), ());
SELECT a, count(*) FROM (VALUES 1) t(a) WHERE a > 5 GROUP BY CUBE (a);

SELECT regionkey, count(*), grouping(regionkey) FROM tpch.tiny.nation WHERE nationkey < 10 GROUP BY CUBE (regionkey) ORDER BY 3, 1;
SELECT orderpriority, orderstatus, count(*) FROM tpch.tiny.orders WHERE orderkey < 200 GROUP BY GROUPING SETS ((orderpriority, orderstatus), (orderpriority), ()) ORDER BY 1 NULLS LAST, 2 NULLS LAST;
SELECT linestatus, max(shipdate), min(shipdate) FROM tpch.tiny.lineitem GROUP BY ROLLUP (linestatus) ORDER BY 1 NULLS FIRST;
SELECT a, b, sum(c) FROM (VALUES (1, 1, 10), (1, 2, 20), (2, 1, 30)) t(a, b, c) GROUP BY GROUPING SETS ((a, b), (b), ()) HAVING sum(c) > 15 ORDER BY a NULLS LAST, b NULLS LAST;
SELECT count(DISTINCT orderstatus), count(*) FROM tpch.tiny.orders GROUP BY ROLLUP (orderpriority) HAVING grouping(orderpriority) = 1;

-- refusals
SELECT regionkey, name FROM tpch.tiny.nation GROUP BY ROLLUP (regionkey);
SELECT grouping(name) FROM tpch.tiny.nation GROUP BY ROLLUP (regionkey);
SELECT grouping(regionkey) FROM tpch.tiny.nation;
SELECT count(*) FROM tpch.tiny.nation WHERE grouping(regionkey) = 0 GROUP BY ROLLUP (regionkey);
SELECT y, orderstatus, count(*) FROM (SELECT year(orderdate) AS y, orderstatus FROM tpch.tiny.orders) WHERE y IN (1995, 1996) GROUP BY CUBE (y, orderstatus) ORDER BY 1 NULLS LAST, 2 NULLS LAST;
SELECT regionkey, sum(nationkey), grouping(regionkey) AS g FROM tpch.tiny.nation GROUP BY GROUPING SETS ((regionkey), ()) ORDER BY g, regionkey;
