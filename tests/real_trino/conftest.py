"""One suite, two targets: the broker (and Trino's own clients) against the QueryMesh stand-in
and against a real Trino 476 secured as an organization's would be. Every test runs against
both, so a difference between them is a failing test.

    python3 -m pytest tests/real_trino              # both targets (`just real-trino`)
    python3 -m pytest tests/real_trino -k stand-in  # the stand-in alone: no Trino started
    python3 -m pytest tests/real_trino -k "stand-in and broker"  # no Java at all

Per target, one sandbox (session-scoped) whose `[querymesh] url` is the test's front
(front.py: HTTPS with this run's authority, forwarding to the target), with the suite's people,
the rules file (rules.json) and the resource-groups file (resource-groups.json) that the
stand-in and the real Trino both read. Each test signs its own sessions in and ends them.
"""

import pathlib
import shutil
import tempfile

import pytest

from authority import Authority
from front import FAULT_ADDRESS_LEAK, FAULT_BUSY, Front
from sandbox import Sandbox, write_config
from secured_trino import SecuredTrino

HERE = pathlib.Path(__file__).resolve().parent
RULES = HERE / "rules.json"
RESOURCE_GROUPS = HERE / "resource-groups.json"

# The suite's people: each refusal under test has a person of its own, so no test changes what
# another sees. Subs are fixed because rules.json and resource-groups.json name them.
PEOPLE = [
    {"sub": "e1e1e1e1-0000-4000-8000-000000000001", "preferred_username": "ada",
     "name": "Ada Lovelace", "email": "ada@acme.example", "email_verified": True,
     "groups": ["analysts"]},
    {"sub": "e1e1e1e1-0000-4000-8000-000000000002", "preferred_username": "dana",
     "name": "Dana (row filter and mask)", "groups": ["demo-restricted"]},
    {"sub": "e1e1e1e1-0000-4000-8000-000000000005", "preferred_username": "erin",
     "name": "Erin (no orders)", "groups": []},
    {"sub": "e1e1e1e1-0000-4000-8000-000000000006", "preferred_username": "quinn",
     "name": "Quinn (resource group closed)", "groups": []},
    {"sub": "e1e1e1e1-0000-4000-8000-000000000007", "preferred_username": "nora",
     "name": "Nora (front leaks Trino's address)", "groups": []},
    {"sub": "e1e1e1e1-0000-4000-8000-000000000008", "preferred_username": "bea",
     "name": "Bea (front busy)", "groups": []},
]
FAULTS = {"nora": FAULT_ADDRESS_LEAK, "bea": FAULT_BUSY}
TARGETS = ["stand-in", "trino"]


def groups_of(people):
    groups = {}
    for person in people:
        for group in person["groups"]:
            groups.setdefault(group, []).append(person["sub"])
    return groups


class Target:
    """What a test needs of one target.

    - `sandbox`: the app's sandbox; its broker queries the target through `front`.
    - `querymesh_url` and `ca_file`: the target's own HTTPS address and what to trust there,
      for Trino's clients (JDBC, CLI) pointed straight at it.
    """

    def __init__(self, name, folder: pathlib.Path):
        self.name = name
        self.folder = folder
        self.trino = None
        self.authority = Authority(folder / "tls")
        self.front = Front(self.authority.issue("front"), FAULTS)
        self.sandbox = None
        self.extra = []

    def start(self):
        self.sandbox = self.start_sandbox(url=self.front.url)
        if self.name == "trino":
            self.trino = SecuredTrino(
                self.folder / "trino", keystore=self.authority.issue("trino"),
                realm_url=self.sandbox.realm_url, rules=RULES,
                resource_groups=RESOURCE_GROUPS, groups=groups_of(PEOPLE),
            )
            self.trino.start()
            self.trino.wait_until_queries_run(self.token("ada"), self.authority.ca_file)
            self.querymesh_url = self.trino.url
            self.ca_file = self.authority.ca_file
            self.front.point_at(self.trino.url, self.authority.ca_file)
        else:
            # The stand-in's port serves TLS with the authority kept in the state directory.
            self.querymesh_url = self.sandbox.ready["querymesh"].replace("http://", "https://")
            self.ca_file = self.folder / "state" / "querymesh-ca.pem"
            self.front.point_at(self.sandbox.ready["querymesh"])

    def start_sandbox(self, url, **querymesh):
        """A sandbox of this target's people and policies whose broker queries `url`."""
        index = len(self.extra)
        config = write_config(
            self.folder / f"zero-sandbox-{index}.toml",
            {"url": url, "ca_file": str(self.authority.ca_file), "access_control": str(RULES),
             "resource_groups": str(RESOURCE_GROUPS), **querymesh},
            PEOPLE,
        )
        sandbox = Sandbox(config, state=self.folder / ("state" if index == 0 else f"state-{index}"))
        self.extra.append(sandbox)
        return sandbox

    def session(self, person):
        """A signed-in session of `person`: the control API's answer (sid, sub, identity…)."""
        status, session = self.sandbox.control("POST", "sessions", {"person": person})
        assert status == 201, session
        return session

    def end(self, session):
        status, answer = self.sandbox.control("DELETE", f"sessions/{session['sid']}")
        assert status in (200, 204, 404), answer

    def token(self, person) -> str:
        """A QueryMesh access token of `person`, as a Trino client pointed at QueryMesh uses."""
        status, token = self.sandbox.control("POST", "querymesh-tokens", {"person": person})
        assert status == 200, token
        return token["access_token"]

    def stop(self):
        for sandbox in self.extra:
            sandbox.stop()
        if self.trino:
            self.trino.stop()
        self.front.close()


@pytest.fixture(scope="session", params=TARGETS)
def target(request):
    folder = pathlib.Path(tempfile.mkdtemp(prefix=f"zs-real-trino-{request.param}-"))
    target = Target(request.param, folder)
    try:
        target.start()
        yield target
    finally:
        target.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def signed_in(target):
    """`signed_in("ada")`: a session for this test, ended after it."""
    sessions = []

    def sign_in(person):
        session = target.session(person)
        sessions.append(session)
        return session

    yield sign_in
    for session in sessions:
        target.end(session)
