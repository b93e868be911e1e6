// SPDX-License-Identifier: GPL-2.0
/* libFuzzer's entry point for one target, chosen with -DFUZZ_TARGET=. */
#include "targets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return FUZZ_TARGET(data, size);
}
