-- family: project_semantics_regexp
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/regexp.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT regexp_count('1a 2b 14m', '\s*[a-z]+\s*');

SELECT regexp_extract_all('1a 2b 14m', '\d+');

SELECT regexp_extract_all('1a 2b 14m', '(\d+)([a-z]+)', 2);

SELECT regexp_extract('1a 2b 14m', '\d+');

SELECT regexp_extract('1a 2b 14m', '(\d+)([a-z]+)', 2);

SELECT regexp_like('1a 2b 14m', '\d+b');

SELECT regexp_replace('1a 2b 14m', '\d+[ab] ');

SELECT regexp_replace('1a 2b 14m', '(\d+)([ab]) ', '3c$2 ');

SELECT regexp_replace('new york', '(\w)(\w*)', x -> upper(x[1]) || lower(x[2]));

SELECT regexp_split('1a 2b 14m', '\s*[a-z]+\s*');

SELECT regexp_extract('abc', '\d');

SELECT regexp_extract_all('abc', '\d');

SELECT regexp_extract_all('a1 b', '[a-z](\d)?', 1);

SELECT regexp_replace('a-b', '(?<x>-)', '\$${x}');

SELECT regexp_replace('a1b2', '(\d)', x -> CAST(NULL AS varchar));

SELECT regexp_position('ééx', 'x');

SELECT regexp_like('STRASSE', '(?i)strasse');

SELECT regexp_extract('1a', '(\d)', 2);

SELECT regexp_position('abc', 'b', 0);

SELECT regexp_position('abc', 'b', 1, 0);

SELECT regexp_like('ab', 'a(?=b)');

SELECT regexp_replace('a', '(a)', '$2');

SELECT regexp_like(1, 'a');
