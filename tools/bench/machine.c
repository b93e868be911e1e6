// SPDX-License-Identifier: GPL-2.0
/* What machine a bench ran on (machine.h). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "machine.h"

#define VULN "/sys/devices/system/cpu/vulnerabilities"

/* One line of a small file, without its newline; "" if unreadable. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (f && !fgets(buf, (int)len, f))
		buf[0] = '\0';
	if (f)
		fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

void machine_cpu(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "re");

	snprintf(buf, len, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || (strncmp(line, "model name", 10) && strncmp(line, "CPU part", 8)))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(buf, len, "%s", colon + 2 <= line + strlen(line) ? colon + 2 : "");
		break;
	}
	if (f)
		fclose(f);
}

void machine_kernel(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u))
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%s (%s)", u.release, u.version);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void machine_print_mitigations(void)
{
	char *names[64], path[512], state[256];
	struct dirent *de;
	DIR *d = opendir(VULN);
	int n = 0, i;

	if (!d) {
		printf("  (no %s)\n", VULN);
		return;
	}
	while ((de = readdir(d)) && n < 64)
		if (de->d_name[0] != '.')
			names[n++] = strdup(de->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", VULN, names[i]);
		read_line(path, state, sizeof(state));
		if (!strcmp(names[i], "meltdown") || !strcmp(names[i], "spectre_v2") ||
		    strcmp(state, "Not affected"))
			printf("  %s: %s\n", names[i], state);
		free(names[i]);
	}
}

/* file, text in its state, token: the first match per file wins */
static const struct {
	const char *file, *has, *token;
} tokens[] = {
	{ "meltdown", "PTI", "pti" },
	{ "spectre_v2", "Enhanced", "eibrs" },     /* "Enhanced / Automatic IBRS" */
	{ "spectre_v2", "Retpolines", "retpoline" },
	{ "spectre_v2", "IBRS", "ibrs" },
	{ "retbleed", "untrained return thunk", "rethunk" },
	{ "spec_rstack_overflow", "Safe RET", "srso" },
	{ "indirect_target_selection", "Mitigation", "its" },
};

void machine_mitigations_token(char *buf, size_t len)
{
	char path[512], state[256];
	const char *last = "";
	size_t i, o = 0;
	DIR *d = opendir(VULN);

	buf[0] = '\0';
	if (!d) {
		snprintf(buf, len, "unknown");
		return;
	}
	closedir(d);
	for (i = 0; i < sizeof(tokens) / sizeof(tokens[0]); i++) {
		if (!strcmp(tokens[i].file, last))
			continue;   /* this file already gave its token */
		snprintf(path, sizeof(path), "%s/%s", VULN, tokens[i].file);
		read_line(path, state, sizeof(state));
		if (strncmp(state, "Mitigation", 10) || !strstr(state, tokens[i].has))
			continue;
		last = tokens[i].file;
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? "+" : "",
				      tokens[i].token);
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}
