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

#include <microhttpd.h>

struct httpd {
	struct MHD_Daemon *d;
	char *path, *content_type;
	unsigned int port;
	pthread_mutex_t lock;
	char *text;               /* the published document, or NULL */
	size_t len;
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *ctype,
			     const char *body, size_t len, const char *allow)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
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
	/* the server's thread inherits this mask: signals go to the caller's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	errno = 0;
	h->d = MHD_start_daemon(flags, (uint16_t)a.port, NULL, NULL, on_request, h,
				MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&a.ss,
				MHD_OPTION_CONNECTION_LIMIT, (unsigned int)16,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)8,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)10,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536,
				MHD_OPTION_END);
	e = errno;
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
	if (h->d)
		MHD_stop_daemon(h->d);
	pthread_mutex_destroy(&h->lock);
	free(h->text);
	free(h->path);
	free(h->content_type);
	free(h);
}

#endif
