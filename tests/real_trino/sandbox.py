"""Starting the sandbox binary for the suite: a configuration file of the run's own, every port
0, the ready line read from stdout (the recipes start it the same way)."""

import json
import os
import pathlib
import queue
import subprocess
import tempfile
import threading
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
READY_DEADLINE_S = 30


def find_binary() -> str:
    """$ZERO_SANDBOX, else the debug build, else the release build."""
    if os.environ.get("ZERO_SANDBOX"):
        return os.environ["ZERO_SANDBOX"]
    for profile in ("debug", "release"):
        build = ROOT / "target" / profile / "zero-sandbox"
        if build.is_file():
            return str(build)
    raise FileNotFoundError("no zero-sandbox binary in target/debug or target/release: run "
                            "`cargo build`, or set ZERO_SANDBOX to the binary")


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(str(value))  # a TOML basic string is a JSON string


def write_config(path: pathlib.Path, querymesh: dict, people: list) -> pathlib.Path:
    lines = ["[querymesh]"]
    lines += [f"{key} = {toml_value(value)}" for key, value in querymesh.items()]
    for person in people:
        lines += ["", "[[people]]"]
        lines += [f"{key} = {toml_value(value)}" for key, value in person.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


class Sandbox:
    """One `zero-sandbox up` process; `ready` is its ready line."""

    def __init__(self, config: pathlib.Path, state: pathlib.Path):
        self.log = tempfile.TemporaryFile()  # a pipe nobody reads would fill and stall it
        self.process = subprocess.Popen(
            [find_binary(), "up", "--ready-json", "--no-open", "--state", str(state),
             "--config", str(config), "--edge-port", "0", "--broker-port", "0",
             "--iam-port", "0", "--querymesh-port", "0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log,
        )
        lines = queue.Queue()

        def read_stdout():
            for line in self.process.stdout:
                lines.put(line)
            lines.put(b"")

        threading.Thread(target=read_stdout, daemon=True).start()
        try:
            line = lines.get(timeout=READY_DEADLINE_S)
        except queue.Empty:
            line = b""
        if not line:
            self.stop()
            raise RuntimeError(f"zero-sandbox did not get ready: {self.log_text()[-3000:]}")
        self.ready = json.loads(line)
        self.broker = self.ready["broker"]
        self.control_url = self.ready["control"]
        self.realm_url = self.ready["iam"] + "/realms/acme"

    def log_text(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def control(self, method, path, body=None):
        """One call to the test-control API: (status, JSON answer)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.control_url}/{path}", data=data, method=method,
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                text = answer.read()
                return answer.status, json.loads(text) if text else None
        except urllib.error.HTTPError as refusal:
            text = refusal.read()
            return refusal.code, json.loads(text) if text else None

    def query(self, identity, sql, max_rows=None, timeout=120):
        """POST /v1/querymesh/query as an app does: (status, JSON answer)."""
        body = {"sql": sql}
        if max_rows is not None:
            body["max_rows"] = max_rows
        headers = {"Content-Type": "application/json"}
        if identity is not None:
            headers["X-NNumbers-Identity"] = identity
        request = urllib.request.Request(f"{self.broker}/v1/querymesh/query",
                                         data=json.dumps(body).encode(), method="POST",
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as refusal:
            return refusal.code, json.load(refusal)
