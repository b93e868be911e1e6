// SPDX-License-Identifier: GPL-2.0
/* -p PID[,PID...], --cgroup, --container, --unit (scope_opts.h). */
#include "cli/scope_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/msg.h"
#include "lib/util.h"
#include "record/procinfo.h"
#include "record/scope.h"

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

int scope_opt(struct rec_opts *o, int c, const char *arg)
{
	if (c == 'p')
		return parse_pid_list(o, arg);
	if (o->scope_kind) {
		p_err("give only one of --cgroup, --container and --unit");
		return -1;
	}
	o->scope_kind = c == O_SCOPE_CGROUP ? SCOPE_CGROUP : c == O_SCOPE_CONTAINER ?
			SCOPE_CONTAINER : SCOPE_UNIT;
	o->scope_arg = arg;
	return 0;
}
