"""Trino's CLI (io.trino:trino-cli:476, the executable jar) against each target: `--execute`
with `--output-format CSV` and `JSON`, authenticated with the person's QueryMesh access token
(`--access-token`, `--user` the token's subject), trusting the target's authority
(`--truststore-path` takes the PEM file as is). Exactly what the README tells people to run.

The CLI's JSON output cannot write array, map or row values (476 fails with "No ObjectCodec
defined for the generator", against a real Trino too): JSON here has scalars only, and the
complex values are checked in CSV.
"""

from clients import run_cli


def test_csv_output(target):
    done = run_cli(target, "ada", "CSV", """
        SELECT nationkey, name, CAST(nationkey * 1.5 AS decimal(5, 1)) AS half,
               regionkey = 1 AS america, TIMESTAMP '2020-01-02 03:04:05.678 UTC' AS at,
               ARRAY[nationkey, NULL] AS numbers, MAP(ARRAY['k'], ARRAY[nationkey]) AS m,
               CAST(ROW(nationkey, name) AS ROW(k bigint, n varchar)) AS r, NULL AS nothing,
               'a "quoted", comma' AS text, X'cafe' AS bytes, 1e0 / 3 AS ratio
        FROM nation WHERE nationkey < 3 ORDER BY nationkey""")
    assert (done.returncode, done.stdout) == (0, (
        '"0","ALGERIA","0.0","false","2020-01-02 03:04:05.678 UTC","[0, NULL]","{k=0}",'
        '"{k=0, n=ALGERIA}","","a ""quoted"", comma","ca fe","0.3333333333333333"\n'
        '"1","ARGENTINA","1.5","true","2020-01-02 03:04:05.678 UTC","[1, NULL]","{k=1}",'
        '"{k=1, n=ARGENTINA}","","a ""quoted"", comma","ca fe","0.3333333333333333"\n'
        '"2","BRAZIL","3.0","true","2020-01-02 03:04:05.678 UTC","[2, NULL]","{k=2}",'
        '"{k=2, n=BRAZIL}","","a ""quoted"", comma","ca fe","0.3333333333333333"\n'
    )), done.stderr


def test_json_output_as_the_tokens_person(target):
    # Dana's token: the rules' row filter (European customers) and phone mask apply to her.
    done = run_cli(target, "dana", "JSON", """
        SELECT count(*) AS customers, min(phone) AS phone,
               CAST(sum(acctbal) AS decimal(12, 2)) AS balance, max(acctbal) > 9000 AS rich,
               TIMESTAMP '2020-01-02 03:04:05.678 Europe/Paris' AS at, DATE '2020-02-29' AS day,
               1e0 / 3 AS ratio, NULL AS nothing, X'cafe' AS bytes,
               'tab\tand "quote"' AS text
        FROM customer""")
    assert (done.returncode, done.stdout) == (0, (
        '{"customers":272,"phone":"XX-XXX-XXX-1004","balance":"1106210.34","rich":true,'
        '"at":"2020-01-02 03:04:05.678 Europe/Paris","day":"2020-02-29",'
        '"ratio":0.3333333333333333,"nothing":null,"bytes":"ca fe",'
        '"text":"tab\\tand \\"quote\\""}\n'
    )), done.stderr
