-- family: metadata_sqlalchemy
-- source: trinodb/trino-python-client trino/sqlalchemy/dialect.py (trino 0.340.0 on PyPI): the reflection queries of TrinoDialect
-- source: trinodb/trino-python-client trino/dbapi.py: parameters bound by EXECUTE IMMEDIATE '...' USING ... (qmark paramstyle; legacy PREPARE/EXECUTE otherwise)
-- the dialect's text, once with the bound values written in as literals and once as the client sends it on the wire

-- get_catalog_names
SELECT "table_cat"
FROM "system"."jdbc"."catalogs";

-- get_schema_names
SELECT "schema_name"
FROM "information_schema"."schemata";

-- _get_server_version_info
SELECT version();

-- the client's probe for EXECUTE IMMEDIATE support
EXECUTE IMMEDIATE 'SELECT 1';

-- has_schema('tiny')
SELECT "schema_name"
FROM "information_schema"."schemata"
WHERE "schema_name" = 'tiny';

EXECUTE IMMEDIATE 'SELECT "schema_name"
FROM "information_schema"."schemata"
WHERE "schema_name" = ?' USING 'tiny';

-- has_schema('nope')
SELECT "schema_name"
FROM "information_schema"."schemata"
WHERE "schema_name" = 'nope';

EXECUTE IMMEDIATE 'SELECT "schema_name"
FROM "information_schema"."schemata"
WHERE "schema_name" = ?' USING 'nope';

