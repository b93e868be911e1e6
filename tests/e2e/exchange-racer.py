#!/usr/bin/env python3
"""Swap two names in a directory as fast as it can, with
renameat2(RENAME_EXCHANGE), until STOPFILE exists (or SECONDS pass): the
attack tests/e2e/outrace.bats makes on capaudit's output writer, run as
another user in a directory that user may write.

    exchange-racer.py A B STOPFILE SECONDS
"""
import ctypes
import os
import sys
import time

AT_FDCWD = -100
RENAME_EXCHANGE = 2

libc = ctypes.CDLL(None, use_errno=True)
renameat2 = libc.renameat2
renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                      ctypes.c_uint]

a, b, stop, seconds = (os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2]), sys.argv[3],
                       float(sys.argv[4]))
end = time.monotonic() + seconds
swaps = 0
while time.monotonic() < end:
    for _ in range(200):
        if renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0:
            swaps += 1
    if os.path.exists(stop):
        break
print(f"swaps={swaps}", flush=True)
