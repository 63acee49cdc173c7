-- family: project_semantics_strings
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/strings.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT substr('Quadratically', 5);

SELECT substr('Quadratically', 5, 6);

SELECT substr('Quadratically', -5);

SELECT substr('Quadratically', -5, 3);

SELECT substr('Quadratically', 0);

SELECT substr('Quadratically', 0, 3);

SELECT substr('Quadratically', 14);

SELECT substr('Quadratically', -14);

SELECT substr('Quadratically', -14, 5);

SELECT substr('Quadratically', 2, -1);

SELECT substring('Trino' FROM 2 FOR 3);

SELECT substring(name, -3) FROM nation WHERE nationkey = 0;

SELECT strpos('abc', 'd');

SELECT strpos('äbc', 'c');

SELECT strpos('abcabc', 'c', 2);

SELECT strpos('abcabc', 'a', -1);

SELECT strpos('abcabc', 'c', 3);

SELECT length('äbc');

SELECT strpos('abc', 'b', NULL);

SELECT concat('a', NULL);

SELECT concat('a', 'b', 'cd');

SELECT 'ab' || 'c';

SELECT concat('a');

SELECT 'a' || 1;

SELECT substr(1234, 2);

SELECT length(12);

SELECT strpos('abc', 'a', 0);

SELECT lower('ÄÖÜ ABC');

SELECT upper('straße é');

SELECT trim(' 	 a b 
 ');

SELECT ltrim('  a ');

SELECT rtrim('  a ');

SELECT trim(BOTH 'x' FROM 'xxaxx');

SELECT trim(LEADING 'x' FROM 'xxaxx');

SELECT trim('xyaxy', 'xy');

SELECT replace('a-b-c', '-');

SELECT replace('a-b-c', '-', '+');

SELECT replace(name, 'A', 'a') FROM region WHERE regionkey = 0;

SELECT translate(name, 'AEIOU', 'aeiou') FROM region WHERE regionkey = 1;

SELECT codepoint('');

SELECT concat_ws(',');

SELECT soundex('Émile');

SELECT U&'a##b\n' UESCAPE '#';

SELECT u&'it''s';

SELECT U&'hello\6dB';
