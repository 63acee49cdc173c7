#!/usr/bin/env python3
"""Writes Trino's own SHOW FUNCTIONS listing, as the pinned release answers it, to the TSV the
stand-in's SHOW FUNCTIONS reads (crates/querymesh-engine/src/sql/statements/show/trino_functions.tsv).

The listing is Trino's metadata about its functions: how it spells each signature (type
variables, spacing, hidden overloads such as approx_distinct(boolean)) and which entries have
no description. The stand-in lists the rows of the functions it has (its registry decides),
so SHOW FUNCTIONS answers as Trino's does; the functions themselves are implemented and typed
by querymesh-functions.

  scripts/trino start
  python3 scripts/trino_function_listing.py [--trino http://127.0.0.1:18476] [--out PATH]
"""
import argparse
import pathlib
import sys
import urllib.parse

import trino

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "crates/querymesh-engine/src/sql/statements/show/trino_functions.tsv"
HEADER = "# Trino {version}'s SHOW FUNCTIONS, written by scripts/trino_function_listing.py; do not edit.\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trino", default="http://127.0.0.1:18476")
    parser.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    url = urllib.parse.urlparse(args.trino)
    conn = trino.dbapi.connect(host=url.hostname, port=url.port, user="listing")
    cur = conn.cursor()
    cur.execute("SELECT node_version FROM system.runtime.nodes")
    version = cur.fetchall()[0][0]
    cur.execute("SHOW FUNCTIONS")
    rows = cur.fetchall()
    lines = [HEADER.format(version=version)]
    for name, returns, arguments, kind, deterministic, description in rows:
        fields = [name, returns, arguments, kind, "true" if deterministic else "false", description]
        if any("\t" in f or "\n" in f for f in fields):
            print(f"a field of {name} holds a tab or a newline", file=sys.stderr)
            return 1
        lines.append("\t".join(fields) + "\n")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(lines))
    print(f"{len(rows)} rows of Trino {version} written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
