// SPDX-License-Identifier: GPL-2.0
/* The fake tracer (fake_tracer.h): tracer.h and tasks_iter.h's snapshot
 * over an in-memory table. Only what the linked record/ objects call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_tracer.h"
#include "lib/util.h"
#include "tracer/ksyms_iter.h"

struct fake_kernel fake_kernel;

void fake_tracer_reset(struct tracer *t)
{
	memset(&fake_kernel, 0, sizeof(fake_kernel));
	memset(t, 0, sizeof(*t));
	/* "started": proctable.c follows new processes only then */
	t->skel = (struct capaudit_bpf *)&fake_kernel;
}

struct ca_val *fake_check(uint32_t tgid, uint64_t pstart, uint32_t exec_id, int cap, int ret,
			  uint64_t kstack, uint64_t count, const char *comm)
{
	size_t i = fake_kernel.nkeys++;
	struct ca_key *k;
	struct ca_val *v;

	if (i >= FAKE_KEYS)
		abort();
	memset(&fake_kernel.entries[i], 0, sizeof(fake_kernel.entries[i]));
	k = &fake_kernel.entries[i].key;
	v = &fake_kernel.entries[i].val;
	k->tgid = tgid;
	k->pstart = pstart;
	k->exec_id = exec_id;
	k->cap = (__u16)cap;
	k->ret = ret;
	k->kstack = kstack;
	k->syscall = -1;
	k->stack_err = kstack ? 0 : -14;   /* EFAULT */
	v->count = count;
	v->last_ns = pstart + 1000;
	v->meta.first_ns = pstart + 10;
	v->meta.tid = tgid;
	v->meta.uid = 1000;
	memcpy(v->meta.comm, comm, strnlen(comm, CA_COMM_LEN));
	return v;
}

void fake_stack(uint64_t id, const uint64_t *ips, int n)
{
	size_t i = fake_kernel.nstacks++;

	if (i >= FAKE_STACKS)
		abort();
	fake_kernel.stack_id[i] = id;
	memcpy(fake_kernel.stack_ips[i], ips, (size_t)n * sizeof(*ips));
	fake_kernel.stack_n[i] = n;
}

void fake_exe_name(uint32_t dev, uint64_t ino, uint32_t gen, const char *filename,
		   const char *exe_name, uint32_t flags)
{
	struct exe_name_copy *c = &fake_kernel.exe_names[fake_kernel.nexe_names++];

	if (fake_kernel.nexe_names > sizeof(fake_kernel.exe_names) / sizeof(*c))
		abort();
	memset(c, 0, sizeof(*c));
	c->id.dev = dev;
	c->id.ino = ino;
	c->id.gen = gen;
	memcpy(c->name.filename, filename, strnlen(filename, CA_PATH_LEN));
	memcpy(c->name.exe_name, exe_name, strnlen(exe_name, CA_DNAME_LEN));
	c->name.flags = flags;
}

int tracer_exe_name(struct tracer *t, const struct ca_exe_id *id, struct ca_exe_name *out)
{
	size_t i;

	for (i = 0; i < fake_kernel.nexe_names; i++) {
		const struct exe_name_copy *c = &fake_kernel.exe_names[i];

		if (c->id.dev == id->dev && c->id.ino == id->ino && c->id.gen == id->gen) {
			*out = c->name;
			return 0;
		}
	}
	return -1;
}

int tracer_follow(struct tracer *t, uint32_t tgid, uint64_t pstart)
{
	size_t i = fake_kernel.nfollowed++;

	if (i >= FAKE_FOLLOW)
		abort();
	fake_kernel.followed[i].tgid = tgid;
	fake_kernel.followed[i].pstart = pstart;
	return 0;
}

void tracer_stats(struct tracer *t, uint64_t out[CA_STAT_NR])
{
	memcpy(out, fake_kernel.stats, sizeof(fake_kernel.stats));
}

void tracer_overflow(struct tracer *t, uint64_t out[CA_OVERFLOW_SLOTS])
{
	memcpy(out, fake_kernel.overflow, sizeof(fake_kernel.overflow));
}

uint64_t tracer_skipped(struct tracer *t)
{
	return fake_kernel.skipped;
}

int tracer_foreach_check(struct tracer *t,
			 int (*fn)(void *ctx, const struct ca_key *k, const struct ca_val *v),
			 void *ctx)
{
	size_t i;
	int rc;

	for (i = 0; i < fake_kernel.nkeys; i++)
		if ((rc = fn(ctx, &fake_kernel.entries[i].key, &fake_kernel.entries[i].val)))
			return rc;
	return 0;
}

int tracer_stack(struct tracer *t, uint64_t kstack, uint64_t ips[CA_STACK_DEPTH])
{
	size_t i;

	for (i = 0; i < fake_kernel.nstacks; i++)
		if (fake_kernel.stack_id[i] == kstack) {
			memcpy(ips, fake_kernel.stack_ips[i], sizeof(fake_kernel.stack_ips[i]));
			return fake_kernel.stack_n[i];
		}
	return -1;
}

int tracer_ustack(struct tracer *t, uint64_t ustack, struct bpf_stack_build_id *out)
{
	return -1;
}

int tasks_snapshot(struct task_snap *s, char *err, size_t errlen)
{
	fake_kernel.snapshots++;
	s->n = fake_kernel.ntasks;
	s->t = xcalloc(s->n + 1, sizeof(*s->t));
	memcpy(s->t, fake_kernel.tasks, s->n * sizeof(*s->t));
	tasks_sort(s);
	return 0;
}

/* record/symbols.c's, linked for symbolize_kstack(): the tests pass their
 * kernel symbols to collect_checks() themselves */
int tracer_set_ranges(struct tracer *t, const struct ca_ranges *r)
{
	return -1;
}

bool tracer_loaded(const struct tracer *t)
{
	return false;
}

struct ksyms *ksyms_best(const char **source, char *err, size_t errlen)
{
	snprintf(err, errlen, "the fake tracer has no kernel symbols");
	return NULL;
}
