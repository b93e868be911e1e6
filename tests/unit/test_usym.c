// SPDX-License-Identifier: GPL-2.0
/*
 * The libdwfl symbolizer (user/lib/usym.c) on real binaries: this test binary
 * itself (its functions and lines, found through /proc/self/maps exactly as
 * the kernel's build-id stack map would give them: file offsets), libdw
 * (a stripped shared library: .dynsym only), libc (stripped; separate debug
 * info through /usr/lib/debug/.build-id when libc6-dbg is installed), and
 * files that are missing, not ELF, truncated or corrupt.
 */
#include <dirent.h>
#include <elf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "lib/usym.h"

/* --- what is symbolized: a caller whose call site line is known --- */

/* never inlined, cloned or folded into its callers (GCC's noipa) */
#if defined(__clang__)
#define USYM_NOIPA __attribute__((noinline, optnone))
#else
#define USYM_NOIPA __attribute__((noipa))
#endif

volatile void *usym_probe_seen;   /* the return address usym_probe_note saw */
volatile int usym_probe_after;
int usym_probe_data[4] = { 1, 2, 3, 4 };   /* in the RW segment: vaddr != offset */

static USYM_NOIPA void usym_probe_note(void)
{
	usym_probe_seen = __builtin_return_address(0);
}

/*
 * The caller, with lines known exactly: the declarator shares its line
 * with the brace (GCC gives the entry one or the other), the call is alone
 * on the next line, and the instruction after the call belongs to the line
 * after that (so a return address looked up as such, at address - 1, gives
 * the call's line, and looked up as a top frame, the next line).
 */
enum {
	USYM_PROBE_DECL_LINE = __LINE__ + 4,
	USYM_PROBE_CALL_LINE = __LINE__ + 4,
	USYM_PROBE_AFTER_LINE = __LINE__ + 4,
};
static USYM_NOIPA void *usym_probe_caller(void) {
	usym_probe_note();
	usym_probe_after++;   /* not a tail call */
	return (void *)usym_probe_seen;
}

/* --- helpers --- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * The file-backed mapping holding addr in /proc/self/maps: its path and
 * addr's offset in that file (addr - start + pgoff), as the kernel computes
 * it for a build-id stack frame. 0, or -1 when not found.
 */
static int self_file_offset(const void *addr, char *path, size_t len, unsigned long long *off)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 256];
	unsigned long long a = (uintptr_t)addr;
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff;
		int pos = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &start, &end, &pgoff, &pos) != 3 ||
		    !pos || a < start || a >= end || line[pos] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(path, len, "%s", line + pos);
		*off = a - start + pgoff;
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* File offsets [lo, hi) of the executable mapping of this binary. */
static int self_text(const char *exe, unsigned long long *lo, unsigned long long *hi)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 256], perms[8];
	int ret = -1;

	if (!f)
		return -1;
	while (ret && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx", &start, &end, perms, &pgoff) == 4 &&
		    perms[2] == 'x' && ends_with(line, exe)) {
			*lo = pgoff;
			*hi = pgoff + (end - start);
			ret = 0;
		}
	}
	fclose(f);
	return ret;
}

static const char *self_exe(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	path[n > 0 ? n : 0] = '\0';
	return path;
}

/* The main program's NT_GNU_BUILD_ID as the loader mapped it, in hex: a
 * source independent of libelf. */
static int loaded_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	char *hex = data;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;

		if (ph->p_type != PT_NOTE)
			continue;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const void *)p;
			const unsigned char *name = (const unsigned char *)(nh + 1);
			const unsigned char *desc = name + ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(name, "GNU", 4) && nh->n_descsz <= 20) {
				for (unsigned j = 0; j < nh->n_descsz; j++)
					sprintf(hex + 2 * j, "%02x", desc[j]);
				return 1;
			}
			p = (const char *)desc + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 1;   /* the first object is the main program: stop there */
}

static const char *write_tmp(const void *data, size_t len)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/capaudit-usym.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

