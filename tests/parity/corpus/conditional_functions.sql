-- family: conditional_functions
-- source: Trino 476 docs, functions/conditional.md (https://trino.io/docs/476/functions/conditional.html)

-- source: functions/conditional.md, CASE (simple form)
SELECT a, CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' ELSE 'many' END FROM (VALUES 1, 2, 3) t(a) ORDER BY a;
SELECT CASE 5 WHEN 1 THEN 'x' END;
SELECT CASE NULL WHEN NULL THEN 'matched' ELSE 'no match' END;
SELECT CASE 2 WHEN 1 THEN 'a' WHEN 2 THEN 'b' WHEN 2 THEN 'c' END;
SELECT CASE 'b' WHEN 'a' THEN 1 WHEN 'b' THEN 2 END;
SELECT CASE 1.0 WHEN 1 THEN 'int match' ELSE 'no' END;
SELECT CASE 1 WHEN 1 THEN 1 ELSE 2.5 END;
SELECT typeof(CASE 1 WHEN 1 THEN 1 ELSE 2.5 END);
SELECT typeof(CASE 1 WHEN 1 THEN 'a' ELSE 'bcd' END);
SELECT CASE 1 WHEN 1 THEN NULL ELSE 3 END;
SELECT regionkey, CASE regionkey WHEN 0 THEN 'AF' WHEN 1 THEN 'AM' ELSE 'other' END FROM tpch.tiny.region ORDER BY regionkey;
SELECT CASE orderstatus WHEN 'F' THEN 'final' WHEN 'O' THEN 'open' ELSE 'partial' END AS s, count(*) FROM tpch.tiny.orders GROUP BY 1 ORDER BY s;
SELECT CASE 1 WHEN 'a' THEN 1 END;
SELECT CASE 1 WHEN 1 THEN 'a' ELSE 2 END;

-- source: functions/conditional.md, CASE (searched form)
SELECT a, b, CASE WHEN a = 1 THEN 'aaa' WHEN b = 2 THEN 'bbb' ELSE 'ccc' END FROM (VALUES (1, 1), (2, 2), (3, 3), (1, 2)) t(a, b) ORDER BY a, b;
SELECT CASE WHEN false THEN 1 END;
SELECT CASE WHEN NULL THEN 'null is not true' ELSE 'else' END;
SELECT CASE WHEN 1 > 0 THEN 'first' WHEN 2 > 0 THEN 'second' END;
SELECT CASE WHEN true THEN 1 ELSE 1 / 0 END;
SELECT CASE WHEN false THEN 1 / 0 ELSE 0 END;
SELECT CASE WHEN true THEN 1E0 ELSE 2 END;
SELECT typeof(CASE WHEN true THEN TINYINT '1' ELSE BIGINT '2' END);
SELECT CASE WHEN true THEN ARRAY[1] ELSE ARRAY[2, 3] END;
SELECT name, CASE WHEN acctbal < 0 THEN 'negative' WHEN acctbal < 5000 THEN 'low' ELSE 'high' END FROM tpch.tiny.supplier ORDER BY suppkey LIMIT 8;
SELECT sum(CASE WHEN returnflag = 'R' THEN 1 ELSE 0 END) FROM tpch.tiny.lineitem;
SELECT CASE WHEN 1 THEN 'x' END;
SELECT CASE WHEN 'yes' THEN 1 END;

-- source: functions/conditional.md, IF
SELECT if(true, 'yes');
SELECT if(false, 'yes');
SELECT if(NULL, 'yes', 'no');
SELECT if(1 < 2, 10, 20);
SELECT if(false, 1, 2.5);
SELECT typeof(if(false, 1, 2.5));
SELECT if(true, 1, 1 / 0);
SELECT if(false, 1 / 0, 7);
SELECT if(true, NULL, 3);
SELECT typeof(if(true, 'ab', 'c'));
SELECT orderkey, totalprice, if(totalprice >= 150000, 'High Value', 'Low Value') FROM tpch.tiny.orders ORDER BY orderkey LIMIT 6;
SELECT orderkey, CASE WHEN totalprice >= 150000 THEN 'High Value' ELSE 'Low Value' END FROM tpch.tiny.orders ORDER BY orderkey LIMIT 6;
SELECT if(1, 'a', 'b');
SELECT if(true, 1, 'b');
SELECT if(true);

-- source: functions/conditional.md, COALESCE
SELECT coalesce(NULL, 2, 3);
SELECT coalesce(NULL, NULL);
SELECT coalesce(1);
SELECT coalesce(NULL, 'x');
SELECT coalesce(1, 2.5);
SELECT typeof(coalesce(1, 2.5));
SELECT coalesce(NULL, 1E0, 2);
SELECT coalesce(1, 1 / 0);
SELECT coalesce(CAST(NULL AS varchar(3)), 'abcde');
SELECT typeof(coalesce(CAST(NULL AS varchar(3)), 'abcde'));
SELECT coalesce(CAST(ROW(NULL, NULL) AS ROW(integer, integer)), ROW(5, 6));
SELECT coalesce(CAST(ROW(3, NULL) AS ROW(integer, integer)), ROW(5, 6));
SELECT coalesce(ARRAY[], ARRAY[1]);
SELECT coalesce(nan(), 0);
SELECT coalesce(try(CAST(x AS bigint)), -1) FROM (VALUES '94131', 'P332a', '08544') t(x) ORDER BY 1;
SELECT coalesce(nullif(regionkey, 0), 99) FROM tpch.tiny.region ORDER BY regionkey;
SELECT coalesce(1, 'a');
SELECT coalesce();

-- source: functions/conditional.md, NULLIF
SELECT nullif(1, 1);
SELECT nullif(1, 2);
SELECT nullif(NULL, 1);
SELECT nullif(1, NULL);
SELECT nullif('a', 'a');
SELECT nullif(1, 1.0);
SELECT typeof(nullif(1, 1.5));
SELECT nullif(1.5, 1);
SELECT nullif(nan(), nan());
SELECT nullif(ARRAY[1], ARRAY[1]);
SELECT nullif(CAST('a' AS char(3)), 'a');
SELECT name, nullif(regionkey, 1) FROM tpch.tiny.nation WHERE nationkey < 6 ORDER BY nationkey;
SELECT 10 / nullif(0, 0);
SELECT nullif(1, 'a');

-- source: functions/conditional.md, TRY
SELECT try(1 / 0);
SELECT try(5 / 2);
SELECT try(CAST('abc' AS integer));
SELECT try(CAST('123' AS integer));
SELECT try(2147483647 + 1);
SELECT try(abs(TINYINT '-128'));
SELECT try(chr(-5));
SELECT try(json_parse('{bad'));
SELECT try(CAST(JSON '"x"' AS integer));
SELECT try(from_base('zz', 2));
SELECT try(DECIMAL '99999999999999999999999999999999999999' + 1);
SELECT try(ARRAY[1, 2][5]);
SELECT try(element_at(ARRAY[1, 2], 5));
SELECT try(NULL);
SELECT try(split_part('a,b', ',', 0));
SELECT try(1.5 / 0);
SELECT try(CAST(300 AS tinyint));
SELECT try(log10(-1));
SELECT coalesce(try(10 / 0), 0);
SELECT try(CAST(zip AS bigint)) FROM (VALUES (1, '94131'), (2, 'P332a'), (3, '94025'), (4, '08544')) t(id, zip) ORDER BY id;
SELECT coalesce(try(cost / packages), 0) FROM (VALUES (1, 100, 25), (2, 72, 5), (3, 155, 0), (4, 490, 225)) t(id, cost, packages) ORDER BY id;
SELECT sum(try(100 / (nationkey - 3))) FROM tpch.tiny.nation;
SELECT try(nosuchcolumn);
SELECT try(1 / 'a');

-- source: Trino 476 docs, functions/conditional.md: its examples as written (extracted page by page)
SELECT COALESCE(CAST(ROW(NULL, NULL) AS ROW(integer, integer)), ROW(1, 2));
SELECT COALESCE(CAST(ROW(1, NULL) AS ROW(integer, integer)), ROW(1, 2));
