#!/usr/bin/env python3
"""Load QueryMesh straight over its Trino protocol and watch the process's memory.

Starts a zero-sandbox binary on its own ports and state directory, then runs CLIENTS threads
that each POST mixed statements to /v1/statement and follow nextUri to the end, sampling the
process's VmRSS every few seconds; then leaves it idle and samples again. A diagnostic for the
memory budgets and the connection pool, not a test: it is not run in CI.

    scripts/querymesh_load.py --binary target/release/zero-sandbox --clients 30 --rounds 5

Standard library only.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

USER = "3c0e8f1a-7d2b-4b6e-9f41-2a5c8d7e6b01"  # ada's sub

# A mix of what apps send: small lookups with varying literals (new plans and statements),
# scans, joins, sorts and aggregations over tpch.tiny.
QUERIES = [
    "SELECT name, regionkey FROM nation ORDER BY nationkey",
    "SELECT * FROM orders WHERE orderkey = {n}",
    "SELECT count(*), sum(extendedprice) FROM lineitem WHERE partkey = {p}",
    "SELECT returnflag, linestatus, sum(quantity), avg(discount), count(*) FROM lineitem GROUP BY returnflag, linestatus ORDER BY 1, 2",
    "SELECT c.name, sum(o.totalprice) FROM customer c JOIN orders o ON o.custkey = c.custkey WHERE c.nationkey = {k} GROUP BY c.name ORDER BY 2 DESC LIMIT 10",
    "SELECT comment FROM lineitem ORDER BY comment LIMIT 20",
    "SELECT lpad(name, 50, '*'), upper(comment) FROM part WHERE size = {s}",
    "SELECT DISTINCT shipmode FROM lineitem",
]


def rss_kb(pid, field="VmRSS"):
    """VmRSS now, or VmHWM: the peak, what /usr/bin/time -v reports as maximum resident set."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


def run_query(base, token, sql):
    request = urllib.request.Request(
        f"{base}/v1/statement",
        data=sql.encode(),
        method="POST",
        headers={
            "Authorization": f"Bearer {token}",
            "X-Trino-User": USER,
            "X-Trino-Catalog": "tpch",
            "X-Trino-Schema": "tiny",
        },
    )
    page = json.load(urllib.request.urlopen(request, timeout=60))
    while "nextUri" in page:
        page = json.load(urllib.request.urlopen(page["nextUri"], timeout=60))
    return page.get("error")


def rss(pid):
    """VmRSS, and of it RssAnon (heap: what a leak grows; the rest is mapped files)."""
    return f"rss {rss_kb(pid) / 1024:.1f} MB (anon {rss_kb(pid, 'RssAnon') / 1024:.1f} MB)"


def statement(rng):
    return rng.choice(QUERIES).format(
        n=rng.randint(1, 60000), p=rng.randint(1, 2000), k=rng.randint(0, 24), s=rng.randint(1, 50)
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--clients", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5, help="rounds of --per-round queries")
    parser.add_argument("--per-round", type=int, default=1000)
    parser.add_argument("--idle-secs", type=int, default=20)
    parser.add_argument("--sql", help="run only this statement, --clients at once, once each")
    parser.add_argument("--port-base", type=int, default=14100)
    parser.add_argument("--toml", default="", help="more configuration, e.g. '[querymesh]\\nquery_time_limit_secs = 600'")
    args = parser.parse_args()

    state = tempfile.mkdtemp(prefix="zs-load-")
    config = os.path.join(state, "load.toml")
    b = args.port_base
    with open(config, "w") as f:
        f.write(f"[ports]\nedge = {b}\nbroker = {b + 1}\niam = {b + 2}\nquerymesh = {b + 3}\n")
        f.write(args.toml.replace("\\n", "\n") + "\n")
    common = ["--config", config, "--state", state]
    proc = subprocess.Popen(
        [args.binary, "up", "--ready-json", "--no-open", *common],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        ready = json.loads(proc.stdout.readline())
        base = ready["querymesh"]
        token = subprocess.check_output(
            [args.binary, "token", "--as", "ada", "--querymesh", *common], text=True
        ).strip()
        print(f"ready: {rss(proc.pid)}", flush=True)
        if args.sql:
            errors = []
            threads = [
                threading.Thread(target=lambda: errors.append(run_query(base, token, args.sql)))
                for _ in range(args.clients)
            ]
            started = time.time()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            print(
                f"{args.clients} x {args.sql!r}: {time.time() - started:.2f}s, "
                f"peak rss (VmHWM) {rss_kb(proc.pid, 'VmHWM') / 1024:.1f} MB, "
                f"after: {rss(proc.pid)}"
            )
            for e in errors:
                print("  ", e and f"{e['errorName']}: {e['message']}")
            return
        for r in range(args.rounds):
            remaining = [args.per_round]
            lock = threading.Lock()
            failures = []

            def client(seed):
                rng = random.Random(seed)
                while True:
                    with lock:
                        if remaining[0] == 0:
                            return
                        remaining[0] -= 1
                    error = run_query(base, token, statement(rng))
                    if error:
                        failures.append(error["errorName"])

            threads = [threading.Thread(target=client, args=(r * 1000 + i,)) for i in range(args.clients)]
            started = time.time()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            print(
                f"round {r + 1}: {args.per_round} queries in {time.time() - started:.1f}s, "
                f"{len(failures)} failed, {rss(proc.pid)}",
                flush=True,
            )
        for s in range(0, args.idle_secs, 5):
            time.sleep(5)
            print(f"idle {s + 5}s: {rss(proc.pid)}", flush=True)
    finally:
        proc.terminate()
        proc.wait()


if __name__ == "__main__":
    sys.exit(main())
