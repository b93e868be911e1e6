// SPDX-License-Identifier: GPL-2.0
#include "lib/ksyms.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"

/* Names and module names in one pool of their own, by offset (0: none; the
 * pool starts with an empty string): the text they came from is never kept
 * whole (iter/ksym's is 7-8 MB, the table 4-5 MB), and a symbol is 16
 * bytes. Modules come in runs of lines: each run's name is pooled once. */
struct ksym {
	uint64_t addr;
	uint32_t name, mod;
};

struct ksyms {
	char *pool;
	size_t plen, pcap;
	struct ksym *syms;
	size_t n, cap;
	char *part;          /* a line not ended yet (ksyms_feed()) */
	size_t partlen, partcap;
	uint32_t last_mod;   /* the pooled name of the last module seen */
	size_t nonzero;
};

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Next whitespace-separated token of [*p, end): its start, *tl its length. */
static const char *token(const char **p, const char *end, size_t *tl)
{
	const char *s = *p, *t;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= end)
		return NULL;
	for (t = s; t < end && *t != ' ' && *t != '\t'; t++)
		;
	*tl = (size_t)(t - s);
	*p = t;
	return s;
}

/* Doubling, but not cleared (grow_array() clears, and so makes resident
 * what may never be used: the last doubling's half). */
static void grow(void **arr, size_t *cap, size_t need, size_t sz)
{
	size_t n = *cap ? *cap : 4096;

	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	*arr = xrealloc(*arr, n * sz);
	*cap = n;
}

static uint32_t pool_add(struct ksyms *ks, const char *s, size_t n)
{
	uint32_t off = (uint32_t)ks->plen;

	grow((void **)&ks->pool, &ks->pcap, ks->plen + n + 1, 1);
	memcpy(ks->pool + ks->plen, s, n);
	ks->pool[ks->plen + n] = '\0';
	ks->plen += n + 1;
	return off;
}

/* One "ADDR TYPE NAME [MOD]" line. */
static void parse_line(struct ksyms *ks, const char *p, const char *end)
{
	size_t al, tl, nl, ml = 0;
	const char *a = token(&p, end, &al), *type = token(&p, end, &tl);
	const char *name = token(&p, end, &nl), *mod = token(&p, end, &ml);
	char abuf[24];
	uint32_t mo = 0;
	uint64_t addr;

	/* text symbols only: data would shadow functions; and where the
	 * kernel's text ends, whatever its type (arm64's _etext is 'D'), for
	 * the call-site cache's proofs */
	if (!a || !type || !name || tl != 1 || al >= sizeof(abuf) ||
	    (!strchr("tTwW", type[0]) && (nl != 6 || memcmp(name, "_etext", 6))))
		return;
	memcpy(abuf, a, al);
	abuf[al] = '\0';
	addr = strtoull(abuf, NULL, 16);
	if (mod && ml >= 2 && mod[0] == '[') {   /* "[ext4]" -> "ext4" */
		const char *close = memchr(mod, ']', ml);

		mod++;
		ml = close ? (size_t)(close - mod) : ml - 1;
		if (ks->last_mod && !strncmp(ks->pool + ks->last_mod, mod, ml) &&
		    !ks->pool[ks->last_mod + ml])
			mo = ks->last_mod;
		else
			mo = ks->last_mod = pool_add(ks, mod, ml);
	} else if (mod) {
		mo = pool_add(ks, mod, ml);
	}
	grow((void **)&ks->syms, &ks->cap, ks->n + 1, sizeof(*ks->syms));
	ks->syms[ks->n++] = (struct ksym){ addr, pool_add(ks, name, nl), mo };
	ks->nonzero += addr != 0;
}

struct ksyms *ksyms_new(void)
{
	struct ksyms *ks = xcalloc(1, sizeof(*ks));

	pool_add(ks, "", 0);   /* offset 0: no name */
	return ks;
}

