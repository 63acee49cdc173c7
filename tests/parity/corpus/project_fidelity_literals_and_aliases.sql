-- family: project_fidelity_literals_and_aliases
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/fidelity/literals_and_aliases.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT 1_000, 0x1F, 0b101, 0o17, 1_000.5, 9_000_000_000;

SELECT count(*) FROM (SELECT name FROM tpch.tiny.nation LIMIT 1_0);

SELECT 'a' 'b';

SELECT name FROM tpch.tiny.nation 'n';
