"""Runs queries through the official Python `trino` client against the QueryMesh stand-in.

Usage: python3 tests/python/trino_client.py <querymesh URL> <IAM access token> <user> <cert.pem>

<cert.pem> is the QueryMesh port's TLS certificate: the client is also run over HTTPS, as
Trino's clients are meant to send tokens, without `allow_insecure_auth`.

Exits non-zero with a message when the client is missing (`pip install trino`) or when an
answer differs from Trino's for tpch.tiny: column types in `cursor.description`, values
converted to Python types, results spread over many pages, errors raised as the client's own
exception types, and a cancel.
"""

import datetime
import decimal
import sys
import threading
import time
import uuid
from zoneinfo import ZoneInfo
import urllib.request
from urllib.parse import urlparse

try:
    import trino
except ImportError:
    sys.exit("the Python trino client is not installed: run `pip install trino`")

# Counts billions of rows: runs until something stops it.
ENDLESS = (
    "SELECT count(*) FROM tpch.tiny.lineitem a CROSS JOIN tpch.tiny.lineitem b "
    "CROSS JOIN tpch.tiny.orders c"
)
# Seconds to wait for anything before failing instead of hanging.
PATIENCE = 20


def connect(url, token, user, **session):
    address = urlparse(url)
    return trino.dbapi.connect(
        host=address.hostname,
        port=address.port,
        user=user,
        http_scheme="http",
        auth=trino.auth.JWTAuthentication(token),
        # The client refuses to send credentials over plain http without this; the sandbox
        # listens on loopback only.
        allow_insecure_auth=True,
        **session,
    )


def https_needs_no_insecure_auth(url, token, user, certificate):
    address = urlparse(url)
    conn = trino.dbapi.connect(
        host=address.hostname,
        port=address.port,
        user=user,
        http_scheme="https",
        auth=trino.auth.JWTAuthentication(token),
        verify=certificate,
    )
    cur = conn.cursor()
    cur.execute("SELECT count(*) FROM tpch.tiny.nation")
    assert cur.fetchall() == [[25]], "a query over HTTPS"
    assert cur._query.info_uri.startswith("https://"), cur._query.info_uri


def a_query_answers(cur):
    cur.execute("SELECT name, regionkey FROM tpch.tiny.nation ORDER BY nationkey")
    rows = cur.fetchall()
    columns = [(d[0], d[1]) for d in cur.description]
    assert columns == [("name", "varchar(25)"), ("regionkey", "bigint")], columns
    assert len(rows) == 25, len(rows)
    assert rows[0] == ["ALGERIA", 0], rows[0]
    assert rows[24] == ["UNITED STATES", 1], rows[24]
    assert cur.stats["state"] == "FINISHED", cur.stats


def types_are_described_and_converted(cur):
    cur.execute(
        "SELECT orderkey, orderstatus, totalprice, orderdate, shippriority "
        "FROM orders ORDER BY orderkey LIMIT 1"
    )
    row = cur.fetchone()
    described = [(d[0], d[1]) for d in cur.description]
    assert described == [
        ("orderkey", "bigint"),
        ("orderstatus", "varchar(1)"),
        ("totalprice", "double"),
        ("orderdate", "date"),
        ("shippriority", "integer"),
    ], described
    # DB-API description: (name, type_code, display_size, internal_size, precision, scale, null_ok)
    assert cur.description[1][3] == 1, cur.description[1]
    assert row == [1, "O", 172799.49, datetime.date(1996, 1, 2), 0], row
    assert cur.fetchone() is None

    cur.execute(
        "SELECT CAST(12.3 AS decimal(5,2)), TIMESTAMP '2020-01-02 03:04:05.678', 7 / 2, "
        "CAST(NULL AS varchar)"
    )
    row = cur.fetchone()
    described = [(d[1], d[4], d[5]) for d in cur.description]
    assert described == [
        ("decimal(5, 2)", 5, 2),
        ("timestamp(3)", 3, None),
        ("integer", None, None),
        ("varchar", None, None),
    ], described
    assert row == [
        decimal.Decimal("12.30"),
        datetime.datetime(2020, 1, 2, 3, 4, 5, 678000),
        3,
        None,
    ], row


