-- family: aggregations
-- source: trinodb/trino testing/trino-testing/src/main/java/io/trino/testing/AbstractTestAggregations.java
-- source: Trino 476 docs, sql/select.md GROUP BY and HAVING clauses (https://trino.io/docs/476/sql/select.html)

-- whole-table aggregates
SELECT count(*), count(comment), min(nationkey), max(nationkey), sum(nationkey), avg(nationkey) FROM tpch.tiny.nation;
SELECT sum(quantity), min(extendedprice), max(discount), count(DISTINCT shipmode) FROM tpch.tiny.lineitem;
SELECT min(name), max(name), min(orderdate) FROM tpch.tiny.nation, (SELECT min(orderdate) AS orderdate FROM tpch.tiny.orders);
SELECT sum(size), typeof(sum(size)), avg(size), typeof(avg(size)) FROM tpch.tiny.part;
SELECT sum(x), avg(x), typeof(sum(x)), typeof(avg(x)) FROM (VALUES DECIMAL '1.10', DECIMAL '2.25', DECIMAL '3.00') t(x);
SELECT count_if(acctbal > 0), bool_and(acctbal > -1000), bool_or(acctbal > 9999), every(custkey > 0) FROM tpch.tiny.customer;
SELECT arbitrary(regionkey) FROM tpch.tiny.region WHERE regionkey = 3;
SELECT max_by(name, acctbal), min_by(name, acctbal) FROM tpch.tiny.supplier;
SELECT array_agg(name ORDER BY name) FROM tpch.tiny.region;
SELECT listagg(name, ', ') WITHIN GROUP (ORDER BY regionkey DESC) FROM tpch.tiny.region;

-- empty input
SELECT count(*), count(x), sum(x), avg(x), min(x), max(x) FROM (VALUES 1) t(x) WHERE x > 5;
SELECT count(*) FROM tpch.tiny.nation WHERE nationkey < 0;
SELECT sum(nationkey), array_agg(name), bool_and(true) FROM tpch.tiny.nation WHERE nationkey < 0;
SELECT regionkey, count(*) FROM tpch.tiny.nation WHERE nationkey < 0 GROUP BY regionkey;
SELECT count(*) FROM tpch.tiny.nation WHERE nationkey < 0 HAVING count(*) > 0;
SELECT count(*) FROM tpch.tiny.nation HAVING count(*) > 0;
SELECT 1 FROM tpch.tiny.nation HAVING true;

-- GROUP BY by column, position, expression
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY 1 ORDER BY 1;
SELECT orderstatus, orderpriority, count(*), sum(totalprice) > 0 FROM tpch.tiny.orders GROUP BY 1, 2 ORDER BY 1, 2;
SELECT nationkey % 3, count(*) FROM tpch.tiny.nation GROUP BY nationkey % 3 ORDER BY 1;
SELECT year(orderdate) AS y, count(*) FROM tpch.tiny.orders GROUP BY year(orderdate) ORDER BY y;
SELECT substr(name, 1, 1) AS initial, count(*) FROM tpch.tiny.nation GROUP BY 1 ORDER BY 2 DESC, 1;
SELECT count(*) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey FROM tpch.tiny.nation GROUP BY regionkey, regionkey ORDER BY 1;
SELECT returnflag, linestatus, sum(quantity), round(avg(discount), 6), count(*) FROM tpch.tiny.lineitem GROUP BY returnflag, linestatus ORDER BY returnflag, linestatus;
SELECT shipmode, min(shipdate), max(receiptdate) FROM tpch.tiny.lineitem GROUP BY shipmode ORDER BY shipmode;
SELECT mktsegment, count(*), max(acctbal) FROM tpch.tiny.customer GROUP BY mktsegment ORDER BY mktsegment;
SELECT size, count(*) FROM tpch.tiny.part GROUP BY size HAVING count(*) > 50 ORDER BY size;
SELECT x, count(*) FROM (VALUES 1, NULL, 2, NULL, 1) t(x) GROUP BY x ORDER BY x;
SELECT x, y, sum(z) FROM (VALUES (1, 'a', 10), (1, 'a', 5), (1, 'b', 1), (2, NULL, 7), (2, NULL, 8)) t(x, y, z) GROUP BY x, y ORDER BY x, y;
SELECT regionkey * 2 + 1, count(*) FROM tpch.tiny.nation GROUP BY regionkey * 2 + 1 ORDER BY 1;
SELECT regionkey, max(nationkey) - min(nationkey) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT 'const', count(*) FROM tpch.tiny.nation GROUP BY 'const';
SELECT count(*) FROM tpch.tiny.nation GROUP BY ();

-- HAVING
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY regionkey HAVING count(*) = 5 ORDER BY regionkey;
SELECT custkey, count(*) FROM tpch.tiny.orders GROUP BY custkey HAVING count(*) > 25 ORDER BY custkey;
SELECT regionkey, sum(nationkey) FROM tpch.tiny.nation GROUP BY regionkey HAVING sum(nationkey) > 50 AND min(name) < 'G' ORDER BY 1;
SELECT regionkey FROM tpch.tiny.nation GROUP BY regionkey HAVING regionkey > 2 ORDER BY 1;
SELECT orderpriority FROM tpch.tiny.orders GROUP BY orderpriority HAVING max(totalprice) > 500000 ORDER BY 1;
SELECT suppkey, count(DISTINCT partkey) FROM tpch.tiny.partsupp GROUP BY suppkey HAVING count(DISTINCT partkey) <> 80 ORDER BY suppkey;

-- DISTINCT aggregates and mixed
SELECT count(DISTINCT regionkey), count(regionkey), sum(DISTINCT regionkey), sum(regionkey) FROM tpch.tiny.nation;
SELECT orderstatus, count(DISTINCT custkey), count(DISTINCT orderpriority), count(*) FROM tpch.tiny.orders GROUP BY orderstatus ORDER BY orderstatus;
SELECT count(DISTINCT x), sum(DISTINCT x), avg(DISTINCT x) FROM (VALUES 1, 1, 2, NULL, 4, 4) t(x);
SELECT returnflag, count(DISTINCT linestatus), count(DISTINCT shipmode), max(quantity) FROM tpch.tiny.lineitem GROUP BY returnflag ORDER BY returnflag;
SELECT array_agg(DISTINCT regionkey ORDER BY regionkey) FROM tpch.tiny.nation;
SELECT count(DISTINCT (x, y)) FROM (VALUES (1, 2), (1, 2), (2, 1), (1, NULL)) t(x, y);
SELECT count(DISTINCT custkey) FILTER (WHERE orderstatus = 'O'), count(*) FILTER (WHERE orderstatus = 'F') FROM tpch.tiny.orders;
SELECT regionkey, count(*) FILTER (WHERE name LIKE '%A%'), sum(nationkey) FILTER (WHERE nationkey > 10) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT sum(x) FILTER (WHERE x > 100), count(*) FILTER (WHERE x > 100) FROM (VALUES 1, 2) t(x);

-- aggregates inside expressions, nesting levels
SELECT regionkey, count(*) * 100 / (SELECT count(*) FROM tpch.tiny.nation) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT max(c) FROM (SELECT regionkey, count(*) AS c FROM tpch.tiny.nation GROUP BY regionkey);
SELECT avg(cnt) FROM (SELECT custkey, count(*) AS cnt FROM tpch.tiny.orders GROUP BY custkey);
SELECT cnt, count(*) FROM (SELECT custkey, count(*) AS cnt FROM tpch.tiny.orders GROUP BY custkey) GROUP BY cnt ORDER BY cnt;
SELECT coalesce(sum(x), 0) FROM (VALUES 1) t(x) WHERE x < 0;
SELECT CASE WHEN count(*) > 20 THEN 'many' ELSE 'few' END FROM tpch.tiny.nation;
SELECT regionkey, min(name) || '-' || max(name) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;

-- aggregates over joins and subqueries
SELECT r.name, count(n.nationkey) FROM tpch.tiny.region r JOIN tpch.tiny.nation n ON r.regionkey = n.regionkey GROUP BY r.name ORDER BY r.name;
SELECT n.name, count(*) FROM tpch.tiny.nation n JOIN tpch.tiny.supplier s ON n.nationkey = s.nationkey GROUP BY n.name ORDER BY count(*) DESC, n.name LIMIT 5;
SELECT r.name, sum(c.acctbal) > 0, count(*) FROM tpch.tiny.customer c JOIN tpch.tiny.nation n ON c.nationkey = n.nationkey JOIN tpch.tiny.region r ON n.regionkey = r.regionkey GROUP BY r.name ORDER BY r.name;
SELECT o.orderpriority, count(DISTINCT l.orderkey) FROM tpch.tiny.orders o JOIN tpch.tiny.lineitem l ON o.orderkey = l.orderkey WHERE l.commitdate < l.receiptdate AND o.orderdate >= DATE '1994-01-01' AND o.orderdate < DATE '1994-04-01' GROUP BY o.orderpriority ORDER BY 1;
SELECT r.regionkey, count(n.nationkey) FROM tpch.tiny.region r LEFT JOIN tpch.tiny.nation n ON r.regionkey = n.regionkey AND n.nationkey < 5 GROUP BY r.regionkey ORDER BY 1;
SELECT count(*), count(o.orderkey) FROM tpch.tiny.customer c LEFT JOIN tpch.tiny.orders o ON c.custkey = o.custkey;
SELECT regionkey, count(*) FROM (SELECT * FROM tpch.tiny.nation WHERE nationkey % 2 = 0) GROUP BY regionkey ORDER BY 1;
SELECT sum(totalprice) / count(*) = avg(totalprice) FROM tpch.tiny.orders WHERE custkey = 1;
SELECT round(sum(extendedprice * (1 - discount)), 2) FROM tpch.tiny.lineitem WHERE shipdate BETWEEN DATE '1995-09-01' AND DATE '1995-09-30';

-- statistical and other aggregates
SELECT round(stddev(acctbal), 6), round(variance(acctbal), 4), round(stddev_pop(acctbal), 6), round(var_pop(acctbal), 4) FROM tpch.tiny.supplier;
SELECT stddev(x), variance(x), stddev_samp(x), var_samp(x) FROM (VALUES 1.0E0) t(x);
SELECT corr(x, y), covar_pop(x, y), covar_samp(x, y) FROM (VALUES (1e0, 2e0), (2e0, 4e0), (3e0, 6e0)) t(x, y);
SELECT regr_slope(y, x), regr_intercept(y, x) FROM (VALUES (1e0, 3e0), (2e0, 5e0), (3e0, 7e0)) t(x, y);
SELECT geometric_mean(x) FROM (VALUES 1e0, 4e0, 16e0) t(x);
SELECT bitwise_and_agg(x), bitwise_or_agg(x), bitwise_xor_agg(x) FROM (VALUES BIGINT '12', 10, 6) t(x);
SELECT checksum(name) IS NOT NULL, count(*) FROM tpch.tiny.region;
SELECT histogram(regionkey) FROM tpch.tiny.nation;
SELECT map_agg(regionkey, name) FROM tpch.tiny.region;
SELECT multimap_agg(regionkey, nationkey) IS NOT NULL FROM tpch.tiny.nation;
SELECT max(x, 2), min(x, 2) FROM (VALUES 5, 1, 3, 9) t(x);
SELECT max(name, 3) FROM tpch.tiny.nation;
SELECT max(x), min(x) FROM (VALUES ARRAY[1, 2], ARRAY[1, 3], ARRAY[0, 9]) t(x);
SELECT max(ROW(a, b)), min(ROW(a, b)) FROM (VALUES (1, 'b'), (1, 'a'), (0, 'z')) t(a, b);
SELECT sum(x), typeof(sum(x)) FROM (VALUES REAL '1.5', REAL '2.5') t(x);
SELECT sum(x), typeof(sum(x)) FROM (VALUES TINYINT '100', TINYINT '100') t(x);
SELECT avg(x), typeof(avg(x)) FROM (VALUES INTERVAL '2' DAY, INTERVAL '4' DAY) t(x);

-- refusals
SELECT name, count(*) FROM tpch.tiny.nation;
SELECT regionkey, name FROM tpch.tiny.nation GROUP BY regionkey;
SELECT count(max(nationkey)) FROM tpch.tiny.nation;
SELECT regionkey FROM tpch.tiny.nation GROUP BY 3;
SELECT count(*) FROM tpch.tiny.nation WHERE count(*) > 1;
SELECT sum(name) FROM tpch.tiny.nation;
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY regionkey HAVING name = 'PERU';
SELECT avg(DISTINCT x) FILTER (WHERE x > 1) OVER () FROM (VALUES 1) t(x);
-- HAVING without GROUP BY makes the query an aggregation of one group (Trino's
-- StatementAnalyzer.analyzeAggregations: a HAVING clause alone is an aggregation)
SELECT 1 FROM tpch.tiny.nation WHERE false HAVING true;
SELECT 1 AS x FROM tpch.tiny.nation HAVING false;
SELECT DISTINCT 1, 'a' FROM tpch.tiny.nation HAVING 1 = 1 ORDER BY 1 LIMIT 1;
