#!/usr/bin/env python3
"""Synthetic monitor checkpoints for timing report --fleet (docs/report.md):
   fleet-gen.py DIR FILES PROGRAMS
FILES records, two checkpoints per host (host-NNN-1.jsonl, -2.jsonl), each
with PROGRAMS program identities (two checks each, every third a third:
CAP_SYS_ADMIN at alloc_pid, which CAP_CHECKPOINT_RESTORE replaces); in a
host's second checkpoint every tenth program gains a capability."""
import json, os, sys

d, nfiles, nprog = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(d, exist_ok=True)
T0 = 1796500000000000000
stacks = [["cap_capable+0x83", "ns_capable+0x2d", "chown_common+0x10"],
          ["cap_capable+0x83", "ns_capable+0x2d", "dev_ioctl+0x10"],
          ["cap_capable+0x83", "ns_capable+0x2d", "inet_bind_sk+0x5e"],
          ["cap_capable+0x83", "security_capable+0x3b", "ns_capable+0x2d", "alloc_pid+0x1bc",
           "copy_process+0x1234", "kernel_clone+0x99", "__do_sys_clone3+0x1f0",
           "do_syscall_64+0x71"]]
for k in range(nfiles):
    host, cp = k // 2, k % 2 + 1
    since = T0 + host * 10**9
    end = since + cp * 3600 * 10**9
    hdr = {"type": "header", "format": "capaudit-record", "version": 5, "kernel": "6.12.0",
           "machine": "x86_64", "host": "host-%03d" % host, "attach": "tp_btf",
           "scope": "monitor", "start_ns": since, "end_ns": end,
           "monitor": {"interval": 60, "checkpoint": cp * 60, "since_ns": since}}
    out = [json.dumps(hdr)]
    procs, checks = [], []
    for i in range(nprog):
        pid = 1073741824 + i
        st = since + i
        procs.append({"type": "process", "pid": pid, "start_ns": st, "exec_id": 0, "ppid": 0,
                      "uid": 0, "comm": "p%d" % i, "exe": "/usr/bin/p%d" % i,
                      "build_id": "%040x" % (i + 1), "pids": 1 + i % 5})
        caps = [(0, 0), (12, 1)] + ([(10, 2)] if cp == 2 and i % 10 == 0 else []) \
            + ([(21, 3)] if i % 3 == 0 else [])
        for cap, stk in caps:
            checks.append({"type": "check", "pid": pid, "start_ns": st, "exec_id": 0,
                           "comm": "p%d" % i, "cap": cap, "ret": 0, "count": 3,
                           "first_ns": st, "last_ns": end - 1, "stack": stk})
    out += [json.dumps(p) for p in procs]
    out += [json.dumps({"type": "stack", "id": j, "frames": s}) for j, s in enumerate(stacks)]
    out += [json.dumps(c) for c in checks]
    out.append(json.dumps({"type": "end", "processes": len(procs), "stacks": len(stacks),
                           "checks": len(checks)}))
    with open(os.path.join(d, "host-%03d-%d.jsonl" % (host, cp)), "w") as f:
        f.write("\n".join(out) + "\n")
