// SPDX-License-Identifier: GPL-2.0
#include "lib/infile.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A FIFO's writer: wait for data or its end, a bounded time. */
static int wait_writer(int fd, const char *path, char *err, size_t errlen)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	do
		n = poll(&p, 1, INFILE_FIFO_WAIT_S * 1000);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		return 0;
	snprintf(err, errlen, "%s: a FIFO that no process wrote to in %d s", path,
		 INFILE_FIFO_WAIT_S);
	errno = ETIMEDOUT;
	return -1;
}

const char *infile_name(const char *path)
{
	return strcmp(path, "-") ? path : "standard input";
}

FILE *infile_open(const char *path, char *err, size_t errlen)
{
	const char *name = infile_name(path);
	struct stat st;
	FILE *f;
	int fd, e;

	if (!strcmp(path, "-")) {
		fd = STDIN_FILENO;
	} else {
		/* O_NONBLOCK: opening a FIFO does not wait for a writer here */
		fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			e = errno;
			snprintf(err, errlen, "%s: %s", path, strerror(e));
			errno = e;
			return NULL;
		}
	}
	if (fstat(fd, &st)) {
		e = errno;
		snprintf(err, errlen, "%s: %s", name, strerror(e));
		goto fail;
	}
	e = EINVAL;
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a file to read", name);
		e = EISDIR;
		goto fail;
	}
	if (isatty(fd)) {
		snprintf(err, errlen, "%s: a terminal, not a file (give a file, or pipe one in)",
			 name);
		goto fail;
	}
	if (S_ISSOCK(st.st_mode) || S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s: a %s, not a file to read", name,
			 S_ISSOCK(st.st_mode) ? "socket" : "block device");
		goto fail;
	}
	if (S_ISFIFO(st.st_mode) && fd != STDIN_FILENO && wait_writer(fd, name, err, errlen)) {
		e = errno;
		goto fail;
	}
	if (fd != STDIN_FILENO)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	f = fd == STDIN_FILENO ? stdin : fdopen(fd, "r");
	if (f)
		return f;
	e = errno;
	snprintf(err, errlen, "%s: %s", name, strerror(e));
fail:
	if (fd != STDIN_FILENO)
		close(fd);
	errno = e;
	return NULL;
}

void infile_close(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}

/* infile_peek()'s stream: the bytes read ahead, then the rest of f. */
struct peeked {
	FILE *f;
	char *head;
	size_t len, off;
};

static ssize_t peeked_read(void *cookie, char *buf, size_t size)
{
	struct peeked *p = cookie;
	size_t n;

	if (p->off < p->len) {
		n = p->len - p->off < size ? p->len - p->off : size;
		memcpy(buf, p->head + p->off, n);
		p->off += n;
		return (ssize_t)n;
	}
	n = fread(buf, 1, size, p->f);
	return n || !ferror(p->f) ? (ssize_t)n : -1;
}

static int peeked_close(void *cookie)
{
	struct peeked *p = cookie;

	free(p->head);
	free(p);
	return 0;
}

FILE *infile_peek(FILE *f, char *head, size_t cap, size_t *len)
{
	cookie_io_functions_t io = { .read = peeked_read, .close = peeked_close };
	struct peeked *p;
	FILE *s;

	*len = fread(head, 1, cap, f);
	if (*len < cap && ferror(f))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p)
		p->head = malloc(*len ? *len : 1);
	if (!p || !p->head) {
		free(p);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(p->head, head, *len);
	p->len = *len;
	p->f = f;
	s = fopencookie(p, "r", io);
	if (!s)
		peeked_close(p);
	return s;
}
