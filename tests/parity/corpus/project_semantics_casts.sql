-- family: project_semantics_casts
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/casts.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT CAST(' 12 ' AS integer);

SELECT CAST('-42' AS bigint);

SELECT CAST('T' AS boolean);

SELECT CAST('false' AS boolean);

SELECT CAST(2.5 AS integer);

SELECT CAST(-2.5 AS integer);

SELECT CAST(1.995 AS decimal(3, 2));

SELECT CAST('1.25' AS decimal(3, 1));

SELECT CAST(12.50 AS varchar);

SELECT CAST(CAST(0.125 AS decimal(3, 2)) AS varchar);

SELECT CAST(0.5E0 AS varchar);

SELECT CAST(1E0 / 3 AS varchar);

SELECT array_join(ARRAY[1.5E0, 100E0], ',');

SELECT CAST(REAL '1e20' AS bigint);

SELECT CAST(12 AS varchar(2));

SELECT TRY_CAST(123 AS varchar(2));

SELECT CAST(DATE '2020-01-02' AS varchar);

SELECT CAST('2020-01-02' AS date);

SELECT CAST(TIMESTAMP '2020-01-02 03:04:05' AS date);

SELECT CAST(DATE '2020-01-02' AS timestamp);

SELECT CAST(0.1E0 AS real);

SELECT TRY_CAST('abc' AS integer);

SELECT TRY_CAST(300 AS tinyint);

SELECT TRY_CAST('2020-13-01' AS date);

SELECT TRY_CAST('12' AS bigint);

SELECT CAST(1.5E0 AS varchar(2));

SELECT CAST(1E39 AS decimal(38, 0));

SELECT CAST('3000000000' AS integer);

SELECT CAST('1.5' AS bigint);

SELECT CAST(' true' AS boolean);

SELECT CAST(123.45 AS decimal(4, 2));

SELECT CAST(1E10 AS integer);

SELECT CAST(12 AS varchar(1));

SELECT CAST(DATE '2020-01-02' AS varchar(4));

SELECT CAST('2005-06-bad-date' AS date);

SELECT CAST('noon' AS timestamp);

SELECT CAST(0E0 / 0E0 AS bigint);

SELECT TRY_CAST(1 AS date);

SELECT try_cast(ARRAY['1', NULL] AS array(integer));

SELECT try_cast(MAP(ARRAY[1], ARRAY['x']) AS map(integer, integer));

SELECT CAST(NULL AS INTERVAL DAY TO SECOND);

SELECT CAST(INTERVAL '1' DAY AS interval day to second);

SELECT TRY_CAST(INTERVAL '1' MONTH AS INTERVAL YEAR TO MONTH);

SELECT CAST('1' AS INTERVAL DAY TO SECOND);
