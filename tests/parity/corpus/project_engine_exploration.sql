-- family: project_engine_exploration
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/engine/exploration.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SHOW TABLES FROM tpch.tiny LIKE 'part%';

SELECT table_name FROM tpch.information_schema.tables WHERE table_schema = 'tiny' AND table_name LIKE 'n%';

SELECT * FROM nation;

SHOW COLUMNS FROM tpch.tiny.nation LIKE '%key';

SELECT 1 == 1;
