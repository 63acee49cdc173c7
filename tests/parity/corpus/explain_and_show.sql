-- family: explain_and_show
-- source: Trino 476 docs, sql/show-catalogs.md, sql/show-schemas.md, sql/show-tables.md, sql/show-columns.md, sql/describe.md (https://trino.io/docs/476/sql.html)
-- source: Trino 476 docs, sql/show-functions.md, sql/show-create-table.md, sql/show-stats.md, sql/show-session.md, sql/explain.md
-- source: trinodb/trino testing/trino-testing/src/main/java/io/trino/testing/AbstractTestQueries.java (testShow*, testDescribe*)

SHOW CATALOGS;
SHOW CATALOGS LIKE 't%';
SHOW CATALOGS LIKE 'sys_em';
SHOW SCHEMAS FROM tpch;
SHOW SCHEMAS;
SHOW SCHEMAS IN tpch;
SHOW SCHEMAS FROM tpch LIKE 'sf1%';
SHOW SCHEMAS FROM tpch LIKE 't%';
SHOW SCHEMAS FROM system;
SHOW TABLES FROM tpch.tiny;
SHOW TABLES;
SHOW TABLES FROM tiny;
SHOW TABLES IN tpch.tiny LIKE 'p%';
SHOW TABLES FROM tpch.tiny LIKE '%er';
SHOW TABLES FROM tpch.tiny LIKE 'nation';
SHOW TABLES FROM tpch.sf1;
SHOW TABLES FROM tpch.information_schema;
SHOW TABLES FROM system.jdbc;
SHOW TABLES FROM system.metadata;
SHOW TABLES FROM system.runtime;
SHOW TABLES FROM tpch.tiny LIKE 'x\_%' ESCAPE '\';
SHOW COLUMNS FROM tpch.tiny.nation;
SHOW COLUMNS FROM tpch.tiny.region;
SHOW COLUMNS FROM tpch.tiny.part;
SHOW COLUMNS FROM tpch.tiny.supplier;
SHOW COLUMNS FROM tpch.tiny.partsupp;
SHOW COLUMNS FROM tpch.tiny.customer;
SHOW COLUMNS FROM tpch.tiny.orders;
SHOW COLUMNS FROM tpch.tiny.lineitem;
SHOW COLUMNS FROM nation;
SHOW COLUMNS IN tpch.tiny.orders LIKE '%date';
SHOW COLUMNS FROM tpch.tiny.customer LIKE 'c%';
DESCRIBE tpch.tiny.region;
DESCRIBE lineitem;
DESCRIBE tpch.sf1.orders;
DESC tpch.tiny.nation;
DESCRIBE system.jdbc.tables;
DESCRIBE system.metadata.table_comments;
DESCRIBE system.runtime.nodes;
DESCRIBE tpch.information_schema.columns;
SHOW CREATE TABLE tpch.tiny.nation;
SHOW CREATE TABLE tpch.tiny.region;
SHOW CREATE TABLE tpch.tiny.part;
SHOW CREATE TABLE tpch.tiny.supplier;
SHOW CREATE TABLE tpch.tiny.partsupp;
SHOW CREATE TABLE tpch.tiny.customer;
SHOW CREATE TABLE tpch.tiny.orders;
SHOW CREATE TABLE tpch.tiny.lineitem;
SHOW CREATE TABLE region;
SHOW CREATE SCHEMA tpch.tiny;
SHOW STATS FOR tpch.tiny.nation;
SHOW STATS FOR tpch.tiny.region;
SHOW STATS FOR tpch.tiny.orders;
SHOW STATS FOR tpch.tiny.lineitem;
SHOW STATS FOR tpch.tiny.customer;
SHOW STATS FOR (SELECT nationkey, name FROM tpch.tiny.nation);
SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE regionkey = 1);
SHOW STATS FOR (SELECT * FROM tpch.tiny.orders WHERE orderstatus = 'F');
-- SHOW STATS of a filtered table: FilterStatsCalculator, ComparisonStatsCalculator, StatisticRange, StatsNormalizer (core/trino-main/.../cost); tpch's own filters (TpchMetadata, StatisticsEstimator)
SHOW STATS FOR (SELECT name, comment FROM tpch.tiny.region WHERE regionkey >= 3);
SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE nationkey BETWEEN 5 AND 14 AND regionkey <> 0);
SHOW STATS FOR (SELECT custkey, mktsegment FROM tpch.tiny.customer WHERE mktsegment IN ('BUILDING', 'MACHINERY') AND acctbal > 0);
SHOW STATS FOR (SELECT * FROM tpch.tiny.lineitem WHERE shipdate < DATE '1994-03-01' AND quantity >= 20 AND returnflag = 'N');
SHOW STATS FOR (SELECT * FROM tpch.tiny.orders WHERE orderstatus <> 'F' AND orderdate > DATE '1996-06-30');
SHOW STATS FOR (SELECT size, container FROM tpch.tiny.part WHERE container = 'LG CASE' AND size <= 12);
SHOW STATS FOR (SELECT * FROM tpch.tiny.supplier WHERE 2000 < acctbal AND nationkey = 99);
SHOW STATS FOR (SELECT name FROM tpch.tiny.nation WHERE name > 'M' ORDER BY name);
SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE nationkey IS NOT NULL AND regionkey IS NULL);
-- SHOW STATS of constant rows: Trino folds them into one VALUES node (ValuesStatsRule; ShowStatsRewrite prints the bounds)
SHOW STATS FOR (SELECT 1 a, 'x' b, 2.5 c, NULL d);
SHOW STATS FOR (VALUES 1, 2, NULL, 3);
SHOW STATS FOR (VALUES (1, 'a'), (1, 'b'), (NULL, 'a'));
SHOW STATS FOR (SELECT 1e0 x, REAL '1.5' y, DATE '2020-01-02' z, 12345678901234567890.5 w, true v);
SHOW STATS FOR (VALUES REAL '0.1', REAL 'Infinity');
SHOW STATS FOR (VALUES 1e300, 1e-5, 1e7, infinity());
SHOW STATS FOR (VALUES TIMESTAMP '2020-01-01 00:00:00.120', TIMESTAMP '2020-01-01 00:00:01.000001');
SHOW STATS FOR (VALUES TIMESTAMP '2020-01-01 00:00:00.120 America/New_York');
SHOW STATS FOR (SELECT ARRAY[1, 2], MAP(ARRAY[1], ARRAY[2]), ROW(1, 'a'), JSON '1', CHAR 'ab', X'01', IPADDRESS '1.2.3.4', INTERVAL '1' DAY);
SHOW STATS FOR (SELECT extract(YEAR FROM DATE '2020-05-01'), substring('abc' FROM 2), abs(-3));
SHOW STATS FOR (VALUES 1, 'a');
-- VALUES rows compared as Trino's StatementAnalyzer.visitValues compares them
VALUES (1, 2), (3, 4, 5);
VALUES 1.5, 2, 'x';
SELECT 1 FROM (VALUES (1, 'a'), (2, 3)) t;
VALUES CAST(ROW(1) AS ROW(a integer)), 'x';
SHOW FUNCTIONS LIKE 'array_a%';
SHOW FUNCTIONS LIKE 'levenshtein%';
SHOW FUNCTIONS LIKE 'bool\_%' ESCAPE '\';
SHOW FUNCTIONS LIKE 'sha%';
SHOW FUNCTIONS LIKE 'to_hex';
SHOW FUNCTIONS LIKE 'no_such_function%';
SHOW FUNCTIONS FROM system.builtin LIKE 'abs';
SHOW SESSION LIKE 'join_distribution%';
SHOW SESSION LIKE 'query_max_run_time';
SHOW SESSION LIKE 'max_recursion_depth';
SHOW SESSION LIKE 'nonexistent_property%';
SHOW GRANTS ON TABLE tpch.tiny.nation;
SHOW ROLES;
SHOW CURRENT ROLES;
SHOW ROLE GRANTS;
EXPLAIN (TYPE VALIDATE) SELECT * FROM tpch.tiny.nation;
EXPLAIN (TYPE VALIDATE) SELECT count(*) FROM tpch.tiny.orders o JOIN tpch.tiny.customer c ON o.custkey = c.custkey;
EXPLAIN (TYPE VALIDATE) VALUES 1;
EXPLAIN (TYPE VALIDATE) SELECT nope FROM tpch.tiny.nation;
EXPLAIN (TYPE VALIDATE) SELECT 1 / 0;
EXPLAIN (TYPE VALIDATE) SELECT * FROM tpch.tiny.missing_table;
EXPLAIN (TYPE IO, FORMAT JSON) SELECT * FROM tpch.tiny.nation;
EXPLAIN (TYPE IO, FORMAT JSON) SELECT name FROM tpch.tiny.region WHERE regionkey = 2;