static void *read_whole(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		*len = (size_t)n;
	fclose(f);
	return buf;
}

/* Rename section from to to (same length) in the ELF64 image img, through
 * its section header string table. 0, or -1 when there is no such section. */
static int rename_section(unsigned char *img, size_t len, const char *from, const char *to)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh;
	unsigned char *strtab;
	size_t i, strsize;

	if (len < sizeof(*eh) || memcmp(img, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    strlen(from) != strlen(to) || eh->e_shoff > len ||
	    eh->e_shstrndx >= (len - eh->e_shoff) / sizeof(*sh) || eh->e_shstrndx >= eh->e_shnum)
		return -1;
	sh = (const void *)(img + eh->e_shoff);
	if (sh[eh->e_shstrndx].sh_offset > len || sh[eh->e_shstrndx].sh_size > len - sh[eh->e_shstrndx].sh_offset)
		return -1;
	strtab = img + sh[eh->e_shstrndx].sh_offset;
	strsize = sh[eh->e_shstrndx].sh_size;
	for (i = 0; i < eh->e_shnum && i < (len - eh->e_shoff) / sizeof(*sh); i++) {
		if (sh[i].sh_name < strsize && strsize - sh[i].sh_name > strlen(from) &&
		    !strcmp((const char *)strtab + sh[i].sh_name, from)) {
			memcpy(strtab + sh[i].sh_name, to, strlen(to));
			return 0;
		}
	}
	return -1;
}

/* Lines of /proc/self/maps naming path (usym maps each file it opens). */
static int count_maps(const char *path)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 256];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		n += ends_with(line, path);
	}
	fclose(f);
	return n;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void frame_is_empty(const struct usym_frame *f)
{
	ASSERT_STR(f->function, "");
	ASSERT_STR(f->file, "");
	ASSERT_EQ(f->line, 0);
	ASSERT_U64(f->func_off, 0);
}

/* --- tests --- */

TEST(usym_return_address_gives_call_site_line)
{
	struct usym *u = usym_new();
	struct usym_frame f;
	char path[PATH_MAX];
	unsigned long long off;
	void *ra = usym_probe_caller();

	ASSERT_TRUE(u != NULL);
	ASSERT_EQ(self_file_offset(ra, path, sizeof(path), &off), 0);
	ASSERT_STR(path, self_exe());
	ASSERT_EQ(usym_lookup(u, path, off, true, &f), 0);
	ASSERT_STR(f.function, "usym_probe_caller");
	ASSERT_U64(f.func_off, (uintptr_t)ra - (uintptr_t)usym_probe_caller);
	ASSERT_TRUE(f.file[0] == '/');   /* comp_dir joined */
	ASSERT_TRUE(ends_with(f.file, "/tests/unit/test_usym.c"));
	ASSERT_EQ(f.line, USYM_PROBE_CALL_LINE);
	/* /proc/self/exe names the same file */
	ASSERT_EQ(usym_lookup(u, "/proc/self/exe", off, true, &f), 0);
	ASSERT_STR(f.function, "usym_probe_caller");
	ASSERT_EQ(f.line, USYM_PROBE_CALL_LINE);
	/* the same address as a top frame: the instruction after the call */
	ASSERT_EQ(usym_lookup(u, path, off, false, &f), 0);
	ASSERT_STR(f.function, "usym_probe_caller");
	ASSERT_U64(f.func_off, (uintptr_t)ra - (uintptr_t)usym_probe_caller);
	ASSERT_EQ(f.line, USYM_PROBE_AFTER_LINE);
	usym_free(u);
}

TEST(usym_top_frame_gives_function_entry)
{
	struct usym *u = usym_new();
	struct usym_frame f;
	char path[PATH_MAX];
	unsigned long long off;

	ASSERT_EQ(self_file_offset((const void *)usym_probe_caller, path, sizeof(path), &off), 0);
	ASSERT_EQ(usym_lookup(u, path, off, false, &f), 0);
	ASSERT_STR(f.function, "usym_probe_caller");
	ASSERT_U64(f.func_off, 0);
	ASSERT_TRUE(ends_with(f.file, "test_usym.c"));
	ASSERT_EQ(f.line, USYM_PROBE_DECL_LINE);
	/* as a return address, the entry belongs to whatever precedes it */
	if (usym_lookup(u, path, off, true, &f) == 0)
		ASSERT_TRUE(strcmp(f.function, "usym_probe_caller") != 0);
	usym_free(u);
}

