// SPDX-License-Identifier: GPL-2.0
#include "lib/ksyms.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* Names point into the text they were parsed from: one allocation for
 * ~120k symbols instead of one each. */
struct ksym {
	uint64_t addr;
	const char *name;
	const char *mod;   /* NULL: built in */
};

struct ksyms {
	char *text;
	struct ksym *syms;
	size_t n, cap;
};

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Next whitespace-separated token of the line [*p, end), NUL-terminated. */
static char *token(char **p, char *end)
{
	char *s = *p, *t;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= end)
		return NULL;
	for (t = s; t < end && *t != ' ' && *t != '\t'; t++)
		;
	*t = '\0';
	*p = t < end ? t + 1 : end;
	return s;
}

struct ksyms *ksyms_parse_owned(char *text, size_t len, char *err, size_t errlen)
{
	struct ksyms *ks = xcalloc(1, sizeof(*ks));
	char *p = text, *end = text + len;
	size_t nonzero = 0;

	ks->text = text;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		char *a, *type, *name, *mod, *cur = p;
		unsigned long long addr;

		*le = '\0';
		a = token(&cur, le);
		type = token(&cur, le);
		name = token(&cur, le);
		mod = token(&cur, le);
		p = le + 1;
		/* text symbols only: data would shadow functions; and where
		 * the kernel's text ends, whatever its type (arm64's _etext
		 * is 'D'), for the call-site cache's proofs */
		if (!a || !type || !name || type[1] ||
		    (!strchr("tTwW", type[0]) && strcmp(name, "_etext")))
			continue;
		addr = strtoull(a, NULL, 16);
		grow_array((void **)&ks->syms, &ks->cap, ks->n + 1, sizeof(*ks->syms));
		if (mod && mod[0] == '[') {   /* "[ext4]" -> "ext4" */
			mod++;
			mod[strcspn(mod, "]")] = '\0';
		}
		ks->syms[ks->n++] = (struct ksym){ addr, name, mod };
		nonzero += addr != 0;
	}
	if (!ks->n || !nonzero) {
		snprintf(err, errlen, "%s", ks->n ?
			 "kernel symbol addresses are hidden (all zero): need CAP_SYSLOG, "
			 "or kernel.kptr_restrict=0 and kernel.perf_event_paranoid<=1" :
			 "no kernel text symbols found");
		ksyms_free(ks);
		return NULL;
	}
	sort_array(ks->syms, ks->n, sizeof(*ks->syms), cmp_addr);
	return ks;
}

struct ksyms *ksyms_parse(const char *text, size_t len, char *err, size_t errlen)
{
	char *copy = xcalloc(len + 1, 1);

	memcpy(copy, text, len);
	return ksyms_parse_owned(copy, len, err, errlen);
}

struct ksyms *ksyms_load(char *err, size_t errlen)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		snprintf(err, errlen, "/proc/kallsyms: %s", strerror(errno));
		return NULL;
	}
	do {
		grow_array((void **)&buf, &cap, len + 65536, 1);
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	return ksyms_parse_owned(buf, len, err, errlen);
}

void ksyms_free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->text);
	free(ks);
}

size_t ksyms_count(const struct ksyms *ks) { return ks ? ks->n : 0; }

int ksyms_foreach(const struct ksyms *ks,
		  int (*fn)(void *ctx, uint64_t addr, uint64_t end, const char *name,
			    const char *mod),
		  void *ctx)
{
	size_t i;
	int rc;

	for (i = 0; ks && i < ks->n; i++) {
		uint64_t end = i + 1 < ks->n ? ks->syms[i + 1].addr : ks->syms[i].addr + 1;

		if ((rc = fn(ctx, ks->syms[i].addr, end, ks->syms[i].name, ks->syms[i].mod)))
			return rc;
	}
	return 0;
}

void ksyms_format(const struct ksyms *ks, uint64_t addr, char *buf, size_t len)
{
	size_t lo = 0, hi = ks ? ks->n : 0;
	const struct ksym *s;

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
	if (s->mod)
		snprintf(buf, len, "%s+0x%llx [%s]", s->name, (unsigned long long)(addr - s->addr),
			 s->mod);
	else
		snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)(addr - s->addr));
}
