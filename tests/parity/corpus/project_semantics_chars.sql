-- family: project_semantics_chars
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/chars.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT CAST('abc' AS char(5));

SELECT CAST(CAST('ab' AS char(4)) AS varchar(3));

SELECT length(CAST('abc' AS char(5)));

SELECT CAST(CAST('abc' AS char(5)) AS varchar) = 'abc';

SELECT 'abc' = CAST('abc' AS char(5));

SELECT 'abc ' = CAST('abc' AS char(5));

SELECT CAST('abc' AS char(5)) = CAST('abc ' AS char(7));

SELECT coalesce('abcdef', CAST('a' AS char(2)));

SELECT coalesce('ab  ', CAST('a' AS char(2)));

SELECT char 'ab ';

SELECT CAST(NULL AS char(3)) = CAST(NULL AS char(3));

SELECT CAST(12 AS char(3));

SELECT CAST(CAST('1' AS char(3)) AS double);
