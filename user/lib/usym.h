/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space symbolizer on elfutils' libdwfl: the function, source file and
 * line of a file offset inside an ELF file, which is what the kernel's BPF
 * build-id stack map reports for a user frame (offset = ip - vma_start +
 * vm_pgoff * PAGE_SIZE). Separate debug info is found the standard way
 * (dwfl_standard_find_debuginfo: /usr/lib/debug/.build-id/xx/yyyy.debug,
 * then .gnu_debuglink beside the file, in .debug/ and under /usr/lib/debug;
 * when DEBUGINFOD_URLS is set and libdebuginfod is installed, libdwfl also
 * asks those servers).
 *
 * No libbpf; links with -ldw -lelf.
 */
#ifndef CA_USYM_H
#define CA_USYM_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Build id (NT_GNU_BUILD_ID) of the ELF file at path as lowercase hex in hex
 * (len bytes; 41 hold a SHA-1 build id). 0 on success; -1 if the file cannot
 * be read, is not ELF, has no build-id note, or hex is too small (hex is then
 * "").
 */
int usym_build_id(const char *path, char *hex, size_t len);
/* The same from an open file (read with pread: its offset is not moved). */
int usym_build_id_fd(int fd, char *hex, size_t len);

struct usym_frame {
	char function[128];          /* ELF symbol, e.g. "main"; "" if unknown */
	unsigned long long func_off; /* file_offset's address minus the symbol's */
	char file[256];              /* source file (comp_dir joined); "" if unknown */
	int line;                    /* 0 if unknown */
};

/* A cache of opened files (one Dwfl each, keyed by path; the least recently
 * used are closed beyond USYM_MAX_OPEN). Failures are cached too. libdwfl
 * maps each file whole and closes its descriptor (a separate debug file
 * keeps one open). Not thread-safe: one struct usym per thread. */
#define USYM_MAX_OPEN 128
struct usym;
struct usym *usym_new(void);   /* NULL only when out of memory */
void usym_free(struct usym *u);  /* NULL is fine */

/*
 * Symbolize file_offset inside the ELF file at path: the offset goes to a
 * virtual address through the PT_LOAD segment holding it, then to libdwfl.
 * return_address: the frame is a return address (any frame but the top
 * one), so the function and the source line are those of address - 1 (the
 * call instruction); func_off is still that of the address itself, as in
 * "main+0x1d". 0 when at least the function was found (file and line may
 * still be unknown: no DWARF); -1 otherwise, with out all empty/zero.
 * A path is opened once per struct usym: a file replaced on disk after
 * its first lookup keeps being read as it was.
 */
int usym_lookup(struct usym *u, const char *path, unsigned long long file_offset,
		bool return_address, struct usym_frame *out);

#endif
