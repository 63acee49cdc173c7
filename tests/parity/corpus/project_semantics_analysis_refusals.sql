-- family: project_semantics_analysis_refusals
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/analysis_refusals.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT n.name FROM nation AS from;

SELECT 1 < 2 = true;

SELECT 1 = 1 IS NULL;

SELECT count(DISTINCT *) FROM nation;

WITH x AS (SELECT 1) DELETE FROM nation;

call;

SELECT name FROM nation ORDER BY -1;

SELECT name FROM nation GROUP BY -1;

SELECT try(fail('x'));

SELECT fail(3, 'm');

SELECT nullif(2, 1.5);

SELECT fail(NULL);

SELECT JSON 'INVALID';

SELECT CAST(1 AS text);

SELECT CAST(1 AS array(foo));

SELECT r.x FROM (SELECT ROW(1, 2) AS r);

SELECT x.a FROM (VALUES CAST(ROW(1, 'p') AS row(a integer, b varchar))) t(x);

SELECT CHAR 'ab';

SELECT VARCHAR 'xyz';

SELECT NULL * 2.5;

SELECT typeof(NULL + 12.345);

SELECT 1.5e;
