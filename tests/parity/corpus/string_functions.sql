-- family: string_functions
-- source: Trino 476 docs, functions/string.md (https://trino.io/docs/476/functions/string.html)

-- source: functions/string.md, || and concat
SELECT 'Tri' || 'no';
SELECT 'a' || NULL;
SELECT '' || '';
SELECT 'x' || 1;
SELECT 'value: ' || CAST(2.50 AS varchar);
SELECT concat('fo', 'o', 'bar');
SELECT concat('a', NULL, 'b');
SELECT concat('', '');
SELECT concat('日本', '語');
SELECT concat(CAST('ab' AS varchar(2)), CAST('cde' AS varchar(3)));
SELECT concat(CAST('ab' AS char(4)), 'x');
SELECT concat('only');
SELECT concat(name, '/', comment) FROM tpch.tiny.region ORDER BY regionkey;
SELECT name || '-' || CAST(regionkey AS varchar) FROM tpch.tiny.nation WHERE nationkey < 5 ORDER BY nationkey;
SELECT concat(1, 2);

-- source: functions/string.md, concat_ws
SELECT concat_ws(',', 'a', 'b', 'c');
SELECT concat_ws(',', 'a', NULL, 'c');
SELECT concat_ws(NULL, 'a', 'b');
SELECT concat_ws('', 'x', 'y', 'z');
SELECT concat_ws(' | ', ARRAY['p', 'q', NULL, 'r']);
SELECT concat_ws('-', ARRAY[]);
SELECT concat_ws('::', 'solo');
SELECT concat_ws('/', name, CAST(nationkey AS varchar)) FROM tpch.tiny.nation WHERE regionkey = 1 ORDER BY nationkey;
SELECT concat_ws(',', 1, 2);

-- source: functions/string.md, chr and codepoint
SELECT chr(65);
SELECT chr(128512);
SELECT chr(233);
SELECT chr(0);
SELECT chr(NULL);
SELECT chr(-1);
SELECT chr(1114112);
SELECT codepoint('A');
SELECT codepoint('é');
SELECT codepoint(U&'\+01F600');
SELECT codepoint(CAST(NULL AS varchar(1)));
SELECT codepoint('ab');
SELECT codepoint(chr(9731));

-- source: functions/string.md, length
SELECT length('hello');
SELECT length('');
SELECT length(NULL);
SELECT length('naïve café');
SELECT length('日本語テキスト');
SELECT length(U&'\+01F600x');
SELECT length(CAST('ab' AS char(5)));
SELECT length(CAST('abc' AS varchar(10)));
SELECT length('  spaced  ');
SELECT name, length(name) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT max(length(comment)), min(length(comment)) FROM tpch.tiny.orders;
SELECT length(12345);

-- source: functions/string.md, lower and upper
SELECT lower('HeLLo WoRLD');
SELECT upper('straße');
SELECT lower('ÀÉÎÕÜ');
SELECT upper('àéîõü');
SELECT upper('');
SELECT lower(NULL);
SELECT upper('ǆ');
SELECT lower('ΑΒΓ');
SELECT upper(CAST('ab' AS char(4)));
SELECT lower(CAST('XYZ' AS varchar(3)));
SELECT upper('mixed 123 !?');
SELECT lower(name) FROM tpch.tiny.region ORDER BY regionkey;
SELECT upper(name) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT upper(42);

-- source: functions/string.md, lpad and rpad
SELECT lpad('7', 3, '0');
SELECT lpad('hello', 3, 'x');
SELECT lpad('ab', 7, 'xyz');
SELECT lpad('', 4, '*');
SELECT lpad('abc', 0, '-');
SELECT lpad('é', 4, 'ü');
SELECT lpad(NULL, 5, 'x');
SELECT lpad('a', NULL, 'x');
SELECT lpad('abc', 5, '');
SELECT lpad('abc', -1, 'x');
SELECT rpad('7', 3, '0');
SELECT rpad('hello', 2, 'x');
SELECT rpad('ab', 8, 'xyz');
SELECT rpad('', 3, '.');
SELECT rpad('日本', 5, '語');
SELECT rpad('abc', 3, '-');
SELECT rpad('abc', 6, NULL);
SELECT rpad('x', 4, '');
SELECT lpad(name, 12, '.') FROM tpch.tiny.region ORDER BY regionkey;
SELECT rpad(name, 10, '_') FROM tpch.tiny.nation WHERE regionkey = 3 ORDER BY nationkey;

-- source: functions/string.md, ltrim, rtrim, trim
SELECT ltrim('   left');
SELECT rtrim('right   ');
SELECT trim('  both  ');
SELECT ltrim('');
SELECT trim('     ');
SELECT ltrim(NULL);
SELECT rtrim(CAST('pad  ' AS char(8)));
SELECT trim(CAST(' a ' AS varchar(5)));
SELECT ltrim(chr(9) || chr(10) || ' tabbed');
SELECT rtrim('x' || chr(9) || chr(10));
SELECT trim('#' FROM '##hash##');
SELECT trim(LEADING FROM '   lead');
SELECT trim(TRAILING FROM 'trail   ');
SELECT trim(BOTH 'xy' FROM 'xyxhelloyx');
SELECT trim(LEADING '0' FROM '000120');
SELECT trim(TRAILING '0' FROM '12.3000');
SELECT trim(TRAILING 'LD' FROM upper('world'));
SELECT trim(BOTH FROM '  z  ');
SELECT trim('' FROM 'abc');
SELECT trim('a' FROM NULL);
SELECT ltrim('xxabc', 'x');
SELECT rtrim('abcyy', 'y');
SELECT trim('--abc--', '-');
SELECT trim(comment) FROM tpch.tiny.region ORDER BY regionkey;

-- source: functions/string.md, luhn_check
SELECT luhn_check('79927398713');
SELECT luhn_check('79927398710');
SELECT luhn_check('4111111111111111');
SELECT luhn_check('0');
SELECT luhn_check('');
SELECT luhn_check(NULL);
SELECT luhn_check('1234-5678');
SELECT luhn_check('abc');

-- source: functions/string.md, position and strpos
SELECT position('lo' IN 'hello');
SELECT position('z' IN 'hello');
SELECT position('' IN 'abc');
SELECT position(NULL IN 'abc');
SELECT position('語' IN '日本語');
SELECT strpos('banana', 'an');
SELECT strpos('banana', 'an', 2);
SELECT strpos('banana', 'an', 3);
SELECT strpos('banana', 'an', -1);
SELECT strpos('banana', 'a', -3);
SELECT strpos('banana', 'x');
SELECT strpos('', '');
SELECT strpos('abc', '');
SELECT strpos('Åström', 'ö');
SELECT strpos(NULL, 'a');
SELECT strpos('aaa', 'a', 0);
SELECT name, strpos(name, 'A') FROM tpch.tiny.nation ORDER BY nationkey;

-- source: functions/string.md, replace
SELECT replace('banana', 'a');
SELECT replace('banana', 'an', 'AN');
SELECT replace('abc', '', '-');
SELECT replace('', 'a', 'b');
SELECT replace('aaaa', 'aa', 'b');
SELECT replace('héllo', 'é', 'e');
SELECT replace('abc', 'b', NULL);
SELECT replace(NULL, 'a', 'b');
SELECT replace('abc', 'x', 'y');
SELECT replace(name, 'A', 'a') FROM tpch.tiny.region ORDER BY regionkey;

-- source: functions/string.md, reverse
SELECT reverse('stressed');
SELECT reverse('');
SELECT reverse('日本語');
SELECT reverse(U&'a\+01F600b');
SELECT reverse(NULL);
SELECT reverse(CAST('ab' AS varchar(4)));
SELECT reverse(name) FROM tpch.tiny.region ORDER BY regionkey;

-- source: functions/string.md, soundex
SELECT soundex('Robert');
SELECT soundex('Rupert');
SELECT soundex('Tymczak');
SELECT soundex('');
SELECT soundex(NULL);
SELECT soundex('a');
SELECT soundex('123');
SELECT name FROM tpch.tiny.nation WHERE soundex(name) = soundex('CHYNA');
SELECT name, soundex(name) FROM tpch.tiny.nation ORDER BY nationkey;

-- source: functions/string.md, split, split_part, split_to_map, split_to_multimap
SELECT split('a,b,c', ',');
SELECT split('a,b,c', ',', 2);
SELECT split('a,,b,', ',');
SELECT split('', ',');
SELECT split('abc', '');
SELECT split('a::b::c', '::');
SELECT split('no-delim', ',');
SELECT split('x y z', ' ', 1);
SELECT split(NULL, ',');
SELECT split('a,b', ',', 0);
SELECT split('日,本', ',');
SELECT split_part('a,b,c', ',', 2);
SELECT split_part('a,b,c', ',', 4);
SELECT split_part('a,b,c', ',', 1);
SELECT split_part('a,,c', ',', 2);
SELECT split_part('abc', '', 1);
SELECT split_part('a-b', '-', 0);
SELECT split_part('k1=v1;k2=v2', ';', 2);
SELECT split_part(comment, ' ', 1) FROM tpch.tiny.region ORDER BY regionkey;
SELECT split_to_map('a=1,b=2', ',', '=');
SELECT split_to_map('', ',', '=');
SELECT split_to_map('k:v', ',', ':');
SELECT split_to_map('a=1,a=2', ',', '=');
SELECT split_to_map('a=1,b', ',', '=');
SELECT split_to_map('a=1,b=', ',', '=');
SELECT split_to_multimap('a=1,b=2,a=3', ',', '=');
SELECT split_to_multimap('x:1', ',', ':');
SELECT split_to_multimap('', ',', '=');
SELECT split_to_multimap('a=1,a=1', ',', '=');
SELECT cardinality(split(comment, ' ')) FROM tpch.tiny.nation ORDER BY nationkey;

-- source: functions/string.md, starts_with
SELECT starts_with('foobar', 'foo');
SELECT starts_with('foobar', 'bar');
SELECT starts_with('foobar', '');
SELECT starts_with('', 'a');
SELECT starts_with(NULL, 'a');
SELECT starts_with('日本語', '日');
SELECT name FROM tpch.tiny.nation WHERE starts_with(name, 'I') ORDER BY name;
SELECT starts_with(123, '1');

-- source: functions/string.md, substr and substring
SELECT substr('Trino SQL', 7);
SELECT substr('Trino SQL', 1, 5);
SELECT substr('Trino SQL', -3);
SELECT substr('Trino SQL', -3, 2);
SELECT substr('abc', 0);
SELECT substr('abc', 4);
SELECT substr('abc', 10);
SELECT substr('abc', 2, 0);
SELECT substr('abc', 2, 100);
SELECT substr('abc', -5);
SELECT substr('日本語テキスト', 3, 2);
SELECT substr('', 1);
SELECT substr(NULL, 1);
SELECT substr('abc', NULL);
SELECT substring('hello' FROM 2);
SELECT substring('hello' FROM 2 FOR 3);
SELECT substring('hello', 3);
SELECT substr(CAST('abcdef' AS varchar(6)), 2, 2);
SELECT substr(CAST('ab' AS char(5)), 1, 4);
SELECT substr('abc', 1, -1);
SELECT substr(name, 1, 3) FROM tpch.tiny.nation ORDER BY nationkey;
SELECT substr(phone, 1, 2) AS cc, count(*) FROM tpch.tiny.customer GROUP BY substr(phone, 1, 2) ORDER BY cc;

-- source: functions/string.md, translate
SELECT translate('abcd', '', '');
SELECT translate('hello', 'l', 'L');
SELECT translate('banana', 'an', 'o');
SELECT translate('façade', 'ç', 'c');
SELECT translate('abcd', 'c', U&'\+01F602');
SELECT translate('abcd', 'd', '');
SELECT translate('abcd', 'b', 'xy');
SELECT translate('abcd', 'bd', 'x');
SELECT translate('abcd', 'bbd', 'xy');
SELECT translate(NULL, 'a', 'b');
SELECT translate(name, 'AEIOU', 'aeiou') FROM tpch.tiny.region ORDER BY regionkey;

-- source: functions/string.md, hamming_distance and levenshtein_distance
SELECT hamming_distance('karolin', 'kathrin');
SELECT hamming_distance('', '');
SELECT hamming_distance('abc', 'abc');
SELECT hamming_distance('日本', '日米');
SELECT hamming_distance('abc', 'ab');
SELECT hamming_distance(NULL, 'a');
SELECT levenshtein_distance('kitten', 'sitting');
SELECT levenshtein_distance('', 'abc');
SELECT levenshtein_distance('abc', '');
SELECT levenshtein_distance('flaw', 'lawn');
SELECT levenshtein_distance('same', 'same');
SELECT levenshtein_distance('ü', 'u');
SELECT levenshtein_distance(NULL, 'x');
SELECT name, levenshtein_distance(name, 'CANADA') FROM tpch.tiny.nation ORDER BY nationkey;

-- source: functions/string.md, word_stem
SELECT word_stem('running');
SELECT word_stem('cats');
SELECT word_stem('generously');
SELECT word_stem('');
SELECT word_stem('laufen', 'de');
SELECT word_stem('maisons', 'fr');
SELECT word_stem('running', 'xx');
SELECT word_stem(NULL);

-- source: functions/string.md, normalize
SELECT normalize('café');
SELECT length(normalize('e' || chr(769)));
SELECT length(normalize('é', NFD));
SELECT normalize('ﬁ', NFKC);
SELECT normalize('ﬁ', NFC);
SELECT length(normalize('①', NFKD));
SELECT normalize('①', NFKD);
SELECT normalize(NULL);
SELECT normalize('');

-- source: functions/string.md, to_utf8 and from_utf8
SELECT to_utf8('abc');
SELECT to_utf8('');
SELECT to_utf8('é');
SELECT to_utf8(NULL);
SELECT length(to_utf8('日本語'));
SELECT from_utf8(X'68656C6C6F');
SELECT from_utf8(X'C3A9');
SELECT from_utf8(X'61FF62');
SELECT from_utf8(X'61FF62', '?');
SELECT from_utf8(X'61FF62', '');
SELECT from_utf8(X'61FF62', 35);
SELECT from_utf8(X'');
SELECT from_utf8(to_utf8('round trip ✓'));
SELECT from_utf8(X'61FF62', 'ab');
SELECT from_utf8(X'61FF62', 1114112);
SELECT to_utf8(name) FROM tpch.tiny.region ORDER BY regionkey;

-- source: functions/string.md, LIKE on strings (functions/comparison.md)
SELECT 'abc' LIKE 'a%';
SELECT upper(name) LIKE '%AN%' FROM tpch.tiny.nation ORDER BY nationkey;

-- source: functions/string.md, string functions on char(n)
SELECT CAST('ab' AS char(4)) || 'c';
SELECT typeof(CAST('ab' AS char(4)) || 'c');
SELECT typeof(concat(CAST('a' AS varchar(3)), CAST('b' AS varchar(5))));
SELECT typeof(upper(CAST('ab' AS varchar(7))));
SELECT typeof(substr(CAST('ab' AS varchar(7)), 1));
SELECT typeof(lpad('ab', 5, 'x'));
SELECT typeof(replace(CAST('ab' AS varchar(2)), 'a', 'bb'));
SELECT typeof(reverse(CAST('ab' AS varchar(9))));
SELECT typeof(trim(CAST('ab' AS varchar(9))));
SELECT typeof(lower(CAST('ab' AS char(3))));
SELECT typeof(chr(65));
SELECT typeof(split('a,b', ','));
SELECT typeof(split_to_map('a=1', ',', '='));

-- source: Trino 476 (newer docs' functions/string.md overlay and functions/row.md fields(): not Trino 476's grammar, refused at the word its parser stops at)
SELECT overlay('abc' PLACING 'XYZ' FROM 3);
SELECT CAST(NULL AS ROW(greeting VARCHAR, planet ROW(color varchar, size bigint))).fields();

-- source: Trino 476 docs, functions/string.md: its examples as written (extracted page by page)
select luhn_check('79927398713');
select luhn_check('79927398714');
SELECT overlay('Txxxxas' PLACING 'hom' FROM 2 FOR 4);
SELECT name FROM nation WHERE SOUNDEX(name)  = SOUNDEX('CHYNA');
SELECT title_case('hello world');
SELECT translate('abcd', 'a', 'z');
SELECT translate('abcda', 'a', 'z');
SELECT translate('Palhoça', 'ç','c');
SELECT translate('abcd', 'b', U&'\+01F600');
SELECT translate('abcd', 'a', '');
SELECT translate('abcd', 'a', 'zy');
SELECT translate('abcd', 'ac', 'z');
SELECT translate('abcd', 'aac', 'zq');
SELECT trim('!' FROM '!foo!');
SELECT trim(LEADING FROM '  abcd');
SELECT trim(BOTH '$' FROM '$var$');
SELECT trim(TRAILING 'ER' FROM upper('worker'));
