-- family: project_semantics_math_functions
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/math_functions.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT acos(1);

SELECT atan(1);

SELECT cos(1.5);

SELECT acos(2);

SELECT cbrt(-8.0E0);

SELECT log2(8);

SELECT log(2, 1024);

SELECT log(10, 100);

SELECT cos(DECIMAL '2.5');

SELECT cos(DOUBLE '2.5');

SELECT log2(DECIMAL '8.0');

SELECT truncate(DECIMAL '1234.56');

SELECT truncate(DECIMAL '-1234.56');

SELECT truncate(DECIMAL '0.56');

SELECT ceil(DECIMAL '1234.56');

SELECT truncate(DOUBLE '-1.9');

SELECT truncate(DECIMAL '1234.56', 1);

SELECT truncate(DECIMAL '-1234.56', 1);

SELECT truncate(DECIMAL '1234.56', 5);

SELECT truncate(DECIMAL '1234.56', -1);

SELECT truncate(DECIMAL '-1234.56', -3);

SELECT truncate(DECIMAL '1234.56', -4);

SELECT truncate(DECIMAL '1234567890123456789012.567', 2);

SELECT truncate(DECIMAL '-1234567890123456789012.567', -20);

SELECT truncate(1789, -2);

SELECT truncate(DECIMAL '12.34', NULL);

SELECT is_nan(0.0E0 / 0.0E0);

SELECT is_nan(1.0E0 / 0.0E0);

SELECT is_nan(1);

SELECT is_finite(100000);

SELECT is_infinite(1.0E0 / 0.0E0);

SELECT is_infinite(DECIMAL '2.5');

SELECT to_base(2, 2);

SELECT to_base(-2, 2);

SELECT to_base(-9223372036854775807 - 1, 16);

SELECT from_base('80000000', 16);

SELECT from_base('11', 2);

SELECT from_base('-11', 2);

SELECT from_base('9223372036854775807', 10);

SELECT try(from_base('2', 2));

SELECT to_base(1, 37);

SELECT to_base(1, 1);

SELECT from_base('1', 37);

SELECT from_base('2', 2);

SELECT from_base('9223372036854775808', 10);

SELECT bit_count(9, 64);

SELECT bit_count(9, 8);

SELECT bit_count(-7, 64);

SELECT bit_count(-7, 8);

SELECT bitwise_and(19, 25);

SELECT bitwise_not(-12);

SELECT bitwise_not(19);

SELECT bitwise_not(25);

SELECT bitwise_or(19, 25);

SELECT bitwise_xor(19, 25);

SELECT bitwise_left_shift(1, 2);

SELECT bitwise_left_shift(5, 2);

SELECT bitwise_left_shift(20, 0);

SELECT bitwise_left_shift(0, 2);

SELECT bitwise_right_shift(8, 3);

SELECT bitwise_right_shift(9, 1);

SELECT bitwise_right_shift(42, 0);

SELECT bitwise_right_shift(12, 64);

SELECT bitwise_right_shift(-45, 64);

SELECT bitwise_right_shift_arithmetic(12, 64);

SELECT bitwise_right_shift_arithmetic(-45, 64);

SELECT bitwise_xor(-9223372036854775807 - 1, 9223372036854775807);

SELECT bitwise_xor(-1, 5);

SELECT bit_count(-9223372036854775807 - 1, 64);

SELECT bit_count(-128, 8);

SELECT bitwise_left_shift(TINYINT '7', 2);

SELECT bitwise_left_shift(TINYINT '-7', 2);

SELECT bitwise_left_shift(SMALLINT '1', 16);

SELECT bitwise_right_shift(TINYINT '-8', 1);

SELECT bitwise_right_shift(BIGINT '-8', 1);

SELECT bitwise_right_shift_arithmetic(TINYINT '-8', 2);

SELECT bitwise_left_shift(NULL, 1);

SELECT bit_count(1, 1);

SELECT bit_count(1, 65);

SELECT bit_count(128, 8);

SELECT bit_count(-129, 8);

SELECT t_pdf(infinity(), 3);

SELECT inverse_normal_cdf(0, 0, 0);

SELECT beta_cdf(0, 0, 2);

SELECT nan() = CAST(NULL AS double);

SELECT array_min(ARRAY[1e0, nan()]);

SELECT array_max(ARRAY[nan()]);

SELECT array_sort(ARRAY[nan(), 1e0]);
