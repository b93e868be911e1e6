/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the hook finds the object of each syscall (bpf/objects.bpf.h, enum
 * ca_obj_how in capaudit.h): a table by this architecture's syscall
 * numbers, set into the program before load.
 */
#ifndef CA_OBJHOW_H
#define CA_OBJHOW_H

#include <stddef.h>
#include <stdint.h>

/* Fill how[0..n) (zeroed first: CA_OH_NONE). */
void objhow_fill(uint8_t *how, size_t n);

#endif
