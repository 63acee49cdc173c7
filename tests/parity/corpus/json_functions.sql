-- family: json_functions
-- source: Trino 476 docs, functions/json.md (https://trino.io/docs/476/functions/json.html)

-- source: functions/json.md, json_exists
SELECT json_exists('{"a": 1, "b": [1, 2]}', 'lax $.a');
SELECT json_exists('{"a": 1}', 'lax $.z');
SELECT json_exists('{"a": 1}', 'strict $.z');
SELECT json_exists('{"a": 1}', 'strict $.z' FALSE ON ERROR);
SELECT json_exists('{"a": 1}', 'strict $.z' TRUE ON ERROR);
SELECT json_exists('{"a": 1}', 'strict $.z' UNKNOWN ON ERROR);
SELECT json_exists('{"a": 1}', 'strict $.z' ERROR ON ERROR);
SELECT json_exists('[10, 20, 30]', 'lax $[1]');
SELECT json_exists('[10, 20, 30]', 'lax $[5]');
SELECT json_exists('[10, 20, 30]', 'strict $[5]');
SELECT json_exists('[10, 20, 30]', 'lax $[*] ? (@ > 25)');
SELECT json_exists('[10, 20, 30]', 'lax $[*] ? (@ > 35)');
SELECT json_exists('{"items": [{"n": 1}, {"n": 5}]}', 'lax $.items[*] ? (@.n > 3)');
SELECT json_exists('[1, 2]', 'lax $[*] ? (@ == $v)' PASSING 2 AS v);
SELECT json_exists('[1, 2]', 'lax $[*] ? (@ == $v)' PASSING 7 AS "v");
SELECT json_exists('[1, 2]', 'lax $[*] ? (@ == $v)' PASSING 2 AS "v");
SELECT json_exists('not json', 'lax $.a');
SELECT json_exists('not json', 'lax $.a' ERROR ON ERROR);
SELECT json_exists(NULL, 'lax $.a');
SELECT json_exists('{}', 'lax $');
SELECT json_exists('{"a": null}', 'lax $.a');
SELECT json_exists('{"a": {"b": {"c": 3}}}', 'lax $.a.b.c');
SELECT json_exists('{"a": "xyz"}', 'lax $.a ? (@ starts with "x")');
SELECT json_exists(json_object('k': nationkey), 'lax $.k ? (@ > 20)') FROM tpch.tiny.nation ORDER BY nationkey;
SELECT json_exists(5, 'lax $');
SELECT json_exists('{}', 'lax $.a[');

-- source: functions/json.md, json_query
SELECT json_query('{"a": [1, 2, 3]}', 'lax $.a');
SELECT json_query('{"a": {"b": true}}', 'lax $.a');
SELECT json_query('{"a": 1}', 'lax $.a');
SELECT json_query('{"a": 1}', 'lax $.a' WITH WRAPPER);
SELECT json_query('{"a": 1}', 'lax $.a' WITH ARRAY WRAPPER);
SELECT json_query('{"a": 1}', 'lax $.a' WITH CONDITIONAL WRAPPER);
SELECT json_query('{"a": [1]}', 'lax $.a' WITH CONDITIONAL WRAPPER);
SELECT json_query('{"a": [1]}', 'lax $.a' WITH UNCONDITIONAL ARRAY WRAPPER);
SELECT json_query('{"a": [1]}', 'lax $.a' WITHOUT WRAPPER);
SELECT json_query('[1, 2, 3, 4]', 'lax $[*] ? (@ > 2)' WITH ARRAY WRAPPER);
SELECT json_query('[1, 2, 3, 4]', 'lax $[*] ? (@ > 2)');
SELECT json_query('[1, 2, 3, 4]', 'lax $[*] ? (@ > 2)' ERROR ON ERROR);
SELECT json_query('[1, 2, 3, 4]', 'lax $[*] ? (@ > 2)' EMPTY ARRAY ON ERROR);
SELECT json_query('[1, 2, 3, 4]', 'lax $[*] ? (@ > 2)' EMPTY OBJECT ON ERROR);
SELECT json_query('{"a": 1}', 'lax $.b');
SELECT json_query('{"a": 1}', 'lax $.b' EMPTY ARRAY ON EMPTY);
SELECT json_query('{"a": 1}', 'lax $.b' EMPTY OBJECT ON EMPTY);
SELECT json_query('{"a": 1}', 'lax $.b' ERROR ON EMPTY);
SELECT json_query('{"a": 1}', 'strict $.b');
SELECT json_query('{"a": 1}', 'strict $.b' ERROR ON ERROR);
SELECT json_query('{"a": "text"}', 'lax $.a');
SELECT json_query('{"a": "text"}', 'lax $.a' WITH WRAPPER);
SELECT json_query('{"a": "text"}', 'lax $.a' OMIT QUOTES);
SELECT json_query('{"a": "text"}', 'lax $.a' KEEP QUOTES);
SELECT json_query('{"a": "text"}', 'lax $.a' RETURNING varchar OMIT QUOTES ON SCALAR STRING);
SELECT json_query('{"a": ["x", "y"]}', 'lax $.a[last]' WITH ARRAY WRAPPER);
SELECT json_query('{"a": [5, 6, 7, 8]}', 'lax $.a[1 to 2]' WITH ARRAY WRAPPER);
SELECT json_query('{"a": [5, 6, 7, 8]}', 'strict $.a[1 to 9]' WITH ARRAY WRAPPER);
SELECT json_query('[{"k": 1}, {"k": 2}]', 'lax $[*].k' WITH ARRAY WRAPPER);
SELECT json_query('{"x": {"k": 1, "y": {"k": 2}}}', 'lax $..k' WITH ARRAY WRAPPER);
SELECT json_query('[-1.5, 2, 3.7]', 'lax $[*].abs()' WITH ARRAY WRAPPER);
SELECT json_query('[-1.5, 2, 3.7]', 'lax $[*].floor()' WITH ARRAY WRAPPER);
SELECT json_query('[-1.5, 2, 3.7]', 'lax $[*].ceiling()' WITH ARRAY WRAPPER);
SELECT json_query('[1, "a", null, true, [2], {}]', 'lax $[*].type()' WITH ARRAY WRAPPER);
SELECT json_query('{"a": [1, 2, 3]}', 'lax $.a.size()' WITH ARRAY WRAPPER);
SELECT json_query('["1.5", 2]', 'lax $[*].double()' WITH ARRAY WRAPPER);
SELECT json_query('{"p": 3, "q": 4}', 'lax $.p * $.q' WITH ARRAY WRAPPER);
SELECT json_query('{"p": 3}', 'lax -$.p' WITH ARRAY WRAPPER);
SELECT json_query('{"p": 7, "q": 2}', 'lax $.p % $.q' WITH ARRAY WRAPPER);
SELECT json_query('[1, 2]', 'lax $' RETURNING varbinary);
SELECT json_query('{"a": 1}', 'lax $.a' RETURNING varchar(3) WITH WRAPPER);
SELECT json_query(NULL, 'lax $');
SELECT json_query('[1, 2, 3]', 'lax $[$I]' PASSING 2 AS i);
SELECT json_query('{"a": 1}', 'lax $.a' WITH WRAPPER OMIT QUOTES);
SELECT json_query(json_array(name, regionkey), 'lax $[0]' WITH WRAPPER) FROM tpch.tiny.region ORDER BY regionkey;
SELECT json_query('{"a": 1}', 'lax $.a' RETURNING integer);

-- source: functions/json.md, json_value
SELECT json_value('{"a": 42}', 'lax $.a');
SELECT json_value('{"a": "text"}', 'lax $.a');
SELECT json_value('{"a": true}', 'lax $.a');
SELECT json_value('{"a": null}', 'lax $.a');
SELECT json_value('{"a": 42}', 'lax $.a' RETURNING integer);
SELECT json_value('{"a": 42}', 'lax $.a' RETURNING bigint);
SELECT json_value('{"a": 4.25}', 'lax $.a' RETURNING double);
SELECT json_value('{"a": 4.25}', 'lax $.a' RETURNING decimal(5, 2));
SELECT json_value('{"a": 4.25}', 'lax $.a' RETURNING integer);
SELECT json_value('{"a": "4"}', 'lax $.a' RETURNING integer);
SELECT json_value('{"a": true}', 'lax $.a' RETURNING boolean);
SELECT json_value('{"a": "2024-02-29"}', 'lax $.a' RETURNING date);
SELECT json_value('{"a": "abc"}', 'lax $.a' RETURNING integer);
SELECT json_value('{"a": "abc"}', 'lax $.a' RETURNING integer DEFAULT -1 ON ERROR);
SELECT json_value('{"a": "abc"}', 'lax $.a' RETURNING integer ERROR ON ERROR);
SELECT json_value('{"a": 1}', 'lax $.b');
SELECT json_value('{"a": 1}', 'lax $.b' DEFAULT 'none' ON EMPTY);
SELECT json_value('{"a": 1}', 'lax $.b' ERROR ON EMPTY);
SELECT json_value('{"a": 1}', 'lax $.b' NULL ON EMPTY);
SELECT json_value('{"a": [1, 2]}', 'lax $.a');
SELECT json_value('{"a": [1, 2]}', 'lax $.a' ERROR ON ERROR);
SELECT json_value('{"a": [1, 2]}', 'lax $.a[*]' DEFAULT 'many' ON ERROR);
SELECT json_value('{"a": {"b": 1}}', 'lax $.a');
SELECT json_value('{"a": 1}', 'strict $.b' DEFAULT 'missing' ON ERROR);
SELECT json_value('[5, 10, 15]', 'lax $[last]');
SELECT json_value('[5, 10, 15]', 'lax $[last - 1]');
SELECT json_value('[5, 10, 15]', 'lax $.size()');
SELECT json_value('{"a": 3, "b": 4}', 'lax $.a + $.b');
SELECT json_value('{"a": 3, "b": 4}', 'lax $.a / $.b');
SELECT json_value('{"a": 3}', 'lax $.a * $m' PASSING 10 AS "m");
SELECT json_value('{"a": 1}', 'lax $.a.type()');
SELECT json_value('{"a": "é日本"}', 'lax $.a');
SELECT json_value('{"a": 12345678901234567890}', 'lax $.a');
SELECT json_value('{"a": 1e3}', 'lax $.a');
SELECT json_value('{"a": 1.50}', 'lax $.a');
SELECT json_value('{"a key": 9}', 'lax $."a key"');
SELECT json_value(NULL, 'lax $.a');
SELECT json_value('{"a": 1}', 'lax $.a' RETURNING varchar(5));
SELECT json_value(json_object('name': name), 'lax $.name') FROM tpch.tiny.region ORDER BY regionkey;
SELECT json_value('{"a": 1}', 'lax $.a' RETURNING array(integer));
SELECT json_value('{"a": 1}', 'bogus path');

-- source: functions/json.md, json_array
SELECT json_array();
SELECT json_array(1, 'two', true, 4.5);
SELECT json_array(NULL, 1);
SELECT json_array(NULL, 1 NULL ON NULL);
SELECT json_array(NULL, 1 ABSENT ON NULL);
SELECT json_array(NULL ABSENT ON NULL);
SELECT json_array('[1,2]' FORMAT JSON, 3);
SELECT json_array('[1,2]', 3);
SELECT json_array(json_array(1, 2), json_array());
SELECT json_array(1E0, REAL '2.5', BIGINT '3');
SELECT json_array(DATE '2024-01-02');
SELECT json_array('x' RETURNING varbinary);
SELECT json_array(1, 2 RETURNING varchar(100));
SELECT json_array(1, 2, 3 RETURNING varchar(3));
SELECT json_array('é', '"q"');
SELECT json_array(name, regionkey) FROM tpch.tiny.region ORDER BY regionkey;
SELECT json_array(ARRAY[1, 2]);

-- source: functions/json.md, json_object
SELECT json_object();
SELECT json_object('a': 1, 'b': 'x');
SELECT json_object(KEY 'a' VALUE 1);
SELECT json_object('k' VALUE true);
SELECT json_object('a': NULL);
SELECT json_object('a': NULL ABSENT ON NULL);
SELECT json_object('a': NULL NULL ON NULL);
SELECT json_object('a': 1, 'a': 2);
SELECT json_object('a': 1, 'a': 2 WITH UNIQUE KEYS);
SELECT json_object('a': 1, 'a': 2 WITHOUT UNIQUE KEYS);
SELECT json_object('a': '{"x": 1}' FORMAT JSON);
SELECT json_object('a': '{"x": 1}');
SELECT json_object('o': json_object('i': json_array(1)));
SELECT json_object('a': 1 RETURNING varbinary);
SELECT json_object('a': 2.50);
SELECT json_object(NULL: 1);
SELECT json_object(name: nationkey) FROM tpch.tiny.nation WHERE regionkey = 0 ORDER BY nationkey;
SELECT json_object('a': ROW(1, 2));

-- source: functions/json.md, cast to JSON
SELECT CAST(NULL AS JSON);
SELECT CAST(1 AS JSON);
SELECT CAST(9223372036854775807 AS JSON);
SELECT CAST(1.5 AS JSON);
SELECT CAST(1.5E0 AS JSON);
SELECT CAST(REAL '2.25' AS JSON);
SELECT CAST(true AS JSON);
SELECT CAST('abc' AS JSON);
SELECT CAST('[1, 2]' AS JSON);
SELECT CAST('' AS JSON);
SELECT CAST(ARRAY[1, 23, 456] AS JSON);
SELECT CAST(ARRAY[1, NULL, 456] AS JSON);
SELECT CAST(ARRAY[ARRAY[1, 23], ARRAY[456]] AS JSON);
SELECT CAST(MAP(ARRAY['k1', 'k2', 'k3'], ARRAY[1, 23, 456]) AS JSON);
SELECT CAST(MAP(ARRAY[2, 1], ARRAY['b', 'a']) AS JSON);
SELECT CAST(CAST(ROW(123, 'abc', true) AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN)) AS JSON);
SELECT CAST(ROW(1, 'x') AS JSON);
SELECT CAST(DATE '2024-03-01' AS JSON);
SELECT CAST(nan() AS JSON);
SELECT CAST(ARRAY[] AS JSON);
SELECT CAST(MAP() AS JSON);
SELECT CAST('é"\' AS JSON);
SELECT CAST(CAST(ROW(regionkey, name) AS ROW(k bigint, n varchar)) AS JSON) FROM tpch.tiny.region ORDER BY regionkey;
SELECT CAST(X'01' AS JSON);

-- source: functions/json.md, cast from JSON
SELECT CAST(JSON '1' AS bigint);
SELECT CAST(JSON '1.7' AS integer);
SELECT CAST(JSON '"12"' AS integer);
SELECT CAST(JSON 'true' AS integer);
SELECT CAST(JSON '12.5' AS decimal(4, 1));
SELECT CAST(JSON '1e2' AS double);
SELECT CAST(JSON '"abc"' AS varchar);
SELECT CAST(JSON '123' AS varchar);
SELECT CAST(JSON 'null' AS varchar);
SELECT CAST(JSON 'true' AS boolean);
SELECT CAST(JSON '"true"' AS boolean);
SELECT CAST(JSON '0' AS boolean);
SELECT CAST(JSON '[1, 23, 456]' AS array(integer));
SELECT CAST(JSON '[1, null, 3]' AS array(bigint));
SELECT CAST(JSON '[[1], [2, 3]]' AS array(array(integer)));
SELECT CAST(JSON '{"k1": 1, "k2": 23}' AS map(varchar, integer));
SELECT CAST(JSON '{"1": "a"}' AS map(bigint, varchar));
SELECT CAST(JSON '{"v1": 123, "v2": "abc", "v3": true}' AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN));
SELECT CAST(JSON '[123, "abc", true]' AS ROW(v1 BIGINT, v2 VARCHAR, v3 BOOLEAN));
SELECT CAST(JSON '{"V1": 5}' AS ROW(v1 BIGINT));
SELECT CAST(JSON '{"a": 1}' AS ROW(a bigint, b varchar));
SELECT CAST(JSON '[1, "x"]' AS array(varchar));
SELECT CAST(JSON '{"a": [1, 2]}' AS map(varchar, array(integer)));
SELECT CAST(JSON '{"a": 1, "b": 2}' AS map(varchar, json));
SELECT CAST(JSON '[1, {"x": 2}]' AS array(json));
SELECT CAST(JSON '"abc"' AS integer);
SELECT CAST(JSON '[1, 2]' AS integer);
SELECT CAST(JSON '300' AS tinyint);
SELECT CAST(JSON '{"a": 1}' AS array(integer));
SELECT try_cast(JSON '"x"' AS integer);

