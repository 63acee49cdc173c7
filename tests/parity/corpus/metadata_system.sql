-- family: metadata_system
-- source: Trino 476 docs, connector/system.md (https://trino.io/docs/476/connector/system.html)
-- source: trinodb/trino core/trino-main/src/main/java/io/trino/connector/system/ (NodeSystemTable, CatalogSystemTable, TableCommentSystemTable, *PropertiesSystemTable)
-- only columns whose value does not depend on the node id, the address, the time or the query id

-- system.runtime.nodes
SELECT count(*), bool_and(coordinator) FROM system.runtime.nodes;
SELECT node_version, coordinator, state FROM system.runtime.nodes;
SELECT count(*) FROM system.runtime.nodes WHERE state = 'active';
SELECT count(*) FROM system.runtime.nodes WHERE coordinator AND node_version = '476';
SELECT count(DISTINCT node_id) = count(*), bool_and(http_uri LIKE 'http%') FROM system.runtime.nodes;
SELECT typeof(node_id), typeof(coordinator), typeof(http_uri) FROM system.runtime.nodes;
SELECT node_version FROM system.runtime.nodes WHERE coordinator = false;
DESCRIBE system.metadata.table_properties;
SHOW COLUMNS FROM system.runtime.nodes;
DESCRIBE system.runtime.queries;
DESCRIBE system.runtime.tasks;
DESCRIBE system.runtime.transactions;
DESCRIBE system.runtime.optimizer_rule_stats;
SELECT count(*) > 0 FROM system.runtime.queries WHERE user = 'parity';

-- system.metadata.catalogs
SELECT * FROM system.metadata.catalogs ORDER BY catalog_name;
SELECT catalog_name FROM system.metadata.catalogs WHERE connector_name = 'tpch';
SELECT count(*) FROM system.metadata.catalogs;
DESCRIBE system.metadata.catalogs;

-- system.metadata.table_comments
SELECT * FROM system.metadata.table_comments WHERE catalog_name = 'tpch' AND schema_name = 'tiny' ORDER BY table_name;
SELECT comment FROM system.metadata.table_comments WHERE catalog_name = 'tpch' AND schema_name = 'tiny' AND table_name = 'lineitem';
SELECT count(*) FROM system.metadata.table_comments WHERE catalog_name = 'tpch';
SELECT count(*), count(comment) FROM system.metadata.table_comments WHERE catalog_name = 'system';
SELECT schema_name, table_name FROM system.metadata.table_comments WHERE catalog_name = 'system' AND schema_name = 'metadata' ORDER BY table_name;
SELECT table_name FROM system.metadata.table_comments WHERE catalog_name = 'tpch' AND schema_name = 'tiny' AND table_name LIKE 'p%' ORDER BY 1;
SHOW COLUMNS FROM system.metadata.table_comments;

-- property tables (tpch and system declare none)
SELECT * FROM system.metadata.table_properties ORDER BY catalog_name, property_name;
SELECT * FROM system.metadata.schema_properties ORDER BY catalog_name, property_name;
SELECT * FROM system.metadata.column_properties ORDER BY catalog_name, property_name;
SELECT * FROM system.metadata.analyze_properties ORDER BY catalog_name, property_name;
SELECT * FROM system.metadata.materialized_view_properties ORDER BY catalog_name, property_name;
SELECT * FROM system.metadata.materialized_views;
SELECT count(*) FROM system.metadata.table_properties WHERE catalog_name = 'tpch';
DESCRIBE system.metadata.materialized_views;

-- the system catalog's own schemas and tables
SHOW SCHEMAS FROM system LIKE '%a%';
SHOW TABLES FROM system.metadata LIKE '%properties';
SHOW TABLES FROM system.runtime LIKE 't%';
SHOW TABLES FROM system.jdbc LIKE 'p%';
SHOW TABLES FROM system.information_schema;
SELECT table_schema, count(*) FROM system.information_schema.tables GROUP BY table_schema ORDER BY 1;
SELECT length(version()) > 0;
SELECT typeof(version());
SELECT current_user, current_catalog, current_schema;
SELECT current_timezone();

-- refusals
SELECT nope FROM system.runtime.nodes;
DELETE FROM system.runtime.nodes;
CALL system.runtime.kill_query('20200101_000000_00000_aaaaa', 'parity');
CALL system.nope();

-- source: Trino 476 docs, connector/system.md (system.runtime.queries: the running query lists itself)
SELECT state, user, query FROM system.runtime.queries WHERE query LIKE 'SELECT state, user, query FROM system.runtime.queries%';
SELECT typeof(resource_group_id), typeof(created), typeof("end") FROM system.runtime.queries LIMIT 1;
SELECT count(*) FROM system.metadata.table_comments WHERE catalog_name = 'tpch' AND schema_name = 'sf300';
SELECT catalog_name, connector_id, connector_name FROM system.metadata.catalogs WHERE catalog_name = 'system';
