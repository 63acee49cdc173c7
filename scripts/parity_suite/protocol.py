"""One statement over Trino's client protocol: POST /v1/statement, then follow `nextUri` until
the answer ends (https://trino.io/docs/current/develop/client-protocol.html).

Every statement runs on a fresh session: catalog tpch, schema tiny, time zone UTC.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable

# Trino's client protocol: these statuses on a nextUri mean "ask again" (the protocol doc).
RETRY_STATUSES = {429, 502, 503, 504}
# How long to wait before sending a statement again that Trino refused for want of nodes.
NO_NODES_PAUSE = 0.5


@dataclass
class Answer:
    """What one side answered: columns (name, rendered type), rows, or an error."""

    columns: list[tuple[str, str]] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    error_name: str | None = None
    error_type: str | None = None
    message: str | None = None
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        return self.error_name is not None

    def no_nodes(self) -> bool:
        """Trino's coordinator listed no active node (not an answer to the statement)."""
        return self.error_name == "NO_NODES_AVAILABLE" or (
            self.error_name == "GENERIC_INTERNAL_ERROR" and self.message == "nodes is empty"
        )


def render_type(signature: dict[str, Any]) -> str:
    """A typeSignature as Trino writes the type: `decimal(12,2)`, `array(varchar(25))`,
    `map(varchar, bigint)`, `row(x integer, "Y z" varchar)`; unbounded varchar is `varchar`."""
    raw = signature.get("rawType", "?")
    arguments = signature.get("arguments") or []
    if raw == "varchar" and [a.get("value") for a in arguments] == [2147483647]:
        return "varchar"
    if not arguments:
        return raw
    parts = []
    numeric = True
    for argument in arguments:
        kind = argument.get("kind")
        value = argument.get("value")
        if kind == "LONG":
            parts.append(str(value))
        elif kind == "TYPE":
            numeric = False
            parts.append(render_type(value or {}))
        elif kind == "NAMED_TYPE":
            numeric = False
            value = value or {}
            inner = render_type(value.get("typeSignature") or {})
            name = (value.get("fieldName") or {}).get("name")
            parts.append(inner if name is None else f"{quote_field(name)} {inner}")
        else:
            numeric = False
            parts.append(str(value))
    return f"{raw}({(',' if numeric else ', ').join(parts)})"


def quote_field(name: str) -> str:
    simple = name and (name[0].isalpha() or name[0] == "_") and all(
        c.isalnum() or c == "_" for c in name
    )
    if simple and name == name.lower():
        return name
    return '"' + name.replace('"', '""') + '"'


class Client:
    """One side: a base URL and the headers every request carries."""

    def __init__(self, base_url: str, user: str, token: Callable[[], str | None] | None = None):
        self.base_url = base_url.rstrip("/")
        self.user = user
        self.token = token

    def headers(self) -> dict[str, str]:
        headers = {
            "X-Trino-User": self.user,
            "X-Trino-Catalog": "tpch",
            "X-Trino-Schema": "tiny",
            "X-Trino-Time-Zone": "UTC",
            "X-Trino-Source": "zero-sandbox-parity",
            # What the JDBC driver and the Python client declare: without PARAMETRIC_DATETIME,
            # Trino rounds every timestamp and time to milliseconds and drops their precision
            # from the type (`timestamp with time zone`, not `timestamp(0) with time zone`).
            "X-Trino-Client-Capabilities": "PARAMETRIC_DATETIME,SESSION_AUTHORIZATION",
            "Content-Type": "text/plain; charset=utf-8",
        }
        if self.token is not None:
            token = self.token()
            if token:
                headers["Authorization"] = f"Bearer {token}"
        return headers

    def run(self, sql: str, timeout: float) -> Answer:
        """The whole answer, or an error (Trino's, or `PARITY_*` for transport failures). A
        Trino whose coordinator has not (re)listed itself among the active nodes answers every
        statement with NO_NODES_AVAILABLE or "nodes is empty" for a moment — seen just after
        start-up and under load — which is no answer to the statement: it is sent again."""
        started = time.monotonic()
        deadline = started + timeout
        while True:
            answer = self._run_once(sql, deadline)
            if not answer.no_nodes() or time.monotonic() + NO_NODES_PAUSE >= deadline:
                answer.seconds = time.monotonic() - started
                return answer
            time.sleep(NO_NODES_PAUSE)

    def _run_once(self, sql: str, deadline: float) -> Answer:
        timeout = max(deadline - time.monotonic(), 0.0)
        answer = Answer()
        next_uri: str | None = None
        try:
            page = self._request("POST", f"{self.base_url}/v1/statement", sql, deadline)
            while True:
                if "columns" in page and not answer.columns:
                    answer.columns = [
                        (c.get("name", ""), render_type(c.get("typeSignature") or {}))
                        for c in page["columns"]
                    ]
                answer.rows.extend(page.get("data") or [])
                error = page.get("error")
                if error:
                    answer.error_name = error.get("errorName") or "UNKNOWN"
                    answer.error_type = error.get("errorType") or "UNKNOWN"
                    answer.message = error.get("message") or ""
                    break
                next_uri = page.get("nextUri")
                if not next_uri:
                    break
                if time.monotonic() > deadline:
                    self._cancel(next_uri)
                    raise TimeoutError
                page = self._request("GET", next_uri, None, deadline)
        except TimeoutError:
            if next_uri:
                self._cancel(next_uri)
            answer = Answer(
                error_name="PARITY_TIMEOUT",
                error_type="PARITY",
                message=f"no complete answer within {timeout:g} s",
            )
        except (urllib.error.URLError, OSError, ValueError) as error:
            answer = Answer(
                error_name="PARITY_TRANSPORT",
                error_type="PARITY",
                message=f"{type(error).__name__}: {error}",
            )
        return answer

    def _request(self, method: str, url: str, body: str | None, deadline: float) -> dict:
        delay = 0.05
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            request = urllib.request.Request(
                url,
                data=None if body is None else body.encode("utf-8"),
                headers=self.headers(),
                method=method,
            )
            try:
                with urllib.request.urlopen(request, timeout=remaining) as response:
                    return json.loads(response.read())
            except urllib.error.HTTPError as error:
                if error.code in RETRY_STATUSES:
                    time.sleep(min(delay, max(0.0, deadline - time.monotonic())))
                    delay = min(delay * 2, 1.0)
                    continue
                detail = error.read()[:300].decode("utf-8", "replace")
                raise ValueError(f"HTTP {error.code} from {method} {url}: {detail}") from error
            except TimeoutError:
                raise
            except OSError as error:
                if isinstance(getattr(error, "reason", None), TimeoutError):
                    raise TimeoutError from error
                raise

    def _cancel(self, uri: str) -> None:
        request = urllib.request.Request(uri, headers=self.headers(), method="DELETE")
        try:
            with urllib.request.urlopen(request, timeout=5):
                pass
        except (urllib.error.URLError, OSError):
            pass
