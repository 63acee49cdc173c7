-- family: table_functions
-- source: Trino 476 docs, functions/table.md (https://trino.io/docs/476/functions/table.html)
-- source: Trino 476 docs, sql/show-functions.md (https://trino.io/docs/476/sql/show-functions.html)
-- source: trinodb/trino core/trino-main/src/main/java/io/trino/sql/rewrite/ShowQueriesRewrite.java (visitShowFunctions)

-- SHOW FUNCTIONS FROM a schema: system.builtin holds the table functions; any other schema,
-- existing or not, has none (an empty answer of plain varchar columns).
SHOW FUNCTIONS FROM system.builtin;
SHOW FUNCTIONS IN system.builtin;
SHOW FUNCTIONS FROM system.builtin LIKE 'seq%';
SHOW FUNCTIONS FROM system.builtin LIKE 'a%';
SHOW FUNCTIONS FROM system.builtin LIKE 'exclude\_%' ESCAPE '\';
SHOW FUNCTIONS FROM SYSTEM.BUILTIN LIKE '%s';
SHOW FUNCTIONS FROM system.builtin LIKE 'x' ESCAPE 'ab';
SHOW FUNCTIONS FROM tpch.tiny;
SHOW FUNCTIONS FROM tiny LIKE 'abs';
SHOW FUNCTIONS FROM tpch.no_such_schema;
SHOW FUNCTIONS FROM no_such_catalog.tiny;
SHOW FUNCTIONS FROM system.runtime;
SHOW FUNCTIONS FROM tpch.tiny LIKE 'x' ESCAPE 'ab';
SHOW FUNCTIONS FROM tpch.tiny.nation;
SHOW FUNCTIONS FROM tpch.tiny nation;

-- source: Trino 476 docs, functions/table.md "sequence"; trinodb/trino core/trino-main/src/main/java/io/trino/operator/table/SequenceFunction.java, TestSequenceFunction
SELECT * FROM TABLE(sequence(start => 1, stop => 6)) ORDER BY 1;
SELECT * FROM TABLE(sequence(stop => 4)) ORDER BY sequential_number;
SELECT * FROM TABLE(sequence(start => 2, stop => 11, step => 4)) ORDER BY 1;
SELECT * FROM TABLE(sequence(start => 20, stop => -5, step => -7)) ORDER BY 1;
SELECT * FROM TABLE(sequence(8, 14, 3)) ORDER BY 1;
SELECT * FROM TABLE(sequence(5, 7)) ORDER BY 1;
SELECT * FROM TABLE(sequence(start => 3, stop => 3, step => 0));
SELECT * FROM TABLE(sequence(start => 3, stop => 3, step => -10));
SELECT * FROM TABLE(sequence(start => 2 * 3, stop => 10 - 1)) ORDER BY 1;
SELECT * FROM TABLE(sequence(start => CAST(1 AS tinyint), stop => CAST(3 AS smallint), step => CAST(2 AS integer))) ORDER BY 1;
SELECT * FROM TABLE(SEQUENCE(STOP => 2)) ORDER BY 1;
SELECT * FROM TABLE(sequence("STOP" => 2)) ORDER BY 1;
SELECT * FROM TABLE(system.builtin.sequence(stop => 1)) ORDER BY 1;
SELECT count(*), sum(sequential_number), min(sequential_number), max(sequential_number) FROM TABLE(sequence(start => 1000000, stop => -2000000, step => -3));
SELECT count(*) FROM TABLE(sequence(start => 1, stop => 250000));
SELECT * FROM TABLE(sequence(start => 9223372036854775800, stop => 9223372036854775807, step => 3)) ORDER BY 1;
SELECT * FROM TABLE(sequence(start => 1, stop => 2, step => 9223372036854775807));
SELECT * FROM TABLE(sequence(stop => 2)) AS s(n) ORDER BY 1;
SELECT * FROM TABLE(sequence(stop => 2)) AS s("n") ORDER BY 1;
SELECT s.sequential_number * 10 FROM TABLE(sequence(start => 1, stop => 3)) s ORDER BY 1;
SELECT a.sequential_number, b.sequential_number FROM TABLE(sequence(stop => 1)) a CROSS JOIN TABLE(sequence(start => 5, stop => 6)) b ORDER BY 1, 2;
SELECT n.name FROM tpch.tiny.nation n JOIN TABLE(sequence(start => 1, stop => 4)) s ON n.nationkey = s.sequential_number ORDER BY 1;
SELECT * FROM TABLE(sequence(start => 1, stop => 3)) WHERE false;
SELECT typeof(sequential_number) FROM TABLE(sequence(stop => 0));
SELECT * FROM TABLE(sequence(start => 1, stop => 8, step => -1));
SELECT * FROM TABLE(sequence(start => 8, stop => 1));
SELECT * FROM TABLE(sequence(start => 0, stop => 4, step => 0));
SELECT * FROM TABLE(sequence(start => NULL, stop => 2));
SELECT * FROM TABLE(sequence(start => 1, stop => NULL));
SELECT * FROM TABLE(sequence(start => 1, stop => 3, step => NULL));
SELECT * FROM TABLE(sequence(start => 1));
SELECT * FROM TABLE(sequence(7));
SELECT * FROM TABLE(sequence());
SELECT * FROM TABLE(sequence(start => 'one', stop => 2));
SELECT * FROM TABLE(sequence(start => 0.5, stop => 2));
SELECT * FROM TABLE(sequence(start => 1, stop => 2e0));
SELECT * FROM TABLE(sequence(start => (SELECT 1), stop => 3));
SELECT * FROM TABLE(sequence(start => 1, stop => 3, size => 3));
SELECT * FROM TABLE(sequence("stop" => 1));
SELECT * FROM TABLE(sequence(start => 1, 5));
SELECT * FROM TABLE(sequence(1, 2, 3, 4));
SELECT * FROM TABLE(sequence(stop => 3, stop => 4));
SELECT * FROM TABLE(sequence(start => TABLE(tpch.tiny.region), stop => 1));
SELECT * FROM TABLE(sequence(start => DESCRIPTOR(a), stop => 1));
SELECT * FROM TABLE(sequence(stop => 2)) AS s(a, b);
SELECT * FROM tpch.tiny.region r, TABLE(sequence(stop => r.regionkey));
SELECT sequence.sequential_number FROM TABLE(sequence(stop => 2));

-- Unknown table functions and table functions outside FROM.
SELECT * FROM TABLE(no_such_function(1));
SELECT * FROM TABLE(NoSuch(1));
SELECT * FROM TABLE(abs(1));
SELECT * FROM TABLE(builtin.sequence(stop => 2));
SELECT * FROM TABLE(tpch.tiny.sequence(stop => 2));
SELECT * FROM TABLE(system.builtin.abs(1));
SELECT * FROM TABLE(1);
SELECT * FROM TABLE(tpch.tiny.region);
SELECT sequence(start => 1, stop => 2);
SELECT abs(x => 1);
SELECT exclude_columns(1, 2);
SELECT * FROM TABLE(tpch.tiny.region) r;
SELECT * FROM tpch.tiny.nation n, TABLE(tpch.tiny.region) r;
SELECT DESCRIPTOR(a bigint);

-- source: Trino 476 docs, functions/table.md "exclude_columns"; trinodb/trino core/trino-main/src/main/java/io/trino/operator/table/ExcludeColumnsFunction.java, TestExcludeColumnsFunction
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => DESCRIPTOR(comment))) ORDER BY regionkey;
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.nation), columns => DESCRIPTOR(comment, regionkey))) ORDER BY nationkey;
SELECT * FROM TABLE(exclude_columns(TABLE(tpch.tiny.region), DESCRIPTOR(Comment, NAME))) ORDER BY 1;
SELECT * FROM TABLE(exclude_columns(columns => DESCRIPTOR(name), input => TABLE(region))) ORDER BY 1;
SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT 7 x, 'b' y, true z), columns => DESCRIPTOR(y)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT regionkey, name FROM tpch.tiny.region WHERE regionkey < 2), columns => DESCRIPTOR(regionkey))) ORDER BY 1;
SELECT * FROM TABLE(exclude_columns(input => TABLE(VALUES (1, 'a', 2.5)), columns => DESCRIPTOR(_col1)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT 1, 2 b), columns => DESCRIPTOR(b)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT 1 p, 2 q, 3 p), columns => DESCRIPTOR(p)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT 1 A, 2 b), columns => DESCRIPTOR("A")));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.nation), columns => DESCRIPTOR(name, name, comment))) ORDER BY 1;
WITH w AS (SELECT 1 k, 'v' v) SELECT * FROM TABLE(exclude_columns(input => TABLE(w), columns => DESCRIPTOR(k)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(WITH w AS (SELECT 3 k, 4 m) SELECT * FROM w), columns => DESCRIPTOR(m)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region) AS r, columns => DESCRIPTOR(comment))) ORDER BY 1;
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region) r (k, n, c), columns => DESCRIPTOR(c))) ORDER BY 1;
SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT regionkey, name FROM tpch.tiny.region) sub, columns => DESCRIPTOR(name))) ORDER BY 1;
SELECT x.* FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => DESCRIPTOR(comment))) x ORDER BY 1;
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => DESCRIPTOR(comment))) AS x(a, b) ORDER BY 1;
SELECT name FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.nation), columns => DESCRIPTOR(comment))) WHERE regionkey = 3 ORDER BY nationkey;
SELECT count(*) FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.orders), columns => DESCRIPTOR(comment, clerk)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => DESCRIPTOR(foo, bar)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => DESCRIPTOR(name, nope)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => DESCRIPTOR(regionkey, name, comment)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT 1 a), columns => DESCRIPTOR(a)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => DESCRIPTOR(regionkey bigint)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => DESCRIPTOR(name varchar, comment)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => CAST(NULL AS DESCRIPTOR)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => DESCRIPTOR()));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region)));
SELECT * FROM TABLE(exclude_columns(columns => DESCRIPTOR(name)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.no_such_table), columns => DESCRIPTOR(name)));
SELECT * FROM TABLE(exclude_columns(input => 1, columns => DESCRIPTOR(name)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => 1));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region) PARTITION BY regionkey, columns => DESCRIPTOR(name)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region) ORDER BY regionkey, columns => DESCRIPTOR(name)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region) KEEP WHEN EMPTY, columns => DESCRIPTOR(name)));
SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region) PRUNE WHEN EMPTY, columns => DESCRIPTOR(name)));
SELECT * FROM TABLE(exclude_columns(TABLE(tpch.tiny.region), columns => DESCRIPTOR(name)));
SELECT * FROM TABLE(exclude_columns(TABLE(tpch.tiny.region), DESCRIPTOR(name), 3));

-- source: Trino 476 docs, functions/session.md (current_groups); functions/conversion.md (parse_data_size, whose alias parse_presto_data_size SHOW FUNCTIONS lists)
SELECT current_groups();
SELECT typeof(current_groups()), cardinality(current_groups());
SELECT parse_presto_data_size('1.2MB');
SELECT parse_presto_data_size('2.5kB'), parse_presto_data_size('0B'), parse_presto_data_size('3TB');
SELECT try(parse_presto_data_size('nonsense'));
SELECT parse_presto_data_size('nonsense');
SELECT parse_presto_data_size(NULL);

-- source: Trino 476 docs, functions/table.md: its examples as written (extracted page by page)
SELECT * FROM TABLE(exclude_columns(input => TABLE(orders), columns => DESCRIPTOR(clerk, comment)));
SELECT * FROM TABLE(sequence(start => 1000000, stop => -2000000, step => -3));
