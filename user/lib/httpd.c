// SPDX-License-Identifier: GPL-2.0
/* One document over HTTP, on libmicrohttpd (httpd.h). */
#include "lib/httpd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/util.h"

int httpd_parse_listen(const char *spec, struct httpd_addr *out, char *err, size_t errlen)
{
	char host[64];
	const char *port_s, *colon;
	size_t hlen;
	long port;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec) {
		snprintf(err, errlen, "--listen: empty address (ADDR:PORT, e.g. 127.0.0.1:9000, "
			 "[::1]:9000 or :9000)");
		return -1;
	}
	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':') {
			snprintf(err, errlen, "--listen %s: an IPv6 address is written [ADDR]:PORT", spec);
			return -1;
		}
		hlen = (size_t)(close - spec - 1);
		if (hlen == 0 || hlen >= sizeof(host)) {
			snprintf(err, errlen, "--listen %s: not an IPv6 address", spec);
			return -1;
		}
		memcpy(host, spec + 1, hlen);
		host[hlen] = '\0';
		port_s = close + 2;
		out->family = AF_INET6;
	} else {
		colon = strrchr(spec, ':');
		if (!colon) {
			snprintf(err, errlen, "--listen %s: no port (ADDR:PORT, or :PORT for loopback)",
				 spec);
			return -1;
		}
		hlen = (size_t)(colon - spec);
		if (memchr(spec, ':', hlen)) {
			snprintf(err, errlen, "--listen %s: an IPv6 address is written [ADDR]:PORT", spec);
			return -1;
		}
		if (hlen >= sizeof(host)) {
			snprintf(err, errlen, "--listen %s: not a numeric IPv4 address", spec);
			return -1;
		}
		memcpy(host, spec, hlen);
		host[hlen] = '\0';
		if (!hlen)   /* :PORT is loopback only */
			snprintf(host, sizeof(host), "127.0.0.1");
		port_s = colon + 1;
		out->family = AF_INET;
	}
	if (parse_int_range(port_s, 0, 65535, &port)) {
		snprintf(err, errlen, "--listen %s: the port must be a number from 0 to 65535", spec);
		return -1;
	}
	out->port = (unsigned int)port;
	if (out->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&out->ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, host, &sin->sin_addr) != 1) {
			snprintf(err, errlen, "--listen %s: %s is not a numeric IPv4 address "
				 "(host names are not resolved)", spec, host);
			return -1;
		}
		out->len = sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&out->ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		if (inet_pton(AF_INET6, host, &sin6->sin6_addr) != 1) {
			snprintf(err, errlen, "--listen %s: %s is not a numeric IPv6 address", spec, host);
			return -1;
		}
		out->len = sizeof(*sin6);
	}
	return 0;
}

bool httpd_addr_loopback(const struct httpd_addr *a)
{
	if (a->family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)&a->ss;

		return (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
	}
	return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)&a->ss)->sin6_addr);
}

#ifdef CAPAUDIT_NO_HTTPD

struct httpd {
	int unused;
};

struct httpd *httpd_start(const char *spec, const char *path, const char *content_type,
			  char *err, size_t errlen)
{
	struct httpd_addr a;

	if (httpd_parse_listen(spec, &a, err, errlen))
		return NULL;
	snprintf(err, errlen, "--listen %s: this capaudit was built without libmicrohttpd "
		 "(HTTPD=0); use --metrics FILE", spec);
	return NULL;
}

unsigned int httpd_port(const struct httpd *h)
{
	return 0;
}

int httpd_publish(struct httpd *h, const char *text, size_t len)
{
	return -1;
}

void httpd_stop(struct httpd *h)
{
}

#else

#include <dlfcn.h>
#include <microhttpd.h>

/*
 * libmicrohttpd is loaded when --listen asks for it, not at every start:
 * it and what it pulls in (GnuTLS, p11-kit, nettle, gmp, ...) were 2.3 MiB
 * of every run's resident set, record's and verify's too (issue 45). The
 * calls below go through these pointers (the macros after them).
 */
static struct {
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_get_daemon_info) *get_daemon_info;
	__typeof__(MHD_get_connection_info) *get_connection_info;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
} mhd;

