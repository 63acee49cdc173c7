-- family: project_semantics_json
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/json.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT json_parse('"abc"');

SELECT json_parse('42');

SELECT json_parse('true');

SELECT json_parse('null');

SELECT json_parse('{"b": 1, "a": [1.0, 2.50]}');

SELECT json_format(JSON '{"a": 1, "b": 2}');

SELECT JSON_FORMAT(JSON '["a", "b"]');

SELECT json_format(JSON '42');

SELECT JSON_PARSE('INVALID');

SELECT JSON_PARSE('"x": 1');

SELECT json_format('[1]');

SELECT json_extract_scalar('{"a": [1]}', '$.a');

SELECT json_extract('{', '$');

SELECT json_extract_scalar('[0, 1, 2]', '$.1');

SELECT json_extract_scalar('[0, 1, 2]', '$["1"]');

SELECT json_extract_scalar('{"15day" : 0, "30day" : 1}', '$[30day]');

SELECT json_extract('{"fuu": [0, [100, 101], 2]}', '$["fuu"][1]');

SELECT json_extract('{"@$fuu": {".b.ar": 1}}', '$["@$fuu"]');

SELECT json_extract('{"fuu": ["\u0001"]}', '$.fuu[0]');

SELECT json_extract_scalar('{"foo:42": 7}', '$.foo:42');

SELECT JSON_SIZE('{"x": {"a" : 1, "b" : 2} }', '$');

SELECT JSON_SIZE('{"x": {"a" : 1, "b" : 2} }', '$.x');

SELECT JSON_SIZE('{"x": {"a" : 1, "b" : [1,2,3], "c" : {"w":9}} }', '$.x');

SELECT JSON_SIZE('{"x": {"a" : 1, "b" : 2} }', '$.x.a');

SELECT JSON_SIZE('[1,2,3]', '$');

SELECT JSON_SIZE('[1,2,3]', CHAR '$');

SELECT JSON_SIZE(null, '$');

SELECT JSON_SIZE('INVALID_JSON', '$');

SELECT JSON_SIZE('[1,2,3]', null);

SELECT JSON_SIZE(JSON '{"x": {"a" : 1, "b" : 2} }', '$.x');

SELECT JSON_SIZE('{"":""}', '');

SELECT JSON_SIZE('{"":""}', CHAR ' ');

SELECT JSON_SIZE('{"":""}', '.');

SELECT JSON_SIZE('{"":""}', 'null');

SELECT json_extract('[1]', '$.');

SELECT json_extract('[1]', '$.x [42]');

SELECT json_extract('[1]', '$[foo:bar]');

SELECT JSON_ARRAY_LENGTH('[]');

SELECT JSON_ARRAY_LENGTH('[1, "foo", null]');

SELECT JSON_ARRAY_LENGTH(JSON '[2, 4, {"a": [8, 9]}, [], [5], 4]');

SELECT JSON_ARRAY_LENGTH(null);

SELECT JSON_ARRAY_LENGTH('{}');

SELECT JSON_ARRAY_CONTAINS('[]', true);

SELECT JSON_ARRAY_CONTAINS('[true, false]', false);

SELECT JSON_ARRAY_CONTAINS('[1]', true);

SELECT JSON_ARRAY_CONTAINS('[[true]]', true);

SELECT JSON_ARRAY_CONTAINS('[3]', 3);

SELECT JSON_ARRAY_CONTAINS('[-4]', -4);

SELECT JSON_ARRAY_CONTAINS('[1.0]', 1);

SELECT JSON_ARRAY_CONTAINS('[2, 4, {"a": [8, 9]}, [], [5], 6]', 6);

SELECT JSON_ARRAY_CONTAINS('[92233720368547758071]', -9);

SELECT JSON_ARRAY_CONTAINS('[1.5]', 1.5);

SELECT JSON_ARRAY_CONTAINS('[1]', 1.0);

SELECT JSON_ARRAY_CONTAINS('[9.6E400]', 4.2);

SELECT JSON_ARRAY_CONTAINS(JSON '[1, "foo", null]', 'foo');

SELECT JSON_ARRAY_CONTAINS('[1, 5]', '5');

SELECT JSON_ARRAY_CONTAINS('[""]', '');

SELECT JSON_ARRAY_CONTAINS(null, 'x');

SELECT JSON_ARRAY_CONTAINS('[3]', null);

SELECT JSON_ARRAY_CONTAINS('[1,0,]', 8);

SELECT JSON_ARRAY_CONTAINS('123', 'x');

SELECT JSON_ARRAY_GET('[2, 7, 4]', 1);

SELECT JSON_ARRAY_GET('[2, 7, 4, 6, 8, 1, 0]', -1);

SELECT JSON_ARRAY_GET('[2, 7, 4, 6, 8, 1, 0]', -8);

