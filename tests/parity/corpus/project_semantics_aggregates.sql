-- family: project_semantics_aggregates
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/aggregates.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT max_by(name, nationkey) FROM tpch.tiny.nation;

SELECT min_by(name, nationkey) FROM tpch.tiny.nation;

SELECT max_by(x, y) FROM (VALUES (1, NULL), (2, 5)) t(x, y);

SELECT max_by(name, nationkey) FROM tpch.tiny.nation WHERE false;

SELECT round(geometric_mean(x), 6) FROM (VALUES 2, 8) t(x);

SELECT bitwise_and_agg(x) FROM (VALUES 3, 5, 7) t(x);

SELECT bitwise_or_agg(x) FROM (VALUES 3, 5, 7) t(x);

SELECT bitwise_xor_agg(x) FROM (VALUES 3, 5, 7) t(x);

SELECT bitwise_xor_agg(x) FROM (VALUES -1, 5) t(x);

SELECT listagg(value, ',') WITHIN GROUP (ORDER BY value) csv_value FROM (VALUES 'a', 'c', 'b') t(value);

SELECT listagg(value, ',') WITHIN GROUP (ORDER BY value DESC) FROM (VALUES 'a', NULL, 'b') t(value);

SELECT length(listagg(lpad('', 100000, 'x'), ',' ON OVERFLOW TRUNCATE '...' WITH COUNT) WITHIN GROUP (ORDER BY name)) FROM tpch.tiny.nation;

SELECT substr(listagg(lpad('', 100000, 'x'), ',' ON OVERFLOW TRUNCATE WITHOUT COUNT) WITHIN GROUP (ORDER BY name), 999990) FROM tpch.tiny.nation;

SELECT id, listagg(value, ',') WITHIN GROUP (ORDER BY o) csv_value FROM (VALUES (100, 1, 'a'), (200, 3, 'c'), (200, 2, 'b')) t(id, o, value) GROUP BY id ORDER BY id;

SELECT listagg(lpad('', 100000, 'x'), ',') WITHIN GROUP (ORDER BY name) FROM tpch.tiny.nation;

SELECT bitwise_and_agg(name) FROM tpch.tiny.nation;

SELECT stddev(x) FILTER (WHERE x > 1) FROM (VALUES 1, 2, 3, 4) t(x);

SELECT variance(x) FILTER (WHERE x > 1) FROM (VALUES 1, 2, 3, 4) t(x);

SELECT var_pop(nationkey) FILTER (WHERE name LIKE '%A%') FROM tpch.tiny.nation WHERE regionkey = 1;
