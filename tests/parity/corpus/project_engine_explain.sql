-- family: project_engine_explain
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/engine/explain.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

EXPLAIN SELECT name, regionkey FROM tpch.tiny.nation;

EXPLAIN (TYPE VALIDATE) SELECT 1;

EXPLAIN (FORMAT JSON, TYPE DISTRIBUTED) SELECT 1 AS x;

EXPLAIN SHOW CATALOGS;

EXPLAIN SELECT nosuch FROM tpch.tiny.nation;

EXPLAIN (TYPE VALIDATE)
  SELECT nosuch;

EXPLAIN (FORMAT GRAPHVIZ) SELECT 1;

EXPLAIN (FORMAT XML) SELECT 1;

EXPLAIN;
