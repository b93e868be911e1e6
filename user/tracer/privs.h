/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capaudit's own privileges: it records with CAP_BPF and CAP_PERFMON only.
 * As root it drops everything else before it attaches; as an ordinary
 * user it needs just those two (file capabilities or ambient).
 */
#ifndef CA_PRIVS_H
#define CA_PRIVS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/views.h"
#include "facts/capnames.h"

/* The capabilities the loader keeps. */
#define PRIVS_NEEDED (CAP_BIT(CAP_PERFMON) | CAP_BIT(CAP_BPF))
/* What creating and replacing files where the caller may ask takes (others'
 * directories, a kept owner): the output keeper keeps these, if held. */
#define PRIVS_FILES (CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_DAC_OVERRIDE) | \
		     CAP_BIT(CAP_DAC_READ_SEARCH) | CAP_BIT(CAP_FOWNER))


int privs_read(struct privs *p);

/* 0 if the permitted set holds CAP_BPF and CAP_PERFMON; else -1 and one
 * line in err naming what is missing and how to grant it. */
int privs_check(const char *argv0, char *err, size_t errlen);

/*
 * Keep only CAP_BPF and CAP_PERFMON: effective and permitted reduced to
 * them, inheritable and ambient cleared, the bounding set reduced when
 * CAP_SETPCAP allows, and PR_SET_NO_NEW_PRIVS. Returns 0 or -1 with err.
 */
int privs_drop(char *err, size_t errlen);
/* The same, keeping nothing: for the subcommands that read files and load
 * no BPF (report, check), before they read any input. */
int privs_drop_all(char *err, size_t errlen);

/*
 * Before the drop: RLIMIT_MEMLOCK raised to unlimited while CAP_SYS_RESOURCE
 * may still raise the hard limit (the soft one up to the hard one without
 * it). Kernels before 5.11 charge BPF maps and programs to it (facts/kfeat.h
 * KF_MEMCG_SINCE) and capaudit's maps alone are larger than the usual
 * 8 MiB; once dropped to CAP_BPF and CAP_PERFMON, capaudit (and libbpf's
 * own bump) can no longer raise it. Processes forked before keep their
 * limits (the command capaudit runs is). 0, or -1 with errno.
 */
int privs_raise_memlock(void);
/* The soft RLIMIT_MEMLOCK in KiB, -1 when unlimited. */
long privs_memlock_kib(void);

/*
 * Before dropping: a caller holding any of PRIVS_FILES starts the output
 * keeper (lib/outfile.h) for the files it will write (paths; "-" and NULL
 * left out), reduced to those of PRIVS_FILES it holds, so that they are
 * created and replaced with the caller's rights after the drop. Anyone
 * else has nothing to keep. 0, or -1 with err.
 */
int privs_keep_outputs(const char *const *paths, size_t n, char *err, size_t errlen);

#endif
