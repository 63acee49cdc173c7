-- family: project_semantics_table_functions
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/table_functions.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT * FROM TABLE(sequence(start => 1, stop => 10, step => 3)) ORDER BY 1;

SELECT * FROM TABLE(sequence(stop => 2)) ORDER BY 1;

SELECT * FROM TABLE(SYSTEM.BUILTIN.SEQUENCE(STOP => 1)) ORDER BY 1;

SELECT sum(sequential_number) FROM TABLE(sequence(start => 1000000, stop => -2000000, step => -3));

SELECT * FROM TABLE(sequence(stop => 0));

SELECT * FROM TABLE(sequence(stop => 0)) AS s(n);

SELECT * FROM TABLE(sequence(stop => 0)) AS s("n");

SELECT * FROM TABLE(sequence(start => 1, stop => 5, step => -1));

SELECT * FROM TABLE(sequence(start => 5, stop => 1));

SELECT * FROM TABLE(sequence(start => 2, stop => 3, step => 0));

SELECT * FROM TABLE(sequence(start => 1, stop => 2, step => NULL));

SELECT * FROM TABLE(sequence(3));

SELECT * FROM TABLE(sequence(start => 'a', stop => 2));

SELECT * FROM TABLE(sequence(start => 1.5, stop => 2));

SELECT * FROM TABLE(sequence(start => 1, stop => 2, foo => 3));

SELECT * FROM TABLE(sequence(start => 1, start => 2, stop => 3));

SELECT * FROM TABLE(sequence(start => 1, 2));

SELECT * FROM TABLE(sequence(start => TABLE(region), stop => 1));

SELECT * FROM nation n, TABLE(sequence(stop => n.nationkey));

SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region) r (k, n, c), columns => DESCRIPTOR(c))) WHERE k = 2;

SELECT * FROM TABLE(exclude_columns(input => TABLE(region), columns => DESCRIPTOR(foo, bar)));

SELECT * FROM TABLE(exclude_columns(input => TABLE(region), columns => DESCRIPTOR(regionkey, name, comment)));

SELECT * FROM TABLE(exclude_columns(input => TABLE(region), columns => DESCRIPTOR(regionkey bigint)));

SELECT * FROM TABLE(exclude_columns(input => TABLE(region), columns => CAST(NULL AS DESCRIPTOR)));

SELECT * FROM TABLE(exclude_columns(input => TABLE(region), columns => DESCRIPTOR()));

SELECT * FROM TABLE(exclude_columns(input => TABLE(region)));

SELECT * FROM TABLE(exclude_columns(input => TABLE(nosuch), columns => DESCRIPTOR(name)));

SELECT * FROM TABLE(exclude_columns(input => TABLE(region) PARTITION BY regionkey, columns => DESCRIPTOR(name)));

SELECT * FROM TABLE(exclude_columns(input => TABLE(region) ORDER BY regionkey, columns => DESCRIPTOR(name)));

SELECT * FROM TABLE(exclude_columns(input => TABLE(region) KEEP WHEN EMPTY, columns => DESCRIPTOR(name)));

SHOW FUNCTIONS FROM tiny;

SHOW FUNCTIONS FROM builtin;

SHOW FUNCTIONS LIKE 'exclude%';

SHOW FUNCTIONS LIKE 'sequence';

SHOW FUNCTIONS LIKE 'current%';

SHOW FUNCTIONS LIKE 'parse_presto_data_size';

SELECT parse_presto_data_size('2.5kB');

SELECT try(parse_presto_data_size('x'));

SELECT parse_presto_data_size('x');
