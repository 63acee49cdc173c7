-- family: logical_functions
-- source: Trino 476 docs, functions/logical.md (https://trino.io/docs/476/functions/logical.html)

-- source: functions/logical.md, logical operators AND, OR, NOT
SELECT true AND true;
SELECT true AND false;
SELECT false AND NULL;
SELECT true AND NULL;
SELECT NULL AND NULL;
SELECT true OR false;
SELECT false OR false;
SELECT true OR NULL;
SELECT false OR NULL;
SELECT NULL OR NULL;
SELECT NOT true;
SELECT NOT false;
SELECT NOT NULL;
SELECT NOT (1 > 2);
SELECT NOT true AND false;
SELECT NOT (true AND false);
SELECT true OR false AND false;
SELECT (true OR false) AND false;
SELECT false AND 1 / 0 = 1;
SELECT true OR 1 / 0 = 1;
SELECT NULL AND false;
SELECT typeof(true AND NULL);
SELECT a, b, a AND b, a OR b FROM (VALUES (true, true), (true, false), (true, NULL), (false, false), (false, NULL), (NULL, NULL)) t(a, b) ORDER BY a DESC NULLS LAST, b DESC NULLS LAST;
SELECT a, NOT a FROM (VALUES true, false, NULL) t(a) ORDER BY a NULLS LAST;
SELECT count(*) FROM tpch.tiny.nation WHERE regionkey = 1 OR name LIKE 'C%';
SELECT count(*) FROM tpch.tiny.nation WHERE NOT (regionkey = 1) AND nationkey < 10;
SELECT count(*) FROM tpch.tiny.lineitem WHERE returnflag = 'R' AND linestatus = 'F' AND quantity > 45;
SELECT bool_and(x), bool_or(x) FROM (VALUES true, NULL, false) t(x);
SELECT 1 AND true;
SELECT NOT 'true';
SELECT 'a' OR false;

-- source: Trino 476 docs, functions/logical.md: its examples as written (extracted page by page)
SELECT CAST(null AS boolean) AND true;
SELECT CAST(null AS boolean) AND false;
SELECT CAST(null AS boolean) AND CAST(null AS boolean);
SELECT CAST(null AS boolean) OR CAST(null AS boolean);
SELECT CAST(null AS boolean) OR false;
SELECT CAST(null AS boolean) OR true;
SELECT NOT CAST(null AS boolean);
