// SPDX-License-Identifier: GPL-2.0
/*
 * The end of a recording: the kernel's aggregated checks and stacks turned
 * into the record's check and stack lines, symbolized.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/collect.h"
#include "record/symbols.h"
#include "facts/callsite.h"
#include "facts/syscalls.h"
#include "lib/util.h"
#include "tracer/keyflags.h"
#include "record/ustacks.h"

/* ---- collecting the aggregated checks ---------------------------------- */

/* A kernel stack (struct ca_key.kstack) and 1 + its record stack index. */
struct stack_ref {
	uint64_t kstack;
	int idx;             /* 0: empty slot */
};

struct collect_ctx {
	struct proctable *pt;
	struct ksyms *ks;
	const char *ksyms_err;
	struct stack_ref *stack_index;   /* open addressing, at most half full */
	size_t stack_cap;
	int *frames_index;               /* 1 + record stack index, by its frames */
	size_t frames_cap;               /* as stack_cap */
	uint64_t orphan_results;  /* syscall results of checks without a key */
};

/* The slot of kstack in cc->stack_index: its record stack, or empty
 * (the BPF side keeps at most CA_STACK_ENTRIES stacks). */
static struct stack_ref *stack_slot(struct collect_ctx *cc, uint64_t kstack)
{
	size_t i = (size_t)(kstack * 0x9e3779b97f4a7c15ULL >> 20) & (cc->stack_cap - 1);

	while (cc->stack_index[i].idx && cc->stack_index[i].kstack != kstack)
		i = (i + 1) & (cc->stack_cap - 1);
	return &cc->stack_index[i];
}