static int mhd_load(char *err, size_t errlen)
{
	static const char *const names[] = { "libmicrohttpd.so.12", "libmicrohttpd.so" };
	void *lib = NULL;
	size_t i;

	if (mhd.start_daemon)
		return 0;
	for (i = 0; !lib && i < sizeof(names) / sizeof(names[0]); i++)
		lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(err, errlen, "libmicrohttpd cannot be loaded (%s): install libmicrohttpd12, "
			 "or use --metrics FILE", dlerror());
		return -1;
	}
#define MHD_SYM(f) (*(void **)&mhd.f = dlsym(lib, "MHD_" #f))
	if (!MHD_SYM(stop_daemon) || !MHD_SYM(get_daemon_info) || !MHD_SYM(get_connection_info) ||
	    !MHD_SYM(create_response_from_buffer) || !MHD_SYM(add_response_header) ||
	    !MHD_SYM(queue_response) || !MHD_SYM(destroy_response) || !MHD_SYM(start_daemon)) {
		snprintf(err, errlen, "libmicrohttpd: %s", dlerror());
		mhd.start_daemon = NULL;
		return -1;
	}
#undef MHD_SYM
	return 0;
}

#define MHD_start_daemon (*mhd.start_daemon)
#define MHD_stop_daemon (*mhd.stop_daemon)
#define MHD_get_daemon_info (*mhd.get_daemon_info)
#define MHD_get_connection_info (*mhd.get_connection_info)
#define MHD_create_response_from_buffer (*mhd.create_response_from_buffer)
#define MHD_add_response_header (*mhd.add_response_header)
#define MHD_queue_response (*mhd.queue_response)
#define MHD_destroy_response (*mhd.destroy_response)

/*
 * What one client may take. A scrape sends its whole request as it
 * connects and is answered in milliseconds; a client that trickles one
 * (a byte every few seconds: libmicrohttpd's own timeout counts only
 * silence) holds a connection without one. So:
 *  - a connection must have sent a whole request HTTPD_REQUEST_S seconds
 *    after it was accepted, and is closed HTTPD_DEADLINE_S seconds after
 *    it, whatever it does; each serves one request (Connection: close);
 *  - a new connection never waits for such clients: past HTTPD_CONNS -
 *    HTTPD_SPARE connections, or past HTTPD_PER_ADDR from its address, it
 *    takes the place of the oldest one (of its address, or of all) that
 *    has not sent a whole request. libmicrohttpd's own per-address limit
 *    refused the newcomer instead: forty such clients from ten loopback
 *    addresses, connecting again at each cut, kept every scraper on
 *    127.0.0.1 out (4 of 8 scrapes refused). A request that is being
 *    answered is never cut for another.
 */
#define HTTPD_CONNS 32
#define HTTPD_SPARE 4
#define HTTPD_PER_ADDR 4
#define HTTPD_REQUEST_S 2
#define HTTPD_DEADLINE_S 5

struct httpd_conn {
	int fd;                   /* -1: a free slot */
	int64_t since_ns;         /* accepted (monotonic) */
	bool cut;                 /* shut down (deadline, or its place taken) */
	bool asked;               /* its whole request came: being answered */
	unsigned char addr[16];   /* the client's address (IPv4: mapped) */
};

struct httpd {
	struct MHD_Daemon *d;
	char *path, *content_type;
	unsigned int port;
	pthread_mutex_t lock;     /* text, len, conns */
	char *text;               /* the published document, or NULL */
	size_t len;
	struct httpd_conn conns[HTTPD_CONNS];
	pthread_t watchdog;
	bool watching;
	pthread_cond_t stop_cond;
	bool stopping;
	unsigned long long cut;   /* connections shut down */
};

