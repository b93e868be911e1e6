// SPDX-License-Identifier: GPL-2.0
#include "facts/syscalls.h"

#include <stddef.h>
#include <string.h>

static const char *const x86_64_names[] = {
#include "facts/syscalls_x86_64.h"
};

static const char *const arm64_names[] = {
#include "facts/syscalls_arm64.h"
};

static const struct {
	const char *arch;
	const char *const *names;
	size_t n;
} tables[] = {
	{ "x86_64", x86_64_names, sizeof(x86_64_names) / sizeof(x86_64_names[0]) },
	{ "arm64", arm64_names, sizeof(arm64_names) / sizeof(arm64_names[0]) },
};

#if defined(__x86_64__)
#define NATIVE 0
#elif defined(__aarch64__)
#define NATIVE 1
#else
#error "capaudit records syscalls on x86_64 and arm64 (user/facts/syscalls.c)"
#endif

const char *syscall_arch_native(void)
{
	return tables[NATIVE].arch;
}

static int table_of(const char *arch)
{
	size_t i;

	if (!arch)
		arch = SYSCALL_ARCH_DEFAULT;
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!strcmp(tables[i].arch, arch))
			return (int)i;
	return -1;
}

bool syscall_arch_known(const char *arch)
{
	return arch && table_of(arch) >= 0;
}

static const char *lookup(int t, int nr)
{
	if (t < 0 || nr < 0 || (size_t)nr >= tables[t].n)
		return NULL;
	return tables[t].names[nr];
}

const char *syscall_name_arch(const char *arch, int nr)
{
	return lookup(table_of(arch), nr);
}

const char *syscall_name(int nr)
{
	return lookup(NATIVE, nr);
}
