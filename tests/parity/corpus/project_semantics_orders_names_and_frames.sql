-- family: project_semantics_orders_names_and_frames
-- source: Trino 476 AbstractMapAggregationState (map_agg's entries in its hash table's bucket order; AbstractLongType.hash, XxHash64 of varchar), DoubleSumAggregation / DoubleAverageAggregation (NaN kept), StatementAnalyzer (unnamed fields are named _colN by output position and answer to no name), RowsFraming (ROWS offsets computed per row); each answer checked against the pinned Trino 476

-- source: MapAggregationFunction over AbstractMapAggregationState: a global aggregation reading a table runs a partial and a final state, VALUES and ORDER BY one, a window frame one
SELECT map_keys(map_agg(nationkey, name)) FROM tpch.tiny.nation;
SELECT map_keys(map_agg(name, 1)) FROM tpch.tiny.nation WHERE nationkey < 13;
SELECT map_keys(map_agg(x, 1)) FROM (VALUES 'ALGERIA', 'ARGENTINA', 'BRAZIL', 'CANADA', 'EGYPT', 'ETHIOPIA', 'FRANCE', 'GERMANY', 'INDIA', 'INDONESIA', 'IRAN', 'IRAQ', 'JAPAN') t(x);
SELECT map_keys(map_agg(nationkey, name ORDER BY nationkey DESC)) FROM tpch.tiny.nation;
SELECT map_keys(map_agg(orderkey, 1)) FROM tpch.tiny.orders WHERE orderkey < 200;
SELECT map_keys(map_agg(x, 1)) FROM (VALUES 1.5e0, 0e0, -0e0, nan(), 2e0, infinity()) t(x);
SELECT map_keys(map_agg(x, 1)) FROM (VALUES 'a', 'b', 'c', 'abcdefghijklmnopqrstuvwxyz0123456789') t(x);
SELECT map_keys(map_agg(x, 1)) FROM (VALUES TINYINT '-1', TINYINT '7', TINYINT '100') t(x);
SELECT x, map_keys(map_agg(x, x * 10) OVER (ORDER BY x ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)) FROM (VALUES 4, 8, 15, 16, 23) AS t(x) ORDER BY x;

-- source: DoubleSumAggregation, DoubleAverageAggregation: NaN in, NaN out; both infinities make NaN
SELECT sum(x), avg(x) FROM (VALUES 2e0, nan(), 3e0) t(x);
SELECT sum(x), avg(x) FROM (VALUES infinity(), -infinity(), 1e0) t(x);
SELECT g, sum(x), avg(x) FROM (VALUES (1, nan()), (1, 2e0), (2, 3e0), (2, NULL)) t(g, x) GROUP BY g ORDER BY g;
SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1, 1e0), (2, nan()), (3, 2e0), (4, 3e0)) t(k, x) ORDER BY k;
SELECT sum(x) FROM (VALUES REAL 'NaN', REAL '1.5') t(x);
SELECT sum(x) > 1 FROM (VALUES nan(), 5e0) t(x);

-- source: StatementAnalyzer: an unnamed field answers to no name and is _colN by its output position
SELECT _col0 FROM (SELECT 1);
SELECT _col1 FROM (SELECT 1, 2);
SELECT 1 ORDER BY _col0;
SELECT * FROM (SELECT 1), (SELECT 2);
WITH w AS (SELECT 1) SELECT * FROM w, w v;
SELECT * FROM (VALUES 1) CROSS JOIN UNNEST(ARRAY[1]) WITH ORDINALITY;
SELECT _col0 FROM (SELECT 7 AS _col0);

-- source: RowsFraming and the WINDOW clause (docs sql/select): ROWS offsets read for each row, clamped to the partition
SELECT k, avg(x) OVER (PARTITION BY g ORDER BY k ROWS BETWEEN CURRENT ROW AND k FOLLOWING) FROM (VALUES (0, 1, 'a'), (1, 2, 'a'), (2, 3, 'b'), (3, 4, 'b'), (4, 5, 'a')) t(k, x, g) ORDER BY k;
SELECT k, count(*) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND 1 FOLLOWING) FROM (VALUES 0, 1, 2, 3, 4) t(k) ORDER BY k;
SELECT k, max(e) OVER (ORDER BY k ROWS BETWEEN k FOLLOWING AND k + 1 FOLLOWING) FROM (VALUES (0, 0e0), (1, 1e0), (2, 2e0), (3, 3e0)) t(k, e) ORDER BY k;
SELECT k, count(*) OVER (ORDER BY k ROWS BETWEEN k + 2 PRECEDING AND k + 1 PRECEDING) FROM (VALUES 0, 1, 2, 3) t(k) ORDER BY k;
SELECT k, first_value(x) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW), last_value(x) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND k PRECEDING) FROM (VALUES (0, 'a'), (1, 'b'), (2, 'c')) t(k, x) ORDER BY k;
SELECT orderkey, linenumber, sum(quantity) OVER (PARTITION BY orderkey ORDER BY linenumber ROWS BETWEEN linenumber PRECEDING AND CURRENT ROW) FROM tpch.tiny.lineitem WHERE orderkey < 4 ORDER BY orderkey, linenumber;
SELECT k, sum(d) OVER (ORDER BY k ROWS BETWEEN k PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1.5), (1, 2.25), (2, 0.75)) t(k, d) ORDER BY k;
SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN x PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1), (1, -2), (2, 3)) t(k, x);
SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN CAST(NULL AS integer) PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1)) t(k, x);
SELECT k, sum(x) OVER (ORDER BY k ROWS BETWEEN k * 1.5 PRECEDING AND CURRENT ROW) FROM (VALUES (0, 1), (1, 2)) t(k, x);
