//! The rest of the math library (docs functions/math, MathFunctions) and the bitwise functions
//! (docs functions/bitwise, BitwiseFunctions): values, types and errors.

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::{engine, run};

#[test]
fn trigonometry_and_logarithms_are_javas_math_of_a_double() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestMathFunctions.testCos / testSin / …: Math.cos(x) etc. of the double.
            ("SELECT cos(0)", "double", json!(1.0)),
            ("SELECT sin(0)", "double", json!(0.0)),
            ("SELECT tan(0)", "double", json!(0.0)),
            ("SELECT cosh(0)", "double", json!(1.0)),
            ("SELECT sinh(0)", "double", json!(0.0)),
            ("SELECT tanh(0)", "double", json!(0.0)),
            ("SELECT acos(1)", "double", json!(0.0)),
            ("SELECT asin(1)", "double", json!(FRAC_PI_2)),
            ("SELECT atan(1)", "double", json!(FRAC_PI_4)),
            ("SELECT atan2(1, 1)", "double", json!(FRAC_PI_4)),
            ("SELECT cos(pi())", "double", json!(-1.0)),
            ("SELECT cos(1.5)", "double", json!(0.0707372016677029)),
            ("SELECT acos(2)", "double", json!("NaN")),
            ("SELECT sin(NULL)", "double", json!(null)),
            ("SELECT cbrt(27)", "double", json!(3.0)),
            ("SELECT cbrt(-8.0E0)", "double", json!(-2.0)),
            ("SELECT degrees(pi())", "double", json!(180.0)),
            ("SELECT radians(180)", "double", json!(PI)),
            // MathFunctions.log2 / log: ln(x) / ln(b).
            ("SELECT log2(8)", "double", json!(3.0)),
            ("SELECT log2(0)", "double", json!("-Infinity")),
            ("SELECT log(2, 1024)", "double", json!(10.0)),
            ("SELECT log(10, 100)", "double", json!(2.0)),
            // A decimal is coerced to the double of the signature.
            (
                "SELECT cos(DECIMAL '2.5')",
                "double",
                json!(-0.8011436155469337),
            ),
            (
                "SELECT cos(DOUBLE '2.5')",
                "double",
                json!(-0.8011436155469337),
            ),
            ("SELECT log2(DECIMAL '8.0')", "double", json!(3.0)),
        ],
    );
}

#[test]
fn truncate_drops_digits_in_the_decimals_type() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // MathFunctions.Truncate: decimal(max(1, p - s), 0) (ceil and floor keep one more).
            (
                "SELECT truncate(DECIMAL '1234.56')",
                "decimal(4, 0)",
                json!("1234"),
            ),
            (
                "SELECT truncate(DECIMAL '-1234.56')",
                "decimal(4, 0)",
                json!("-1234"),
            ),
            (
                "SELECT truncate(DECIMAL '0.56')",
                "decimal(1, 0)",
                json!("0"),
            ),
            (
                "SELECT ceil(DECIMAL '1234.56')",
                "decimal(5, 0)",
                json!("1235"),
            ),
            ("SELECT truncate(DOUBLE '-1.9')", "double", json!(-1.0)),
            // MathFunctions.TruncateN (docs functions/math "truncate(x, d)"): decimal(p, s).
            (
                "SELECT truncate(DECIMAL '1234.56', 1)",
                "decimal(6, 2)",
                json!("1234.50"),
            ),
            (
                "SELECT truncate(DECIMAL '-1234.56', 1)",
                "decimal(6, 2)",
                json!("-1234.50"),
            ),
            (
                "SELECT truncate(DECIMAL '1234.56', 5)",
                "decimal(6, 2)",
                json!("1234.56"),
            ),
            (
                "SELECT truncate(DECIMAL '1234.56', -1)",
                "decimal(6, 2)",
                json!("1230.00"),
            ),
            (
                "SELECT truncate(DECIMAL '-1234.56', -3)",
                "decimal(6, 2)",
                json!("-1000.00"),
            ),
            (
                "SELECT truncate(DECIMAL '1234.56', -4)",
                "decimal(6, 2)",
                json!("0.00"),
            ),
            (
                "SELECT truncate(DECIMAL '1234567890123456789012.567', 2)",
                "decimal(25, 3)",
                json!("1234567890123456789012.560"),
            ),
            (
                "SELECT truncate(DECIMAL '-1234567890123456789012.567', -20)",
                "decimal(25, 3)",
                json!("-1200000000000000000000.000"),
            ),
            // An integer is the decimal it coerces to.
            ("SELECT truncate(1789, -2)", "decimal(10, 0)", json!("1700")),
            (
                "SELECT truncate(DECIMAL '12.34', NULL)",
                "decimal(4, 2)",
                json!(null),
            ),
        ],
    );
}