/* The RW segment's file offsets differ from its addresses (PIE: by a
 * page), so this checks the PT_LOAD conversion; any symbol is found, not
 * only functions. */
TEST(usym_offset_in_data_segment)
{
	struct usym *u = usym_new();
	struct usym_frame f;
	char path[PATH_MAX];
	unsigned long long off;

	ASSERT_EQ(self_file_offset(&usym_probe_data[2], path, sizeof(path), &off), 0);
	ASSERT_EQ(usym_lookup(u, path, off, false, &f), 0);
	ASSERT_STR(f.function, "usym_probe_data");
	ASSERT_U64(f.func_off, 2 * sizeof(int));
	usym_free(u);
}

TEST(usym_repeated_lookups_are_stable)
{
	struct usym *u = usym_new();
	struct usym_frame f, first;
	char path[PATH_MAX];
	unsigned long long off, off2;
	void *ra = usym_probe_caller();
	int i, same = 0, want = 0;

	ASSERT_EQ(self_file_offset(ra, path, sizeof(path), &off), 0);
	ASSERT_EQ(self_file_offset(&usym_probe_data[0], path, sizeof(path), &off2), 0);
	ASSERT_EQ(usym_lookup(u, path, off, true, &first), 0);
	for (i = 0; i < 2000; i++) {
		usym_lookup(u, i % 3 ? path : "/nonexistent/capaudit", i % 2 ? off : off2, true, &f);
		if (i % 2 && i % 3) {
			same += !memcmp(&f, &first, sizeof(f));
			want++;
		}
	}
	ASSERT_EQ(same, want);
	usym_free(u);
}

TEST(usym_build_id_matches_loaded_note)
{
	char want[41] = "", hex[41] = "x", small[40] = "x";
	size_t i;

	dl_iterate_phdr(loaded_build_id, want);
	ASSERT_EQ(strlen(want), 40);
	ASSERT_EQ(usym_build_id(self_exe(), hex, sizeof(hex)), 0);
	ASSERT_STR(hex, want);
	for (i = 0; i < strlen(hex); i++)
		ASSERT_TRUE((hex[i] >= '0' && hex[i] <= '9') || (hex[i] >= 'a' && hex[i] <= 'f'));
	ASSERT_EQ(usym_build_id("/proc/self/exe", hex, sizeof(hex)), 0);
	ASSERT_STR(hex, want);
	/* no room for 40 digits and the NUL */
	ASSERT_EQ(usym_build_id(self_exe(), small, sizeof(small)), -1);
	ASSERT_STR(small, "");
	ASSERT_EQ(usym_build_id(self_exe(), NULL, 0), -1);
}

