-- family: project_fidelity_java_client
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/fidelity/java_client.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT name, regionkey FROM nation;

SELECT CAST(1.5 AS decimal(3, 1)), TIMESTAMP '2020-01-02 03:04:05.678', DATE '2020-01-02', CAST(NULL AS varchar), 1e7, true, CAST(2 AS real);

SELECT nosuchcolumn FROM nation;

SELECT 1 / (regionkey - regionkey) FROM region;

DESCRIBE nation;

SELECT version(), typeof(version());

SHOW FUNCTIONS LIKE 'version';
