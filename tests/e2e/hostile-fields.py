#!/usr/bin/env python3
"""Every string field of a record's header and process lines that the
reader accepts, given control and bidirectional characters (an OSC 52
clipboard write, a screen clear, a carriage return, RLO, LRI, C1 CSI),
then every text output of capaudit over it: none may carry one of them
raw to the terminal (they are escaped as \\xNN).

    hostile-fields.py CAPAUDIT FIXTURE BASELINE WORKDIR
"""
import json
import os
import subprocess
import sys

capaudit, fixture, baseline, work = sys.argv[1:5]
EVIL = "x\x1b]52;c;ZXZpbA==\x07\x1b[2J\r\u202e\u2066\u009by"
RAW = ["\x1b", "\x07", "\r", "\x08", "\u202e", "\u2066", "\u009b"]
# the fields a record's reader checks against a grammar of their own
# (format, numbers, times): a string there is refused, not shown
FIXED = {"type", "format", "start", "end", "stop", "capaudit", "build_id", "symbols",
         "machine", "arch"}

lines = [json.loads(l) for l in open(fixture, encoding="utf-8")]


def fields(obj):
    """The string places of a line: (key,) or (key, subkey), arrays whole."""
    for k, v in obj.items():
        if k in FIXED:
            continue
        if isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v)):
            yield (k,)
        elif isinstance(v, dict):
            for sk, sv in v.items():
                if isinstance(sv, str):
                    yield (k, sk)


def mutate(obj, places):
    """A copy of obj with EVIL added to the strings at places."""
    out = json.loads(json.dumps(obj))
    for place in places:
        d = out
        for k in place[:-1]:
            d = d[k]
        v = d[place[-1]]
        d[place[-1]] = [x + EVIL for x in v] if isinstance(v, list) else v + EVIL
    return out


def write(path, recs):
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")


def run(args):
    p = subprocess.run([capaudit] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, (p.stdout + p.stderr).decode("utf-8", "replace")


# a scoped recording's target and a container's process, so that every
# field a text output may show is there
for r in lines:
    if r["type"] == "header":
        r["scope"] = "container"
        r["target"] = {"container": "591d49a5940b" * 5 + "abcd", "name": "web",
                       "cgroup": "/libpod_parent/x"}
    if r["type"] == "process":
        r.update({"unit": "web.service", "container": {"id": "591d49a5940b" * 5 + "abcd",
                                                       "name": "web", "runtime": "podman"}})

# which fields the reader takes with EVIL in them, one at a time (one it
# refuses cannot carry it anywhere)
accepted = {"header": [], "process": []}
for kind in accepted:
    sample = next(r for r in lines if r["type"] == kind)
    for place in fields(sample):
        recs = [mutate(r, [place]) if r["type"] == kind else r for r in lines]
        write(os.path.join(work, "one.jsonl"), recs)
        rc, out = run(["report", "-i", os.path.join(work, "one.jsonl")])
        if rc == 0:
            accepted[kind].append(place)
print("fields given control characters:",
      " ".join(k + "." + ".".join(p) for k in accepted for p in accepted[k]))
for want in [("header", ("attach",)), ("header", ("scope",)), ("header", ("kernel",)),
             ("header", ("argv",)), ("header", ("target", "name")),
             ("process", ("comm",)), ("process", ("exe",)), ("process", ("cgroup",))]:
    assert want[1] in accepted[want[0]], f"the reader refused {want}: the test is blind there"

evil_path = os.path.join(work, "evil.jsonl")
recs = []
for r in lines:
    if r["type"] in accepted:
        recs.append(mutate(r, accepted[r["type"]]))
    elif r["type"] == "stack":
        recs.append(dict(r, frames=[f + EVIL for f in r["frames"]]))
    else:
        recs.append(r)
write(evil_path, recs)

outputs = [["report", "-i", evil_path], ["report", "--noaudit", "-i", evil_path],
           ["report", "--by", "program", "-i", evil_path],
           ["report", "--by", "container", "-i", evil_path],
           ["report", "--suggest", "-i", evil_path],
           ["report", "-i", evil_path, "-i", fixture],
           ["diff", fixture, evil_path], ["diff", evil_path, fixture],
           ["check", "--baseline", baseline, evil_path],
           ["check", "--format", "github", "--baseline", baseline, evil_path]]
for kind in ["setcap", "systemd", "docker", "compose", "kubernetes", "capsh"]:
    outputs.append(["report", "--emit", kind, "-i", evil_path])
bad = 0
for args in outputs:
    rc, out = run(args)
    raw = [repr(c) for c in RAW if c in out]
    shown = "capaudit " + " ".join(a.replace(work, "$T") for a in args)
    if rc not in (0, 1) or raw:
        bad += 1
        print(f"FAIL {shown}: exit {rc}, raw {' '.join(raw)}")
    else:
        print(f"ok   {shown}: exit {rc}, {len(out)} bytes, every control character escaped")
sys.exit(1 if bad else 0)
