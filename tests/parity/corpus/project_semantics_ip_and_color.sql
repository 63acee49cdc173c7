-- family: project_semantics_ip_and_color
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/ip_and_color.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT CAST(IPADDRESS '::1.2.3.4' AS varchar);

SELECT ARRAY[IPADDRESS '1.2.3.4', IPADDRESS '::1'];

SELECT CAST(x AS varchar) FROM (VALUES IPADDRESS '10.0.0.10', IPADDRESS '10.0.0.9', IPADDRESS '::', IPADDRESS '2001:db8::') t(x) ORDER BY x;

SELECT contains(ARRAY[1, 2], 2);

SELECT contains('10.1.2.3/8', IPADDRESS '10.0.0.1');

SELECT rgb(1, 2, 3) = rgb(1, 2, 3);

SELECT bar(0.5E0, 3, color('red'), rgb(0, 0, 0));

SELECT rgb(1, 2, 3) < rgb(1, 2, 4);
