-- family: project_engine_explain
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/engine/explain.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

EXPLAIN SELECT 1;

EXPLAIN (FORMAT JSON, TYPE DISTRIBUTED) SELECT 1 AS x;

EXPLAIN VALUES (1, 'a'), (2, NULL);

EXPLAIN (FORMAT GRAPHVIZ) SELECT 1;

EXPLAIN (TYPE LOGICAL, FORMAT GRAPHVIZ) VALUES 1, 2;

EXPLAIN SELECT * FROM (VALUES 1, 2) t(x);

EXPLAIN SELECT .5, 007.50, 1E0, -0.0, 1.0E-4, 0.001, 9999999.0E0, 10000000.0E0, 2147483648, -2147483648, '', 'héllo', 00, 'it''s', true, NULL;

EXPLAIN SELECT orderstatus FROM orders;

EXPLAIN (TYPE LOGICAL) SELECT n.name AS nation FROM tpch.tiny.nation n;

EXPLAIN (FORMAT JSON, TYPE LOGICAL) SELECT nationkey FROM nation;

EXPLAIN (FORMAT GRAPHVIZ) SELECT orderkey FROM lineitem;

EXPLAIN SELECT name, regionkey FROM tpch.tiny.nation;

EXPLAIN SELECT * FROM orders;

EXPLAIN (FORMAT JSON) SELECT name AS n, name, regionkey AS r FROM nation;

EXPLAIN (TYPE IO) SELECT container, type FROM part;

EXPLAIN (TYPE IO, FORMAT JSON) SELECT regionkey, count(*) FROM nation GROUP BY 1;

EXPLAIN SELECT regionkey, count(*) FROM nation GROUP BY 1;

EXPLAIN (TYPE DISTRIBUTED, FORMAT JSON) SELECT orderstatus, count(*) AS n FROM orders GROUP BY orderstatus;

EXPLAIN (FORMAT GRAPHVIZ) SELECT count(*), regionkey FROM nation GROUP BY regionkey;

EXPLAIN SHOW CATALOGS;

EXPLAIN (FORMAT GRAPHVIZ) SHOW CATALOGS;

EXPLAIN (TYPE VALIDATE) SELECT 1;

EXPLAIN SELECT nosuch FROM tpch.tiny.nation;

EXPLAIN (TYPE VALIDATE)
  SELECT nosuch;

EXPLAIN (FORMAT GRAPHVIZ) SELECT nosuch;

EXPLAIN (FORMAT XML) SELECT 1;

EXPLAIN;
