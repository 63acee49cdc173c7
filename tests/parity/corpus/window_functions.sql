-- family: window_functions
-- source: Trino 476 docs, functions/window.md (https://trino.io/docs/476/functions/window.html)
-- source: Trino 476 docs, sql/select.md, WINDOW clause (https://trino.io/docs/476/sql/select.html#window-clause)

-- Ranking functions
SELECT nationkey, regionkey, row_number() OVER (ORDER BY nationkey) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT nationkey, regionkey, row_number() OVER (PARTITION BY regionkey ORDER BY nationkey) AS rn FROM tpch.tiny.nation ORDER BY regionkey, rn;
SELECT nationkey, row_number() OVER (PARTITION BY regionkey ORDER BY name DESC) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT x, rank() OVER (ORDER BY x), dense_rank() OVER (ORDER BY x), row_number() OVER (ORDER BY x, y) FROM (VALUES (1, 'a'), (1, 'b'), (2, 'c'), (3, 'd'), (3, 'e'), (3, 'f'), (7, 'g')) t(x, y) ORDER BY y;
SELECT x, percent_rank() OVER (ORDER BY x), cume_dist() OVER (ORDER BY x) FROM (VALUES 1, 1, 2, 3, 3, 3, 7) t(x) ORDER BY x;
SELECT x, percent_rank() OVER (ORDER BY x), cume_dist() OVER (ORDER BY x) FROM (VALUES 5) t(x);
SELECT x, ntile(3) OVER (ORDER BY x) FROM (VALUES 1, 2, 3, 4, 5, 6, 7, 8) t(x) ORDER BY x;
SELECT x, ntile(5) OVER (ORDER BY x) FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT x, ntile(1) OVER (ORDER BY x) FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT nationkey, ntile(4) OVER (PARTITION BY regionkey ORDER BY nationkey) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT x, rank() OVER (ORDER BY x DESC NULLS LAST), dense_rank() OVER (ORDER BY x NULLS FIRST) FROM (VALUES 3, NULL, 1, NULL, 3) t(x) ORDER BY x NULLS FIRST, 2;
SELECT x, rank() OVER (ORDER BY x) FROM (VALUES 'b', 'a', 'b', 'c') t(x) ORDER BY x;
SELECT orderkey, clerk, totalprice, rank() OVER (PARTITION BY clerk ORDER BY totalprice DESC) AS rnk FROM tpch.tiny.orders WHERE clerk IN ('Clerk#000000001', 'Clerk#000000002') ORDER BY clerk, rnk, orderkey;
SELECT * FROM (SELECT orderkey, custkey, totalprice, row_number() OVER (PARTITION BY custkey ORDER BY totalprice DESC, orderkey) AS rn FROM tpch.tiny.orders WHERE custkey <= 10) WHERE rn <= 2 ORDER BY custkey, rn;
SELECT orderpriority, orderkey, dense_rank() OVER (PARTITION BY orderpriority ORDER BY orderdate) FROM tpch.tiny.orders WHERE orderkey < 40 ORDER BY orderkey;
SELECT count(*) FROM (SELECT rank() OVER (PARTITION BY custkey ORDER BY orderdate) AS r FROM tpch.tiny.orders) WHERE r = 1;
SELECT x, row_number() OVER () FROM (VALUES 42) t(x);
SELECT max(rn) FROM (SELECT row_number() OVER () AS rn FROM tpch.tiny.nation);
SELECT regionkey, rank() OVER (ORDER BY regionkey) FROM tpch.tiny.nation ORDER BY regionkey, 2 LIMIT 7;
SELECT name, percent_rank() OVER (PARTITION BY regionkey ORDER BY name) FROM tpch.tiny.nation ORDER BY name;
SELECT name, cume_dist() OVER (PARTITION BY regionkey ORDER BY nationkey) FROM tpch.tiny.nation ORDER BY name;

-- Value functions
SELECT x, lag(x) OVER (ORDER BY x), lead(x) OVER (ORDER BY x) FROM (VALUES 1, 2, 3, 4) t(x) ORDER BY x;
SELECT x, lag(x, 2) OVER (ORDER BY x), lead(x, 2) OVER (ORDER BY x) FROM (VALUES 1, 2, 3, 4) t(x) ORDER BY x;
SELECT x, lag(x, 1, -1) OVER (ORDER BY x), lead(x, 1, 99) OVER (ORDER BY x) FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT x, lag(x, 0) OVER (ORDER BY x) FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT x, lead(x, 10) OVER (ORDER BY x) FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT k, x, lag(x) OVER (ORDER BY k), lag(x) IGNORE NULLS OVER (ORDER BY k) FROM (VALUES (1, 10), (2, NULL), (3, NULL), (4, 40), (5, NULL)) t(k, x) ORDER BY k;
SELECT k, x, lead(x) OVER (ORDER BY k), lead(x) IGNORE NULLS OVER (ORDER BY k) FROM (VALUES (1, 10), (2, NULL), (3, NULL), (4, 40), (5, NULL)) t(k, x) ORDER BY k;
SELECT k, x, lag(x, 1, 0) RESPECT NULLS OVER (ORDER BY k) FROM (VALUES (1, 10), (2, NULL), (3, 30)) t(k, x) ORDER BY k;
SELECT nationkey, regionkey, lag(name) OVER (PARTITION BY regionkey ORDER BY nationkey), lead(name) OVER (PARTITION BY regionkey ORDER BY nationkey) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT orderkey, orderdate, date_diff('day', lag(orderdate) OVER (PARTITION BY custkey ORDER BY orderdate, orderkey), orderdate) AS gap FROM tpch.tiny.orders WHERE custkey = 1 ORDER BY orderdate, orderkey;
SELECT orderkey, totalprice - lag(totalprice, 1, 0e0) OVER (ORDER BY orderkey) FROM tpch.tiny.orders WHERE orderkey < 10 ORDER BY orderkey;
SELECT x, first_value(x) OVER (ORDER BY x), last_value(x) OVER (ORDER BY x) FROM (VALUES 3, 1, 2) t(x) ORDER BY x;
SELECT x, last_value(x) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM (VALUES 3, 1, 2) t(x) ORDER BY x;
SELECT x, last_value(x) OVER (ORDER BY x) FROM (VALUES 1, 2, 2, 3) t(x) ORDER BY x;
SELECT k, x, first_value(x) OVER (ORDER BY k), first_value(x) IGNORE NULLS OVER (ORDER BY k) FROM (VALUES (1, NULL), (2, 20), (3, NULL), (4, 40)) t(k, x) ORDER BY k;
SELECT k, x, last_value(x) IGNORE NULLS OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM (VALUES (1, 10), (2, NULL), (3, NULL), (4, 40), (5, NULL)) t(k, x) ORDER BY k;
SELECT k, x, nth_value(x, 2) OVER (ORDER BY k) FROM (VALUES (1, 10), (2, 20), (3, 30)) t(k, x) ORDER BY k;
SELECT k, x, nth_value(x, 2) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM (VALUES (1, 10), (2, 20), (3, 30)) t(k, x) ORDER BY k;
SELECT k, x, nth_value(x, 2) IGNORE NULLS OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM (VALUES (1, 10), (2, NULL), (3, 30), (4, 40)) t(k, x) ORDER BY k;
SELECT k, x, nth_value(x, 5) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM (VALUES (1, 10), (2, 20)) t(k, x) ORDER BY k;
SELECT nationkey, first_value(name) OVER (PARTITION BY regionkey ORDER BY nationkey), last_value(name) OVER (PARTITION BY regionkey ORDER BY nationkey ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT nationkey, nth_value(name, 3) OVER (PARTITION BY regionkey ORDER BY nationkey ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT x, first_value(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), last_value(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM (VALUES 1, 2, 3, 4, 5) t(x) ORDER BY x;

-- Aggregates as window functions
SELECT x, sum(x) OVER (ORDER BY x) FROM (VALUES 1, 2, 3, 4) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x) FROM (VALUES 1, 2, 2, 4) t(x) ORDER BY x;
SELECT x, sum(x) OVER () FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT x, count(*) OVER (), count(x) OVER () FROM (VALUES 1, NULL, 3) t(x) ORDER BY x NULLS FIRST;
SELECT nationkey, regionkey, count(*) OVER (PARTITION BY regionkey), sum(nationkey) OVER (PARTITION BY regionkey) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT nationkey, sum(nationkey) OVER (PARTITION BY regionkey ORDER BY nationkey) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT nationkey, avg(nationkey) OVER (PARTITION BY regionkey ORDER BY nationkey ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT nationkey, min(nationkey) OVER (PARTITION BY regionkey), max(nationkey) OVER (PARTITION BY regionkey) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT orderkey, clerk, totalprice, rank() OVER (PARTITION BY clerk ORDER BY totalprice DESC) AS rnk, sum(totalprice) OVER (PARTITION BY clerk) AS clerk_total FROM tpch.tiny.orders WHERE clerk = 'Clerk#000000010' ORDER BY rnk, orderkey;
SELECT clerk, orderdate, orderkey, totalprice, sum(totalprice) OVER (PARTITION BY clerk ORDER BY orderdate, orderkey) AS running FROM tpch.tiny.orders WHERE clerk = 'Clerk#000000020' ORDER BY orderdate, orderkey;
SELECT orderkey, linenumber, quantity, sum(quantity) OVER (PARTITION BY orderkey ORDER BY linenumber) FROM tpch.tiny.lineitem WHERE orderkey <= 7 ORDER BY orderkey, linenumber;
SELECT orderkey, linenumber, avg(extendedprice) OVER (PARTITION BY orderkey) FROM tpch.tiny.lineitem WHERE orderkey <= 5 ORDER BY orderkey, linenumber;
SELECT x, array_agg(x) OVER (ORDER BY x) FROM (VALUES 3, 1, 2) t(x) ORDER BY x;
SELECT x, array_agg(x) OVER (ORDER BY x ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM (VALUES 3, 1, 2) t(x) ORDER BY x;
SELECT x, bool_and(x > 1) OVER (ORDER BY x), bool_or(x > 2) OVER (ORDER BY x) FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT x, count_if(x % 2 = 0) OVER (ORDER BY x) FROM (VALUES 1, 2, 3, 4, 5) t(x) ORDER BY x;
SELECT x, max_by(y, x) OVER (ORDER BY x) FROM (VALUES (1, 'a'), (3, 'c'), (2, 'b')) t(x, y) ORDER BY x;
SELECT x, stddev_pop(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES 1, 3, 7) t(x) ORDER BY x;
SELECT regionkey, nationkey, 100.0 * nationkey / sum(nationkey) OVER (PARTITION BY regionkey) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT regionkey, sum(count(*)) OVER (ORDER BY regionkey) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT regionkey, count(*), rank() OVER (ORDER BY sum(nationkey) DESC) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT orderpriority, count(*), count(*) * 1.0 / sum(count(*)) OVER () FROM tpch.tiny.orders GROUP BY orderpriority ORDER BY orderpriority;
SELECT orderpriority, count(*), round(count(*) / CAST(sum(count(*)) OVER () AS double), 6) FROM tpch.tiny.orders GROUP BY orderpriority ORDER BY orderpriority;

-- Frames: ROWS
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM (VALUES 1, 2, 3, 4, 5) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING) FROM (VALUES 1, 2, 3, 4, 5) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x ROWS 1 PRECEDING) FROM (VALUES 1, 2, 3, 4, 5) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x ROWS UNBOUNDED PRECEDING) FROM (VALUES 1, 2, 3, 4, 5) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) FROM (VALUES 1, 2, 3, 4, 5) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) FROM (VALUES 1, 2, 3, 4, 5) t(x) ORDER BY x;
SELECT x, count(*) OVER (ORDER BY x ROWS BETWEEN 2 FOLLOWING AND 1 FOLLOWING) FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN CURRENT ROW AND CURRENT ROW) FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 0 PRECEDING AND 0 FOLLOWING) FROM (VALUES 1, 2, 3) t(x) ORDER BY x;
SELECT orderkey, avg(totalprice) OVER (ORDER BY orderkey ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM tpch.tiny.orders WHERE orderkey < 40 ORDER BY orderkey;
SELECT orderkey, linenumber, max(discount) OVER (PARTITION BY orderkey ORDER BY linenumber ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM tpch.tiny.lineitem WHERE orderkey IN (1, 3, 7) ORDER BY orderkey, linenumber;

-- Frames: RANGE
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM (VALUES 1, 2, 2, 3) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM (VALUES 1, 2, 2, 3) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM (VALUES 1, 2, 4, 5, 9) t(x) ORDER BY x;
SELECT x, count(*) OVER (ORDER BY x RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM (VALUES 1, 2, 3, 3, 6, 7) t(x) ORDER BY x;
SELECT x, array_agg(x) OVER (ORDER BY x DESC RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) FROM (VALUES 1, 2, 3, 5, 8) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND 0.5 FOLLOWING) FROM (VALUES 1.0, 2.0, 2.5, 4.0) t(x) ORDER BY x;
SELECT x, count(x) OVER (ORDER BY x RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM (VALUES 1, 2, NULL, NULL, 4) t(x) ORDER BY x NULLS FIRST;
SELECT d, count(*) OVER (ORDER BY d RANGE BETWEEN INTERVAL '2' DAY PRECEDING AND CURRENT ROW) FROM (VALUES DATE '2024-02-27', DATE '2024-02-28', DATE '2024-02-29', DATE '2024-03-01', DATE '2024-03-04') t(d) ORDER BY d;
SELECT ts, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) FROM (VALUES TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 00:30:00', TIMESTAMP '2024-01-01 01:15:00', TIMESTAMP '2024-01-01 03:00:00') t(ts) ORDER BY ts;
SELECT orderdate, orderkey, count(*) OVER (ORDER BY orderdate RANGE BETWEEN INTERVAL '3' DAY PRECEDING AND CURRENT ROW) FROM tpch.tiny.orders WHERE custkey = 7 ORDER BY orderdate, orderkey;
SELECT x, first_value(x) OVER (ORDER BY x RANGE BETWEEN 3 PRECEDING AND CURRENT ROW) FROM (VALUES 1, 2, 5, 6, 10) t(x) ORDER BY x;

-- Frames: GROUPS
SELECT x, sum(x) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES 1, 2, 2, 3, 5) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM (VALUES 1, 2, 2, 3, 5) t(x) ORDER BY x;
SELECT x, array_agg(x) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM (VALUES 1, 1, 2, 4, 4, 7) t(x) ORDER BY x;
SELECT x, count(*) OVER (ORDER BY x GROUPS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) FROM (VALUES 1, 1, 2, 3, 3) t(x) ORDER BY x;
SELECT x, count(*) OVER (ORDER BY x GROUPS 2 PRECEDING) FROM (VALUES 1, 2, 2, 3, 4, 4) t(x) ORDER BY x;
SELECT regionkey, nationkey, count(*) OVER (ORDER BY regionkey GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM tpch.tiny.nation ORDER BY nationkey;

-- WINDOW clause
SELECT nationkey, rank() OVER w, sum(nationkey) OVER w FROM tpch.tiny.nation WINDOW w AS (PARTITION BY regionkey ORDER BY nationkey) ORDER BY nationkey;
SELECT nationkey, count(*) OVER (w ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM tpch.tiny.nation WINDOW w AS (PARTITION BY regionkey ORDER BY nationkey) ORDER BY nationkey;
SELECT nationkey, row_number() OVER (w ORDER BY name) FROM tpch.tiny.nation WINDOW w AS (PARTITION BY regionkey) ORDER BY nationkey;
SELECT x, sum(x) OVER w1, max(x) OVER w2 FROM (VALUES 1, 2, 3, 4) t(x) WINDOW w1 AS (ORDER BY x), w2 AS (w1 ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) ORDER BY x;
SELECT x, lag(x) OVER w, lead(x) OVER w FROM (VALUES 5, 6, 7) t(x) WINDOW w AS (ORDER BY x DESC) ORDER BY x;

-- Windows over expressions, filters, subqueries, NULL partitions
SELECT k, x, sum(x) OVER (PARTITION BY k) FROM (VALUES (NULL, 1), (NULL, 2), ('a', 3)) t(k, x) ORDER BY k NULLS FIRST, x;
SELECT x, row_number() OVER (ORDER BY x DESC NULLS FIRST) FROM (VALUES 2, NULL, 1) t(x) ORDER BY x NULLS FIRST;
SELECT x % 3 AS m, x, row_number() OVER (PARTITION BY x % 3 ORDER BY x DESC) FROM (VALUES 1, 2, 3, 4, 5, 6, 7) t(x) ORDER BY m, x;
SELECT name, sum(length(name)) OVER (ORDER BY name ROWS UNBOUNDED PRECEDING) FROM tpch.tiny.region ORDER BY name;
SELECT orderkey, sum(x) FILTER (WHERE x > 1) OVER (ORDER BY orderkey) FROM (VALUES (1, 1), (2, 2), (3, 3)) t(orderkey, x) ORDER BY orderkey;
SELECT max(orderkey - prev), count(*) FILTER (WHERE orderkey - prev > 1) FROM (SELECT orderkey, lag(orderkey) OVER (ORDER BY orderkey) AS prev FROM tpch.tiny.orders);
SELECT s.suppkey, s.nationkey, dense_rank() OVER (PARTITION BY s.nationkey ORDER BY s.acctbal DESC, s.suppkey) FROM tpch.tiny.supplier s WHERE s.nationkey < 3 ORDER BY s.nationkey, s.suppkey;
SELECT p.size, p.partkey, row_number() OVER (PARTITION BY p.size ORDER BY p.retailprice DESC, p.partkey) AS rn FROM tpch.tiny.part p WHERE p.size IN (1, 2) ORDER BY p.size, rn LIMIT 10;
SELECT c.mktsegment, c.custkey, ntile(10) OVER (PARTITION BY c.mktsegment ORDER BY c.acctbal, c.custkey) FROM tpch.tiny.customer c WHERE c.custkey <= 12 ORDER BY c.custkey;
SELECT shipmode, avg(quantity), rank() OVER (ORDER BY avg(quantity) DESC) FROM tpch.tiny.lineitem GROUP BY shipmode ORDER BY shipmode;
SELECT DISTINCT regionkey, count(*) OVER (PARTITION BY regionkey) FROM tpch.tiny.nation ORDER BY regionkey;
SELECT n.name, r.name, row_number() OVER (PARTITION BY r.name ORDER BY n.name) FROM tpch.tiny.nation n JOIN tpch.tiny.region r ON n.regionkey = r.regionkey ORDER BY r.name, n.name;

SELECT x, listagg(x, ',') WITHIN GROUP (ORDER BY x) OVER () FROM (VALUES 'b', 'a') t(x) ORDER BY x;
SELECT orderkey, linenumber, lag(shipdate) OVER (PARTITION BY orderkey ORDER BY linenumber), lead(shipdate, 2) OVER (PARTITION BY orderkey ORDER BY linenumber) FROM tpch.tiny.lineitem WHERE orderkey IN (1, 2, 3) ORDER BY orderkey, linenumber;
SELECT orderkey, linenumber, rank() OVER (PARTITION BY orderkey ORDER BY quantity DESC), percent_rank() OVER (PARTITION BY orderkey ORDER BY quantity) FROM tpch.tiny.lineitem WHERE orderkey IN (1, 3, 4) ORDER BY orderkey, linenumber;
SELECT custkey, orderkey, count(*) OVER (PARTITION BY custkey ORDER BY orderdate, orderkey ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM tpch.tiny.orders WHERE custkey IN (1, 2) ORDER BY custkey, orderdate, orderkey;
SELECT x, y, sum(y) OVER (PARTITION BY x ORDER BY y RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM (VALUES (1, 1), (1, 2), (2, 3)) t(x, y) ORDER BY x, y;
SELECT x, min(x) OVER (ORDER BY x ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) FROM (VALUES 4, 8, 15) t(x) ORDER BY x;
SELECT x, checksum(x) OVER (ORDER BY x) FROM (VALUES 1, 2) t(x) ORDER BY x;
SELECT x, map_agg(x, y) OVER (ORDER BY x) FROM (VALUES (1, 'a'), (2, 'b')) t(x, y) ORDER BY x;
SELECT x, lag(x, 1) OVER (ORDER BY x) IS NULL FROM (SELECT 1 AS x WHERE false) t;

-- More: typed defaults, offsets from expressions, ties over tpch.tiny, frames over dates
SELECT k, lag(d, 1, DATE '1970-01-01') OVER (ORDER BY k), lead(s, 1, 'none') OVER (ORDER BY k) FROM (VALUES (1, DATE '2024-02-28', 'a'), (2, DATE '2024-02-29', 'b')) t(k, d, s) ORDER BY k;
SELECT k, lag(x, 1, 2.5) OVER (ORDER BY k) FROM (VALUES (1, 1), (2, 2)) t(k, x) ORDER BY k;
SELECT k, lead(x, k) OVER (ORDER BY k) FROM (VALUES (1, 10), (2, 20), (3, 30), (4, 40)) t(k, x) ORDER BY k;
SELECT k, nth_value(x, k) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM (VALUES (1, 'p'), (2, 'q'), (3, 'r')) t(k, x) ORDER BY k;
SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1), (1, 2), (2, 3), (3, 4)) t(k, x) ORDER BY k;
SELECT nationkey, lag(nationkey, 2) OVER (PARTITION BY regionkey ORDER BY nationkey), lead(nationkey, 2) OVER (PARTITION BY regionkey ORDER BY nationkey) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT shipmode, count(*), dense_rank() OVER (ORDER BY count(*) DESC), percent_rank() OVER (ORDER BY count(*)) FROM tpch.tiny.lineitem GROUP BY shipmode ORDER BY shipmode;
SELECT orderkey, linenumber, returnflag, rank() OVER (PARTITION BY orderkey ORDER BY returnflag), dense_rank() OVER (PARTITION BY orderkey ORDER BY returnflag) FROM tpch.tiny.lineitem WHERE orderkey IN (65, 66, 67, 68, 69) ORDER BY orderkey, linenumber;
SELECT suppkey, nationkey, acctbal, cume_dist() OVER (PARTITION BY nationkey ORDER BY acctbal) FROM tpch.tiny.supplier WHERE nationkey IN (0, 1) ORDER BY suppkey;
SELECT * FROM (SELECT partkey, size, rank() OVER (PARTITION BY size ORDER BY retailprice) AS r FROM tpch.tiny.part WHERE size = 50) WHERE r <= 3 ORDER BY r, partkey;
SELECT orderdate, orderkey, sum(totalprice) OVER (ORDER BY orderdate RANGE BETWEEN CURRENT ROW AND INTERVAL '10' DAY FOLLOWING) FROM tpch.tiny.orders WHERE custkey = 4 ORDER BY orderdate, orderkey;
SELECT orderdate, orderkey, count(*) OVER (ORDER BY orderdate RANGE BETWEEN INTERVAL '1' MONTH PRECEDING AND CURRENT ROW) FROM tpch.tiny.orders WHERE custkey = 10 ORDER BY orderdate, orderkey;
SELECT orderkey, count(*) OVER (ORDER BY orderdate DESC RANGE BETWEEN INTERVAL '100' DAY PRECEDING AND CURRENT ROW) FROM tpch.tiny.orders WHERE custkey = 13 ORDER BY orderkey;
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 5 FOLLOWING AND 10 FOLLOWING) FROM (VALUES 1, 4, 8, 12, 20) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 10 PRECEDING AND 5 PRECEDING) FROM (VALUES 1, 4, 8, 12, 20) t(x) ORDER BY x;
SELECT x, sum(x) OVER (ORDER BY x DESC GROUPS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) FROM (VALUES 1, 2, 2, 3, 4) t(x) ORDER BY x;
SELECT x, first_value(x) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND 1 PRECEDING) FROM (VALUES 1, 1, 2, 3, 3) t(x) ORDER BY x;
SELECT x, count(*) OVER (PARTITION BY x % 2 ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) FROM (VALUES 1, 2, 3, 4, 5, 6) t(x) ORDER BY x;
SELECT x, avg(y) OVER (ORDER BY x) FROM (VALUES (1, INTERVAL '1' DAY), (2, INTERVAL '3' DAY)) t(x, y) ORDER BY x;
SELECT x, min_by(y, x) OVER (ORDER BY x DESC) FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c')) t(x, y) ORDER BY x;
SELECT x, listagg(y, '+') WITHIN GROUP (ORDER BY y) OVER (PARTITION BY x) FROM (VALUES (1, 'b'), (1, 'a'), (2, 'c')) t(x, y) ORDER BY x, 2;
SELECT regionkey, nationkey, sum(nationkey) OVER (PARTITION BY regionkey) - nationkey AS others FROM tpch.tiny.nation ORDER BY nationkey;
SELECT regionkey, max(name) OVER (PARTITION BY regionkey ORDER BY nationkey ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT rn, name FROM (SELECT name, row_number() OVER (ORDER BY name DESC) AS rn FROM tpch.tiny.nation) WHERE rn BETWEEN 3 AND 6 ORDER BY rn;
SELECT regionkey, name FROM (SELECT regionkey, name, row_number() OVER (PARTITION BY regionkey ORDER BY length(name) DESC, name) AS rn FROM tpch.tiny.nation) WHERE rn = 1 ORDER BY regionkey;
SELECT x, row_number() OVER (ORDER BY x) FROM (VALUES 3, 1, 2) t(x) ORDER BY 2 DESC;
SELECT x, rank() OVER (ORDER BY x) FROM (VALUES 1e0, nan(), 2e0, nan()) t(x) ORDER BY 2, x;
SELECT x, y, lag(y) OVER (PARTITION BY x ORDER BY y) FROM (VALUES (ARRAY[1], 1), (ARRAY[1], 2), (ARRAY[2], 3)) t(x, y) ORDER BY y;
SELECT count(*) OVER (), count(*) FROM tpch.tiny.nation;
SELECT sum(count(*)) OVER (PARTITION BY orderstatus), orderstatus, orderpriority, count(*) FROM tpch.tiny.orders GROUP BY orderstatus, orderpriority ORDER BY orderstatus, orderpriority;
SELECT regionkey, row_number() OVER (ORDER BY regionkey) FROM tpch.tiny.region UNION ALL SELECT 99, 0 ORDER BY 1;
SELECT k, ntile(2) OVER (ORDER BY k), ntile(4) OVER (ORDER BY k DESC) FROM UNNEST(sequence(1, 9)) AS t(k) ORDER BY k;

-- Refusals
SELECT orderkey, sum(totalprice) OVER (PARTITION BY custkey ORDER BY orderdate GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW), rank() FROM tpch.tiny.orders;
SELECT x, sum(x) OVER (ORDER BY x GROUPS 1 PRECEDING) FROM (VALUES 1) t(x) GROUP BY 1 HAVING rank() OVER (ORDER BY x) = 1;
SELECT row_number() FROM tpch.tiny.nation;
SELECT name FROM tpch.tiny.nation WHERE rank() OVER (ORDER BY nationkey) = 1;
SELECT ntile(0) OVER (ORDER BY x) FROM (VALUES 1) t(x);
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES 'a') t(x);
SELECT x, sum(x) OVER (RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES 1) t(x);
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM (VALUES 1) t(x);
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM (VALUES 1) t(x);
SELECT x, rank() OVER w FROM (VALUES 1) t(x);
SELECT x, lag(x, -1) OVER (ORDER BY x) FROM (VALUES 1, 2) t(x);
SELECT nth_value(x, 0) OVER (ORDER BY x) FROM (VALUES 1) t(x);
SELECT listagg(x, ',') WITHIN GROUP (ORDER BY x) OVER () FROM (VALUES 'a') t(x);
SELECT x, count(DISTINCT x) OVER () FROM (VALUES 1) t(x);
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) FROM (VALUES 1) t(x);
SELECT x, sum(x) OVER (ORDER BY x, x RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES 1) t(x);
SELECT x, sum(x) OVER (ORDER BY x GROUPS 1 PRECEDING) FROM (VALUES 1) t(x) WINDOW w AS (ORDER BY x), w AS (ORDER BY x);
SELECT rank(x) OVER (ORDER BY x) FROM (VALUES 1) t(x);
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM (VALUES 1) t(x);
SELECT x, avg(x) OVER (ORDER BY x RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND CURRENT ROW) FROM (VALUES 3) t(x);

-- source: Trino 476 docs, functions/window.md: its examples as written (extracted page by page)
SELECT orderkey, clerk, totalprice, rank() OVER (PARTITION BY clerk ORDER BY totalprice DESC) AS rnk FROM orders ORDER BY clerk, rnk;
SELECT clerk, orderdate, orderkey, totalprice, sum(totalprice) OVER (PARTITION BY clerk ORDER BY orderdate) AS rolling_sum FROM orders ORDER BY clerk, orderdate, orderkey;
