-- family: project_semantics_time_of_day
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/time_of_day.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT CAST(TIME '12:34:56.789' AS varchar);

SELECT typeof(TIME '12:00:00+05:00');

SELECT TIME '10:00:00.1234567890123';

SELECT CAST('12:34:56 +05:30' AS time);

SELECT millisecond(TIME '23:59:59.999 -11:00');

SELECT timezone_minute(TIME '01:02:03 -00:30');

SELECT INTERVAL '1' DAY * 0.1;

SELECT INTERVAL '7' MONTH / 2;

SELECT hour(INTERVAL '9 10:11:12' DAY TO SECOND);

SELECT month(INTERVAL '5-11' YEAR TO MONTH);

SELECT CAST(INTERVAL '1 02:03:04.5' DAY TO SECOND AS varchar);
