#!/usr/bin/env python3
"""Times a new client at the edge once --count connections hold it, idle or half-sent.

Starts the binary (default target/debug/zero-sandbox) on ephemeral ports with in-memory keys,
opens --count connections to the edge that are either kept alive idle after one whole request
(--mode idle) or have sent a request line and one header but never the blank line ending the
headers (--mode half), then times a new client until it is served: a 503 is retried after its
Retry-After, as a polite client would, so the figure is how long the port stays shut to it.

    python3 scripts/at_the_cap.py [--binary PATH] [--count 256] [--mode idle|half] [--nofile N]

With --nofile 2688 the cap is 256 (src/listener/limits.rs), main's fixed cap.
"""

import argparse
import json
import resource
import socket
import subprocess
import sys
import time

PATH = "/.nnumbers/v1/context"


def read_response(sock):
    """One whole response on a kept-alive connection, read by its Content-Length."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed before a response")
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed mid-body")
        body += chunk
    return head.split(b"\r\n", 1)[0].decode()


def once(port, timeout):
    """A new client's request on a fresh connection: (status code or None, Retry-After)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    if not data:
        return None, 1.0
    head = data.split(b"\r\n\r\n", 1)[0].decode(errors="replace")
    status = int(head.split(" ", 2)[1])
    retry = 1.0
    for line in head.split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "retry-after":
            retry = float(value.strip())
    return status, retry


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="target/debug/zero-sandbox")
    parser.add_argument("--count", type=int, default=256)
    parser.add_argument("--mode", choices=["idle", "half"], default="idle")
    parser.add_argument("--give-up", type=float, default=90.0)
    parser.add_argument("--nofile", type=int, default=0,
                        help="the binary's open-file limit (soft and hard); it sizes the cap")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    def limit():
        if args.nofile:
            resource.setrlimit(resource.RLIMIT_NOFILE, (args.nofile, args.nofile))

    child = subprocess.Popen(
        [args.binary, "up", "--ready-json", "--ephemeral", "--no-open",
         "--edge-port", "0", "--broker-port", "0", "--iam-port", "0", "--querymesh-port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=limit)
    try:
        ready = json.loads(child.stdout.readline())
        port = int(ready["edge"].rsplit(":", 1)[1])
        held = []
        for _ in range(args.count):
            s = socket.create_connection(("127.0.0.1", port), timeout=30)
            if args.mode == "idle":
                s.sendall(f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                read_response(s)
            else:
                s.sendall(f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            held.append(s)
        started = time.monotonic()
        attempts = 0
        status = None
        while time.monotonic() - started < args.give_up:
            attempts += 1
            try:
                status, retry = once(port, args.give_up)
            except OSError:
                status, retry = None, 1.0
            if status is not None and status < 500:
                break
            time.sleep(retry)
        took = time.monotonic() - started
        print(json.dumps({"mode": args.mode, "count": args.count, "served": status,
                          "seconds": round(took, 3), "attempts": attempts}))
        for s in held:
            s.close()
    finally:
        child.terminate()
        child.wait()


if __name__ == "__main__":
    sys.exit(main())
