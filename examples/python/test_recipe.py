"""An app's tests against the sandbox: signed in, an injected refusal, a rotated key."""

import concurrent.futures
import urllib.error
import urllib.request

from conftest import control


def get(url, cookie=None, identity=None):
    """(status, body) of a GET."""
    headers = {}
    if cookie:
        headers["Cookie"] = cookie
    if identity:
        headers["X-NNumbers-Identity"] = identity
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refusal:
        return refusal.code, refusal.read().decode()


def regions(sandbox, person=None):
    return get(f"{sandbox['edge']}/regions", cookie=person and person["cookie"])


def test_a_signed_in_person_gets_their_data(sandbox, person):
    assert regions(sandbox, person) == (200, '{"regions": 5}')


def test_without_a_session_the_app_sees_nobody(sandbox):
    assert regions(sandbox)[0] == 401


def test_the_app_refuses_an_identity_that_does_not_check_out(sandbox, person):
    # Straight at the app, past the edge (the spec warns such paths exist).
    head, payload, signature = person["identity"].split(".")
    forged = f"{head}.{payload}.{signature[:-4]}AAAA"
    status, body = get(f"{sandbox['app'].url}/regions", identity=forged)
    assert (status, body) == (401, "not a person: bad signature")


def test_an_unavailable_querymesh_asks_the_person_to_try_again(sandbox, person):
    status, fault = control(sandbox, "POST", "faults", {
        "code": "QUERYMESH_UNAVAILABLE", "times": 1, "scope": {"sid": person["sid"]},
    })
    assert status == 201, fault
    assert regions(sandbox, person) == (503, "try again in a moment")
    assert regions(sandbox, person)[0] == 200, "the fault applied once"


def test_a_rotated_key_sends_the_app_to_the_jwks(sandbox, person):
    app = sandbox["app"]
    fetches = app.jwks_fetches
    status, keys = control(sandbox, "POST", "keys/rotate", {})
    assert status == 200, keys
    assert keys["current"] not in app.keys  # not in the environment the app started with
    assert regions(sandbox, person) == (200, '{"regions": 5}')
    assert app.jwks_fetches == fetches + 1
    assert regions(sandbox, person)[0] == 200
    assert app.jwks_fetches == fetches + 1, "the keys are kept, not fetched on every request"


def test_a_fault_scoped_to_one_session_leaves_another_alone(sandbox, person):
    # Two sessions calling at once against one sandbox, as two parallel tests would.
    status, other = control(sandbox, "POST", "sessions", {"person": "ada"})
    assert status == 201, other
    try:
        status, fault = control(sandbox, "POST", "faults", {
            "code": "QUERYMESH_UNAVAILABLE", "times": 1000, "scope": {"sid": person["sid"]},
        })
        assert status == 201, fault
        mine = {"cookie": person["cookie"]}
        theirs = {"cookie": other["cookie"]["header"]}

        # One call at a time per session: the broker lets one person run 4 queries at once,
        # and both sessions are ada's, so more in flight would be refused by that limit.
        def calls(who):
            return [regions(sandbox, who)[0] for _ in range(8)]

        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(calls, [mine, theirs]))
        assert answers == [[503] * 8, [200] * 8]
    finally:
        control(sandbox, "POST", f"reset?sid={other['sid']}")