-- source: functions/json.md, JSON literal, json_parse and json_format
SELECT JSON '{"b": 1, "a": 2}';
SELECT JSON '[1, 2.0, "x"]';
SELECT JSON 'null';
SELECT typeof(JSON '1');
SELECT json_parse('{"b": 1, "a": [2, 3]}');
SELECT json_parse('[1, 2, 3]');
SELECT json_parse('"str"');
SELECT json_parse('  17  ');
SELECT json_parse('1.0');
SELECT json_parse('1e3');
SELECT json_parse('{"z": {"y": 1, "x": 2}}');
SELECT json_parse(NULL);
SELECT json_parse('{"a": 1,}');
SELECT json_parse('nope');
SELECT json_parse('');
SELECT json_parse('[1] [2]');
SELECT json_format(JSON '[1, 2, 3]');
SELECT json_format(JSON '"a"');
SELECT json_format(JSON '{"b": 2, "a": 1}');
SELECT json_format(json_parse('["é"]'));
SELECT typeof(json_format(JSON '1'));
SELECT json_format(NULL);
SELECT json_format(JSON '{"a": 1}') = '{"a":1}';

-- source: functions/json.md, is_json_scalar
SELECT is_json_scalar('1');
SELECT is_json_scalar('[1, 2, 3]');
SELECT is_json_scalar('{"a": 1}');
SELECT is_json_scalar('"s"');
SELECT is_json_scalar('null');
SELECT is_json_scalar(JSON 'true');
SELECT is_json_scalar(NULL);
SELECT is_json_scalar('');
SELECT is_json_scalar('{');

