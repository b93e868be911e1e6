/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an aggregation key's flags (CA_F_*, capaudit.h) say about a check,
 * set on the record's check line: one place for record's drain
 * (collect.c) and the monitor's fold (monfold.c), so that a new flag
 * cannot reach one record and not the other.
 */
#ifndef CA_KEYFLAGS_H
#define CA_KEYFLAGS_H

#include <linux/types.h>

#include "capaudit.h"
#include "facts/sysops.h"
#include "recfile/recfile.h"

static inline void check_set_key_flags(struct rec_check *c, __u32 flags)
{
	c->init_ns = flags & CA_F_INIT_NS;
	c->userns = flags & CA_F_CRED_USERNS ? RU_INSIDE :
		    flags & CA_F_NS_OWNER ? RU_OWNER : RU_HOST;
	c->no_effect = flags & CA_F_NO_EFFECT;
	c->args_checked = flags & CA_F_ARGS_CHECKED;
	c->foreign_cred = flags & CA_F_FOREIGN_CRED;
	c->opts_known = flags & CA_F_OPTS_KNOWN;
	c->opt_noaudit = flags & CA_F_NOAUDIT;
	c->opt_insetid = flags & CA_F_INSETID;
}

/* The key's op (ca_key.op), where its syscall carries one; c->sysname is
 * set first. */
static inline void check_set_key_op(struct rec_check *c, __u32 op)
{
	c->op = sysop_carried(c->sysname) ? (int64_t)op : -1;
}

#endif
