#!/usr/bin/env python3
"""The parity suite: every statement of tests/parity/corpus against the stand-in and a real
Trino, over the Trino client protocol, compared (tests/parity/README.md says how to run it).

    scripts/parity.py                 run, rewrite tests/parity/record.json and docs/parity.md
    scripts/parity.py --check         run, and fail if a statement the record passed fails now

Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from parity_suite import corpus, differences, report  # noqa: E402
from parity_suite.compare import compare  # noqa: E402
from parity_suite.protocol import Answer, Client  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PARITY_USER = "parity"
# Tokens for QueryMesh last an hour (DIRECT_QUERYMESH_TOKEN_LIFETIME_SECS): take a new one
# well before.
TOKEN_REFRESH_SECS = 30 * 60


class ParityError(Exception):
    """Something the run cannot go on without; its message says what and how to fix it."""


def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed record; exit 1 if a statement that "
                             "passed there fails now (writes nothing); runs only the statements "
                             "that could fail it: recorded passes and new ones")
    parser.add_argument("--all", action="store_true",
                        help="with --check, run the statements recorded as failing too")
    parser.add_argument("--binary", default=str(ROOT / "target/release/zero-sandbox"),
                        help="the stand-in to start (default: target/release/zero-sandbox)")
    parser.add_argument("--trino", help="Trino's URL (default: what `scripts/trino url` prints)")
    parser.add_argument("--start-trino", action="store_true",
                        help="start a Trino of our own with `scripts/trino start` on a free "
                             "port (timing its start-up), and stop it at the end")
    parser.add_argument("--config", default=str(ROOT / "tests/parity/zero-sandbox.toml"),
                        help="the stand-in's configuration (default: tests/parity/zero-sandbox.toml)")
    parser.add_argument("--corpus", default=str(ROOT / "tests/parity/corpus"))
    parser.add_argument("--record", default=str(ROOT / "tests/parity/record.json"))
    parser.add_argument("--docs", default=str(ROOT / "docs/parity.md"))
    parser.add_argument("--differences", default=str(ROOT / "tests/parity/differences.toml"),
                        help="the differences kept on purpose, each with its reason "
                             "(default: tests/parity/differences.toml)")
    parser.add_argument("--family", action="append",
                        help="run only this family (repeatable); nothing is written")
    parser.add_argument("--failures", action="store_true",
                        help="print every statement that does not pass, both answers beside it")
    parser.add_argument("--concurrency", type=int, default=3,
                        help="statements in flight per side (default 3)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds per statement per side (default 60)")
    parser.add_argument("--startup-timeout", type=float, default=120.0)
    parsed = parser.parse_args(argv)
    if not 1 <= parsed.concurrency <= 16:
        parser.error("--concurrency must be from 1 to 16")
    if parsed.timeout <= 0:
        parser.error("--timeout must be positive")
    return parsed


# --- Trino ---------------------------------------------------------------------------------

def trino_info(url: str) -> dict:
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/v1/info", timeout=10) as response:
            return json.loads(response.read())
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise ParityError(f"Trino does not answer at {url} ({error}): start it with "
                          f"`scripts/trino start`, or pass --trino URL / --start-trino") from error


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class OwnTrino:
    """A Trino this run starts with scripts/trino and stops at the end."""

    def __init__(self) -> None:
        self.dir = ROOT / "target/trino-parity"
        self.port = free_port()
        self.url = ""
        self.startup = 0.0

    def start(self) -> None:
        started = time.monotonic()
        done = subprocess.run(
            [str(ROOT / "scripts/trino"), "start", "--port", str(self.port), "--dir", str(self.dir)],
            capture_output=True, text=True,
        )
        self.startup = time.monotonic() - started
        if done.returncode != 0:
            raise ParityError(f"scripts/trino start failed:\n{done.stderr.strip()}")
        self.url = done.stdout.strip().splitlines()[-1]

    def stop(self) -> None:
        subprocess.run([str(ROOT / "scripts/trino"), "stop", "--dir", str(self.dir)],
                       capture_output=True)


def trino_url_from_script() -> str:
    done = subprocess.run([str(ROOT / "scripts/trino"), "url"], capture_output=True, text=True)
    if done.returncode != 0:
        raise ParityError("no Trino is running (`scripts/trino url` found none): start one with "
                          "`scripts/trino start`, or pass --trino URL or --start-trino")
    return done.stdout.strip()


def recorded_trino_startup() -> float | None:
    """What `scripts/trino start` measured when it started the Trino in target/trino."""
    try:
        directory = Path(os.environ.get("TRINO_DIR") or ROOT / "target/trino")
        return float((directory / "startup-seconds").read_text().strip())
    except (OSError, ValueError):
        return None


# --- the stand-in --------------------------------------------------------------------------

class StandIn:
    """`zero-sandbox up --ready-json --ephemeral` on port 0, as the parity person."""

    def __init__(self, binary: str, config: str) -> None:
        self.binary = binary
        self.config = config
        self.process: subprocess.Popen | None = None
        self.ready: dict = {}
        self.startup = 0.0
        self.token = ""
        self.token_at = 0.0
        self.lock = threading.Lock()
        self.logs = tempfile.TemporaryFile()

    def start(self, timeout: float) -> None:
        if not os.access(self.binary, os.X_OK):
            raise ParityError(f"no stand-in binary at {self.binary}: build it "
                              f"(`cargo build --release`) or pass --binary PATH")
        command = [self.binary, "up", "--ready-json", "--ephemeral", "--no-open",
                   "--config", self.config, "--edge-port", "0", "--broker-port", "0",
                   "--iam-port", "0", "--querymesh-port", "0"]
        started = time.monotonic()
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.logs,
                                        stdin=subprocess.DEVNULL, cwd=ROOT)
        line: list[bytes] = []
        reader = threading.Thread(target=lambda: line.append(self.process.stdout.readline()),
                                  daemon=True)
        reader.start()
        reader.join(timeout)
        self.startup = time.monotonic() - started
        if not line or not line[0].strip():
            self.stop()
            raise ParityError(f"the stand-in gave no ready line within {timeout:g} s:\n"
                              f"{self.log_tail()}")
        try:
            self.ready = json.loads(line[0])
        except ValueError as error:
            self.stop()
            raise ParityError(f"the stand-in's ready line is not JSON: {line[0][:200]!r}") from error
        self.access_token()

    def access_token(self) -> str:
        """The parity person's QueryMesh token from the control API, renewed before it ends."""
        with self.lock:
            if self.token and time.monotonic() - self.token_at < TOKEN_REFRESH_SECS:
                return self.token
            request = urllib.request.Request(
                f"{self.ready['control']}/querymesh-tokens",
                data=json.dumps({"person": PARITY_USER}).encode(),
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    answer = json.loads(response.read())
            except (urllib.error.URLError, OSError, ValueError) as error:
                raise ParityError(f"no QueryMesh token from the control API: {error}") from error
            if answer.get("user") != PARITY_USER:
                raise ParityError(f"the token is for {answer.get('user')!r}, not {PARITY_USER!r}: "
                                  f"the config must have a person with sub {PARITY_USER!r}")
            self.token, self.token_at = answer["access_token"], time.monotonic()
            return self.token

    def log_tail(self) -> str:
        self.logs.seek(0)
        return self.logs.read()[-2000:].decode("utf-8", "replace")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def git_commit() -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"],
                          capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True)
    commit = done.stdout.strip() or "unknown"
    return commit + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