def zoned_timestamps_are_converted(url, token, user):
    # trino/mapper.py TimestampWithTimeZoneValueMapper: the wall time, p digits, then the zone
    # as tzinfo (ZoneInfo for a name, a fixed timezone for an offset); `timezone=` is sent as
    # X-Trino-Time-Zone and governs the cast of a timestamp.
    cur = connect(url, token, user, timezone="America/New_York").cursor()
    cur.execute(
        "SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles', "
        "TIMESTAMP '2001-08-22 03:04:05.123456 +07:09', current_timezone(), "
        "CAST(TIMESTAMP '2020-06-01 12:00:00' AS timestamp(0) with time zone), "
        "ARRAY[TIMESTAMP '2020-01-01 00:00:00 UTC']"
    )
    row = cur.fetchone()
    described = [(d[1], d[4]) for d in cur.description]
    assert described == [
        ("timestamp(3) with time zone", 3),
        ("timestamp(6) with time zone", 6),
        ("varchar", None),
        ("timestamp(0) with time zone", 0),
        ("array(timestamp(0) with time zone)", None),
    ], described
    la = ZoneInfo("America/Los_Angeles")
    assert row[0] == datetime.datetime(2001, 8, 22, 3, 4, 5, 321000, tzinfo=la), row[0]
    assert row[0].tzinfo == la, row[0].tzinfo
    plus_0709 = datetime.timezone(datetime.timedelta(hours=7, minutes=9))
    assert row[1] == datetime.datetime(2001, 8, 22, 3, 4, 5, 123456, tzinfo=plus_0709), row[1]
    assert row[1].utcoffset() == datetime.timedelta(hours=7, minutes=9), row[1]
    assert row[2] == "America/New_York", row[2]
    new_york = ZoneInfo("America/New_York")
    assert row[3] == datetime.datetime(2020, 6, 1, 12, tzinfo=new_york), row[3]
    assert row[3].tzinfo == new_york, row[3].tzinfo
    utc = datetime.datetime(2020, 1, 1, tzinfo=ZoneInfo("UTC"))
    assert row[4] == [utc], row[4]
    # SET TIME ZONE (SetTimeZoneTask) answers X-Trino-Set-Session time_zone_id, which the
    # client sends back and which wins over X-Trino-Time-Zone.
    cur.execute("SET TIME ZONE 'Asia/Tokyo'")
    cur.fetchall()
    cur.execute("SELECT current_timezone()")
    assert cur.fetchall() == [["Asia/Tokyo"]]


def decimals_are_exact(cur):
    # The client reads a decimal column's string as decimal.Decimal (trino/mapper.py
    # DecimalValueMapper): every digit of a 38-digit value, and a sum exact to the cent.
    cur.execute(
        "SELECT CAST('-12345678901234567890.123456789012345678' AS decimal(38, 18)), "
        "DECIMAL '0.1' + DECIMAL '0.2', ARRAY[DECIMAL '1.5', DECIMAL '-0.25']"
    )
    row = cur.fetchone()
    described = [(d[1], d[4], d[5]) for d in cur.description]
    assert described == [
        ("decimal(38, 18)", 38, 18),
        ("decimal(2, 1)", 2, 1),
        ("array(decimal(3, 2))", None, None),
    ], described
    assert row == [
        decimal.Decimal("-12345678901234567890.123456789012345678"),
        decimal.Decimal("0.3"),
        [decimal.Decimal("1.50"), decimal.Decimal("-0.25")],
    ], row
    cur.execute(
        "SELECT sum(CAST(extendedprice AS decimal(12, 2))), "
        "sum(CAST(round(extendedprice * 100) AS bigint)) FROM lineitem"
    )
    total, cents = cur.fetchone()
    assert isinstance(total, decimal.Decimal), type(total)
    assert total == decimal.Decimal(cents).scaleb(-2), (total, cents)


