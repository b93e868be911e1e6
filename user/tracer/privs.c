// SPDX-License-Identifier: GPL-2.0
#include "tracer/privs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "facts/capnames.h"
#include "lib/outfile.h"
#include "lib/util.h"

static uint64_t status_mask(const char *status, const char *key)
{
	const char *p = strstr(status, key);
	unsigned long long v = 0;

	if (p)
		sscanf(p + strlen(key), " %llx", &v);
	return v;
}

int privs_read(struct privs *p)
{
	char buf[4096];
	FILE *f = fopen("/proc/self/status", "r");
	size_t n;

	memset(p, 0, sizeof(*p));
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p->eff = status_mask(buf, "\nCapEff:");
	p->prm = status_mask(buf, "\nCapPrm:");
	p->inh = status_mask(buf, "\nCapInh:");
	p->bnd = status_mask(buf, "\nCapBnd:");
	p->amb = status_mask(buf, "\nCapAmb:");
	p->no_new_privs = status_mask(buf, "\nNoNewPrivs:") != 0;
	p->uid = getuid();
	p->euid = geteuid();
	return 0;
}

int privs_check(const char *argv0, char *err, size_t errlen)
{
	struct privs p;
	uint64_t missing;
	char names[128], exe[4096], word[4200];
	ssize_t n;

	if (privs_read(&p)) {
		snprintf(err, errlen, "cannot read /proc/self/status: %s", strerror(errno));
		return -1;
	}
	missing = PRIVS_NEEDED & ~p.prm;
	if (!missing)
		return 0;
	/* the hint names the binary by its path, quoted: argv[0] is only
	 * "capaudit" when it was found on PATH, which setcap does not search */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	snprintf(err, errlen, "missing %s (capaudit loads a BPF program): run as root, or grant "
		 "them once with: setcap cap_bpf,cap_perfmon+ep %s",
		 capset_str(missing, names, sizeof(names)),
		 shell_word(n > 0 ? exe : argv0, word, sizeof(word)));
	return -1;
}

/* The same as privs_drop(), keeping the capabilities of keep_mask (bit n:
 * capability n). */
static int privs_reduce(uint64_t keep_mask, char *err, size_t errlen)
{
	cap_value_t keep[64];
	cap_t caps = cap_get_proc();
	cap_flag_value_t setpcap = CAP_CLEAR;
	int c, max = (int)cap_max_bits(), nkeep = 0;
	char what[64];

	for_each_cap(c, keep_mask)
		if (c < max)
			keep[nkeep++] = (cap_value_t)c;
	snprintf(what, sizeof(what), keep_mask == PRIVS_NEEDED ? "to CAP_BPF and CAP_PERFMON" :
		 keep_mask ? "" : "to none");

	if (!caps) {
		snprintf(err, errlen, "cap_get_proc: %s", strerror(errno));
		return -1;
	}
	/* the bounding set first, while CAP_SETPCAP is still effective */
	cap_get_flag(caps, CAP_SETPCAP, CAP_EFFECTIVE, &setpcap);
	if (setpcap == CAP_SET) {
		for (c = 0; c < max; c++) {
			if (capset_has(keep_mask, c) || CAP_IS_SUPPORTED(c) == 0)
				continue;
			if (cap_drop_bound((cap_value_t)c) && errno != EINVAL) {
				snprintf(err, errlen, "cannot drop %d from the bounding set: %s", c,
					 strerror(errno));
				cap_free(caps);
				return -1;
			}
		}
	}
	cap_clear(caps);
	if (nkeep) {
		cap_set_flag(caps, CAP_PERMITTED, nkeep, keep, CAP_SET);
		cap_set_flag(caps, CAP_EFFECTIVE, nkeep, keep, CAP_SET);
	}
	if (cap_set_proc(caps)) {
		snprintf(err, errlen, "cannot reduce capabilities %s: %s", what, strerror(errno));
		cap_free(caps);
		return -1;
	}
	cap_free(caps);
	if (cap_reset_ambient() && errno != EINVAL) {
		snprintf(err, errlen, "cannot clear ambient capabilities: %s", strerror(errno));
		return -1;
	}
	/* nothing exec'd from here may gain privileges */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		snprintf(err, errlen, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int privs_drop(char *err, size_t errlen)
{
	return privs_reduce(PRIVS_NEEDED, err, errlen);
}

int privs_drop_all(char *err, size_t errlen)
{
	return privs_reduce(0, err, errlen);
}

int privs_raise_memlock(void)
{
	struct rlimit r = { RLIM_INFINITY, RLIM_INFINITY };

	if (!setrlimit(RLIMIT_MEMLOCK, &r))
		return 0;
	if (getrlimit(RLIMIT_MEMLOCK, &r))
		return -1;
	r.rlim_cur = r.rlim_max;   /* what an unprivileged caller may do */
	return setrlimit(RLIMIT_MEMLOCK, &r);
}

long privs_memlock_kib(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_MEMLOCK, &r) || r.rlim_cur == RLIM_INFINITY)
		return -1;
	return (long)(r.rlim_cur / 1024);
}

/* In the keeper: only what files take, of what it holds. */
static int keeper_restrict(char *err, size_t errlen)
{
	struct privs p;

	if (privs_read(&p)) {
		snprintf(err, errlen, "cannot read /proc/self/status: %s", strerror(errno));
		return -1;
	}
	return privs_reduce(p.eff & PRIVS_FILES, err, errlen);
}

int privs_keep_outputs(const char *const *paths, size_t n, char *err, size_t errlen)
{
	struct privs p;

	if (privs_read(&p) || !(p.eff & PRIVS_FILES))
		return 0;
	return outfile_keeper_start(paths, n, keeper_restrict, err, errlen);
}
