-- family: project_semantics_formatting
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/formatting.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT format('%s%%', 123);

SELECT format('%.4f', pi());

SELECT format('%.5f', pi());

SELECT format('%03d', 8);

SELECT format('%-7s,%7s', 'hello', 'world');

SELECT format('%b %B %b', true, false, null);

SELECT format('%s %s %s', true, false, null);

SELECT format('%S %S %S', true, false, null);

SELECT format('%4$s %3$s %2$s %1$s %4$s %3$s %2$s %1$s', 'a', 'b', 'c', 'd');

SELECT format('%s %s %<s %<s', 'a', 'b', 'c', 'd');

SELECT format('%2$s %s %<s %s', 'a', 'b', 'c', 'd');

SELECT format('%2$s %3$s %1$s', 'a', 'b', 'c', 'd');

SELECT format('%s %s', 2, 3, 4);

SELECT format('%d', tinyint '123');

SELECT format('%d', smallint '32123');

SELECT format('%d', 1234567890);

SELECT format('%d', 1234567890123);

SELECT format('%,.2f', 1234567.89);

SELECT format('%1$s %1$f %1$.2f', decimal '9.12345678');

SELECT format('%1$d %1$x %1$X %1$o', 1234);

SELECT format('%s', json '[123,"abc",true]');

SELECT format('%1$s %1$tF %1$tY-%1$tm-%1$td', date '2001-08-22');

SELECT format('%1$tA, %1$tB %1$te, %1$tY', date '2006-07-04');

SELECT format('%1$s %1$tF %1$tT', timestamp '1969-07-20 16:17:00');

SELECT format('%1$s %1$tF %1$tT', timestamp '1969-07-20 16:17:03');

SELECT format('%s', cast('test' AS char(5)));

SELECT format('%1$s %1$tc', cast('1969-07-20 16:17:00 America/New_York' AS timestamp with time zone));

SELECT format('%1$s %1$tc', cast('1969-07-20 20:17:00 UTC' AS timestamp with time zone));

SELECT format('%1$s %1$tz %1$ts', TIMESTAMP '2001-08-22 03:04:05.321 +07:09');

SELECT format('%s|%.2e', real '1.5', 12345.678e0);

SELECT format('[%8.3f]', -3.14159e0);

SELECT format(CAST(NULL AS varchar), 1);

SELECT format('%.4d', 8);

SELECT format('%-02d', 8);

SELECT format('%--2d', 8);

SELECT format('%+s', 8);

SELECT format('%-s', 8);

SELECT format('%5n', 8);

SELECT format('%s %d', 8);

SELECT format('%d', decimal '8');

SELECT format('%tT', 'x');

SELECT format('%.2f', 5);

SELECT format('%s', array[8]);

SELECT format(NULL, 8);

SELECT format(5, 8);

SELECT format_number(123456);

SELECT format_number(1000000);
