-- family: project_semantics_date_formats
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/date_formats.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT date_format(TIMESTAMP '2022-10-20 05:10:00', '%m-%d-%Y %H');

SELECT date_parse('2022/10/20/05', '%Y/%m/%d/%H');

SELECT date_format(TIMESTAMP '2001-01-09 13:04:05.321', '%a %b %c %d %e %f %H %h %I %i %j %k %l %M %m %p %r %S %s %T %v %W %x %Y %y %%');

SELECT date_format(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles', '%Y-%m-%d %H:%i:%s');

SELECT date_parse('2013-05-17 12:35:10 PM', '%Y-%m-%d %h:%i:%s %p');

SELECT date_parse('2013-05-17 00:35:10.456', '%Y-%m-%d %H:%i:%s.%f');

SELECT date_parse('20130517', '%Y%m%d');

SELECT date_parse('17 May 13', '%d %M %y');

SELECT date_format(NULL, '%Y');

SELECT date_format(TIMESTAMP '2001-01-09 13:04:05.321 +07:09', '%Y年%m月%d日 %x %v %g %4');

SELECT date_format(TIMESTAMP '2001-01-09 00:04:05.32', '%k %f');

SELECT date_parse('abc 2013-05-17 fff 23:35:10 xyz', 'abc %Y-%m-%d fff %H:%i:%s xyz');

SELECT date_parse('2013-05-17 12:35:10', '%Y-%m-%d %h:%i:%s');

SELECT date_parse('2013 14', '%Y %y');

SELECT date_parse('1998 53', '%x %v');

SELECT date_parse('1.2006', '%s.%f');

SELECT date_parse('59.123456789', '%s.%f');

SELECT date_parse('28-JAN-16 11.45.46.421000 PM', '%d-%b-%y %l.%i.%s.%f %p');

SELECT date_parse('31-MAY-69 04.59.59.999000 AM', '%d-%b-%y %l.%i.%s.%f %p');

SELECT date_parse('11-DEC-70 11.12.13.456000 AM', '%d-%b-%y %l.%i.%s.%f %p');

SELECT date_format(TIMESTAMP '2001-01-09 13:04:05', '%U');

SELECT date_format(DATE '2001-01-09', '%D');

SELECT date_parse('3.0123456789', '%s.%f');

SELECT date_parse('1970-01-01', '');

SELECT parse_duration('');

SELECT parse_duration('1f');

SELECT parse_duration('abc');

SELECT date_parse('2001', '%X');

SELECT date_parse('2013-05-17x', '%Y-%m-%d');

SELECT date_parse('2013-05', '%Y-%m-%d');

SELECT date_parse('2013-13-01', '%Y-%m-%d');

SELECT format_datetime(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles', 'yyyy-MM-dd HH:mm:ss.SSS ZZ');

SELECT format_datetime(TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles', 'EEEE, MMMM d, yyyy h:mm a z Z ZZZ');

SELECT format_datetime(TIMESTAMP '2001-01-02 03:04:05', 'EEE MMM yy D ''at'' HH');

SELECT parse_datetime('2020-05-11 11:15:05 +0100', 'yyyy-MM-dd HH:mm:ss Z');

SELECT parse_datetime('1960/01/22 03:04', 'yyyy/MM/dd HH:mm');

SELECT parse_datetime('20200511 America/Los_Angeles', 'yyyyMMdd ZZZ');

SELECT format_datetime(TIMESTAMP '2001-01-02 03:04:05 UTC', 'yyyy-qq');

SELECT parse_datetime('2020-05-11', 'yyyy-MM-dd HH');
