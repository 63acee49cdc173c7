-- family: project_semantics_filtered_statistics
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/filtered_statistics.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SHOW STATS FOR (SELECT * FROM tpch.tiny.region WHERE regionkey BETWEEN 1 AND 2);

SHOW STATS FOR (SELECT regionkey, name FROM tpch.tiny.nation WHERE regionkey <> 1 ORDER BY name);

SHOW STATS FOR (SELECT name FROM tpch.tiny.nation WHERE name IN ('CHINA', 'PERU'));

SHOW STATS FOR (SELECT regionkey FROM tpch.tiny.nation WHERE regionkey IN (1, 2, 7));

SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE name < 'C');

SHOW STATS FOR (SELECT regionkey, comment FROM tpch.tiny.nation WHERE regionkey = 9);

SHOW STATS FOR (SELECT nationkey, name FROM tpch.tiny.nation WHERE regionkey = 1 AND nationkey < 10);

SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE nationkey > 3 AND nationkey < 10 AND regionkey = 2);

SHOW STATS FOR (SELECT orderdate, totalprice FROM tpch.tiny.orders WHERE orderdate >= DATE '1995-01-01' AND totalprice < 1000.5);

SHOW STATS FOR (SELECT linestatus, returnflag FROM tpch.tiny.lineitem WHERE returnflag BETWEEN 'A' AND 'N');

SHOW STATS FOR (SELECT linestatus FROM tpch.tiny.lineitem WHERE returnflag BETWEEN 'A' AND 'N' AND quantity < 10);

SHOW STATS FOR (SELECT name FROM tpch.tiny.nation AS n WHERE "NAME" IN ('PERU', 'PERU', 'CHINA'));

SHOW STATS FOR (SELECT regionkey FROM tpch.tiny.nation WHERE regionkey = 1 OR regionkey = 2);

SHOW STATS FOR (SELECT regionkey FROM tpch.tiny.nation WHERE (regionkey = 1 OR regionkey = 3) AND nationkey < 10);

SHOW STATS FOR (SELECT regionkey FROM tpch.tiny.nation WHERE regionkey IN (1, 2, 3));

SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE nationkey = 1.5);

SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE nationkey <> 1.5);

SHOW STATS FOR (SELECT node_id FROM system.runtime.nodes WHERE node_id = 'x');

SHOW STATS FOR tpch.information_schema.schemata;

SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE nationkey > 1.5);

SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE nationkey <= 1.5);

SHOW STATS FOR (SELECT regionkey, nationkey FROM tpch.tiny.nation WHERE regionkey = 1 OR nationkey < 10);

SHOW STATS FOR (SELECT name FROM tpch.tiny.nation WHERE (regionkey = 1 OR nationkey = 1) AND (regionkey = 2 OR nationkey = 5));

SHOW STATS FOR (SELECT orderpriority, totalprice FROM tpch.tiny.orders WHERE orderpriority = '1-URGENT' OR totalprice > 400000);

SHOW STATS FOR (SELECT orderkey, orderstatus, clerk FROM tpch.tiny.orders WHERE orderstatus = 'F');

SHOW STATS FOR (SELECT orderkey, orderstatus, clerk FROM tpch.tiny.orders WHERE orderstatus IN ('F', 'O') AND totalprice > 100000);

SHOW STATS FOR (SELECT orderkey, orderstatus FROM tpch.tiny.orders WHERE orderstatus = 'X');

SHOW STATS FOR (SELECT partkey, type FROM tpch.tiny.part WHERE type = 'STANDARD POLISHED TIN');

SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE nosuch = 1);

SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE regionkey = 'x');

SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE regionkey + 1 = 2);

SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE nosuch = 1 OR nationkey = 2);

SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE nationkey = 1 AND);
