// SPDX-License-Identifier: GPL-2.0
/*
 * What a refusal really does (effect.h): the kernel facts first (they name
 * what no table can: the verifier, the operations programs try and fall
 * back from, the listings some programs need), then the capability-site
 * table along the recorded stack: a function that returns the answer (or
 * false on a refusal) hands the decision to its caller, whose statement
 * says what happens (fs/attr.c setattr_prepare() clears S_ISGID where
 * fs/inode.c in_group_or_capable() said no).
 */
#include "analyze/effect.h"

#include <stdio.h>
#include <string.h>

#include "facts/callsite.h"
#include "facts/capnames.h"
#include "facts/sysops.h"
#include "lib/util.h"

/* How many callers up the stack a returned answer is followed. */
#define EFFECT_DEPTH 5

const char *eff_kind_name(enum eff_kind k)
{
	static const char *const n[EFF_NR] = {
		[EFF_UNKNOWN] = "unknown", [EFF_FAILS] = "fails", [EFF_SILENT] = "silent-change",
		[EFF_ACK] = "netlink-ack", [EFF_VERIFIER] = "verifier", [EFF_NO_EFFECT] = "no-effect",
		[EFF_DONE_WITHOUT] = "done-without", [EFF_PROGRAM] = "program-dependent",
		[EFF_TUNES] = "tunes",
	};

	return (unsigned)k < EFF_NR && n[k] ? n[k] : "unknown";
}

/* Frames through which a netlink request reaches its family's handler,
 * whose error the kernel sends back in the ack (net/netlink/af_netlink.c
 * netlink_unicast() -> netlink_unicast_kernel() -> the family's input;
 * netlink_rcv_skb() calls the handler and netlink_ack()s its error;
 * net/netfilter/nfnetlink.c nfnetlink_rcv_batch() acks each message). */
static bool netlink_frame(const char *fn)
{
	static const char *const names[] = { "netlink_rcv_skb", "netlink_unicast",
					     "netlink_unicast_kernel", "nfnetlink_rcv_batch",
					     "nfnetlink_rcv" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(fn, names[i]))
			return true;
	return false;
}

static bool through_netlink(const struct rec_stack *st)
{
	char fn[128];
	size_t i;

	for (i = 0; st && i < st->n; i++)
		if (netlink_frame(frame_function(st->frames[i], fn, sizeof(fn))))
			return true;
	return false;
}

/* The kernel's statement in plain words, where it touches a set-ID bit
 * (fs/attr.c, fs/inode.c: the bits are cleared, never set, on a refusal). */
static void change_words(const char *change, struct effect *e)
{
	if (!change)
		return;
	if (strstr(change, "S_ISGID") || strstr(change, "ATTR_KILL_SGID")) {
		e->words = "clears the set-group-ID bit";
		e->words_past = "cleared the set-group-ID bit";
	} else if (strstr(change, "S_ISUID") || strstr(change, "ATTR_KILL_SUID")) {
		e->words = "clears the set-user-ID bit";
		e->words_past = "cleared the set-user-ID bit";
	}
}

static const struct kfact *fact_here(const char *func, int cap, enum kfact_kind kind,
				     const char *sysname, const char *label)
{
	const struct kfact *f;
	int it = 0;

	while ((f = kfact_next(func, cap, kind, &it)))
		if (kfact_during(f, sysname) && kfact_op(f, label))
			return f;
	return NULL;
}

/* A refused file permission check: the program asked to reach a path or
 * a file (fs/namei.c generic_permission(), the DAC capabilities), and
 * programs try paths and files they can do without (a search path, an
 * optional configuration, touch's open for writing before it sets the
 * times by name). */
static bool file_lookup(int cap, const char *func)
{
	return (cap == CAP_DAC_OVERRIDE || cap == CAP_DAC_READ_SEARCH) &&
	       !strcmp(func, "generic_permission");
}

/* A syscall that only asks the kernel whether an access would be allowed
 * (fs/open.c do_faccessat()): it does nothing, and a refusal is its
 * answer, which the program asked for and judges. */
static bool query_syscall(const char *sysname)
{
	return sysname && (!strcmp(sysname, "access") || !strcmp(sysname, "faccessat") ||
			   !strcmp(sysname, "faccessat2"));
}

/* The table's answer as an effect; false when it hands the answer to the
 * caller (a chain to follow). */
static bool from_row(const struct ks_answer *a, struct effect *e)
{
	const char *err;

	if (!a->nsites || !a->effect) {
		e->kind = EFF_UNKNOWN;
		return true;
	}
	e->row = a->first;
	if (ks_effect_ack(a->effect, &err)) {
		e->kind = EFF_ACK;
		e->err = err;
	} else if (ks_effect_is_errno(a->effect) || (!strcmp(a->effect, "unknown") && a->nerrs)) {
		/* rows of one function that disagree still say which errors a
		 * refusal there returns */
		e->kind = e->in_ack ? EFF_ACK : EFF_FAILS;
		e->err = a->nerrs ? a->errs[0] : a->effect;
		memcpy(e->errs, a->errs, sizeof(e->errs));
		e->nerrs = a->nerrs;
	} else if (!strcmp(a->effect, "mode")) {
		/* a sysctl's permission handler: the answer is the file's mode,
		 * and opening it past that fails (fs/proc/proc_sysctl.c
		 * test_perm(): -EACCES) */
		e->kind = EFF_FAILS;
		e->err = "EACCES";
	} else if (!strcmp(a->effect, "silent") || !strcmp(a->effect, "value")) {
		e->kind = EFF_SILENT;
		e->change = a->change;
		change_words(a->change, e);
	} else if (!strcmp(a->effect, "false") || !strcmp(a->effect, "caller")) {
		return false;
	} else {
		/* the source did not say; under a netlink request, what the
		 * handler returns goes into the ack */
		e->kind = e->in_ack ? EFF_ACK : EFF_UNKNOWN;
	}
	return true;
}

