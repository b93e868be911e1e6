#!/usr/bin/env python3
"""capaudit record --service on unit files built to be large, alone or
with drop-ins (NAME.service.d/*.conf): each must be parsed, or refused
with one FILE:LINE line, in linear time and memory.
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
    # drop-ins: each file within the unit file's limits, all of them within
    # 16 MiB and 1024 files; the limits on what the unit builds count
    # across them, and the file that crosses one is named
    ("a 5 MiB drop-in", HEAD + "ExecStart=/bin/true\n", 2,
     "10-big.conf: larger than 4 MiB: not a unit file",
     [("10-big.conf", HEAD + "# padding\n" * (5 << 17))]),
    ("1,025 drop-ins", HEAD + "ExecStart=/bin/true\n", 2, ": more than 1024 drop-in files",
     [(f"{k:04d}.conf", HEAD) for k in range(1025)]),
    ("500 drop-ins of 1,000 Environment= lines", HEAD + "ExecStart=/bin/true $A\n", 1,
     "needs root", [(f"{k:04d}.conf", HEAD + "Environment=A=b\n" * 1000) for k in range(500)]),
    ("5 drop-ins of 4 MiB", HEAD + "ExecStart=/bin/true\n", 2,
     "0003.conf: the unit and its drop-ins are larger than 16 MiB together",
     [(f"{k:04d}.conf", HEAD + "# padding\n" * ((4 << 20) // 10 - 1)) for k in range(5)]),
    ("4,097 Environment= variables across drop-ins", HEAD + "ExecStart=/bin/true\n", 2,
     "0002.conf:98: Environment=: more than 4096 variables",
     [(f"{k:04d}.conf", HEAD + "".join(f"Environment=V{k}_{i}=x\n" for i in range(2000)))
      for k in range(3)]),
]
bad = 0
# the host's own drop-ins (service.d/ of every service) stay out
env = dict(os.environ, SYSTEMD_UNIT_PATH=os.path.join(work, "no-unit-path"))
for i, (name, text, want_rc, want_msg, *more) in enumerate(cases):
    path = os.path.join(work, f"big{i}.service")
    with open(path, "w") as f:
        f.write(text)
    for fname, ftext in (more[0] if more else []):
        os.makedirs(path + ".d", exist_ok=True)
        with open(os.path.join(path + ".d", fname), "w") as f:
            f.write(ftext)
    # each case in a child of its own: its peak RSS alone
    probe = ("import resource,subprocess,sys,time;t=time.monotonic();"
             "p=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.PIPE);"
             "print(p.returncode,resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,"
             "round(time.monotonic()-t,3));print(p.stderr.decode(errors='replace'))")
    out = subprocess.run([sys.executable, "-c", probe, capaudit, "record", "-q", "--service",
                          path, "-o", os.path.join(work, "r.jsonl")],
                         stdout=subprocess.PIPE, env=env).stdout.decode()
    first, _, err = out.partition("\n")
    rc, rss_kb, secs = first.split()
    rc, rss_mib = int(rc), int(rss_kb) / 1024
    errl = [l for l in err.splitlines() if l and not l.startswith("capaudit: note:")]
    ok = rc == want_rc and any(want_msg in l for l in errl) and len(errl) == 1
    if max_rss and rss_mib > max_rss:
        ok = False
    bad += not ok
    size = len(text) + sum(len(t) for _, t in (more[0] if more else []))
    print(f"{'ok  ' if ok else 'FAIL'} {name} ({size >> 10} KiB): exit {rc}, "
          f"{rss_mib:.0f} MiB, {secs} s: {errl[0] if errl else '(nothing said)'}")
sys.exit(1 if bad else 0)