-- source: functions/json.md, json_array_contains
SELECT json_array_contains('[1, 2, 3]', 2);
SELECT json_array_contains('[1, 2, 3]', 5);
SELECT json_array_contains('["a", "b"]', 'b');
SELECT json_array_contains('[true]', true);
SELECT json_array_contains('[1.5, 2]', 1.5E0);
SELECT json_array_contains('[1.5, 2]', 2);
SELECT json_array_contains('[[1], 1]', 1);
SELECT json_array_contains('[]', 1);
SELECT json_array_contains('{"a": 1}', 1);
SELECT json_array_contains('not json', 1);
SELECT json_array_contains(JSON '["x"]', 'x');
SELECT json_array_contains(NULL, 1);
SELECT json_array_contains('[null]', 1);

-- source: functions/json.md, json_array_get
SELECT json_array_get('["a", [3, 9], "c"]', 0);
SELECT json_array_get('["a", [3, 9], "c"]', 1);
SELECT json_array_get('["a", [3, 9], "c"]', 10);
SELECT json_array_get('["c", [3, 9], "a"]', -1);
SELECT json_array_get('["c", [3, 9], "a"]', -2);
SELECT json_array_get('["c", [3, 9], "a"]', -10);
SELECT json_array_get('[]', 0);
SELECT json_array_get('{"a": 1}', 0);
SELECT json_array_get('[1, null]', 1);
SELECT json_array_get(JSON '[{"k": 1}]', 0);
SELECT json_array_get('[1.50, 2]', 0);
SELECT json_array_get(NULL, 0);
SELECT typeof(json_array_get('[1]', 0));

