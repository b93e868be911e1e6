/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What machine a bench ran on, so that runs on different machines can be
 * told apart: the CPU model, the kernel, and the CPU vulnerability
 * mitigations in force (the files of /sys/devices/system/cpu/vulnerabilities, written
 * by drivers/base/cpu.c cpu_show_*(); page-table isolation and retpolines
 * make every syscall several hundred ns dearer).
 */
#ifndef CAPAUDIT_BENCH_MACHINE_H
#define CAPAUDIT_BENCH_MACHINE_H

#include <stddef.h>

/* "model name" of /proc/cpuinfo (x86) or its "CPU part" (arm64) */
void machine_cpu(char *buf, size_t len);
/* uname -r and -v */
void machine_kernel(char *buf, size_t len);
/* Print the mitigations, one "  name: state" line each, meltdown and
 * spectre_v2 always and the others unless "Not affected". */
void machine_print_mitigations(void);
/* A short token of the mitigations that cost a syscall most: pti,
 * retpoline, ibrs, eibrs, srso (AMD's Safe RET), rethunk, its, joined with
 * '+'; "none" without any, "unknown" without the folder. */
void machine_mitigations_token(char *buf, size_t len);

#endif
