// SPDX-License-Identifier: GPL-2.0
#include "record/ustacks.h"

#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tracer/tracer.h"
#include "lib/usym.h"
#include "lib/util.h"

/* A file some process had mapped executable, as the kernel names it. */
struct known_file {
	unsigned int major, minor;
	uint64_t ino;
	char *path;
	char bid[65];
	int bid_state;          /* 0 not read yet, 1 read, -1 none */
};

/* A user stack already made into a record ustack (open addressing: every
 * check looks its stack up here). */
struct done {
	uint64_t ustack;         /* 0: empty slot */
	uint32_t leaf_dev;
	uint64_t leaf_ino, leaf_off;
	int index;
};

struct ustacks {
	struct known_file *files;
	size_t nfiles, capfiles;
	struct done *done;
	size_t ndone, capdone;   /* capdone: a power of two, at most half full */
	struct usym *sym;
	char **comms;           /* program names already scanned */
	size_t ncomms, capcomms;
};

struct ustacks *ustacks_new(void)
{
	struct ustacks *u = xcalloc(1, sizeof(*u));

	/* symbolize from what is on this machine: a privileged recorder does
	 * not download debug info (libdwfl would, through libdebuginfod) */
	unsetenv("DEBUGINFOD_URLS");
	u->sym = usym_new();
	return u;
}

void ustacks_free(struct ustacks *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->nfiles; i++)
		free(u->files[i].path);
	free(u->files);
	free(u->done);
	for (i = 0; i < u->ncomms; i++)
		free(u->comms[i]);
	free(u->comms);
	usym_free(u->sym);
	free(u);
}

static struct known_file *find_inode(struct ustacks *u, unsigned int major, unsigned int minor,
				     uint64_t ino)
{
	size_t i;

	for (i = 0; i < u->nfiles; i++)
		if (u->files[i].ino == ino && u->files[i].major == major &&
		    u->files[i].minor == minor)
			return &u->files[i];
	return NULL;
}

static void add_known(struct ustacks *u, unsigned int major, unsigned int minor, uint64_t ino,
		      const char *path)
{
	struct known_file *f;

	if (find_inode(u, major, minor, ino))
		return;
	grow_array((void **)&u->files, &u->capfiles, u->nfiles + 1, sizeof(*u->files));
	f = &u->files[u->nfiles++];
	memset(f, 0, sizeof(*f));
	f->major = major;
	f->minor = minor;
	f->ino = ino;
	f->path = xstrdup(path);
}

void ustacks_add_file(struct ustacks *u, const char *path)
{
	struct stat sb;

	if (u && path && path[0] == '/' && !stat(path, &sb) && S_ISREG(sb.st_mode))
		add_known(u, major(sb.st_dev), minor(sb.st_dev), sb.st_ino, path);
}

/*
 * "start-end perms offset major:minor inode path": the device and inode
 * are the kernel's (what the BPF side reads from the mapped file), the
 * path is as the process sees it. Only paths that exist here are kept
 * (another mount namespace's paths may not); deleted files are not.
 */
void ustacks_scan_pid(struct ustacks *u, pid_t pid)
{
	char path[64], line[4096 + 128], perms[8], file[4096];
	unsigned int major, minor;
	unsigned long long ino;
	FILE *f;

	if (!u)
		return;
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/maps");
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t n;

		file[0] = '\0';
		if (sscanf(line, "%*x-%*x %7s %*x %x:%x %llu %4095[^\n]", perms, &major, &minor, &ino,
			   file) != 5 || !strchr(perms, 'x') || file[0] != '/')
			continue;
		n = strlen(file);
		if (n > 10 && !strcmp(file + n - 10, " (deleted)"))
			continue;
		if (!access(file, R_OK))
			add_known(u, major, minor, ino, file);
	}
	fclose(f);
}

/* A file seen mapped but gone since (deleted while it ran): named as the
 * kernel names it, and not read */
static bool gone(const struct known_file *f)
{
	struct stat sb;

	return stat(f->path, &sb) != 0;
}


void ustacks_scan_new(struct ustacks *u, pid_t pid, const char *comm)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < u->ncomms; i++)
		if (!strcmp(u->comms[i], comm))
			return;
	grow_array((void **)&u->comms, &u->capcomms, u->ncomms + 1, sizeof(*u->comms));
	u->comms[u->ncomms++] = xstrdup(comm);
	ustacks_scan_pid(u, pid);
}

static const char *file_build_id(struct known_file *f)
{
	if (!f->bid_state)
		f->bid_state = usym_build_id(f->path, f->bid, sizeof(f->bid)) ? -1 : 1;
	return f->bid_state > 0 ? f->bid : NULL;
}

/* The kernel pads a build id shorter than 20 bytes with zeros. */
static bool same_build_id(const char *file_hex, const char *frame_hex)
{
	size_t n = strlen(file_hex);

	if (strncmp(file_hex, frame_hex, n))
		return false;
	for (frame_hex += n; *frame_hex; frame_hex++)
		if (*frame_hex != '0')
			return false;
	return true;
}

static struct known_file *find_build_id(struct ustacks *u, const char *hex)
{
	size_t i;

	for (i = 0; i < u->nfiles; i++) {
		const char *b = file_build_id(&u->files[i]);

		if (b && same_build_id(b, hex))
			return &u->files[i];
	}
	return NULL;
}

