/* SPDX-License-Identifier: GPL-2.0 */
/* Capability sets in JSON documents. */
#ifndef CA_CAPJSON_H
#define CA_CAPJSON_H

#include <jansson.h>
#include <stdint.h>

/* A capability set as an array of names ("CAP_CHOWN", ...), lowest first. */
json_t *json_capset(uint64_t mask);

#endif
