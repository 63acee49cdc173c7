"""A real Trino 476 secured as an organization's QueryMesh would be, for one run of the suite.

- HTTPS for clients, with a keystore from the run's authority (authority.py); plain HTTP stays
  on for the node's own traffic only (clients cannot authenticate over it).
- Trino's JWT authenticator fed by the sandbox IAM's JWKS, with the IAM's issuer and the
  `querymesh` audience required (https://trino.io/docs/current/security/jwt.html).
- File-based access control with the same rules file the stand-in reads
  (https://trino.io/docs/current/security/file-system-access-control.html), the people's
  groups from a group file (https://trino.io/docs/current/security/group-file.html), and the
  same resource-groups file (https://trino.io/docs/current/admin/resource-groups.html).

It runs from the installation `scripts/trino` keeps (fetched through Maven once), with this
run's configuration and data in a folder of its own.
"""

import json
import pathlib
import secrets
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "trino"


def free_port() -> int:
    """A port nobody listens on now (Trino's configuration needs a number, not port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SecuredTrino:
    def __init__(self, folder: pathlib.Path, *, keystore, realm_url, rules, resource_groups,
                 groups: dict):
        self.etc = folder / "etc"
        self.data = folder / "data"
        self.http_port = free_port()
        self.https_port = free_port()
        self.url = f"https://127.0.0.1:{self.https_port}"
        (self.etc / "catalog").mkdir(parents=True, exist_ok=True)
        self._write(keystore, realm_url, rules, resource_groups, groups)
        self.started = False

    def _write(self, keystore, realm_url, rules, resource_groups, groups):
        etc = self.etc
        (etc / "node.properties").write_text(
            "node.environment=real_trino_suite\n"
            "node.id=zero-sandbox-real-trino-suite\n"
            f"node.data-dir={self.data}\n"
        )
        # Memory and history as scripts/trino's parity instance (sized for 2 cores, 24 GiB).
        (etc / "config.properties").write_text(
            "coordinator=true\n"
            "node-scheduler.include-coordinator=true\n"
            f"http-server.http.port={self.http_port}\n"
            f"discovery.uri=http://127.0.0.1:{self.http_port}\n"
            "node.internal-address=127.0.0.1\n"
            f"internal-communication.shared-secret={secrets.token_urlsafe(32)}\n"
            "http-server.https.enabled=true\n"
            f"http-server.https.port={self.https_port}\n"
            f"http-server.https.keystore.path={keystore}\n"
            "http-server.authentication.type=JWT\n"
            f"http-server.authentication.jwt.key-file={realm_url}/protocol/openid-connect/certs\n"
            f"http-server.authentication.jwt.required-issuer={realm_url}\n"
            "http-server.authentication.jwt.required-audience=querymesh\n"
            "query.max-memory=2GB\n"
            "query.max-memory-per-node=2GB\n"
            "task.concurrency=2\n"
            "query.min-expire-age=5m\n"
            "query.max-history=200\n"
            "query.client.timeout=1m\n"
        )
        (etc / "jvm.config").write_text("\n".join([
            "-server", "-Xmx3G", "-XX:InitialRAMPercentage=2", "-XX:+UseG1GC",
            "-XX:G1HeapRegionSize=32M", "-XX:+ExplicitGCInvokesConcurrent",
            "-XX:+ExitOnOutOfMemoryError", "-XX:-OmitStackTraceInFastThrow",
            "-XX:ReservedCodeCacheSize=256M", "-Djdk.attach.allowAttachSelf=true",
            "-Dfile.encoding=UTF-8", "-XX:+EnableDynamicAgentLoading", "",
        ]))
        (etc / "log.properties").write_text("io.trino=WARN\n")
        (etc / "catalog" / "tpch.properties").write_text("connector.name=tpch\n")
        (etc / "access-control.properties").write_text(
            f"access-control.name=file\nsecurity.config-file={rules}\n"
        )
        (etc / "resource-groups.properties").write_text(
            "resource-groups.configuration-manager=file\n"
            f"resource-groups.config-file={resource_groups}\n"
        )
        # Trino's user is the token's `sub` (the JWT authenticator's default principal field),
        # so groups list subs; rules naming a group see the same people as in the stand-in.
        group_file = etc / "groups.txt"
        group_file.write_text(
            "".join(f"{group}:{','.join(members)}\n" for group, members in sorted(groups.items()))
        )
        (etc / "group-provider.properties").write_text(
            f"group-provider.name=file\nfile.group-file={group_file}\n"
        )

    def start(self):
        """Starts it and waits until it answers (tens of seconds; once per suite)."""
        done = subprocess.run(
            [str(SCRIPT), "start", "--port", str(self.http_port), "--etc", str(self.etc),
             "--data", str(self.data)],
            capture_output=True, text=True, timeout=600,
        )
        if done.returncode != 0:
            # launcher.log holds what the JVM printed before Trino's own logging began (a
            # failed start often ends there); the folder is gone once the suite ends.
            logs = []
            for name in ("launcher.log", "server.log"):
                log = self.data / "var" / "log" / name
                if log.exists():
                    logs.append(f"--- {name}:\n{log.read_text(errors='replace')[-3000:]}")
            raise RuntimeError(
                f"the secured Trino did not start:\n{done.stderr}\n" + "\n".join(logs)
            )
        self.started = True

    def wait_until_queries_run(self, token, ca_file, timeout=120):
        """Until a scan of tpch.tiny.nation runs for `token`: for a few seconds after it says
        it has started, Trino may not list itself among its active nodes yet, and fails every
        query that schedules splits ("nodes is empty", NO_NODES_AVAILABLE). `SELECT 1` needs no
        node and succeeds before that, so it is not proof (CI saw the first tpch query fail
        after it)."""
        context = ssl.create_default_context(cafile=str(ca_file))
        headers = {"Authorization": f"Bearer {token}"}
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                request = urllib.request.Request(f"{self.url}/v1/statement", data=b"SELECT count(*) FROM tpch.tiny.nation",
                                                 headers=headers, method="POST")
                page = json.load(urllib.request.urlopen(request, timeout=10, context=context))
                while page.get("nextUri") and not page.get("error"):
                    request = urllib.request.Request(page["nextUri"], headers=headers)
                    page = json.load(urllib.request.urlopen(request, timeout=10,
                                                            context=context))
                last = page.get("error") or page.get("stats", {}).get("state")
                if last == "FINISHED":
                    return
            except (OSError, ValueError) as error:
                last = error
            time.sleep(0.5)
        raise RuntimeError(f"the secured Trino ran no query within {timeout} s: {last}")

    def stop(self):
        if self.started:
            subprocess.run(
                [str(SCRIPT), "stop", "--etc", str(self.etc), "--data", str(self.data)],
                capture_output=True, timeout=120,
            )
            self.started = False


def main(argv=None):
    """`python3 tests/real_trino/secured_trino.py start|stop`: the suite's secured Trino for a
    running sandbox, by hand (README, "A real Trino behind the broker")."""
    import argparse
    import json
    import sys
    import urllib.request

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
    from authority import Authority

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("command", choices=["start", "stop"])
    parser.add_argument("--sandbox", default="http://127.0.0.1:4001",
                        help="the running sandbox's broker address (its control API gives the "
                             "IAM's realm and the people's groups)")
    parser.add_argument("--rules", default=str(ROOT / "fixtures/querymesh-rules.json"),
                        help="Trino's access-control rules file (the sandbox's access_control)")
    parser.add_argument("--resource-groups", default=str(ROOT / "fixtures/resource-groups.json"))
    parser.add_argument("--dir", default=str(ROOT / "target/trino-secured"),
                        help="its configuration, data and authority")
    args = parser.parse_args(argv)
    folder = pathlib.Path(args.dir).resolve()
    state = folder / "instance.json"
    if args.command == "stop":
        if not state.exists():
            print(f"no secured Trino recorded in {folder}", file=sys.stderr)
            return 1
        saved = json.loads(state.read_text())
        subprocess.run([str(SCRIPT), "stop", "--etc", saved["etc"], "--data", saved["data"]],
                       check=False)
        state.unlink()
        return 0

    def control(path):
        with urllib.request.urlopen(f"{args.sandbox}/sandbox/v1/{path}", timeout=10) as answer:
            return json.load(answer)

    realm_url = control("endpoints")["realm"]
    people = control("people")
    people = people["people"]
    groups = {}
    for person in people:
        for group in person.get("groups", []):
            groups.setdefault(group, []).append(person["sub"])
    authority = Authority(folder / "tls")
    trino = SecuredTrino(folder, keystore=authority.issue("trino"), realm_url=realm_url,
                         rules=pathlib.Path(args.rules).resolve(),
                         resource_groups=pathlib.Path(args.resource_groups).resolve(),
                         groups=groups)
    trino.start()
    state.write_text(json.dumps({"etc": str(trino.etc), "data": str(trino.data)}))
    print(f"Trino 476 on {trino.url} (HTTPS; JWT from {realm_url}). In zero-sandbox.toml:\n\n"
          f"[querymesh]\nurl = \"{trino.url}\"\nca_file = \"{authority.ca_file}\"\n\n"
          f"then restart the sandbox on the same IAM port and state directory; "
          f"`python3 {pathlib.Path(__file__).relative_to(ROOT)} stop --dir {args.dir}` stops it.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