/* A frame in known file kf: its name, its build id if the frame has none,
 * and what libdwfl says; a file deleted since it was mapped is named as
 * the kernel names it and not read. */
static void from_file(struct ustacks *u, struct rec_uframe *f, struct known_file *kf,
		      bool return_address)
{
	struct usym_frame s;
	char buf[4200];

	if (gone(kf)) {
		snprintf(buf, sizeof(buf), "%s (deleted)", kf->path);
		f->object = xstrdup(buf);
		return;
	}
	f->object = xstrdup(kf->path);
	if (!f->build_id && file_build_id(kf))
		f->build_id = xstrdup(file_build_id(kf));
	if (usym_lookup(u->sym, f->object, f->offset, return_address, &s))
		return;
	if (s.function[0]) {
		f->function = xstrdup(s.function);
		f->func_off = s.func_off;
	}
	if (s.file[0] && s.line > 0) {
		f->source = xstrdup(s.file);
		f->line = s.line;
	}
}

static void hex(const unsigned char *b, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = '\0';
}

static bool same_done(const struct done *d, const struct ca_key *k)
{
	return d->ustack == k->ustack && d->leaf_dev == k->leaf_dev && d->leaf_ino == k->leaf_ino &&
	       d->leaf_off == k->leaf_off;
}

static size_t done_home(const struct ustacks *u, uint64_t ustack, uint64_t leaf_off)
{
	return (size_t)((ustack ^ leaf_off * 0x9e3779b97f4a7c15ULL) >> 17) & (u->capdone - 1);
}

/* The slot of k's user stack: its record ustack, or the empty slot for it
 * (the table grows first, so there is room). */
static struct done *done_slot(struct ustacks *u, const struct ca_key *k)
{
	size_t i;

	if ((u->ndone + 1) * 2 > u->capdone) {
		struct done *old = u->done;
		size_t oldcap = u->capdone, j;

		u->capdone = u->capdone ? u->capdone * 2 : 256;
		u->done = xcalloc(u->capdone, sizeof(*u->done));
		for (j = 0; j < oldcap; j++) {
			if (!old[j].ustack)
				continue;
			for (i = done_home(u, old[j].ustack, old[j].leaf_off); u->done[i].ustack;
			     i = (i + 1) & (u->capdone - 1))
				;
			u->done[i] = old[j];
		}
		free(old);
	}
	for (i = done_home(u, k->ustack, k->leaf_off); u->done[i].ustack && !same_done(&u->done[i], k);
	     i = (i + 1) & (u->capdone - 1))
		;
	return &u->done[i];
}

int ustacks_resolve(struct ustacks *u, struct tracer *t, struct record *rec,
		    const struct ca_key *k)
{
	struct bpf_stack_build_id b[CA_USTACK_DEPTH];
	struct rec_uframe *fr;
	struct known_file *kf;
	struct done *d;
	size_t i, nf = 0;
	int n, idx;

	if (!u || !k->ustack)
		return -1;
	d = done_slot(u, k);
	if (d->ustack)
		return d->index;
	n = tracer_ustack(t, k->ustack, b);
	if (n <= 0)
		return -1;
	fr = xcalloc((size_t)n + 1, sizeof(*fr));
	for (i = 0; i < (size_t)n; i++) {
		struct rec_uframe *f = &fr[nf++];
		char bid[2 * BPF_BUILD_ID_SIZE + 1];

		if (b[i].status != BPF_STACK_BUILD_ID_VALID) {
			/* the end of a broken frame-pointer chain: zero, or no
			 * user address at all */
			if (!b[i].ip || (int64_t)b[i].ip < 0) {
				nf--;
				continue;
			}
			f->offset = b[i].ip;   /* the kernel could not read the build id */
			f->address = true;
		} else if ((int64_t)b[i].offset < 0) {
			/* a garbage frame-pointer entry below its mapping (the
			 * kernel's offset went negative): the chain ends here */
			nf--;
			break;
		} else {
			hex(b[i].build_id, BPF_BUILD_ID_SIZE, bid);
			f->build_id = xstrdup(bid);
			f->offset = b[i].offset;
			kf = find_build_id(u, bid);
			if (kf)
				from_file(u, f, kf, nf > 1);
		}
		/* the leaf wrapper's caller goes right above the wrapper */
		if (i == 0 && k->leaf_dev) {
			struct rec_uframe *l = &fr[nf];

			l->leaf = true;
			l->offset = k->leaf_off;
			kf = find_inode(u, k->leaf_dev >> 20, k->leaf_dev & 0xfffff, k->leaf_ino);
			if (kf)
				from_file(u, l, kf, true);
			nf++;
		}
	}
	/* a wrapper with a frame of its own: the walk has its caller already */
	if (nf > 2 && fr[1].leaf && fr[1].offset == fr[2].offset && fr[1].build_id &&
	    fr[2].build_id && (same_build_id(fr[1].build_id, fr[2].build_id))) {
		rec_uframe_free(&fr[1]);
		memmove(&fr[1], &fr[2], (nf - 2) * sizeof(*fr));
		nf--;
	}
	idx = record_add_ustack(rec, fr, nf);
	*d = (struct done){ k->ustack, k->leaf_dev, k->leaf_ino, k->leaf_off, idx };
	u->ndone++;
	return idx;
}
