"""SQLAlchemy through Trino's own dialect (`pip install "trino[sqlalchemy]"`) and pandas against
each target, as a notebook reflects an organization's Trino: the inspector's catalogs, schemas,
tables, columns, comments, keys and indexes, a table loaded with `autoload_with`, and
`pandas.read_sql_table`. Each is what the dialect reads from information_schema and the
`system` catalog (trino/sqlalchemy/dialect.py), so both targets must answer alike.

Ada connects as a notebook would: the sandbox's QueryMesh access token (JWT), HTTPS trusting
the target's authority, no user (the token's subject is the Trino user).
"""

import urllib.parse

import pandas
import pytest
import requests
import sqlalchemy
from trino.auth import JWTAuthentication

TPCH_TABLES = ["customer", "lineitem", "nation", "orders", "part", "partsupp", "region",
               "supplier"]


@pytest.fixture(scope="module")
def engine(target):
    address = urllib.parse.urlsplit(target.querymesh_url)
    session = requests.Session()
    # Trusting this run's authority: requests would let REQUESTS_CA_BUNDLE, where a machine
    # sets it, override a session's own `verify`.
    session.trust_env = False
    session.verify = str(target.ca_file)
    engine = sqlalchemy.create_engine(
        f"trino://{address.hostname}:{address.port}/tpch/tiny",
        connect_args={
            "auth": JWTAuthentication(target.token("ada")),
            "http_scheme": "https",
            "http_session": session,
        },
    )
    yield engine
    engine.dispose()
    session.close()


@pytest.fixture
def inspector(engine):
    return sqlalchemy.inspect(engine)


def test_catalogs_schemas_and_tables(engine, inspector):
    # The dialect's get_catalog_names reads system.jdbc.catalogs.
    with engine.connect() as connection:
        assert engine.dialect.get_catalog_names(connection) == ["system", "tpch"]
    assert inspector.get_schema_names() == [
        "information_schema", "sf1", "sf100", "sf1000", "sf10000", "sf100000", "sf300",
        "sf3000", "sf30000", "tiny"]
    # The dialect's query has no ORDER BY.
    assert sorted(inspector.get_table_names("tiny")) == TPCH_TABLES
    assert inspector.get_view_names("tiny") == []
    with engine.connect() as connection:
        # The dialect's own has_schema: SQLAlchemy 2.1's inspector passes it an argument it
        # does not take.
        assert engine.dialect.has_schema(connection, "tiny")
        assert not engine.dialect.has_schema(connection, "nope")
    assert inspector.has_table("nation", "tiny") and not inspector.has_table("nope", "tiny")


def test_columns_as_the_dialect_reads_them(inspector):
    columns = inspector.get_columns("nation", "tiny")
    assert [(c["name"], str(c["type"]), c["nullable"], c["default"], c["comment"])
            for c in columns] == [
        # The tpch connector's columns are NOT NULL.
        ("nationkey", "BIGINT", False, None, None),
        ("name", "VARCHAR(25)", False, None, None),
        ("regionkey", "BIGINT", False, None, None),
        ("comment", "VARCHAR(152)", False, None, None),
    ]
    with pytest.raises(sqlalchemy.exc.NoSuchTableError):
        inspector.get_columns("nope", "tiny")


def test_comments_keys_and_indexes(inspector):
    # The comment from system.metadata.table_comments; tpch has none, no keys, no partitions
    # (the dialect's `nation$partitions` query fails on both, and it answers no index).
    assert inspector.get_table_comment("nation", "tiny") == {"text": None}
    assert inspector.get_pk_constraint("nation", "tiny") == {"constrained_columns": [],
                                                            "name": None}
    assert inspector.get_foreign_keys("nation", "tiny") == []
    assert inspector.get_indexes("nation", "tiny") == []


def test_a_table_loaded_with_autoload_with_queries(engine):
    nation = sqlalchemy.Table("nation", sqlalchemy.MetaData(), schema="tiny",
                              autoload_with=engine)
    assert [c.name for c in nation.columns] == ["nationkey", "name", "regionkey", "comment"]
    query = (sqlalchemy.select(nation.c.regionkey, sqlalchemy.func.count())
             .group_by(nation.c.regionkey).order_by(nation.c.regionkey))
    with engine.connect() as connection:
        assert [tuple(row) for row in connection.execute(query)] == [
            (0, 5), (1, 5), (2, 5), (3, 5), (4, 5)]


def test_pandas_reads_a_table_and_a_query(engine):
    region = pandas.read_sql_table("region", engine, schema="tiny")
    assert list(region.columns) == ["regionkey", "name", "comment"]
    assert sorted(region["name"]) == ["AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"]
    counted = pandas.read_sql_query(
        "SELECT orderstatus, count(*) AS orders FROM orders GROUP BY orderstatus "
        "ORDER BY orderstatus", engine)
    assert counted.to_dict("records") == [
        {"orderstatus": "F", "orders": 7304},
        {"orderstatus": "O", "orders": 7333},
        {"orderstatus": "P", "orders": 363},
    ]
