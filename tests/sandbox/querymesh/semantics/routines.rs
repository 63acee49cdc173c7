//! Inline SQL routines, `WITH FUNCTION … query`: the examples of Trino 476's documentation
//! (udf/sql/examples.md, udf/sql/case.md, udf/sql/loop.md) with the answers Trino gives, how a
//! call resolves, and the refusals of Trino's SqlRoutineAnalyzer with its messages and places
//! (each checked against Trino 476; the parity family `sql_routines` holds them all).

use serde_json::json;

use super::{check_errors, check_rows, check_values};
use crate::support::engine::engine;

const FIB: &str = "WITH FUNCTION fib(n bigint) RETURNS bigint
BEGIN
  DECLARE a, b bigint DEFAULT 1;
  DECLARE c bigint;
  IF n <= 2 THEN
    RETURN 1;
  END IF;
  WHILE n > 2 DO
    SET n = n - 1;
    SET c = a + b;
    SET a = b;
    SET b = c;
  END WHILE;
  RETURN c;
END
";

#[test]
fn the_documented_examples_answer_as_trino_does() {
    let engine = engine();
    let fib = format!("{FIB}SELECT fib(-1), fib(1), fib(3), fib(5), fib(8)");
    let labels = "WITH FUNCTION labels() RETURNS bigint BEGIN DECLARE a, b int DEFAULT 0; \
        top: WHILE a < 10 DO SET a = a + 1; IF a < 3 THEN ITERATE top; END IF; SET b = b + 1; \
        IF a > 6 THEN LEAVE top; END IF; END WHILE; RETURN b; END SELECT labels()";
    let power = "WITH FUNCTION power(n int, p int) RETURNS int BEGIN DECLARE r int DEFAULT n; \
        top: LOOP IF p <= 1 THEN LEAVE top; END IF; SET r = r * n; SET p = p - 1; END LOOP; \
        RETURN r; END SELECT power(2, 8), power(3, 0)";
    let repeat = "WITH FUNCTION f() RETURNS bigint BEGIN DECLARE a int DEFAULT 0; \
        DECLARE b int DEFAULT 0; top: REPEAT SET a = a + 1; IF a <= 3 THEN ITERATE top; END IF; \
        SET b = b + 1; UNTIL a >= 10 END REPEAT; RETURN b; END SELECT f()";
    let blocks = "WITH FUNCTION test() RETURNS bigint BEGIN DECLARE r bigint DEFAULT 0; \
        BEGIN DECLARE x varchar DEFAULT 'hello'; SET r = r + length(x); END; \
        BEGIN DECLARE y array(int) DEFAULT array[1, 2, 3]; SET r = r + cardinality(y); END; \
        RETURN r; END SELECT test()";
    let overloads = "WITH FUNCTION dots(input varchar, length integer) RETURNS varchar BEGIN \
        IF length(input) > length THEN RETURN substring(input, 1, length - 3) || '...'; END IF; \
        RETURN input; END, FUNCTION dots(input varchar) RETURNS varchar RETURN dots(input, 15) \
        SELECT dots('A long string that will be shortened'), dots('A short string', 15)";
    let cases = "WITH FUNCTION simple_case(a bigint) RETURNS varchar BEGIN CASE a \
        WHEN 0 THEN RETURN 'zero'; WHEN 1 THEN RETURN 'one'; \
        ELSE RETURN 'more than one or negative'; END CASE; RETURN NULL; END \
        SELECT simple_case(0), simple_case(1), simple_case(5), simple_case(NULL)";
    check_rows(
        &engine,
        &[
            (fib.as_str(), json!([[1, 1, 2, 5, 21]])),
            (labels, json!([[5]])),
            (power, json!([[256, 3]])),
            (repeat, json!([[7]])),
            (blocks, json!([[8]])),
            (overloads, json!([["A long strin...", "A short string"]])),
            (
                cases,
                json!([[
                    "zero",
                    "one",
                    "more than one or negative",
                    "more than one or negative"
                ]]),
            ),
        ],
    );
    check_values(
        &engine,
        &[
            (
                "WITH FUNCTION answer() RETURNS BIGINT RETURN 42 \
                 SELECT 'The answer is ' || CAST(answer() as varchar)",
                "varchar",
                json!("The answer is 42"),
            ),
            (
                "WITH FUNCTION f(d varchar) RETURNS TIMESTAMP WITH TIME ZONE BEGIN \
                 IF d like '%-%' THEN RETURN from_iso8601_timestamp(d); \
                 ELSEIF length(d) = 8 THEN RETURN date_parse(d, '%Y%m%d'); END IF; \
                 RETURN NULL; END SELECT f('20230101')",
                "timestamp(3) with time zone",
                json!("2023-01-01 00:00:00.000 UTC"),
            ),
            (
                "WITH FUNCTION a(x array<int>) RETURNS map<varchar, array<int>> \
                 RETURN map(ARRAY['k'], ARRAY[x]) SELECT a(ARRAY[1, 2])",
                "map(varchar, array(integer))",
                json!({"k": [1, 2]}),
            ),
        ],
    );
}

