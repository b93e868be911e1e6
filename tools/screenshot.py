#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A picture of one local page, for the README (make screenshot).

    screenshot.py CHROMIUM PAGE OUT.png [WIDTH HEIGHT]

Headless Chromium is driven the way the html tests drive it (its DevTools
pipe: tests/e2e/browse.py's Browser); the page is loaded in a WIDTHxHEIGHT
viewport (default 960x720, small enough for a README and a PNG of a few
tens of KB) and the viewport is written to OUT.png. Exit 0 once written; 1
with one line on stderr if the browser cannot start, the page does not
load, or 60 s pass.
"""

import base64
import os
import shutil
import sys
import tempfile
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from browse import Browser  # noqa: E402  (the one DevTools driver)


def main(argv):
    if len(argv) not in (4, 6):
        sys.stderr.write(__doc__)
        return 2
    chromium, page, out = argv[1], argv[2], argv[3]
    width, height = (int(argv[4]), int(argv[5])) if len(argv) == 6 else (960, 720)
    page, _, frag = page.partition("#")
    url = "file://" + urllib.parse.quote(os.path.abspath(page)) + ("#" + frag if frag else "")
    profile = tempfile.mkdtemp(prefix="screenshot-profile.")
    log = open(os.devnull, "wb")
    b = None
    try:
        b = Browser(chromium, profile, log)
        target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        b.call("Page.enable", None, s)
        b.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
               "deviceScaleFactor": 1, "mobile": False}, s)
        nav = b.call("Page.navigate", {"url": url}, s)
        if nav.get("errorText"):
            raise RuntimeError("%s: %s" % (url, nav["errorText"]))
        b.wait_event("Page.loadEventFired", s)
        png = b.call("Page.captureScreenshot", {"format": "png"}, s)["data"]
        tmp = out + ".tmp"
        with open(tmp, "wb") as f:
            f.write(base64.b64decode(png))
        os.replace(tmp, out)
    except (RuntimeError, OSError, ValueError, KeyError) as e:
        sys.stderr.write("screenshot.py: %s\n" % e)
        return 1
    finally:
        if b:
            b.close()
        log.close()
        shutil.rmtree(profile, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
