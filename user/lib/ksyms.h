/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols for the recording machine's stacks. */
#ifndef CA_KSYMS_H
#define CA_KSYMS_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

struct ksyms;

/* Load kernel text symbols. NULL with a reason in err when they cannot be
 * had (e.g. /proc/kallsyms shows only zeros without CAP_SYSLOG). */
struct ksyms *ksyms_load(char *err, size_t errlen);
void ksyms_free(struct ksyms *ks);
/* Does /proc/kallsyms show this process addresses (not zeros)? Its first
 * text symbol's (x86-64's per-CPU symbols come first, at 0 for anyone). */
int ksyms_addresses_shown(void);
/* The same for kallsyms-format text read from f. */
int ksyms_addresses_shown_in(FILE *f);
size_t ksyms_count(const struct ksyms *ks);

/* Each symbol in address order with where the next one starts (its end,
 * as far as kallsyms tells); fn returns non-zero to stop. */
int ksyms_foreach(const struct ksyms *ks,
		  int (*fn)(void *ctx, uint64_t addr, uint64_t end, const char *name,
			    const char *mod),
		  void *ctx);

/* "func+0xoff" or "func+0xoff [module]"; "0x<addr>" when unknown. */
void ksyms_format(const struct ksyms *ks, uint64_t addr, char *buf, size_t len);

/* Parse kallsyms-format text (one "ADDR TYPE NAME [MOD]" per line) into a
 * table; used by the loader and the unit tests. */
struct ksyms *ksyms_parse(const char *text, size_t len, char *err, size_t errlen);
/* Same, and text (malloc'd) is freed. */
struct ksyms *ksyms_parse_owned(char *text, size_t len, char *err, size_t errlen);
/* The same a chunk at a time, as it is read (a line may span two chunks):
 * only the table is kept, never the whole text. ksyms_finish() returns
 * the table, or NULL with a reason in err (ks freed). */
struct ksyms *ksyms_new(void);
void ksyms_feed(struct ksyms *ks, const char *text, size_t len);
struct ksyms *ksyms_finish(struct ksyms *ks, char *err, size_t errlen);

#endif
