-- family: project_semantics_complex
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/complex.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT ARRAY[1, 2];

SELECT ARRAY[1, 2.0E0];

SELECT ARRAY[];

SELECT ARRAY[NULL];

SELECT ARRAY['a', 'bc'];

SELECT ARRAY[ARRAY[1, 2], NULL, ARRAY[3]];

SELECT ARRAY[1.5, 2];

SELECT ARRAY[true, false, NULL];

SELECT ARRAY[DATE '2020-01-02'];

SELECT ARRAY[5, 3, 41, 6][3];

SELECT ARRAY['a', 'b'][2];

SELECT ARRAY[ARRAY[1, 2], ARRAY[3]][1][2];

SELECT ARRAY[1, NULL][2];

SELECT ARRAY[1, 2][NULL];

SELECT ARRAY[1, 2, 3][5];

SELECT ARRAY[1, 2, 3][0];

SELECT ARRAY[1, 2, 3][-1];

SELECT ARRAY[1]['a'];

SELECT ARRAY[MAP(ARRAY[1], ARRAY[2])] < ARRAY[MAP(ARRAY[1], ARRAY[3])];

SELECT ROW(1, 'a');

SELECT CAST(ROW(1, 2.0) AS ROW(x BIGINT, y DOUBLE));

SELECT CAST(ROW(1, 2.0) AS ROW(x BIGINT, y DOUBLE)).x;

SELECT CAST(ROW(1, 2.0) AS ROW(x BIGINT, y DOUBLE)).Y;

SELECT ROW(1, 'a')[2];

SELECT typeof(CAST(ROW(1, 'a') AS ROW(x integer, y varchar)));

SELECT ROW(ARRAY[1], ROW(true));

SELECT ROW(1, 'a') = ROW(1, 'a');

SELECT ROW(1, 'a') = ROW(1, 'b');

SELECT t.r.x, r.y FROM (SELECT CAST(ROW(n, 'q') AS ROW(x bigint, y varchar)) AS r FROM (VALUES 7) v(n)) t;

SELECT ROW(1, 2)[3];

SELECT ROW(1, 'a')[x] FROM (VALUES 1) t(x);

SELECT ROW(1, 'a')[9999999999];

SELECT ROW(1, 'a')[-1];

SELECT ROW(1, 'a')[5];

SELECT t.x.f1 FROM (VALUES 1) t(x);

SELECT x.f1 FROM (VALUES 1) t(x);

SELECT ROW(1, 2)[0];

SELECT CAST(ROW(1) AS ROW(x integer)).z;

SELECT CAST(ROW(1, 2) AS ROW(x integer));

SELECT CAST(ARRAY[1, 2] AS array(bigint));

SELECT CAST(ARRAY[1, NULL, 3] AS ARRAY(varchar));

SELECT CAST(ARRAY[1, 2] AS array(double));

SELECT CAST(ARRAY['1', '2'] AS array(integer));

SELECT CAST(NULL AS map(varchar, array(integer)));

SELECT CAST(CAST(ARRAY[1] AS array(bigint)) AS
 array(varchar));

SELECT CAST(ARRAY[ARRAY[1]] AS array(array(double)));

SELECT ARRAY[1, 2] <> ARRAY[2, 1];

SELECT ARRAY[1, 2] = CAST(ARRAY[1, 2] AS array(bigint));

SELECT ARRAY[1] IS DISTINCT FROM ARRAY[2];

SELECT ARRAY[1] IN (ARRAY[2], ARRAY[1]);

SELECT CAST(ARRAY[1] AS varchar);

SELECT ARRAY[1] = ARRAY['a'];
