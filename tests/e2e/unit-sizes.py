#!/usr/bin/env python3
"""capaudit record --service on unit files built to be large: each must be
parsed, or refused with one FILE:LINE line, in linear time and memory.
Run as a user who is not root: the parse (and the users and groups it
names) is all there is, then record says it needs root (exit 1); a
refused file is exit 2.

    unit-sizes.py CAPAUDIT WORKDIR [MAX_RSS_MIB]

Prints one line per case (exit status, peak resident set, time); exits 1
if any case gave another status or message, or took more memory.
"""
import os
import resource
import subprocess
import sys
import time

capaudit, work = sys.argv[1], sys.argv[2]
max_rss = int(sys.argv[3]) if len(sys.argv) > 3 else 0
HEAD = "[Service]\n"
cases = [
    # name, text, exit status, part of the message
    ("a 1 MB ExecStart= line", HEAD + "ExecStart=/bin/true" + " a" * 500000 + "\n", 1,
     "needs root"),
    ("20,000 continuation lines", HEAD + "ExecStart=/bin/true \\\n" + "a \\\n" * 20000 + "a\n",
     1, "needs root"),
    ("100,000 Environment= lines of one variable",
     HEAD + "ExecStart=/bin/true $A\n" + "Environment=A=b\n" * 100000, 1, "needs root"),
    ("100,000 Environment= variables",
     HEAD + "ExecStart=/bin/true\n" + "".join(f"Environment=V{i}=x\n" for i in range(100000)),
     2, ":4099: Environment=: more than 4096 variables"),
    ("70,000 SupplementaryGroups= entries",
     HEAD + "ExecStart=/bin/true\nSupplementaryGroups=" + " ".join(str(i) for i in range(70000))
     + "\n", 2, ":3: SupplementaryGroups=: more than 65536 groups"),
    ("65,536 SupplementaryGroups= entries, one line each",
     HEAD + "ExecStart=/bin/true\n" + "".join(f"SupplementaryGroups={i}\n" for i in range(65536)),
     1, "needs root"),
    ("a 2 MiB line", HEAD + "ExecStart=/bin/true" + " a" * (1 << 20) + "\n", 2,
     ":2: a line longer than 1 MiB"),
    ("${A} 100,000 times, A 64 KiB", HEAD + "Environment=A=" + "x" * 65536 + "\n"
     + "ExecStart=/bin/true " + "${A}" * 100000 + "\n", 2,
     "an argument longer than execve(2) takes"),
    ("513 ExecStart= commands", HEAD + "Type=oneshot\n" + "ExecStart=/bin/true\n" * 513, 2,
     ":515: ExecStart=: more than 512 commands"),
    ("an octal escape above \\377", HEAD + "ExecStart=/bin/echo \\400\n", 2,
     ":2: ExecStart= has the octal escape '\\400', above \\377"),
    ("a \\u surrogate", HEAD + "ExecStart=/bin/echo \\ud800\n", 2, "a UTF-16 surrogate"),
    ("\\U above U+10FFFF", HEAD + "ExecStart=/bin/echo \\U00110000\n", 2, "not a character"),
]
bad = 0
for i, (name, text, want_rc, want_msg) in enumerate(cases):
    path = os.path.join(work, f"big{i}.service")
    with open(path, "w") as f:
        f.write(text)
    # each case in a child of its own: its peak RSS alone
    probe = ("import resource,subprocess,sys,time;t=time.monotonic();"
             "p=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.PIPE);"
             "print(p.returncode,resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,"
             "round(time.monotonic()-t,3));print(p.stderr.decode(errors='replace'))")
    out = subprocess.run([sys.executable, "-c", probe, capaudit, "record", "-q", "--service",
                          path, "-o", os.path.join(work, "r.jsonl")],
                         stdout=subprocess.PIPE).stdout.decode()
    first, _, err = out.partition("\n")
    rc, rss_kb, secs = first.split()
    rc, rss_mib = int(rc), int(rss_kb) / 1024
    errl = [l for l in err.splitlines() if l and not l.startswith("capaudit: note:")]
    ok = rc == want_rc and any(want_msg in l for l in errl) and len(errl) == 1
    if max_rss and rss_mib > max_rss:
        ok = False
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {name} ({len(text) >> 10} KiB): exit {rc}, "
          f"{rss_mib:.0f} MiB, {secs} s: {errl[0] if errl else '(nothing said)'}")
sys.exit(1 if bad else 0)
