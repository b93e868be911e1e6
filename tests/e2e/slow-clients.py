#!/usr/bin/env python3
"""Sixteen clients that send a request a byte at a time (one every 0.5 s,
never finishing it) against monitor --listen, while a scraper from another
loopback address (127.0.0.2) fetches /metrics. Prints what happened and
exits 1 unless: every slow connection is closed by the server within
DEADLINE + SLACK seconds of its connect (or refused at once, past the
per-address limit), at most LIMIT of them are held at once, and every
scrape succeeds.

    slow-clients.py PORT DEADLINE SLACK LIMIT
"""
import socket
import sys
import time

port, deadline, slack, limit = (int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]),
                                int(sys.argv[4]))
req = b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
slow = []
for i in range(16):
    s = socket.socket()
    s.settimeout(2)
    s.connect(("127.0.0.1", port))
    slow.append({"s": s, "t0": time.monotonic(), "sent": 0, "closed": None})


def scrape():
    s = socket.socket()
    s.settimeout(5)
    s.bind(("127.0.0.2", 0))
    t = time.monotonic()
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
    data = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    s.close()
    return data.startswith(b"HTTP/1.") and b" 200 " in data.split(b"\r\n")[0], time.monotonic() - t


scrapes = []
start = time.monotonic()
end = start + deadline + slack + 2
while time.monotonic() < end and any(c["closed"] is None for c in slow):
    held = 0
    for c in slow:
        if c["closed"] is not None:
            continue
        try:
            if c["sent"] < len(req):
                c["s"].send(req[c["sent"]:c["sent"] + 1])
                c["sent"] += 1
            c["s"].setblocking(False)
            try:
                if c["s"].recv(4096) == b"":
                    c["closed"] = time.monotonic() - c["t0"]
            except BlockingIOError:
                held += 1
            finally:
                c["s"].setblocking(True)
        except OSError:
            c["closed"] = time.monotonic() - c["t0"]
    scrapes.append(scrape())
    time.sleep(0.5)
    # (in the first second the server has not taken them all from the
    # kernel's queue yet: not held by it, only not refused yet)
    if held > limit and time.monotonic() - start > 1.5:
        print(f"FAIL {held} slow connections held at once (limit {limit})")
        sys.exit(1)

closed = sorted(c["closed"] for c in slow if c["closed"] is not None)
print(f"slow connections closed after (s): {' '.join(f'{t:.1f}' for t in closed)}")
print(f"scrapes: {sum(ok for ok, _ in scrapes)} of {len(scrapes)} answered 200, slowest "
      f"{max(t for _, t in scrapes):.2f} s")
bad = len(closed) < 16 or closed[-1] > deadline + slack or not all(ok for ok, _ in scrapes)
sys.exit(1 if bad else 0)
