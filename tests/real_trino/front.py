"""The test's front before QueryMesh: what the sandbox's `[querymesh] url` names.

Between the broker and either target (the stand-in's port, or the real Trino over HTTPS) it
forwards the Trino protocol as a gateway would: over HTTPS with the run's authority, turning
the target's own address in `nextUri`/`infoUri`/`partialCancelUri` into the front's. For a few
people it misbehaves instead, as the refusals under test need; who is asking comes from the
bearer token's claims (read, not verified: the target verifies it):

- FAULT_ADDRESS_LEAK: leaves `nextUri` at the target's own address, as a Trino behind a proxy
  that does not rewrite it would — outside the configured address (502 at the broker);
- FAULT_BUSY: answers 503 without asking the target, as an overloaded gateway does.
"""

import base64
import http.client
import http.server
import json
import ssl
import threading
import urllib.parse

FAULT_ADDRESS_LEAK = "address-leak"
FAULT_BUSY = "busy"

# What a client sends that the target needs; hop-by-hop and length headers are the front's own.
FORWARDED_REQUEST_HEADERS = {"authorization", "content-type", "accept", "user-agent"}
LINK_FIELDS = ("nextUri", "infoUri", "partialCancelUri")
IDLE_TIMEOUT_S = 60


def username_of(authorization: str) -> str:
    """The `preferred_username` of a bearer JWT, or "" for anything else."""
    token = authorization.removeprefix("Bearer ").strip()
    parts = token.split(".")
    if len(parts) != 3:
        return ""
    try:
        payload = base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4))
        return str(json.loads(payload).get("preferred_username", ""))
    except (ValueError, AttributeError):
        return ""


class Front:
    """Listens on 127.0.0.1 (port 0) with TLS; `upstream` is set once the target is known."""

    def __init__(self, keystore, faults: dict):
        self.faults = dict(faults)
        self.upstream = None  # (scheme, host, port)
        self.upstream_context = None
        front = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # A kept-alive connection nobody uses is closed after this long.
            timeout = IDLE_TIMEOUT_S

            def setup(self):
                # The TLS handshake on this connection's own thread: on the listening socket
                # it would run in the accept loop, where one client that connects and never
                # finishes it stalls every other.
                self.request.settimeout(IDLE_TIMEOUT_S)
                self.request.do_handshake()
                super().setup()

            def log_message(self, *args):  # quiet: the suite's output is the tests'
                pass

            def do_GET(self):
                front.forward(self)

            do_POST = do_GET
            do_DELETE = do_GET
            do_HEAD = do_GET

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(keystore)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True,
                                                 do_handshake_on_connect=False)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def point_at(self, url: str, ca_file=None):
        parsed = urllib.parse.urlsplit(url)
        self.upstream = (parsed.scheme, parsed.hostname, parsed.port)
        if parsed.scheme == "https":
            self.upstream_context = ssl.create_default_context(cafile=str(ca_file))

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def forward(self, handler):
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else None
        fault = self.faults.get(username_of(handler.headers.get("Authorization", "")))
        if fault == FAULT_BUSY:
            return self._answer(handler, 503, b"busy", "text/plain", {"Retry-After": "1"})
        scheme, host, port = self.upstream
        if scheme == "https":
            connection = http.client.HTTPSConnection(host, port, timeout=120,
                                                     context=self.upstream_context)
        else:
            connection = http.client.HTTPConnection(host, port, timeout=120)
        headers = {k: v for k, v in handler.headers.items()
                   if k.lower() in FORWARDED_REQUEST_HEADERS or k.lower().startswith("x-trino-")}
        try:
            connection.request(handler.command, handler.path, body=body, headers=headers)
            answer = connection.getresponse()
            data = answer.read()
        except OSError as e:
            return self._answer(handler, 502, f"front: {e}".encode(), "text/plain", {})
        finally:
            connection.close()
        content_type = answer.getheader("Content-Type", "application/octet-stream")
        if fault != FAULT_ADDRESS_LEAK and content_type.startswith("application/json"):
            data = self._rewrite_links(data)
        extra = {k: v for k, v in answer.getheaders()
                 if k.lower() in ("www-authenticate", "retry-after")}
        self._answer(handler, answer.status, data, content_type, extra)

    def _rewrite_links(self, data: bytes) -> bytes:
        try:
            page = json.loads(data)
        except ValueError:
            return data
        if not isinstance(page, dict):
            return data
        scheme, host, port = self.upstream
        target = f"{scheme}://{host}:{port}"
        for field in LINK_FIELDS:
            link = page.get(field)
            if isinstance(link, str) and link.startswith(target):
                page[field] = self.url + link[len(target):]
        return json.dumps(page).encode()

    @staticmethod
    def _answer(handler, status, data, content_type, headers):
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(data)))
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        if handler.command != "HEAD":
            handler.wfile.write(data)
