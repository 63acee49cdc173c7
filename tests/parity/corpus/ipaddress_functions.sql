-- family: ipaddress_functions
-- source: Trino 476 docs, functions/ipaddress.md (https://trino.io/docs/476/functions/ipaddress.html) and language/types.md (IPADDRESS)

-- source: functions/ipaddress.md, contains
SELECT contains('10.0.0.0/8', IPADDRESS '10.200.1.1');
SELECT contains('10.0.0.0/8', IPADDRESS '12.0.0.1');
SELECT contains('2001:0db8:0:0:0:ff00:0042:8329/128', IPADDRESS '2001:0db8:0:0:0:ff00:0042:8329');
SELECT contains('2001:0db8:0:0:0:ff00:0042:8329/128', IPADDRESS '2001:0db8:0:0:0:ff00:0042:832a');
SELECT contains('192.168.1.0/24', IPADDRESS '192.168.1.255');
SELECT contains('192.168.1.0/24', IPADDRESS '192.168.2.0');
SELECT contains('0.0.0.0/0', IPADDRESS '8.8.8.8');
SELECT contains('1.2.3.4/32', IPADDRESS '1.2.3.4');
SELECT contains('1.2.3.4/32', IPADDRESS '1.2.3.5');
SELECT contains('10.1.2.3/8', IPADDRESS '10.9.9.9');
SELECT contains('2001:db8::/32', IPADDRESS '2001:db8:ffff::1');
SELECT contains('2001:db8::/32', IPADDRESS '2001:db9::1');
SELECT contains('::/0', IPADDRESS '::1');
SELECT contains('10.0.0.0/8', IPADDRESS '::ffff:10.1.1.1');
SELECT contains('::ffff:10.0.0.0/104', IPADDRESS '10.1.1.1');
SELECT contains('10.0.0.0/8', IPADDRESS '2001:db8::1');
SELECT contains(NULL, IPADDRESS '1.1.1.1');
SELECT contains('10.0.0.0/8', NULL);
SELECT contains('10.0.0.0/33', IPADDRESS '10.0.0.1');
SELECT contains('10.0.0.0', IPADDRESS '10.0.0.1');
SELECT contains('not-a-cidr/8', IPADDRESS '10.0.0.1');
SELECT contains('10.0.0.0/-1', IPADDRESS '10.0.0.1');
SELECT contains('10.0.0.0/8', '10.0.0.1');
SELECT x, contains('172.16.0.0/12', CAST(x AS ipaddress)) FROM (VALUES '172.15.255.255', '172.16.0.0', '172.31.255.255', '172.32.0.0') t(x) ORDER BY x;

-- source: language/types.md, IPADDRESS literals and casts
SELECT IPADDRESS '10.0.0.1';
SELECT IPADDRESS '2001:db8::1';
SELECT IPADDRESS '2001:0DB8:0000:0000:0000:0000:0000:0001';
SELECT IPADDRESS '::ffff:1.2.3.4';
SELECT IPADDRESS '::1';
SELECT IPADDRESS '::';
SELECT IPADDRESS '0.0.0.0';
SELECT IPADDRESS '255.255.255.255';
SELECT IPADDRESS '1.2.3.256';
SELECT IPADDRESS 'localhost';
SELECT IPADDRESS '1.2.3';
SELECT IPADDRESS '';
SELECT IPADDRESS '2001:db8::1::2';
SELECT CAST('192.168.0.1' AS ipaddress);
SELECT CAST('fe80::1%eth0' AS ipaddress);
SELECT CAST(' 1.2.3.4' AS ipaddress);
SELECT try_cast('999.1.1.1' AS ipaddress);
SELECT CAST(IPADDRESS '10.0.0.1' AS varchar);
SELECT CAST(IPADDRESS '2001:DB8:0:0:0:0:0:1' AS varchar);
SELECT CAST(IPADDRESS '::ffff:a01:203' AS varchar);
SELECT CAST(CAST('1.2.3.4' AS ipaddress) AS varchar);
SELECT CAST(IPADDRESS '1.2.3.4' AS varbinary);
SELECT CAST(IPADDRESS '2001:db8::1' AS varbinary);
SELECT CAST(X'00000000000000000000FFFF01020304' AS ipaddress);
SELECT CAST(X'01020304' AS ipaddress);
SELECT CAST(X'20010DB8000000000000000000000001' AS ipaddress);
SELECT CAST(X'0102' AS ipaddress);
SELECT CAST(NULL AS ipaddress);
SELECT typeof(IPADDRESS '1.1.1.1');
SELECT CAST(1 AS ipaddress);
SELECT CAST(IPADDRESS '1.2.3.4' AS varchar(3));

-- source: language/types.md, IPADDRESS comparison and ordering
SELECT IPADDRESS '10.0.0.1' = IPADDRESS '10.0.0.1';
SELECT IPADDRESS '10.0.0.1' = IPADDRESS '::ffff:10.0.0.1';
SELECT IPADDRESS '10.0.0.1' < IPADDRESS '10.0.0.2';
SELECT IPADDRESS '9.255.255.255' < IPADDRESS '10.0.0.0';
SELECT IPADDRESS '255.255.255.255' < IPADDRESS '::1';
SELECT IPADDRESS '::1' < IPADDRESS '1.0.0.0';
SELECT IPADDRESS '1.1.1.1' BETWEEN IPADDRESS '1.0.0.0' AND IPADDRESS '1.255.255.255';
SELECT IPADDRESS '1.1.1.1' IN (IPADDRESS '1.1.1.1', IPADDRESS '2.2.2.2');
SELECT IPADDRESS '1.1.1.1' IS DISTINCT FROM IPADDRESS '::ffff:101:101';
SELECT CAST(x AS varchar) FROM (VALUES IPADDRESS '10.0.0.10', IPADDRESS '10.0.0.9', IPADDRESS '2001:db8::', IPADDRESS '::', IPADDRESS '192.168.0.1') t(x) ORDER BY x;
SELECT max(x), min(x) FROM (VALUES IPADDRESS '10.0.0.10', IPADDRESS '10.0.0.9', IPADDRESS '9.9.9.9') t(x);
SELECT count(DISTINCT x) FROM (VALUES IPADDRESS '1.2.3.4', IPADDRESS '::ffff:1.2.3.4', IPADDRESS '1.2.3.5') t(x);
SELECT greatest(IPADDRESS '1.2.3.4', IPADDRESS '1.2.3.40');
SELECT IPADDRESS '1.2.3.4' = '1.2.3.4';
SELECT CAST('10.0.0.' || CAST(nationkey AS varchar) AS ipaddress) FROM tpch.tiny.nation WHERE nationkey < 4 ORDER BY nationkey;
SELECT count(*) FROM tpch.tiny.nation WHERE contains('10.0.0.0/28', CAST('10.0.0.' || CAST(nationkey AS varchar) AS ipaddress));

-- source: Trino 476 docs, functions/ipaddress.md: its examples as written (extracted page by page)
SELECT contains('10.0.0.0/8', IPADDRESS '10.255.255.255');
SELECT contains('10.0.0.0/8', IPADDRESS '11.255.255.255');
SELECT contains('2001:0db8:0:0:0:ff00:0042:8329/128', IPADDRESS '2001:0db8:0:0:0:ff00:0042:8328');
