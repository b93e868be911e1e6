/* SPDX-License-Identifier: GPL-2.0 */
/* What this kernel offers for hooking cap_capable(). */
#ifndef CA_PROBE_H
#define CA_PROBE_H

#include <stddef.h>

#include "attach.h"

/*
 * Cheap checks before loading anything: 0 when the mode may work here,
 * -1 with the reason in why (e.g. "kprobes are not built into this kernel").
 * Loading and attaching remain the final word.
 */
int attach_precheck(enum attach_mode m, char *why, size_t n);

/*
 * Does the kernel's BTF name this type or function? A scan of the string
 * section (no parse: parsing vmlinux BTF costs ~11 MB of memory); a hint
 * for prechecks, not proof. -1 without kernel BTF.
 */
int btf_has_name(const char *name);

/* The tracefs directory holding events/, or NULL when not mounted. */
const char *tracefs_dir(void);

#endif