-- source: functions/json.md, json_array_length
SELECT json_array_length('[1, 2, 3]');
SELECT json_array_length('[]');
SELECT json_array_length('[[1, 2], [3]]');
SELECT json_array_length('{"a": 1}');
SELECT json_array_length('5');
SELECT json_array_length('junk');
SELECT json_array_length(JSON '[null, null]');
SELECT json_array_length(NULL);
SELECT json_array_length(CAST(ARRAY[nationkey, regionkey] AS JSON)) FROM tpch.tiny.nation WHERE nationkey < 3 ORDER BY nationkey;

-- source: functions/json.md, json_extract
SELECT json_extract('{"store": {"book": [{"title": "A"}, {"title": "B"}]}}', '$.store.book');
SELECT json_extract('{"store": {"book": [{"title": "A"}, {"title": "B"}]}}', '$.store.book[1].title');
SELECT json_extract('{"store": {"book": [{"title": "A"}, {"title": "B"}]}}', '$.store.book[*].title');
SELECT json_extract('{"a": 1}', '$.b');
SELECT json_extract('{"a": null}', '$.a');
SELECT json_extract('{"a": {"b": 2}}', '$["a"]');
SELECT json_extract('{"a b": 3}', '$["a b"]');
SELECT json_extract('[10, 20]', '$[1]');
SELECT json_extract('[10, 20]', '$[2]');
SELECT json_extract('"s"', '$');
SELECT json_extract(JSON '{"x": [1, 2]}', '$.x');
SELECT json_extract('bad', '$.a');
SELECT json_extract(NULL, '$.a');
SELECT typeof(json_extract('{}', '$'));
SELECT json_extract('{"a": 1}', 'a');
SELECT json_extract('{"a": 1}', '$..a');

