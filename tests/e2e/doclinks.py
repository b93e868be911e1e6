#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every relative link of the documents leads somewhere.

    doclinks.py ROOT [PENDING...]

For README.md and docs/*.md under ROOT: each Markdown link or image
"](target)" that is not a URL must name a file or directory that exists,
relative to the document; "file.md#anchor" (or "#anchor") must name one of
that file's headings as GitHub makes anchors of them (lower case, spaces to
hyphens, punctuation but hyphens and underscores dropped). PENDING paths
(relative to ROOT) may be missing: pages another branch is writing. Prints
one line per broken link, "FILE:LINE: target: why"; exit 1 if any.
"""

import os
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path):
    out = set()
    fence = False
    for line in open(path):
        if line.startswith("```"):
            fence = not fence
        if fence or not line.startswith("#"):
            continue
        title = line.lstrip("#").strip().lower()
        out.add(re.sub(r"[^a-z0-9 _-]", "", title).replace(" ", "-"))
    return out


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    root = argv[1]
    pending = {os.path.normpath(os.path.join(root, p)) for p in argv[2:]}
    docs = [os.path.join(root, "README.md")] + sorted(
        os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs"))
        if f.endswith(".md"))
    bad = 0
    for doc in docs:
        fence = False
        for n, line in enumerate(open(doc), 1):
            if line.startswith("```"):
                fence = not fence
            if fence:
                continue
            for target in LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue
                path, _, frag = target.partition("#")
                full = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
                why = None
                if not os.path.exists(full):
                    if full not in pending:
                        why = "no such file"
                elif frag and full.endswith(".md") and frag not in anchors(full):
                    why = "no heading makes the anchor #" + frag
                if why:
                    print("%s:%d: %s: %s" % (os.path.relpath(doc, root), n, target, why))
                    bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
