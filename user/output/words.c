// SPDX-License-Identifier: GPL-2.0
/* The sentences text and html share (words.h). */
#include "output/words.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyze/report.h"
#include "facts/capnames.h"

const char *sys_list_str(const struct sys_count *sys, size_t n, char *buf, size_t len)
{
	size_t i, o = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < n && i < 4 && o < len; i++) {
		const char *sn = sys[i].name;  /* the record's, not this host's */
		const char *sep = i ? ", " : "";

		if (sys[i].nr < 0)
			o += snprintf(buf + o, len - o, "%s(no syscall)", sep);
		else if (sn)
			o += snprintf(buf + o, len - o, "%s%s", sep, sn);
		else
			o += snprintf(buf + o, len - o, "%ssyscall_%d", sep, sys[i].nr);
	}
	if (n > 4 && o < len)
		snprintf(buf + o, len - o, ", ...");
	return buf;
}

const char *denial_meaning(const struct sg_denial *d, bool syscall_results, char *buf,
			   size_t len)
{
	const char *name = strerrorname_np(d->sys_errno);
	const struct effect *e = &d->eff;
	const char *sys = d->sysname ? d->sysname : "the syscall";

	switch (d->kind) {
	case DENY_BLOCKING:
		if (d->in_ack)
			return "denied, and the netlink request failed (the kernel says so in its "
			       "netlink ack, not in the syscall's return value)";
		if (e->kind == EFF_VERIFIER)
			return "denied, and the BPF verifier then rejected the program (without "
			       "the capability it checks more strictly)";
		if (!d->sys_failed && d->sys_other) {
			snprintf(buf, len, "denied, and the syscall failed with %s (%" PRIu64 "x): "
				 "the error the kernel returns for this refusal", name ? name :
				 "an error", d->sys_other);
			return buf;
		}
		snprintf(buf, len, "denied, and the syscall failed (EPERM/EACCES, %" PRIu64
			 "x): the program may have failed here", d->sys_failed);
		return buf;
	case DENY_CHANGED:
		if (!syscall_results) {   /* the source says so; the record not how it ended */
			snprintf(buf, len, "denied: where it was asked the kernel goes on and %s",
				 e->words ? e->words : "changes what the call does");
			return buf;
		}
		if (e->words_past)
			snprintf(buf, len, "denied: %s succeeded, but the kernel %s", sys,
				 e->words_past);
		else if (e->change)
			snprintf(buf, len, "denied: %s went on, changed (the kernel ran `%s`)", sys,
				 e->change);
		else
			snprintf(buf, len, "denied: %s went on, changed", sys);
		return buf;
	case DENY_DONE_WITHOUT:
		return e->fact && e->fact->kind == KF_PROBE ?
		       "denied at a feature programs try and do without" :
		       "denied at an operation programs try and fall back from";
	case DENY_OTHER_ERROR:
		snprintf(buf, len, "denied, and the syscall then failed with %s (%" PRIu64 "x), "
			 "not EPERM/EACCES: maybe for another reason", name ? name : "an error",
			 d->sys_other);
		return buf;
	case DENY_INCONCLUSIVE:
		snprintf(buf, len, "denied; the syscall was interrupted (EINTR or restarted, %"
			 PRIu64 "x): inconclusive", d->sys_restart);
		return buf;
	case DENY_ADVISORY:
		if (e->kind == EFF_VERIFIER)
			return "denied; the BPF verifier accepted the program under its stricter "
			       "rules";
		return syscall_results ? "denied, but the syscall went on" :
					 "denied; the kernel's source goes on without it (a kernel fact)";
	default:
		return "denied; whether the syscall then failed is not known (record with "
		       "--syscall-results to see)";
	}
}

const char *effect_meaning(const struct effect *e, char *buf, size_t len)
{
	const struct kfact *f = e->fact;

	switch (e->kind) {
	case EFF_FAILS: {
		char errs[64] = "";
		size_t i, o = 0;

		for (i = 0; i < e->nerrs && o < sizeof(errs); i++)
			o += snprintf(errs + o, sizeof(errs) - o, "%s%s", i ? (i + 1 == e->nerrs ?
				      " or " : ", ") : "", e->errs[i]);
		snprintf(buf, len, "the call fails with %s%s", e->nerrs > 1 ? errs : e->err ?
			 e->err : "an error", e->lookup ? " (a file or path the program asked for, "
			 "or asked whether it may: programs try some and carry on)" : "");
		break;
	}
	case EFF_SILENT:
		if (e->words)
			snprintf(buf, len, "the call succeeds, but the kernel %s", e->words);
		else if (e->change)
			snprintf(buf, len, "the call goes on, changed: the kernel runs `%s`",
				 e->change);
		else
			snprintf(buf, len, "the call goes on, changed");
		break;
	case EFF_ACK:
		snprintf(buf, len, "the netlink request is refused in its ack (%s); sendmsg() "
			 "itself succeeds", e->err ? e->err : "its error");
		break;
	case EFF_VERIFIER:
		snprintf(buf, len, "decided later, by the BPF verifier: %s", f->also);
		break;
	case EFF_NO_EFFECT:
		snprintf(buf, len, "nothing, for this call: its own arguments make the answer "
			 "irrelevant");
		break;
	case EFF_DONE_WITHOUT:
		snprintf(buf, len, "%s: %s; refused, %s", f->kind == KF_PROBE ?
			 "a feature programs try and do without" :
			 "an operation programs try and fall back from", f->operation, f->also);
		break;
	case EFF_PROGRAM:
		snprintf(buf, len, "a listing or look-up some programs need and others "
			 "tolerate: %s; refused, %s", f->operation, f->also);
		break;
	case EFF_TUNES:
		snprintf(buf, len, "it only tunes behaviour: %s", f->operation);
		break;
	default:
		snprintf(buf, len, "not known (the kernel's source does not say%s)",
			 e->at[0] ? " what its caller does with the answer" : "");
		break;
	}
	return buf;
}

