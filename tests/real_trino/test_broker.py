"""Every broker outcome of the spec (runtime-protocol.txt, "The Broker, from Inside the
Cluster"), for real, against each target: the same assertions for the stand-in and the real
Trino, so where they differ a test fails."""

import threading
import time
import uuid

from secured_trino import free_port

LONG_QUERY = ("SELECT count(*) FROM tpch.tiny.lineitem a CROSS JOIN tpch.tiny.lineitem b "
              "CROSS JOIN tpch.tiny.lineitem c")
WAIT_S = 30


def refused(answer, status, code):
    got_status, body = answer
    assert (got_status, body.get("code")) == (status, code), body


def own_queries(target, session, marker):
    """The person's queries whose text holds `marker`, from system.runtime.queries (a person
    sees their own there): [(state, error_code)]."""
    status, answer = target.sandbox.query(
        session["identity"],
        "SELECT state, error_code, query FROM system.runtime.queries "
        f"WHERE strpos(query, '{marker}') > 0",
    )
    assert status == 200, answer
    # The statement reading system.runtime.queries holds the marker too: not that one.
    return [(state, error) for state, error, text in answer["rows"]
            if "system.runtime.queries" not in text]


def listed_as(target, session, marker, expected):
    """Waits until the queries holding `marker` are listed as `expected`; fails naming what
    was listed last."""
    deadline = time.monotonic() + WAIT_S
    while True:
        listed = own_queries(target, session, marker)
        if listed == expected:
            return
        assert time.monotonic() < deadline, f"not listed as {expected} within {WAIT_S} s: {listed}"
        time.sleep(0.2)


def test_success_has_trinos_raw_types_and_values(target, signed_in):
    ada = signed_in("ada")
    answer = target.sandbox.query(
        ada["identity"], "SELECT name, regionkey FROM tpch.tiny.nation ORDER BY nationkey LIMIT 3")
    assert answer == (200, {
        # The raw type (Trino's typeSignature.rawType), as the spec's example shows it.
        "columns": [{"name": "name", "type": "varchar"}, {"name": "regionkey", "type": "bigint"}],
        "rows": [["ALGERIA", 0], ["ARGENTINA", 1], ["BRAZIL", 1]],
    })


def test_values_of_every_kind_come_as_trino_sends_them(target, signed_in):
    ada = signed_in("ada")
    status, answer = target.sandbox.query(ada["identity"], """
        SELECT CAST(12.5 AS decimal(10, 2)) AS amount, 1e0 / 3 AS ratio, true AS yes,
               DATE '2020-02-29' AS day, TIMESTAMP '2020-01-02 03:04:05.678' AS at,
               TIMESTAMP '2020-01-02 03:04:05 UTC' AS at_utc,
               ARRAY[1, NULL, 3] AS numbers, MAP(ARRAY['a'], ARRAY[1.5e0]) AS prices,
               CAST(ROW(1, 'x') AS row(id integer, tag varchar)) AS pair,
               JSON '{"k": [1, 2]}' AS doc, X'cafe' AS bytes, NULL AS nothing,
               INTERVAL '3' DAY AS span, REAL '1.5' AS single, TINYINT '7' AS tiny,
               TIMESTAMP '2020-01-02 03:04:05.123456' AS precise""")
    assert status == 200, answer
    assert answer["columns"] == [{"name": name, "type": raw} for name, raw in [
        ("amount", "decimal"), ("ratio", "double"), ("yes", "boolean"), ("day", "date"),
        ("at", "timestamp"), ("at_utc", "timestamp with time zone"), ("numbers", "array"),
        ("prices", "map"), ("pair", "row"), ("doc", "json"), ("bytes", "varbinary"),
        ("nothing", "unknown"), ("span", "interval day to second"), ("single", "real"),
        ("tiny", "tinyint"), ("precise", "timestamp"),
    ]]
    assert answer["rows"] == [[
        "12.50", 0.3333333333333333, True, "2020-02-29", "2020-01-02 03:04:05.678",
        "2020-01-02 03:04:05 UTC", [1, None, 3], {"a": 1.5}, [1, "x"], '{"k":[1,2]}', "yv4=",
        None, "3 00:00:00.000", 1.5, 7, "2020-01-02 03:04:05.123456",
    ]]


