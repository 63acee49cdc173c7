-- family: project_engine_function_refusals_quoting_arguments
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/engine/function_refusals_quoting_arguments.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT parse_datetime('x parser stack overflow', 'yyyy');