const char *counted_denial_words(const struct sg_denial *d, char *buf, size_t len)
{
	char cn[CAP_NAME_LEN], an[CAP_NAME_LEN], alt[CAP_NAME_LEN + 8] = "";
	const char *sys = d->sysname ? d->sysname : "the syscall";
	const char *err = d->sys_other && strerrorname_np(d->sys_errno) ?
			  strerrorname_np(d->sys_errno) : d->eff.err ? d->eff.err : "EPERM";

	if (d->alt >= 0)
		snprintf(alt, sizeof(alt), " (or %s)", cap_name(d->alt, an));
	cap_name(d->cap, cn);
	if (d->kind == DENY_CHANGED)
		snprintf(buf, len, "%s succeeded only in part: without %s%s the kernel %s", sys, cn,
			 alt, d->eff.words_past ? d->eff.words_past : "changed what it did");
	else if (d->in_ack)
		snprintf(buf, len, "the kernel refused %s%s at %s: the netlink request failed "
			 "(its ack carried %s; %s itself succeeded), and the program went on", cn,
			 alt, d->func, d->eff.err ? d->eff.err : "the error", sys);
	else if (d->eff.kind == EFF_VERIFIER)
		snprintf(buf, len, "the kernel refused %s%s at %s: the BPF verifier rejected the "
			 "program (%s failed), and the program went on", cn, alt, d->func, sys);
	else
		snprintf(buf, len, "the kernel refused %s%s at %s (%s failed with %s), and the "
			 "program went on", cn, alt, d->func, sys, err);
	return buf;
}

const char *effect_where(const struct suggestion *s, const struct effect *e, char *buf,
			 size_t len)
{
	return effect_source(s->ktab, e, buf, len);
}

const char *undecided_why_name(enum sg_undecided_why why)
{
	switch (why) {
	case UD_ALLOWED_WITHOUT: return "allowed-without";
	case UD_SYSCTL_OWNER: return "sysctl-owner";
	case UD_PTRACE_UNKNOWN: return "ptrace-target-unknown";
	case UD_PROBE: return "probe";
	case UD_FALLBACK: return "tried-and-done-without";
	case UD_PROGRAM: return "program-dependent";
	case UD_VERIFIER: return "verifier";
	default: return "covered-by-sys-admin";
	}
}

const char *undecided_meaning(const struct sg_undecided *u, char *buf, size_t len)
{
	switch (u->why) {
	case UD_ALLOWED_WITHOUT:
		snprintf(buf, len, "asked before a plain condition that allows without it: %s",
			 u->ksite && u->ksite->allowed_without ? u->ksite->allowed_without : "?");
		break;
	case UD_SYSCTL_OWNER:
		snprintf(buf, len, "a sysctl's permission handler asked for root, whom the "
			 "file's owner bits may let in anyway");
		break;
	case UD_PTRACE_UNKNOWN:
		snprintf(buf, len, "it reached other processes whose capabilities capaudit could "
			 "not read (gone, another pid or user namespace, a pidfd)");
		break;
	case UD_PROBE:
		snprintf(buf, len, "a feature programs try and do without: %s; refused, %s",
			 u->fact->operation, u->fact->also);
		break;
	case UD_FALLBACK:
		snprintf(buf, len, "an operation programs try and fall back from: %s; refused, "
			 "%s", u->fact->operation, u->fact->also);
		break;
	case UD_PROGRAM:
		snprintf(buf, len, "a listing or look-up some programs need and others "
			 "tolerate: %s; refused, %s", u->fact->operation, u->fact->also);
		break;
	case UD_VERIFIER:
		snprintf(buf, len, "decided later, by the BPF verifier (%s): without it %s; "
			 "only loading the program without it shows whether it is accepted",
			 u->fact->operation, u->fact->also);
		break;
	default:
		snprintf(buf, len, "the kernel takes CAP_SYS_ADMIN there too, which the set has: "
			 "not needed if CAP_SYS_ADMIN stays (verify tries dropping CAP_SYS_ADMIN "
			 "first)");
		break;
	}
	return buf;
}

/* the overlayfs note: said by a report's row and by the suggestion */
static const char foreign_words[] =
	"checked against credentials that were not the program's own (an override: "
	"overlayfs acts as its mounter, a container engine, when it copies a file up), "
	"so not a requirement of the program";