def test_no_identity_is_user_session_required(target):
    refused(target.sandbox.query(None, "SELECT 1"), 401, "USER_SESSION_REQUIRED")


def test_a_forged_identity_is_identity_assertion_invalid(target, signed_in):
    ada = signed_in("ada")
    header, payload, signature = ada["identity"].split(".")
    forged = ".".join([header, payload, signature[::-1]])
    refused(target.sandbox.query(forged, "SELECT 1"), 401, "IDENTITY_ASSERTION_INVALID")


def test_a_token_of_another_issuer_is_rejected_by_querymesh(target):
    # Another sandbox has another IAM (its own issuer and keys); it sends its people's tokens to
    # the same target, whose authenticator trusts only the first IAM.
    other = target.start_sandbox(url=target.front.url)
    status, session = other.control("POST", "sessions", {"person": "ada"})
    assert status == 201, session
    refused(other.query(session["identity"], "SELECT 1"), 502, "QUERYMESH_IDENTITY_REJECTED")


def test_a_token_without_querymesh_audience_is_rejected(target, signed_in):
    status, switches = target.sandbox.control("PATCH", "switches", {"querymesh_scope": False})
    assert status == 200, switches
    try:
        ada = signed_in("ada")
        refused(target.sandbox.query(ada["identity"], "SELECT 1"), 502,
                "QUERYMESH_IDENTITY_REJECTED")
    finally:
        status, switches = target.sandbox.control("PATCH", "switches", {"querymesh_scope": True})
        assert status == 200, switches


def test_access_control_denies_a_table(target, signed_in):
    erin = signed_in("erin")
    status, answer = target.sandbox.query(erin["identity"], "SELECT count(*) FROM tpch.tiny.orders")
    assert (status, answer["code"]) == (403, "QUERYMESH_ACCESS_DENIED"), answer
    assert "Cannot select from table tpch.tiny.orders" in answer["message"]
    # Everything else the rules give her still answers.
    assert target.sandbox.query(erin["identity"], "SELECT count(*) FROM tpch.tiny.nation") == (
        200, {"columns": [{"name": "_col0", "type": "bigint"}], "rows": [[25]]})


def test_row_filter_and_column_mask_apply(target, signed_in):
    dana, ada = signed_in("dana"), signed_in("ada")
    sql = ("SELECT count(*), min(phone), max(phone) FROM tpch.tiny.customer")
    status, filtered = target.sandbox.query(dana["identity"], sql)
    assert status == 200, filtered
    count, lowest, highest = filtered["rows"][0]
    assert count == 272
    assert lowest.startswith("XX-XXX-XXX-") and highest.startswith("XX-XXX-XXX-")
    assert filtered["columns"][1] == {"name": "_col1", "type": "varchar"}
    status, whole = target.sandbox.query(ada["identity"], sql)
    assert status == 200 and whole["rows"][0][0] == 1500, whole


def test_querymesh_refusals_are_query_failed(target, signed_in):
    ada = signed_in("ada")
    status, answer = target.sandbox.query(ada["identity"], "SELEC 1")
    assert (status, answer["code"]) == (422, "QUERYMESH_QUERY_FAILED"), answer
    assert "mismatched input 'SELEC'" in answer["message"]
    status, answer = target.sandbox.query(ada["identity"], "SELECT * FROM tpch.tiny.nowhere")
    assert (status, answer["code"]) == (422, "QUERYMESH_QUERY_FAILED"), answer
    assert "Table 'tpch.tiny.nowhere' does not exist" in answer["message"]


