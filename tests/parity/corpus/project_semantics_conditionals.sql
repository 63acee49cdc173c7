-- family: project_semantics_conditionals
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/conditionals.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT nullif('a', 'b');

SELECT CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END;

SELECT CASE WHEN true THEN 1 ELSE 2.5 END;

SELECT 'abc' LIKE 'A%';

SELECT 'abc' LIKE 'a_c';

SELECT 'a_c' LIKE 'a#_c' ESCAPE '#';

SELECT 'abc' LIKE 'a#_c' ESCAPE '#';

SELECT '50%' LIKE '50\%' ESCAPE '\';

SELECT 'abc' NOT LIKE '%b%';

SELECT 2 IN (1, 2);

SELECT 1 IN (1.0, 2.5);

SELECT 3 NOT IN (1, 2);

SELECT 2 BETWEEN 3 AND 1;

SELECT 'b' BETWEEN 'a' AND 'c';

SELECT 2 NOT BETWEEN 1 AND 3;

SELECT DATE '2020-01-02' BETWEEN DATE '2020-01-01' AND DATE '2020-01-31';

SELECT greatest(MAP(ARRAY[1], ARRAY[1]), MAP(ARRAY[2], ARRAY[2]));

SELECT 'a' LIKE 'a' ESCAPE '##';

SELECT 'ab' LIKE 'a#b' ESCAPE '#';

SELECT 'a' IN (1, 2);

SELECT 1 BETWEEN 'a' AND 'b';

(VALUES ('California', '94131', 25, 100), ('California', 'P332a', 5, 72), ('California', '94025', 0, 155), ('New Jersey', '08544', 225, 490)) AS shipping(origin_state, origin_zip, packages, total_cost);

SELECT COALESCE(try(total_cost / packages), 0) AS per_package FROM {shipping};

SELECT try(42);

SELECT try(DOUBLE '4.5');

SELECT try(1/0);

SELECT try(CAST('a' AS integer));

SELECT try(abs(-9223372036854775807 - 1));

SELECT try(json_parse('{'));

SELECT try('it''s qm_x(' || 'ok');

SELECT coalesce(try(1/0), -1);

SELECT try(length(to_base(from_base('zz', 2), 10)));

SELECT try(upper(to_base(from_base('11', 2), 1)));

SELECT try(if(true, upper(to_base(from_base('1111', 2), 16)), 'x'));

SELECT 1/0;

SELECT CAST('a' AS integer);

SELECT from_base('zz', 2);

SELECT upper(to_base(from_base('11', 2), 1));

SELECT abs(-9223372036854775807 - 1);

SELECT abs(x) FROM (VALUES CAST(-2147483648 AS integer)) t(x);

SELECT try(length(lpad('x', 1000000000, 'y')));
