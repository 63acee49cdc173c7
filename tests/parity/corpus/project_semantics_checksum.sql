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