-- get_table_names(schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_type" = 'BASE TABLE';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_type" = ''BASE TABLE''' USING 'tiny';

-- get_table_names(schema='information_schema')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'information_schema'
  AND "table_type" = 'BASE TABLE';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_type" = ''BASE TABLE''' USING 'information_schema';

-- get_view_names(schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_type" = 'VIEW';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_type" = ''VIEW''' USING 'tiny';

-- has_table('nation', schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'nation';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','nation';

-- has_table('region', schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'region';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','region';

-- has_table('orders', schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'orders';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','orders';

-- has_table('lineitem', schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'lineitem';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','lineitem';

-- has_table('customer', schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'customer';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','customer';

-- has_table('part', schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'part';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','part';

-- has_table('partsupp', schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'partsupp';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','partsupp';

-- has_table('supplier', schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'supplier';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','supplier';

-- has_table('nope', schema='tiny')
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'nope';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','nope';

-- has_table('Nation', schema='tiny') (case matters)
SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'Nation';

EXECUTE IMMEDIATE 'SELECT "table_name"
FROM "information_schema"."tables"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','Nation';

-- get_columns('nation', schema='tiny')
SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'nation'
ORDER BY "ordinal_position" ASC;

EXECUTE IMMEDIATE 'SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = ?
  AND "table_name" = ?
ORDER BY "ordinal_position" ASC' USING 'tiny','nation';

-- get_columns('region', schema='tiny')
SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'region'
ORDER BY "ordinal_position" ASC;

EXECUTE IMMEDIATE 'SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = ?
  AND "table_name" = ?
ORDER BY "ordinal_position" ASC' USING 'tiny','region';

-- get_columns('orders', schema='tiny')
SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'orders'
ORDER BY "ordinal_position" ASC;

EXECUTE IMMEDIATE 'SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = ?
  AND "table_name" = ?
ORDER BY "ordinal_position" ASC' USING 'tiny','orders';

-- get_columns('lineitem', schema='tiny')
SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'lineitem'
ORDER BY "ordinal_position" ASC;

EXECUTE IMMEDIATE 'SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = ?
  AND "table_name" = ?
ORDER BY "ordinal_position" ASC' USING 'tiny','lineitem';

-- get_columns('customer', schema='tiny')
SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'customer'
ORDER BY "ordinal_position" ASC;

EXECUTE IMMEDIATE 'SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = ?
  AND "table_name" = ?
ORDER BY "ordinal_position" ASC' USING 'tiny','customer';

-- get_columns('part', schema='tiny')
SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'part'
ORDER BY "ordinal_position" ASC;

EXECUTE IMMEDIATE 'SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = ?
  AND "table_name" = ?
ORDER BY "ordinal_position" ASC' USING 'tiny','part';

-- get_columns('partsupp', schema='tiny')
SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'partsupp'
ORDER BY "ordinal_position" ASC;

EXECUTE IMMEDIATE 'SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = ?
  AND "table_name" = ?
ORDER BY "ordinal_position" ASC' USING 'tiny','partsupp';

-- get_columns('supplier', schema='tiny')
SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'supplier'
ORDER BY "ordinal_position" ASC;

EXECUTE IMMEDIATE 'SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = ?
  AND "table_name" = ?
ORDER BY "ordinal_position" ASC' USING 'tiny','supplier';

-- get_columns('nope', schema='tiny')
SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'nope'
ORDER BY "ordinal_position" ASC;

EXECUTE IMMEDIATE 'SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = ?
  AND "table_name" = ?
ORDER BY "ordinal_position" ASC' USING 'tiny','nope';

-- get_columns('columns', schema='information_schema')
SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = 'information_schema'
  AND "table_name" = 'columns'
ORDER BY "ordinal_position" ASC;

EXECUTE IMMEDIATE 'SELECT
    "column_name",
    "data_type",
    "column_default",
    UPPER("is_nullable") AS "is_nullable",
    "comment"
FROM "information_schema"."columns"
WHERE "table_schema" = ?
  AND "table_name" = ?
ORDER BY "ordinal_position" ASC' USING 'information_schema','columns';

-- get_table_comment('nation', schema='tiny')
SELECT "comment"
FROM "system"."metadata"."table_comments"
WHERE "catalog_name" = 'tpch'
  AND "schema_name" = 'tiny'
  AND "table_name" = 'nation';

EXECUTE IMMEDIATE 'SELECT "comment"
FROM "system"."metadata"."table_comments"
WHERE "catalog_name" = ?
  AND "schema_name" = ?
  AND "table_name" = ?' USING 'tpch','tiny','nation';

-- get_table_comment('orders', schema='tiny')
SELECT "comment"
FROM "system"."metadata"."table_comments"
WHERE "catalog_name" = 'tpch'
  AND "schema_name" = 'tiny'
  AND "table_name" = 'orders';

EXECUTE IMMEDIATE 'SELECT "comment"
FROM "system"."metadata"."table_comments"
WHERE "catalog_name" = ?
  AND "schema_name" = ?
  AND "table_name" = ?' USING 'tpch','tiny','orders';

-- get_table_comment('nope', schema='tiny')
SELECT "comment"
FROM "system"."metadata"."table_comments"
WHERE "catalog_name" = 'tpch'
  AND "schema_name" = 'tiny'
  AND "table_name" = 'nope';

EXECUTE IMMEDIATE 'SELECT "comment"
FROM "system"."metadata"."table_comments"
WHERE "catalog_name" = ?
  AND "schema_name" = ?
  AND "table_name" = ?' USING 'tpch','tiny','nope';

-- get_view_definition('nation', schema='tiny')
SELECT "view_definition"
FROM "information_schema"."views"
WHERE "table_schema" = 'tiny'
  AND "table_name" = 'nation';

EXECUTE IMMEDIATE 'SELECT "view_definition"
FROM "information_schema"."views"
WHERE "table_schema" = ?
  AND "table_name" = ?' USING 'tiny','nation';

-- get_indexes -> _get_partitions: the tpch connector has no $partitions table (the dialect swallows the error)
SELECT * FROM tiny."nation$partitions";

-- what Table(..., autoload_with=engine) then pandas.read_sql_table compile to
SELECT tiny.nation.nationkey, tiny.nation.name, tiny.nation.regionkey, tiny.nation.comment
FROM tiny.nation;
SELECT tiny.region.regionkey, tiny.region.name, tiny.region.comment
FROM tiny.region;
SELECT tiny.orders.orderkey, tiny.orders.totalprice
FROM tiny.orders
WHERE tiny.orders.orderkey < 10 ORDER BY tiny.orders.orderkey;
SELECT count(*) AS count_1
FROM tiny.lineitem;
SELECT tiny.customer.custkey, tiny.customer.name
FROM tiny.customer ORDER BY tiny.customer.custkey
 LIMIT 3;
SELECT tiny.customer.custkey
FROM tiny.customer ORDER BY tiny.customer.custkey
 OFFSET 5 ROWS
 LIMIT 2;