-- source: functions/json.md, json_extract_scalar
SELECT json_extract_scalar('{"store": {"book": [{"title": "A"}, {"title": "B"}]}}', '$.store.book[0].title');
SELECT json_extract_scalar('[1, 2, 3]', '$[2]');
SELECT json_extract_scalar('{"a": [1, 2]}', '$.a');
SELECT json_extract_scalar('{"a": {"b": 1}}', '$.a');
SELECT json_extract_scalar('{"a": true}', '$.a');
SELECT json_extract_scalar('{"a": null}', '$.a');
SELECT json_extract_scalar('{"a": 1.50}', '$.a');
SELECT json_extract_scalar('{"a": "é"}', '$.a');
SELECT json_extract_scalar('{"a": 1e2}', '$.a');
SELECT json_extract_scalar('{"a": 1}', '$.b');
SELECT json_extract_scalar(JSON '{"n": 7}', '$.n');
SELECT typeof(json_extract_scalar('{"a": 1}', '$.a'));
SELECT typeof(json_extract_scalar(CAST('{}' AS varchar(10)), '$.a'));
SELECT json_extract_scalar(CAST(MAP(ARRAY['n'], ARRAY[name]) AS JSON), '$.n') FROM tpch.tiny.region ORDER BY regionkey;
SELECT json_extract_scalar('{"a": 1}', '');