TEST(usym_missing_and_non_elf_files)
{
	static const char text[] = "capaudit\nnot an ELF file\n";
	const char *bad[9];
	struct usym *u = usym_new();
	struct usym_frame f;
	char hex[41], dir[] = "/tmp/capaudit-usym.XXXXXX", fifo[64] = "";
	const char *p;
	char txtpath[64] = "", empty[64] = "";
	size_t i, n = 0;

	p = write_tmp(text, sizeof(text) - 1);
	ASSERT_TRUE(p != NULL);
	snprintf(txtpath, sizeof(txtpath), "%s", p ? p : "");
	p = write_tmp("", 0);
	ASSERT_TRUE(p != NULL);
	snprintf(empty, sizeof(empty), "%s", p ? p : "");
	if (mkdtemp(dir)) {
		snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
		ASSERT_EQ(mkfifo(fifo, 0600), 0);   /* open() would block: never opened */
	}
	bad[n++] = "/nonexistent/capaudit-usym";
	bad[n++] = txtpath;
	bad[n++] = empty;
	bad[n++] = "/";
	bad[n++] = "/dev/null";
	bad[n++] = "/dev/zero";   /* endless: never read */
	bad[n++] = fifo;
	bad[n++] = "";
	for (i = 0; i < n; i++) {
		memset(&f, 'x', sizeof(f));
		strcpy(hex, "x");
		ASSERT_EQ(usym_build_id(bad[i], hex, sizeof(hex)), -1);
		ASSERT_STR(hex, "");
		ASSERT_EQ(usym_lookup(u, bad[i], 0x1000, false, &f), -1);
		frame_is_empty(&f);
		ASSERT_EQ(usym_lookup(u, bad[i], 0, true, &f), -1);   /* cached failure */
		frame_is_empty(&f);
	}
	ASSERT_EQ(usym_build_id(NULL, hex, sizeof(hex)), -1);
	ASSERT_EQ(usym_lookup(u, NULL, 0, false, &f), -1);
	ASSERT_EQ(usym_lookup(NULL, self_exe(), 0, false, &f), -1);
	ASSERT_EQ(usym_lookup(u, self_exe(), 0, false, NULL), -1);
	usym_free(u);
	usym_free(NULL);
	unlink(txtpath);
	unlink(empty);
	if (fifo[0]) {
		unlink(fifo);
		rmdir(dir);
	}
}

TEST(usym_offset_outside_segments)
{
	struct usym *u = usym_new();
	struct usym_frame f;
	struct stat st;

	ASSERT_EQ(stat(self_exe(), &st), 0);
	memset(&f, 'x', sizeof(f));
	ASSERT_EQ(usym_lookup(u, self_exe(), (unsigned long long)st.st_size + (1 << 20), false, &f), -1);
	frame_is_empty(&f);
	ASSERT_EQ(usym_lookup(u, self_exe(), ~0ULL, true, &f), -1);
	frame_is_empty(&f);
	usym_free(u);
}

/* Truncated and corrupted copies of this binary: -1 or an answer, never a
 * crash or (under valgrind) an invalid read. */
TEST(usym_truncated_and_corrupt_elf)
{
	char want[41] = "", hex[41];
	size_t len = 0, cuts[6], i;
	unsigned char *img = read_whole(self_exe(), &len);
	unsigned long long off;
	char path[PATH_MAX];
	void *ra = usym_probe_caller();

	ASSERT_TRUE(img != NULL);
	if (!img)
		return;
	ASSERT_EQ(self_file_offset(ra, path, sizeof(path), &off), 0);
	ASSERT_EQ(usym_build_id(self_exe(), want, sizeof(want)), 0);
	cuts[0] = 4;
	cuts[1] = 63;
	cuts[2] = 64 + 56 * 2;
	cuts[3] = 4096;
	cuts[4] = len / 2;
	cuts[5] = len - 1;
	for (i = 0; i < 6 + 3; i++) {
		struct usym *u = usym_new();
		struct usym_frame f;
		const char *p;
		unsigned char *copy = malloc(len);
		size_t n = i < 6 ? cuts[i] : len;
		Elf64_Ehdr *eh = (Elf64_Ehdr *)copy;
		int rc;

		memcpy(copy, img, len);
		if (i == 6)   /* section headers past the end */
			eh->e_shoff = ~0ULL - 100;
		if (i == 7) {   /* program headers past the end, too many sections */
			eh->e_phoff = (Elf64_Off)len - 8;
			eh->e_shnum = 0xffff;
		}
		if (i == 8)   /* every byte after the ELF header flipped */
			for (size_t j = sizeof(*eh); j < len; j++)
				copy[j] ^= 0x5a;
		p = write_tmp(copy, n);
		ASSERT_TRUE(p != NULL);
		if (p) {
			rc = usym_build_id(p, hex, sizeof(hex));
			ASSERT_TRUE(rc == -1 || !strcmp(hex, want));
			rc = usym_lookup(u, p, off, true, &f);
			if (rc == 0)
				ASSERT_TRUE(f.function[0] != '\0');
			else
				frame_is_empty(&f);
			usym_lookup(u, p, 0, false, &f);
			unlink(p);
		}
		usym_free(u);
		free(copy);
	}
	free(img);
}