-- refusals
SHOW TABLES FROM tpch.nope;
SHOW TABLES FROM nope.tiny;
SHOW SCHEMAS FROM nope;
SHOW COLUMNS FROM tpch.tiny.nope;
DESCRIBE tpch.tiny.nope;
SHOW CREATE TABLE tpch.tiny.nope;
SHOW CREATE VIEW tpch.tiny.nation;
SHOW CREATE MATERIALIZED VIEW tpch.tiny.nation;
SHOW STATS FOR tpch.tiny.nope;
SHOW STATS FOR (SELECT * FROM tpch.tiny.nation ORDER BY name);
SHOW BRANCHES FROM TABLE tpch.tiny.nation;
SHOW CREATE SCHEMA tpch.nope;

-- source: Trino 476 docs, sql/explain.md: its examples as written (extracted page by page)
EXPLAIN (TYPE LOGICAL) SELECT regionkey, count(*) FROM nation GROUP BY 1;
EXPLAIN (TYPE LOGICAL, FORMAT JSON) SELECT regionkey, count(*) FROM nation GROUP BY 1;
EXPLAIN (TYPE DISTRIBUTED) SELECT regionkey, count(*) FROM nation GROUP BY 1;
EXPLAIN (TYPE DISTRIBUTED, FORMAT JSON) SELECT regionkey, count(*) FROM nation GROUP BY 1;
EXPLAIN (TYPE VALIDATE) SELECT regionkey, count(*) FROM nation GROUP BY 1;
EXPLAIN (TYPE VALIDATE) SELET 1=0;
EXPLAIN(TYPE VALIDATE) SELECT * FROM tpch.tiny.nations;

-- source: Trino 476 docs, sql/show-columns.md: its examples as written (extracted page by page)
SHOW COLUMNS FROM nation LIKE '%key';

-- source: Trino 476 docs, sql/show-create-table.md: its examples as written (extracted page by page)
SHOW CREATE TABLE sf1.orders;

-- source: Trino 476 docs, sql/show-functions.md: its examples as written (extracted page by page)
SHOW FUNCTIONS LIKE 'array%';
SHOW FUNCTIONS LIKE 'cf%';

-- source: Trino 476 docs, sql/show-schemas.md: its examples as written (extracted page by page)
SHOW SCHEMAS FROM tpch LIKE '__3%';

-- source: Trino 476 docs, sql/show-session.md: its examples as written (extracted page by page)
SHOW SESSION LIKE 'query%';

-- source: Trino 476 docs, sql/show-tables.md: its examples as written (extracted page by page)
SHOW TABLES FROM tpch.tiny LIKE 'p%';
