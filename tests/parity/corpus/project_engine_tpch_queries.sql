-- family: project_engine_tpch_queries
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/engine/tpch_queries.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT count(*) FROM part WHERE brand = 'Brand#23' AND container = 'MED BOX';
