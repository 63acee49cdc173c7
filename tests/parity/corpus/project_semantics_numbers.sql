-- family: project_semantics_numbers
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/numbers.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT sum(linenumber) FROM lineitem WHERE orderkey = 1;

SELECT sum(quantity) FROM lineitem WHERE orderkey = 1;

SELECT sum(x) FROM (VALUES (1.5), (2.25)) t (x);

SELECT avg(x) FROM (VALUES (1), (2)) t (x);

SELECT avg(x) FROM (VALUES (1.5), (2.0)) t (x);

SELECT avg(x) FROM (VALUES (0.25), (0.00)) t (x);

SELECT min(orderdate) FROM orders;

SELECT max(name) FROM region;

SELECT count(DISTINCT regionkey) FROM nation;

SELECT count(DISTINCT x) FROM (VALUES (1), (1), (NULL)) t (x);

SELECT count(x) FROM (VALUES (1), (NULL)) t (x);

SELECT sum(x) FROM (VALUES (1)) t (x) WHERE x > 1;

SELECT stddev(x) FROM (VALUES (1), (2), (3), (4)) t (x);

SELECT stddev_pop(x) FROM (VALUES (1), (2), (3), (4)) t (x);

SELECT variance(x) FROM (VALUES (1), (2), (3), (4)) t (x);

SELECT var_pop(x) FROM (VALUES (1), (2), (3), (4)) t (x);

SELECT stddev(x) FROM (VALUES (1)) t (x);

SELECT sum(name) FROM nation;

SELECT avg(orderdate) FROM orders;

SELECT sum(x) FROM (VALUES (9223372036854775807), (1)) t (x);

SELECT round(-0.5E0);

SELECT round(2.345E0, 2);

SELECT round(1234.5E0, -2);

SELECT round(0E0 / 0E0);

SELECT round(2.5E0, NULL);

SELECT round(1.005, 2);

SELECT round(-1.005, 2);

SELECT round(123.45, -1);

SELECT round(123);

SELECT round(15, -1);

SELECT round(BIGINT '-25', -1);

SELECT round(BIGINT '1234', 2);

SELECT abs(-3);

SELECT abs(-3.5);

SELECT abs(BIGINT '-9');

SELECT -7 / 2;

SELECT 7 / -2;

SELECT -7 % 3;

SELECT 7 % -3;

SELECT mod(-7, 3);

SELECT BIGINT '7' / 2;

SELECT -7E0 % 3;

SELECT nationkey + 9223372036854775807 FROM nation;

SELECT 2147483647 + 1 - 1;

SELECT (9223372036854775807 + 10) / 2;

SELECT 4611686018427387904 * 2 > 0;

SELECT round(9223372036854775807, -1);

SELECT mod(5, 0);

SELECT 1.5 % 0;

SELECT nationkey / 0 FROM nation;

SELECT abs('a');

SELECT -1.5;

SELECT 0.1 + 0.2;

SELECT 1.5 + 2.25;

SELECT 1.5 - 2;

SELECT 1.5 * 2.25;

SELECT 1.5 * 2;

SELECT 1.0 / 3;

SELECT 2.0 / 3;

SELECT 1.0 / 4;

SELECT -1.0 / 4;

SELECT 10.5 % 3;

SELECT DECIMAL '1.50';

SELECT 1.5 + 1E0;

SELECT 0.1 + 0.2 = 0.3;

SELECT width_bucket(3.14, 0, 4, 3);

SELECT width_bucket(2, 0, 4, 3);

SELECT width_bucket(infinity(), 0, 4, 3);

SELECT width_bucket(-1, 0, 3.2, 4);

SELECT width_bucket(3.14, 4, 0, 3);

SELECT width_bucket(2, 4, 0, 3);

SELECT width_bucket(infinity(), 4, 0, 3);

SELECT width_bucket(-1, 3.2, 0, 4);

SELECT width_bucket(3.14, ARRAY[0.0, 2.0, 4.0]);

SELECT width_bucket(-1, ARRAY[0.0, 1.2, 3.3, 4.5]);

SELECT infinity() > 1e308;

SELECT width_bucket(3.14, 0, 4, 0);

SELECT width_bucket(3.14, -1, -1, 3);

SELECT width_bucket(3.14, infinity(), -1, 3);

SELECT width_bucket(3.14, -1, infinity(), 3);