def complex_types_are_converted(cur):
    # The client maps each column by its typeSignature (trino/mapper.py RowMapperFactory):
    # arrays to lists, maps to dicts with keys of the key type, rows to named tuples, json to
    # str, varbinary (base64 on the wire) to bytes, uuid to uuid.UUID.
    cur.execute(
        "SELECT ARRAY[1, 2, NULL], MAP(ARRAY['a', 'b'], ARRAY[1, 2]), "
        "CAST(ROW(1, 'x') AS ROW(id integer, name varchar)), "
        "json_parse('{\"b\": [1, 2], \"a\": null}'), to_utf8('hi'), "
        "CAST('12151fd2-7586-11e9-8f9e-2a86e4085a59' AS uuid), "
        "ARRAY[ARRAY[DOUBLE '1.5'], NULL], MAP(ARRAY[1], ARRAY[ARRAY[DATE '2020-01-02']])"
    )
    row = cur.fetchone()
    described = [d[1] for d in cur.description]
    assert described == [
        "array(integer)",
        "map(varchar(1), integer)",
        "row(id integer, name varchar)",
        "json",
        "varbinary",
        "uuid",
        "array(array(double))",
        "map(integer, array(date))",
    ], described
    assert row[0] == [1, 2, None], row[0]
    assert row[1] == {"a": 1, "b": 2}, row[1]
    assert row[2] == (1, "x") and row[2].id == 1 and row[2].name == "x", row[2]
    assert row[3] == '{"a":null,"b":[1,2]}', row[3]
    assert row[4] == b"hi", row[4]
    assert row[5] == uuid.UUID("12151fd2-7586-11e9-8f9e-2a86e4085a59"), row[5]
    assert row[6] == [[1.5], None], row[6]
    assert row[7] == {1: [datetime.date(2020, 1, 2)]}, row[7]


def many_pages_are_fetched(cur):
    cur.execute("SELECT orderkey, linenumber FROM lineitem ORDER BY orderkey, linenumber")
    first = cur.fetchmany(1000)
    assert len(first) == 1000, len(first)
    assert first[0] == [1, 1], first[0]
    more = cur.fetchmany(25_000)
    assert len(more) == 25_000, len(more)
    rest = cur.fetchall()
    assert len(first) + len(more) + len(rest) == 60_175, len(rest)
    assert cur.fetchmany(10) == []
    assert cur.stats["state"] == "FINISHED", cur.stats
    assert cur.stats["processedRows"] == 60_175, cur.stats


def errors_are_the_clients_own(cur):
    # A refused query comes back as the client's own error type, with Trino's error name.
    try:
        cur.execute("SELECT nosuchcolumn FROM tpch.tiny.nation")
        cur.fetchall()
    except trino.exceptions.TrinoUserError as e:
        assert e.error_name == "COLUMN_NOT_FOUND", e.error_name
        assert e.error_type == "USER_ERROR", e.error_type
        assert e.message == "line 1:8: Column 'nosuchcolumn' cannot be resolved", e.message
        assert e.error_location == (1, 8), e.error_location
        assert e.query_id, "the error names its query"
    else:
        raise AssertionError("a query naming an unknown column succeeded")
    # One that fails while running, too.
    try:
        cur.execute("SELECT 1 / (regionkey - regionkey) FROM tpch.tiny.region")
        cur.fetchall()
    except trino.exceptions.TrinoUserError as e:
        assert e.error_name == "DIVISION_BY_ZERO", e.error_name
        assert e.message == "Division by zero", e.message
    else:
        raise AssertionError("a division by zero succeeded")


def parameters_are_bound(cur):
    # The client sends these as EXECUTE IMMEDIATE '…' USING …, quoting each value itself.
    cur.execute(
        "SELECT name FROM tpch.tiny.nation WHERE regionkey = ? AND name LIKE ? AND name <> ?",
        (1, "B%", "O'Brien"),
    )
    assert cur.fetchall() == [["BRAZIL"]], "bound parameters"
    cur.execute("SELECT count(*) FROM tpch.tiny.orders WHERE orderdate < DATE '1992-01-10'")
    expected = cur.fetchall()
    cur.execute(
        "SELECT count(*) FROM tpch.tiny.orders WHERE orderdate < ?",
        (datetime.date(1992, 1, 10),),
    )
    assert cur.fetchall() == expected, "a date parameter"


def legacy_prepared_statements_work(url, token, user):
    # PREPARE → X-Trino-Added-Prepare, EXECUTE with X-Trino-Prepared-Statement, DEALLOCATE
    # PREPARE → X-Trino-Deallocated-Prepare: how JDBC and older servers bind parameters.
    cur = connect(url, token, user, legacy_prepared_statements=True).cursor()
    cur.execute(
        "SELECT name FROM tpch.tiny.nation WHERE regionkey = ? AND name LIKE ? AND name <> ?",
        (1, "B%", "O'Brien"),
    )
    assert cur.fetchall() == [["BRAZIL"]], "bound through a legacy prepared statement"
    assert not cur.connection._client_session.prepared_statements, "deallocated afterwards"


