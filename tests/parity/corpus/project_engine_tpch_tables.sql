-- family: project_engine_tpch_tables
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/engine/tpch_tables.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT * from {table};

DESCRIBE {table};

SELECT column_name, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = '{table}' ORDER BY ordinal_position;

SELECT * FROM nation ORDER BY nationkey LIMIT 1;

SELECT orderkey, partkey, suppkey, linenumber, quantity, extendedprice, discount, tax, shipdate FROM lineitem ORDER BY orderkey, linenumber LIMIT 1;