/* The client's address as 16 bytes (IPv4 as ::ffff:a.b.c.d). */
static void client_addr(struct MHD_Connection *c, unsigned char out[16])
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c,
		MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;

	memset(out, 0, 16);
	if (sa && sa->sa_family == AF_INET) {
		out[10] = out[11] = 0xff;
		memcpy(out + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (sa && sa->sa_family == AF_INET6) {
		memcpy(out, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
	}
}

/* Shut a connection down: libmicrohttpd sees its end and closes it. */
static void cut(struct httpd *h, struct httpd_conn *k)
{
	shutdown(k->fd, SHUT_RDWR);
	k->cut = true;
	h->cut++;
}

/* The oldest connection but self that has not sent a whole request, of
 * addr (NULL: of any address), or NULL. */
static struct httpd_conn *oldest_waiting(struct httpd *h, const struct httpd_conn *self,
					 const unsigned char *addr)
{
	struct httpd_conn *old = NULL;

	for (int i = 0; i < HTTPD_CONNS; i++) {
		struct httpd_conn *k = &h->conns[i];

		if (k->fd < 0 || k == self || k->cut || k->asked ||
		    (addr && memcmp(k->addr, addr, 16)))
			continue;
		if (!old || k->since_ns < old->since_ns)
			old = k;
	}
	return old;
}

/* A new connection, k: room for it, from the connections that have not
 * sent a whole request (its address's first, then anyone's). */
static void make_room(struct httpd *h, struct httpd_conn *k)
{
	struct httpd_conn *old;
	int all = 0, mine = 0;

	for (int i = 0; i < HTTPD_CONNS; i++)
		if (h->conns[i].fd >= 0 && !h->conns[i].cut) {
			all++;
			mine += !memcmp(h->conns[i].addr, k->addr, 16);
		}
	if (mine > HTTPD_PER_ADDR) {
		old = oldest_waiting(h, k, k->addr);
		cut(h, old ? old : k);   /* (all of them being answered: not this one) */
		if (!old)
			return;
		all--;
	}
	if (all > HTTPD_CONNS - HTTPD_SPARE && (old = oldest_waiting(h, k, NULL)))
		cut(h, old);
}

/* libmicrohttpd's word on each connection: started (accepted) or closed.
 * The descriptor is recorded until closed, before libmicrohttpd closes it,
 * so a shutdown() never meets another file's descriptor. */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c,
		MHD_CONNECTION_INFO_CONNECTION_FD);
	struct httpd *h = cls;
	int fd = ci ? (int)ci->connect_fd : -1, i;

	(void)socket_context;
	if (fd < 0)
		return;
	pthread_mutex_lock(&h->lock);
	for (i = 0; i < HTTPD_CONNS; i++) {
		if (code == MHD_CONNECTION_NOTIFY_STARTED && h->conns[i].fd < 0) {
			h->conns[i] = (struct httpd_conn){ fd, now_monotonic_ns(), false, false, { 0 } };
			client_addr(c, h->conns[i].addr);
			make_room(h, &h->conns[i]);
			break;
		}
		if (code == MHD_CONNECTION_NOTIFY_CLOSED && h->conns[i].fd == fd) {
			h->conns[i].fd = -1;
			break;
		}
	}
	pthread_mutex_unlock(&h->lock);
}

/* Its whole request came: it is answered now, never cut for another. */
static void asked(struct httpd *h, struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c,
		MHD_CONNECTION_INFO_CONNECTION_FD);

	if (!ci)
		return;
	pthread_mutex_lock(&h->lock);
	for (int i = 0; i < HTTPD_CONNS; i++)
		if (h->conns[i].fd == (int)ci->connect_fd)
			h->conns[i].asked = true;
	pthread_mutex_unlock(&h->lock);
}

/* The deadlines: every quarter second, a connection older than
 * HTTPD_DEADLINE_S, or than HTTPD_REQUEST_S without a whole request, is
 * shut down. */
