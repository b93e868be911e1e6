// SPDX-License-Identifier: GPL-2.0
#include "facts/capjson.h"

#include "facts/capnames.h"

json_t *json_capset(uint64_t mask)
{
	json_t *a = json_array();
	char name[CAP_NAME_LEN];
	int c;

	for_each_cap(c, mask)
		json_array_append_new(a, json_string(cap_name(c, name)));
	return a;
}