#[test]
fn floating_point_tests_and_nan() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestMathFunctions.testIsNaN / testIsFinite / testIsInfinite / testNaN.
            ("SELECT is_nan(0.0E0 / 0.0E0)", "boolean", json!(true)),
            ("SELECT is_nan(nan())", "boolean", json!(true)),
            ("SELECT is_nan(1.0E0 / 0.0E0)", "boolean", json!(false)),
            ("SELECT is_nan(1)", "boolean", json!(false)),
            ("SELECT is_nan(NULL)", "boolean", json!(null)),
            ("SELECT is_finite(100000)", "boolean", json!(true)),
            ("SELECT is_finite(rand() / 0.0E0)", "boolean", json!(false)),
            ("SELECT is_finite(nan())", "boolean", json!(false)),
            ("SELECT is_infinite(1.0E0 / 0.0E0)", "boolean", json!(true)),
            ("SELECT is_infinite(-infinity())", "boolean", json!(true)),
            ("SELECT is_infinite(nan())", "boolean", json!(false)),
            ("SELECT is_infinite(DECIMAL '2.5')", "boolean", json!(false)),
            ("SELECT nan()", "double", json!("NaN")),
        ],
    );
}

#[test]
fn base_conversion_as_javas_long() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestMathFunctions.testToBase / testFromBase.
            ("SELECT to_base(2, 2)", "varchar(64)", json!("10")),
            ("SELECT to_base(-2, 2)", "varchar(64)", json!("-10")),
            ("SELECT to_base(255, 16)", "varchar(64)", json!("ff")),
            ("SELECT to_base(35, 36)", "varchar(64)", json!("z")),
            (
                "SELECT to_base(-9223372036854775807 - 1, 16)",
                "varchar(64)",
                json!("-8000000000000000"),
            ),
            ("SELECT to_base(NULL, 2)", "varchar(64)", json!(null)),
            (
                "SELECT from_base('80000000', 16)",
                "bigint",
                json!(2147483648i64),
            ),
            ("SELECT from_base('11', 2)", "bigint", json!(3)),
            ("SELECT from_base('-11', 2)", "bigint", json!(-3)),
            ("SELECT from_base('FF', 16)", "bigint", json!(255)),
            ("SELECT from_base('z', 36)", "bigint", json!(35)),
            (
                "SELECT from_base('9223372036854775807', 10)",
                "bigint",
                json!(9223372036854775807i64),
            ),
            ("SELECT from_base(NULL, 10)", "bigint", json!(null)),
            ("SELECT try(from_base('2', 2))", "bigint", json!(null)),
        ],
    );
    check_errors(
        &engine,
        &[
            // MathFunctions.checkRadix and fromBase's NumberFormatException.
            (
                "SELECT to_base(1, 37)",
                "INVALID_FUNCTION_ARGUMENT: Radix must be between 2 and 36",
            ),
            (
                "SELECT to_base(1, 1)",
                "INVALID_FUNCTION_ARGUMENT: Radix must be between 2 and 36",
            ),
            (
                "SELECT from_base('1', 37)",
                "INVALID_FUNCTION_ARGUMENT: Radix must be between 2 and 36",
            ),
            (
                "SELECT from_base('2', 2)",
                "INVALID_FUNCTION_ARGUMENT: Not a valid base-2 number: 2",
            ),
            (
                "SELECT from_base('', 10)",
                "INVALID_FUNCTION_ARGUMENT: Not a valid base-10 number: ",
            ),
            (
                "SELECT from_base('9223372036854775808', 10)",
                "INVALID_FUNCTION_ARGUMENT: Not a valid base-10 number: 9223372036854775808",
            ),
        ],
    );
}