#[test]
fn calls_resolve_as_trinos_do() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            // An inline routine answers for a built-in function of its name.
            (
                "WITH FUNCTION abs(a bigint) RETURNS bigint RETURN 42 SELECT abs(-1)",
                json!([[42]]),
            ),
            // By the arguments' types; a later routine calls an earlier one.
            (
                "WITH FUNCTION a(x bigint) RETURNS bigint RETURN 1, \
                 FUNCTION a(x varchar) RETURNS bigint RETURN 2, \
                 FUNCTION b() RETURNS bigint RETURN a('x') + 1 SELECT a(1), a('x'), b()",
                json!([[1, 2, 3]]),
            ),
            // NULL arguments: called on them unless RETURNS NULL ON NULL INPUT.
            (
                "WITH FUNCTION a(x bigint) RETURNS bigint RETURN coalesce(x, 7), \
                 FUNCTION b(x bigint) RETURNS bigint RETURNS NULL ON NULL INPUT RETURN coalesce(x, 7) \
                 SELECT a(NULL), b(NULL), b(1)",
                json!([[7, null, 1]]),
            ),
            // Arguments from rows, nested calls, aggregates over columns, the query's own WITH.
            (
                "WITH FUNCTION f(x bigint) RETURNS bigint BEGIN DECLARE y bigint DEFAULT 0; \
                 WHILE y < x DO SET y = y + 1; END WHILE; RETURN y; END \
                 SELECT f(f(3)), sum(f(nationkey)), f(sum(nationkey)) FROM nation",
                json!([[3, 300, 300]]),
            ),
            (
                "WITH FUNCTION a() RETURNS int RETURN 1 WITH x AS (SELECT 5 v) SELECT a() + v FROM x",
                json!([[6]]),
            ),
            // try() reaches into the routine's body.
            (
                "WITH FUNCTION f(x bigint) RETURNS bigint RETURN x / 0 SELECT try(f(1))",
                json!([[null]]),
            ),
        ],
    );
}

#[test]
fn refusals_are_trinos_with_their_places() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "WITH FUNCTION f(a bigint) RETURNS varchar BEGIN IF a > 0 THEN RETURN 'pos'; END IF; END SELECT f(-1)",
                "MISSING_RETURN: line 1:43: Function must end in a RETURN statement",
            ),
            (
                "WITH FUNCTION a() RETURNS int RETURN 'x' SELECT a()",
                "TYPE_MISMATCH: line 1:38: Value of RETURN must evaluate to integer (actual: varchar(1))",
            ),
            (
                "WITH FUNCTION f() RETURNS int BEGIN DECLARE a int; SET a = 'x'; RETURN a; END SELECT f()",
                "TYPE_MISMATCH: line 1:60: Value of SET 'a' must evaluate to integer (actual: varchar(1))",
            ),
            (
                "WITH FUNCTION f() RETURNS int BEGIN WHILE 1 DO RETURN 1; END WHILE; RETURN 2; END SELECT f()",
                "TYPE_MISMATCH: line 1:43: Condition of WHILE statement must evaluate to boolean (actual: integer)",
            ),
            (
                "WITH FUNCTION f(a int) RETURNS int BEGIN CASE a WHEN 'x' THEN RETURN 1; END CASE; RETURN 2; END SELECT f(1)",
                "TYPE_MISMATCH: line 1:54: WHEN clause value must evaluate to CASE value type integer (actual: varchar(1))",
            ),
            (
                "WITH FUNCTION a(x integer) RETURNS bigint RETURN y SELECT a(5)",
                "COLUMN_NOT_FOUND: line 1:50: Column 'y' cannot be resolved",
            ),
            (
                "WITH FUNCTION a(x integer) RETURNS bigint BEGIN SET y = 1; RETURN x; END SELECT a(5)",
                "NOT_FOUND: line 1:53: Variable cannot be resolved: y",
            ),
            (
                "WITH FUNCTION a() RETURNS bigint BEGIN LEAVE nope; RETURN 1; END SELECT a()",
                "NOT_FOUND: line 1:46: Label not defined: nope",
            ),
            (
                "WITH FUNCTION f() RETURNS int BEGIN DECLARE a int DEFAULT 1; BEGIN DECLARE a int DEFAULT 2; END; RETURN a; END SELECT f()",
                "ALREADY_EXISTS: line 1:76: Variable already declared in this scope: a",
            ),
            (
                "WITH FUNCTION a(x bigint) RETURNS bigint RETURN (SELECT 1) SELECT a(1)",
                "NOT_SUPPORTED: line 1:49: Queries are not allowed in functions",
            ),
            (
                "WITH FUNCTION a() RETURNS int RETURN a() SELECT a()",
                "NOT_SUPPORTED: line 1:6: Recursive language functions are not supported: a():int",
            ),
            (
                "WITH FUNCTION a() RETURNS int RETURN b(), FUNCTION b() RETURNS int RETURN 1 SELECT a()",
                "FUNCTION_NOT_FOUND: line 1:38: Function 'b' not registered",
            ),
            (
                "WITH FUNCTION f(a int) RETURNS int RETURN a SELECT f(1), f(2.5)",
                "FUNCTION_NOT_FOUND: line 1:58: Unexpected parameters (decimal(2,1)) for function f. Expected: f(int)",
            ),
            (
                "WITH FUNCTION a() RETURNS double RETURN random() SELECT a()",
                "INVALID_ARGUMENTS: line 1:6: Non-deterministic function declared DETERMINISTIC",
            ),
            (
                "WITH FUNCTION x.a() RETURNS int RETURN 1 SELECT a()",
                "SYNTAX_ERROR: line 1:6: Inline function names cannot be qualified: x.a",
            ),
            (
                "WITH FUNCTION f(int) RETURNS int RETURN 1 SELECT f(1)",
                "INVALID_ARGUMENTS: line 1:17: Function parameters must have a name",
            ),
            (
                "WITH FUNCTION a(x bigint) RETURNS bigint RETURN x * 2 SELECT a(count(*)) FROM nation",
                "NOT_SUPPORTED: line 1:62:",
            ),
        ],
    );
}