/* What every answer ends with: a statement whose refusal matters only
 * for some syscalls (the call's own arguments leave it nothing to change
 * in the others), and whether it was a file look-up. */
static void finish(const struct rec_check *c, const char *func, struct effect *e)
{
	const struct kfact *f;
	int it = 0;

	if (e->at[0] && (f = kfact_next(e->at, c->cap, KF_MATTERS_DURING, &it)) &&
	    !kfact_during(f, c->sysname)) {
		e->kind = EFF_NO_EFFECT;
		e->fact = f;
		e->row = NULL;
		e->words = e->words_past = e->change = NULL;
	}
	e->lookup = (e->kind == EFF_FAILS && file_lookup(c->cap, func)) ||
		    query_syscall(c->sysname);
}

/* The operation a check's objects name where its record has no op
 * (format 7 records whose hook saw the option, the command, the request,
 * but wrote no op): the name they all give, or NULL when they give none,
 * disagree or some did not fit (objects_more), so that one operation
 * never decides for another's checks. The op, when recorded, decides. */
static const char *object_label(const struct rec_check *c)
{
	const char *label = NULL;
	size_t i;

	if (c->objects_more)
		return NULL;
	for (i = 0; i < c->nobjects; i++) {
		const struct rec_object *o = &c->objects[i];

		if (o->kind != OBJ_SOCKOPT && o->kind != OBJ_BPF && o->kind != OBJ_IOCTL)
			continue;
		if (!o->name || (label && strcmp(label, o->name)))
			return NULL;
		label = o->name;
	}
	return label;
}

const char *check_op_label(const struct rec_check *c)
{
	return c->op >= 0 ? sysop_label(c->sysname, c->op) : object_label(c);
}

void effect_of(const struct ktable *t, const struct record *rec, const struct rec_check *c,
	       const char *func, struct effect *e)
{
	const struct rec_stack *st = check_stack(rec, c);
	const char *label = check_op_label(c);
	const struct kfact *f;
	struct ks_answer a;
	char fn[128];
	char cur[64];
	int i, depth;

	memset(e, 0, sizeof(*e));
	snprintf(e->at, sizeof(e->at), "%s", func ? func : "");
	if (c->no_effect) {
		e->kind = EFF_NO_EFFECT;
		return;
	}
	if (!func || !strcmp(func, "?"))
		return;
	/* the kernel facts: what a table of statements cannot say */
	if ((f = fact_here(func, c->cap, KF_PROBE, c->sysname, label)) ||
	    (f = fact_here(func, c->cap, KF_FALLBACK, c->sysname, label)))
		e->kind = EFF_DONE_WITHOUT;
	else if ((f = fact_here(func, c->cap, KF_VERIFIER, c->sysname, label)))
		e->kind = EFF_VERIFIER;
	else if ((f = fact_here(func, c->cap, KF_PROGRAM, c->sysname, label)))
		e->kind = EFF_PROGRAM;
	else if ((f = fact_here(func, c->cap, KF_ADVISORY, c->sysname, label)))
		e->kind = EFF_TUNES;
	if (f) {
		e->fact = f;
		return;
	}
	e->in_ack = through_netlink(st);
	if (!t) {
		finish(c, func, e);
		return;
	}
	/* the table, from the function that asked up through its callers */
	ksite_lookup_op(t, func, c->cap, label, &a);
	/* a function that ends by calling the capability API (a tail call:
	 * fs/inode.c in_group_or_capable() returns what
	 * capable_wrt_inode_uidgid() says) leaves no frame: the recorded call
	 * site is then its caller, whose statement uses the answer */
	if (!a.nsites)
		ksite_chain_any(t, func, c->cap, label, &a);
	snprintf(cur, sizeof(cur), "%s", func);
	i = st ? st->site : -1;
	for (depth = 0; depth < EFFECT_DEPTH; depth++) {
		const char *callee, *caller;

		if (from_row(&a, e))
			break;
		/* the answer was returned: its caller decides. A static
		 * function inlined into the recorded frame (the row's own
		 * function is not the frame's) is called by that frame */
		callee = a.first && strcmp(a.first->func, cur) ? a.first->func : cur;
		if (callee == cur) {
			if (!st || i < 0 || (size_t)i + 1 >= st->n)
				break;
			i++;
			caller = frame_function(st->frames[i], fn, sizeof(fn));
		} else {
			caller = cur;
		}
		ksite_chain(t, caller, callee, c->cap, label, &a);
		snprintf(e->at, sizeof(e->at), "%s", caller);
		snprintf(cur, sizeof(cur), "%s", caller);
		if (!a.nsites) {
			e->kind = EFF_UNKNOWN;
			e->row = NULL;
			break;
		}
	}
	finish(c, func, e);
}

const char *effect_source(const struct ktable *t, const struct effect *e, char *buf, size_t len)
{
	char row[512];

	if (e->fact) {
		snprintf(buf, len, "%s", e->fact->source);
	} else if (e->row && t) {
		ksite_source(t, e->row, row, sizeof(row));
		if (e->change)
			snprintf(buf, len, "%s: %s", row, e->change);
		else
			snprintf(buf, len, "%s", row);
	} else {
		snprintf(buf, len, "not known");
	}
	return buf;
}
