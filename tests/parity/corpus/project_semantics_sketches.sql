-- family: project_semantics_sketches
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/sketches.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT qdigest_agg(v) FROM (VALUES 1) t(v);

SELECT quantile_at_value(qdigest_agg(v), 3) FROM (VALUES 1, 2, 3, 4, 5) t(v);

SELECT quantile_at_value(qdigest_agg(v), 99) FROM (VALUES 1, 2, 3, 4, 5) t(v);

SELECT typeof(qdigest_agg(CAST(v AS decimal(4,1)))) FROM (VALUES 1) t(v);

SELECT tdigest_agg(v) FROM (VALUES 1) t(v);

SELECT numeric_histogram(2, v) FROM (VALUES 1, 2, 5, 6, 10) t(v);
