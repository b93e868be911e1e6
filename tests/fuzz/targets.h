/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CA_FUZZ_TARGETS_H
#define CA_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer-style entry points; they abort when a property is violated. */
int fuzz_record(const uint8_t *data, size_t size);
int fuzz_baseline(const uint8_t *data, size_t size);

#endif