def use_sets_the_session(conn):
    # USE answers with X-Trino-Set-Catalog / X-Trino-Set-Schema; the client applies them.
    cur = conn.cursor()
    cur.execute("USE tpch.tiny")
    assert cur.fetchall() == [], "USE answers no rows, as Trino 476 does"
    cur.execute("SELECT count(*), max(totalprice) FROM orders")
    # 466001.28 is printed by the server as Java does; the client reads it as a float.
    assert cur.fetchall() == [[15000, 466001.28]], "USE set the session"
    # A schema alone keeps the catalog.
    cur.execute("USE information_schema")
    cur.fetchall()
    session = (conn._client_session.catalog, conn._client_session.schema)
    assert session == ("tpch", "information_schema"), session
    cur.execute("SELECT count(*) FROM tables WHERE table_schema = 'tiny'")
    assert cur.fetchall() == [[8]], "USE of a schema alone"
    try:
        cur.execute("USE tpch.nosuchschema")
        cur.fetchall()
    except trino.exceptions.TrinoUserError as e:
        assert e.error_name == "NOT_FOUND", e.error_name
        assert e.message == "Schema does not exist: tpch.nosuchschema", e.message
    else:
        raise AssertionError("USE of an unknown schema succeeded")


def set_session_is_applied_by_the_client(conn):
    # X-Trino-Set-Session / X-Trino-Clear-Session answers; the client keeps the properties
    # and sends them back in X-Trino-Session, which SHOW SESSION reads.
    cur = conn.cursor()
    cur.execute("SET SESSION query_max_run_time = '5m'")
    assert cur.fetchall() == [], "SET SESSION answers no rows, as Trino 476 does"
    properties = conn._client_session.properties
    assert properties.get("query_max_run_time") == "5m", properties
    cur.execute("SHOW SESSION LIKE 'query_max_run_time'")
    assert cur.fetchall()[0][:3] == ["query_max_run_time", "5m", "100.00d"]
    cur.execute("RESET SESSION query_max_run_time")
    cur.fetchall()
    assert "query_max_run_time" not in conn._client_session.properties


def cancel_stops_the_query(conn):
    # `execute` blocks until rows arrive, so the query runs on a thread and is cancelled from
    # here, as an application would.
    cur = conn.cursor()
    outcome = {}

    def run():
        try:
            cur.execute(ENDLESS)
            outcome["rows"] = cur.fetchall()
        except trino.exceptions.TrinoUserError as e:
            outcome["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + PATIENCE
    while cur._query is None or cur._query.query_id is None:
        assert time.monotonic() < deadline, "the query never started"
        time.sleep(0.005)
    cur.cancel()
    assert cur._query.cancelled, "the server did not accept the cancel (DELETE → 204)"
    thread.join(PATIENCE)
    assert not thread.is_alive(), "the cancelled query kept running"
    error = outcome.get("error")
    assert error is not None, outcome
    assert error.error_name == "USER_CANCELED", error
    assert error.message == "Query was canceled", error.message
    # The server knows: the query's info page says it failed (as cancelled queries do).
    with urllib.request.urlopen(cur.info_uri) as page:
        html = page.read().decode()
    assert "State: FAILED" in html, html


def main() -> None:
    url, token, user, certificate = sys.argv[1:5]
    https_needs_no_insecure_auth(url, token, user, certificate)
    cur = connect(url, token, user).cursor()
    a_query_answers(cur)
    parameters_are_bound(cur)
    legacy_prepared_statements_work(url, token, user)
    errors_are_the_clients_own(cur)
    use_sets_the_session(connect(url, token, user))
    set_session_is_applied_by_the_client(connect(url, token, user))
    cancel_stops_the_query(connect(url, token, user))
    # X-Trino-Catalog and X-Trino-Schema name unqualified tables.
    cur = connect(url, token, user, catalog="tpch", schema="tiny").cursor()
    types_are_described_and_converted(cur)
    complex_types_are_converted(cur)
    zoned_timestamps_are_converted(url, token, user)
    decimals_are_exact(cur)
    many_pages_are_fetched(cur)
    print("ok")


if __name__ == "__main__":
    main()
