-- family: setdigest_functions
-- source: Trino 476 docs, functions/setdigest.md (https://trino.io/docs/476/functions/setdigest.html)

SELECT cardinality(make_set_digest(v)) FROM (VALUES 4, 4, 5, 6, 6, 6, 7, 8, 8) t(v);
SELECT cardinality(make_set_digest(v)) FROM (VALUES 'Presto', 'Trino', 'Trino', 'SQL') t(v);
SELECT cardinality(make_set_digest(v)) FROM (VALUES 1, NULL, 2) t(v);
SELECT cardinality(make_set_digest(regionkey)) FROM tpch.tiny.nation;
SELECT cardinality(make_set_digest(name)) FROM tpch.tiny.nation;
SELECT regionkey, cardinality(make_set_digest(nationkey)) FROM tpch.tiny.nation GROUP BY regionkey ORDER BY regionkey;
SELECT intersection_cardinality(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (5, 5), (NULL, 6), (6, 7), (7, 8)) t(v1, v2);
SELECT intersection_cardinality(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (1, 10), (2, 20)) t(v1, v2);
SELECT intersection_cardinality(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES ('a', 'a'), ('b', 'b')) t(v1, v2);
SELECT jaccard_index(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (5, 5), (NULL, 6), (6, 7), (NULL, 8)) t(v1, v2);
SELECT jaccard_index(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (1, 1), (2, 2), (3, 3)) t(v1, v2);
SELECT jaccard_index(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (1, 4), (2, 5), (3, 6)) t(v1, v2);
SELECT cardinality(merge_set_digest(d)) FROM (SELECT regionkey, make_set_digest(nationkey) AS d FROM tpch.tiny.nation GROUP BY regionkey);
SELECT cardinality(merge_set_digest(d)) FROM (SELECT make_set_digest(v) AS d FROM (VALUES (1, 'x'), (2, 'x'), (2, 'y'), (3, 'y')) t(v, g) GROUP BY g);
SELECT hash_counts(make_set_digest(v)) FROM (VALUES 7, 7, 7, 8, 8) t(v);
SELECT cardinality(hash_counts(make_set_digest(v))) FROM (VALUES 'p', 'q', 'r', 'p') t(v);
WITH txt(id, words) AS (VALUES (1, 'a quick red fox leaps over a sleepy cat'), (2, 'a quick and a sleepy'), (3, 'a quick red fox leaps over a cat')), grams(id, g) AS (SELECT id, transform(ngrams(split(words, ' '), 4), t -> array_join(t, ' ')) FROM txt), dig(id, d) AS (SELECT id, (SELECT make_set_digest(v) FROM UNNEST(g) u(v)) FROM grams) SELECT a.id, b.id, intersection_cardinality(a.d, b.d), jaccard_index(a.d, b.d) FROM dig a JOIN dig b ON a.id < b.id ORDER BY a.id, b.id;
SELECT typeof(make_set_digest(v)) FROM (VALUES 1) t(v);
SELECT make_set_digest(v) IS NULL FROM (SELECT 1 AS v WHERE false);
SELECT cardinality(CAST(CAST(make_set_digest(v) AS varbinary) AS setdigest)) FROM (VALUES 1, 2, 3) t(v);
SELECT jaccard_index(make_set_digest(v), make_set_digest(v)) FROM (VALUES 'only') t(v);

-- Refusals
SELECT jaccard_index(1, 2);
SELECT merge_set_digest(x) FROM (VALUES 1) t(x);

-- source: Trino 476 docs, functions/setdigest.md: its examples as written (extracted page by page)
WITH text_input(id, text) AS (VALUES (1, 'The quick brown fox jumps over the lazy dog'), (2, 'The quick and the lazy'), (3, 'The quick brown fox jumps over the dog')), text_ngrams(id, ngrams) AS (SELECT id, transform(ngrams(split(text, ' '), 4), token -> array_join(token, ' ')) FROM text_input), minhash_digest(id, digest) AS (SELECT id, (SELECT make_set_digest(v) FROM unnest(ngrams) u(v)) FROM text_ngrams), setdigest_side_by_side(id1, digest1, id2, digest2) AS (SELECT m1.id as id1, m1.digest as digest1, m2.id as id2, m2.digest as digest2 FROM (SELECT id, digest FROM minhash_digest) m1 JOIN (SELECT id, digest FROM minhash_digest) m2 ON m1.id != m2.id AND m1.id < m2.id) SELECT id1, id2, intersection_cardinality(digest1, digest2) AS intersection_cardinality, jaccard_index(digest1, digest2) AS jaccard_index FROM setdigest_side_by_side ORDER BY id1, id2;

SELECT make_set_digest(value) FROM (VALUES 1, 2, 3) T(value);
SELECT make_set_digest(value) FROM (VALUES 'Trino', 'SQL', 'on', 'everything') T(value);
SELECT cardinality(make_set_digest(value)) FROM (VALUES 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5) T(value);
SELECT intersection_cardinality(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (1, 1), (NULL, 2), (2, 3), (3, 4)) T(v1, v2);
SELECT jaccard_index(make_set_digest(v1), make_set_digest(v2)) FROM (VALUES (1, 1), (NULL,2), (2, 3), (NULL, 4)) T(v1, v2);
SELECT hash_counts(make_set_digest(value)) FROM (VALUES 1, 1, 1, 2, 2) T(value);