static uint64_t frames_hash(char *const *frames, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;
	const char *p;

	for (i = 0; i < n; i++) {
		for (p = frames[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
		h = (h ^ 0xff) * 0x100000001b3ULL;   /* between frames */
	}
	return h;
}

/*
 * The record stack with exactly these frames, added if there is none:
 * its index. Two kernel stacks (two ca_key.kstack) can symbolize to the
 * same frames: the BPF side hashes every frame it walked, its own
 * plumbing included, and that plumbing changes while recording when
 * another BPF program attaches to or detaches from cap_capable's
 * tracepoint (with one program the tracepoint calls it directly, with
 * two or more through __traceiter_cap_capable, one frame more). Such
 * stacks are one record stack, and their checks one check line (the
 * merge in collect_checks()). Takes frames, or frees them.
 */
static int stack_of_frames(struct collect_ctx *cc, char **frames, size_t n)
{
	struct record *r = cc->pt->rec;
	size_t i = (size_t)(frames_hash(frames, n) >> 20) & (cc->frames_cap - 1), k;
	int at;

	for (; (at = cc->frames_index[i]); i = (i + 1) & (cc->frames_cap - 1)) {
		const struct rec_stack *st = &r->stacks[at - 1];

		if (st->n != n)
			continue;
		for (k = 0; k < n && !strcmp(st->frames[k], frames[k]); k++)
			;
		if (k == n) {
			for (k = 0; k < n; k++)
				free(frames[k]);
			free(frames);
			return at - 1;
		}
	}
	at = record_add_stack(r, frames, n);
	cc->frames_index[i] = at + 1;
	return at;
}

static int collect_one(void *ctx, const struct ca_key *k, const struct ca_val *v)
{
	struct collect_ctx *cc = ctx;
	struct proctable *pt = cc->pt;
	struct rec_process *p;
	struct rec_check *c;

	/* only a syscall result, for checks counted while the map was full */
	if (!v->count) {
		cc->orphan_results += v->sys_failed + v->sys_other + v->sys_restart;
		return 0;
	}
	c = record_add_check(pt->rec);
	uint64_t ips[CA_STACK_DEPTH];
	char comm[CA_COMM_LEN + 1], frame[256];
	struct stack_ref *si;
	int n = 0;

	memcpy(comm, v->meta.comm, CA_COMM_LEN);
	comm[CA_COMM_LEN] = '\0';
	c->stack = -1;
	c->ustack = -1;
	c->pid = k->tgid;
	c->start_ns = proctable_to_epoch(pt, k->pstart);
	c->exec_id = proctable_alias_exec(pt, k->tgid, k->pstart, k->exec_id);
	c->tid = v->meta.tid;
	c->uid = v->meta.uid;
	c->comm = record_intern(pt->rec, comm, strlen(comm));
	c->cgroup = v->meta.cgroup_id;
	c->cap = k->cap;
	c->ret = k->ret;
	c->count = v->count;
	c->syscall = k->syscall;
	c->sysname = syscall_name(k->syscall);
	check_set_key_flags(c, k->flags);
	check_set_key_op(c, k->op);
	c->first_ns = proctable_to_epoch(pt, v->meta.first_ns ? v->meta.first_ns : v->last_ns);
	c->last_ns = proctable_to_epoch(pt, v->last_ns);
	c->sys_failed = v->sys_failed;
	c->sys_other = v->sys_other;
	c->sys_errno = (int)v->sys_errno;
	c->sys_restart = v->sys_restart;
	c->ustack = ustacks_resolve(pt->us, pt->tr, pt->rec, k);
	objtab_attach(pt->objs, k, aggtab_objs(v), c);
	pt->rec->hdr.checks += v->count;
	if (!k->kstack) {
		snprintf(frame, sizeof(frame), "stack not captured: %s",
			 strerror(k->stack_err < 0 ? -k->stack_err : ENOENT));
		c->stack_error = xstrdup(frame);
	} else if (!(si = stack_slot(cc, k->kstack))->idx &&
		   (n = tracer_stack(pt->tr, k->kstack, ips)) < 0) {
		c->stack_error = xstrdup("stack not found in the stack map");
	} else {
		if (!cc->ks)
			c->stack_error = xstrdup(cc->ksyms_err);
		if (!si->idx) {   /* symbolize each stack once */
			size_t nf;
			char **frames = symbolize_kstack(cc->ks, ips, (size_t)n, &nf);

			si->kstack = k->kstack;
			si->idx = stack_of_frames(cc, frames, nf) + 1;
		}
		c->stack = si->idx - 1;
	}
	/* an image that made checks but whose events were lost: named by its
	 * first check (/proc cannot be tied to it without its boot time),
	 * its executable by the file the check's process ran */
	p = check_process(pt->rec, c);
	if (!p) {
		p = proctable_image(pt, c->pid, k->pstart, c->exec_id, comm, 0);
		p->uid = v->meta.uid;
	}
	/* (an aliased check ran in capaudit's own child, before the exec) */
	if (c->exec_id == k->exec_id)
		proctable_image_exe(pt, p, &v->meta.exe);
	return 0;
}

void collect_lost(struct tracer *tr, struct rec_lost *l)
{
	uint64_t st[CA_STAT_NR];

	tracer_stats(tr, st);
	memset(l, 0, sizeof(*l));
	l->map_full = st[CA_STAT_MAP_FULL];
	l->ringbuf_full = st[CA_STAT_RINGBUF_FULL];
	l->stack_errors = st[CA_STAT_STACK_ERR];
	l->proc_full = st[CA_STAT_PROC_FULL];
	l->result_lost = st[CA_STAT_RESULT_LOST];
	l->hook_skipped = tracer_skipped(tr);
}

/* Kernel symbols once the recording is over (BPF programs loaded during
 * it are included): iter/ksym needs CAP_BPF, so before the last drop. */
/* /proc/modules (readable by anyone), to tell whether kernel symbols
 * changed while recording; NULL if it cannot be read. */
void collect_checks(struct proctable *pt, struct ksyms *ks, const char *kerr)
{
	struct collect_ctx cc = { .pt = pt, .ks = ks, .ksyms_err = kerr };
	uint64_t st[CA_STAT_NR], ov[CA_OVERFLOW_SLOTS];
	size_t i;

	cc.stack_cap = 2 * CA_STACK_ENTRIES;   /* at most half full */
	cc.stack_index = xcalloc(cc.stack_cap, sizeof(*cc.stack_index));
	cc.frames_cap = cc.stack_cap;
	cc.frames_index = xcalloc(cc.frames_cap, sizeof(*cc.frames_index));
	if (pt->us) {
		/* what names the user stacks' files: executables, live
		 * processes' mappings, ours (the same libc, most often) */
		for (i = 0; i < pt->rec->nprocs; i++) {
			ustacks_add_file(pt->us, pt->rec->procs[i].exe);
			if (!kill((pid_t)pt->rec->procs[i].pid, 0))
				ustacks_scan_pid(pt->us, (pid_t)pt->rec->procs[i].pid);
		}
		ustacks_scan_pid(pt->us, 0);
	}
	tracer_foreach_check(pt->tr, collect_one, &cc);
	aggtab_free(&pt->tr->tab);   /* all in pt->rec now: not held while it is written */
	free(cc.stack_index);
	free(cc.frames_index);
	/* the same key can now appear twice: the child's checks before its
	 * exec are aliased to the command's image (alias_exec), and two
	 * kernel stacks with the same frames are one stack (stack_of_frames) */
	{
		size_t merged, unused_dup, unused_orig;

		record_dedup_checks(pt->rec, DEDUP_MERGE, &merged, &unused_dup, &unused_orig);
	}
	ksyms_free(cc.ks);

	tracer_stats(pt->tr, st);
	collect_lost(pt->tr, &pt->rec->hdr.lost);
	pt->rec->hdr.lost.result_lost = sat_add(pt->rec->hdr.lost.result_lost, cc.orphan_results);
	pt->rec->hdr.has_cache = true;
	pt->rec->hdr.cache_misses = st[CA_STAT_CACHE_MISS];
	pt->rec->hdr.cache_hit_walks = st[CA_STAT_CACHE_VERIFY];
	pt->rec->hdr.cache_splits = st[CA_STAT_CACHE_MISMATCH];
	pt->rec->hdr.cache_unproven = st[CA_STAT_UNPROVEN];
	pt->rec->hdr.cache_path_proofs = st[CA_STAT_PATH_PROVEN];
	pt->rec->hdr.cache_path_splits = st[CA_STAT_PATH_SPLIT];
	pt->rec->hdr.agg_drains = pt->tr->drains;
	pt->rec->hdr.agg_spilled = st[CA_STAT_SPILLED];
	pt->rec->hdr.agg_keys = pt->tr->agg_max_used;
	pt->rec->hdr.syscall_results = pt->o->syscall_results;
	tracer_overflow(pt->tr, ov);
	for (i = 0; i < CA_OVERFLOW_SLOTS; i++) {
		struct rec_overflow *o;

		if (!ov[i])
			continue;
		pt->rec->hdr.overflow = xrealloc(pt->rec->hdr.overflow,
					       (pt->rec->hdr.noverflow + 1) * sizeof(*o));
		o = &pt->rec->hdr.overflow[pt->rec->hdr.noverflow++];
		o->cap = (int)(i / 2);
		o->denied = i % 2;
		o->count = ov[i];
		pt->rec->hdr.checks += ov[i];
	}
}

