-- family: sql_routines
-- source: Trino 476 docs, udf/sql/examples.md (https://trino.io/docs/476/udf/sql/examples.html)

WITH
  FUNCTION answer()
  RETURNS BIGINT
  RETURN 42
SELECT 'The answer is ' || CAST(answer() as varchar);

WITH
  FUNCTION answer()
  LANGUAGE SQL
  DETERMINISTIC
  RETURNS BIGINT
  COMMENT 'Provide the answer to the question about life, the universe, and everything.'
  RETURN 42
SELECT answer() + 1;

WITH
  FUNCTION hello(fullname VARCHAR)
  RETURNS VARCHAR
  RETURN 'Hello, ' || fullname || '!'
SELECT hello('Jane Doe');

WITH
  FUNCTION times_ninety_nine(a bigint)
  RETURNS bigint
  BEGIN
    DECLARE x bigint DEFAULT CAST(99 AS bigint);
    RETURN x * a;
  END
SELECT times_ninety_nine(CAST(2 as bigint));

WITH
  FUNCTION simple_case(a bigint)
  RETURNS varchar
  BEGIN
    CASE a
      WHEN 0 THEN RETURN 'zero';
      WHEN 1 THEN RETURN 'one';
      WHEN 10 THEN RETURN 'ten';
      WHEN 20 THEN RETURN 'twenty';
      ELSE RETURN 'other';
    END CASE;
    RETURN NULL;
  END
SELECT simple_case(0), simple_case(1), simple_case(-1), simple_case(10), simple_case(11),
  simple_case(20), simple_case(100), simple_case(null);

WITH
  FUNCTION search_case(a bigint, b bigint)
  RETURNS varchar
  BEGIN
    CASE
      WHEN a = 0 THEN RETURN 'zero';
      WHEN b = 1 THEN RETURN 'one';
      WHEN a = DECIMAL '10.0' THEN RETURN 'ten';
      WHEN b = 20.0E0 THEN RETURN 'twenty';
      ELSE RETURN 'other';
    END CASE;
    RETURN NULL;
  END
SELECT search_case(0,0), search_case(1,1), search_case(0,1), search_case(10,1), search_case(10,2),
  search_case(10,20), search_case(0,20), search_case(3,20), search_case(3,21), search_case(null,null);

WITH
  FUNCTION fib(n bigint)
  RETURNS bigint
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
SELECT fib(-1), fib(0), fib(1), fib(2), fib(3), fib(4), fib(5), fib(6), fib(7), fib(8);

WITH
  FUNCTION labels()
  RETURNS bigint
  BEGIN
    DECLARE a, b int DEFAULT 0;
    top: WHILE a < 10 DO
      SET a = a + 1;
      IF a < 3 THEN
        ITERATE top;
      END IF;
      SET b = b + 1;
      IF a > 6 THEN
        LEAVE top;
      END IF;
    END WHILE;
    RETURN b;
  END
SELECT labels();

WITH
  FUNCTION power(n int, p int)
  RETURNS int
  BEGIN
    DECLARE r int DEFAULT n;
    top: LOOP
      IF p <= 1 THEN
        LEAVE top;
      END IF;
      SET r = r * n;
      SET p = p - 1;
    END LOOP;
    RETURN r;
  END
SELECT power(2, 2), power(2, 8), power(3, 3), power(3, 0), power(3, -2);

WITH
  FUNCTION test_repeat_continue()
  RETURNS bigint
  BEGIN
    DECLARE a int DEFAULT 0;
    DECLARE b int DEFAULT 0;
    top: REPEAT
      SET a = a + 1;
      IF a <= 3 THEN
        ITERATE top;
      END IF;
      SET b = b + 1;
    UNTIL a >= 10
    END REPEAT;
    RETURN b;
  END
SELECT test_repeat_continue();

WITH
  FUNCTION test()
  RETURNS int
  BEGIN
    DECLARE r int DEFAULT 0;
    abc: LOOP
      SET r = r + 1;
      LEAVE abc;
    END LOOP;
    abc: LOOP
      SET r = r + 1;
      LEAVE abc;
    END LOOP;
    RETURN r;
  END
SELECT test();

WITH
  FUNCTION test()
  RETURNS bigint
  BEGIN
    DECLARE r bigint DEFAULT 0;
    BEGIN
      DECLARE x varchar DEFAULT 'hello';
      SET r = r + length(x);
    END;
    BEGIN
      DECLARE y array(int) DEFAULT array[1, 2, 3];
      SET r = r + cardinality(y);
    END;
    RETURN r;
  END
SELECT test();

WITH
  FUNCTION dots(input varchar, length integer)
  RETURNS varchar
  BEGIN
    IF length(input) > length THEN
      RETURN substring(input, 1, length-3) || '...';
    END IF;
    RETURN input;
  END,
  FUNCTION dots(input varchar)
  RETURNS varchar
  RETURN dots(input, 15)
SELECT dots('A long string that will be shortened',15), dots('A short string',15),
  dots('A long string that will be shortened'), dots('A long string that will be shortened',20);

WITH
  FUNCTION from_date_string(date_string VARCHAR)
  RETURNS TIMESTAMP WITH TIME ZONE
  BEGIN
    IF date_string like '%-%' THEN
      RETURN from_iso8601_timestamp(date_string);
    ELSEIF length(date_string) = 8 THEN
      RETURN date_parse(date_string, '%Y%m%d');
    ELSEIF length(date_string) = 10 THEN
      RETURN date_parse(date_string, '%Y%m%d%H');
    END IF;
    RETURN NULL;
  END
SELECT from_date_string('2023-01-01'), from_date_string('2023-01-01T23'),
  from_date_string('2023-01-01T23:23:23'), from_date_string('20230101'),
  from_date_string('2023010123'), from_date_string(NULL), from_date_string('abc');

WITH
  FUNCTION hrd(d integer)
  RETURNS VARCHAR
  BEGIN
    DECLARE answer varchar default 'About ';
    DECLARE years real;
    DECLARE months real;
    SET years = truncate(d/365);
    IF years > 0 then
      SET answer = answer || format('%1.0f', years) || ' year';
    END IF;
    IF years > 1 THEN
      SET answer = answer || 's';
    END IF;
    SET d = d - cast( years AS integer) * 365 ;
    SET months = truncate(d / 30);
    IF months > 0 and years > 0 THEN
      SET answer = answer || ' and ';
    END IF;
    IF months > 0 THEN
      set answer = answer || format('%1.0f', months) || ' month';
    END IF;
    IF months > 1 THEN
      SET answer = answer || 's';
    END IF;
    IF years < 1 and months < 1 THEN
      SET answer = 'Less than 1 month';
    END IF;
    RETURN answer;
  END
SELECT hrd(10), hrd(95), hrd(400), hrd(369), hrd(800), hrd(1100), hrd(5000);

WITH
  FUNCTION strtrunc(input VARCHAR)
  RETURNS VARCHAR
  RETURN
    CASE WHEN length(input) > 60
    THEN substr(input, 1, 30) || ' ... ' || substr(input, length(input) - 25)
    ELSE input
    END
SELECT strtrunc('strtrunc truncates strings longer than 60 characters, leaving the prefix and suffix visible'),
  strtrunc('short');

WITH
  FUNCTION strtrunc(input VARCHAR)
  RETURNS VARCHAR
  BEGIN
    CASE WHEN length(input) > 60
    THEN
      RETURN substr(input, 1, 30) || ' ... ' || substr(input, length(input) - 25);
    ELSE
      RETURN input;
    END CASE;
    RETURN input;
  END
SELECT strtrunc('strtrunc truncates strings longer than 60 characters, leaving the prefix and suffix visible');

WITH
  FUNCTION format_data_size(input BIGINT)
  RETURNS VARCHAR
  BEGIN
    DECLARE value DOUBLE DEFAULT CAST(input AS DOUBLE);
    DECLARE base INT DEFAULT 1024;
    DECLARE unit VARCHAR DEFAULT 'B';
    DECLARE format VARCHAR;
    IF abs(value) >= base THEN
      SET value = value / base;
      SET unit = 'kB';
    END IF;
    IF abs(value) >= base THEN
      SET value = value / base;
      SET unit = 'MB';
    END IF;
    IF abs(value) >= base THEN
      SET value = value / base;
      SET unit = 'GB';
    END IF;
    IF abs(value) >= base THEN
      SET value = value / base;
      SET unit = 'TB';
    END IF;
    IF abs(value) >= base THEN
      SET value = value / base;
      SET unit = 'PB';
    END IF;
    IF abs(value) < 10 THEN
      SET format = '%.2f';
    ELSEIF abs(value) < 100 THEN
      SET format = '%.1f';
    ELSE
      SET format = '%.0f';
    END IF;
    RETURN format(format, value) || unit;
  END
SELECT data.num, format_data_size(data.num) AS formatted
FROM (
  SELECT CAST(pow(10, s.p) AS BIGINT) AS num FROM table(sequence(start=>1, stop=>18)) AS s(p)
  UNION ALL
  SELECT -CAST(pow(10, s.p) AS BIGINT) AS num FROM table(sequence(start=>1, stop=>18)) AS s(p)
) data
ORDER BY data.num;

WITH
  FUNCTION vertical_bar(value DOUBLE)
  RETURNS VARCHAR
  RETURN ARRAY[' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'][cast(value * 8 + 1 as int)]
SELECT vertical_bar(0.0), vertical_bar(0.5), vertical_bar(1.0);

WITH
  FUNCTION format_topn(input map<varchar, bigint>)
  RETURNS VARCHAR
  NOT DETERMINISTIC
  BEGIN
    DECLARE freq_separator VARCHAR DEFAULT '=';
    DECLARE entry_separator VARCHAR DEFAULT ', ';
    RETURN array_join(transform(
      reverse(array_sort(transform(
        transform(
          map_entries(input),
            r -> cast(r AS row(key varchar, value bigint))
        ),
        r -> cast(row(r.value, r.key) AS row(value bigint, key varchar)))
      )),
      r -> r.key || freq_separator || cast(r.value as varchar)),
      entry_separator);
  END
SELECT format_topn(MAP(ARRAY['AAA', 'BBB', 'CCC'], ARRAY[2, 3, 1]));

-- source: Trino 476 docs, udf/sql/case.md, udf/sql/loop.md (the statements' pages)

WITH
  FUNCTION simple_case(a bigint)
  RETURNS varchar
  BEGIN
    CASE a
      WHEN 0 THEN RETURN 'zero';
      WHEN 1 THEN RETURN 'one';
      ELSE RETURN 'more than one or negative';
    END CASE;
    RETURN NULL;
  END
SELECT simple_case(0) AS zero,
       simple_case(1) AS one,
       simple_case(5) AS other;

WITH
  FUNCTION to_one_hundred(start_value int, step int)
  RETURNS int
  BEGIN
    DECLARE count int DEFAULT 0;
    DECLARE current int DEFAULT 0;
    SET current = start_value;
    abc: LOOP
      IF current >= 100 THEN
        LEAVE abc;
      END IF;
      SET count = count + 1;
      SET current = current + step;
    END LOOP;
    RETURN count;
  END
SELECT to_one_hundred(90, 1), to_one_hundred(0, 5), to_one_hundred(12, 3);

-- source: Trino 476, probed: resolution, NULL handling, arguments from rows and aggregates

WITH FUNCTION abs(a bigint) RETURNS bigint RETURN 42 SELECT abs(-1);

WITH FUNCTION a() RETURNS int RETURN 1, FUNCTION b() RETURNS int RETURN a() + 1 SELECT b();

WITH FUNCTION a() RETURNS int RETURN 1 WITH x AS (SELECT 5 v) SELECT a() + v FROM x;

WITH FUNCTION a(x bigint) RETURNS bigint RETURNS NULL ON NULL INPUT RETURN coalesce(x, 7) SELECT a(NULL);

WITH FUNCTION a(x bigint) RETURNS bigint RETURN coalesce(x, 7) SELECT a(NULL), a(nationkey) FROM nation WHERE nationkey < 2;

WITH FUNCTION a(x bigint) RETURNS bigint RETURN 1, FUNCTION a(x varchar) RETURNS bigint RETURN 2 SELECT a(1), a('x');

WITH FUNCTION a() RETURNS bigint BEGIN DECLARE x int; RETURN x; END SELECT a();

WITH FUNCTION f(a bigint) RETURNS varchar BEGIN CASE a WHEN 0 THEN RETURN 'zero'; END CASE; RETURN 'x'; END SELECT f(1);

WITH FUNCTION f() RETURNS int BEGIN DECLARE a int DEFAULT 0; top: REPEAT SET a = a + 1; IF a < 5 THEN ITERATE top; END IF; UNTIL true END REPEAT; RETURN a; END SELECT f();

WITH FUNCTION f(x int) RETURNS array(int) RETURN ARRAY[x, x] SELECT f(3), typeof(f(3));

WITH FUNCTION f() RETURNS row(a int, b varchar) RETURN ROW(1, 'x') SELECT f().a, f().b, f();

WITH FUNCTION f(x bigint) RETURNS bigint RETURN x + 1 SELECT f(f(f(1)));

WITH FUNCTION f(x bigint) RETURNS bigint BEGIN DECLARE y bigint DEFAULT 0; WHILE y < x DO SET y = y + 1; END WHILE; RETURN y; END SELECT f(f(3)), sum(f(nationkey)) FROM nation;

WITH FUNCTION f(x varchar) RETURNS varchar RETURN upper(x) SELECT f(name) FROM nation ORDER BY 1 LIMIT 3;

WITH FUNCTION f(x array(bigint)) RETURNS bigint RETURN reduce(x, 0, (s, e) -> s + e, s -> s) SELECT f(ARRAY[1,2,3]), f(array_agg(nationkey)) FROM nation;

WITH FUNCTION a(x bigint) RETURNS bigint RETURN x * 2 SELECT a(sum(nationkey)), a(max(regionkey)) FROM nation;

WITH FUNCTION a(x bigint) RETURNS bigint BEGIN DECLARE y bigint DEFAULT x; RETURN y * 2; END SELECT a(sum(nationkey)) FROM nation GROUP BY regionkey ORDER BY 1;

WITH FUNCTION f(x double) RETURNS double RETURN x / 0 SELECT f(1), try(f(1));

WITH FUNCTION f(x bigint) RETURNS bigint RETURN x / 0 SELECT try(f(1));

WITH FUNCTION f(x bigint) RETURNS bigint RETURN x / 0 SELECT f(1);

WITH FUNCTION f(x bigint) RETURNS bigint BEGIN RETURN x; END SELECT f(1) FROM nation WHERE f(nationkey) = 3;

WITH FUNCTION f(a double) RETURNS varchar RETURN format('%.2f', a) SELECT f(1);

-- source: Trino 476, probed: the refusals of SqlRoutineAnalyzer and the routine grammar

WITH FUNCTION f(a bigint) RETURNS varchar BEGIN IF a > 0 THEN RETURN 'pos'; END IF; END SELECT f(-1);

WITH FUNCTION a() RETURNS int RETURN 'x' SELECT a();

WITH FUNCTION a(x integer) RETURNS bigint RETURN x SELECT a(5000000000);

WITH FUNCTION a(x integer) RETURNS bigint RETURN y SELECT a(5);

WITH FUNCTION a(x integer) RETURNS bigint BEGIN SET y = 1; RETURN x; END SELECT a(5);

WITH FUNCTION a(x bigint) RETURNS bigint RETURN (SELECT 1) SELECT a(1);

WITH FUNCTION a(x bigint) RETURNS bigint RETURN random() SELECT a(1) > 0;

WITH FUNCTION a(x bigint) RETURNS bigint BEGIN WHILE true DO END WHILE; RETURN 1; END SELECT a(1);

WITH FUNCTION a() RETURNS bigint BEGIN LEAVE nope; RETURN 1; END SELECT a();

WITH FUNCTION a() RETURNS bigint BEGIN DECLARE x int; DECLARE x int; RETURN 1; END SELECT a();

WITH FUNCTION a(x int, x int) RETURNS bigint RETURN 1 SELECT a(1, 2);

WITH FUNCTION a() RETURNS bigint RETURN 1, FUNCTION a() RETURNS bigint RETURN 2 SELECT a();

WITH FUNCTION a() RETURNS bigint RETURN 1 SELECT b();

WITH FUNCTION a(x int) RETURNS int RETURN x SELECT a();

WITH FUNCTION a() RETURNS int LANGUAGE SQL DETERMINISTIC COMMENT 'hi' SECURITY INVOKER RETURN 1 SELECT a();

WITH FUNCTION x.a() RETURNS int RETURN 1 SELECT a();

WITH FUNCTION a() RETURNS int BEGIN top: LOOP ITERATE other; END LOOP; RETURN 1; END SELECT a();

WITH FUNCTION f() RETURNS int BEGIN DECLARE a int DEFAULT 'x'; RETURN a; END SELECT f();

WITH FUNCTION f() RETURNS int BEGIN DECLARE a int; SET a = 'x'; RETURN a; END SELECT f();

WITH FUNCTION f() RETURNS int BEGIN IF 1 THEN RETURN 1; END IF; RETURN 2; END SELECT f();

WITH FUNCTION f() RETURNS int BEGIN WHILE 1 DO RETURN 1; END WHILE; RETURN 2; END SELECT f();

WITH FUNCTION f() RETURNS int BEGIN REPEAT RETURN 1; UNTIL 1 END REPEAT; RETURN 2; END SELECT f();

WITH FUNCTION f(a int) RETURNS int BEGIN CASE a WHEN 'x' THEN RETURN 1; END CASE; RETURN 2; END SELECT f(1);

WITH FUNCTION f(a int) RETURNS int BEGIN CASE WHEN a THEN RETURN 1; END CASE; RETURN 2; END SELECT f(1);

WITH FUNCTION f(a int) RETURNS int RETURN a SELECT f(1), f(2.5), f(NULL);

WITH FUNCTION f(a int) RETURNS int RETURN a SELECT f(nationkey) FROM nation ORDER BY 1 LIMIT 2;

WITH FUNCTION a() RETURNS int RETURN b(), FUNCTION b() RETURNS int RETURN 1 SELECT a();

WITH FUNCTION a() RETURNS int RETURN a() SELECT a();

WITH FUNCTION f() RETURNS int BEGIN DECLARE a int DEFAULT 1; BEGIN DECLARE a int DEFAULT 2; END; RETURN a; END SELECT f();

WITH FUNCTION f() RETURNS int BEGIN x: LOOP x: LOOP LEAVE x; END LOOP; LEAVE x; END LOOP; RETURN 1; END SELECT f();

WITH FUNCTION f() RETURNS int BEGIN x: BEGIN RETURN 1; END; END SELECT f();

WITH FUNCTION f(x int) RETURNS int RETURN x SELECT f;

WITH FUNCTION f(int) RETURNS int RETURN 1 SELECT f(1);

WITH FUNCTION f(n bigint) RETURNS bigint BEGIN DECLARE t bigint DEFAULT 0; top: FOR i IN 1 TO n DO SET t = t + i; END FOR; RETURN t; END SELECT f(10);

WITH FUNCTION a() RETURNS double DETERMINISTIC RETURN random() SELECT a() < 2;

WITH FUNCTION a() RETURNS double NOT DETERMINISTIC RETURN random() SELECT a() < 2;

WITH FUNCTION a() RETURNS double RETURN random() SELECT a() < 2;

WITH FUNCTION a(x array<int>) RETURNS map<varchar, array<int>> RETURN map(ARRAY['k'], ARRAY[x]) SELECT a(ARRAY[1, 2]);

WITH FUNCTION a(x bigint) RETURNS bigint RETURN x * 2 SELECT a(count(*)) FROM nation;

EXPLAIN (TYPE VALIDATE) WITH FUNCTION f(x bigint) RETURNS bigint BEGIN DECLARE y bigint DEFAULT x; RETURN y; END SELECT f(1);
