-- family: values_and_rows
-- source: Trino 476 docs, sql/values.md (https://trino.io/docs/476/sql/values.html)
-- source: Trino 476 docs, language/types.md ROW (https://trino.io/docs/476/language/types.html#row)
-- source: trinodb/trino core/trino-main/src/test/java/io/trino/sql/query/TestValues.java; AbstractTestQueries.java (row field access)

VALUES 1, 2, 3;
VALUES (1, 'a'), (2, 'b');
VALUES 1;
VALUES ('x');
VALUES (1, 2.5), (3, 4);
VALUES 1, 2.5, 1e0;
VALUES 'a', 'abc';
VALUES (1, NULL), (NULL, 'z');
VALUES NULL, NULL;
VALUES ARRAY[1], ARRAY[2, 3];
VALUES DATE '2024-01-01', NULL;
VALUES (BIGINT '1'), (2);
VALUES ROW(1, 'a'), ROW(2, 'b');
SELECT * FROM (VALUES 1, 2, 3) ORDER BY 1 DESC;
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t (id, tag) WHERE id = 2;
SELECT count(*), sum(x) FROM (VALUES 1, 2, 3, 4) t(x);
SELECT typeof(a), typeof(b) FROM (VALUES (1, 'abc'), (2, 'de')) t(a, b) LIMIT 1;
SELECT typeof(x) FROM (VALUES 1, 2.5) t(x) LIMIT 1;
SELECT typeof(x) FROM (VALUES SMALLINT '1', TINYINT '2') t(x) LIMIT 1;
SELECT x FROM (VALUES 1, 2.5, 10) t(x) ORDER BY x;
SELECT _col0 FROM (VALUES 1);
SELECT t.* FROM (VALUES (1, 2)) t;
SELECT * FROM (VALUES 1, 2) AS t (x) CROSS JOIN (VALUES 'a') AS u (y) ORDER BY x;
SELECT x FROM (VALUES (5), (3), (5)) t(x) GROUP BY x ORDER BY x;
SELECT * FROM (VALUES (1 + 1, 'a' || 'b', abs(-3))) t(a, b, c);
SELECT * FROM (VALUES (CAST(1 AS decimal(5, 2)), REAL '1.5')) t(d, r);
SELECT * FROM (VALUES (1, ARRAY['x']), (2, ARRAY['y', 'z'])) t(k, arr) ORDER BY k;
SELECT * FROM (VALUES MAP(ARRAY['a'], ARRAY[1])) t(m);
SELECT * FROM (VALUES (TIMESTAMP '2020-05-06 07:08:09.123', DATE '2020-05-06')) t(ts, d);

-- row constructors and types
SELECT ROW(1, 'a', true);
SELECT (1, 'a');
SELECT typeof(ROW(1, 2.5, 'x'));
SELECT CAST(ROW(1, 'a') AS row(id bigint, name varchar));
SELECT typeof(CAST(ROW(1, 'a') AS row(id bigint, name varchar)));
SELECT CAST(ROW(1, 2) AS row(a integer, b integer)).b;
SELECT CAST(ROW(1, 'q') AS row(a integer, b varchar)).a + 1;
SELECT r.x, r.y FROM (SELECT CAST(ROW(7, 'seven') AS row(x integer, y varchar)) AS r);
SELECT r[1], r[2] FROM (SELECT ROW(10, 'ten') AS r);
SELECT (CAST(ROW(ROW(1, 2), 'n') AS row(inner_row row(p integer, q integer), label varchar))).inner_row.q;
SELECT CAST(ROW('1', '2.5') AS row(a integer, b double));
SELECT CAST(ROW(1, NULL) AS row(a integer, b varchar));
SELECT CAST(NULL AS row(a integer, b varchar));
SELECT ROW(1, 2) = ROW(1, 2), ROW(1, 2) = ROW(1, 3), ROW(1, 2) < ROW(1, 3), ROW(1, NULL) = ROW(1, 2);
SELECT ROW(1, 'a') IS DISTINCT FROM ROW(1, 'a'), ROW(1, NULL) IS DISTINCT FROM ROW(1, NULL);
SELECT ROW(1, 2) IN (ROW(3, 4), ROW(1, 2));
SELECT ARRAY[ROW(1, 'a'), ROW(2, 'b')];
SELECT typeof(ARRAY[CAST(ROW(1, 'a') AS row(k integer, v varchar))]);
SELECT transform(ARRAY[CAST(ROW(1, 'a') AS row(k integer, v varchar))], r -> r.v);
SELECT CAST(ROW(1.5, 2) AS row(a decimal(3, 1), b smallint));
SELECT x.a, count(*) FROM (VALUES CAST(ROW(1, 'p') AS row(a integer, b varchar)), CAST(ROW(1, 'q') AS row(a integer, b varchar))) t(x) GROUP BY x.a;
SELECT r FROM (SELECT ROW(a, b) AS r FROM (VALUES (2, 'b'), (1, 'z'), (1, 'a')) t(a, b)) ORDER BY r;
SELECT DISTINCT ROW(a, b) AS r FROM (VALUES (1, 'a'), (1, 'a'), (2, 'a')) t(a, b) ORDER BY r;
SELECT CAST(JSON '{"a": 1, "b": "x"}' AS row(a integer, b varchar));
SELECT CAST(JSON '[1, "x"]' AS row(a integer, b varchar));
SELECT CAST(ROW(1, 'a') AS json);
SELECT CAST(CAST(ROW(1, 'a') AS row(k integer, v varchar)) AS json);
SELECT ROW(n.nationkey, n.name) FROM tpch.tiny.nation n WHERE n.nationkey = 3;
SELECT max(ROW(acctbal, custkey)) FROM tpch.tiny.customer;
SELECT min_by(ROW(name, nationkey), nationkey) FROM tpch.tiny.nation;
SELECT CAST(ROW(1, 2) AS row("Upper" integer, "with space" integer));
SELECT element_at(MAP(ARRAY['k'], ARRAY[ROW(1, 2)]), 'k');

-- refusals
VALUES (1, 2), (3);
VALUES 1, 'a';
SELECT ROW(1, 2).x;
SELECT CAST(ROW(1, 2) AS row(a integer));
SELECT CAST(ROW('x') AS row(a integer));
SELECT r[3] FROM (SELECT ROW(1, 2) AS r);
SELECT ROW(1, 2) = ROW(1, 'a');
SELECT CAST(ROW(1, 2) AS row(a integer, b integer)).c;

-- source: Trino 476 docs, sql/values.md: its examples as written (extracted page by page)
VALUES
    (1, 'a'),
    (2, 'b'),
    (3, 'c');
SELECT * FROM (
    VALUES
        (1, 'a'),
        (2, 'b'),
        (3, 'c')
) AS t (id, name);
