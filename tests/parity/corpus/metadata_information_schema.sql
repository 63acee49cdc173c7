-- family: metadata_information_schema
-- source: Trino 476 docs, connector/system.md and language/sql-support (information_schema) (https://trino.io/docs/476/develop/connectors.html)
-- source: trinodb/trino core/trino-main/src/main/java/io/trino/connector/informationschema/InformationSchemaTable.java (tables and their columns)
-- source: trinodb/trino testing/trino-tests/src/test/java/io/trino/tests/TestInformationSchemaConnector.java

-- schemata
SELECT * FROM tpch.information_schema.schemata ORDER BY schema_name;
SELECT schema_name FROM tpch.information_schema.schemata WHERE schema_name = 'tiny';
SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 'sf1%' ORDER BY 1;
SELECT count(*) FROM tpch.information_schema.schemata;
SELECT catalog_name, schema_name FROM system.information_schema.schemata ORDER BY schema_name;
SELECT schema_name FROM tpch.information_schema.schemata WHERE catalog_name = 'tpch' AND schema_name IN ('tiny', 'sf1', 'nope') ORDER BY 1;

-- tables
SELECT * FROM tpch.information_schema.tables WHERE table_schema = 'tiny' ORDER BY table_name;
SELECT table_name FROM tpch.information_schema.tables WHERE table_schema = 'tiny' AND table_name = 'nation';
SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'tiny' AND table_name LIKE 'p%' ORDER BY 1;
SELECT table_name FROM tpch.information_schema.tables WHERE table_schema = 'information_schema' ORDER BY 1;
SELECT table_schema, count(*) FROM tpch.information_schema.tables GROUP BY table_schema ORDER BY table_schema;
SELECT count(*) FROM tpch.information_schema.tables;
SELECT DISTINCT table_type FROM tpch.information_schema.tables ORDER BY 1;
SELECT table_name FROM tpch.information_schema.tables WHERE table_schema = 'tiny' AND table_type = 'VIEW';
SELECT table_catalog, table_schema, table_name FROM system.information_schema.tables WHERE table_schema = 'jdbc' ORDER BY table_name;
SELECT table_name FROM system.information_schema.tables WHERE table_schema = 'metadata' ORDER BY table_name;
SELECT table_name FROM system.information_schema.tables WHERE table_schema = 'runtime' ORDER BY table_name;
SELECT table_name FROM tpch.information_schema.tables WHERE table_schema = 'tiny' AND table_name = 'NATION';
SELECT count(*) FROM tpch.information_schema.tables WHERE table_schema = 'nope';

-- columns
SELECT * FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = 'nation' ORDER BY ordinal_position;
SELECT column_name, ordinal_position, column_default, is_nullable, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = 'region' ORDER BY ordinal_position;
SELECT column_name, ordinal_position, column_default, is_nullable, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = 'part' ORDER BY ordinal_position;
SELECT column_name, ordinal_position, column_default, is_nullable, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = 'supplier' ORDER BY ordinal_position;
SELECT column_name, ordinal_position, column_default, is_nullable, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = 'partsupp' ORDER BY ordinal_position;
SELECT column_name, ordinal_position, column_default, is_nullable, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = 'customer' ORDER BY ordinal_position;
SELECT column_name, ordinal_position, column_default, is_nullable, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = 'orders' ORDER BY ordinal_position;
SELECT column_name, ordinal_position, column_default, is_nullable, data_type FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = 'lineitem' ORDER BY ordinal_position;
SELECT table_name, count(*) FROM tpch.information_schema.columns WHERE table_schema = 'tiny' GROUP BY table_name ORDER BY table_name;
SELECT count(*) FROM tpch.information_schema.columns WHERE table_schema = 'tiny';
SELECT count(*) FROM tpch.information_schema.columns;
SELECT data_type, count(*) FROM tpch.information_schema.columns WHERE table_schema = 'tiny' GROUP BY data_type ORDER BY data_type;
SELECT table_name, column_name FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND column_name LIKE '%date' ORDER BY 1, 2;
SELECT table_name, column_name FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND data_type = 'double' ORDER BY 1, 2;
SELECT DISTINCT is_nullable FROM tpch.information_schema.columns WHERE table_schema = 'tiny';
SELECT column_name, comment, extra_info FROM tpch.information_schema.columns WHERE table_schema = 'tiny' AND table_name = 'region' ORDER BY ordinal_position;
SELECT column_name, data_type FROM tpch.information_schema.columns WHERE table_schema = 'information_schema' AND table_name = 'columns' ORDER BY ordinal_position;
SELECT column_name, data_type FROM tpch.information_schema.columns WHERE table_schema = 'information_schema' AND table_name = 'tables' ORDER BY ordinal_position;
SELECT column_name, data_type FROM tpch.information_schema.columns WHERE table_schema = 'information_schema' AND table_name = 'table_privileges' ORDER BY ordinal_position;
SELECT column_name FROM tpch.information_schema.columns WHERE table_schema = 'sf1' AND table_name = 'orders' ORDER BY ordinal_position;
SELECT table_schema, data_type FROM tpch.information_schema.columns WHERE table_name = 'lineitem' AND column_name = 'quantity' ORDER BY table_schema;
SELECT column_name, data_type FROM system.information_schema.columns WHERE table_schema = 'runtime' AND table_name = 'nodes' ORDER BY ordinal_position;
SELECT column_name, data_type FROM system.information_schema.columns WHERE table_schema = 'jdbc' AND table_name = 'tables' ORDER BY ordinal_position;
SELECT column_name, data_type FROM system.information_schema.columns WHERE table_schema = 'metadata' AND table_name = 'table_comments' ORDER BY ordinal_position;
SELECT c.table_name, c.column_name FROM tpch.information_schema.columns c JOIN tpch.information_schema.tables t ON c.table_schema = t.table_schema AND c.table_name = t.table_name WHERE t.table_schema = 'tiny' AND c.ordinal_position = 1 ORDER BY 1;
SELECT max(ordinal_position) FROM tpch.information_schema.columns WHERE table_schema = 'tiny';

-- views, privileges and roles
SELECT * FROM tpch.information_schema.views;
SELECT * FROM tpch.information_schema.views WHERE table_schema = 'tiny';
SELECT * FROM tpch.information_schema.table_privileges WHERE table_schema = 'tiny';
SELECT count(*) FROM tpch.information_schema.table_privileges;
SELECT * FROM tpch.information_schema.applicable_roles;
SELECT * FROM tpch.information_schema.enabled_roles;
SELECT * FROM tpch.information_schema.roles;
SELECT * FROM system.information_schema.views;

-- refusals
SELECT * FROM tpch.information_schema.materialized_views;
SELECT * FROM tpch.information_schema.role_authorization_descriptors;
SELECT numeric_precision FROM tpch.information_schema.columns;
SELECT * FROM nope.information_schema.tables;
SELECT * FROM tpch.information_schema.nope;
