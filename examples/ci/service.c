// SPDX-License-Identifier: GPL-2.0
/*
 * A tiny "service" for the CI example (examples/ci/README.md): it listens
 * on a port below 1024 and hands its state file to an unprivileged user.
 * Built with -DHEALTH_PINGS it also opens a raw ICMP socket: the change
 * that makes `capaudit check` fail against capaudit-baseline.json.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int listen_low_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int s = socket(AF_INET, SOCK_STREAM, 0), port;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (port = 1000; port > 900 && s >= 0; port--) {
		a.sin_port = htons((unsigned short)port);
		if (!bind(s, (struct sockaddr *)&a, sizeof(a)))
			return s;
		if (errno != EADDRINUSE)
			break;
	}
	perror("service: bind");
	return -1;
}

static int give_away_state(void)
{
	char path[] = "/tmp/capaudit-ci-state.XXXXXX";
	int fd = mkstemp(path), rc;

	if (fd < 0)
		return -1;
	rc = fchown(fd, 65534, 65534);
	close(fd);
	unlink(path);
	return rc;
}

#ifdef HEALTH_PINGS
static int open_ping_socket(void)
{
	int s = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);

	if (s >= 0)
		close(s);
	return s < 0 ? -1 : 0;
}
#endif

int main(void)
{
	int s = listen_low_port(), failed = s < 0;

	if (s >= 0)
		close(s);
	failed |= give_away_state() != 0;
#ifdef HEALTH_PINGS
	failed |= open_ping_socket() != 0;
#endif
	printf("service: %s\n", failed ? "failed" : "started and stopped");
	return failed;
}
