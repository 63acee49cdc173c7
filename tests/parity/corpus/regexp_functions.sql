-- family: regexp_functions
-- source: Trino 476 docs, functions/regexp.md (https://trino.io/docs/476/functions/regexp.html)

-- source: functions/regexp.md, regexp_count
SELECT regexp_count('3x 4yy 15zzz', '\s*[a-z]+\s*');
SELECT regexp_count('aaaa', 'aa');
SELECT regexp_count('abc', 'z');
SELECT regexp_count('', 'a');
SELECT regexp_count('abc', '');
SELECT regexp_count('日本語日本', '日本');
SELECT regexp_count('AbAb', '(?i)ab');
SELECT regexp_count(NULL, 'a');
SELECT regexp_count('a.b.c', '\.');
SELECT regexp_count(comment, 'the') FROM tpch.tiny.region ORDER BY regionkey;
SELECT regexp_count('x', '(');
SELECT regexp_count(5, '5');

-- source: functions/regexp.md, regexp_extract_all
SELECT regexp_extract_all('7q 88r 123s', '\d+');
SELECT regexp_extract_all('7q 88r 123s', '(\d+)([a-z]+)', 2);
SELECT regexp_extract_all('7q 88r 123s', '(\d+)([a-z]+)', 0);
SELECT regexp_extract_all('abc', 'z');
SELECT regexp_extract_all('', 'a*');
SELECT regexp_extract_all('abc', '');
SELECT regexp_extract_all('a1b2', '([a-z])(\d)?', 2);
SELECT regexp_extract_all('x1', '(x)(y)?', 2);
SELECT regexp_extract_all('7q 88r', '(\d+)', 2);
SELECT regexp_extract_all('7q 88r', '(\d+)', -1);
SELECT regexp_extract_all('ÄÖÜäöü', '\p{Lu}');
SELECT regexp_extract_all('one two  three', '\S+');
SELECT regexp_extract_all(NULL, 'a');
SELECT regexp_extract_all(phone, '\d+') FROM tpch.tiny.supplier ORDER BY suppkey LIMIT 3;
SELECT typeof(regexp_extract_all('ab', 'a'));

-- source: functions/regexp.md, regexp_extract
SELECT regexp_extract('7q 88r 123s', '\d+');
SELECT regexp_extract('7q 88r 123s', '(\d+)([a-z]+)', 2);
SELECT regexp_extract('7q 88r 123s', '(\d+)([a-z]+)', 0);
SELECT regexp_extract('abc', '\d+');
SELECT regexp_extract('abc', '(a)(x)?', 2);
SELECT regexp_extract('abc', '(a)', 3);
SELECT regexp_extract('abc', 'b', -1);
SELECT regexp_extract('key=value', '(?<k>\w+)=(?<v>\w+)', 2);
SELECT regexp_extract('Ünïcödé', '[^a-z]+');
SELECT regexp_extract('', '.*');
SELECT regexp_extract(NULL, 'a');
SELECT regexp_extract('abc', NULL);
SELECT regexp_extract('2024-05-06', '(\d{4})-(\d{2})', 1);
SELECT regexp_extract(name, '^[A-Z]') FROM tpch.tiny.nation ORDER BY nationkey;
SELECT typeof(regexp_extract(CAST('ab' AS varchar(8)), 'a'));
SELECT regexp_extract('abc', '[');

-- source: functions/regexp.md, regexp_like
SELECT regexp_like('3x 4yy 15zzz', '\d+y');
SELECT regexp_like('abc', '^b');
SELECT regexp_like('abc', 'b');
SELECT regexp_like('abc', '^abc$');
SELECT regexp_like('ABC', 'abc');
SELECT regexp_like('ABC', '(?i)abc');
SELECT regexp_like('', '');
SELECT regexp_like('', '^$');
SELECT regexp_like('line1' || chr(10) || 'line2', '^line2$');
SELECT regexp_like('line1' || chr(10) || 'line2', '(?m)^line2$');
SELECT regexp_like('a.c', 'a\.c');
SELECT regexp_like('abc', 'a.c');
SELECT regexp_like('ひらがな', '\p{Hiragana}+');
SELECT regexp_like('Ω', '\p{L}');
SELECT regexp_like('x', '\x{78}');
SELECT regexp_like(NULL, 'a');
SELECT regexp_like('aaa', 'a{2,}');
SELECT regexp_like('ab', 'a|z');
SELECT name FROM tpch.tiny.nation WHERE regexp_like(name, '^[AEIOU].*A$') ORDER BY name;
SELECT count(*) FROM tpch.tiny.customer WHERE regexp_like(phone, '^1[0-5]-');
SELECT regexp_like('a', '(?u)a');
SELECT regexp_like('abc', 'a)');
SELECT regexp_like(1, '1');

-- source: functions/regexp.md, regexp_position
SELECT regexp_position('We have 42 cats and 7 dogs and 100 fish', '\b\d+\b');
SELECT regexp_position('We have 42 cats and 7 dogs and 100 fish', '\b\d+\b', 5);
SELECT regexp_position('We have 42 cats and 7 dogs and 100 fish', '\b\d+\b', 11);
SELECT regexp_position('We have 42 cats and 7 dogs and 100 fish', '\b\d+\b', 11, 1);
SELECT regexp_position('We have 42 cats and 7 dogs and 100 fish', '\b\d+\b', 11, 2);
SELECT regexp_position('We have 42 cats and 7 dogs and 100 fish', '\b\d+\b', 11, 3);
SELECT regexp_position('abc', 'z');
SELECT regexp_position('abc', '');
SELECT regexp_position('日本語', '語');
SELECT regexp_position('abc', 'c', 10);
SELECT regexp_position('abc', 'a', 0);
SELECT regexp_position('abc', 'a', 1, 0);
SELECT regexp_position(NULL, 'a');
SELECT typeof(regexp_position('a', 'a'));
SELECT regexp_position(name, 'A', 2) FROM tpch.tiny.region ORDER BY regionkey;

-- source: functions/regexp.md, regexp_replace
SELECT regexp_replace('3x 4yy 15zzz', '\d+[xy]+ ');
SELECT regexp_replace('3x 4yy 15zzz', '(\d+)([xy]+) ', '9$2 ');
SELECT regexp_replace('abc', 'b', '\$');
SELECT regexp_replace('John Smith', '(?<first>\w+) (?<last>\w+)', '${last}, ${first}');
SELECT regexp_replace('aaa', 'a', 'bb');
SELECT regexp_replace('abc', '', '-');
SELECT regexp_replace('abc', 'x', 'y');
SELECT regexp_replace('', 'a', 'b');
SELECT regexp_replace('héllo wörld', '[^a-z ]', '_');
SELECT regexp_replace('a  b   c', '\s+', ' ');
SELECT regexp_replace('abc', '(b)', '[$1$1]');
SELECT regexp_replace('abc', '(b)', '$2');
SELECT regexp_replace(NULL, 'a', 'b');
SELECT regexp_replace('abc', 'b', NULL);
SELECT regexp_replace('los angeles', '(\w)(\w*)', x -> upper(x[1]) || lower(x[2]));
SELECT regexp_replace('a1b22c333', '\d+', x -> CAST(length(x[1]) AS varchar));
SELECT regexp_replace('a1b22', '(\d+)', x -> '<' || x[1] || '>');
SELECT regexp_replace('abc', 'z', x -> 'never');
SELECT regexp_replace(name, '[AEIOU]', '*') FROM tpch.tiny.nation ORDER BY nationkey;
SELECT typeof(regexp_replace(CAST('ab' AS varchar(4)), 'a', 'xyz'));
SELECT typeof(regexp_replace(CAST('ab' AS varchar(4)), 'a'));

-- source: functions/regexp.md, regexp_split
SELECT regexp_split('3x 4yy 15zzz', '\s*[a-z]+\s*');
SELECT regexp_split('a,b;c', '[,;]');
SELECT regexp_split('abc', '');
SELECT regexp_split('', ',');
SELECT regexp_split(',a,', ',');
SELECT regexp_split('abc', 'z');
SELECT regexp_split('日 本 語', ' ');
SELECT regexp_split(NULL, ',');
SELECT regexp_split(comment, '\s+') FROM tpch.tiny.region WHERE regionkey = 2;
SELECT typeof(regexp_split('a', 'b'));

-- source: functions/comparison.md, LIKE compared with regexp_like
SELECT 'a_c' LIKE 'a\_c' ESCAPE '\', regexp_like('a_c', '^a_c$');

-- source: Trino 476 docs, functions/regexp.md: its examples as written (extracted page by page)
SELECT regexp_position('I have 23 apples, 5 pears and 13 oranges', '\b\d+\b');
SELECT regexp_position('I have 23 apples, 5 pears and 13 oranges', '\b\d+\b', 5);
SELECT regexp_position('I have 23 apples, 5 pears and 13 oranges', '\b\d+\b', 12);
SELECT regexp_position('I have 23 apples, 5 pears and 13 oranges', '\b\d+\b', 12, 1);
SELECT regexp_position('I have 23 apples, 5 pears and 13 oranges', '\b\d+\b', 12, 2);
SELECT regexp_position('I have 23 apples, 5 pears and 13 oranges', '\b\d+\b', 12, 3);
