/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the start-up and the end of a run go: a phase timer. Each mark
 * ends the phase before it and names the next; the time between two marks
 * is counted by CLOCK_MONOTONIC (wall) and by the process's CPU clock
 * (CLOCK_PROCESS_CPUTIME_ID: every thread's user and system time), so that
 * a phase that waits (a grace period, a child, the disk) tells itself from
 * one that computes. Off unless CAPAUDIT_PHASES is set in the environment:
 * then, at exit, one line a phase on standard error,
 *   capaudit: phase NAME wall_ms=W cpu_ms=C rss_kb=R hwm_kb=H
 * (R: resident at the phase's end, H: the peak so far), "phase exec" for the time before the
 * first mark (the exec and the dynamic linker, from /proc/self/stat's
 * start time: 10 ms resolution), and a last one, "phase total", from the
 * process's start to the exit, with the peak resident set (VmHWM).
 * CAPAUDIT_PHASES=PATH (an absolute path) appends the lines to that file
 * instead (make bench reads them there). A mark costs two clock reads.
 */
#ifndef CA_PHASE_H
#define CA_PHASE_H

/* The phase that starts now is name (a string that outlives the process:
 * a literal). The first mark also turns the timer on, if the environment
 * asks for it. */
void phase_mark(const char *name);

#endif
