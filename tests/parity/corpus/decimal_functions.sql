-- family: decimal_functions
-- source: Trino 476 docs, functions/decimal.md (https://trino.io/docs/476/functions/decimal.html)

-- source: functions/decimal.md, decimal literals
SELECT DECIMAL '0';
SELECT DECIMAL '67890';
SELECT DECIMAL '0000067890.6789000000';
SELECT typeof(DECIMAL '0000067890.6789000000');
SELECT DECIMAL '-1.5';
SELECT DECIMAL '.5';
SELECT typeof(DECIMAL '.5');
SELECT DECIMAL '5.';
SELECT DECIMAL '+3.25';
SELECT DECIMAL '  7.1  ';
SELECT DECIMAL '12345678901234567890123456789012345678';
SELECT DECIMAL '-0.00000000000000000000000000000000000001';
SELECT DECIMAL '1234567890123456789012345678901234567890';
SELECT DECIMAL 'abc';
SELECT DECIMAL '';
SELECT 1.5;
SELECT 0.0;
SELECT 00.10;
SELECT typeof(00.10);
SELECT -0.5;
SELECT typeof(.25);
SELECT 1234567890123456789.123;
SELECT typeof(1234567890123456789012.5);
SELECT 1.5e0;
SELECT typeof(1.5e0);

-- source: functions/decimal.md, addition and subtraction: precision min(38, 1 + max(xs, ys) + max(xp - xs, yp - ys)), scale max(xs, ys)
SELECT 1.5 + 2.25, typeof(1.5 + 2.25);
SELECT 12.34 - 0.001, typeof(12.34 - 0.001);
SELECT DECIMAL '99.9' + DECIMAL '0.1', typeof(DECIMAL '99.9' + DECIMAL '0.1');
SELECT DECIMAL '999' + DECIMAL '1', typeof(DECIMAL '999' + DECIMAL '1');
SELECT 0.1 + 0.2, typeof(0.1 + 0.2);
SELECT -5.5 - 4.5, typeof(-5.5 - 4.5);
SELECT DECIMAL '12345678901234567890' + 0.5, typeof(DECIMAL '12345678901234567890' + 0.5);
SELECT 1.5 + 2, typeof(1.5 + 2);
SELECT 1.5 + BIGINT '2', typeof(1.5 + BIGINT '2');
SELECT 1.5 + TINYINT '2', typeof(1.5 + TINYINT '2');
SELECT 1.5 + SMALLINT '2', typeof(1.5 + SMALLINT '2');
SELECT 2.5 - 10, typeof(2.5 - 10);
SELECT DECIMAL '0.000' - DECIMAL '0.0', typeof(DECIMAL '0.000' - DECIMAL '0.0');
SELECT DECIMAL '99999999999999999999999999999999999999' + 1;
SELECT DECIMAL '-99999999999999999999999999999999999999' - 1;
SELECT DECIMAL '9999999999999999999999999999999999999.9' + DECIMAL '0.1';
SELECT DECIMAL '99999999999999999999999999999999999999' + DECIMAL '0.1';
SELECT typeof(DECIMAL '99999999999999999999999999999999999999' + DECIMAL '0.1');

-- source: functions/decimal.md, multiplication: precision min(38, xp + yp), scale xs + ys
SELECT 1.5 * 2.25, typeof(1.5 * 2.25);
SELECT 0.1 * 0.1, typeof(0.1 * 0.1);
SELECT -1.25 * 4, typeof(-1.25 * 4);
SELECT DECIMAL '123.45' * DECIMAL '0.001', typeof(DECIMAL '123.45' * DECIMAL '0.001');
SELECT 2.50 * 2, typeof(2.50 * 2);
SELECT 1.5 * BIGINT '3', typeof(1.5 * BIGINT '3');
SELECT DECIMAL '0.5' * TINYINT '7', typeof(DECIMAL '0.5' * TINYINT '7');
SELECT DECIMAL '1234567890.12345' * DECIMAL '1234567890.12345', typeof(DECIMAL '1234567890.12345' * DECIMAL '1234567890.12345');
SELECT DECIMAL '0.0000000001' * DECIMAL '0.0000000001', typeof(DECIMAL '0.0000000001' * DECIMAL '0.0000000001');
SELECT DECIMAL '10000000000000000000' * DECIMAL '10000000000000000000';
SELECT DECIMAL '9999999999999999999' * DECIMAL '99999999999999999999';
SELECT DECIMAL '0.1234567890123456789012345678901234567' * DECIMAL '10.5';

-- source: functions/decimal.md, division: precision min(38, xp + ys - xs + max(0, ys - xs)), scale max(xs, ys)
SELECT 1.0 / 3, typeof(1.0 / 3);
SELECT 10.00 / 4, typeof(10.00 / 4);
SELECT 1 / 3.0, typeof(1 / 3.0);
SELECT 7.5 / 2.5, typeof(7.5 / 2.5);
SELECT -7.5 / 2, typeof(-7.5 / 2);
SELECT DECIMAL '100' / DECIMAL '0.7', typeof(DECIMAL '100' / DECIMAL '0.7');
SELECT 1.000 / 3, typeof(1.000 / 3);
SELECT 2.5 / 0.3, typeof(2.5 / 0.3);
SELECT DECIMAL '1' / DECIMAL '8', typeof(DECIMAL '1' / DECIMAL '8');
SELECT 5.55 / BIGINT '2', typeof(5.55 / BIGINT '2');
SELECT DECIMAL '0.05' / 2, typeof(DECIMAL '0.05' / 2);
SELECT DECIMAL '0.15' / 2, typeof(DECIMAL '0.15' / 2);
SELECT DECIMAL '-0.15' / 2, typeof(DECIMAL '-0.15' / 2);
SELECT DECIMAL '2' / DECIMAL '3', typeof(DECIMAL '2' / DECIMAL '3');
SELECT 1.5 / 0;
SELECT DECIMAL '0.0' / DECIMAL '0.0';
SELECT DECIMAL '99999999999999999999999999999999999999' / DECIMAL '0.1';

-- source: functions/decimal.md, modulus: scale max(xs, ys)
SELECT 10.5 % 3, typeof(10.5 % 3);
SELECT -10.5 % 3, typeof(-10.5 % 3);
SELECT 10.5 % -3, typeof(10.5 % -3);
SELECT 7.25 % 0.5, typeof(7.25 % 0.5);
SELECT DECIMAL '100' % DECIMAL '7', typeof(DECIMAL '100' % DECIMAL '7');
SELECT 5.5 % BIGINT '2', typeof(5.5 % BIGINT '2');
SELECT DECIMAL '0.07' % DECIMAL '0.02', typeof(DECIMAL '0.07' % DECIMAL '0.02');
SELECT 10.5 % 0;

-- source: functions/decimal.md, unary minus and comparison operators
SELECT -DECIMAL '12.30';
SELECT -(-1.5);
SELECT typeof(-DECIMAL '12.30');
SELECT 1.50 = 1.5;
SELECT 1.5 < 1.51;
SELECT DECIMAL '0.1' + DECIMAL '0.2' = DECIMAL '0.3';
SELECT 0.1E0 + 0.2E0 = 0.3E0;
SELECT 2.0 > 1;
SELECT 1.5 = 1.5E0;
SELECT 1.1 BETWEEN 1 AND 2;
SELECT 1.0 IN (1, 2);
SELECT greatest(1.5, 2.25, -3);
SELECT least(1.50, 1.5);
SELECT 1.5 <> NULL;
SELECT 1.5 IS DISTINCT FROM 1.50;

-- source: functions/decimal.md, mixed decimal and other numeric types
SELECT 1.5 + 1E0, typeof(1.5 + 1E0);
SELECT 1.5 * REAL '2', typeof(1.5 * REAL '2');
SELECT DECIMAL '1.5' + REAL '0.25', typeof(DECIMAL '1.5' + REAL '0.25');
SELECT DECIMAL '10' / 4E0, typeof(DECIMAL '10' / 4E0);
SELECT CAST(1.25 AS double), typeof(CAST(1.25 AS double));
SELECT CAST(7 AS decimal(5, 2)) / 3, typeof(CAST(7 AS decimal(5, 2)) / 3);

-- source: functions/decimal.md, decimals over tpch.tiny columns
SELECT CAST(acctbal AS decimal(12, 2)) * 2 FROM tpch.tiny.customer ORDER BY custkey LIMIT 5;
SELECT sum(CAST(extendedprice AS decimal(12, 2))) FROM tpch.tiny.lineitem WHERE orderkey < 10;
SELECT typeof(sum(CAST(extendedprice AS decimal(12, 2)))) FROM tpch.tiny.lineitem WHERE orderkey < 10;
SELECT avg(CAST(acctbal AS decimal(12, 2))) FROM tpch.tiny.supplier;
SELECT typeof(avg(CAST(acctbal AS decimal(12, 2)))) FROM tpch.tiny.supplier;
SELECT min(CAST(totalprice AS decimal(12, 2))), max(CAST(totalprice AS decimal(12, 2))) FROM tpch.tiny.orders;
SELECT CAST(discount AS decimal(3, 2)) * CAST(extendedprice AS decimal(12, 2)) FROM tpch.tiny.lineitem ORDER BY orderkey, linenumber LIMIT 5;
SELECT typeof(CAST(discount AS decimal(3, 2)) * CAST(extendedprice AS decimal(12, 2))) FROM tpch.tiny.lineitem LIMIT 1;
SELECT CAST(totalprice AS decimal(12, 2)) / 3 FROM tpch.tiny.orders ORDER BY orderkey LIMIT 5;
SELECT regionkey, sum(CAST(nationkey AS decimal(5, 1)) / 4) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;

-- source: functions/decimal.md, decimals in aggregates and functions
SELECT sum(x) FROM (VALUES 1.10, 2.20, 3.30) t(x);
SELECT typeof(sum(x)) FROM (VALUES 1.10, 2.20, 3.30) t(x);
SELECT avg(x) FROM (VALUES 1.10, 2.25) t(x);
SELECT avg(x) FROM (VALUES DECIMAL '1', DECIMAL '2') t(x);
SELECT typeof(avg(x)) FROM (VALUES 1.10, 2.25) t(x);
SELECT sum(x) FROM (VALUES DECIMAL '99999999999999999999999999999999999999', DECIMAL '1') t(x);
SELECT max(x), min(x) FROM (VALUES 1.5, -2.25, 10.0) t(x);
SELECT x FROM (VALUES 1.5, -2.25, 10.0, 0.001) t(x) ORDER BY x;
SELECT array_sort(ARRAY[3.5, 1.25, 2]);
SELECT typeof(ARRAY[1.5, 22.25, 333]);
SELECT CAST(x AS varchar) FROM (VALUES 0.50, 12.00) t(x) ORDER BY x;
SELECT round(x, 1), truncate(x, 1) FROM (VALUES 2.45, -2.45, 2.55) t(x) ORDER BY x;
SELECT 2.5 + 'a';
SELECT DECIMAL '1.5' || 'x';

-- source: Trino 476 docs, functions/decimal.md: its examples as written (extracted page by page)
SELECT DECIMAL '12345';
SELECT DECIMAL '0000012345.1234500000';
