/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The iterators' BPF object (bpf/tasks.bpf.c: iter/task, and iter/ksym
 * where the kernel has it), loaded once for both: each load of a BPF object
 * parses the kernel's BTF (libbpf 1.1: 12-20 ms, two 5.4 MB copies for a
 * moment). tasks_iter.c and ksyms_iter.c use it.
 */
#ifndef CA_ITERS_H
#define CA_ITERS_H

#include <stddef.h>

struct tasks_bpf;

/* The object, loaded now if it is not yet; NULL with errno set (and a
 * line in err) if it cannot be. Its dump_ksym is loaded only where the
 * kernel has iter/ksym and it loads (bpf_program__fd() < 0 otherwise). */
struct tasks_bpf *iters_get(char *err, size_t errlen);
/* Kept loaded until iters_release() (ksyms_iter_prepare()); without it,
 * iters_put() releases it after each use. */
void iters_keep(void);
void iters_put(void);
void iters_release(void);

#endif
