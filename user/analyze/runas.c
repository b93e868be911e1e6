// SPDX-License-Identifier: GPL-2.0
/*
 * Who ran the selected images (runas.h). The uid of a process line is the
 * real uid at its fork or exec; a check's, the real uid when it was made.
 * Both are read: a daemon that starts as root and switches to a user after
 * its exec shows uid 0 on its process line and the user's uid on its later
 * checks, and is not "one user" (runAsUser would keep it from starting as
 * root). A setuid program keeps the caller's real uid: that is what
 * secure_exec is for.
 */
#include "analyze/runas.h"

#include <string.h>

static void add_uid(struct runas *r, uint32_t uid)
{
	size_t i;

	for (i = 0; i < r->nuids && i < 2; i++)
		if (r->uids[i] == uid)
			return;
	if (r->nuids < 2)
		r->uids[r->nuids] = uid;
	if (r->nuids < 3)
		r->nuids++;   /* 3: more than the two kept */
}

/* The cgroup path runs through a user manager: /user.slice/user-1000.slice/
 * user@1000.service/app.slice/x.service; unit is not that manager itself. */
static bool under_user_manager(const char *cgroup, const char *unit)
{
	const char *m = cgroup ? strstr(cgroup, "/user@") : NULL;

	return m && unit && strncmp(unit, "user@", 5) && strstr(m + 1, "/") != NULL;
}

/* A record of a command capaudit started (or a merge with one). */
static bool of_a_command(const struct record *rec)
{
	size_t i;

	for (i = 0; i < rec->ninputs; i++)
		if (rec->inputs[i].hdr.scope && !strcmp(rec->inputs[i].hdr.scope, "command"))
			return true;
	return rec->hdr.scope && !strcmp(rec->hdr.scope, "command");
}

void runas_build(const struct record *rec, const bool *matched, struct runas *out)
{
	const struct rec_header *h = &rec->hdr;
	const char *cgroup = NULL;
	/* a command capaudit started runs in its caller's unit (a login
	 * session, a CI runner's service): not the workload's own */
	bool units_agree = !of_a_command(rec);
	size_t i;

	memset(out, 0, sizeof(*out));
	out->version = h->version;
	out->events_lost = h->lost.ringbuf_full + h->lost.proc_full;
	out->lines_lost = rec->input.skipped + rec->input.missing;
	for (i = 0; i < rec->nprocs; i++) {
		const struct rec_process *p = &rec->procs[i];

		/* runc init and the like run as root before the container's
		 * program: the runtime's user, not the workload's */
		if ((matched && !matched[i]) || p->runtime_setup)
			continue;
		add_uid(out, p->uid);
		if (p->secure_exec && !out->ngainers++)
			out->gainer = p;
		if (p->unit) {
			if (!out->unit) {
				out->unit = p->unit;
				cgroup = p->cgroup;
			} else if (strcmp(out->unit, p->unit)) {
				units_agree = false;
			}
		}
	}
	for (i = 0; i < rec->nchecks; i++) {
		const struct rec_check *c = &rec->checks[i];
		const struct rec_process *p = check_process(rec, c);

		if (!p || (matched && !matched[p - rec->procs]) || p->runtime_setup)
			continue;
		add_uid(out, c->uid);
		out->userns |= c->userns == RU_INSIDE;
	}
	if (!units_agree)
		out->unit = NULL;
	/* what the recording was pointed at wins over what the images say */
	if (h->target_unit) {
		out->unit = h->target_unit;
		cgroup = h->target_cgroup;
	} else if (h->target_service) {
		/* record --service: the unit of that file (its name; the
		 * snippet takes it only if it is a service's) */
		const char *slash = strrchr(h->target_service, '/');

		out->unit = slash ? slash + 1 : h->target_service;
		cgroup = NULL;
	}
	out->user_unit = under_user_manager(cgroup, out->unit);
	if (out->ngainers)
		out->gain = GAIN_SEEN;
	else if (h->version < 4 || out->events_lost || out->lines_lost)
		out->gain = GAIN_UNKNOWN;   /* a lost exec could have gained */
	else
		out->gain = GAIN_NONE;
}

/* A lost process line could have run as anyone: no claim then. */
static bool uids_are_all(const struct runas *r)
{
	return r->nuids == 1 && !r->userns && !r->events_lost && !r->lines_lost;
}

bool runas_all_root(const struct runas *r)
{
	return uids_are_all(r) && r->uids[0] == 0;
}

bool runas_one_user(const struct runas *r)
{
	return uids_are_all(r) && r->uids[0] != 0;
}