def test_past_max_rows_the_query_is_cancelled_in_querymesh(target, signed_in):
    ada = signed_in("ada")
    marker = f"max-rows-{uuid.uuid4().hex}"
    # Rows without end: a query whose rows all fit Trino's output buffer may finish before
    # the cancel reaches it, and then stays FINISHED.
    status, answer = target.sandbox.query(
        ada["identity"],
        f"SELECT a.orderkey /* {marker} */ FROM tpch.tiny.lineitem a CROSS JOIN tpch.tiny.lineitem b",
        max_rows=5)
    assert (status, answer["code"]) == (422, "QUERYMESH_QUERY_FAILED"), answer
    listed_as(target, ada, marker, [("FAILED", "USER_CANCELED")])


def test_show_create_needs_ownership_which_select_rules_do_not_give(target, signed_in):
    # rules.json grants SELECT: Trino's checkCanShowCreateTable wants OWNERSHIP.
    ada = signed_in("ada")
    status, answer = target.sandbox.query(ada["identity"], "SHOW CREATE TABLE tpch.tiny.region")
    assert (status, answer["code"]) == (403, "QUERYMESH_ACCESS_DENIED"), answer
    assert "Cannot show create table for tpch.tiny.region" in answer["message"]
    # information_schema is everyone's; SHOW GRANTS lists none.
    status, answer = target.sandbox.query(
        ada["identity"], "SHOW CREATE TABLE tpch.information_schema.schemata")
    assert status == 200, answer
    assert answer["rows"] == [["CREATE TABLE tpch.information_schema.schemata (\n"
                               "   catalog_name varchar,\n   schema_name varchar\n)"]]
    status, answer = target.sandbox.query(ada["identity"], "SHOW GRANTS ON TABLE tpch.tiny.nation")
    assert (status, answer["rows"]) == (200, []), answer


def test_next_uri_outside_the_configured_address_is_refused(target, signed_in):
    nora = signed_in("nora")  # the front leaves nextUri at the target's own address for her
    status, answer = target.sandbox.query(nora["identity"], "SELECT 1")
    assert (status, answer["code"]) == (502, "QUERYMESH_QUERY_FAILED"), answer


def test_a_stopped_querymesh_is_unavailable(target):
    stopped = target.start_sandbox(url=f"https://127.0.0.1:{free_port()}")
    status, session = stopped.control("POST", "sessions", {"person": "ada"})
    assert status == 201, session
    refused(stopped.query(session["identity"], "SELECT 1"), 503, "QUERYMESH_UNAVAILABLE")


def test_a_busy_querymesh_is_unavailable(target, signed_in):
    bea = signed_in("bea")  # the front answers 503 for her
    refused(target.sandbox.query(bea["identity"], "SELECT 1"), 503, "QUERYMESH_UNAVAILABLE")


def test_a_full_resource_group_is_unavailable(target, signed_in):
    quinn = signed_in("quinn")  # her resource group runs and queues nothing
    status, answer = target.sandbox.query(quinn["identity"], "SELECT 1")
    assert (status, answer["code"]) == (503, "QUERYMESH_UNAVAILABLE"), answer
    assert "QUERY_QUEUE_FULL" in answer["message"], answer


def test_ending_the_session_cancels_the_running_query(target, signed_in):
    ada, watcher = signed_in("ada"), signed_in("ada")
    marker = f"revoked-{uuid.uuid4().hex}"
    answers = []
    running = threading.Thread(target=lambda: answers.append(
        target.sandbox.query(ada["identity"], f"{LONG_QUERY} /* {marker} */")))
    running.start()
    try:
        listed_as(target, watcher, marker, [("RUNNING", None)])
        ended = time.monotonic()
        target.end(ada)
        running.join(WAIT_S)
        assert not running.is_alive(), "the broker did not answer once the session ended"
        took = time.monotonic() - ended
        refused(answers[0], 401, "USER_SESSION_REQUIRED")
        assert took < 5, f"answered {took:.1f} s after the session ended"
        listed_as(target, watcher, marker, [("FAILED", "USER_CANCELED")])
    finally:
        running.join(WAIT_S)
