-- family: project_fidelity_doubles
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/fidelity/doubles.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT 1e7, 9999999e0, 12345678e0, 1e-4, 0.001e0, 100e0, 0.1e0 + 0.2e0, 4.9e-324, 1.7976931348623157e308, -2.5e10, CAST(0.1 AS real), CAST(1e7 AS varchar), CAST(CAST(0.1 AS real) AS varchar);

SELECT sum(totalprice) > 1e9, max(totalprice) FROM tpch.tiny.orders;