#[test]
fn random_is_in_its_range_and_of_the_bounds_type() {
    let engine = engine();
    // docs functions/math "Random functions": 0.0 <= random() < 1.0, random(n) in [0, n),
    // random(m, n) in [m, n), in the bound's type.
    check_values(
        &engine,
        &[
            (
                "SELECT random() >= 0 AND random() < 1",
                "boolean",
                json!(true),
            ),
            ("SELECT rand() >= 0 AND rand() < 1", "boolean", json!(true)),
            ("SELECT typeof(random())", "varchar", json!("double")),
            ("SELECT random(1)", "integer", json!(0)),
            ("SELECT rand(TINYINT '1')", "tinyint", json!(0)),
            ("SELECT random(BIGINT '1')", "bigint", json!(0)),
            ("SELECT random(-5, -4)", "integer", json!(-5)),
            (
                "SELECT random(SMALLINT '7', SMALLINT '8')",
                "smallint",
                json!(7),
            ),
        ],
    );
    // Evaluated per row, not once: 15000 draws from [0, 1000) are not all one value.
    let a = run(
        &engine,
        "SELECT count(DISTINCT random(1000)) > 1 AND min(random(10)) >= 0 \
         AND max(random(10)) < 10 FROM orders",
    );
    assert_eq!(a.map(|a| a.rows), Ok(vec![vec![json!(true)]]));
    check_errors(
        &engine,
        &[
            // MathFunctions.random(n) / random(start, stop).
            (
                "SELECT random(0)",
                "INVALID_FUNCTION_ARGUMENT: bound must be positive",
            ),
            (
                "SELECT random(BIGINT '-3')",
                "INVALID_FUNCTION_ARGUMENT: bound must be positive",
            ),
            (
                "SELECT random(5, 5)",
                "INVALID_FUNCTION_ARGUMENT: start value must be less than stop value",
            ),
        ],
    );
}

#[test]
fn bitwise_functions_as_the_docs_show() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/bitwise, each example.
            ("SELECT bit_count(9, 64)", "bigint", json!(2)),
            ("SELECT bit_count(9, 8)", "bigint", json!(2)),
            ("SELECT bit_count(-7, 64)", "bigint", json!(62)),
            ("SELECT bit_count(-7, 8)", "bigint", json!(6)),
            ("SELECT bitwise_and(19, 25)", "bigint", json!(17)),
            ("SELECT bitwise_not(-12)", "bigint", json!(11)),
            ("SELECT bitwise_not(19)", "bigint", json!(-20)),
            ("SELECT bitwise_not(25)", "bigint", json!(-26)),
            ("SELECT bitwise_or(19, 25)", "bigint", json!(27)),
            ("SELECT bitwise_xor(19, 25)", "bigint", json!(10)),
            ("SELECT bitwise_left_shift(1, 2)", "integer", json!(4)),
            ("SELECT bitwise_left_shift(5, 2)", "integer", json!(20)),
            ("SELECT bitwise_left_shift(20, 0)", "integer", json!(20)),
            ("SELECT bitwise_left_shift(0, 2)", "integer", json!(0)),
            ("SELECT bitwise_right_shift(8, 3)", "integer", json!(1)),
            ("SELECT bitwise_right_shift(9, 1)", "integer", json!(4)),
            ("SELECT bitwise_right_shift(42, 0)", "integer", json!(42)),
            ("SELECT bitwise_right_shift(12, 64)", "integer", json!(0)),
            ("SELECT bitwise_right_shift(-45, 64)", "integer", json!(0)),
            (
                "SELECT bitwise_right_shift_arithmetic(12, 64)",
                "integer",
                json!(0),
            ),
            (
                "SELECT bitwise_right_shift_arithmetic(-45, 64)",
                "integer",
                json!(-1),
            ),
            // TestBitwiseFunctions: the extremes, and shifts within the value's type.
            (
                "SELECT bitwise_xor(-9223372036854775807 - 1, 9223372036854775807)",
                "bigint",
                json!(-1),
            ),
            ("SELECT bitwise_xor(-1, 5)", "bigint", json!(-6)),
            (
                "SELECT bit_count(-9223372036854775807 - 1, 64)",
                "bigint",
                json!(1),
            ),
            ("SELECT bit_count(127, 8)", "bigint", json!(7)),
            ("SELECT bit_count(-128, 8)", "bigint", json!(1)),
            (
                "SELECT bitwise_left_shift(TINYINT '7', 2)",
                "tinyint",
                json!(28),
            ),
            (
                "SELECT bitwise_left_shift(TINYINT '-7', 2)",
                "tinyint",
                json!(-28),
            ),
            (
                "SELECT bitwise_left_shift(TINYINT '1', 7)",
                "tinyint",
                json!(-128),
            ),
            (
                "SELECT bitwise_left_shift(SMALLINT '1', 16)",
                "smallint",
                json!(0),
            ),
            (
                "SELECT bitwise_left_shift(BIGINT '1', 63)",
                "bigint",
                json!(-9223372036854775808i64),
            ),
            (
                "SELECT bitwise_right_shift(TINYINT '-8', 1)",
                "tinyint",
                json!(124),
            ),
            (
                "SELECT bitwise_right_shift(-8, 1)",
                "integer",
                json!(2147483644),
            ),
            (
                "SELECT bitwise_right_shift(BIGINT '-8', 1)",
                "bigint",
                json!(9223372036854775804i64),
            ),
            (
                "SELECT bitwise_right_shift_arithmetic(-8, 1)",
                "integer",
                json!(-4),
            ),
            (
                "SELECT bitwise_right_shift_arithmetic(TINYINT '-8', 2)",
                "tinyint",
                json!(-2),
            ),
            ("SELECT bitwise_and(NULL, 1)", "bigint", json!(null)),
            ("SELECT bitwise_left_shift(NULL, 1)", "tinyint", json!(null)),
        ],
    );
    check_errors(
        &engine,
        &[
            // BitwiseFunctions.bitCount.
            (
                "SELECT bit_count(1, 1)",
                "INVALID_FUNCTION_ARGUMENT: Bits specified in bit_count must be between 2 and 64, got 1",
            ),
            (
                "SELECT bit_count(1, 65)",
                "INVALID_FUNCTION_ARGUMENT: Bits specified in bit_count must be between 2 and 64, got 65",
            ),
            (
                "SELECT bit_count(128, 8)",
                "INVALID_FUNCTION_ARGUMENT: Number must be representable with the bits specified. 128 cannot be represented with 8 bits",
            ),
            (
                "SELECT bit_count(-129, 8)",
                "INVALID_FUNCTION_ARGUMENT: Number must be representable with the bits specified. -129 cannot be represented with 8 bits",
            ),
        ],
    );
}

