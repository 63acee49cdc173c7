-- family: project_semantics_time_zones
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/time_zones.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles';

SELECT TIMESTAMP '2001-01-02 03:04:05.123456789 +07:09';

SELECT TIMESTAMP '2001-01-02 03:04:05.123456789012 +07:09';

SELECT TIMESTAMP '2001-01-02 03:04:05 UTC';

SELECT TIMESTAMP '2001-01-02 03:04:05.1+07:09';

SELECT TIMESTAMP '2001-01-02 03:04 Z';

SELECT TIMESTAMP '1500-05-01 12:34:56.123456789012 Asia/Kathmandu';

SELECT ARRAY[TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles'];

SELECT CAST('2001-08-22 03:04:05.321 America/Los_Angeles' AS timestamp(3) with time zone);

SELECT CAST('2001-08-22 03:04:05.321' AS timestamp(3) with time zone);

SELECT CAST('2001-08-22 03:04:05.321 +07:09' AS timestamp(1) with time zone);

SELECT CAST(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' AS timestamp(3));

SELECT CAST(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' AS date);

SELECT CAST(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' AS varchar);

SELECT CAST(TIMESTAMP '2001-08-22 03:04:05.987654 UTC' AS timestamp(3) with time zone);

SELECT CAST(TIMESTAMP '2001-12-31 23:59:59.9999 UTC' AS timestamp(0) with time zone);

SELECT TRY_CAST('not a time' AS timestamp with time zone);

SELECT CAST(TIMESTAMP '2001-08-22 03:04:05.321' AS timestamp(3) with time zone);

SELECT CAST(DATE '2001-08-22' AS timestamp(0) with time zone);

SELECT CAST('2001-08-22 03:04:05' AS timestamp(0) with time zone);

SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' = TIMESTAMP '2001-08-22 10:04:05.321 UTC';

SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' = TIMESTAMP '2001-08-22 03:04:05.321 UTC';

SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' < TIMESTAMP '2001-08-22 10:04:05.322 +00:00';

SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' IS DISTINCT FROM TIMESTAMP '2001-08-22 12:04:05.321 +02:00';

SELECT {LA} BETWEEN TIMESTAMP '2001-08-22 10:00:00 UTC' AND TIMESTAMP '2001-08-22 10:05:00 UTC';

SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' IN (TIMESTAMP '2001-08-22 19:04:05.321 Asia/Tokyo');

SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' = TIMESTAMP '2001-08-22 10:04:05.321';

SELECT t FROM (VALUES TIMESTAMP '2020-01-01 12:00 +05:00', TIMESTAMP '2020-01-01 08:00 UTC', TIMESTAMP '2020-01-01 06:00 America/New_York') v(t) ORDER BY t;

SELECT count(*) FROM (SELECT t FROM (VALUES TIMESTAMP '2020-01-01 12:00 +05:00', TIMESTAMP '2020-01-01 07:00 UTC', TIMESTAMP '2020-01-01 08:00 UTC') v(t) GROUP BY t);

SELECT min(t), max(t) FROM (VALUES TIMESTAMP '2020-01-01 12:00 +05:00', TIMESTAMP '2020-01-01 08:00 UTC', TIMESTAMP '2020-01-01 06:00 America/New_York') v(t);

SELECT TIMESTAMP '2012-10-31 01:00 UTC' AT TIME ZONE 'America/Los_Angeles';

SELECT at_timezone(TIMESTAMP '2021-08-22 00:00 UTC', 'Europe/Berlin');

SELECT with_timezone(TIMESTAMP '2021-08-22 00:00:00.000', 'Europe/Berlin');

SELECT TIMESTAMP '2012-10-31 01:00' AT TIME ZONE '+07:09';

SELECT timezone_hour(TIMESTAMP '2020-05-10 12:34:56 +08:35');

SELECT timezone_minute(TIMESTAMP '2020-05-10 12:34:56 +08:35');

SELECT EXTRACT(TIMEZONE_HOUR FROM TIMESTAMP '2020-01-10 12:34:56 America/Los_Angeles');

SELECT timezone_minute(TIMESTAMP '2020-01-10 12:34:56 -03:30');

SELECT hour(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles');

SELECT day(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles');

SELECT day_of_week(TIMESTAMP '2001-08-22 23:00:00 UTC' AT TIME ZONE 'Asia/Tokyo');

SELECT date_trunc('day', TIMESTAMP '2001-08-22 03:04:05.321 +07:09');

SELECT date_trunc('month', TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles');

SELECT date_trunc('hour', TIMESTAMP '2001-08-22 03:34:05.321 Asia/Kolkata');

SELECT date_add('day', 1, TIMESTAMP '2020-03-07 12:00:00 America/New_York');

SELECT date_add('hour', 24, TIMESTAMP '2020-03-07 12:00:00 America/New_York');

SELECT TIMESTAMP '2020-03-07 12:00:00 America/New_York' + INTERVAL '1' MONTH;

SELECT TIMESTAMP '2020-03-07 12:00:00 America/New_York' + INTERVAL '24' HOUR;

SELECT date_diff('hour', TIMESTAMP '2020-03-07 12:00:00 America/New_York', TIMESTAMP '2020-03-08 12:00:00 America/New_York');

SELECT date_diff('day', TIMESTAMP '2020-03-07 12:00:00 America/New_York', TIMESTAMP '2020-03-08 12:00:00 America/New_York');

SELECT date_diff('millisecond', TIMESTAMP '2001-08-22 03:04:05.321 UTC', TIMESTAMP '2001-08-22 05:04:05.322 +02:00');

SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' - TIMESTAMP '2001-08-21 03:04:05 UTC';

SELECT to_unixtime(NULL);

SELECT at_timezone(NULL, 'UTC');

SELECT to_unixtime(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles');

SELECT to_unixtime(TIMESTAMP '1970-01-01 00:00:01');

SELECT from_unixtime(0);

SELECT from_unixtime(1700000000, 'Asia/Kolkata');

SELECT from_unixtime(0, 7, 9);

SELECT from_unixtime(1.5);

SELECT from_unixtime_nanos(1234567890123456789);

SELECT to_iso8601(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles');

SELECT to_iso8601(TIMESTAMP '2001-08-22 03:04:05.321 UTC');

SELECT to_iso8601(TIMESTAMP '2001-08-22 03:04:05.321');

SELECT to_iso8601(DATE '2001-08-22');

SELECT from_iso8601_timestamp('2020-05-11T11:15:05.055+01:00');

SELECT from_iso8601_timestamp('2020-05-11');

SELECT from_iso8601_timestamp('2020-05-11T11:15:05Z');

SELECT from_iso8601_timestamp_nanos('2020-05-11T11:15:05.123456789+01:00');

SELECT from_iso8601_date('2020-05-11');

SELECT last_day_of_month(DATE '2020-02-10');

SELECT last_day_of_month(TIMESTAMP '2021-12-31 23:00:00 UTC' AT TIME ZONE 'Asia/Tokyo');

SELECT parse_duration('42.8ms');

SELECT parse_duration('3.81 d');

SELECT parse_duration('1234.567 d');

SELECT parse_duration('1234us');

SELECT to_milliseconds(parse_duration('1h'));

SELECT human_readable_seconds(96);

SELECT human_readable_seconds(56363463);

SELECT TIMESTAMP '2001-08-22 03:04:05 Foo/Bar';

SELECT TIMESTAMP '2020-06-01 12:00:00 europe/berlin';

SELECT TIMESTAMP '2020-03-08 02:30:00 America/New_York';

SELECT at_timezone(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles', 'Mars/Olympus');

SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' AT TIME ZONE 'Nowhere';

SELECT CAST('2001-08-22 03:04:05 Foo/Bar' AS timestamp with time zone);

SELECT CAST('yesterday' AS timestamp with time zone);

SELECT TIMESTAMP '2020-13-01 Asia/Kathmandu';

SELECT TIMESTAMP '2020-05-01 12:34:56.1234567890123 Asia/Kathmandu';

SELECT from_iso8601_timestamp('2020-13-01');

SELECT CAST(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' AS bigint);

SELECT CAST(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' AS varchar(5));

SELECT from_unixtime(1e300);

SELECT 1;

SELECT from_unixtime(980172245);

SELECT from_unixtime(980172245.888);

SELECT from_unixtime_nanos(-1234567890123456789);

SELECT from_unixtime_nanos(-999999999);

SELECT from_unixtime(980172245, 1, 10);

SELECT from_unixtime(7200, 'Asia/Shanghai');

SELECT from_unixtime(7200, 'America/Los_Angeles');

SELECT date(TIMESTAMP '2001-08-22 03:04:05.321 +07:09');

SELECT from_iso8601_timestamp('2001-08-22T03:04:05.321-11:00');

SELECT from_iso8601_timestamp_nanos('2001-08-22T12:34:56.123Z');

SELECT last_day_of_month(TIMESTAMP '2001-08-22 03:04:05.321 +07:09');

SELECT last_day_of_month(TIMESTAMP '2018-12-31 23:59:59.999 America/Bahia_Banderas');

SELECT parse_datetime('2020-08-18 03:04:05.678', 'yyyy-MM-dd HH:mm:ss.SSS');

SELECT parse_datetime('1960/01/22 03:04 Asia/Oral', 'yyyy/MM/dd HH:mm ZZZZZ');

SELECT parse_datetime('1960/01/22 03:04 +0500', 'yyyy/MM/dd HH:mm Z');

SELECT with_timezone(TIMESTAMP '2001-08-22 03:04:05.321', '+13');

SELECT with_timezone(TIMESTAMP '2001-08-22 03:04:05.321', '-14');

SELECT with_timezone(TIMESTAMP '2001-08-22 03:04:05.321', '+00:45');

SELECT with_timezone(TIMESTAMP '2001-12-01 03:04:05.321', 'America/Los_Angeles');

SELECT at_timezone(TIMESTAMP '2020-05-01 12:34:56 +07:09', 'America/Los_Angeles');

SELECT at_timezone(TIMESTAMP '2020-05-01 12:34:56.123456789123 +07:09', 'America/Los_Angeles');

SELECT at_timezone(TIMESTAMP '2020-05-01 12:34:56.1 +07:09', INTERVAL '03:04' HOUR TO MINUTE);

SELECT TIMESTAMP '2020-05-01 12:34:56 +07:09' AT TIME ZONE INTERVAL '03:04' HOUR TO MINUTE;

SELECT from_iso8601_timestamp_nanos('2001-08-22T03:34:56.123456789');

SELECT with_timezone(TIMESTAMP '2001-08-22 03:04:05.321', 'invalidzoneid');

SELECT from_unixtime(0, 1, 10000);

SELECT from_unixtime(0, 10000, 0);

SELECT from_unixtime(0, -100, 100);
