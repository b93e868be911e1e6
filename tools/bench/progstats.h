/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own accounting of BPF programs (bpf_stats): while it is on,
 * every run of a program adds its duration to the program's run_time_ns
 * and one to its run_cnt (kernel/bpf/syscall.c bpf_prog_get_info_by_fd()
 * reports them; the clock reads around each run are __bpf_prog_run()'s in
 * include/linux/filter.h, and update_prog_stats() in
 * kernel/bpf/trampoline.c for fexit). Time per run = a delta of run_time_ns
 * over a delta of run_cnt: what the program itself costs, without the
 * syscall, the hook's dispatch and whatever else the machine was doing.
 */
#ifndef CAPAUDIT_BENCH_PROGSTATS_H
#define CAPAUDIT_BENCH_PROGSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Turn the accounting on for as long as this process lives. How it was
 * done goes into how ("BPF_ENABLE_STATS" or "kernel.bpf_stats_enabled");
 * -1 with a reason there if it could not be. */
int progstats_on(char *how, size_t len);
/* Back as it was (also done at exit and on SIGINT/SIGTERM). */
void progstats_off(void);

/* A few programs read together (kprobe mode has two per check). */
#define PROGSET_MAX 4

struct progset {
	int fd[PROGSET_MAX];
	int n;
};

/* Totals of a set: the sum of the programs' run_time_ns, and the largest
 * run_cnt (the programs of one set run once each per check). */
struct progtime {
	uint64_t ns, cnt;
};

/* The capability-check programs that process pid has attached (its BPF
 * links to a program named *_cap_capable*), held open so that they can be
 * read after pid exits; how many (0: none yet). */
int progset_of_pid(struct progset *s, pid_t pid);
/* A program fd of our own, duplicated into the set. */
int progset_add_fd(struct progset *s, int fd);
int progset_read(const struct progset *s, struct progtime *t);
void progset_close(struct progset *s);

/* ns per run between two readings, or -1 without runs */
double progtime_per_run(const struct progtime *before, const struct progtime *after);

#endif