static const char *no_effect_words(int cap)
{
	if (cap == CAP_SETUID || cap == CAP_SETGID)
		return "the answer could not change the outcome (the ids asked for were "
		       "the program's own, which kernel/sys.c allows without it)";
	if (cap == CAP_FSETID)
		return "the answer could not change the outcome (a refusal only clears "
		       "the set-group-ID bit, and the mode asked for had none)";
	return "the answer could not change the outcome (capset() kept the inheritable "
	       "set within the permitted one)";
}

const char narrower_heading[] = "Narrower capabilities that do the same job (the kernel "
				"accepts them where the broader one was used)";
const char aside_heading[] = "Checked, but not needed in the set";

const char *term_first(struct terms *t, enum term which)
{
	static const char *const say[TERM_NR] = {
		[TERM_NOAUDIT] = " (noaudit: the kernel asked without logging it, to find out "
				 "what is allowed; never a requirement; docs/glossary.md)",
		[TERM_AUDITED] = " (audited: the checks the kernel logs, made when an "
				 "operation needs the capability; docs/glossary.md)",
		[TERM_CALL_SITE] = " (call site: the kernel function that asked for the "
				   "capability; docs/glossary.md)",
		[TERM_ADVISORY] = " (an advisory denial: the program did without "
				  "the capability; docs/glossary.md)",
		[TERM_BLOCKING] = " (blocking: the denial made a syscall fail; "
				  "docs/glossary.md)",
		[TERM_SET_ASIDE] = " (the kernel asked, but the answer did not depend on the "
				   "capabilities the program is given on this host, so the set "
				   "needs none of these; docs/glossary.md)",
		[TERM_RUNTIME_SETUP] = " (container runtime setup: runc or crun preparing "
				       "the container before its program starts; not counted; "
				       "docs/glossary.md)",
		[TERM_PARTIAL] = " (partial: checks may be missing from it; "
				 "docs/glossary.md)",
	};

	if (which < 0 || which >= TERM_NR || t->said[which])
		return "";
	t->said[which] = true;
	return say[which];
}

const char *runtime_setup_note(struct terms *t)
{
	const char *first = term_first(t, TERM_RUNTIME_SETUP);

	return *first ? first : " (container runtime setup: not counted)";
}

const char *file_check_hint(int cap)
{
	if (cap != CAP_DAC_OVERRIDE && cap != CAP_DAC_READ_SEARCH && cap != CAP_FOWNER)
		return NULL;
	return "a file-permission check: the record does not name the file; record with "
	       "--user-stacks to see which line of the program asked";
}

bool sites_have_objects(const struct sg_site *sites, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (obj_set_any(&sites[i].objects))
			return true;
	return false;
}

/* buf += "; " + s (or s alone at the start) */
static void note_add(char *buf, size_t len, const char *s)
{
	size_t o = strlen(buf);

	if (o < len)
		snprintf(buf + o, len - o, "%s%s", o ? "; " : "", s);
}

const char *row_note(const struct cap_row *cr, struct terms *t, char *buf, size_t len)
{
	const char *hint = file_check_hint(cr->cap), *w;
	bool have_users = false;
	size_t i;

	if (len)
		buf[0] = '\0';
	if (cr->noaudit && *(w = term_first(t, TERM_NOAUDIT)))
		note_add(buf, len, w + 1);   /* "(noaudit: ...)", without the space */
	if (cr->userns != RU_HOST)
		note_add(buf, len, userns_meaning(cr->userns));
	else if (cr->other_ns)
		note_add(buf, len, cr->init_ns ? "checked in the host's user namespace and in "
			 "a child one" : "checked in a child user namespace");
	if (cr->foreign_cred)
		note_add(buf, len, foreign_words);
	if (cr->no_effect)
		note_add(buf, len, no_effect_words(cr->cap));
	/* user stacks, or the files themselves (record format 7), say which */
	for (i = 0; i < cr->nsites; i++)
		have_users |= cr->sites[i].nusers > 0 || obj_set_any(&cr->sites[i].objects);
	if (hint && !have_users)
		note_add(buf, len, hint);
	return buf;
}

const char *aside_meaning(const struct sg_aside *a, char *buf, size_t len)
{
	switch (a->why) {
	case ASIDE_INSIDE:
		return userns_meaning(RU_INSIDE);
	case ASIDE_OWNER:
		return userns_meaning(RU_OWNER);
	case ASIDE_CHILD:
		return userns_meaning(RU_CHILD);
	case ASIDE_NO_EFFECT:
		if (a->fact) {   /* a refusal matters only for other calls */
			snprintf(buf, len, "the answer could not change the outcome: %s",
				 a->fact->also);
			return buf;
		}
		return no_effect_words(a->cap);
	case ASIDE_FOREIGN:
		return foreign_words;
	default:
		snprintf(buf, len, "the outcome only tunes behaviour (%s; %s); capaudit "
			 "verify proves it for this program", a->fact ? a->fact->operation : "",
			 a->fact ? a->fact->source : "kernel fact");
		return buf;
	}
}
