-- family: project_semantics_json_table
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/json_table.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT * FROM JSON_TABLE('[{"a":1},{"a":2}]', 'lax $[*]' COLUMNS (a bigint PATH 'lax $.a', "b" varchar(3) FORMAT JSON PATH 'lax $', o FOR ORDINALITY));

SELECT * FROM json_table('[{"continent": "Asia", "countries": [{"name": "Japan"}, {"name": "Thailand"}]}, {"continent": "Europe", "countries": [{"name": "France"}]}]', 'lax $' COLUMNS (NESTED PATH 'lax $[*]' COLUMNS (continent varchar PATH 'lax $.continent', NESTED PATH 'lax $.countries[*]' COLUMNS (country varchar PATH 'lax $.name'))));

SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' AS x COLUMNS (a bigint PATH 'lax $', NESTED PATH 'lax $' AS y COLUMNS (b bigint PATH 'lax $'), NESTED PATH 'lax $' AS z COLUMNS (c bigint PATH 'lax $')));

SELECT * FROM JSON_TABLE('[[1, 2]]', 'lax $[*]' COLUMNS (NESTED PATH 'lax $[*]' AS y COLUMNS (b bigint PATH 'lax $'), NESTED PATH 'lax $[*]' AS z COLUMNS (c bigint PATH 'lax $')) PLAN DEFAULT (CROSS));

SELECT * FROM JSON_TABLE('[[1,2],[3]]', 'lax $[*]' COLUMNS (o1 FOR ORDINALITY, NESTED PATH 'lax $[*]' COLUMNS (o2 FOR ORDINALITY, v bigint PATH 'lax $')));

SELECT * FROM json_table('[{"a": "abcdef"}, {"a": 12345}]', 'lax $[*]' COLUMNS (v varchar(3) PATH 'lax $.a', c char(3) PATH 'lax $.a'));

SELECT * FROM json_table('[{"a": "2020-01-01 10:00:00.123456"}]', 'lax $[*]' COLUMNS (t timestamp(3) PATH 'lax $.a'));

SELECT * FROM JSON_TABLE('[1,"x"]', 'lax $[*]' COLUMNS (a bigint PATH 'lax $' DEFAULT -1 ON ERROR, b bigint PATH 'lax $'));

SELECT * FROM JSON_TABLE('[1,[2]]', 'lax $[*]' COLUMNS (a varchar FORMAT JSON PATH 'lax $' WITH ARRAY WRAPPER, b varchar FORMAT JSON PATH 'lax $.q' EMPTY ARRAY ON EMPTY));

SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (a bigint, a varchar));

SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' AS a COLUMNS (a bigint));

SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (a bigint) PLAN (x));

SELECT * FROM JSON_TABLE('[[3]]', 'lax $[*]' COLUMNS (NESTED PATH 'lax $[*]' COLUMNS (v bigint PATH 'lax $')) PLAN DEFAULT (INNER));

SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' AS x COLUMNS (a bigint, NESTED PATH 'lax $' AS y COLUMNS (b bigint)) PLAN (x));

SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' AS x COLUMNS (a bigint, NESTED PATH 'lax $' AS y COLUMNS (b bigint), NESTED PATH 'lax $' AS z COLUMNS (c bigint)) PLAN (x OUTER (y UNION y)));

SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (x bigint EXISTS PATH 'lax $.a'));

SELECT * FROM JSON_TABLE(json '[1]', 'lax $[*]' COLUMNS (a bigint PATH 'lax $'));

SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' PASSING 10 AS "x" COLUMNS (a bigint PATH 'lax $ + $x'));

SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (a bigint FORMAT JSON PATH 'lax $'));

SELECT * FROM JSON_TABLE('[1]', 'lax $[*]' COLUMNS (a bigint PATH 'lax $' DEFAULT 'x' ON EMPTY));
