-- family: project_semantics_routines
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/routines.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

WITH FUNCTION power(n int, p int) RETURNS int BEGIN DECLARE r int DEFAULT n; top: LOOP IF p <= 1 THEN LEAVE top; END IF; SET r = r * n; SET p = p - 1; END LOOP; RETURN r; END SELECT power(2, 8), power(3, 0);

WITH FUNCTION f() RETURNS bigint BEGIN DECLARE a int DEFAULT 0; DECLARE b int DEFAULT 0; top: REPEAT SET a = a + 1; IF a <= 3 THEN ITERATE top; END IF; SET b = b + 1; UNTIL a >= 10 END REPEAT; RETURN b; END SELECT f();

WITH FUNCTION dots(input varchar, length integer) RETURNS varchar BEGIN IF length(input) > length THEN RETURN substring(input, 1, length - 3) || '...'; END IF; RETURN input; END, FUNCTION dots(input varchar) RETURNS varchar RETURN dots(input, 15) SELECT dots('A long string that will be shortened'), dots('A short string', 15);

WITH FUNCTION simple_case(a bigint) RETURNS varchar BEGIN CASE a WHEN 0 THEN RETURN 'zero'; WHEN 1 THEN RETURN 'one'; ELSE RETURN 'more than one or negative'; END CASE; RETURN NULL; END SELECT simple_case(0), simple_case(1), simple_case(5), simple_case(NULL);

WITH FUNCTION f(d varchar) RETURNS TIMESTAMP WITH TIME ZONE BEGIN IF d like '%-%' THEN RETURN from_iso8601_timestamp(d); ELSEIF length(d) = 8 THEN RETURN date_parse(d, '%Y%m%d'); END IF; RETURN NULL; END SELECT f('20230101');

WITH FUNCTION a(x bigint) RETURNS bigint RETURN 1, FUNCTION a(x varchar) RETURNS bigint RETURN 2, FUNCTION b() RETURNS bigint RETURN a('x') + 1 SELECT a(1), a('x'), b();

WITH FUNCTION a(x bigint) RETURNS bigint RETURN coalesce(x, 7), FUNCTION b(x bigint) RETURNS bigint RETURNS NULL ON NULL INPUT RETURN coalesce(x, 7) SELECT a(NULL), b(NULL), b(1);

WITH FUNCTION f(x bigint) RETURNS bigint BEGIN DECLARE y bigint DEFAULT 0; WHILE y < x DO SET y = y + 1; END WHILE; RETURN y; END SELECT f(f(3)), sum(f(nationkey)), f(sum(nationkey)) FROM nation;

WITH FUNCTION f(a int) RETURNS int RETURN a SELECT f(1), f(2.5);
