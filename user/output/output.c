// SPDX-License-Identifier: GPL-2.0
#include "output/output.h"

#include <string.h>

static const struct formatter *const all[] = {
	&output_text, &output_json, &output_junit, &output_sarif, &output_github, NULL,
};

const struct formatter *formatter_find(const char *name)
{
	size_t i;

	for (i = 0; name && all[i]; i++)
		if (!strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}
