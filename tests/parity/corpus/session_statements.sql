-- family: session_statements
-- source: Trino 476 docs, sql/set-time-zone.md, sql/use.md, sql/set-session.md, sql/reset-session.md, sql/prepare.md (statements without output: Trino 476 answers `"columns": []`, no rows, the updateType)
SET TIME ZONE LOCAL;
SET TIME ZONE '-08:00';
SET TIME ZONE INTERVAL '10' HOUR;
SET TIME ZONE INTERVAL -'08:00' HOUR TO MINUTE;
SET TIME ZONE INTERVAL '-08:30' HOUR TO MINUTE;
SET TIME ZONE INTERVAL '15' HOUR;
SET TIME ZONE INTERVAL '10:00:01' HOUR TO SECOND;
SET TIME ZONE 'America/Los_Angeles';
SET TIME ZONE concat_ws('/', 'America', 'Los_Angeles');
USE information_schema;
USE tpch.tiny;
SET SESSION query_max_run_time = '10m';
RESET SESSION query_max_run_time;
PREPARE my_select1 FROM SELECT * FROM nation;
EXECUTE IMMEDIATE 'SET SESSION query_max_run_time = ''1h''';
DROP TABLE IF EXISTS tpch.tiny.nosuch;
-- source: Trino 476 docs, sql/set-role.md; sql/commit.md, sql/rollback.md (outside a transaction)
SET ROLE ALL;
SET ROLE NONE;
SET ROLE admin;
SET ROLE ALL IN tpch;
COMMIT;
ROLLBACK;
