/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small HTTP server for one document (monitor --listen ADDR:PORT serving
 * GET /metrics), on libmicrohttpd. Its thread serves the text last given
 * to httpd_publish(): the caller's data is never read from another thread,
 * so the caller needs no locks; it publishes at each checkpoint, or more
 * often.
 *
 *   GET or HEAD on the path    200, the published text and content type
 *                              (503 until something is published)
 *   another path               404
 *   another method on the path 405, Allow: GET, HEAD
 *
 * ADDR:PORT is numeric and strict: 127.0.0.1:9000, [::1]:9000,
 * 0.0.0.0:9000 (every IPv4 address), [::]:9000 (every address, IPv4 too),
 * and :9000, which is loopback only (127.0.0.1): what the server shows
 * (every program and container on the host) is exposed to other machines
 * only when an address says so. Port 0 takes a free port (httpd_port()
 * says which). No host names: nothing is resolved.
 *
 * What one client may take (httpd.c says why): 32 connections in all, 4
 * from one address, one request each; a connection that has not sent a
 * whole request 2 s after it was accepted is closed, and every one 5 s
 * after, however slowly it sends (a scrape takes milliseconds); and a new
 * connection takes the place of the oldest that has not sent a whole
 * request rather than wait for it. Nothing authenticates a client: bound to
 * another address than loopback, anyone who can connect reads every
 * program name (docs/monitor.md: behind an authenticating proxy).
 *
 * Built with CAPAUDIT_NO_HTTPD (make HTTPD=0, the static build of the
 * kernel matrix), httpd_start() fails with a line saying so.
 */
#ifndef CA_HTTPD_H
#define CA_HTTPD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct httpd_addr {
	struct sockaddr_storage ss;
	socklen_t len;
	int family;              /* AF_INET or AF_INET6 */
	unsigned int port;
};

/* 0, or -1 with one line in err: "--listen VALUE: why". */
int httpd_parse_listen(const char *spec, struct httpd_addr *out, char *err, size_t errlen);
/* a is a loopback address (127.0.0.0/8, ::1): only this host reaches it */
bool httpd_addr_loopback(const struct httpd_addr *a);

struct httpd;

/*
 * Listen on spec (ADDR:PORT as above) and serve path (e.g. "/metrics") with
 * content_type. The server thread starts with every signal blocked, so
 * signals reach the caller's threads only. The server, or NULL with one
 * line in err.
 */
struct httpd *httpd_start(const char *spec, const char *path, const char *content_type,
			  char *err, size_t errlen);
/* The port it listens on (the one chosen, for port 0). */
unsigned int httpd_port(const struct httpd *h);
/* Serve a copy of text[0..len) from now on. 0, or -1 (out of memory: the
 * previous text stays). */
int httpd_publish(struct httpd *h, const char *text, size_t len);
/* Stop listening, wait for the server thread, free. NULL is a no-op. */
void httpd_stop(struct httpd *h);

#endif
