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

SELECT 1 + 2 * 'x';

SELECT 2 - (3 + 'x');

SELECT 1
  = 'x';

SELECT 1 <> 'x';

SELECT 1 > 'x';

SELECT 1 >= 'x';

SELECT 1 NOT BETWEEN 2 AND 'a';

SELECT (1 + 1) BETWEEN 'a' AND 'b';

SELECT 1 IS NOT DISTINCT FROM ARRAY[1];

SELECT 1 = -'a';

SELECT 'a' LIKE 1;

SELECT 1 IN (2, 'a', DATE '2020-01-01', 'b');

SELECT upper(name) FROM tpch.tiny.nation GROUP BY regionkey;

SELECT regionkey + nationkey FROM tpch.tiny.nation GROUP BY regionkey;

SELECT name || 'x' || comment FROM tpch.tiny.nation GROUP BY regionkey;

SELECT CASE WHEN regionkey = 1 THEN name END FROM tpch.tiny.nation GROUP BY regionkey;

SELECT nationkey * 2.5 FROM tpch.tiny.nation GROUP BY regionkey;

SELECT name IN ('a', 'b') FROM tpch.tiny.nation GROUP BY regionkey;

SELECT nationkey BETWEEN 1 AND 2 FROM tpch.tiny.nation GROUP BY regionkey;

SELECT -nationkey FROM tpch.tiny.nation GROUP BY regionkey;

SELECT NOT name LIKE 'x' FROM tpch.tiny.nation GROUP BY regionkey;

SELECT CAST(name AS varchar(3)) FROM tpch.tiny.nation GROUP BY regionkey;

SELECT count(*) FROM tpch.tiny.nation GROUP BY regionkey HAVING nationkey > 1;
