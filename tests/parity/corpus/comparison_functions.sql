-- family: comparison_functions
-- source: Trino 476 docs, functions/comparison.md (https://trino.io/docs/476/functions/comparison.html)

-- source: functions/comparison.md, comparison operators
SELECT 1 < 2, 2 > 1, 1 <= 1, 2 >= 3, 1 = 1, 1 <> 1, 1 != 2;
SELECT 'apple' < 'banana';
SELECT 'Z' < 'a';
SELECT 'abc' < 'abcd';
SELECT '' < 'a';
SELECT 'é' > 'z';
SELECT CAST('a' AS char(3)) = 'a';
SELECT CAST('a ' AS varchar(3)) = 'a';
SELECT TINYINT '1' = BIGINT '1';
SELECT 1 = 1.0;
SELECT 1 = 1E0;
SELECT REAL '0.1' = 0.1E0;
SELECT nan() < 1;
SELECT nan() > 1;
SELECT -0E0 = 0E0;
SELECT infinity() > 9223372036854775807;
SELECT true > false;
SELECT DATE '2024-01-01' < DATE '2024-01-02';
SELECT X'01' < X'02';
SELECT X'0102' > X'01';
SELECT ARRAY[1, 2] < ARRAY[1, 3];
SELECT ARRAY[1, 2] = ARRAY[1, 2];
SELECT ARRAY[1, 2] < ARRAY[1, 2, 0];
SELECT ROW(1, 'b') > ROW(1, 'a');
SELECT ROW(1, 2) = ROW(1, 2);
SELECT ARRAY[1, NULL] = ARRAY[1, NULL];
SELECT ARRAY[1, NULL] = ARRAY[2, NULL];
SELECT MAP(ARRAY[1], ARRAY[2]) = MAP(ARRAY[1], ARRAY[2]);
SELECT NULL = NULL;
SELECT 1 < NULL;
SELECT name FROM tpch.tiny.nation WHERE name < 'C' ORDER BY name;
SELECT count(*) FROM tpch.tiny.orders WHERE totalprice >= 400000;
SELECT 7 = '7';
SELECT 'a' < 1;
SELECT DATE '2024-01-01' = '2024-01-01';
SELECT MAP(ARRAY[1], ARRAY[2]) < MAP(ARRAY[1], ARRAY[3]);
SELECT false = 0;

-- source: functions/comparison.md, BETWEEN
SELECT 4 BETWEEN 2 AND 6;
SELECT 4 NOT BETWEEN 2 AND 6;
SELECT 2 BETWEEN 2 AND 2;
SELECT 7 BETWEEN 6 AND 2;
SELECT NULL BETWEEN 1 AND 5;
SELECT 3 BETWEEN NULL AND 6;
SELECT 3 BETWEEN 4 AND NULL;
SELECT 9 BETWEEN NULL AND 6;
SELECT 3 NOT BETWEEN NULL AND 2;
SELECT 'Mike' BETWEEN 'Anna' AND 'Zoe';
SELECT 'mike' BETWEEN 'Anna' AND 'Zoe';
SELECT 2.5 BETWEEN 2 AND 3;
SELECT 1E0 BETWEEN 0.5 AND 1;
SELECT DATE '2024-02-29' BETWEEN DATE '2024-01-01' AND DATE '2024-12-31';
SELECT nan() BETWEEN 0 AND 1;
SELECT name FROM tpch.tiny.nation WHERE nationkey BETWEEN 5 AND 9 ORDER BY nationkey;
SELECT count(*) FROM tpch.tiny.lineitem WHERE shipdate BETWEEN DATE '1995-01-01' AND DATE '1995-01-31';
SELECT 'John' BETWEEN 2.3 AND 35.2;
SELECT 1 BETWEEN 'a' AND 'z';

-- source: functions/comparison.md, IS NULL and IS NOT NULL
SELECT NULL IS NULL;
SELECT 3.5 IS NULL;
SELECT 'x' IS NOT NULL;
SELECT CAST(NULL AS integer) IS NOT NULL;
SELECT ARRAY[NULL] IS NULL;
SELECT nan() IS NULL;
SELECT '' IS NULL;
SELECT count(*) FROM tpch.tiny.nation WHERE comment IS NULL;
SELECT (1 = NULL) IS NULL;

-- source: functions/comparison.md, IS DISTINCT FROM and IS NOT DISTINCT FROM
SELECT NULL IS DISTINCT FROM NULL;
SELECT NULL IS NOT DISTINCT FROM NULL;
SELECT 1 IS DISTINCT FROM 1;
SELECT 1 IS DISTINCT FROM 2;
SELECT 1 IS DISTINCT FROM NULL;
SELECT NULL IS NOT DISTINCT FROM 1;
SELECT 'a' IS DISTINCT FROM 'a';
SELECT 1 IS NOT DISTINCT FROM 1.0;
SELECT nan() IS DISTINCT FROM nan();
SELECT ARRAY[1, NULL] IS DISTINCT FROM ARRAY[1, NULL];
SELECT ROW(1, NULL) IS NOT DISTINCT FROM ROW(1, NULL);
SELECT a, b, a = b, a <> b, a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b FROM (VALUES (1, 1), (1, 2), (1, NULL), (NULL, NULL)) t(a, b) ORDER BY a NULLS LAST, b NULLS LAST;
SELECT count(*) FROM tpch.tiny.nation WHERE regionkey IS DISTINCT FROM 1;
SELECT 1 IS DISTINCT FROM 'a';

-- source: functions/comparison.md, GREATEST and LEAST
SELECT greatest(1, 5, 3);
SELECT least(1, 5, 3);
SELECT greatest(1, NULL, 3);
SELECT least(NULL, 2);
SELECT greatest('apple', 'pear', 'fig');
SELECT least('apple', 'Apple');
SELECT greatest(1, 2.5);
SELECT typeof(greatest(1, 2.5));
SELECT greatest(1, 2E0);
SELECT greatest(TINYINT '1', SMALLINT '2');
SELECT typeof(greatest(TINYINT '1', SMALLINT '2'));
SELECT greatest(DATE '2024-01-01', DATE '2023-12-31');
SELECT least(1.5E0, nan());
SELECT greatest(1.5E0, nan());
SELECT greatest(-infinity(), -1E308);
SELECT greatest(5);
SELECT greatest(true, false);
SELECT least(ARRAY[1, 2], ARRAY[1, 1]);
SELECT greatest(REAL '1.5', 1);
SELECT typeof(greatest(REAL '1.5', 1));
SELECT greatest(CAST('a' AS varchar(1)), CAST('bb' AS varchar(5)));
SELECT typeof(greatest(CAST('a' AS varchar(1)), CAST('bb' AS varchar(5))));
SELECT name, greatest(nationkey, regionkey * 5) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT least(acctbal, 0) FROM tpch.tiny.supplier ORDER BY suppkey LIMIT 5;
SELECT greatest(1, 'a');
SELECT least(MAP(ARRAY[1], ARRAY[1]), MAP(ARRAY[2], ARRAY[2]));

-- source: functions/comparison.md, quantified comparison predicates ALL, ANY, SOME
SELECT 'hi' = ANY (VALUES 'hi', 'there');
SELECT 25 < ALL (VALUES 19, 20, 21);
SELECT 18 < ALL (VALUES 19, 20, 21);
SELECT 42 >= SOME (SELECT 40 UNION ALL SELECT 42);
SELECT 5 = ALL (VALUES 5, 5);
SELECT 5 <> ALL (VALUES 1, 2);
SELECT 5 <> ANY (VALUES 5, 5);
SELECT 1 = ANY (VALUES 2, NULL);
SELECT 1 = ANY (VALUES 1, NULL);
SELECT 1 = ALL (SELECT 1 WHERE false);
SELECT 1 = ANY (SELECT 1 WHERE false);
SELECT 3 > ALL (VALUES 1, NULL);
SELECT name FROM tpch.tiny.region WHERE regionkey = ANY (SELECT regionkey FROM tpch.tiny.nation WHERE name LIKE 'I%') ORDER BY name;
SELECT name FROM tpch.tiny.nation WHERE nationkey > ALL (SELECT nationkey FROM tpch.tiny.nation WHERE regionkey = 0) ORDER BY nationkey;
SELECT 1 = ANY (VALUES 'a');

-- source: functions/comparison.md, LIKE
SELECT * FROM (VALUES 'America', 'Asia', 'Africa', 'Europe', 'Australia', 'Antarctica') AS t (continent) WHERE continent LIKE 'A%' ORDER BY continent;
SELECT * FROM (VALUES 'America', 'Asia', 'Africa', 'Europe', 'Australia', 'Antarctica') AS t (continent) WHERE continent NOT LIKE 'A%';
SELECT * FROM (VALUES 'America', 'Asia', 'Africa', 'Europe', 'Australia', 'Antarctica') AS t (continent) WHERE continent LIKE 'A__a';
SELECT 'North_Pole' LIKE 'North\_Pole' ESCAPE '\';
SELECT 'NorthXPole' LIKE 'North\_Pole' ESCAPE '\';
SELECT 'NorthXPole' LIKE 'North_Pole';
SELECT '100%' LIKE '100#%' ESCAPE '#';
SELECT '1000' LIKE '100#%' ESCAPE '#';
SELECT 'a\b' LIKE 'a\\b' ESCAPE '\';
SELECT 'a#b' LIKE 'a##b' ESCAPE '#';
SELECT 'abc' LIKE 'abc';
SELECT 'abc' LIKE 'ABC';
SELECT 'abc' LIKE '%';
SELECT '' LIKE '%';
SELECT '' LIKE '_';
SELECT 'abc' LIKE '%b%';
SELECT 'abc' LIKE '_b_';
SELECT 'a' || chr(10) || 'b' LIKE 'a_b';
SELECT '日本語' LIKE '_本_';
SELECT 'abc' LIKE NULL;
SELECT NULL LIKE 'a%';
SELECT 'a%' LIKE 'a%' ESCAPE NULL;
SELECT 'abc' LIKE 'a%c%';
SELECT 'ab' LIKE 'a%b%c';
SELECT CAST('ab' AS char(4)) LIKE 'ab';
SELECT CAST('ab' AS char(4)) LIKE 'ab%';
SELECT name FROM tpch.tiny.nation WHERE name LIKE '%AN%' ORDER BY name;
SELECT count(*) FROM tpch.tiny.part WHERE type LIKE '%BRASS';
SELECT count(*) FROM tpch.tiny.customer WHERE phone NOT LIKE '1%';
SELECT 'abc' LIKE 'a%' ESCAPE 'xy';
SELECT 'abc' LIKE 'a#' ESCAPE '#';
SELECT 1 LIKE '1';

-- source: functions/comparison.md, IN
SELECT 2 IN (1, 2, 3);
SELECT 4 IN (1, 2, 3);
SELECT 4 NOT IN (1, 2, 3);
SELECT NULL IN (1, 2);
SELECT 1 IN (1, NULL);
SELECT 3 IN (1, NULL);
SELECT 3 NOT IN (1, NULL);
SELECT 'b' IN ('a', 'b');
SELECT 1.5 IN (1, 1.5E0);
SELECT nan() IN (nan());
SELECT * FROM tpch.tiny.region WHERE name IN ('ASIA', 'AFRICA') ORDER BY regionkey;
SELECT name FROM tpch.tiny.region WHERE name NOT IN ('ASIA', 'AFRICA') ORDER BY regionkey;
SELECT name FROM tpch.tiny.nation WHERE regionkey IN (SELECT regionkey FROM tpch.tiny.region WHERE name LIKE 'A%') ORDER BY nationkey;
SELECT name FROM tpch.tiny.nation WHERE regionkey NOT IN (SELECT regionkey FROM tpch.tiny.region WHERE name LIKE 'A%') ORDER BY nationkey;
SELECT 1 IN ('a', 'b');
SELECT 1 IN (SELECT name FROM tpch.tiny.region);

-- source: Trino 476 docs, functions/comparison.md: its examples as written (extracted page by page)
SELECT 3 BETWEEN 2 AND 6;
SELECT 3 >= 2 AND 3 <= 6;
SELECT 3 NOT BETWEEN 2 AND 6;
SELECT 3 < 2 OR 3 > 6;
SELECT NULL BETWEEN 2 AND 4;
SELECT 2 BETWEEN NULL AND 6;
SELECT 2 BETWEEN 3 AND NULL;
SELECT 8 BETWEEN NULL AND 6;
SELECT 'Paul' BETWEEN 'John' AND 'Ringo';
select NULL IS NULL;
SELECT 3.0 IS NULL;
SELECT 'hello' = ANY (VALUES 'hello', 'world');
SELECT 21 < ALL (VALUES 19, 20, 21);
SELECT 42 >= SOME (SELECT 41 UNION ALL SELECT 42 UNION ALL SELECT 43);
SELECT * FROM (VALUES 'America', 'Asia', 'Africa', 'Europe', 'Australia', 'Antarctica') AS t (continent) WHERE continent LIKE 'E%';
SELECT * FROM (VALUES 'America', 'Asia', 'Africa', 'Europe', 'Australia', 'Antarctica') AS t (continent) WHERE continent NOT LIKE 'E%';
SELECT * FROM (VALUES 'America', 'Asia', 'Africa', 'Europe', 'Australia', 'Antarctica') AS t (continent) WHERE continent LIKE 'A__A';
SELECT 'South_America' LIKE 'South\_America' ESCAPE '\';
SELECT * FROM region WHERE name IN ('AMERICA', 'EUROPE');
SELECT * FROM region WHERE name = 'AMERICA' OR name = 'EUROPE';
SELECT * FROM region WHERE name NOT IN ('AMERICA', 'EUROPE');
