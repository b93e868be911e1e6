// SPDX-License-Identifier: GPL-2.0
/* -p PID[,PID...] (pid_opts.h). */
#include "cli/pid_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/msg.h"
#include "lib/util.h"
#include "record/procinfo.h"

int parse_pid_list(struct rec_opts *o, const char *arg)
{
	char *copy = xstrdup(arg), *tok, *save = NULL;
	int rc = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t pid;

		if (parse_u32(tok, &pid) || pid == 0 || pid > 4194304) {
			p_err("invalid PID '%s' in -p %s", tok, arg);
			rc = -1;
			break;
		}
		if (o->npids == MAX_PIDS) {
			p_err("-p: more than %d PIDs", MAX_PIDS);
			rc = -1;
			break;
		}
		o->pidfds[o->npids] = pidfd_of((pid_t)pid);
		if (o->pidfds[o->npids] < 0)
			o->pidfds[o->npids] = -errno;
		o->pids[o->npids++] = (pid_t)pid;
	}
	if (!rc && !o->npids) {
		p_err("-p needs at least one PID");
		rc = -1;
	}
	free(copy);
	return rc;
}