/* Without .debug_aranges (clang, rustc and Go emit none), libdw 0.188
 * cannot map an address to its unit: usym then indexes the units' own
 * ranges. A copy of this binary with the section renamed checks that. */
TEST(usym_lines_without_debug_aranges)
{
	size_t len = 0;
	unsigned char *img = read_whole(self_exe(), &len);
	struct usym *u = usym_new();
	struct usym_frame f;
	char path[PATH_MAX];
	unsigned long long off, off2, lo, hi;
	void *ra = usym_probe_caller();
	const char *p;

	ASSERT_TRUE(img != NULL);
	ASSERT_EQ(self_file_offset(ra, path, sizeof(path), &off), 0);
	ASSERT_EQ(self_file_offset((const void *)usym_probe_caller, path, sizeof(path), &off2), 0);
	if (!img || rename_section(img, len, ".debug_aranges", ".debug_xxxxxxx")) {
		SKIP("no .debug_aranges in %.120s", self_exe());
		free(img);
		usym_free(u);
		return;
	}
	p = write_tmp(img, len);
	ASSERT_TRUE(p != NULL);
	if (p) {
		ASSERT_EQ(usym_lookup(u, p, off, true, &f), 0);
		ASSERT_STR(f.function, "usym_probe_caller");
		ASSERT_TRUE(ends_with(f.file, "/tests/unit/test_usym.c"));
		ASSERT_EQ(f.line, USYM_PROBE_CALL_LINE);
		ASSERT_EQ(usym_lookup(u, p, off, false, &f), 0);
		ASSERT_EQ(f.line, USYM_PROBE_AFTER_LINE);
		ASSERT_EQ(usym_lookup(u, p, off2, false, &f), 0);
		ASSERT_EQ(f.line, USYM_PROBE_DECL_LINE);
		/* an address of no unit (this file's ELF header) */
		ASSERT_EQ(usym_lookup(u, p, 0, false, &f), -1);
		/* the same answers as through .debug_aranges, 32 KiB around
		 * (this file's code and its neighbours'), at every function
		 * start (-O2 aligns them to 16 bytes) and between */
		if (self_text(path, &lo, &hi) == 0) {
			lo = off - lo > 32768 ? off - 32768 : lo;
			hi = hi - off > 32768 ? off + 32768 : hi;
			struct usym *orig = usym_new();
			struct usym_frame g;
			int diff = 0, lines = 0;

			for (unsigned long long o = lo; o < hi; o += 8) {
				bool ret = o % 16 != 0;

				usym_lookup(orig, path, o, ret, &g);
				usym_lookup(u, p, o, ret, &f);
				if (memcmp(&f, &g, sizeof(f)) && diff++ < 5)
					printf("# at %#llx: %s %s:%d, through aranges %s %s:%d\n", o,
					       f.function, f.file, f.line, g.function, g.file, g.line);
				lines += g.line > 0;
			}
			ASSERT_EQ(diff, 0);
			ASSERT_TRUE(lines > 100);
			usym_free(orig);
		}
		unlink(p);
	}
	free(img);
	usym_free(u);
}

/* libdw.so is stripped (no .symtab) and libdw's debug info is not
 * installed: an exported function still comes from .dynsym. */
TEST(usym_stripped_library_uses_dynsym)
{
	struct usym *u = usym_new();
	struct usym_frame f;
	char path[PATH_MAX];
	unsigned long long off;
	void *fn = (void *)dwfl_begin;

	if (self_file_offset(fn, path, sizeof(path), &off) || !strstr(path, "libdw")) {
		SKIP("dwfl_begin is not in libdw's mapping (%.120s)", path);
		usym_free(u);
		return;
	}
	ASSERT_EQ(usym_lookup(u, path, off, false, &f), 0);
	ASSERT_STR(f.function, "dwfl_begin");
	ASSERT_U64(f.func_off, 0);
	ASSERT_EQ(usym_lookup(u, path, off + 1, false, &f), 0);
	ASSERT_STR(f.function, "dwfl_begin");
	ASSERT_U64(f.func_off, 1);
	usym_free(u);
}