static void *watchdog(void *arg)
{
	struct httpd *h = arg;
	struct timespec t;
	int i;

	pthread_mutex_lock(&h->lock);
	while (!h->stopping) {
		int64_t now = now_monotonic_ns();

		for (i = 0; i < HTTPD_CONNS; i++)
			if (h->conns[i].fd >= 0 && !h->conns[i].cut &&
			    now - h->conns[i].since_ns > (h->conns[i].asked ? HTTPD_DEADLINE_S :
							  HTTPD_REQUEST_S) * 1000000000LL)
				cut(h, &h->conns[i]);
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 250000000;
		if (t.tv_nsec >= 1000000000) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&h->stop_cond, &h->lock, &t);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *ctype,
			     const char *body, size_t len, const char *allow)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
	/* one request a connection: none is kept open waiting for another */
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	if (allow)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_size, void **con_cls)
{
	static int seen;
	struct httpd *h = cls;
	static const char plain[] = "text/plain; charset=utf-8";
	enum MHD_Result rc;

	/* the first call has only the headers: answer on the next one */
	if (*con_cls != &seen) {
		*con_cls = &seen;
		asked(h, c);
		return MHD_YES;
	}
	if (*upload_size) {   /* a body is read and ignored */
		*upload_size = 0;
		return MHD_YES;
	}
	if (strcmp(url, h->path)) {
		static const char nf[] = "not found\n";

		return reply(c, MHD_HTTP_NOT_FOUND, plain, nf, sizeof(nf) - 1, NULL);
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		static const char na[] = "method not allowed\n";

		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, plain, na, sizeof(na) - 1, "GET, HEAD");
	}
	pthread_mutex_lock(&h->lock);
	if (h->text)
		rc = reply(c, MHD_HTTP_OK, h->content_type, h->text, h->len, NULL);
	else {
		static const char na[] = "nothing published yet\n";

		rc = reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, plain, na, sizeof(na) - 1, NULL);
	}
	pthread_mutex_unlock(&h->lock);
	return rc;
}

struct httpd *httpd_start(const char *spec, const char *path, const char *content_type,
			  char *err, size_t errlen)
{
	struct httpd_addr a;
	struct httpd *h;
	const union MHD_DaemonInfo *info;
	unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD;
	sigset_t all, old;
	int e;

	if (httpd_parse_listen(spec, &a, err, errlen))
		return NULL;
	if (mhd_load(err, errlen)) {
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "--listen %s: %s", spec, why);
		return NULL;
	}
	if (a.family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)&a.ss;

		/* [::] is every address, IPv4 too; another IPv6 address only itself */
		flags |= IN6_IS_ADDR_UNSPECIFIED(&sin6->sin6_addr) ? MHD_USE_DUAL_STACK
								    : MHD_USE_IPv6;
	}
	h = xcalloc(1, sizeof(*h));
	h->path = xstrdup(path);
	h->content_type = xstrdup(content_type);
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->stop_cond, NULL);
	for (int i = 0; i < HTTPD_CONNS; i++)
		h->conns[i].fd = -1;
	/* the server's thread inherits this mask: signals go to the caller's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	errno = 0;
	h->d = MHD_start_daemon(flags, (uint16_t)a.port, NULL, NULL, on_request, h,
				MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&a.ss,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)HTTPD_CONNS,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)HTTPD_DEADLINE_S,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536,
				MHD_OPTION_NOTIFY_CONNECTION, on_connection, h,
				MHD_OPTION_END);
	e = errno;
	if (h->d && !pthread_create(&h->watchdog, NULL, watchdog, h))
		h->watching = true;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!h->d) {
		snprintf(err, errlen, "--listen %s: cannot listen%s%s", spec, e ? ": " : "",
			 e ? strerror(e) : "");
		httpd_stop(h);
		return NULL;
	}
	info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
	h->port = info ? info->port : a.port;
	return h;
}

unsigned int httpd_port(const struct httpd *h)
{
	return h ? h->port : 0;
}

int httpd_publish(struct httpd *h, const char *text, size_t len)
{
	char *copy = malloc(len ? len : 1);

	if (!copy)
		return -1;
	memcpy(copy, text, len);
	pthread_mutex_lock(&h->lock);
	free(h->text);
	h->text = copy;
	h->len = len;
	pthread_mutex_unlock(&h->lock);
	return 0;
}

void httpd_stop(struct httpd *h)
{
	if (!h)
		return;
	if (h->watching) {
		pthread_mutex_lock(&h->lock);
		h->stopping = true;
		pthread_cond_signal(&h->stop_cond);
		pthread_mutex_unlock(&h->lock);
		pthread_join(h->watchdog, NULL);
	}
	if (h->d)
		MHD_stop_daemon(h->d);
	pthread_cond_destroy(&h->stop_cond);
	pthread_mutex_destroy(&h->lock);
	free(h->text);
	free(h->path);
	free(h->content_type);
	free(h);
}

#endif