SELECT JSON_ARRAY_GET('[1, 3, 2]', 3);

SELECT JSON_ARRAY_GET('["jhfa"]', 0);

SELECT JSON_ARRAY_GET('["jhfa", null]', 1);

SELECT JSON_ARRAY_GET('[3.14]', 0);

SELECT JSON_ARRAY_GET('[true, false]', 1);

SELECT JSON_ARRAY_GET('[{"hello":"world"}, [1,2, {"x" : 2} ]]', 1);

SELECT JSON_ARRAY_GET('[1]', -9223372036854775807 - 1);

SELECT JSON_ARRAY_GET('', 1);

SELECT IS_JSON_SCALAR(JSON 'null');

SELECT IS_JSON_SCALAR('"str"');

SELECT IS_JSON_SCALAR(JSON '[1, 2, 3]');

SELECT IS_JSON_SCALAR('{"a": 1, "b": 2}');

SELECT IS_JSON_SCALAR(null);

SELECT IS_JSON_SCALAR('[1');

SELECT IS_JSON_SCALAR('1 trailing');

SELECT CAST(1.234 AS JSON);

SELECT CAST('["a": 1, "b": 2]' AS JSON);

SELECT CAST(JSON 'null' AS VARCHAR);

SELECT CAST(JSON '1' AS INTEGER);

SELECT CAST(JSON '9223372036854775807' AS BIGINT);

SELECT CAST(JSON '"abc"' AS VARCHAR);

SELECT CAST(JSON 'true' AS BOOLEAN);

SELECT CAST(JSON '1.234' AS DOUBLE);

SELECT CAST(JSON '42' AS VARCHAR);

SELECT CAST(JSON 'true' AS VARCHAR);

SELECT CAST(JSON '"12"' AS BIGINT);

SELECT CAST(JSON '1.5' AS DECIMAL(3,2));

SELECT TRY_CAST(JSON '[1]' AS BIGINT);

SELECT CAST(JSON '{"a": 1, "b": 2}' AS VARCHAR);

SELECT CAST(JSON '[1, 2, 3]' AS VARCHAR);

SELECT CAST(JSON '"abcdef"' AS VARCHAR(3));

SELECT CAST(JSON '1000' AS TINYINT);

SELECT json_value(X'5B2261222C202262225D', 'lax $[1]');

SELECT json_value(X'5B2261222C202262225D' FORMAT JSON ENCODING UTF8, 'lax $[1]');

SELECT json_value('[...', 'lax $[1]');

SELECT json_value('[...', 'lax $[1]' DEFAULT 'x' ON ERROR);

SELECT json_value('{"price": 10, "tax": 2}', 'strict $.price + $.tax' RETURNING bigint);

SELECT json_value(null, 'lax $');

SELECT json_value('{"comment" : "nice", "children" : [10, 13, 16]}', 'lax $.children[0]' RETURNING tinyint);

SELECT json_value('{"comment" : "problematic", "children" : [8, 11]}', 'strict $.children[2]' DEFAULT 'err' ON ERROR);

SELECT json_value('{"comment" : "problematic", "children" : [8, 11]}', 'lax $.children[2]' DEFAULT 'missing' ON EMPTY);

SELECT json_value('{"comment" : "nice"}', 'lax $.comment' RETURNING char(12));

SELECT json_exists('{"comment" : "nice", "children" : [10, 13, 16]}', 'lax $.children[*]?(@ > 10)');

SELECT json_exists('{"comment" : "knows best", "children" : [2]}', 'lax $.children[*]?(@ > 10)');

SELECT json_exists('{"comment" : "nice", "children" : [10, 13, 16]}', 'strict $.children[2]?(@ > 10)' UNKNOWN ON ERROR);

SELECT json_exists('{"comment" : "problematic", "children" : [8, 11]}', 'strict $.children[2]?(@ > 10)' UNKNOWN ON ERROR);

SELECT json_exists('[...', 'lax $');

SELECT json_exists('[...', 'lax $' TRUE ON ERROR);

SELECT json_exists(null, 'lax $');

SELECT json_value('[...', 'lax $[1]' ERROR ON ERROR);

SELECT json_exists('[1]', 'strict $[5]' ERROR ON ERROR);

SELECT json_query(null, 'lax $');

SELECT json_query('{"a" : {"b" : 1}, "c" :  [true, {"c" : {"c" : null}}]}', 'lax $..c' WITH ARRAY WRAPPER);

SELECT json_query('{"comment" : "nice", "children" : [10, 13, 16]}', 'lax $.children');

SELECT json_query('{"comment" : "knows best", "children" : [2]}', 'lax $.children[*]' WITHOUT ARRAY WRAPPER NULL ON ERROR);

SELECT json_query('{"comment" : "nice", "children" : [10, 13, 16]}', 'lax $.children[last]' WITH ARRAY WRAPPER);

