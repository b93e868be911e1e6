// SPDX-License-Identifier: GPL-2.0
/*
 * User-space symbolizer on libdwfl (see usym.h).
 *
 * Each path gets its own Dwfl holding one offline module. Offline, libdwfl
 * places a module at an address of its choosing: an ET_DYN file (PIE,
 * shared library) reported first gets bias 0x10000 (libdwfl's "red zone"),
 * later ones in the same Dwfl higher still; an ET_EXEC file gets bias 0.
 * So an ELF virtual address is always turned into a Dwfl address with the
 * bias dwfl_module_getelf reports, never assumed.
 *
 * libdw 0.188 (Debian 12) finds the compilation unit of an address only
 * through .debug_aranges, which clang (and rustc, Go) do not emit: there
 * dwfl_module_getsrc fails, so the units' own address ranges are indexed
 * once per module and searched instead.
 */
#include "lib/usym.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A PT_LOAD segment of the main file. */
struct usym_seg {
	GElf_Off off, filesz;
	GElf_Addr vaddr;
	bool exec;
};

/* An address range of a compilation unit, in DWARF addresses. */
struct usym_cu_range {
	Dwarf_Addr lo, hi;
	Dwarf_Addr max_hi;   /* of this range and every one before it */
	Dwarf_Die cu;
};

/* One opened path; dwfl == NULL caches a failure. */
struct usym_mod {
	struct usym_mod *next;
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	GElf_Addr bias;
	struct usym_seg *segs;
	size_t nsegs;
	struct usym_cu_range *cus;   /* built on the first lookup that needs it */
	size_t ncus;
	bool cus_built;
};

struct usym {
	struct usym_mod *head;   /* most recently used first */
	size_t n;
};