void ksyms_feed(struct ksyms *ks, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;

	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p)))) {
		if (ks->partlen) {   /* the end of the line the last chunk began */
			grow_array((void **)&ks->part, &ks->partcap, ks->partlen + (size_t)(nl - p), 1);
			memcpy(ks->part + ks->partlen, p, (size_t)(nl - p));
			ks->partlen += (size_t)(nl - p);
			parse_line(ks, ks->part, ks->part + ks->partlen);
			ks->partlen = 0;
		} else {
			parse_line(ks, p, nl);
		}
		p = nl + 1;
	}
	if (p < end) {
		grow_array((void **)&ks->part, &ks->partcap, ks->partlen + (size_t)(end - p), 1);
		memcpy(ks->part + ks->partlen, p, (size_t)(end - p));
		ks->partlen += (size_t)(end - p);
	}
}

struct ksyms *ksyms_finish(struct ksyms *ks, char *err, size_t errlen)
{
	if (ks->partlen)
		parse_line(ks, ks->part, ks->part + ks->partlen);
	free(ks->part);
	ks->part = NULL;
	ks->partlen = ks->partcap = 0;
	if (!ks->n || !ks->nonzero) {
		snprintf(err, errlen, "%s", ks->n ?
			 "kernel symbol addresses are hidden (all zero): need CAP_SYSLOG, "
			 "or kernel.kptr_restrict=0 and kernel.perf_event_paranoid<=1" :
			 "no kernel text symbols found");
		ksyms_free(ks);
		return NULL;
	}
	sort_array(ks->syms, ks->n, sizeof(*ks->syms), cmp_addr);
	/* no slack kept: the table lives as long as the recording or monitor */
	ks->syms = realloc(ks->syms, ks->n * sizeof(*ks->syms)) ?: ks->syms;
	ks->cap = ks->n;
	ks->pool = realloc(ks->pool, ks->plen) ?: ks->pool;
	ks->pcap = ks->plen;
	return ks;
}

struct ksyms *ksyms_parse_owned(char *text, size_t len, char *err, size_t errlen)
{
	struct ksyms *ks = ksyms_parse(text, len, err, errlen);

	free(text);
	return ks;
}

struct ksyms *ksyms_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct ksyms *ks = ksyms_new();

	ksyms_feed(ks, text, len);
	return ksyms_finish(ks, err, errlen);
}

struct ksyms *ksyms_load(char *err, size_t errlen)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	struct ksyms *ks;
	char buf[65536];
	size_t n;

	if (!f) {
		snprintf(err, errlen, "/proc/kallsyms: %s", strerror(errno));
		return NULL;
	}
	ks = ksyms_new();
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		ksyms_feed(ks, buf, n);
	fclose(f);
	return ksyms_finish(ks, err, errlen);
}

int ksyms_addresses_shown_in(FILE *f)
{
	unsigned long long addr = 0;
	char type[2], line[512];
	int i;

	/* the first text symbol's: x86-64 kernels before 6.15 list their
	 * per-CPU symbols first, at their offsets ("0000000000000000 A
	 * fixed_percpu_data"), which are 0 whoever reads them */
	for (i = 0; i < 65536 && fgets(line, sizeof(line), f); i++) {
		if (sscanf(line, "%llx %1s", &addr, type) != 2)
			return 0;
		if (type[0] == 't' || type[0] == 'T')
			return addr != 0;
	}
	return 0;
}

int ksyms_addresses_shown(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	int shown;

	if (!f)
		return 0;
	shown = ksyms_addresses_shown_in(f);
	fclose(f);
	return shown;
}

void ksyms_free(struct ksyms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->pool);
	free(ks->part);
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

		if ((rc = fn(ctx, ks->syms[i].addr, end, ks->pool + ks->syms[i].name,
			     ks->syms[i].mod ? ks->pool + ks->syms[i].mod : NULL)))
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
		snprintf(buf, len, "%s+0x%llx [%s]", ks->pool + s->name,
			 (unsigned long long)(addr - s->addr), ks->pool + s->mod);
	else
		snprintf(buf, len, "%s+0x%llx", ks->pool + s->name,
			 (unsigned long long)(addr - s->addr));
}
