#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench/costs.py: the costs a user meets outside the check's hit path.

bench.c measures one known call site's check; this measures what every run,
every process start and the always-on monitor cost (issue 45), each against
its target, with a verdict:

  startup   `capaudit record -q -o X -- true` N times: the median wall time
            (what a caller waits for, verify on every run) and CPU time
            (wait4's rusage: the kernel's accounting), and the median of each
            phase the loader's phase timer reports (CAPAUDIT_PHASES:
            user/lib/phase.h): BTF and feature probes, object open, load and
            verification, kernel symbols, attach, the end. The same phases up
            to "ready" for `monitor -a` and up to "running" for `run`.
            Target: at most 0.3 s.
  procstart the BPF time one short-lived process (fork, exec of /bin/true,
            exit) costs under `monitor -a` and `record -a`: each hook's
            run_time_ns / run_cnt (bpf_stats, the kernel's own accounting) in
            a loop of process starts, the check program's runs a process
            (its first checks: new keys, the slow path) beyond the machine's
            own rate measured just before. Target: at most 20 us in all.
            The ptrace-access hooks' share: the same loop recorded as
            `record -- sh -c LOOP` with and without them (wall and CPU a
            process, ratio of the pair), and their programs' BPF time.
  monshare  `monitor -a` at fixed rates (10,000 checks/s from one process,
            klogctl with dmesg_restrict=1, plus 500 process starts/s) for
            DURATION s: its own utime+stime (its output keeper's too, from
            /proc) plus its programs' run_time_ns, as % of one core.
            Target: at most 1%.
  rss       VmHWM of the recorder (record -- true), VmRSS/VmHWM of the monitor
            idle, then after a few seconds at several process rates.
            Target: recorder and idle monitor under 20 MiB.

Every figure of one run is measured in that run; the machine is shared:
ratios and CPU time by the kernel's accounting move less than wall time.

  BENCH_QUICK=1 tools/bench/costs.py    a quick run (about 1.5 min)
  tools/bench/costs.py [PART...]        parts: startup procstart monshare rss
  CAPAUDIT=path/to/capaudit             default: build/capaudit
  CAPAUDIT_BASE=path/to/older/capaudit  start-up: run in turn with it, ratio pair by pair

The last line starts with "costs: " and holds key=value pairs (make bench
appends them to its own). Needs root and bpftool.
"""
import ctypes
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAPAUDIT = os.environ.get("CAPAUDIT", os.path.join(HERE, "build", "capaudit"))
QUICK = os.environ.get("BENCH_QUICK", "0") not in ("", "0")
TMP = tempfile.mkdtemp(prefix="capaudit-costs.")
KV = {}

TARGET_STARTUP_S = 0.3
TARGET_PROCSTART_US = 20.0
TARGET_MONITOR_PCT = 1.0
TARGET_RSS_KIB = 20 * 1024

libc = ctypes.CDLL(None, use_errno=True)


def say(*a):
    print(*a, flush=True)


def verdict(ok):
    return "met" if ok else "not met"


# --- bpf_stats ---------------------------------------------------------------

def stats_on():
    """BPF_ENABLE_STATS (held for as long as this process lives), else the
    sysctl (put back at exit). Returns how."""
    class Attr(ctypes.Structure):
        _fields_ = [("type", ctypes.c_uint32), ("pad", ctypes.c_uint8 * 124)]
    attr = Attr()
    attr.type = 0  # BPF_STATS_RUN_TIME
    nr_bpf = {"x86_64": 321, "aarch64": 280}.get(os.uname().machine, 321)
    fd = libc.syscall(nr_bpf, 32, ctypes.byref(attr), ctypes.sizeof(attr))  # BPF_ENABLE_STATS
    if fd >= 0:
        stats_on.fd = fd
        return "BPF_ENABLE_STATS"
    path = "/proc/sys/kernel/bpf_stats_enabled"
    with open(path) as f:
        stats_on.old = f.read().strip()
    with open(path, "w") as f:
        f.write("1")
    return "kernel.bpf_stats_enabled"


def stats_off():
    if getattr(stats_on, "old", None) is not None:
        with open("/proc/sys/kernel/bpf_stats_enabled", "w") as f:
            f.write(stats_on.old)


def prog_ids(pid):
    """The BPF programs process pid holds (its fds and its links' programs)."""
    ids = set()
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return ids
    for fd in fds:
        try:
            with open(f"/proc/{pid}/fdinfo/{fd}") as f:
                for line in f:
                    if line.startswith("prog_id:"):
                        ids.add(int(line.split()[1]))
        except OSError:
            pass
    return ids


def prog_stats(ids):
    """{id: (name, run_time_ns, run_cnt)} for those programs."""
    out = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True, text=True)
    res = {}
    try:
        progs = json.loads(out.stdout or "[]")
    except ValueError:
        progs = []
    for p in progs:
        if p.get("id") in ids:
            res[p["id"]] = (p.get("name", "?"), p.get("run_time_ns", 0), p.get("run_cnt", 0))
    return res


def stats_delta(a, b):
    """{name: (ns, cnt)} between two readings, summed by name."""
    d = {}
    for i, (name, ns, cnt) in b.items():
        if i in a:
            ns0, cnt0 = a[i][1], a[i][2]
            x = d.get(name, (0, 0))
            d[name] = (x[0] + ns - ns0, x[1] + cnt - cnt0)
    return d


# --- processes -----------------------------------------------------------------

def proc_cpu_s(pid):
    """utime+stime of pid, and of its children (the output keeper)."""
    tck = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{t}/children") as f:
                pids += [int(x) for x in f.read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                st = f.read().rsplit(")", 1)[1].split()
            total += (int(st[11]) + int(st[12])) / tck
        except (OSError, IndexError):
            pass
    return total


def proc_status_kb(pid, key):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return -1


def wait_attached(pid, want=4, timeout=60):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if len(prog_ids(pid)) >= want:
            return True
        time.sleep(0.05)
    return False


def run_timed(argv, env=None):
    """(wall s, cpu s, maxrss KiB, status) of one run, by wait4."""
    t = time.monotonic()
    p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, st, ru = os.wait4(p.pid, 0)
    p.returncode = st
    return time.monotonic() - t, ru.ru_utime + ru.ru_stime, ru.ru_maxrss, st


def read_phases(path):
    """[(name, wall_ms, cpu_ms)] in order, from one run's phase file."""
    res = []
    try:
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) < 3 or w[1] != "phase":
                    continue
                kv = dict(x.split("=", 1) for x in w if "=" in x)
                name = " ".join(x for x in w[2:] if "=" not in x)
                res.append((name, float(kv.get("wall_ms", 0)), float(kv.get("cpu_ms", 0)),
                            int(kv.get("rss_kb", kv.get("hwm_kb", 0)))))
    except OSError:
        pass
    return res


def sum_by_name(phases):
    d, order = {}, []
    for name, w, c, _ in phases:
        if name not in d:
            order.append(name)
            d[name] = [0.0, 0.0]
        d[name][0] += w
        d[name][1] += c
    return d, order


def up_to(phases, last):
    """Wall ms from the process start (phase exec) to the mark named last."""
    total = sum(w for n, w, _, _ in phases if n == "exec")
    for n, w, _, _ in phases:
        if n == last:
            return total
        if n not in ("exec", "total"):
            total += w
    return None


# --- workloads ----------------------------------------------------------------

def spawn_loop(n, rate=0.0, checks_per_s=0, seconds=0.0):
    """n process starts (posix_spawn of /bin/true, reaped), at most rate a
    second (0: as fast as they come); with checks_per_s, klogctl calls from
    this process at that rate, for seconds (then n is ignored)."""
    klog = libc.klogctl
    tick = 0.002
    made = calls = 0
    t0 = time.monotonic()
    live = 0
    while True:
        now = time.monotonic() - t0
        if seconds and now >= seconds:
            break
        if not seconds and made >= n:
            break
        due = int(now * rate) + 1 if rate else made + 1
        while made < due and (seconds or made < n):
            os.posix_spawn("/bin/true", ["true"], {})
            made += 1
            live += 1
        if checks_per_s:
            want = int(now * checks_per_s)
            while calls < want:
                klog(10, None, 0)
                calls += 1
        while live:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                live = 0
                break
            if not pid:
                break
            live -= 1
        if rate or checks_per_s:
            time.sleep(tick)
    while live:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
        live -= 1
    return made, calls, time.monotonic() - t0


def dmesg_restrict(v):
    path = "/proc/sys/kernel/dmesg_restrict"
    with open(path) as f:
        old = f.read().strip()
    with open(path, "w") as f:
        f.write(v)
    return old


# --- the parts ----------------------------------------------------------------

def startup():
    n = 5 if QUICK else 15
    say(f"\nStart-up: capaudit record -q -o X -- true, {n} runs (phase timer: CAPAUDIT_PHASES)")
    walls, cpus, rss, runs = [], [], [], []
    base = os.environ.get("CAPAUDIT_BASE")   # an older build, run in turn with this one
    bw, bc, br = [], [], []
    out = os.path.join(TMP, "s.jsonl")
    for k in range(n + 1):
        ph = os.path.join(TMP, f"phases.{k}")
        env = dict(os.environ, CAPAUDIT_PHASES=ph)
        w, c, m, st = run_timed([CAPAUDIT, "record", "-q", "-o", out, "--", "true"], env)
        if base:
            x = run_timed([base, "record", "-q", "-o", out, "--", "true"])
        if k == 0:
            continue  # warm-up: page cache, the first BTF read
        walls.append(w)
        cpus.append(c)
        rss.append(m)
        runs.append(read_phases(ph))
        if base:
            bw.append(x[0])
            bc.append(x[1])
            br.append(x[2])
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    ready = [up_to(r, "running") for r in runs]
    ready = [x for x in ready if x is not None]
    names = []
    per = {}
    for r in runs:
        d, order = sum_by_name([p for p in r if p[0] not in ("total",)])
        for name in order:
            if name not in per:
                names.append(name)
                per[name] = ([], [])
            per[name][0].append(d[name][0])
            per[name][1].append(d[name][1])
    say(f"  {'phase':40s} {'wall ms':>9s} {'cpu ms':>8s}   (medians of {n} runs)")
    for name in names:
        if len(per[name][0]) == len(runs):
            say(f"  {name:40s} {statistics.median(per[name][0]):9.1f} "
                f"{statistics.median(per[name][1]):8.1f}")
    say(f"  whole run: wall {wall * 1000:.0f} ms (min {min(walls) * 1000:.0f}, max "
        f"{max(walls) * 1000:.0f}), CPU {cpu * 1000:.0f} ms; command released after "
        f"{statistics.median(ready):.0f} ms; peak RSS {statistics.median(rss):.0f} KiB")
    if base:
        ratios = [a_ / b_ for a_, b_ in zip(walls, bw)]
        say(f"  {base} in turn with it: wall {statistics.median(bw) * 1000:.0f} ms, CPU "
            f"{statistics.median(bc) * 1000:.0f} ms, peak RSS {statistics.median(br):.0f} KiB; "
            f"this build's wall / its, pair by pair: {statistics.median(ratios):.2f} "
            f"(min {min(ratios):.2f}, max {max(ratios):.2f})")
        KV.update(base_record_ms=round(statistics.median(bw) * 1000),
                  base_record_cpu_ms=round(statistics.median(bc) * 1000),
                  base_record_hwm_kb=round(statistics.median(br)),
                  startup_vs_base=round(statistics.median(ratios), 2))
    KV.update(startup_record_ms=round(wall * 1000), startup_record_cpu_ms=round(cpu * 1000),
              startup_record_ready_ms=round(statistics.median(ready)) if ready else -1,
              record_hwm_kb=round(statistics.median(rss)))
    # where the time goes, by kind
    for key, names_ in (("btf_probes", ("feature probes", "kallsyms, kprobe events",
                                        "iterators' object load", "processes named")),
                        ("load", ("load: BTF, maps, verifier", "open object")),
                        ("kallsyms", ("kallsyms before drop", "symbols before the command",
                                      "symbols at end")),
                        ("attach", ("attach", "ptrace hooks' events")),
                        ("detach", ("detach", "drain"))):
        v = [sum(per[x][0][i] for x in names_ if x in per and len(per[x][0]) == len(runs))
             for i in range(len(runs))]
        KV[f"startup_{key}_ms"] = round(statistics.median(v))

    # monitor -a up to ready, run up to the command's release
    mon_ready = []
    for k in range(3 if QUICK else 5):
        ph = os.path.join(TMP, f"mphases.{k}")
        env = dict(os.environ, CAPAUDIT_PHASES=ph)
        p = subprocess.Popen([CAPAUDIT, "monitor", "-q", "-a", "--interval", "60", "-o",
                              os.path.join(TMP, "m.jsonl")], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_attached(p.pid)
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        p.wait()
        r = up_to(read_phases(ph), "ready")
        if r is not None:
            mon_ready.append(r)
    run_ready, run_wall = [], []
    for k in range(3 if QUICK else 5):
        ph = os.path.join(TMP, f"rphases.{k}")
        env = dict(os.environ, CAPAUDIT_PHASES=ph)
        w, _, _, _ = run_timed([CAPAUDIT, "run", "--caps", "none", "-o",
                                os.path.join(TMP, "r.jsonl"), "--", "true"], env)
        r = up_to(read_phases(ph), "running")
        run_wall.append(w)
        if r is not None:
            run_ready.append(r)
    mr = statistics.median(mon_ready) if mon_ready else -1
    rr = statistics.median(run_ready) if run_ready else -1
    rw = statistics.median(run_wall) * 1000
    say(f"  monitor -a ready after {mr:.0f} ms; run --caps none -- true: command released "
        f"after {rr:.0f} ms, whole run {rw:.0f} ms")
    KV.update(startup_monitor_ready_ms=round(mr), startup_run_ready_ms=round(rr),
              startup_run_ms=round(rw))
    ok = wall <= TARGET_STARTUP_S
    say(f"  Target: record -- true within {TARGET_STARTUP_S} s: {verdict(ok)} "
        f"({wall:.2f} s)")
    KV["startup_target"] = "met" if ok else "not_met"


def hook_name(name):
    if name.startswith("pt_"):
        return "ptrace"
    for key in ("cap_capable", "fork", "exec", "exit", "sys_exit"):
        if key in name:
            return key
    return "ptrace" if name.startswith("pt_") else name


def procstart_under(argv, label, nproc):
    """BPF time a process start under argv. Other processes of the machine
    fork and check too (a shared machine: bursts of them): rounds of half
    an idle second (their rate) then a loop of process starts; a round's
    figure is what its loop added over that rate, per process start; the
    median of the rounds is quoted (a burst moves one round)."""
    rounds = 6 if QUICK else 12
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    per = {}       # hook: [(us a start, runs a start)] by round
    raw = {}       # hook: [ns, runs] in the loops, all of the machine's
    made = 0
    secs = 0.0
    try:
        if not wait_attached(p.pid):
            say(f"  {label}: did not attach")
            return None
        time.sleep(1)
        ids = prog_ids(p.pid)
        spawn_loop(200)   # warm-up
        for _ in range(rounds):
            a = prog_stats(ids)
            t = time.monotonic()
            time.sleep(0.5)
            b = prog_stats(ids)
            idle_s = time.monotonic() - t
            idle = stats_delta(a, b)
            a = prog_stats(ids)
            m, _, lsecs = spawn_loop(nproc // rounds)
            b = prog_stats(ids)
            made += m
            secs += lsecs
            d = {}
            for name, (ns, cnt) in stats_delta(a, b).items():
                h = hook_name(name)
                ins, icnt = idle.get(name, (0, 0))
                x = d.setdefault(h, [0.0, 0.0])
                x[0] += ns - ins * lsecs / idle_s
                x[1] += cnt - icnt * lsecs / idle_s
                y = raw.setdefault(h, [0, 0])
                y[0] += ns
                y[1] += cnt
            for h, (ns, cnt) in d.items():
                per.setdefault(h, []).append((ns / m / 1000, cnt / m))
    finally:
        p.send_signal(signal.SIGINT)
        p.wait()
    total_us = 0.0
    parts = {}
    say(f"  {label}: {made} process starts in {secs:.1f} s ({rounds} rounds; medians)")
    for h in ("fork", "exec", "exit", "cap_capable", "ptrace", "sys_exit"):
        if h not in per or not raw[h][1]:
            continue
        us = max(statistics.median(x[0] for x in per[h]), 0)
        runs = statistics.median(x[1] for x in per[h])
        per_run = raw[h][0] / raw[h][1]
        total_us += us
        parts[h] = (per_run, runs, us)
        say(f"    {h:12s} {us:6.2f} us a process start ({runs:5.2f} runs a start; "
            f"{per_run:6.0f} ns a run in the loops)")
    say(f"    in all: {total_us:.1f} us of BPF time a process start")
    return total_us, parts


def procstart():
    n = 1000 if QUICK else 3000
    say(f"\nBPF time a process start (fork, exec /bin/true, exit; bpf_stats; {n} starts)")
    mon = procstart_under([CAPAUDIT, "monitor", "-q", "-a", "--interval", "60", "-o",
                           os.path.join(TMP, "pm.jsonl")], "monitor -a", n)
    rec = procstart_under([CAPAUDIT, "record", "-q", "-a", "-o",
                           os.path.join(TMP, "pr.jsonl")], "record -a", n)
    recp = procstart_under([CAPAUDIT, "record", "-q", "-a", "--ptrace-access", "on", "-o",
                            os.path.join(TMP, "pp.jsonl")], "record -a --ptrace-access on", n)
    if mon:
        KV["procstart_monitor_us"] = round(mon[0], 1)
        for h, (per_run, runs, us) in mon[1].items():
            KV[f"procstart_monitor_{h}_us"] = round(us, 2)
        cc = mon[1].get("cap_capable")
        if cc:
            KV["procstart_monitor_checks"] = round(cc[1], 1)
    if rec:
        KV["procstart_record_us"] = round(rec[0], 1)
    if recp:
        KV["procstart_record_ptrace_us"] = round(recp[0], 1)
        pt = recp[1].get("ptrace")
        KV["procstart_ptrace_bpf_us"] = round(pt[2], 1) if pt else 0

    # the ptrace-access hooks as a command's recording has them: the same
    # loop recorded with and without, pairs interleaved
    m = 300 if QUICK else 1000
    loop = f"i=0; while [ $i -lt {m} ]; do /bin/true; i=$((i+1)); done"
    ratios, dw, dc = [], [], []
    for k in range(3 if QUICK else 5):
        res = {}
        for mode in (("on", "off") if k % 2 == 0 else ("off", "on")):
            w, c, _, _ = run_timed([CAPAUDIT, "record", "-q", "--ptrace-access", mode, "-o",
                                    os.path.join(TMP, "pl.jsonl"), "--", "sh", "-c", loop])
            res[mode] = (w, c)
        ratios.append(res["on"][0] / res["off"][0])
        dw.append((res["on"][0] - res["off"][0]) / m * 1e6)
        dc.append((res["on"][1] - res["off"][1]) / m * 1e6)
    say(f"  record -- sh -c 'loop of {m} /bin/true', with the ptrace-access hooks against "
        f"without: wall ratio {statistics.median(ratios):.3f}, {statistics.median(dw):+.0f} us "
        f"wall a process start (the loader's CPU {statistics.median(dc):+.0f} us)")
    KV["ptrace_hooks_wall_ratio"] = round(statistics.median(ratios), 3)
    KV["ptrace_hooks_us_per_start"] = round(statistics.median(dw))
    if mon:
        ok = mon[0] <= TARGET_PROCSTART_US
        say(f"  Target: at most {TARGET_PROCSTART_US:.0f} us of BPF time a short-lived process "
            f"start under monitor -a: {verdict(ok)} ({mon[0]:.1f} us)")
        KV["procstart_target"] = "met" if ok else "not_met"


def monshare():
    secs = 10 if QUICK else 20
    rate_p, rate_c = 500, 10000
    say(f"\nThe monitor at fixed rates: {rate_c} checks/s from one process and {rate_p} process "
        f"starts/s, {secs} s")
    old = dmesg_restrict("1")
    p = subprocess.Popen([CAPAUDIT, "monitor", "-q", "-a", "--interval", "60", "-o",
                          os.path.join(TMP, "ms.jsonl")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        if not wait_attached(p.pid):
            say("  monitor did not attach")
            return
        time.sleep(1)
        # warm-up: the table at its working size
        spawn_loop(0, rate_p, rate_c, 2)
        ids = prog_ids(p.pid)

        def window(f):
            a_, c_, t_ = prog_stats(ids), proc_cpu_s(p.pid), time.monotonic()
            r = f()
            b_, c2, t2 = prog_stats(ids), proc_cpu_s(p.pid), time.monotonic()
            d_ = stats_delta(a_, b_)
            return (t2 - t_, c2 - c_, sum(ns for ns, _ in d_.values()) / 1e9,
                    sum(cnt for n_, (_, cnt) in d_.items() if "cap_capable" in n_), r)
        # the machine's other processes are monitored too: their rate, idle,
        # before and after (what the fixed rates added is the load's less it)
        i1 = window(lambda: time.sleep(3))
        ld = window(lambda: spawn_loop(0, rate_p, rate_c, secs))
        i2 = window(lambda: time.sleep(3))
    finally:
        p.send_signal(signal.SIGINT)
        p.wait()
        dmesg_restrict(old)
    el, own, bpf_s, checks, (made, calls, _) = ld
    idle_s = i1[0] + i2[0]
    bg_own = (i1[1] + i2[1]) / idle_s
    bg_bpf = (i1[2] + i2[2]) / idle_s
    bg_checks = (i1[3] + i2[3]) / idle_s
    raw = (own + bpf_s) / el * 100
    own_add = max(own / el - bg_own, 0) * 100
    bpf_add = max(bpf_s / el - bg_bpf, 0) * 100
    pct = own_add + bpf_add
    say(f"  made {calls / el:.0f} checks/s and {made / el:.0f} starts/s; the check program ran "
        f"{checks / el:.0f} times/s, {bg_checks:.0f}/s idle (the machine's other processes)")
    say(f"  during the load: the monitor's own CPU {own * 1000:.0f} ms + its programs "
        f"{bpf_s * 1000:.0f} ms in {el:.1f} s = {raw:.2f}% of one core; idle (before and "
        f"after, {idle_s:.0f} s): {bg_own * 100:.2f}% + {bg_bpf * 100:.2f}%")
    say(f"  the fixed rates' share: {pct:.2f}% of one core ({own_add:.2f}% its own CPU + "
        f"{bpf_add:.2f}% its programs)")
    ok = pct <= TARGET_MONITOR_PCT
    say(f"  Target: at most {TARGET_MONITOR_PCT:.0f}% of one core: {verdict(ok)}")
    KV.update(monitor_cpu_pct=round(pct, 2), monitor_own_cpu_pct=round(own_add, 2),
              monitor_bpf_cpu_pct=round(bpf_add, 2), monitor_cpu_raw_pct=round(raw, 2),
              monitor_share_target="met" if ok else "not_met")


def rss():
    say("\nMemory")
    rec = KV.get("record_hwm_kb")
    if rec is None:
        _, _, rec, _ = run_timed([CAPAUDIT, "record", "-q", "-o", os.path.join(TMP, "x.jsonl"),
                                  "--", "true"])
        KV["record_hwm_kb"] = rec
    p = subprocess.Popen([CAPAUDIT, "monitor", "-q", "-a", "--interval", "2", "-o",
                          os.path.join(TMP, "mr.jsonl")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = []
    try:
        wait_attached(p.pid)
        time.sleep(3)
        idle = proc_status_kb(p.pid, "VmRSS"), proc_status_kb(p.pid, "VmHWM")
        for rate in ((100, 500) if QUICK else (100, 500, 2000)):
            spawn_loop(0, rate, 0, 3 if QUICK else 6)
            time.sleep(2.5)  # a checkpoint
            rows.append((rate, proc_status_kb(p.pid, "VmRSS"), proc_status_kb(p.pid, "VmHWM")))
    finally:
        p.send_signal(signal.SIGINT)
        p.wait()
    base = os.environ.get("CAPAUDIT_BASE")
    if base:   # the older build's monitor, idle
        q = subprocess.Popen([base, "monitor", "-q", "-a", "--interval", "60", "-o",
                              os.path.join(TMP, "mb.jsonl")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_attached(q.pid)
            time.sleep(3)
            bidle = proc_status_kb(q.pid, "VmRSS"), proc_status_kb(q.pid, "VmHWM")
        finally:
            q.send_signal(signal.SIGINT)
            q.wait()
        say(f"  {base} monitor -a idle: VmRSS {bidle[0]} KiB, VmHWM {bidle[1]} KiB")
        KV.update(base_monitor_idle_rss_kb=bidle[0], base_monitor_idle_hwm_kb=bidle[1])
    say(f"  record -- true: peak RSS {rec} KiB ({rec / 1024:.1f} MiB)")
    say(f"  monitor -a idle: VmRSS {idle[0]} KiB, VmHWM {idle[1]} KiB")
    for rate, r, h in rows:
        say(f"  monitor -a after {rate} process starts/s: VmRSS {r} KiB, VmHWM {h} KiB")
    ok = rec < TARGET_RSS_KIB and idle[1] < TARGET_RSS_KIB
    say(f"  Target: recorder and idle monitor under 20 MiB: {verdict(ok)} (recorder "
        f"{verdict(rec < TARGET_RSS_KIB)}, idle monitor {verdict(idle[1] < TARGET_RSS_KIB)})")
    KV.update(monitor_idle_rss_kb=idle[0], monitor_idle_hwm_kb=idle[1],
              rss_target="met" if ok else "not_met")
    for rate, r, h in rows:
        KV[f"monitor_rss_kb_at_{rate}"] = r


def main():
    parts = sys.argv[1:] or ["startup", "procstart", "monshare", "rss"]
    if os.geteuid():
        sys.exit("costs: needs root")
    how = stats_on()
    say(f"costs: bpf_stats on ({how}); {'quick' if QUICK else 'full'} run; load "
        f"{os.getloadavg()[0]:.2f}")
    t = time.monotonic()
    try:
        for part in parts:
            {"startup": startup, "procstart": procstart, "monshare": monshare, "rss": rss}[part]()
    finally:
        stats_off()
        subprocess.run(["rm", "-rf", TMP])
    say(f"(costs: {time.monotonic() - t:.0f} s; load {os.getloadavg()[0]:.2f} at the end)")
    say("costs: " + " ".join(f"{k}={v}" for k, v in KV.items()))


if __name__ == "__main__":
    main()
