-- family: project_engine_tpch_generated
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/engine/tpch_generated.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT schema_name FROM tpch.information_schema.schemata ORDER BY 1;

SELECT count(*) FROM lineitem;

SHOW COLUMNS FROM lineitem;

SELECT table_name, column_name, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' ORDER BY 1, 2;

SELECT n.name, count(*) FROM tpch.{schema}.customer c JOIN tpch.{schema}.nation n ON c.nationkey = n.nationkey GROUP BY n.name ORDER BY n.name;
