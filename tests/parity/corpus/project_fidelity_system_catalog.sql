-- family: project_fidelity_system_catalog
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/fidelity/system_catalog.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT COLUMN_NAME, DATA_TYPE, TYPE_NAME, COLUMN_SIZE, BUFFER_LENGTH, DECIMAL_DIGITS, NUM_PREC_RADIX, NULLABLE, CHAR_OCTET_LENGTH, ORDINAL_POSITION, IS_NULLABLE FROM system.jdbc.columns WHERE TABLE_CAT = 'tpch' AND TABLE_SCHEM LIKE 'tiny' ESCAPE '\' AND TABLE_NAME LIKE 'nation' ESCAPE '\' AND COLUMN_NAME LIKE '%' ESCAPE '\' ORDER BY TABLE_CAT, TABLE_SCHEM, TABLE_NAME, ORDINAL_POSITION;

SELECT data_type, type_name, column_size, decimal_digits, nullable, is_nullable FROM system.jdbc.columns WHERE table_cat = 'system' AND table_schem = 'runtime' AND table_name = 'queries' AND column_name = 'created';

SELECT count(*), count_if(TYPE_NAME = 'integer') FROM system.jdbc.types;

SELECT table_name FROM system.information_schema.tables WHERE table_schema = 'metadata' ORDER BY 1;

SELECT * FROM system.metadata.catalogs WHERE catalog_name IN ('system', 'tpch') ORDER BY 1;

SELECT node_version, coordinator, state, http_uri LIKE 'http://%' FROM system.runtime.nodes;

SELECT TABLE_NAME FROM system.jdbc.tables WHERE TABLE_CAT = 'tpch' AND TABLE_SCHEM LIKE 'tiny' ESCAPE '\' ORDER BY TABLE_NAME;

SELECT COLUMN_NAME FROM system.jdbc.columns WHERE TABLE_CAT = 'tpch' AND TABLE_SCHEM = 'tiny' AND TABLE_NAME = 'customer' ORDER BY ORDINAL_POSITION;

SELECT column_name, is_nullable, comment, extra_info, column_comment FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = 'region' ORDER BY ordinal_position;

SELECT c.table_comment FROM tpch.information_schema.tables AS c WHERE table_schema = 'tiny' AND table_name = 'region';

SELECT count(*) FROM tpch.information_schema.columns WHERE table_schema = 'information_schema' AND table_name = 'columns';

SELECT max(ordinal_position), count(*) FROM system.jdbc.columns WHERE table_cat = 'tpch' AND table_schem = 'information_schema' AND table_name = 'columns';
