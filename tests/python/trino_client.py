"""Runs a query through the official Python `trino` client against the QueryMesh stand-in.

Usage: python3 tests/python/trino_client.py <querymesh URL> <IAM access token> <user>

Exits non-zero with a message when the client is missing (`pip install trino`) or when the
answer differs from Trino's for tpch.tiny.
"""

import sys
from urllib.parse import urlparse

try:
    import trino
except ImportError:
    sys.exit("the Python trino client is not installed: run `pip install trino`")


def main() -> None:
    url, token, user = sys.argv[1:4]
    address = urlparse(url)
    conn = trino.dbapi.connect(
        host=address.hostname,
        port=address.port,
        user=user,
        http_scheme="http",
        auth=trino.auth.JWTAuthentication(token),
        # The client refuses to send credentials over plain http without this; the sandbox
        # listens on loopback only.
        allow_insecure_auth=True,
    )
    cur = conn.cursor()
    cur.execute("SELECT name, regionkey FROM tpch.tiny.nation ORDER BY nationkey")
    rows = cur.fetchall()
    columns = [(d[0], d[1]) for d in cur.description]

    assert columns == [("name", "varchar(25)"), ("regionkey", "bigint")], columns
    assert len(rows) == 25, len(rows)
    assert rows[0] == ["ALGERIA", 0], rows[0]
    assert rows[24] == ["UNITED STATES", 1], rows[24]
    assert cur.stats["state"] == "FINISHED", cur.stats

    # A refused query comes back as the client's own error type, with Trino's error name.
    try:
        cur.execute("SELECT nosuchcolumn FROM tpch.tiny.nation")
        cur.fetchall()
    except trino.exceptions.TrinoUserError as e:
        assert e.error_name == "COLUMN_NOT_FOUND", e.error_name
    else:
        raise AssertionError("a query naming an unknown column succeeded")
    print("ok")


if __name__ == "__main__":
    main()
