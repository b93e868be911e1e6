// SPDX-License-Identifier: GPL-2.0
#include "procinfo.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

int procinfo_read(pid_t pid, struct procinfo *out)
{
	char path[64], status[4096], *p;
	ssize_t n;
	unsigned tgid = 0;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (read_file(path, status, sizeof(status)))
		return -1;
	p = strstr(status, "\nTgid:");
	if (p)
		sscanf(p, "\nTgid: %u", &tgid);
	if (tgid != (unsigned)pid) {   /* a thread id, not a process */
		errno = ESRCH;
		return -1;
	}
	out->pid = (uint32_t)pid;
	p = strstr(status, "\nPPid:");
	if (p)
		sscanf(p, "\nPPid: %u", &out->ppid);
	p = strstr(status, "\nUid:");
	if (p)
		sscanf(p, "\nUid: %u", &out->uid);
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (!read_file(path, out->comm, sizeof(out->comm)))
		out->comm[strcspn(out->comm, "\n")] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, out->exe, sizeof(out->exe) - 1);
	out->exe[n > 0 ? n : 0] = '\0';
	return 0;
}

bool proc_alive(pid_t pid)
{
	struct procinfo pi;

	return procinfo_read(pid, &pi) == 0;
}

size_t proc_descendants(pid_t root, pid_t **out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t *pids = NULL, *ppids = NULL, *res = NULL;
	size_t n = 0, cap = 0, cap2 = 0, nres = 0, capres = 0, i, j;
	bool grew = true;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct procinfo pi;
		uint32_t pid;

		if (parse_u32(de->d_name, &pid) || procinfo_read((pid_t)pid, &pi))
			continue;
		grow_array((void **)&pids, &cap, n + 1, sizeof(*pids));
		grow_array((void **)&ppids, &cap2, n + 1, sizeof(*ppids));
		pids[n] = (pid_t)pid;
		ppids[n++] = (pid_t)pi.ppid;
	}
	closedir(d);
	/* transitive closure: small n, repeat until nothing new */
	while (grew) {
		grew = false;
		for (i = 0; i < n; i++) {
			bool in = false, parent_in = ppids[i] == root;

			for (j = 0; j < nres && !(in && parent_in); j++) {
				in |= res[j] == pids[i];
				parent_in |= res[j] == ppids[i];
			}
			if (!in && parent_in && pids[i] != root) {
				grow_array((void **)&res, &capres, nres + 1, sizeof(*res));
				res[nres++] = pids[i];
				grew = true;
			}
		}
	}
	free(pids);
	free(ppids);
	*out = res;
	return nres;
}
