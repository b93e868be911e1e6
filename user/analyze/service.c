// SPDX-License-Identifier: GPL-2.0
#include "analyze/service.h"

/*
 * What the unit grants its commands after execve(): as root, the bounding
 * set (an exec as root gets it all); as another user, the ambient set
 * (within the bounding set), which is all that user's exec keeps. false
 * when the record is not of a unit file.
 */
static bool service_granted(const struct rec_header *h, uint64_t *granted)
{
	if (!h->has_service_caps)
		return false;
	*granted = h->service_uid == 0 ? h->service_bounding :
		   h->service_ambient & h->service_bounding;
	return true;
}

/* Every capability the record's audited checks asked for, granted or
 * denied, and the checks counted only per capability (map full). */
static uint64_t record_caps_asked(const struct record *r)
{
	uint64_t asked = 0;
	size_t i;

	for (i = 0; i < r->nchecks; i++)
		if (r->checks[i].cap >= 0 && r->checks[i].cap <= REC_MAX_CAP &&
		    check_noaudit(r, &r->checks[i]) == NOAUDIT_NO)
			asked |= 1ULL << r->checks[i].cap;
	for (i = 0; i < r->hdr.noverflow; i++)
		if (r->hdr.overflow[i].cap >= 0 && r->hdr.overflow[i].cap <= REC_MAX_CAP)
			asked |= 1ULL << r->hdr.overflow[i].cap;
	return asked;
}

/* An audited check counts as a use, granted or denied (a denied one says
 * the program asked: it had dropped the capability itself); a noaudit one
 * is the kernel probing, never a requirement (as for report --suggest),
 * else every root unit would keep CAP_SYS_ADMIN for the probes of exec
 * and mmap. Checks the full map counted only per capability count, their
 * kind unknown. */
bool service_removal_candidates(const struct record *r, uint64_t *granted, uint64_t *unused)
{
	if (!service_granted(&r->hdr, granted))
		return false;
	*unused = *granted & ~record_caps_asked(r);
	return true;
}
