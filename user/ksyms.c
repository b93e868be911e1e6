// SPDX-License-Identifier: GPL-2.0
#include "ksyms.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct ksym {
	uint64_t addr;
	char *name;   /* "func" or "func [mod]" */
};

struct ksyms {
	struct ksym *syms;
	size_t n, cap;
};

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct ksyms *ksyms_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct ksyms *ks = xcalloc(1, sizeof(*ks));
	const char *p = text, *end = text + len;
	size_t nonzero = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[512], type, name[256], mod[128];
		unsigned long long addr;
		int f;

		if (l < sizeof(line)) {
			memcpy(line, p, l);
			line[l] = '\0';
			mod[0] = '\0';
			f = sscanf(line, "%llx %c %255s %127s", &addr, &type, name, mod);
			/* text symbols only: data would shadow functions */
			if (f >= 3 && strchr("tTwW", type)) {
				struct ksym *s;

				grow_array((void **)&ks->syms, &ks->cap, ks->n + 1, sizeof(*s));
				s = &ks->syms[ks->n++];
				s->addr = addr;
				if (f == 4) {
					size_t nl2 = strlen(name) + strlen(mod) + 2;

					s->name = xcalloc(nl2, 1);
					snprintf(s->name, nl2, "%s %s", name, mod);
				} else {
					s->name = xstrdup(name);
				}
				if (addr)
					nonzero++;
			}
		}
		p += l + 1;
	}
	if (!ks->n || !nonzero) {
		snprintf(err, errlen, "%s", ks->n ?
			 "kernel symbol addresses are hidden (all zero): need CAP_SYSLOG, "
			 "or kernel.kptr_restrict=0 and kernel.perf_event_paranoid<=1" :
			 "no kernel text symbols found");
		ksyms_free(ks);
		return NULL;
	}
	qsort(ks->syms, ks->n, sizeof(*ks->syms), cmp_addr);
	return ks;
}

struct ksyms *ksyms_load(char *err, size_t errlen)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	struct ksyms *ks;

	if (!f) {
		snprintf(err, errlen, "/proc/kallsyms: %s", strerror(errno));
		return NULL;
	}
	do {
		grow_array((void **)&buf, &cap, len + 65536, 1);
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	ks = ksyms_parse(buf, len, err, errlen);
	free(buf);
	return ks;
}

void ksyms_free(struct ksyms *ks)
{
	size_t i;

	if (!ks)
		return;
	for (i = 0; i < ks->n; i++)
		free(ks->syms[i].name);
	free(ks->syms);
	free(ks);
}

size_t ksyms_count(const struct ksyms *ks) { return ks ? ks->n : 0; }

void ksyms_format(const struct ksyms *ks, uint64_t addr, char *buf, size_t len)
{
	size_t lo = 0, hi = ks ? ks->n : 0;
	const struct ksym *s;
	const char *sp;

	while (lo < hi) {  /* first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !ks->syms[lo - 1].addr) {
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
		return;
	}
	s = &ks->syms[lo - 1];
	sp = strchr(s->name, ' ');
	if (sp)
		snprintf(buf, len, "%.*s+0x%llx%s", (int)(sp - s->name), s->name,
			 (unsigned long long)(addr - s->addr), sp);
	else
		snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)(addr - s->addr));
}
