"""The app under test: a tiny HTTP app in the standard library that does what the runtime
protocol asks of an app in another language. It verifies the ES256 identity in
X-NNumbers-Identity (the standard library has no elliptic curves, so `cryptography` checks the
signature), fetches {NNUMBERS_BROKER_URL}/v1/jwks when an unknown kid arrives, and asks the
broker how many regions there are.

`GET /regions`: 401 without a valid identity, 200 {"regions": n}, 503 "try again in a moment"
when the broker answers QUERYMESH_UNAVAILABLE, 502 for any other refusal.
"""

import base64
import json
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

CLOCK_TOLERANCE_S = 60  # the spec's check 5


class NotAPerson(Exception):
    """An identity that does not check out: refuse it, never treat it as a person."""


class UnknownKid(NotAPerson):
    pass


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_keys(jwks):
    """kid -> public key, for the P-256 signing keys of a JWKS."""
    keys = {}
    for jwk in jwks.get("keys", []):
        if jwk.get("kty") != "EC" or jwk.get("crv") != "P-256" or "kid" not in jwk:
            continue
        numbers = ec.EllipticCurvePublicNumbers(
            int.from_bytes(b64url(jwk["x"]), "big"),
            int.from_bytes(b64url(jwk["y"]), "big"),
            ec.SECP256R1(),
        )
        keys[jwk["kid"]] = numbers.public_key()  # raises ValueError off the curve
    return keys


def verify_identity(token, keys, env, now):
    """The spec's five checks; returns the claims or raises NotAPerson."""
    try:
        header_b64, payload_b64, signature_b64 = token.split(".")
        header = json.loads(b64url(header_b64))
        signature = b64url(signature_b64)
    except ValueError as why:
        raise NotAPerson(f"not a compact JWS: {why}") from None
    if header.get("alg") != "ES256" or header.get("typ") != "nn-identity+jwt":
        raise NotAPerson("not an ES256 nn-identity+jwt")
    key = keys.get(header.get("kid"))
    if key is None:
        raise UnknownKid("unknown kid")
    if len(signature) != 64:  # JWS carries r || s, 32 bytes each (RFC 7518 section 3.4)
        raise NotAPerson("bad signature")
    der = encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    try:
        key.verify(der, f"{header_b64}.{payload_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise NotAPerson("bad signature") from None
    try:
        claims = json.loads(b64url(payload_b64))
    except ValueError:
        raise NotAPerson("unreadable claims") from None
    if claims.get("iss") != env["NNUMBERS_IDENTITY_ISSUER"]:
        raise NotAPerson("another issuer")
    if claims.get("aud") != env["NNUMBERS_APP_ID"]:
        raise NotAPerson("another app")
    if claims.get("org") != env["NNUMBERS_ORG_ID"]:
        raise NotAPerson("another organization")
    nbf, exp = claims.get("nbf"), claims.get("exp")
    if not isinstance(nbf, int) or not isinstance(exp, int):
        raise NotAPerson("no validity")
    if now + CLOCK_TOLERANCE_S < nbf or now - CLOCK_TOLERANCE_S >= exp:
        raise NotAPerson("expired or not yet valid")
    return claims


class App:
    """Bind first (the sandbox needs the app's URL), configure with the sandbox's env after."""

    def __init__(self):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.env = None
        self.keys = {}
        self.jwks_fetches = 0
        self._lock = threading.Lock()
        self._thread = None

    def configure(self, env):
        self.env = env
        self.keys = public_keys(json.loads(env["NNUMBERS_IDENTITY_JWKS"]))
        self._thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    def close(self):
        if self._thread is not None:
            self.server.shutdown()
        self.server.server_close()

    def verify(self, token):
        try:
            return verify_identity(token, self.keys, self.env, int(time.time()))
        except UnknownKid:
            # Check 1: an unknown kid sends the app to the broker's JWKS once; the keys are
            # kept, not fetched again on every request.
            with self._lock:
                url = f"{self.env['NNUMBERS_BROKER_URL']}/v1/jwks"
                with urllib.request.urlopen(url, timeout=5) as answer:
                    self.keys = public_keys(json.load(answer))
                self.jwks_fetches += 1
            return verify_identity(token, self.keys, self.env, int(time.time()))

    def regions(self, identity):
        """(status, body) for GET /regions."""
        if identity is None:
            return 401, "sign in first"
        try:
            self.verify(identity)
        except (NotAPerson, OSError, ValueError) as why:
            return 401, f"not a person: {why}"
        request = urllib.request.Request(
            f"{self.env['NNUMBERS_BROKER_URL']}/v1/querymesh/query",
            data=json.dumps({"sql": "SELECT count(*) FROM tpch.tiny.region"}).encode(),
            headers={"X-NNumbers-Identity": identity, "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                body = json.load(answer)
                return 200, json.dumps({"regions": body["rows"][0][0]})
        except urllib.error.HTTPError as refusal:
            try:
                code = json.load(refusal).get("code")
            except ValueError:
                code = None
            if refusal.code == 503 and code == "QUERYMESH_UNAVAILABLE":
                return 503, "try again in a moment"
            return 502, f"the broker refused: {code or '?'}"
        except (OSError, ValueError, KeyError, IndexError):
            return 502, "the broker did not answer"


def _handler(app):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path != "/regions":
                status, body = 404, "no such page"
            else:
                status, body = app.regions(self.headers.get("X-NNumbers-Identity"))
            data = body.encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass  # no request lines in the test output

    return Handler