# --- the run -------------------------------------------------------------------------------

def run_side(client: Client, statements: list, concurrency: int, timeout: float,
             label: str) -> dict[str, Answer]:
    answers: dict[str, Answer] = {}
    done = [0]
    lock = threading.Lock()

    def one(statement) -> None:
        answer = client.run(statement.sql, timeout)
        with lock:
            answers[statement.id] = answer
            done[0] += 1
            if done[0] % 250 == 0 or done[0] == len(statements):
                print(f"parity: {label}: {done[0]}/{len(statements)}", file=sys.stderr)

    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(one, statements))
    return answers


def main(argv: list[str]) -> int:
    args = arguments(argv)
    try:
        statements = corpus.load(Path(args.corpus), set(args.family) if args.family else None)
    except corpus.CorpusError as error:
        print(f"parity: {error}", file=sys.stderr)
        return 2
    try:
        all_ids = ({s.id for s in statements} if not args.family
                   else {s.id for s in corpus.load(Path(args.corpus))})
        kept = differences.load(Path(args.differences), all_ids)
    except (corpus.CorpusError, differences.DifferencesError) as error:
        print(f"parity: {error}", file=sys.stderr)
        return 2
    record_path = Path(args.record)
    try:
        record = report.load_record(record_path)
    except ValueError as error:
        print(f"parity: {error}", file=sys.stderr)
        return 2
    skipped = set()
    if args.check and not args.all:
        # The ratchet fails only on a recorded pass that fails now: the statements recorded as
        # failing cannot change its verdict, so CI spares Trino their ~18 % of the run.
        skipped = {s.id for s in statements if record.get(s.id, {}).get("passed") is False}
        statements = [s for s in statements if s.id not in skipped]
        print(f"parity: {len(skipped)} statements recorded as failing are not run "
              "(--all runs them; `just parity` always does)", file=sys.stderr)
    own_trino = OwnTrino() if args.start_trino else None
    standin = StandIn(args.binary, args.config)
    started_wall = time.monotonic()
    try:
        if own_trino:
            own_trino.start()
            trino_url, trino_startup = own_trino.url, own_trino.startup
            trino_note = "`scripts/trino start`, measured by this run"
        else:
            trino_url = args.trino or trino_url_from_script()
            trino_startup = recorded_trino_startup()
            trino_note = ("`scripts/trino start`'s own measure"
                          if trino_startup is not None else "not measured (already running)")
        version = str(trino_info(trino_url).get("nodeVersion", {}).get("version", "unknown"))
        standin.start(args.startup_timeout)
        started_utc = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        print(f"parity: {len(statements)} statements; stand-in ready in {standin.startup:.2f} s; "
              f"Trino {version} at {trino_url}", file=sys.stderr)
        sides = [
            ("stand-in", Client(standin.ready["querymesh"], PARITY_USER, standin.access_token)),
            ("trino", Client(trino_url, PARITY_USER)),
        ]
        with ThreadPoolExecutor(2) as both:
            futures = [both.submit(run_side, client, statements, args.concurrency, args.timeout,
                                   label) for label, client in sides]
            standin_answers, trino_answers = (f.result() for f in futures)
        # A full run also sets the two function lists side by side (docs/parity.md says
        # which of Trino's functions the stand-in lacks).
        functions = None
        if not args.check and not args.family:
            functions = tuple(client.run("SHOW FUNCTIONS", args.timeout) for _, client in sides)
    except ParityError as error:
        print(f"parity: {error}", file=sys.stderr)
        return 2
    finally:
        standin.stop()
        if own_trino:
            own_trino.stop()
    seconds = time.monotonic() - started_wall
    outcomes = []
    for statement in statements:
        a, b = standin_answers[statement.id], trino_answers[statement.id]
        passed, why = compare(statement.sql, a, b)
        outcomes.append(report.Outcome(statement, a, b, passed, why))
    passed = sum(o.passed for o in outcomes)
    print(f"parity: {passed}/{len(outcomes)} statements pass in {seconds:.0f} s", file=sys.stderr)
    for family, count, ok, median in report.family_rows(outcomes):
        print(f"  {family:40} {ok:5}/{count:<5} ratio {report.fmt_ratio(median)}", file=sys.stderr)

    change = report.ratchet(record, outcomes, partial=bool(args.family), skipped=skipped)
    print(f"parity: against {record_path.name}: {len(change.regressions)} regressions, "
          f"{len(change.improvements)} newly passing, {len(change.new)} new, "
          f"{len(change.removed)} removed", file=sys.stderr)
    for key, statement_id in differences.stale(kept, {o.statement.id: o.passed for o in outcomes}):
        print(f"parity: {statement_id} passes now: remove it from {key!r} in "
              f"{os.path.relpath(args.differences, ROOT)}", file=sys.stderr)
    by_id = {o.statement.id: o for o in outcomes}
    for statement_id in change.regressions:
        o = by_id[statement_id]
        print(f"REGRESSION {statement_id} ({o.why}): {report.cut(o.statement.sql, 200)}\n"
              f"    stand-in: {report.cut(report.describe(o.standin), 300)}\n"
              f"    Trino:    {report.cut(report.describe(o.trino), 300)}", file=sys.stderr)
    if args.failures:
        explained = differences.by_statement(kept)
        for o in outcomes:
            if not o.passed:
                kept_for = explained.get(o.statement.id)
                note = f"; kept: {kept_for.key}" if kept_for else ""
                print(f"FAIL {o.statement.id} ({o.why}{note}): "
                      f"{report.cut(o.statement.sql, 300)}\n"
                      f"    stand-in: {report.cut(report.describe(o.standin), 400)}\n"
                      f"    Trino:    {report.cut(report.describe(o.trino), 400)}")
    if args.check:
        return 1 if change.regressions else 0
    if args.family:
        print("parity: only some families ran: record and docs left as they were", file=sys.stderr)
        return 0
    info = report.RunInfo(
        trino_version=version, started_utc=started_utc,
        standin_binary=os.path.relpath(args.binary, ROOT), standin_commit=git_commit(),
        standin_startup=standin.startup, trino_startup=trino_startup, trino_startup_note=trino_note,
        seconds=seconds, concurrency=args.concurrency, timeout=args.timeout,
        missing_functions=report.missing_functions(*functions) if functions else None,
        differences=kept,
    )
    record_path.write_text(report.record_text(outcomes), encoding="utf-8")
    Path(args.docs).write_text(report.docs_text(outcomes, info), encoding="utf-8")
    print(f"parity: wrote {record_path} and {args.docs}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
