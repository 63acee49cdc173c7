#!/usr/bin/env python3
"""Floods the edge with half-sent requests and times a request to every other port.

Starts the binary (default target/debug/zero-sandbox) on ephemeral ports with the open-file
limit set to --nofile (soft and hard, as on a machine whose limit is 1,024), opens --count
connections to the edge that each send a request line and one header but never the blank
line ending the headers, then times a request to the broker, the IAM, QueryMesh and the edge
on fresh connections, and watches how long the server keeps the half-sent ones.

    python3 scripts/flood.py [--binary PATH] [--count 1000] [--nofile 1024]
"""

import argparse
import json
import resource
import selectors
import socket
import subprocess
import sys
import time


def request(url_host, port, path, timeout):
    """One GET on a fresh connection: (status line or error, seconds)."""
    started = time.monotonic()
    try:
        with socket.create_connection((url_host, port), timeout=timeout) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: {url_host}:{port}\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while b"\r\n" not in data:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            line = data.split(b"\r\n", 1)[0].decode(errors="replace") or "closed without a response"
    except OSError as e:
        line = f"error: {e}"
    return line, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="target/debug/zero-sandbox")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--nofile", type=int, default=1024)
    parser.add_argument("--watch", type=float, default=15.0,
                        help="seconds to watch for the server closing half-sent connections")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (args.nofile, args.nofile))

    child = subprocess.Popen(
        [args.binary, "up", "--ready-json", "--ephemeral", "--no-open",
         "--edge-port", "0", "--broker-port", "0", "--iam-port", "0", "--querymesh-port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, preexec_fn=limit)
    try:
        ready = json.loads(child.stdout.readline())
        ports = {name: int(ready[name].rsplit(":", 1)[1]) for name in ("edge", "broker", "iam", "querymesh")}
        paths = {"edge": "/", "broker": "/v1/jwks",
                 "iam": "/realms/acme/.well-known/openid-configuration", "querymesh": "/v1/info"}

        print(f"open-file limit of the server: {args.nofile}")
        print("before the flood:")
        for name, port in ports.items():
            line, took = request("127.0.0.1", port, paths[name], 5)
            print(f"  {name:9} {line}  ({took * 1000:.0f} ms)")

        held, refused, failed = [], 0, 0
        for _ in range(args.count):
            try:
                s = socket.create_connection(("127.0.0.1", ports["edge"]), timeout=5)
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                held.append(s)
            except OSError:
                failed += 1
        # A refused connection gets an answer at once; a held one gets nothing yet.
        time.sleep(0.5)
        still_open = []
        for s in held:
            s.setblocking(False)
            try:
                data = s.recv(4096)
                refused += 1
                if refused == 1:
                    print("first refusal:", data.split(b"\r\n", 1)[0].decode(errors="replace"),
                          "…", data.rsplit(b"\r\n", 1)[-1][:160].decode(errors="replace"))
                s.close()
            except BlockingIOError:
                still_open.append(s)
            except OSError:
                refused += 1
                s.close()
        print(f"flood of {args.count} half-sent requests to the edge: {len(still_open)} held open, "
              f"{refused} refused or closed at once, {failed} could not connect")

        print("during the flood:")
        for name, port in ports.items():
            line, took = request("127.0.0.1", port, paths[name], 5)
            print(f"  {name:9} {line}  ({took * 1000:.0f} ms)")

        # Every half-sent connection at once: count those the server ends within --watch.
        started = time.monotonic()
        watching = selectors.DefaultSelector()
        for s in still_open:
            watching.register(s, selectors.EVENT_READ)
        closed, last = 0, None
        while closed < len(still_open) and time.monotonic() < started + args.watch:
            for key, _ in watching.select(timeout=0.1):
                try:
                    if key.fileobj.recv(4096):
                        continue
                except OSError:
                    pass
                watching.unregister(key.fileobj)
                key.fileobj.close()
                closed += 1
                last = time.monotonic() - started
        for key in list(watching.get_map().values()):
            key.fileobj.close()
        when = f"the last after {last:.1f} s" if last is not None else "none"
        print(f"half-sent connections the server closed within {args.watch:.0f} s: {closed} of "
              f"{len(still_open)} ({when})")
        print("after:")
        for name, port in ports.items():
            line, took = request("127.0.0.1", port, paths[name], 5)
            print(f"  {name:9} {line}  ({took * 1000:.0f} ms)")
    finally:
        child.terminate()
        child.wait(10)


if __name__ == "__main__":
    sys.exit(main())
