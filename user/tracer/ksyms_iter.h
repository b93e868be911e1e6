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

#endif
