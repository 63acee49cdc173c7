-- family: project_semantics_values_statistics
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/values_statistics.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

VALUES (1, 'a'), (2, nope);

SHOW STATS FOR (SELECT 1);

SHOW STATS FOR (SELECT NULL, CAST(NULL AS integer));

SHOW STATS FOR (VALUES 0.10, 100.00);

SHOW STATS FOR (VALUES 1e300, 1e-5, 1e7);

SHOW STATS FOR (SELECT true x, DATE '2020-01-02' y);

SHOW STATS FOR (VALUES (ARRAY[1]), (ARRAY[1]), (NULL));

SHOW STATS FOR (SELECT extract(YEAR FROM DATE '2020-05-01') AS y, upper('a'));

SHOW STATS FOR
  (SELECT 1,
     nope);
