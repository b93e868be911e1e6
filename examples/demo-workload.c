// SPDX-License-Identifier: GPL-2.0
/*
 * The workload `make demo` records: a handful of everyday privileged
 * operations, each harmless to the host, each asking the kernel for a
 * different capability. Run it as root (or with those capabilities).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;

static void report(const char *what, int ok)
{
	printf("demo: %-58s %s\n", what, ok ? "ok" : strerror(errno));
	failures += !ok;
}

/* CAP_CHOWN: give a file of ours away. */
static void do_chown(void)
{
	char path[] = "/tmp/capaudit-demo.XXXXXX";
	int fd = mkstemp(path);

	report("chown a temporary file to nobody (CAP_CHOWN)",
	       fd >= 0 && fchown(fd, 65534, 65534) == 0);
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
}

/* CAP_NET_BIND_SERVICE: listen on a port below 1024. */
static void do_bind_low_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int s = socket(AF_INET, SOCK_STREAM, 0), ok = 0, port;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (port = 1023; port > 1000 && s >= 0 && !ok; port--) {
		a.sin_port = htons((unsigned short)port);
		ok = bind(s, (struct sockaddr *)&a, sizeof(a)) == 0;
		if (!ok && errno != EADDRINUSE)
			break;
	}
	report("bind a TCP port below 1024 (CAP_NET_BIND_SERVICE)", ok);
	if (s >= 0)
		close(s);
}

/* CAP_NET_RAW: a raw ICMP socket. */
static void do_raw_socket(void)
{
	int s = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);

	report("open a raw ICMP socket (CAP_NET_RAW)", s >= 0);
	if (s >= 0)
		close(s);
}

/* CAP_SYS_ADMIN: a private UTS namespace and a hostname in it. */
static void do_uts_namespace(void)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		if (unshare(CLONE_NEWUTS) || sethostname("capaudit-demo", 13))
			_exit(1);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &st, 0);
	errno = EPERM;
	report("set the hostname in a new UTS namespace (CAP_SYS_ADMIN)",
	       pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* CAP_CHECKPOINT_RESTORE: open a /proc/self/map_files entry, as CRIU does. */
static void do_map_files(void)
{
	char path[128];
	unsigned long lo, hi;
	FILE *maps = fopen("/proc/self/maps", "r");
	int fd = -1;

	if (maps && fscanf(maps, "%lx-%lx", &lo, &hi) == 2) {
		snprintf(path, sizeof(path), "/proc/self/map_files/%lx-%lx", lo, hi);
		fd = open(path, O_RDONLY);
	}
	report("open /proc/self/map_files/<first mapping> (CAP_CHECKPOINT_RESTORE)", fd >= 0);
	if (fd >= 0)
		close(fd);
	if (maps)
		fclose(maps);
}

/* CAP_BPF: create a small BPF hash map. */
static void do_bpf_map(void)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_HASH;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	fd = (int)syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	report("create a BPF hash map (CAP_BPF)", fd >= 0);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	do_chown();
	do_bind_low_port();
	do_raw_socket();
	do_uts_namespace();
	do_map_files();
	do_bpf_map();
	return failures ? 1 : 0;
}