/* NULL: libdwfl's default, ":.debug:/usr/lib/debug" */
static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = NULL,   /* offline modules come with their file */
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* Regular file only: open() on a FIFO would block, devices are no ELF. */
static bool regular_file(const char *path)
{
	struct stat st;

	return path && *path && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int usym_build_id_fd(int fd, char *hex, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *id;
	ssize_t n;
	Elf *elf;
	int ret = -1;

	if (hex && len)
		hex[0] = '\0';
	if (!hex || fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	/* ELF_C_READ: read with pread, no mapping that a truncation could
	 * turn into SIGBUS */
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		n = dwelf_elf_gnu_build_id(elf, (const void **)&id);
		if (n > 0 && (size_t)n * 2 < len) {
			for (ssize_t i = 0; i < n; i++) {
				hex[2 * i] = digits[id[i] >> 4];
				hex[2 * i + 1] = digits[id[i] & 0xf];
			}
			hex[2 * n] = '\0';
			ret = 0;
		}
	}
	elf_end(elf);
	return ret;
}

int usym_build_id(const char *path, char *hex, size_t len)
{
	int fd, ret;

	if (hex && len)
		hex[0] = '\0';
	if (!hex || !regular_file(path))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	ret = usym_build_id_fd(fd, hex, len);
	close(fd);
	return ret;
}

struct usym *usym_new(void)
{
	return calloc(1, sizeof(struct usym));
}

static void mod_free(struct usym_mod *m)
{
	if (m->dwfl)
		dwfl_end(m->dwfl);
	free(m->segs);
	free(m->cus);
	free(m->path);
	free(m);
}

void usym_free(struct usym *u)
{
	struct usym_mod *m, *next;

	if (!u)
		return;
	for (m = u->head; m; m = next) {
		next = m->next;
		mod_free(m);
	}
	free(u);
}

/* Report path to a new Dwfl and note its PT_LOAD segments; on any failure
 * m is left as a cached failure (dwfl NULL). */
static void mod_open(struct usym_mod *m)
{
	size_t phnum, i;
	Elf *elf;

	if (!regular_file(m->path))
		return;
	m->dwfl = dwfl_begin(&offline_callbacks);
	if (!m->dwfl)
		return;
	dwfl_report_begin(m->dwfl);
	m->mod = dwfl_report_offline(m->dwfl, m->path, m->path, -1);
	if (dwfl_report_end(m->dwfl, NULL, NULL) != 0 || !m->mod)
		goto fail;
	elf = dwfl_module_getelf(m->mod, &m->bias);
	if (!elf || elf_getphdrnum(elf, &phnum) != 0 || phnum == 0)
		goto fail;
	m->segs = calloc(phnum, sizeof(*m->segs));
	if (!m->segs)
		goto fail;
	for (i = 0; i < phnum; i++) {
		GElf_Phdr mem, *ph = gelf_getphdr(elf, (int)i, &mem);

		if (!ph || ph->p_type != PT_LOAD || ph->p_filesz == 0)
			continue;
		m->segs[m->nsegs++] = (struct usym_seg){
			.off = ph->p_offset, .filesz = ph->p_filesz,
			.vaddr = ph->p_vaddr, .exec = (ph->p_flags & PF_X) != 0,
		};
	}
	if (m->nsegs)
		return;
fail:
	dwfl_end(m->dwfl);
	m->dwfl = NULL;
	m->mod = NULL;
}

/* The module for path: found (and moved to the front) or opened. NULL when
 * out of memory; a module with dwfl NULL when path is no usable ELF file. */
static struct usym_mod *mod_get(struct usym *u, const char *path)
{
	struct usym_mod **pp, *m;

	for (pp = &u->head; (m = *pp); pp = &m->next) {
		if (!strcmp(m->path, path)) {
			*pp = m->next;
			m->next = u->head;
			u->head = m;
			return m;
		}
	}
	m = calloc(1, sizeof(*m));
	if (!m || !(m->path = strdup(path))) {
		free(m);
		return NULL;
	}
	mod_open(m);
	m->next = u->head;
	u->head = m;
	if (++u->n > USYM_MAX_OPEN) {
		for (pp = &u->head; (*pp)->next; pp = &(*pp)->next)
			;
		mod_free(*pp);
		*pp = NULL;
		u->n--;
	}
	return m;
}

/* File offset to ELF virtual address through the PT_LOAD holding it; an
 * executable segment wins should two claim the same byte. */
static bool offset_to_vaddr(const struct usym_mod *m, unsigned long long off, GElf_Addr *vaddr)
{
	const struct usym_seg *found = NULL;
	size_t i;

	for (i = 0; i < m->nsegs; i++) {
		const struct usym_seg *s = &m->segs[i];

		if (off >= s->off && off - s->off < s->filesz && (!found || (s->exec && !found->exec)))
			found = s;
	}
	if (!found)
		return false;
	*vaddr = found->vaddr + (off - found->off);
	return true;
}

static void copy_str(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

static int cmp_range(const void *a, const void *b)
{
	const struct usym_cu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Index the address ranges of every compilation unit of m's DWARF. */
static void build_cu_ranges(struct usym_mod *m, Dwarf *dw)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	uint8_t type;
	size_t cap = 0, i;

	m->cus_built = true;
	while (dwarf_get_units(dw, cu, &cu, NULL, &type, &cudie, NULL) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t it = 0;

		if (type != DW_UT_compile && type != DW_UT_partial && type != DW_UT_skeleton)
			continue;
		while ((it = dwarf_ranges(&cudie, it, &base, &lo, &hi)) > 0) {
			if (lo >= hi)
				continue;
			if (m->ncus == cap) {
				size_t ncap = cap ? 2 * cap : 64;
				struct usym_cu_range *r = realloc(m->cus, ncap * sizeof(*r));

				if (!r)
					return;
				m->cus = r;
				cap = ncap;
			}
			m->cus[m->ncus++] = (struct usym_cu_range){ .lo = lo, .hi = hi, .cu = cudie };
		}
	}
	if (!m->ncus)
		return;
	qsort(m->cus, m->ncus, sizeof(*m->cus), cmp_range);
	for (i = 0; i < m->ncus; i++)
		m->cus[i].max_hi = i && m->cus[i - 1].max_hi > m->cus[i].hi ?
				   m->cus[i - 1].max_hi : m->cus[i].hi;
}

/* The unit whose ranges hold the DWARF address a, or NULL. */
static Dwarf_Die *find_cu(struct usym_mod *m, Dwarf_Addr a)
{
	size_t lo = 0, hi = m->ncus, i;

	while (lo < hi) {   /* first range starting after a */
		size_t mid = lo + (hi - lo) / 2;

		if (m->cus[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0 && m->cus[i].max_hi > a;)
		if (a < m->cus[i].hi)
			return &m->cus[i].cu;
	return NULL;
}

static void set_file(struct usym_frame *out, const char *src, const char *dir)
{
	if (src[0] != '/' && dir && *dir) {
		while (src[0] == '.' && src[1] == '/')
			src += 2;
		snprintf(out->file, sizeof(out->file), "%s%s%s", dir,
			 dir[strlen(dir) - 1] == '/' ? "" : "/", src);
	} else {
		copy_str(out->file, sizeof(out->file), src);
	}
}

/* Source file and line of the Dwfl address addr, if DWARF has them. */
static void lookup_line(struct usym_mod *m, GElf_Addr addr, struct usym_frame *out)
{
	Dwfl_Line *l = dwfl_module_getsrc(m->mod, addr);
	const char *src, *dir = NULL;
	Dwarf_Line *dl;
	Dwarf_Die *cu;
	Dwarf_Attribute attr;
	Dwarf_Addr dbias;
	Dwarf *dw;
	int line = 0;

	if (l) {
		src = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
		if (src && src[0] != '/')
			dir = dwfl_line_comp_dir(l);
	} else {
		/* no .debug_aranges: search the units' own ranges */
		dw = dwfl_module_getdwarf(m->mod, &dbias);
		if (!dw || addr < dbias)
			return;
		if (!m->cus_built)
			build_cu_ranges(m, dw);
		cu = find_cu(m, addr - dbias);
		dl = cu ? dwarf_getsrc_die(cu, addr - dbias) : NULL;
		if (!dl || dwarf_lineno(dl, &line) != 0)
			return;
		src = dwarf_linesrc(dl, NULL, NULL);
		if (src && src[0] != '/')
			dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	}
	if (!src || !*src)
		return;
	set_file(out, src, dir);
	out->line = line > 0 ? line : 0;
}

int usym_lookup(struct usym *u, const char *path, unsigned long long file_offset,
		bool return_address, struct usym_frame *out)
{
	struct usym_mod *m;
	GElf_Addr vaddr, addr, look;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name;

	if (!out)
		return -1;
	memset(out, 0, sizeof(*out));
	if (!u || !path || !*path)
		return -1;
	m = mod_get(u, path);
	if (!m || !m->dwfl || !offset_to_vaddr(m, file_offset, &vaddr))
		return -1;
	addr = vaddr + m->bias;
	look = return_address && addr > 0 ? addr - 1 : addr;
	name = dwfl_module_addrinfo(m->mod, look, &off, &sym, NULL, NULL, NULL);
	if (!name || !*name)
		return -1;
	copy_str(out->function, sizeof(out->function), name);
	out->func_off = off + (addr - look);
	lookup_line(m, look, out);
	return 0;
}
