-- family: sketch_functions
-- source: Trino 476 docs, functions/hyperloglog.md (https://trino.io/docs/476/functions/hyperloglog.html)
-- source: Trino tests TestHyperLogLogFunctions, TestApproximateSetAggregation, TestMergeHyperLogLogAggregation

SELECT cardinality(approx_set(v)) FROM (VALUES 3, 3, 4, 9, 9, 12) t(v);
SELECT cardinality(approx_set(v)) FROM (VALUES 'north', 'south', 'north', 'east') t(v);
SELECT cardinality(approx_set(v)) FROM (VALUES 0.25e0, 0.5e0, 0.25e0) t(v);
SELECT approx_set(v) FROM (VALUES 17, 18, 19) t(v);
SELECT approx_set(v) FROM (VALUES 'kiwi', 'fig') t(v);
SELECT approx_set(v) FROM (VALUES 2.75e0) t(v);
SELECT approx_set(v) FROM (VALUES 2.75) t(v);
SELECT approx_set(v) FROM (VALUES REAL '2.75') t(v);
SELECT approx_set(v) FROM (VALUES 1, NULL) t(v);
SELECT approx_set(v) IS NULL FROM (VALUES CAST(NULL AS bigint)) t(v);
SELECT approx_set(DISTINCT v) FROM (VALUES 5, 5, 6) t(v);
SELECT approx_set(v) FROM UNNEST(sequence(1, 511)) t(v);
SELECT approx_set(v) FROM UNNEST(sequence(1, 512)) t(v);
SELECT cardinality(approx_set(v)) FROM UNNEST(sequence(1, 511)) t(v);
SELECT cardinality(approx_set(v)) FROM UNNEST(sequence(1, 4000)) t(v);
SELECT cardinality(approx_set(x * 10 + y)) FROM UNNEST(sequence(1, 6000)) a(x) CROSS JOIN UNNEST(sequence(0, 9)) b(y);
SELECT cardinality(approx_set(CAST(v AS varchar))) FROM UNNEST(sequence(1, 2500)) t(v);
SELECT cardinality(approx_set(nationkey)) FROM tpch.tiny.nation;
SELECT cardinality(approx_set(custkey)) FROM tpch.tiny.orders;
SELECT regionkey, cardinality(approx_set(name)) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT empty_approx_set();
SELECT cardinality(empty_approx_set());
SELECT typeof(empty_approx_set()), typeof(approx_set(1));
SELECT cardinality(merge(h)) FROM (SELECT approx_set(v) AS h FROM UNNEST(sequence(1, 9000)) t(v) GROUP BY v % 5);
SELECT merge(h) FROM (SELECT approx_set(v) AS h FROM (VALUES (1, 'a'), (2, 'a'), (3, 'b')) t(v, g) GROUP BY g);
SELECT merge(h) FROM (VALUES empty_approx_set(), NULL) t(h);
SELECT merge(h) IS NULL FROM (VALUES CAST(NULL AS HyperLogLog)) t(h);
SELECT cardinality(merge(h)) FROM (SELECT regionkey, approx_set(nationkey) AS h FROM tpch.tiny.nation GROUP BY regionkey);
SELECT CAST(approx_set(v) AS varbinary) FROM (VALUES 40, 41) t(v);
SELECT cardinality(CAST(CAST(approx_set(v) AS varbinary) AS HyperLogLog)) FROM (VALUES 40, 41, 42) t(v);
SELECT CAST(approx_set(v) AS P4HyperLogLog) FROM (VALUES 40, 41) t(v);
SELECT CAST(CAST(empty_approx_set() AS P4HyperLogLog) AS HyperLogLog);
SELECT cardinality(CAST(approx_set(v) AS P4HyperLogLog)) FROM UNNEST(sequence(1, 300)) t(v);
SELECT merge(CAST(approx_set(v) AS P4HyperLogLog)) FROM (VALUES 8) t(v);
SELECT typeof(CAST(empty_approx_set() AS P4HyperLogLog));
SELECT v, cardinality(approx_set(v) OVER (ORDER BY v)) FROM (VALUES 1, 2, 2, 3) t(v) ORDER BY v;

-- source: Trino 476 docs, functions/qdigest.md (https://trino.io/docs/476/functions/qdigest.html)
-- source: Trino tests TestQuantileDigestFunctions, TestQuantileDigestAggregationFunction, TestMergeQuantileDigestFunction
SELECT qdigest_agg(v) FROM (VALUES 7) t(v);
SELECT qdigest_agg(v) FROM UNNEST(sequence(1, 30)) t(v);
SELECT qdigest_agg(v, 2) FROM UNNEST(sequence(1, 30)) t(v);
SELECT qdigest_agg(v, 1, 0.2) FROM UNNEST(sequence(1, 300)) t(v);
SELECT qdigest_agg(CAST(v AS double)) FROM UNNEST(sequence(1, 40)) t(v);
SELECT qdigest_agg(CAST(v AS real)) FROM UNNEST(sequence(1, 40)) t(v);
SELECT qdigest_agg(v) FROM UNNEST(sequence(1, 3000)) t(v);
SELECT typeof(qdigest_agg(v)), typeof(qdigest_agg(CAST(v AS double))), typeof(qdigest_agg(CAST(v AS real))) FROM (VALUES 1) t(v);
SELECT typeof(qdigest_agg(CAST(v AS integer))), typeof(qdigest_agg(CAST(v AS decimal(4,1)))) FROM (VALUES 1) t(v);
SELECT qdigest_agg(v) IS NULL FROM (VALUES 1) t(v) WHERE v > 1;
SELECT value_at_quantile(qdigest_agg(v), 0.5) FROM UNNEST(sequence(1, 100)) t(v);
SELECT value_at_quantile(qdigest_agg(v), 0.0), value_at_quantile(qdigest_agg(v), 1.0) FROM UNNEST(sequence(10, 90)) t(v);
SELECT value_at_quantile(qdigest_agg(v), 0.9) FROM UNNEST(sequence(1, 5000)) t(v);
SELECT value_at_quantile(qdigest_agg(CAST(v AS double) / 4), 0.25) FROM UNNEST(sequence(1, 1000)) t(v);
SELECT value_at_quantile(qdigest_agg(CAST(v AS real)), 0.75) FROM UNNEST(sequence(1, 1000)) t(v);
SELECT value_at_quantile(qdigest_agg(v), 0.5) FROM (VALUES -5, -1, 0, 3, 8) t(v);
SELECT value_at_quantile(qdigest_agg(v, w), 0.5) FROM (VALUES (1, 1), (2, 1), (100, 10)) t(v, w);
SELECT values_at_quantiles(qdigest_agg(v), ARRAY[0.1, 0.5, 0.9]) FROM UNNEST(sequence(1, 1000)) t(v);
SELECT values_at_quantiles(qdigest_agg(v), ARRAY[0.9, 0.1]) FROM UNNEST(sequence(1, 50)) t(v);
SELECT values_at_quantiles(qdigest_agg(CAST(v AS double)), ARRAY[0.2, 0.8]) FROM UNNEST(sequence(1, 200)) t(v);
SELECT values_at_quantiles(qdigest_agg(CAST(v AS real)), ARRAY[0.2, 0.8]) FROM UNNEST(sequence(1, 200)) t(v);
SELECT quantile_at_value(qdigest_agg(v), 3), quantile_at_value(qdigest_agg(v), 1), quantile_at_value(qdigest_agg(v), 99) FROM (VALUES 1, 2, 3, 4, 5) t(v);
SELECT quantile_at_value(qdigest_agg(v), 700) FROM UNNEST(sequence(1, 1000)) t(v);
SELECT quantile_at_value(qdigest_agg(CAST(v AS double)), 250.5) FROM UNNEST(sequence(1, 1000)) t(v);
SELECT quantile_at_value(qdigest_agg(CAST(v AS real)), REAL '600') FROM UNNEST(sequence(1, 1000)) t(v);
SELECT value_at_quantile(merge(d), 0.5) FROM (SELECT qdigest_agg(v) AS d FROM UNNEST(sequence(1, 1000)) t(v) GROUP BY v % 4);
SELECT values_at_quantiles(merge(d), ARRAY[0.25, 0.75]) FROM (SELECT qdigest_agg(v) AS d FROM UNNEST(sequence(1, 12)) t(v) GROUP BY v % 2);
SELECT typeof(merge(d)) FROM (SELECT qdigest_agg(CAST(v AS real)) AS d FROM (VALUES 1) t(v));
SELECT regionkey, value_at_quantile(qdigest_agg(nationkey), 0.5) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT value_at_quantile(qdigest_agg(quantity), 0.5) FROM tpch.tiny.lineitem;
SELECT CAST(qdigest_agg(v) AS varbinary) FROM (VALUES 3, 4) t(v);
SELECT value_at_quantile(CAST(CAST(qdigest_agg(v) AS varbinary) AS qdigest(bigint)), 0.5) FROM UNNEST(sequence(1, 9)) t(v);
SELECT v, value_at_quantile(qdigest_agg(v) OVER (ORDER BY v ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), 0.5) FROM UNNEST(sequence(1, 6)) t(v) ORDER BY v;

-- source: Trino 476 docs, functions/tdigest.md (https://trino.io/docs/476/functions/tdigest.html)
-- source: Trino tests TestTDigestFunctions, TestTDigestAggregationFunction, TestMergeTDigestAggregation
SELECT tdigest_agg(v) FROM (VALUES 7.5e0) t(v);
SELECT tdigest_agg(v) FROM UNNEST(sequence(1, 30)) t(v);
SELECT tdigest_agg(v, 3) FROM UNNEST(sequence(1, 30)) t(v);
SELECT tdigest_agg(v) FROM UNNEST(sequence(1, 3000)) t(v);
SELECT tdigest_agg(sqrt(v)) FROM UNNEST(sequence(1, 2000)) t(v);
SELECT typeof(tdigest_agg(v)) FROM (VALUES 1) t(v);
SELECT tdigest_agg(v) IS NULL FROM (VALUES 1) t(v) WHERE v > 1;
SELECT value_at_quantile(tdigest_agg(v), 0.5) FROM UNNEST(sequence(1, 100)) t(v);
SELECT value_at_quantile(tdigest_agg(v), 0.5) FROM (VALUES 1.5, 2.5) t(v);
SELECT value_at_quantile(tdigest_agg(v), 0.99) FROM UNNEST(sequence(1, 10000)) t(v);
SELECT value_at_quantile(tdigest_agg(v, w), 0.5) FROM (VALUES (1, 1), (2, 1), (100, 10)) t(v, w);
SELECT values_at_quantiles(tdigest_agg(v), ARRAY[0.1, 0.5, 0.9]) FROM UNNEST(sequence(1, 1000)) t(v);
SELECT values_at_quantiles(tdigest_agg(v), ARRAY[0.0, 1.0]) FROM (VALUES 4, 8, 15) t(v);
SELECT value_at_quantile(merge(d), 0.5), value_at_quantile(merge(d), 0.9) FROM (SELECT tdigest_agg(v) AS d FROM UNNEST(sequence(1, 1000)) t(v) GROUP BY v % 2);
SELECT merge(d) FROM (SELECT tdigest_agg(v) AS d FROM UNNEST(sequence(1, 10)) t(v) GROUP BY v % 2);
SELECT value_at_quantile(tdigest_agg(totalprice), 0.0) FROM tpch.tiny.orders;
SELECT CAST(tdigest_agg(v) AS varbinary) FROM (VALUES 3, 4) t(v);
SELECT value_at_quantile(CAST(CAST(tdigest_agg(v) AS varbinary) AS tdigest), 0.5) FROM UNNEST(sequence(1, 9)) t(v);
SELECT v, value_at_quantile(tdigest_agg(v) OVER (ORDER BY v ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), 0.5) FROM UNNEST(sequence(1, 6)) t(v) ORDER BY v;

-- source: Trino 476 docs, functions/aggregate.md, "Approximate aggregate functions" (https://trino.io/docs/476/functions/aggregate.html)
-- source: Trino tests TestDoubleHistogramAggregation, TestRealHistogramAggregation, TestNumericHistogram
SELECT numeric_histogram(3, v) FROM (VALUES 1e0, 2e0, 5e0, 6e0, 10e0) t(v);
SELECT numeric_histogram(2, v, w) FROM (VALUES (1e0, 2e0), (2e0, 1e0), (5e0, 1e0), (6e0, 3e0), (10e0, 1e0)) t(v, w);
SELECT numeric_histogram(2, CAST(v AS real)) FROM (VALUES 1, 2, 5, 6, 10) t(v);
SELECT numeric_histogram(5, v) FROM (VALUES 4, 4, 9) t(v);
SELECT typeof(numeric_histogram(5, v)), typeof(numeric_histogram(5, v * 1e0)) FROM (VALUES 1) t(v);
SELECT numeric_histogram(3, v) FROM (VALUES 1.5, 2.25) t(v);
SELECT numeric_histogram(10, v) FROM UNNEST(sequence(1, 1000)) t(v);
SELECT numeric_histogram(7, sqrt(v), v % 3 + 1) FROM UNNEST(sequence(1, 5000)) t(v);
SELECT numeric_histogram(20, CAST(v AS real) / 7) FROM UNNEST(sequence(1, 3000)) t(v);
SELECT numeric_histogram(50, v * 1e0) FROM UNNEST(sequence(1, 3000)) t(v);
SELECT numeric_histogram(2, v) IS NULL FROM (VALUES 1) t(v) WHERE v > 1;
SELECT numeric_histogram(4, v) FROM (VALUES 3e0, NULL, 8e0) t(v);

SELECT approx_most_frequent(3, v, 10) FROM (VALUES 1, 2, 2, 3, 3, 3, 4) t(v);
SELECT approx_most_frequent(2, v, 2) FROM (VALUES 'a', 'a', 'b', 'c', 'c', 'd') t(v);
SELECT approx_most_frequent(3, x, 5), approx_most_frequent(2, CAST(x AS varchar), 100) FROM (SELECT (v * 7) % 11 AS x FROM UNNEST(sequence(1, 500)) t(v));
SELECT approx_most_frequent(4, v % 13, 6) FROM UNNEST(sequence(1, 2000)) t(v);
SELECT approx_most_frequent(5, v * v % 17, 8) FROM UNNEST(sequence(1, 3000)) t(v);
SELECT approx_most_frequent(3, v, 2) IS NULL FROM (VALUES 1) t(v) WHERE v > 1;
SELECT typeof(approx_most_frequent(3, v, 2)) FROM (VALUES 'x') t(v);
SELECT approx_most_frequent(2, v, 4) FROM (VALUES 6, NULL, 6, 9) t(v);

-- Refusals
SELECT approx_set(v) FROM (VALUES true) t(v);
SELECT empty_approx_set() = empty_approx_set();
SELECT CAST(approx_set(1) AS varchar);
SELECT CAST(X'0203' AS P4HyperLogLog);
SELECT CAST(CAST(empty_approx_set() AS P4HyperLogLog) AS varbinary);
SELECT cardinality(CAST(X'00' AS HyperLogLog));
SELECT qdigest_agg(v, 0) FROM (VALUES 1) t(v);
SELECT qdigest_agg(v, 1, 1) FROM (VALUES 1) t(v);
SELECT qdigest_agg(v) FROM (VALUES 'x') t(v);
SELECT value_at_quantile(qdigest_agg(v), 1.5) FROM (VALUES 1) t(v);
SELECT value_at_quantile(CAST(X'00' AS qdigest(bigint)), 0.5);
SELECT CAST(qdigest_agg(1) AS qdigest(double));
SELECT CAST(X'00' AS qdigest(varchar));
SELECT qdigest_agg(1) = qdigest_agg(1);
SELECT tdigest_agg(v, 0) FROM (VALUES 1e0) t(v);
SELECT tdigest_agg(v) FROM (VALUES nan()) t(v);
SELECT value_at_quantile(tdigest_agg(v), 2) FROM (VALUES 1e0) t(v);
SELECT values_at_quantiles(tdigest_agg(v), ARRAY[0.5, 0.1]) FROM (VALUES 1, 2, 3) t(v);
SELECT merge(v) FROM (VALUES 1) t(v);
SELECT numeric_histogram(1, v) FROM (VALUES 1e0) t(v);
SELECT numeric_histogram(3, v) FROM (VALUES 'a') t(v);
SELECT approx_most_frequent(1, v, 6) FROM (VALUES 1) t(v);
SELECT approx_most_frequent(3, v, 20) FROM (VALUES 1.5) t(v);
