-- family: project_semantics_aggregates_over_windows
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/aggregates_over_windows.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT {call} OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) {ROWS} ORDER BY x;

SELECT x, listagg(x, ',') WITHIN GROUP (ORDER BY x DESC) OVER () FROM (VALUES 'b', 'a', 'c') t(x) ORDER BY x;

SELECT listagg(x, ',') OVER () FROM (VALUES 'a') t(x);
