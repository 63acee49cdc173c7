-- family: project_semantics_checksum
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/checksum.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT checksum(x) FROM (VALUES BIGINT '1', NULL, BIGINT '-7') t(x);

SELECT checksum(DISTINCT x) FROM (VALUES 3, 3, 5) t(x);

SELECT checksum(x) FROM (VALUES 1) t(x) WHERE x > 1;

SELECT checksum(x) FROM (VALUES CAST(NULL AS bigint)) t(x);

SELECT checksum(nationkey) FROM tpch.tiny.nation;

SELECT checksum(x) = checksum(-x) FROM (VALUES 0e0) t(x);

SELECT checksum(d) = (SELECT checksum(x) FROM (VALUES BIGINT '1') t(x)) FROM (VALUES DATE '1970-01-02') t(d);

SELECT checksum(name) FROM tpch.tiny.nation;

SELECT checksum(name) FROM (SELECT name FROM tpch.tiny.nation ORDER BY name DESC LIMIT 25);

SELECT checksum(name) FROM tpch.tiny.nation WHERE nationkey > 0;

SELECT checksum(ARRAY[1]);

SELECT checksum(x) FROM (VALUES ARRAY[1, NULL, 3], ARRAY[], NULL) t(x);

SELECT checksum(MAP(ARRAY[1], ARRAY[2]));

SELECT checksum(m) FROM (VALUES MAP(ARRAY['a', 'b'], ARRAY[1, NULL]), MAP(ARRAY['b', 'a'], ARRAY[NULL, 1]), NULL) t(m);

SELECT checksum(ARRAY[MAP(ARRAY[1], ARRAY[2])]);

SELECT checksum(ROW(1, 2));

SELECT checksum(ROW(1, NULL));

SELECT checksum(ROW(-1));

SELECT checksum(ROW(TINYINT '1'));

SELECT checksum(ROW(true));

SELECT checksum(ROW(false));

SELECT checksum(ROW(DOUBLE '1.5'));

SELECT checksum(ROW(DOUBLE '-0.0'));

SELECT checksum(ROW(REAL '-1.5'));

SELECT checksum(ROW('ab'));

SELECT checksum(ROW(CHAR 'ab '));

SELECT checksum(ROW(CAST('x' AS varbinary)));

SELECT checksum(ROW(DATE '1970-01-02'));

SELECT checksum(ROW(TIMESTAMP '1970-01-01 00:00:01'));

SELECT checksum(ROW(DECIMAL '1.50'));

SELECT checksum(ROW(DECIMAL '12345678901234567890.5'));

SELECT checksum(ROW(INTERVAL '1' DAY));

SELECT checksum(ROW(INTERVAL '1' MONTH));

SELECT checksum(ROW(ARRAY[1, 2]));

SELECT checksum(ROW(MAP(ARRAY[1], ARRAY[2])));

SELECT checksum(ROW(ROW(1)));

SELECT checksum(MAP(ARRAY[1], ARRAY[ROW(1)]));

SELECT checksum(ROW(JSON '1'));

SELECT checksum(ROW(JSON '{"a": 1}'));

SELECT checksum(ARRAY[JSON '[1, 2]']);
