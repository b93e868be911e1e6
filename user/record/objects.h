/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What each check was about, as the hook sent it (CA_EV_OBJECT events,
 * bpf/objects.bpf.h): per check key, at most REC_MAX_OBJECTS objects
 * with their fingerprints, turned into the record's objects when the
 * checks are collected (the counts come with the drained checks:
 * tracer/aggtab.h struct agg_objs).
 */
#ifndef CA_RECORD_OBJECTS_H
#define CA_RECORD_OBJECTS_H

#include <stdint.h>

#include "recfile/recfile.h"
#include "tracer/abi.h"
#include "tracer/aggtab.h"

struct objtab;

struct objtab *objtab_new(void);
void objtab_free(struct objtab *t);
/* One CA_EV_OBJECT event: the object is read (names, the path joined to
 * its directory, what the hook could not read: a file's owner and mode,
 * a process's name and uid) and kept under its key, once per
 * fingerprint. */
void objtab_on_event(struct objtab *t, const struct ca_obj_event *e);
/* The objects of key k, with the counts o has for them, into c (objects,
 * nobjects, objects_more). */
void objtab_attach(const struct objtab *t, const struct ca_key *k, const struct agg_objs *o,
		   struct rec_check *c);

/* The record object the event describes (for objtab_on_event() and the
 * unit tests): strings allocated, the caller frees them
 * (rec_object_clear()). */
void objtab_object_of(const struct ca_obj_event *e, struct rec_object *o);

#endif