/* libc is stripped too; with libc6-dbg its DWARF is found by build id
 * under /usr/lib/debug/.build-id (dwfl_standard_find_debuginfo). */
TEST(usym_separate_debuginfo_by_build_id)
{
	struct usym *u = usym_new();
	struct usym_frame f;
	char path[PATH_MAX], hex[41], debug[PATH_MAX];
	unsigned long long off;
	void *fn = (void *)getenv;

	if (self_file_offset(fn, path, sizeof(path), &off) || !strstr(path, "libc")) {
		SKIP("getenv is not in libc's mapping (%.120s)", path);
		usym_free(u);
		return;
	}
	ASSERT_EQ(usym_build_id(path, hex, sizeof(hex)), 0);
	snprintf(debug, sizeof(debug), "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
	ASSERT_EQ(usym_lookup(u, path, off, false, &f), 0);
	ASSERT_STR(f.function, "getenv");
	ASSERT_U64(f.func_off, 0);
	if (access(debug, R_OK) == 0) {
		ASSERT_TRUE(ends_with(f.file, "/getenv.c"));
		ASSERT_TRUE(f.line > 0);
	} else {
		printf("# no %s (libc6-dbg): file and line not checked\n", debug);
	}
	usym_free(u);
}

/* More paths than the cache keeps open: the least recently used are
 * closed (their mappings go: libdwfl maps each file whole and closes its
 * descriptor, keeping only those of separate debug files), and usym_free
 * closes the rest. */
TEST(usym_cache_closes_least_recently_used)
{
	struct usym *u = usym_new();
	struct usym_frame f;
	char path[PATH_MAX], spelled[PATH_MAX], *slash;
	unsigned long long off;
	void *ra = usym_probe_caller();
	int fds = count_fds(), maps, i, found = 0, peak = 0, peak_fds = 0;

	ASSERT_EQ(self_file_offset(ra, path, sizeof(path), &off), 0);
	maps = count_maps(path);
	ASSERT_TRUE(maps > 0);
	slash = strrchr(path, '/');
	ASSERT_TRUE(slash != NULL);
	if (!slash)
		return;
	for (i = 0; i < USYM_MAX_OPEN + 40; i++) {
		int n = snprintf(spelled, sizeof(spelled), "%.*s", (int)(slash - path), path);

		for (int k = 0; k < i && n < (int)sizeof(spelled) - 2; k++)
			n += snprintf(spelled + n, sizeof(spelled) - (size_t)n, "/.");
		snprintf(spelled + n, sizeof(spelled) - (size_t)n, "%s", slash);
		found += usym_lookup(u, spelled, off, true, &f) == 0 && f.line == USYM_PROBE_CALL_LINE;
		if (i % 8 == 0 || i >= USYM_MAX_OPEN) {
			if (count_maps(path) - maps > peak)
				peak = count_maps(path) - maps;
			if (count_fds() - fds > peak_fds)
				peak_fds = count_fds() - fds;
		}
	}
	ASSERT_EQ(found, USYM_MAX_OPEN + 40);
	ASSERT_TRUE(peak >= USYM_MAX_OPEN / 2);   /* the files are mapped ... */
	ASSERT_TRUE(peak <= USYM_MAX_OPEN);       /* ... and the oldest unmapped */
	ASSERT_TRUE(peak_fds <= USYM_MAX_OPEN);
	ASSERT_EQ(usym_lookup(u, path, off, true, &f), 0);
	ASSERT_EQ(f.line, USYM_PROBE_CALL_LINE);
	usym_free(u);
	ASSERT_EQ(count_maps(path), maps);
	ASSERT_EQ(count_fds(), fds);
}
