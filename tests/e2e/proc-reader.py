#!/usr/bin/env python3
"""proc-reader.py PIDFILE SECONDS: once PIDFILE holds a pid, read that
process's /proc/PID/cmdline over and over (through its exec: the fd reads
whichever program the process runs) until it ends or SECONDS pass. Each
read holds the process's mmap_lock for reading (get_mm_cmdline(),
access_remote_vm()), as a monitoring agent's ps does: ustacks.bats runs it
beside a recording."""
import os
import sys
import time

path, end = sys.argv[1], time.monotonic() + float(sys.argv[2])
pid = ''
while not pid and time.monotonic() < end:
    try:
        with open(path) as f:
            pid = f.read().strip()
    except OSError:
        time.sleep(0.001)
if not pid:
    sys.exit(1)
fd = os.open(f'/proc/{pid}/cmdline', os.O_RDONLY)
while time.monotonic() < end:
    try:
        os.pread(fd, 4096, 0)
    except OSError:
        break   # the process is gone
