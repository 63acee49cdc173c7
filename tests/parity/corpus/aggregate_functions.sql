-- family: aggregate_functions
-- source: Trino 476 docs, functions/aggregate.md (https://trino.io/docs/476/functions/aggregate.html)

-- count, count_if
SELECT count(*) FROM tpch.tiny.nation;
SELECT count(*) FROM tpch.tiny.nation WHERE nationkey < -5;
SELECT count(x), count(*) FROM (VALUES 1, NULL, 3, NULL) t(x);
SELECT count(DISTINCT regionkey) FROM tpch.tiny.nation;
SELECT count(DISTINCT x) FROM (VALUES 1, 1, NULL, 2, 2, 2) t(x);
SELECT count_if(x > 1) FROM (VALUES 1, 2, 3, NULL) t(x);
SELECT count_if(x) FROM (VALUES true, false, NULL, true) t(x);
SELECT count_if(x) FROM (VALUES CAST(NULL AS boolean)) t(x);
SELECT count_if(orderstatus = 'F'), count_if(orderstatus = 'O'), count_if(orderstatus = 'P') FROM tpch.tiny.orders;
SELECT regionkey, count(*) AS n FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT orderstatus, count(*), count(DISTINCT custkey) FROM tpch.tiny.orders GROUP BY orderstatus ORDER BY orderstatus;
SELECT count(*) FROM (VALUES 1) t(x) WHERE false;
SELECT count(*), sum(x) FROM (SELECT 1 AS x WHERE false);

-- sum, avg
SELECT sum(x) FROM (VALUES 1, 2, 3) t(x);
SELECT sum(x) FROM (VALUES CAST(NULL AS integer)) t(x);
SELECT sum(x) FROM (VALUES 1, NULL, 5) t(x);
SELECT sum(x) FROM (VALUES TINYINT '100', TINYINT '100') t(x);
SELECT sum(x) FROM (VALUES SMALLINT '30000', SMALLINT '30000') t(x);
SELECT sum(x) FROM (VALUES 2147483647, 1) t(x);
SELECT sum(x) FROM (VALUES DECIMAL '1.25', DECIMAL '2.50', DECIMAL '-0.75') t(x);
SELECT sum(x) FROM (VALUES DECIMAL '12345678901234567890.12', DECIMAL '1.00') t(x);
SELECT sum(x) FROM (VALUES REAL '1.5', REAL '2.25') t(x);
SELECT sum(x) FROM (VALUES 0.5e0, 0.25e0) t(x);
SELECT sum(x) FROM (VALUES INTERVAL '1' DAY, INTERVAL '6' HOUR) t(x);
SELECT sum(x) FROM (VALUES INTERVAL '1' YEAR, INTERVAL '5' MONTH) t(x);
SELECT sum(DISTINCT x) FROM (VALUES 2, 2, 3, 3, 4) t(x);
SELECT sum(nationkey), sum(regionkey) FROM tpch.tiny.nation;
SELECT sum(quantity) FROM tpch.tiny.lineitem;
SELECT sum(size) FROM tpch.tiny.part;
SELECT sum(availqty) FROM tpch.tiny.partsupp;
SELECT avg(x) FROM (VALUES 1, 2, 4) t(x);
SELECT avg(x) FROM (VALUES 1, NULL, 4) t(x);
SELECT avg(x) FROM (VALUES CAST(NULL AS double)) t(x);
SELECT avg(x) FROM (VALUES DECIMAL '4.00', DECIMAL '5.00', DECIMAL '5.00') t(x);
SELECT avg(x) FROM (VALUES DECIMAL '10.5', DECIMAL '20.25') t(x);
SELECT avg(x) FROM (VALUES REAL '1.5', REAL '2.0') t(x);
SELECT avg(x) FROM (VALUES INTERVAL '1' DAY, INTERVAL '2' DAY) t(x);
SELECT avg(x) FROM (VALUES INTERVAL '1' YEAR, INTERVAL '2' MONTH) t(x);
SELECT avg(DISTINCT x) FROM (VALUES 1, 1, 1, 4) t(x);
SELECT avg(nationkey) FROM tpch.tiny.nation;
SELECT avg(size) FROM tpch.tiny.part;
SELECT returnflag, linestatus, sum(quantity), avg(discount), count(*) FROM tpch.tiny.lineitem GROUP BY returnflag, linestatus ORDER BY returnflag, linestatus;
SELECT mktsegment, round(avg(acctbal), 2), count(*) FROM tpch.tiny.customer GROUP BY mktsegment ORDER BY mktsegment;

-- min, max and the n-variants
SELECT min(x), max(x) FROM (VALUES 5, 3, 9, NULL) t(x);
SELECT min(x), max(x) FROM (VALUES CAST(NULL AS bigint)) t(x);
SELECT min(x), max(x) FROM (VALUES 'pear', 'apple', 'zebra', 'Zebra') t(x);
SELECT min(x), max(x) FROM (VALUES DATE '2020-02-29', DATE '1999-01-01') t(x);
SELECT min(x), max(x) FROM (VALUES TIMESTAMP '2020-02-29 10:00:00.123456', TIMESTAMP '2020-02-29 10:00:00.123457') t(x);
SELECT min(x), max(x) FROM (VALUES true, false) t(x);
SELECT min(x), max(x) FROM (VALUES ARRAY[1, 2], ARRAY[1, 1, 5], ARRAY[0]) t(x);
SELECT min(r), max(r) FROM (SELECT ROW(a, b) AS r FROM (VALUES (1, 'b'), (1, 'a'), (0, 'z')) t(a, b));
SELECT min(x), max(x) FROM (VALUES DECIMAL '1.10', DECIMAL '-3.25') t(x);
SELECT min(x), max(x) FROM (VALUES nan(), 1e0, 2e0) t(x);
SELECT min(name), max(name) FROM tpch.tiny.nation;
SELECT min(orderdate), max(orderdate), min(totalprice), max(totalprice) FROM tpch.tiny.orders;
SELECT regionkey, min(name), max(name) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT max(x, 2) FROM (VALUES 4, 9, 1, 7, NULL) t(x);
SELECT min(x, 3) FROM (VALUES 4, 9, 1, 7, NULL) t(x);
SELECT max(x, 10) FROM (VALUES 4, 9, 1) t(x);
SELECT min(name, 3) FROM tpch.tiny.nation;
SELECT max(totalprice, 3) FROM tpch.tiny.orders;
SELECT regionkey, max(nationkey, 2) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT max(x, 2) FROM (VALUES CAST(NULL AS integer)) t(x);

-- min_by, max_by
SELECT min_by(name, nationkey), max_by(name, nationkey) FROM tpch.tiny.nation;
SELECT min_by(x, y), max_by(x, y) FROM (VALUES ('a', 3), ('b', 1), ('c', 2)) t(x, y);
SELECT min_by(x, y), max_by(x, y) FROM (VALUES (NULL, 1), ('b', 2), ('c', 3)) t(x, y);
SELECT max_by(x, y) FROM (VALUES ('a', 3), ('b', NULL), ('c', 2)) t(x, y);
SELECT min_by(x, y) FROM (VALUES ('a', CAST(NULL AS integer))) t(x, y);
SELECT max_by(x, y, 2) FROM (VALUES ('a', 3), ('b', 1), ('c', 2), ('d', 5)) t(x, y);
SELECT min_by(x, y, 2) FROM (VALUES ('a', 3), ('b', 1), ('c', 2), ('d', 5)) t(x, y);
SELECT min_by(x, y, 9) FROM (VALUES ('a', 3), ('b', 1)) t(x, y);
SELECT max_by(orderkey, totalprice), min_by(orderkey, totalprice) FROM tpch.tiny.orders;
SELECT max_by(name, acctbal, 3) FROM tpch.tiny.customer;
SELECT regionkey, max_by(name, nationkey), min_by(name, nationkey) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, min_by(name, nationkey, 2) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT max_by(x, y) FROM (VALUES (1, ROW(1, 'a')), (2, ROW(1, 'b'))) t(x, y);
SELECT orderpriority, max_by(orderkey, totalprice) FROM tpch.tiny.orders GROUP BY orderpriority ORDER BY orderpriority;

-- bool_and, bool_or, every
SELECT bool_and(x), bool_or(x), every(x) FROM (VALUES true, true, true) t(x);
SELECT bool_and(x), bool_or(x), every(x) FROM (VALUES true, false, NULL) t(x);
SELECT bool_and(x), bool_or(x) FROM (VALUES false, false) t(x);
SELECT bool_and(x), bool_or(x) FROM (VALUES CAST(NULL AS boolean)) t(x);
SELECT bool_and(nationkey < 25), bool_or(nationkey > 24) FROM tpch.tiny.nation;
SELECT regionkey, bool_and(nationkey > 5), bool_or(name LIKE 'A%') FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT every(shipdate <= receiptdate) FROM tpch.tiny.lineitem;

-- arbitrary / any_value (only where the value is unique)
SELECT arbitrary(x) FROM (VALUES 7, 7, 7) t(x);
SELECT any_value(x) FROM (VALUES NULL, 'only', NULL) t(x);
SELECT arbitrary(x) FROM (VALUES CAST(NULL AS integer)) t(x);
SELECT n.nationkey, any_value(n.name), count(*) FROM tpch.tiny.nation n JOIN tpch.tiny.supplier s ON s.nationkey = n.nationkey GROUP BY n.nationkey ORDER BY n.nationkey;
SELECT r.name, arbitrary(r.comment) IS NOT NULL FROM tpch.tiny.region r GROUP BY r.name ORDER BY r.name;

-- array_agg with ORDER BY
SELECT array_agg(x ORDER BY x) FROM (VALUES 3, 1, 2) t(x);
SELECT array_agg(x ORDER BY x DESC) FROM (VALUES 3, 1, 2) t(x);
SELECT array_agg(x ORDER BY x NULLS FIRST) FROM (VALUES 3, NULL, 2) t(x);
SELECT array_agg(x ORDER BY x) FROM (VALUES 3, NULL, 2) t(x);
SELECT array_agg(x ORDER BY y DESC, x) FROM (VALUES ('a', 1), ('b', 2), ('c', 2)) t(x, y);
SELECT array_agg(x ORDER BY x) FROM (SELECT 1 AS x WHERE false);
SELECT array_agg(name ORDER BY name) FROM tpch.tiny.region WHERE regionkey >= 0;
SELECT array_agg(name ORDER BY name) FILTER (WHERE name IS NOT NULL) FROM tpch.tiny.region;
SELECT regionkey, array_agg(name ORDER BY nationkey) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, array_agg(nationkey ORDER BY nationkey DESC) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT array_sort(array_agg(regionkey)) FROM tpch.tiny.nation WHERE nationkey < 6;
SELECT array_agg(DISTINCT regionkey ORDER BY regionkey DESC) FROM tpch.tiny.nation;
SELECT array_agg(x ORDER BY x) FROM (VALUES ARRAY[2], ARRAY[1, 1]) t(x);
SELECT array_agg(x ORDER BY x) FILTER (WHERE x % 2 = 0) FROM (VALUES 1, 2, 3, 4, 6) t(x);
SELECT array_agg(x ORDER BY x) FILTER (WHERE x > 10) FROM (VALUES 1, 2) t(x);

-- map_agg, multimap_agg, histogram, map_union
SELECT map_agg(k, v) FROM (VALUES ('a', 1), ('b', 2), ('c', 3)) t(k, v);
SELECT map_agg(name, regionkey) FROM tpch.tiny.nation WHERE nationkey < 5;
SELECT map_agg(name, regionkey) FROM tpch.tiny.region;
SELECT map_agg(k, v) FROM (VALUES ('a', NULL), ('b', 2)) t(k, v);
SELECT map_agg(k, v) FROM (SELECT 'a' AS k, 1 AS v WHERE false);
SELECT transform_values(multimap_agg(k, v), (key, vs) -> array_sort(vs)) FROM (VALUES ('a', 3), ('b', 2), ('a', 1)) t(k, v);
SELECT multimap_agg(k, v) FROM (VALUES ('a', 1), ('b', 2)) t(k, v);
SELECT transform_values(multimap_agg(regionkey, nationkey), (k, v) -> array_sort(v)) FROM tpch.tiny.nation;
SELECT histogram(x) FROM (VALUES 'x', 'y', 'x', 'z', 'x') t(x);
SELECT histogram(x) FROM (VALUES 1, NULL, 1, 2) t(x);
SELECT histogram(regionkey) FROM tpch.tiny.nation WHERE nationkey > 2;
SELECT histogram(orderstatus) FROM tpch.tiny.orders;
SELECT histogram(x) FROM (VALUES CAST(NULL AS varchar)) t(x);
SELECT regionkey, histogram(length(name)) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT map_union(m) FROM (VALUES MAP(ARRAY['a'], ARRAY[1]), MAP(ARRAY['b', 'c'], ARRAY[2, 3])) t(m);
SELECT map_union(m) FROM (VALUES MAP(ARRAY[1], ARRAY['x']), NULL, MAP(ARRAY[2], ARRAY['y'])) t(m);
SELECT map_union(h) FROM (SELECT histogram(regionkey) AS h FROM tpch.tiny.nation GROUP BY regionkey);
SELECT map_union(m) FROM (SELECT map_agg(nationkey, name) AS m FROM tpch.tiny.nation GROUP BY regionkey);

-- listagg
SELECT listagg(v, ',') WITHIN GROUP (ORDER BY v) FROM (VALUES 'q', 'e', 'w') t(v);
SELECT listagg(v) WITHIN GROUP (ORDER BY v) FROM (VALUES 'q', 'e', 'w') t(v);
SELECT listagg(v, ' | ') WITHIN GROUP (ORDER BY v DESC) FROM (VALUES 'q', 'e', 'w') t(v);
SELECT listagg(v, ',' ON OVERFLOW ERROR) WITHIN GROUP (ORDER BY v) FROM (VALUES 'x', 'y', 'z') t(v);
SELECT listagg(v, ',' ON OVERFLOW TRUNCATE '~~' WITH COUNT) WITHIN GROUP (ORDER BY v) FROM (VALUES 'x', 'y', 'z') t(v);
SELECT listagg(v, ',' ON OVERFLOW TRUNCATE WITHOUT COUNT) WITHIN GROUP (ORDER BY v) FROM (VALUES 'x', 'y', 'z') t(v);
SELECT listagg(v, ',') WITHIN GROUP (ORDER BY v) FROM (VALUES 'x', NULL, 'z') t(v);
SELECT listagg(v, ',') WITHIN GROUP (ORDER BY v) FROM (VALUES CAST(NULL AS varchar)) t(v);
SELECT id, listagg(v, ';') WITHIN GROUP (ORDER BY o) FROM (VALUES (7, 2, 'p'), (8, 9, 'r'), (8, 1, 's')) t(id, o, v) GROUP BY id ORDER BY id;
SELECT c, listagg(city, ',') WITHIN GROUP (ORDER BY pop DESC) FILTER (WHERE pop >= 5000000) FROM (VALUES ('JP', 'Tokyo', 14000000), ('JP', 'Osaka', 2700000), ('DE', 'Berlin', 3600000), ('BR', 'Sao Paulo', 12300000), ('BR', 'Rio', 6700000)) t(c, city, pop) GROUP BY c ORDER BY c;
SELECT regionkey, listagg(name, ', ') WITHIN GROUP (ORDER BY name) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT listagg(DISTINCT v, ',') WITHIN GROUP (ORDER BY v) FROM (VALUES 'b', 'a', 'b') t(v);
SELECT listagg(CAST(x AS varchar), '-') WITHIN GROUP (ORDER BY x) FROM (VALUES 10, 9, 100) t(x);

SELECT length(listagg(comment, ',' ON OVERFLOW TRUNCATE '..' WITH COUNT) WITHIN GROUP (ORDER BY orderkey, linenumber)) FROM tpch.tiny.lineitem;
SELECT substr(s, length(s) - 40) FROM (SELECT listagg(comment, ',' ON OVERFLOW TRUNCATE '..' WITH COUNT) WITHIN GROUP (ORDER BY orderkey, linenumber) AS s FROM tpch.tiny.lineitem);
SELECT substr(s, length(s) - 40) FROM (SELECT listagg(comment, ',' ON OVERFLOW TRUNCATE WITHOUT COUNT) WITHIN GROUP (ORDER BY orderkey, linenumber) AS s FROM tpch.tiny.lineitem);

-- checksum
SELECT checksum(x) FROM (VALUES 1, 2, 3) t(x);
SELECT checksum(x) FROM (VALUES 3, 2, 1) t(x);
SELECT checksum(x) FROM (VALUES CAST(NULL AS varchar)) t(x);
SELECT checksum(comment) FROM tpch.tiny.region;
SELECT checksum(orderkey) FROM tpch.tiny.orders;

-- geometric_mean
SELECT geometric_mean(x) FROM (VALUES 2, 8) t(x);
SELECT geometric_mean(x) FROM (VALUES 1e0, 10e0, 100e0) t(x);
SELECT geometric_mean(x) FROM (VALUES CAST(NULL AS double)) t(x);
SELECT geometric_mean(size) FROM tpch.tiny.part;
SELECT geometric_mean(x) FROM (VALUES REAL '4', REAL '9') t(x);

-- bitwise aggregates
SELECT bitwise_and_agg(x), bitwise_or_agg(x), bitwise_xor_agg(x) FROM (VALUES 12, 10, 6) t(x);
SELECT bitwise_and_agg(x), bitwise_or_agg(x), bitwise_xor_agg(x) FROM (VALUES -1, 5) t(x);
SELECT bitwise_and_agg(x), bitwise_or_agg(x) FROM (VALUES CAST(NULL AS bigint)) t(x);
SELECT bitwise_or_agg(x) FROM (VALUES 1, NULL, 4) t(x);
SELECT bitwise_or_agg(nationkey), bitwise_and_agg(nationkey), bitwise_xor_agg(nationkey) FROM tpch.tiny.nation;
SELECT regionkey, bitwise_or_agg(nationkey) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;

-- statistical aggregates
SELECT stddev(x), stddev_samp(x), stddev_pop(x) FROM (VALUES 2, 4, 4, 4, 5, 5, 7, 9) t(x);
SELECT variance(x), var_samp(x), var_pop(x) FROM (VALUES 2, 4, 4, 4, 5, 5, 7, 9) t(x);
SELECT stddev(x), variance(x), stddev_pop(x), var_pop(x) FROM (VALUES 42) t(x);
SELECT stddev(x), variance(x) FROM (VALUES CAST(NULL AS double)) t(x);
SELECT stddev(x) FROM (VALUES DECIMAL '1.5', DECIMAL '2.5') t(x);
SELECT stddev(x), var_pop(x) FROM (VALUES REAL '1', REAL '3') t(x);
SELECT stddev_samp(acctbal), var_pop(acctbal) FROM tpch.tiny.supplier;
SELECT regionkey, stddev_pop(nationkey), var_samp(nationkey) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT corr(y, x) FROM (VALUES (1, 2), (2, 4), (3, 6)) t(x, y);
SELECT corr(y, x) FROM (VALUES (1, 5), (2, 3), (3, 1), (4, 0)) t(x, y);
SELECT corr(y, x) FROM (VALUES (1, 5)) t(x, y);
SELECT corr(y, x) FROM (VALUES (1, 5), (2, 5)) t(x, y);
SELECT covar_pop(y, x), covar_samp(y, x) FROM (VALUES (1, 2), (2, 5), (4, 7)) t(x, y);
SELECT covar_pop(y, x), covar_samp(y, x) FROM (VALUES (1, 2)) t(x, y);
SELECT covar_samp(y, x) FROM (VALUES (1, NULL), (2, 5), (4, 7), (NULL, 1)) t(x, y);
SELECT regr_slope(y, x), regr_intercept(y, x) FROM (VALUES (1, 3), (2, 5), (3, 7)) t(x, y);
SELECT regr_slope(y, x), regr_intercept(y, x) FROM (VALUES (1, 1), (2, 4), (3, 8), (4, 9)) t(x, y);
SELECT regr_slope(y, x), regr_intercept(y, x) FROM (VALUES (2, 1), (2, 3)) t(x, y);
SELECT corr(extendedprice, quantity), regr_slope(extendedprice, quantity) FROM tpch.tiny.lineitem WHERE orderkey < 200;
SELECT covar_pop(totalprice, custkey) FROM tpch.tiny.orders WHERE orderkey < 500;
SELECT skewness(x), kurtosis(x) FROM (VALUES 1, 2, 3, 4, 10) t(x);
SELECT skewness(x), kurtosis(x) FROM (VALUES 1, 2, 2, 3) t(x);
SELECT skewness(x) FROM (VALUES 1, 2) t(x);
SELECT kurtosis(x) FROM (VALUES 1, 2, 3) t(x);
SELECT skewness(x), kurtosis(x) FROM (VALUES CAST(NULL AS double)) t(x);
SELECT skewness(size), kurtosis(size) FROM tpch.tiny.part;

-- reduce_agg
SELECT reduce_agg(x, 0, (a, b) -> a + b, (a, b) -> a + b) FROM (VALUES 1, 2, 3, 4) t(x);
SELECT reduce_agg(x, 1, (a, b) -> a * b, (a, b) -> a * b) FROM (VALUES 2, 3, 7) t(x);
SELECT reduce_agg(x, 0, (a, b) -> greatest(a, b), (a, b) -> greatest(a, b)) FROM (VALUES 5, 11, 2) t(x);
SELECT regionkey, reduce_agg(nationkey, 0, (a, b) -> a + b, (a, b) -> a + b) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT reduce_agg(x, 0, (a, b) -> a + b, (a, b) -> a + b) FROM (SELECT 1 AS x WHERE false);

-- FILTER, DISTINCT, GROUP BY over tpch.tiny
SELECT count(*) FILTER (WHERE regionkey = 1), count(*) FILTER (WHERE regionkey = 2), count(*) FROM tpch.tiny.nation;
SELECT regionkey, count(*) FILTER (WHERE name LIKE '%A%') FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT sum(totalprice) FILTER (WHERE orderstatus = 'F') > 0, count(*) FILTER (WHERE orderpriority = '1-URGENT') FROM tpch.tiny.orders;
SELECT shipmode, count(*) FILTER (WHERE returnflag = 'R'), count(*) FILTER (WHERE returnflag = 'A'), count(*) FROM tpch.tiny.lineitem GROUP BY shipmode ORDER BY shipmode;
SELECT max(x) FILTER (WHERE x < 5), min(x) FILTER (WHERE x > 5) FROM (VALUES 1, 4, 6, 9) t(x);
SELECT sum(x) FILTER (WHERE x IS NULL) FROM (VALUES 1, NULL) t(x);
SELECT count(DISTINCT custkey), count(DISTINCT orderstatus), count(DISTINCT orderpriority) FROM tpch.tiny.orders;
SELECT count(DISTINCT x), sum(DISTINCT x), count(x) FROM (VALUES 1, 2, 2, NULL, 3, 3, 3) t(x);
SELECT regionkey, count(DISTINCT substr(name, 1, 1)) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT count(DISTINCT (returnflag, linestatus)) FROM tpch.tiny.lineitem;
SELECT custkey, count(*) AS orders FROM tpch.tiny.orders GROUP BY custkey ORDER BY orders DESC, custkey LIMIT 5;
SELECT orderpriority, count(*) FROM tpch.tiny.orders WHERE orderdate >= DATE '1993-07-01' AND orderdate < DATE '1993-10-01' GROUP BY orderpriority ORDER BY orderpriority;
SELECT n.name, count(*) FROM tpch.tiny.supplier s JOIN tpch.tiny.nation n ON s.nationkey = n.nationkey GROUP BY n.name ORDER BY count(*) DESC, n.name LIMIT 5;
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY regionkey HAVING count(*) > 4 ORDER BY regionkey;
SELECT brand, min(retailprice), max(retailprice) FROM tpch.tiny.part GROUP BY brand HAVING max(retailprice) > 1900 ORDER BY brand;
SELECT size, count(*) FROM tpch.tiny.part WHERE size <= 5 GROUP BY size ORDER BY size;
SELECT linenumber, count(*), max(quantity), min(quantity) FROM tpch.tiny.lineitem GROUP BY linenumber ORDER BY linenumber;
SELECT year(shipdate) AS y, sum(quantity) FROM tpch.tiny.lineitem GROUP BY year(shipdate) ORDER BY y;
SELECT count(*), count(DISTINCT nationkey) FROM tpch.tiny.customer WHERE acctbal > 9000;
SELECT regionkey, count(*), array_agg(nationkey ORDER BY nationkey) FROM tpch.tiny.nation GROUP BY ROLLUP (regionkey) ORDER BY regionkey NULLS LAST;
SELECT sum(x), count(*) FROM (VALUES 1, 2) t(x) GROUP BY ();
SELECT sum(x) FROM (SELECT 1 AS x WHERE false) GROUP BY ();
SELECT x, count(*) FROM (VALUES 1, NULL, NULL, 2) t(x) GROUP BY x ORDER BY x NULLS FIRST;

-- source: Trino 476 docs, functions/aggregate.md and sql/select.md, GROUP BY (https://trino.io/docs/476/sql/select.html#group-by-clause)
-- More: overflow, decimals, empty groups, grouping sets, mixed DISTINCT
SELECT sum(x) FROM (VALUES BIGINT '9223372036854775807', BIGINT '1') t(x);
SELECT sum(x) FROM (VALUES DECIMAL '99999999999999999999999999999999999998', DECIMAL '2') t(x);
SELECT sum(x), avg(x) FROM (VALUES DECIMAL '0.001', DECIMAL '0.002') t(x);
SELECT avg(x) FROM (VALUES DECIMAL '3', DECIMAL '6') t(x);
SELECT avg(x) FROM (VALUES DECIMAL '-1.005', DECIMAL '-2.000') t(x);
SELECT avg(x) FROM (VALUES BIGINT '9223372036854775807', BIGINT '9223372036854775807') t(x);
SELECT sum(x), avg(x) FROM (VALUES infinity(), 1e0) t(x);
SELECT sum(x) FROM (VALUES nan(), 1e0) t(x);
SELECT regionkey, count(*) FROM tpch.tiny.nation WHERE nationkey > 100 GROUP BY regionkey;
SELECT count(*), max(name) FROM tpch.tiny.nation WHERE nationkey > 100;
SELECT regionkey, sum(nationkey) FROM tpch.tiny.nation GROUP BY GROUPING SETS ((regionkey), ()) ORDER BY regionkey NULLS FIRST;
SELECT orderstatus, orderpriority, count(*) FROM tpch.tiny.orders GROUP BY CUBE (orderstatus, orderpriority) ORDER BY orderstatus NULLS FIRST, orderpriority NULLS FIRST;
SELECT returnflag, linestatus, grouping(returnflag, linestatus), sum(quantity) FROM tpch.tiny.lineitem GROUP BY ROLLUP (returnflag, linestatus) ORDER BY returnflag NULLS LAST, linestatus NULLS LAST;
SELECT count(DISTINCT custkey) FILTER (WHERE orderstatus = 'P'), count(DISTINCT clerk) FROM tpch.tiny.orders;
SELECT orderstatus, count(DISTINCT custkey), count(DISTINCT clerk), sum(DISTINCT shippriority) FROM tpch.tiny.orders GROUP BY orderstatus ORDER BY orderstatus;
SELECT array_sort(array_agg(DISTINCT mktsegment)) FROM tpch.tiny.customer;
SELECT count(DISTINCT x), count(DISTINCT y) FROM (VALUES (1, 'a'), (1, 'b'), (2, 'b'), (NULL, NULL)) t(x, y);
SELECT geometric_mean(x) FROM (VALUES 0e0, 4e0) t(x);
SELECT geometric_mean(x) FROM (VALUES -1e0, 4e0) t(x);
SELECT mktsegment, corr(acctbal, custkey) IS NOT NULL, regr_slope(acctbal, nationkey) IS NOT NULL FROM tpch.tiny.customer GROUP BY mktsegment ORDER BY mktsegment;
SELECT regr_intercept(nationkey, regionkey), regr_slope(nationkey, regionkey) FROM tpch.tiny.nation;
SELECT covar_samp(x, y), corr(x, y) FROM (VALUES (1e0, 10e0), (2e0, 20e0), (3e0, 31e0)) t(x, y);
SELECT var_pop(x), stddev_samp(x) FROM (VALUES 5e0, 5e0, 5e0) t(x);
SELECT variance(x), stddev(x) FROM (VALUES REAL '1.5', REAL '2.5', REAL '4.5') t(x);
SELECT regionkey, checksum(name) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT histogram(x) FROM (VALUES 1.5e0, 2.5e0, 1.5e0) t(x);
SELECT histogram(x) FROM (VALUES DATE '2024-02-29', DATE '2024-02-29', DATE '2024-03-01') t(x);
SELECT histogram(x) FROM (VALUES true, false, true) t(x);
SELECT min(orderdate, 2), max(orderdate, 2) FROM tpch.tiny.orders;
SELECT orderpriority, max(totalprice, 2) FROM tpch.tiny.orders GROUP BY orderpriority ORDER BY orderpriority;
SELECT mktsegment, max_by(custkey, acctbal, 2), min_by(custkey, acctbal, 2) FROM tpch.tiny.customer GROUP BY mktsegment ORDER BY mktsegment;
SELECT min_by(x, y), max_by(x, y) FROM (VALUES (1, DATE '2024-02-29'), (2, DATE '2023-02-28')) t(x, y);
SELECT max_by(x, y) FROM (VALUES ('a', 'apple'), ('b', 'banana')) t(x, y);
SELECT shipmode, array_agg(DISTINCT returnflag ORDER BY returnflag) FROM tpch.tiny.lineitem GROUP BY shipmode ORDER BY shipmode;
SELECT regionkey, array_agg(ROW(nationkey, name) ORDER BY name DESC) FROM tpch.tiny.nation WHERE regionkey < 2 GROUP BY regionkey ORDER BY regionkey;
SELECT array_agg(x ORDER BY x DESC NULLS LAST) FROM (VALUES 5, NULL, 7) t(x);
SELECT array_agg(orderkey ORDER BY totalprice DESC, orderkey) FILTER (WHERE custkey = 1) FROM tpch.tiny.orders;
SELECT custkey, sum(totalprice) FROM tpch.tiny.orders GROUP BY custkey HAVING count(*) > 30 ORDER BY custkey;
SELECT nationkey, count(*) FROM tpch.tiny.customer GROUP BY nationkey ORDER BY count(*) DESC, nationkey LIMIT 3;
SELECT r.name, count(DISTINCT n.nationkey), count(s.suppkey) FROM tpch.tiny.region r JOIN tpch.tiny.nation n ON n.regionkey = r.regionkey LEFT JOIN tpch.tiny.supplier s ON s.nationkey = n.nationkey GROUP BY r.name ORDER BY r.name;
SELECT p.type, count(*) FROM tpch.tiny.part p WHERE p.type LIKE '%BRASS' GROUP BY p.type ORDER BY p.type;
SELECT max(l.receiptdate), min(l.shipdate) FROM tpch.tiny.lineitem l JOIN tpch.tiny.orders o ON o.orderkey = l.orderkey WHERE o.orderpriority = '1-URGENT';
SELECT bool_or(x IS NULL), bool_and(x IS NOT NULL) FROM (VALUES 1, NULL) t(x);
SELECT count_if(size > 45), count_if(size < 5) FROM tpch.tiny.part;
SELECT listagg(name, ',') WITHIN GROUP (ORDER BY nationkey DESC) FROM tpch.tiny.nation WHERE regionkey = 3;
SELECT listagg(DISTINCT mktsegment, '|') WITHIN GROUP (ORDER BY mktsegment) FROM tpch.tiny.customer;
SELECT reduce_agg(x, '', (s, v) -> s || v, (a, b) -> a || b) FROM (VALUES 'z') t(x);
SELECT reduce_agg(x, 0e0, (s, v) -> s + v, (a, b) -> a + b) FROM (VALUES 0.5e0, 0.25e0) t(x);
SELECT sum(x) FILTER (WHERE x > 0), sum(x) FILTER (WHERE x < 0), count(*) FILTER (WHERE x = 0) FROM (VALUES -2, -1, 0, 1, 2, 3) t(x);
SELECT map_agg(x, y) FILTER (WHERE y IS NOT NULL) FROM (VALUES (1, 'a'), (2, NULL)) t(x, y);
SELECT max(x) FROM (VALUES ROW(1, 2), ROW(3, 4)) t(x, y);
SELECT bitwise_xor_agg(x) FROM (VALUES TINYINT '5', TINYINT '3') t(x);
SELECT bitwise_and_agg(orderkey) FILTER (WHERE orderkey < 8), bitwise_or_agg(orderkey) FILTER (WHERE orderkey < 8) FROM tpch.tiny.orders;

-- Refusals
SELECT name FROM tpch.tiny.nation WHERE count(*) > 1;
SELECT comment, count(*) FROM tpch.tiny.region;
SELECT sum(mktsegment) FROM tpch.tiny.customer;
SELECT avg(x) FROM (VALUES 'a') t(x);
SELECT max(x, -1) FROM (VALUES 1) t(x);
SELECT count(count(*)) FROM tpch.tiny.nation;
SELECT bool_and(x) FROM (VALUES 1) t(x);
SELECT listagg(x, ',') WITHIN GROUP (ORDER BY x) FROM (VALUES 1, 2) t(x);
SELECT length(listagg(comment, ',') WITHIN GROUP (ORDER BY orderkey, linenumber)) FROM tpch.tiny.lineitem;
SELECT x, sum(x) FROM (VALUES 1) t(x) GROUP BY sum(x);
SELECT max_by(x, y, 0) FROM (VALUES (1, 2)) t(x, y);
SELECT min_by(x) FROM (VALUES 1) t(x);
SELECT regionkey, count(*) FROM tpch.tiny.nation GROUP BY 3;
SELECT count(*) FILTER (WHERE 1) FROM tpch.tiny.nation;

-- source: Trino 476 docs, functions/aggregate.md: its examples as written (extracted page by page)
SELECT array_agg(name) FILTER (WHERE name IS NOT NULL) FROM region;
SELECT sum(o.totalprice) as spend, any_value(c.name) FROM tpch.tiny.orders o JOIN tpch.tiny.customer c ON o.custkey = c.custkey GROUP BY c.custkey ORDER BY spend;
SELECT listagg(value, ',' ON OVERFLOW ERROR) WITHIN GROUP (ORDER BY value) csv_value FROM (VALUES 'a', 'b', 'c') t(value);
SELECT listagg(value, ',' ON OVERFLOW TRUNCATE '.....' WITH COUNT) WITHIN GROUP (ORDER BY value) FROM (VALUES 'a', 'b', 'c') t(value);
SELECT country, listagg(city, ',') WITHIN GROUP (ORDER BY population DESC) FILTER (WHERE population >= 10_000_000) megacities FROM (VALUES ('India', 'Bangalore', 13_700_000), ('India', 'Chennai', 12_200_000), ('India', 'Ranchi', 1_547_000), ('Austria', 'Vienna', 1_897_000), ('Poland', 'Warsaw', 1_765_000)) t(country, city, population) GROUP BY country ORDER BY country;
SELECT id, reduce_agg(value, 0, (a, b) -> a + b, (a, b) -> a + b) FROM (VALUES (1, 3), (1, 4), (1, 5), (2, 6), (2, 7)) AS t(id, value) GROUP BY id;
SELECT id, reduce_agg(value, 1, (a, b) -> a * b, (a, b) -> a * b) FROM (VALUES (1, 3), (1, 4), (1, 5), (2, 6), (2, 7)) AS t(id, value) GROUP BY id;
