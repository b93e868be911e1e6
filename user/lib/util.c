// SPDX-License-Identifier: GPL-2.0
#include "lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;  /* rejects "", "-1", "+1", " 1" */
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int parse_int_range(const char *s, long min, long max, long *out)
{
	long v;
	char *end;

	if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9')))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_seconds(const char *s, double *out)
{
	double v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v > 0) || v > 1e7)
		return -1;
	*out = v;
	return 0;
}

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t now_realtime_ns(void) { return clock_ns(CLOCK_REALTIME); }
int64_t now_monotonic_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

void format_iso8601(int64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / 1000000000LL);
	long us = (long)((ns % 1000000000LL) / 1000);
	struct tm tm;
	char tmp[32];

	if (ns < 0 || !gmtime_r(&sec, &tm)) {
		snprintf(buf, len, "invalid-time");
		return;
	}
	strftime(tmp, sizeof(tmp), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%06ldZ", tmp, us);
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) { len = 2; cp = s[0] & 0x1f; }
	else if ((s[0] & 0xf0) == 0xe0) { len = 3; cp = s[0] & 0x0f; }
	else if ((s[0] & 0xf8) == 0xf0) { len = 4; cp = s[0] & 0x07; }
	else return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
	    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/*
 * Length of a multibyte character at s (NUL-terminated) that a terminal or
 * a page may show as it is: valid UTF-8, and none of the characters that
 * act instead of showing: C1 controls (U+0080..U+009F, which terminals
 * take as escapes), the bidirectional controls that reorder what follows
 * (U+200E, U+200F, U+202A..U+202E, U+2066..U+2069: "Trojan Source",
 * CVE-2021-42574) and U+FEFF. 0 for anything else, written as \xNN.
 */
static size_t shown_utf8_len(const unsigned char *s)
{
	size_t n = 0, len;
	uint32_t cp;

	while (n < 4 && s[n])
		n++;
	len = utf8_seq_len(s, n);
	if (len < 2)
		return 0;
	cp = len == 2 ? (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f)
	   : len == 3 ? (uint32_t)(s[0] & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6 | (s[2] & 0x3f)
	   : 0x10000;   /* the supplementary planes hold no control */
	if (cp <= 0x9f || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff)
		return 0;
	return len;
}

static char *escape(const char *s, char *buf, size_t len, bool backslash)
{
	size_t o = 0;

	if (!len)
		return buf;
	for (; s && *s && o + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;

		size_t u = c >= 0x80 ? shown_utf8_len((const unsigned char *)s) : 0;

		if (c == '\\' && backslash) {
			buf[o++] = '\\';
			buf[o++] = '\\';
		} else if (u) {
			memcpy(buf + o, s, u);
			o += u;
			s += u - 1;
		} else if (c < 0x20 || c >= 0x7f) {
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o] = '\0';
	return buf;
}

char *text_escape(const char *s, char *buf, size_t len)
{
	return escape(s, buf, len, true);
}

char *text_sanitize(const char *s, char *buf, size_t len)
{
	return escape(s, buf, len, false);
}

void markup_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t u;

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;   /* &apos; is not HTML 4 */
		case '\\': fputs("\\\\", f); break;
		default:
			if (c >= 0x80 && (u = shown_utf8_len((const unsigned char *)s))) {
				fwrite(s, 1, u, f);
				s += u - 1;
			} else if (c < 0x20 || c >= 0x7f) {
				fprintf(f, "\\x%02x", c);
			} else {
				fputc(c, f);
			}
		}
	}
}

char *utf8_sanitize(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	char *out = xcalloc(n * 4 + 1, 1);
	size_t i = 0, o = 0;

	while (i < n) {
		size_t l = utf8_seq_len(s + i, n - i);

		if (l == 0 || (l == 1 && s[i] == 0)) {
			o += (size_t)sprintf(out + o, "\\x%02x", s[i]);
			i++;
			continue;
		}
		memcpy(out + o, s + i, l);
		o += l;
		i += l;
	}
	out[o] = '\0';
	return out;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p) {
		fprintf(stderr, "capaudit: out of memory\n");
		exit(70);
	}
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p) {
		fprintf(stderr, "capaudit: out of memory\n");
		exit(70);
	}
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p) {
		fprintf(stderr, "capaudit: out of memory\n");
		exit(70);
	}
	return p;
}

void grow_array(void **arr, size_t *cap, size_t need, size_t sz)
{
	size_t n = *cap ? *cap : 8;

	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	*arr = xrealloc(*arr, n * sz);
	memset((char *)*arr + *cap * sz, 0, (n - *cap) * sz);
	*cap = n;
}

void sort_array(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

bool is_lower_hex(const char *s)
{
	return s[strspn(s, "0123456789abcdef")] == '\0';
}

int self_usage(uint64_t *rss_bytes, double *cpu_seconds)
{
	struct rusage ru;
	unsigned long long size, resident;
	long page = sysconf(_SC_PAGESIZE);
	FILE *f = fopen("/proc/self/statm", "re");
	int rc = 0;

	*rss_bytes = 0;
	*cpu_seconds = 0;
	if (f && fscanf(f, "%llu %llu", &size, &resident) == 2 && page > 0)
		*rss_bytes = (uint64_t)resident * (uint64_t)page;
	else
		rc = -1;
	if (f)
		fclose(f);
	if (!getrusage(RUSAGE_SELF, &ru))
		*cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
			       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) / 1e6;
	else
		rc = -1;
	return rc;
}

const char *sig_name(int sig)
{
	static __thread char buf[32];
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

void block_stop_signals(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, old);
}

bool exec_name_is_fd(const char *path)
{
	return !strncmp(path, "/proc/", 6) || !strncmp(path, "/dev/fd/", 8);
}

int exec_file_kind(const char *path, char *interp, size_t n)
{
	char head[256];
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (interp && n)
		interp[0] = '\0';
	if (fd < 0)
		return EXEC_UNKNOWN;
	got = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (got >= 4 && !memcmp(head, "\177ELF", 4))
		return EXEC_ELF;
	if (got >= 2 && head[0] == '#' && head[1] == '!') {
		size_t i = 2, len;

		head[got] = '\0';
		while (head[i] == ' ' || head[i] == '\t')
			i++;
		len = strcspn(head + i, " \t\n");
		if (interp && n)
			snprintf(interp, n, "%.*s", (int)len, head + i);
		return EXEC_SCRIPT;
	}
	return got < 0 ? EXEC_UNKNOWN : EXEC_OTHER;
}

void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* str appended to buf at *o, whole or not at all (a cut quote would change
 * the word); room is kept for a closing quote and the NUL. */
static bool put_piece(char *buf, size_t len, size_t *o, const char *str)
{
	size_t n = strlen(str);

	if (*o + n + 2 > len)
		return false;
	memcpy(buf + *o, str, n);
	*o += n;
	return true;
}

char *shell_word(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return buf;
	if (*s && s[0] != '-' &&
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789_./:=,+@%-") == strlen(s)) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	if (put_piece(buf, len, &o, "'")) {
		for (; *s; s++) {
			char one[2] = { *s, '\0' };

			if (!put_piece(buf, len, &o, *s == '\'' ? "'\\''" : one))
				break;
		}
		buf[o++] = '\'';
	}
	buf[o] = '\0';
	return buf;
}
