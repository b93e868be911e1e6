/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF ABI (bpf/capaudit.h: events, aggregation keys and values, task
 * records) as the layers above the tracer see it. Only tracer/ and cli/
 * include capaudit.h or a skeleton themselves (make check-layers); record/
 * and monitor/ read the kernel's events and keys through this header.
 */
#ifndef CA_TRACER_ABI_H
#define CA_TRACER_ABI_H

#include <linux/types.h>

#include "capaudit.h"

#endif
