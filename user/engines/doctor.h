/* SPDX-License-Identifier: GPL-2.0 */
/* capaudit doctor: what this host offers a capability tracer. */
#ifndef CA_DOCTOR_H
#define CA_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/views.h"
#include "tracer/privs.h"
#include "tracer/probe.h"




/* Fill d: the host, each attach mode loaded and attached with the
 * privileges record keeps (it drops to them: call it last), symbols.
 * argv0 names capaudit in the advice about missing privileges. */
void doctor_probe(struct doctor *d, const char *argv0);

#endif
