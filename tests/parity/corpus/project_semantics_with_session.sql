-- family: project_semantics_with_session
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/with_session.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

WITH SESSION join_distribution_type = 'BROADCAST', query_max_execution_time = '1h' SELECT count(*) FROM tpch.tiny.region;

WITH SESSION time_zone_id = 'America/New_York' SELECT current_timezone();

WITH SESSION max_recursion_depth = 5 WITH x AS (SELECT 2) SELECT * FROM x;

WITH session (a) AS (SELECT 1) SELECT * FROM session;

WITH SESSION nosuch = 1 SELECT 1;

WITH SESSION query_max_execution_time = '1h', query_max_execution_time = '2h' SELECT 1;

WITH SESSION max_recursion_depth = '5' SELECT 1;

WITH SESSION query_max_execution_time = 2 SELECT 1;

WITH SESSION max_recursion_depth = 2.5 SELECT 1;

WITH SESSION query_max_run_time = 'x' SELECT 1;

WITH SESSION max_recursion_depth = 0 SELECT 1;

WITH SESSION time_zone_id = 'Nowhere/Land' SELECT 1;

WITH SESSION a = 1, SELECT 1;

WITH SESSION max_recursion_depth = 5;
