-- family: bitwise_functions
-- source: Trino 476 docs, functions/bitwise.md (https://trino.io/docs/476/functions/bitwise.html)

-- source: functions/bitwise.md, bit_count
SELECT bit_count(11, 64), bit_count(11, 8), bit_count(-5, 64), bit_count(-5, 8);
SELECT bit_count(0, 64);
SELECT bit_count(-1, 64);
SELECT bit_count(-1, 2);
SELECT bit_count(255, 8);
SELECT bit_count(256, 8);
SELECT bit_count(127, 8);
SELECT bit_count(BIGINT '9223372036854775807', 64);
SELECT bit_count(NULL, 64);
SELECT bit_count(5, 1);
SELECT bit_count(5, 65);
SELECT bit_count(TINYINT '7', 8);
SELECT bit_count(nationkey, 64) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT bit_count(1.5, 64);

-- source: functions/bitwise.md, bitwise_and, bitwise_or, bitwise_xor, bitwise_not
SELECT bitwise_and(21, 28);
SELECT bitwise_or(21, 28);
SELECT bitwise_xor(21, 28);
SELECT bitwise_not(-13), bitwise_not(21), bitwise_not(28);
SELECT bitwise_and(-1, 12345);
SELECT bitwise_or(0, 0);
SELECT bitwise_xor(7, 7);
SELECT bitwise_not(0);
SELECT bitwise_not(BIGINT '9223372036854775807');
SELECT bitwise_and(NULL, 1);
SELECT bitwise_or(1, NULL);
SELECT bitwise_and(TINYINT '12', SMALLINT '10');
SELECT typeof(bitwise_and(TINYINT '12', SMALLINT '10'));
SELECT bitwise_xor(BIGINT '-9223372036854775808', -1);
SELECT bitwise_and(nationkey, 3) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT count(*) FROM tpch.tiny.orders WHERE bitwise_and(orderkey, 1) = 1;
SELECT bitwise_and(1.5, 1);
SELECT bitwise_not('a');

-- source: functions/bitwise.md, bitwise_left_shift, bitwise_right_shift, bitwise_right_shift_arithmetic
SELECT bitwise_left_shift(1, 3);
SELECT bitwise_left_shift(3, 4);
SELECT bitwise_left_shift(17, 0), bitwise_left_shift(99, 0);
SELECT bitwise_left_shift(0, 5);
SELECT bitwise_left_shift(1, 63);
SELECT bitwise_left_shift(BIGINT '1', 63);
SELECT bitwise_left_shift(1, 31);
SELECT bitwise_left_shift(1, 64);
SELECT bitwise_left_shift(TINYINT '1', 7);
SELECT bitwise_left_shift(TINYINT '1', 8);
SELECT bitwise_left_shift(SMALLINT '3', 14);
SELECT typeof(bitwise_left_shift(TINYINT '1', 2));
SELECT bitwise_left_shift(-1, 2);
SELECT bitwise_right_shift(16, 2);
SELECT bitwise_right_shift(11, 1);
SELECT bitwise_right_shift(33, 0), bitwise_right_shift(7, 0);
SELECT bitwise_right_shift(15, 64), bitwise_right_shift(-30, 64);
SELECT bitwise_right_shift(0, 3);
SELECT bitwise_right_shift(-1, 1);
SELECT bitwise_right_shift(BIGINT '-1', 60);
SELECT bitwise_right_shift(TINYINT '-1', 4);
SELECT bitwise_right_shift(-8, 1);
SELECT typeof(bitwise_right_shift(SMALLINT '4', 1));
SELECT bitwise_right_shift_arithmetic(15, 64), bitwise_right_shift_arithmetic(-30, 64);
SELECT bitwise_right_shift_arithmetic(-8, 1);
SELECT bitwise_right_shift_arithmetic(-1, 10);
SELECT bitwise_right_shift_arithmetic(100, 2);
SELECT bitwise_right_shift_arithmetic(TINYINT '-128', 3);
SELECT bitwise_right_shift_arithmetic(NULL, 1);
SELECT bitwise_left_shift(nationkey, 2), bitwise_right_shift(nationkey, 1) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT bitwise_left_shift(1.0, 1);

-- source: functions/aggregate.md, bitwise_and_agg, bitwise_or_agg, bitwise_xor_agg (see also in functions/bitwise.md)
SELECT bitwise_and_agg(x), bitwise_or_agg(x) FROM (VALUES 12, 10, 14) t(x);
SELECT bitwise_xor_agg(x) FROM (VALUES 5, 3, 6) t(x);
SELECT bitwise_or_agg(nationkey), bitwise_and_agg(nationkey + 1) FROM tpch.tiny.nation;
SELECT bitwise_and_agg(x) FROM (VALUES CAST(NULL AS bigint)) t(x);

-- source: Trino 476 docs, functions/bitwise.md: its examples as written (extracted page by page)
SELECT bit_count(9, 64), bit_count(9, 8), bit_count(-7, 64), bit_count(-7, 8);
SELECT bitwise_and(19,25);
SELECT bitwise_not(-12), bitwise_not(19), bitwise_not(25);
SELECT bitwise_or(19,25);
SELECT bitwise_xor(19,25);
SELECT bitwise_left_shift(20, 0), bitwise_left_shift(42, 0);
SELECT bitwise_left_shift(0, 1), bitwise_left_shift(0, 2);
SELECT bitwise_right_shift(20, 0), bitwise_right_shift(42, 0);
SELECT bitwise_right_shift( 12, 64), bitwise_right_shift(-45, 64);
SELECT bitwise_right_shift(0, 1), bitwise_right_shift(0, 2);
SELECT bitwise_right_shift_arithmetic( 12, 64), bitwise_right_shift_arithmetic(-45, 64);
