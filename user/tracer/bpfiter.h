/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a BPF iterator's output (iter/ksym, iter/task): needs libbpf. */
#ifndef CA_BPFITER_H
#define CA_BPFITER_H

#include <stddef.h>

struct bpf_program;

/*
 * Attach the iterator program prog, run it and read all it writes: 0 with
 * *out (malloc'd, NUL-terminated after its *len bytes), or -1 with
 * "WHAT: why" in err.
 */
int bpf_iter_read_all(struct bpf_program *prog, const char *what, char **out, size_t *len,
		      char *err, size_t errlen);

/* The same, each chunk read handed to fn as it comes (nothing kept). */
int bpf_iter_read_chunks(struct bpf_program *prog, const char *what,
			 void (*fn)(void *ctx, const char *buf, size_t len), void *ctx,
			 char *err, size_t errlen);

#endif
