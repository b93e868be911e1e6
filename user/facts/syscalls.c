// SPDX-License-Identifier: GPL-2.0
#include "facts/syscalls.h"

#include <stddef.h>

static const char *const names[] = {
#include "syscall_table.h"
};

const char *syscall_name(int nr)
{
	if (nr < 0 || (size_t)nr >= sizeof(names) / sizeof(names[0]))
		return NULL;
	return names[nr];
}
