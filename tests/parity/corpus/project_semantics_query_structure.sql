-- family: project_semantics_query_structure
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/query_structure.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT name FROM region r WHERE NOT EXISTS (SELECT 1 FROM nation n WHERE n.regionkey = r.regionkey AND n.nationkey < 5) ORDER BY name;

SELECT regionkey, (SELECT count(*) FROM nation n WHERE n.regionkey = r.regionkey) FROM region r ORDER BY regionkey LIMIT 2;

SELECT count(*) FROM nation n WHERE nationkey = (SELECT max(nationkey) FROM nation m WHERE m.regionkey = n.regionkey);

WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS y FROM a) SELECT y FROM b;

WITH t (k) AS (SELECT regionkey FROM region) SELECT count(*) FROM t a JOIN t b ON a.k = b.k;

SELECT 1 UNION ALL SELECT 1;

SELECT 1 UNION SELECT 1;

SELECT 1 UNION DISTINCT SELECT 1;

SELECT x FROM (VALUES (1), (1), (1), (2)) t (x) INTERSECT ALL SELECT x FROM (VALUES (1), (1), (3)) u (x) ORDER BY 1;

SELECT x FROM (VALUES (1), (1), (1), (2)) t (x) EXCEPT ALL SELECT x FROM (VALUES (1), (3)) u (x) ORDER BY 1;

SELECT x FROM (VALUES (1), (1), (2)) t (x) INTERSECT DISTINCT SELECT 1;

SELECT x FROM (VALUES (1), (1), (2), (NULL)) t (x) EXCEPT SELECT 2 ORDER BY 1;

VALUES 3, 1, 2 ORDER BY 1;

SELECT sum(x) FROM (VALUES 1, 2, 3) t (x);

SELECT * FROM (VALUES (1, 'a'), (2, 'b')) t (k, v) WHERE k = 2;

SELECT x FROM (VALUES 1 + 1, abs(-3)) t (x) ORDER BY x;

SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 ORDER BY 1;

SELECT 1 AS a UNION SELECT 2.5 AS b ORDER BY 1;

SELECT 1, 2 EXCEPT SELECT 1;

SELECT regionkey, count(*) c FROM nation GROUP BY regionkey HAVING count(*) = 5 ORDER BY regionkey DESC LIMIT 2;

SELECT count(*) FROM nation HAVING count(*) > 100;

SELECT nationkey % 2, count(*) FROM nation GROUP BY nationkey % 2 ORDER BY 1;

SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x;

SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x DESC;

SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x DESC NULLS FIRST;

SELECT x FROM (VALUES (2), (NULL), (1)) t (x) ORDER BY x ASC NULLS FIRST;

SELECT regionkey FROM region ORDER BY regionkey OFFSET 2 ROWS FETCH NEXT 2 ROWS ONLY;

SELECT regionkey FROM region ORDER BY regionkey OFFSET 4 LIMIT 10;

SELECT regionkey FROM region ORDER BY regionkey FETCH FIRST ROW ONLY;

SELECT count(*) FROM (SELECT regionkey FROM region LIMIT ALL);

SELECT regionkey FROM nation ORDER BY regionkey FETCH FIRST 2 ROWS WITH TIES;

SELECT regionkey FROM nation ORDER BY regionkey OFFSET 3 ROWS FETCH NEXT 3 ROWS WITH TIES;

SELECT name AS n FROM region ORDER BY n DESC FETCH FIRST 2 ROWS WITH TIES;

SELECT count(*) FROM (SELECT regionkey, count(*) c FROM nation GROUP BY regionkey ORDER BY c FETCH FIRST 1 ROW WITH TIES);

SELECT regionkey FROM nation FETCH FIRST 2 ROWS WITH TIES;

SELECT 1 LIMIT 1.5;

(VALUES (1, 10), (2, 20), (3, 20), (4, 40), (5, 50)) t (k, v);

SELECT row_number() FROM nation;

SELECT _col1 FROM (SELECT 1, 2);

SELECT 1 ORDER BY _col0;

SELECT * FROM (SELECT 1), (SELECT 2);

WITH w AS (SELECT 1) SELECT * FROM w, w v;

SELECT * FROM (VALUES 1) CROSS JOIN UNNEST(ARRAY[1]) WITH ORDINALITY;

SELECT current_user, _col0 FROM (SELECT 1 AS _col0);

SELECT a.*, 5 FROM (SELECT 1, 2) a;

SELECT (ROW(1, 'x')).* AS (x, "y");

SELECT (ROW(regionkey, count(*))).* FROM nation GROUP BY regionkey ORDER BY 1;

SELECT (r).* FROM (SELECT ROW(1, 2) r) t;

SELECT region.* x FROM region;

SELECT * FROM (VALUES (1, 'alice', 5)) AS t(id, name, x) UNION ALL CORRESPONDING SELECT * FROM (VALUES ('bob', 2)) AS t(name, id) ORDER BY 1;

SELECT 1 a, 2 b INTERSECT CORRESPONDING SELECT 2 b, 1 a;

SELECT 1 a, 2 b EXCEPT CORRESPONDING SELECT 2 b, 1 a;

SELECT regionkey, count(*), max(name) FROM tpch.tiny.nation GROUP BY AUTO ORDER BY 1;

SELECT count(*) FROM tpch.tiny.nation GROUP BY AUTO;

SELECT 1, count(*) FROM tpch.tiny.nation GROUP BY AUTO;

SELECT regionkey AS r, upper(name) FROM tpch.tiny.nation GROUP BY AUTO ORDER BY 1, 2 LIMIT 2;

SELECT regionkey FROM tpch.tiny.nation GROUP BY AUTO, regionkey ORDER BY 1 LIMIT 2;

SELECT regionkey, sum(nationkey) FILTER (WHERE nationkey > 3) FROM tpch.tiny.nation GROUP BY AUTO HAVING count(*) > 1 ORDER BY 1 LIMIT 1;

SELECT "auto" FROM (VALUES 1) t("auto") GROUP BY "auto";

SELECT regionkey, count(*) + regionkey FROM tpch.tiny.nation GROUP BY AUTO;

SELECT -9223372036854775808;

SELECT -0x8000000000000000;

SELECT 1 AS primary;

SELECT -0x8000000000000001;

SELECT -99999999999999999999;

SELECT -(9223372036854775808);

TABLE tpch.tiny.region ORDER BY 1 LIMIT 1;

SELECT count(*) FROM (TABLE tpch.tiny.nation) t;

SELECT count(*) FROM (TABLE tpch.tiny.region UNION ALL TABLE tpch.tiny.region);

WITH x AS (SELECT 1 a) TABLE x;

SELECT * FROM TABLE(sequence(1, 2));

TABLE nosuch;

SELECT -NULL;

SELECT x + 1 FROM (VALUES BIGINT '9223372036854775807') t(x);

SELECT x * 2 FROM (VALUES 2147483647) t(x);

SELECT x - y FROM (VALUES (TINYINT '-128', TINYINT '1')) t(x, y);

SELECT try(x + 1), -y FROM (VALUES (2147483647, CAST(NULL AS integer))) t(x, y);
