// SPDX-License-Identifier: GPL-2.0
/* What a record may have missed (partial.h). */
#include "analyze/partial.h"

#include <stdio.h>
#include <string.h>

const char partial_remedy[] =
	"for a complete answer record the program from its start (capaudit record -- "
	"COMMAND, or --service UNIT) or prove a set with capaudit verify";

bool record_partial(const struct record *r, struct partial *p)
{
	const struct rec_header *h;
	const char *sc;

	memset(p, 0, sizeof(*p));
	if (!r)
		return false;   /* a suggestion made without a record */
	h = &r->hdr;
	sc = h->scope;
	/* a command, a service or a monitor's own start is seen; of a scope
	 * (-p, -a, --cgroup, --container, --unit), the processes that had
	 * started before the recording did (a --cgroup of an empty subtree
	 * sees its containers from their first exec: not partial) */
	if (sc && strcmp(sc, "command") && strcmp(sc, "service") && strcmp(sc, "monitor")) {
		size_t i;

		for (i = 0; i < r->nprocs && !p->missed_start; i++)
			p->missed_start = r->procs[i].start_ns && r->procs[i].start_ns < h->start_ns;
	}
	p->missed_end = h->command_running;
	p->lost = rec_lost_total(&h->lost) > 0;
	return p->missed_start || p->missed_end || p->lost;
}

const char *partial_words(const struct partial *p, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if (p->missed_start)
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%sit attached to processes "
				      "already running: what they did before (binding ports, "
				      "changing user at start) is not in it.", n ? " " : "");
	if (p->missed_end && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%sit stopped while the program still "
				      "ran: what it did after is not in it.", n ? " " : "");
	if (p->lost && n < len)
		snprintf(buf + n, len - n, "%sevents were lost while recording.", n ? " " : "");
	return buf;
}
