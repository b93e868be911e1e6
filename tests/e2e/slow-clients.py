#!/usr/bin/env python3
"""Forty clients from ten loopback addresses (127.0.0.1 to 127.0.0.10, four
from each) that send a request a byte at a time (one every 0.5 s, never
finishing it) against monitor --listen, and connect again at once whenever
the server closes one, for DURATION seconds; meanwhile a scraper fetches
/metrics every 0.5 s from 127.0.0.1, as a Prometheus on the same host does
(the address of four of the slow clients). Prints what happened and exits 1
unless: every slow connection is closed by the server within DEADLINE +
SLACK seconds of its connect, no address holds more than LIMIT of them at
once, and every scrape (at least five) is answered 200 within SCRAPE
seconds (a Prometheus on loopback is answered in milliseconds).

    slow-clients.py PORT DEADLINE SLACK LIMIT DURATION SCRAPE
"""
import socket
import sys
import time

port, deadline, slack, limit, duration, scrape_timeout = (
    int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]),
    float(sys.argv[5]), float(sys.argv[6]))
req = b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
ADDRS = [f"127.0.0.{i}" for i in range(1, 11)]


def connect(addr):
    s = socket.socket()
    s.settimeout(2)
    s.bind((addr, 0))
    s.connect(("127.0.0.1", port))
    return {"s": s, "addr": addr, "t0": time.monotonic(), "sent": 0}


slow = [connect(a) for a in ADDRS for _ in range(4)]
closed = []   # seconds from connect to the server's close, each connection


def scrape():
    s = socket.socket()
    s.settimeout(scrape_timeout)
    s.bind(("127.0.0.1", 0))
    t = time.monotonic()
    data = b""
    try:
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /metrics HTTP/1.0\r\n\r\n")
        while True:
            b = s.recv(65536)
            if not b:
                break
            data += b
    except OSError:
        pass
    s.close()
    t = time.monotonic() - t
    return data.startswith(b"HTTP/1.") and b" 200 " in data.split(b"\r\n")[0] and \
        t <= scrape_timeout, t


scrapes = []
start = time.monotonic()
worst = 0
while time.monotonic() - start < duration:
    held = {}
    for i, c in enumerate(slow):
        gone = False
        try:
            if c["sent"] < len(req):
                c["s"].send(req[c["sent"]:c["sent"] + 1])
                c["sent"] += 1
            c["s"].setblocking(False)
            try:
                gone = c["s"].recv(4096) == b""
            except BlockingIOError:
                held[c["addr"]] = held.get(c["addr"], 0) + 1
            finally:
                c["s"].setblocking(True)
        except OSError:
            gone = True
        if gone:
            # closed by the server: noted, and at once a new one
            closed.append(time.monotonic() - c["t0"])
            c["s"].close()
            slow[i] = connect(c["addr"])
    scrapes.append(scrape())
    # (in the first second the server has not taken them all from the
    # kernel's queue yet: not held by it, only not refused yet)
    if time.monotonic() - start > 1.5:
        worst = max([worst] + list(held.values()))
    time.sleep(0.5)

open_for = [time.monotonic() - c["t0"] for c in slow]
print(f"slow connections closed by the server: {len(closed)}, after {min(closed, default=0):.1f}"
      f" to {max(closed, default=0):.1f} s; still open at the end: at most {max(open_for):.1f} s")
print(f"most slow connections held from one address at once: {worst} (limit {limit})")
ok = sum(ok for ok, _ in scrapes)
print(f"scrapes: {ok} of {len(scrapes)} answered 200, slowest {max(t for _, t in scrapes):.2f} s")
bad = (not closed or max(closed) > deadline + slack or max(open_for) > deadline + slack
       or worst > limit or ok < len(scrapes) or len(scrapes) < 5)
sys.exit(1 if bad else 0)
