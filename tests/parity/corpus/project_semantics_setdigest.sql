-- family: project_semantics_setdigest
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/setdigest.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT make_set_digest(v) FROM (VALUES 1) t(v);

SELECT hash_counts(make_set_digest(v)) FROM (VALUES CAST('ab' AS char(4))) t(v);

SELECT hash_counts(make_set_digest(v)) FROM (VALUES 2.5) t(v);

SELECT hash_counts(make_set_digest(v)) FROM (VALUES TIMESTAMP '1970-01-01 00:00:00.000001') t(v);

SELECT cardinality(make_set_digest(v) OVER ()) FROM (VALUES 1) t(v);

SELECT cardinality(make_set_digest(a * 10000 + b)) FROM UNNEST(sequence(0, 1)) x(a), UNNEST(sequence(1, 10000)) y(b);

SELECT cardinality(hash_counts(make_set_digest(a * 10000 + b))) FROM UNNEST(sequence(0, 1)) x(a), UNNEST(sequence(1, 10000)) y(b);

SELECT make_set_digest(v) FROM (VALUES 1e0) t(v);

SELECT cardinality(CAST(X'00' AS setdigest));