SELECT json_query('{"comment" : "nice", "children" : [10, 13, 16]}', 'strict $.children[*]?(@ > 12)' WITH ARRAY WRAPPER EMPTY ARRAY ON EMPTY);

SELECT json_query('{"comment" : "problematic", "children" : [8, 11]}', 'strict $.children[*]?(@ > 12)' WITH ARRAY WRAPPER EMPTY ARRAY ON EMPTY);

SELECT json_query('{"comment" : "nice"}', 'strict $.comment' OMIT QUOTES);

SELECT json_query('[...', 'lax $[1]' ERROR ON ERROR);

SELECT json_array(true, 12e-1, 'text');

SELECT json_array('[  "text"  ] ' FORMAT JSON);

SELECT json_array(json_query('{"key" : [  "value"  ]}', 'lax $.key') FORMAT JSON);

SELECT json_array(DATE '2001-01-31');

SELECT json_array(true, null, 1);

SELECT json_array(true, null, 1 ABSENT ON NULL);

SELECT json_array(true, null, 1 NULL ON NULL);

SELECT json_array(true, 1 RETURNING VARCHAR(100));

SELECT json_object('key1' : 1, 'key2' : true);

SELECT json_object(KEY 'key1' VALUE 1, KEY 'key2' VALUE true);

SELECT json_object('key1' VALUE 1, 'key2' VALUE true);

SELECT json_object('x' : true, 'y' : 12e-1, 'z' : 'text');

SELECT json_object('x' : '[  "text"  ] ' FORMAT JSON);

SELECT json_object('x' : DATE '2001-01-31');

SELECT json_object('x' : null, 'y' : 1);

SELECT json_object('x' : null, 'y' : 1 NULL ON NULL);

SELECT json_object('x' : null, 'y' : 1 ABSENT ON NULL);

SELECT json_object('x' : 1 RETURNING VARCHAR(100));

SELECT json_object('name' : name) FROM tpch.tiny.nation WHERE nationkey = 1;

SELECT json_object('x' : null, 'x' : 1 WITH UNIQUE KEYS);

SELECT json_object('x' : null, 'x' : 1);

SELECT json_object(CAST(null AS varchar) : 1);

SELECT CAST(ARRAY[1.5E0, 2] AS JSON);

SELECT CAST(ARRAY[JSON '{"b": 1}', NULL] AS JSON);

SELECT CAST(JSON '[1,23,456]' AS ARRAY(INTEGER));

SELECT CAST(JSON '[1,null,456]' AS ARRAY(INTEGER));

SELECT CAST(JSON '[[1,23],[456]]' AS ARRAY(ARRAY(INTEGER)));

SELECT CAST(JSON '{"k1":1,"k2":23,"k3":456}' AS MAP(VARCHAR, INTEGER));

SELECT CAST(JSON '{"v1":123,"v2":"abc","v3":true}' AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN));

SELECT CAST(JSON '[123,"abc",true]' AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN));

SELECT CAST(JSON '[[1, 23], 456]' AS ARRAY(JSON));

SELECT CAST(JSON '{"k1": [1, 23], "k2": 456}' AS MAP(VARCHAR, JSON));

SELECT CAST(JSON '[null]' AS ARRAY(JSON));

SELECT CAST(json_parse('[1, 2, 3]') AS ARRAY(BIGINT))[2];

SELECT TRY_CAST(JSON '{}' AS ARRAY(BIGINT));

SELECT CAST(CAST(JSON '{"b": 1, "a": 2}' AS MAP(VARCHAR, INTEGER)) AS JSON);

SELECT CAST(CAST(JSON '{"1": 1.5}' AS MAP(BIGINT, DOUBLE)) AS JSON);

SELECT CAST(CAST(ARRAY['a', 'b'] AS JSON) AS ARRAY(VARCHAR));

SELECT CAST(DATE '2001-01-31' AS JSON);

SELECT CAST(ARRAY[DATE '2001-01-31'] AS JSON);

SELECT CAST(JSON '{"a": 1}' AS ARRAY(BIGINT));

SELECT CAST(JSON '["x"]' AS ARRAY(BIGINT));

SELECT json_array(json_query('[1]', 'lax $'));

SELECT json_array(CAST(json_array(1) AS varchar));

SELECT json_value('{"a": "x"}', 'lax $.a' RETURNING date);

SELECT json_array(JSON '"a"');

SELECT json_array(JSON '1');

SELECT json_array(JSON 'null');

SELECT json_array_get('[[1.50]]', 0);

SELECT JSON '[1, 2]' = JSON '[1,2]';

SELECT JSON '1.0' = JSON '1';

SELECT json_value(JSON '{"a": {"b": 2.5}}', 'strict $.a.b' RETURNING double);

SELECT json_array(JSON '{"b": 1}', 1.50);
