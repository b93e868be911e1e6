/* SPDX-License-Identifier: GPL-2.0 */
/* Where the loader gets kernel symbols from (needs libbpf). */
#ifndef CA_KSYMS_ITER_H
#define CA_KSYMS_ITER_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/ksyms.h"

/* Does this kernel have the iter/ksym BPF iterator (Linux 6.0+)? */
bool ksym_iter_supported(void);
/* iter/ksym, else /proc/kallsyms; *source names the one used. NULL with
 * both reasons in err when neither gives addresses. */
struct ksyms *ksyms_best(const char **source, char *err, size_t errlen);
/* The iter/ksym program loaded now, kept for ksyms_best() until
 * ksyms_iter_release(). A load parses the kernel's BTF (libbpf: two copies
 * of /sys/kernel/btf/vmlinux, 11 MB on Debian's 6.x, for a moment): done
 * at the start, before the tables of a recording grow, it does not add to
 * their peak at the end. Nothing when it cannot be loaded (ksyms_best()
 * then tries again, and says why). */
void ksyms_iter_prepare(void);
void ksyms_iter_release(void);

#endif