-- source: functions/json.md, json_size
SELECT json_size('{"x": {"a": 1, "b": 2}}', '$.x');
SELECT json_size('{"x": [1, 2, 3]}', '$.x');
SELECT json_size('{"x": {"a": 1, "b": 2}}', '$.x.a');
SELECT json_size('{"x": 1}', '$.y');
SELECT json_size('[]', '$');
SELECT json_size('{}', '$');
SELECT json_size(JSON '[1, [2, 3]]', '$[1]');
SELECT json_size(NULL, '$');
SELECT json_size('{"x": 1}', 'x');

-- source: functions/json.md, JSON comparisons and typing
SELECT JSON '[1, 2]' = JSON '[1, 2]';
SELECT CAST(JSON '{"b": 1, "a": 2}' AS varchar);
SELECT CAST(JSON '[1, 2]' AS varchar);
SELECT json_query(json_object('a': json_array(1, 2)), 'lax $.a[1]');

-- source: functions/json.md, json_array and json_object: FORMAT JSON ENCODING of varbinary input, RETURNING varbinary FORMAT JSON ENCODING UTF8 | UTF16 | UTF32
SELECT json_array('[  "text"  ] ' FORMAT JSON, X'5B0035005D00' FORMAT JSON ENCODING UTF16);
SELECT json_array(true, 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF8);
SELECT json_array(true, 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF16);
SELECT json_array(true, 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF32);
SELECT json_object('x' : '[  "text"  ] ' FORMAT JSON, 'y' : X'5B0035005D00' FORMAT JSON ENCODING UTF16);
SELECT json_object('x' : 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF8);
SELECT json_object('x' : 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF16);
SELECT json_object('x' : 1 RETURNING VARBINARY FORMAT JSON ENCODING UTF32);
SELECT json_array(1 RETURNING varchar FORMAT JSON ENCODING UTF16);
SELECT json_array('[1]' FORMAT JSON ENCODING UTF16);
SELECT json_array(X'5B0031005D00' FORMAT JSON ENCODING UTF8);
SELECT json_array(X'5B0031005D00' FORMAT JSON);
SELECT json_value(X'5B0031005D00' FORMAT JSON ENCODING UTF16, 'lax $[0]');
SELECT json_query(X'5B000000310000005D000000' FORMAT JSON ENCODING UTF32, 'lax $');
SELECT json_array(X'00D8' FORMAT JSON ENCODING UTF16);
SELECT json_array(1 RETURNING varbinary FORMAT JSON);
SELECT json_query('[1]', 'lax $' RETURNING varbinary FORMAT JSON ENCODING UTF16);
SELECT json_query('[1]', 'lax $' RETURNING varchar FORMAT JSON ENCODING UTF32);
SELECT json_exists(X'5B0031005D00' FORMAT JSON ENCODING UTF16, 'lax $[0]');