/// Docs functions/math, "Statistical functions" (TestMathFunctions.testNormalCdf,
/// testInverseNormalCdf, testBetaCdf, testInverseBetaCdf, testTPdf, testTCdf,
/// testWilsonInterval): the values Trino 476 answers, and its argument checks.
#[test]
fn statistical_functions_answer_as_commons_math_does() {
    let engine = engine();
    check_values(
        &engine,
        &[
            ("SELECT normal_cdf(0, 1, 0)", "double", json!(0.5)),
            (
                "SELECT normal_cdf(10, 2, 8)",
                "double",
                json!(0.15865525393145702),
            ),
            ("SELECT normal_cdf(0, 1, infinity())", "double", json!(1.0)),
            ("SELECT normal_cdf(0, 1, nan())", "double", json!("NaN")),
            ("SELECT normal_cdf(NULL, 1, 0)", "double", json!(null)),
            ("SELECT inverse_normal_cdf(0, 1, 0.5)", "double", json!(0.0)),
            ("SELECT beta_cdf(2, 2, 1)", "double", json!(1.0)),
            ("SELECT beta_cdf(2, 2, 0)", "double", json!(0.0)),
            ("SELECT inverse_beta_cdf(2, 3, 0)", "double", json!(0.0)),
            ("SELECT t_cdf(0, 5)", "double", json!(0.5)),
            ("SELECT t_pdf(infinity(), 3)", "double", json!(0.0)),
            (
                "SELECT wilson_interval_upper(10, 10, 1.96)",
                "double",
                json!(1.0),
            ),
            (
                "SELECT wilson_interval_lower(0, 10, 1.96)",
                "double",
                json!(-2.0052288475052677e-17),
            ),
            (
                "SELECT wilson_interval_lower(1250, 1310, 1.96)",
                "double",
                json!(0.9414883725395894),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT normal_cdf(0, 0, 1)",
                "INVALID_FUNCTION_ARGUMENT: standardDeviation must be > 0",
            ),
            (
                "SELECT inverse_normal_cdf(0, 0, 0)",
                "INVALID_FUNCTION_ARGUMENT: p must be 0 > p > 1",
            ),
            (
                "SELECT inverse_normal_cdf(0, 0, 0.5)",
                "INVALID_FUNCTION_ARGUMENT: sd must be > 0",
            ),
            (
                "SELECT beta_cdf(0, 0, 2)",
                "INVALID_FUNCTION_ARGUMENT: value must be 0 >= v >= 1",
            ),
            (
                "SELECT inverse_beta_cdf(-1, 3, 0.5)",
                "INVALID_FUNCTION_ARGUMENT: a, b must be > 0",
            ),
            (
                "SELECT t_pdf(0, 0)",
                "INVALID_FUNCTION_ARGUMENT: degrees of freedom must be greater than or equal to 1",
            ),
            (
                "SELECT wilson_interval_lower(5, 0, 1.96)",
                "INVALID_FUNCTION_ARGUMENT: number of trials must be positive",
            ),
            (
                "SELECT wilson_interval_upper(3, 10, -1)",
                "INVALID_FUNCTION_ARGUMENT: z-score must not be negative",
            ),
        ],
    );
}

