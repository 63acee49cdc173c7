-- family: project_semantics_urls_and_metrics
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/urls_and_metrics.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT hamming_distance('abcde', 'abdde');

SELECT luhn_check('79927398714');

SELECT hamming_distance('ab', 'abc');

SELECT levenshtein_distance(lpad('', 2000, 'a'), lpad('', 2000, 'b'));

SELECT luhn_check('12a');

SELECT url_extract_port('http://bücher.example:8080/');
