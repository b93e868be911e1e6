#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Open one local page in headless Chromium and write what a test checks.

    browse.py CHROMIUM PAGE OUTDIR [SCRIPT.js]

Chromium is driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: file descriptors 3 and 4, JSON messages ended by
a NUL byte; no port, no websocket, nothing but the standard library). The
page is loaded in a 1280x2000 viewport; then OUTDIR gets:

  dom.html       the document as the browser parsed it (outerHTML)
  report.png     a screenshot of the viewport
  console.json   every console message, uncaught exception and browser log
                 entry of level warning or error (CSP violations are such
                 entries): [{"source", "level", "text"}]
  requests.json  every URL the page requested, the page itself first
  eval.json      SCRIPT.js's value (an expression), if given
  chromium.log   the browser's own output

Exit 0 once all of them are written; 1 with one line on stderr if the
browser cannot start, the page does not load, or 60 s pass.
"""

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import sys
import tempfile
import time
import urllib.parse

TIMEOUT = 60.0


class Browser:
    """A Chromium process and its DevTools pipe."""

    def __init__(self, chromium, profile, log):
        cmd_r, self.cmd_w = os.pipe()
        self.ev_r, ev_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:   # the child: fds 3 and 4 are the pipe's ends
            try:
                hi3 = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10)
                hi4 = fcntl.fcntl(ev_w, fcntl.F_DUPFD, 10)
                os.dup2(hi3, 3)
                os.dup2(hi4, 4)
                os.dup2(log.fileno(), 1)
                os.dup2(log.fileno(), 2)
                null = os.open(os.devnull, os.O_RDONLY)
                os.dup2(null, 0)
                os.execvp(chromium, [
                    chromium, "--headless", "--no-sandbox", "--disable-gpu",
                    "--remote-debugging-pipe", "--user-data-dir=" + profile,
                    "--no-first-run", "--no-default-browser-check",
                    "--disable-extensions", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--hide-scrollbars", "--mute-audio",
                    "--window-size=1280,2000", "about:blank"])
            finally:
                os._exit(127)
        os.close(cmd_r)
        os.close(ev_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.deadline = time.monotonic() + TIMEOUT

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def recv(self):
        """The next message; events are kept in self.events too."""
        while b"\0" not in self.buf:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError("no answer from Chromium in %d s" % TIMEOUT)
            ready, _, _ = select.select([self.ev_r], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.ev_r, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe (see chromium.log)")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        msg = json.loads(raw)
        if "method" in msg:
            self.events.append(msg)
        return msg

    def call(self, method, params=None, session=None):
        want = self.send(method, params, session)
        while True:
            msg = self.recv()
            if msg.get("id") == want:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"].get("message")))
                return msg.get("result", {})

    def wait_event(self, method, session):
        for ev in self.events:
            if ev["method"] == method and ev.get("sessionId") == session:
                return ev
        while True:
            ev = self.recv()
            if ev.get("method") == method and ev.get("sessionId") == session:
                return ev

    def close(self):
        try:
            self.send("Browser.close")
        except OSError:
            pass
        end = time.monotonic() + 10
        while time.monotonic() < end:
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return
            time.sleep(0.05)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)


def evaluate(b, session, expression):
    res = b.call("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                 session)
    if "exceptionDetails" in res:
        ex = res["exceptionDetails"]
        raise RuntimeError("script failed: %s" % ex.get("exception", {}).get(
            "description", ex.get("text")))
    return res["result"].get("value")


def problems(events, session):
    """The console's warnings and errors, the exceptions, the log's."""
    out = []
    for ev in events:
        if ev.get("sessionId") != session:
            continue
        p = ev.get("params", {})
        if ev["method"] == "Runtime.consoleAPICalled" and p["type"] in (
                "error", "warning", "assert"):
            text = " ".join(str(a.get("value", a.get("description", "")))
                            for a in p.get("args", []))
            out.append({"source": "console", "level": p["type"], "text": text})
        elif ev["method"] == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            out.append({"source": "exception", "level": "error",
                        "text": d.get("exception", {}).get("description", d.get("text"))})
        elif ev["method"] == "Log.entryAdded" and p["entry"]["level"] in ("warning", "error"):
            e = p["entry"]
            out.append({"source": e["source"], "level": e["level"], "text": e["text"]})
    return out


def main(argv):
    if len(argv) not in (4, 5):
        sys.stderr.write(__doc__)
        return 2
    chromium, page, out = argv[1], argv[2], argv[3]
    script = open(argv[4]).read() if len(argv) == 5 else None
    url = "file://" + urllib.parse.quote(os.path.abspath(page))
    try:
        os.makedirs(out, exist_ok=True)
        log = open(os.path.join(out, "chromium.log"), "wb")
    except OSError as e:
        sys.stderr.write("browse.py: %s\n" % e)
        return 1
    profile = tempfile.mkdtemp(prefix="browse-profile.")
    b = None
    try:
        b = Browser(chromium, profile, log)
        target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            b.call(domain + ".enable", None, s)
        b.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 2000,
               "deviceScaleFactor": 1, "mobile": False}, s)
        nav = b.call("Page.navigate", {"url": url}, s)
        if nav.get("errorText"):
            raise RuntimeError("%s: %s" % (url, nav["errorText"]))
        b.wait_event("Page.loadEventFired", s)
        dom = evaluate(b, s, "document.documentElement.outerHTML")
        with open(os.path.join(out, "dom.html"), "w") as f:
            f.write(dom)
        if script is not None:
            with open(os.path.join(out, "eval.json"), "w") as f:
                json.dump(evaluate(b, s, script), f, indent=1)
        png = b.call("Page.captureScreenshot", {"format": "png"}, s)["data"]
        with open(os.path.join(out, "report.png"), "wb") as f:
            f.write(base64.b64decode(png))
        # what arrived meanwhile (a late error too)
        evaluate(b, s, "0")
        with open(os.path.join(out, "console.json"), "w") as f:
            json.dump(problems(b.events, s), f, indent=1)
        with open(os.path.join(out, "requests.json"), "w") as f:
            json.dump([ev["params"]["request"]["url"] for ev in b.events
                       if ev["method"] == "Network.requestWillBeSent" and
                       ev.get("sessionId") == s], f, indent=1)
    except (RuntimeError, OSError, ValueError, KeyError) as e:
        sys.stderr.write("browse.py: %s\n" % e)
        return 1
    finally:
        if b:
            b.close()
        log.close()
        shutil.rmtree(profile, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
