"""pytest fixtures for testing an app against zero-sandbox.

    cd examples/python && python3 -m pytest -n 2

`sandbox` is session-scoped: under pytest-xdist a session-scoped fixture lives once per worker
process, so each worker starts its own app and its own sandbox (starting one takes
milliseconds), and no worker's keys rotation or reset can reach another's. Within one sandbox,
`person` signs a fresh session in for each test and resets only that session (`reset?sid=`)
afterwards, so tests sharing a sandbox stay apart too.

The binary is $ZERO_SANDBOX, else target/debug/zero-sandbox of this repository, else
target/release/zero-sandbox (`find_binary`).
"""

import json
import os
import pathlib
import queue
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request

import pytest

from app import App

REPO = pathlib.Path(__file__).resolve().parents[2]
READY_DEADLINE_S = 30


def control(sandbox, method, path, body=None):
    """One call to the test-control API: (status, JSON answer)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{sandbox['control']}/{path}",
        data=data,
        method=method,
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refusal:
        return refusal.code, json.load(refusal)


def find_binary(env=os.environ, repo=REPO):
    """$ZERO_SANDBOX, else the debug build, else the release build; an error saying what to
    build when there is none."""
    if env.get("ZERO_SANDBOX"):
        return env["ZERO_SANDBOX"]
    builds = [repo / "target" / profile / "zero-sandbox" for profile in ("debug", "release")]
    for build in builds:
        if build.is_file():
            return str(build)
    raise FileNotFoundError(
        f"no zero-sandbox binary at {builds[0]} or {builds[1]}: run `cargo build` "
        "(or `cargo build --release`) in the repository, or set ZERO_SANDBOX to the binary"
    )


def start_sandbox(app_url):
    """Starts the binary on ephemeral ports in front of `app_url`; (process, ready line)."""
    binary = find_binary()
    # Logs go to a file: a pipe nobody reads would fill and stall the sandbox.
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        [binary, "up", "--ready-json", "--ephemeral", "--no-open", "--app", app_url,
         "--edge-port", "0", "--broker-port", "0", "--iam-port", "0", "--querymesh-port", "0"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log,
    )
    lines = queue.Queue()

    def read_stdout():  # the ready line, then drain whatever follows
        for line in process.stdout:
            lines.put(line)
        lines.put(b"")

    threading.Thread(target=read_stdout, daemon=True).start()
    try:
        line = lines.get(timeout=READY_DEADLINE_S)
    except queue.Empty:
        line = None
    if not line:
        process.kill()
        process.wait()
        log.seek(0)
        raise RuntimeError(f"zero-sandbox did not get ready: {log.read().decode()[-2000:]}")
    ready = json.loads(line)
    assert ready["event"] == "ready"
    return process, ready


@pytest.fixture(scope="session")
def sandbox():
    """The app, the sandbox in front of it: {edge, control, env, app}."""
    app = App()  # the app's port first: the sandbox's edge forwards to it
    process, ready = start_sandbox(app.url)
    app.configure(ready["env"])  # then the app gets the sandbox's environment
    yield {"edge": ready["edge"], "control": ready["control"], "env": ready["env"], "app": app}
    process.terminate()  # SIGTERM: the sandbox stops within a second
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    app.close()


@pytest.fixture
def person(sandbox):
    """A signed-in platform session for this test: {cookie, sid, sub, identity}."""
    status, session = control(sandbox, "POST", "sessions", {"person": "ada"})
    assert status == 201, session
    yield {
        "cookie": session["cookie"]["header"],
        "sid": session["sid"],
        "sub": session["sub"],
        "identity": session["identity"],
    }
    # Only what this test's session owns: its session and its faults.
    status, answer = control(sandbox, "POST", f"reset?sid={session['sid']}")
    assert status == 200, answer
