-- family: project_fidelity_exploration_under_policies
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/fidelity/exploration_under_policies.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

DESCRIBE tpch.tiny.customer;

SELECT column_name FROM tpch.information_schema.columns WHERE table_name = 'customer' ORDER BY ordinal_position;

SELECT table_name FROM tpch.information_schema.tables WHERE table_schema = 'tiny';

SELECT DISTINCT table_name FROM tpch.information_schema.columns WHERE table_schema = 'tiny';

SHOW SCHEMAS FROM tpch LIKE '%i%';

DESCRIBE tpch.tiny.nation;

DESCRIBE tpch.tiny.nosuch;

SELECT * FROM tpch.information_schema.tables;

CREATE TABLE tpch.tiny.region (
   regionkey bigint NOT NULL,
   name varchar(25) NOT NULL,
   comment varchar(152) NOT NULL
);

CREATE SCHEMA tpch.tiny;

SHOW CREATE TABLE tpch.information_schema.schemata;