/// Docs functions/math, "Vector functions" (ArrayVectorFunctions, MathFunctions
/// .cosineSimilarity of maps): Trino 476's answers.
#[test]
fn vector_functions_answer_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT euclidean_distance(ARRAY[0.0, 0.0], ARRAY[3.0, 4.0])",
                "double",
                json!(5.0),
            ),
            (
                "SELECT euclidean_distance(ARRAY[REAL '1', REAL '2'], ARRAY[REAL '4', REAL '6'])",
                "double",
                json!(5.0),
            ),
            (
                "SELECT dot_product(ARRAY[1E0, 2E0, 3E0], ARRAY[4E0, 5E0, 6E0])",
                "double",
                json!(32.0),
            ),
            (
                "SELECT cosine_similarity(ARRAY[1.0, 2.0], ARRAY[3.0, 4.0])",
                "double",
                json!(0.9838699100999074),
            ),
            (
                "SELECT cosine_distance(ARRAY[2E0, 0E0], ARRAY[5E0, 0E0])",
                "double",
                json!(0.0),
            ),
            (
                "SELECT cosine_similarity(ARRAY[1E0, NULL], ARRAY[1E0, 1E0])",
                "double",
                json!(null),
            ),
            (
                "SELECT cosine_similarity(MAP(ARRAY['a', 'b'], ARRAY[1.0, 2.0]), MAP(ARRAY['b', 'c'], ARRAY[3.0, 4.0]))",
                "double",
                json!(0.5366563145999494),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT euclidean_distance(ARRAY[1.0], ARRAY[1.0, 2.0])",
                "INVALID_FUNCTION_ARGUMENT: The arguments must have the same length",
            ),
            (
                "SELECT cosine_similarity(ARRAY[0E0, 0E0], ARRAY[1E0, 1E0])",
                "INVALID_FUNCTION_ARGUMENT: Vector magnitude cannot be zero",
            ),
        ],
    );
}

/// NaN, signed zeros and NULL arguments as TestMathFunctions pins them (Trino 476's answers).
#[test]
fn nan_zero_and_null_arguments_answer_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            ("SELECT abs(nan())", "double", json!("NaN")),
            ("SELECT sign(nan())", "double", json!("NaN")),
            ("SELECT is_nan(REAL 'NaN')", "boolean", json!(true)),
            (
                "SELECT is_infinite(REAL 'Infinity')",
                "boolean",
                json!(true),
            ),
            (
                "SELECT atan2(-0E0, -1)",
                "double",
                json!(-std::f64::consts::PI),
            ),
            ("SELECT abs(NULL)", "tinyint", json!(null)),
            ("SELECT sign(NULL)", "tinyint", json!(null)),
            ("SELECT round(NULL, 2)", "tinyint", json!(null)),
            ("SELECT floor(NULL)", "tinyint", json!(null)),
            ("SELECT truncate(NULL)", "decimal(1, 0)", json!(null)),
            ("SELECT truncate(42)", "decimal(10, 0)", json!("42")),
            (
                "SELECT width_bucket(2, ARRAY[1.0, NULL])",
                "bigint",
                json!(2),
            ),
            ("SELECT nan() = nan()", "boolean", json!(false)),
            ("SELECT nan() <> nan()", "boolean", json!(true)),
            (
                "SELECT nan() = CAST(NULL AS double)",
                "boolean",
                json!(null),
            ),
            ("SELECT array_min(ARRAY[1e0, nan()])", "double", json!(1.0)),
            ("SELECT array_max(ARRAY[nan()])", "double", json!("NaN")),
            (
                "SELECT array_sort(ARRAY[nan(), 1e0])",
                "array(double)",
                json!([1.0, "NaN"]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT abs(-2147483648)",
                "NUMERIC_VALUE_OUT_OF_RANGE: Value -2147483648 is out of range for abs(integer)",
            ),
            (
                "SELECT width_bucket(nan(), 0, 10, 5)",
                "INVALID_FUNCTION_ARGUMENT: operand must not be NaN",
            ),
        ],
    );
}
