// SPDX-License-Identifier: GPL-2.0
/* monitor --metrics and --listen: the Prometheus text (output/metrics.c),
 * checked byte for byte and by promtool, and the HTTP server (lib/httpd.c)
 * fetched over a real socket. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "analyze/metrics_view.h"
#include "lib/httpd.h"
#include "output/metrics.h"
#include "test.h"
#include "lib/util.h"

static const struct metrics_check_row small_rows[] = {
	{ "/usr/bin/chown", "chown", "", "", "", "CAP_CHOWN", false, 3, false },
	/* the same labels as the first (another uid or call site): one series */
	{ "/usr/bin/chown", "chown", "", "", "", "CAP_CHOWN", false, 2, false },
	{ "/usr/sbin/nginx", "nginx", "4f2a9c", "web", "", "CAP_NET_BIND_SERVICE", true, 1, false },
	{ "/usr/sbin/sshd", "sshd", NULL, NULL, "ssh.service", "CAP_SETUID", false, 7, false },
};

static const char small_text[] =
	"# HELP capaudit_checks_total Capability checks seen since the monitor started, by program, container, unit, capability and verdict.\n"
	"# TYPE capaudit_checks_total counter\n"
	"capaudit_checks_total{exe=\"/usr/bin/chown\",comm=\"chown\",container=\"\",container_name=\"\",unit=\"\",cap=\"CAP_CHOWN\",verdict=\"granted\"} 5\n"
	"capaudit_checks_total{exe=\"/usr/sbin/nginx\",comm=\"nginx\",container=\"4f2a9c\",container_name=\"web\",unit=\"\",cap=\"CAP_NET_BIND_SERVICE\",verdict=\"denied\"} 1\n"
	"capaudit_checks_total{exe=\"/usr/sbin/sshd\",comm=\"sshd\",container=\"\",container_name=\"\",unit=\"ssh.service\",cap=\"CAP_SETUID\",verdict=\"granted\"} 7\n"
	"# HELP capaudit_findings_total Uses the baseline does not allow, by kind (as capaudit check names them).\n"
	"# TYPE capaudit_findings_total counter\n"
	"capaudit_findings_total{kind=\"new-capability\"} 2\n"
	"capaudit_findings_total{kind=\"new-syscall\"} 0\n"
	"capaudit_findings_total{kind=\"new-callsite\"} 0\n"
	"capaudit_findings_total{kind=\"new-denial\"} 1\n"
	"# HELP capaudit_label_overflow_total Checks counted under exe=\"(other)\": their program came after the first 1000 distinct exe values.\n"
	"# TYPE capaudit_label_overflow_total counter\n"
	"capaudit_label_overflow_total{label=\"exe\"} 0\n"
	"# HELP capaudit_noaudit_checks_left_out_total noaudit checks (the kernel probing, not a use) not in capaudit_checks_total; monitor --noaudit counts them there.\n"
	"# TYPE capaudit_noaudit_checks_left_out_total counter\n"
	"capaudit_noaudit_checks_left_out_total 0\n"
	"# HELP capaudit_lost_total What the kernel side could not store, by kind (the record's lost object).\n"
	"# TYPE capaudit_lost_total counter\n"
	"capaudit_lost_total{kind=\"map_full\"} 0\n"
	"capaudit_lost_total{kind=\"ringbuf_full\"} 4\n"
	"capaudit_lost_total{kind=\"stack_errors\"} 0\n"
	"capaudit_lost_total{kind=\"proc_full\"} 0\n"
	"capaudit_lost_total{kind=\"result_lost\"} 0\n"
	"capaudit_lost_total{kind=\"hook_skipped\"} 0\n"
	"# HELP capaudit_write_failures_total Writes of the monitor's files that failed (it goes on and tries again), by output.\n"
	"# TYPE capaudit_write_failures_total counter\n"
	"capaudit_write_failures_total{output=\"checkpoint\"} 0\n"
	"capaudit_write_failures_total{output=\"metrics\"} 0\n"
	"capaudit_write_failures_total{output=\"events\"} 0\n"
	"# HELP capaudit_monitor_resident_bytes Resident memory of the capaudit monitor process.\n"
	"# TYPE capaudit_monitor_resident_bytes gauge\n"
	"capaudit_monitor_resident_bytes 8388608\n"
	"# HELP capaudit_monitor_cpu_seconds_total User and system CPU time of the capaudit monitor process.\n"
	"# TYPE capaudit_monitor_cpu_seconds_total counter\n"
	"capaudit_monitor_cpu_seconds_total 1.250000\n"
	"# HELP capaudit_last_checkpoint_timestamp_seconds Unix time at which the monitor last wrote its record.\n"
	"# TYPE capaudit_last_checkpoint_timestamp_seconds gauge\n"
	"capaudit_last_checkpoint_timestamp_seconds 1764820800\n";

static struct metrics_snapshot small_snapshot(void)
{
	struct metrics_snapshot m = { 0 };

	m.checks = small_rows;
	m.nchecks = ARRAY_SIZE(small_rows);
	m.has_baseline = true;
	m.findings[FK_NEW_CAP] = 2;
	m.findings[FK_NEW_DENIAL] = 1;
	m.findings[FK_UNUSED_CAP] = 9;   /* a hint, not a metric */
	m.lost.ringbuf_full = 4;
	m.rss_bytes = 8 << 20;
	m.cpu_seconds = 1.25;
	m.checkpoint_time = 1764820800;
	return m;
}

TEST(metrics_exact_text)
{
	struct metrics_snapshot m = small_snapshot();
	size_t len = 0;
	char *t = metrics_text(&m, &len);

	ASSERT_STR(t, small_text);
	ASSERT_EQ(len, strlen(small_text));
	free(t);
}

/* Without a baseline, rows or a checkpoint: no findings, no timestamp,
 * every loss kind and write failure still there (a counter that appears
 * late breaks rate()). */
TEST(metrics_empty)
{
	struct metrics_snapshot m = { 0 };
	char *t = metrics_text(&m, NULL);

	ASSERT_HAS(t, "# TYPE capaudit_checks_total counter\n# HELP capaudit_label_overflow_total");
	ASSERT_HAS(t, "capaudit_label_overflow_total{label=\"exe\"} 0\n");
	ASSERT_HAS(t, "capaudit_noaudit_checks_left_out_total 0\n");
	ASSERT_HAS(t, "capaudit_lost_total{kind=\"hook_skipped\"} 0\n");
	ASSERT_HAS(t, "capaudit_monitor_cpu_seconds_total 0\n");
	ASSERT_EQ(strstr(t, "findings") == NULL, 1);
	ASSERT_EQ(strstr(t, "capaudit_last_checkpoint_timestamp_seconds") == NULL, 1);
	/* the write failures, every output, zeros too */
	ASSERT_HAS(t, "capaudit_write_failures_total{output=\"checkpoint\"} 0\n"
		      "capaudit_write_failures_total{output=\"metrics\"} 0\n"
		      "capaudit_write_failures_total{output=\"events\"} 0\n");
	free(t);
}

/* Executables that come and go (deleted, memfd, under /tmp, /var/tmp,
 * /dev/shm, /run/user) and paths that named no file (relative, a
 * descriptor's) are one exe label value; others are kept. */
TEST(metrics_exe_label_folds_transient)
{
	ASSERT_STR(metrics_exe_label("/usr/bin/chown"), "/usr/bin/chown");
	ASSERT_STR(metrics_exe_label("/tmp/go-build123/b001/exe/main"), "(transient)");
	ASSERT_STR(metrics_exe_label("/var/tmp/x"), "(transient)");
	ASSERT_STR(metrics_exe_label("/dev/shm/payload"), "(transient)");
	ASSERT_STR(metrics_exe_label("/run/user/1000/app"), "(transient)");
	ASSERT_STR(metrics_exe_label("/memfd:runc_cloned:/proc/self/exe (deleted)"), "(transient)");
	ASSERT_STR(metrics_exe_label("/usr/sbin/nginx (deleted)"), "(transient)");
	ASSERT_STR(metrics_exe_label("/usr/lib/tmp/x"), "/usr/lib/tmp/x");
	/* paths that did not name the file: relative, through a descriptor */
	ASSERT_STR(metrics_exe_label("bin/chown9"), "(transient)");
	ASSERT_STR(metrics_exe_label("/proc/self/fd/5"), "(transient)");
	ASSERT_STR(metrics_exe_label("/dev/fd/3"), "(transient)");
	ASSERT_STR(metrics_exe_label("/proc/self/exe"), "(transient)");
	ASSERT_STR(metrics_exe_label(NULL), "");
}

/* Label values: backslash, double quote and newline escaped; a byte that is
 * not UTF-8 written as \xNN (its backslash escaped in turn); UTF-8 kept. */
TEST(metrics_label_escaping)
{
	static const struct metrics_check_row rows[] = {
		{ "/opt/a\\b \"q\"\nx", "c\xff", "", "caf\xc3\xa9", "u", "CAP_KILL", false, 1, false },
	};
	struct metrics_snapshot m = { .checks = rows, .nchecks = 1 };
	char *t = metrics_text(&m, NULL);

	ASSERT_HAS(t, "capaudit_checks_total{exe=\"/opt/a\\\\b \\\"q\\\"\\nx\",comm=\"c\\\\xff\","
		      "container=\"\",container_name=\"caf\xc3\xa9\",unit=\"u\",cap=\"CAP_KILL\","
		      "verdict=\"granted\"} 1\n");
	free(t);
}

/* Two paths that differ only in a byte the escaping writes the same way
 * would be one series twice: they are summed. */
TEST(metrics_rows_merge_after_escaping)
{
	static const struct metrics_check_row rows[] = {
		{ "/x\xff", "x", "", "", "", "CAP_KILL", false, 1, false },
		{ "/x\\xff", "x", "", "", "", "CAP_KILL", false, 2, false },
		{ "/x", "x", "", "", "", "CAP_KILL", true, UINT64_MAX, false },
		{ "/x", "x", "", "", "", "CAP_KILL", true, 5, false },
	};
	struct metrics_snapshot m = { .checks = rows, .nchecks = ARRAY_SIZE(rows) };
	char *t = metrics_text(&m, NULL);

	ASSERT_HAS(t, "{exe=\"/x\\\\xff\",comm=\"x\",container=\"\",container_name=\"\",unit=\"\","
		      "cap=\"CAP_KILL\",verdict=\"granted\"} 3\n");
	ASSERT_HAS(t, "verdict=\"denied\"} 18446744073709551615\n");   /* saturates */
	free(t);
}

/* promtool (Debian's prometheus package) parses and lints the text. */
static void promtool_check(const char *text)
{
	char path[] = "/tmp/capaudit-metrics.XXXXXX", cmd[256], out[4096] = "";
	int fd = mkstemp(path), rc;
	size_t n;
	FILE *p;

	ASSERT_EQ(fd >= 0, 1);
	ASSERT_EQ(write(fd, text, strlen(text)), (long long)strlen(text));
	close(fd);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 2>&1", path);
	p = popen(cmd, "r");
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	rc = pclose(p);
	unlink(path);
	if (rc)
		FAIL_AT("promtool check metrics: exit %d: %s", rc, out);
}

TEST(metrics_promtool)
{
	static const struct metrics_check_row rows[] = {
		{ "/opt/a\\b \"q\"\nx", "c\xff", "", "caf\xc3\xa9", "u", "CAP_KILL", false, 1, false },
		{ "/usr/bin/ping", "ping", "", "", "", "CAP_NET_RAW", true, 2, false },
	};
	struct metrics_snapshot m = small_snapshot(), e = { 0 };
	char *t;

	if (system("command -v promtool >/dev/null 2>&1")) {
		SKIP("no promtool (Debian package prometheus; make test installs it)");
		return;
	}
	t = metrics_text(&m, NULL);
	promtool_check(t);
	free(t);
	m.checks = rows;
	m.nchecks = ARRAY_SIZE(rows);
	t = metrics_text(&m, NULL);
	promtool_check(t);
	free(t);
	t = metrics_text(&e, NULL);
	promtool_check(t);
	free(t);
}

/* --metrics FILE: replaced whole, readable by a collector of another user. */
TEST(metrics_file_replaced)
{
	char dir[] = "/tmp/capaudit-mfile.XXXXXX", path[256], err[512] = "", buf[8192];
	struct metrics_snapshot m = small_snapshot();
	struct stat st;
	FILE *f;
	size_t n;

	ASSERT_EQ(mkdtemp(dir) != NULL, 1);
	snprintf(path, sizeof(path), "%s/capaudit.prom", dir);
	f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);
	chmod(path, 0644);
	ASSERT_EQ(metrics_write_file(path, &m, err, sizeof(err)), 0);
	ASSERT_STR(err, "");
	f = fopen(path, "r");
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	ASSERT_STR(buf, small_text);
	ASSERT_EQ(stat(path, &st), 0);
	ASSERT_EQ(st.st_mode & 0777, 0644);
	unlink(path);
	/* a new file */
	ASSERT_EQ(metrics_write_file(path, &m, err, sizeof(err)), 0);
	ASSERT_EQ(stat(path, &st), 0);
	ASSERT_EQ(st.st_size, (long long)strlen(small_text));
	unlink(path);
	/* a directory is refused with one line */
	ASSERT_EQ(metrics_write_file(dir, &m, err, sizeof(err)), -1);
	ASSERT_HAS(err, dir);
	ASSERT_EQ(strchr(err, '\n') == NULL, 1);
	rmdir(dir);
}

TEST(metrics_self)
{
	uint64_t rss;
	double cpu;

	ASSERT_EQ(self_usage(&rss, &cpu), 0);
	ASSERT_EQ(rss > 4096, 1);
	ASSERT_EQ(cpu >= 0, 1);
}

TEST(httpd_listen_specs)
{
	static const struct {
		const char *spec;
		int family;
		const char *addr;
		unsigned int port;
	} good[] = {
		{ "127.0.0.1:9000", AF_INET, "127.0.0.1", 9000 },
		{ ":9000", AF_INET, "127.0.0.1", 9000 },
		{ "0.0.0.0:9000", AF_INET, "0.0.0.0", 9000 },
		{ "[::1]:9000", AF_INET6, "::1", 9000 },
		{ "[::]:65535", AF_INET6, "::", 65535 },
		{ "10.1.2.3:0", AF_INET, "10.1.2.3", 0 },
	};
	static const struct {
		const char *spec, *msg;
	} bad[] = {
		{ "", "empty address" },
		{ "9000", "--listen 9000: no port" },
		{ "127.0.0.1", "no port" },
		{ "127.0.0.1:", "port must be a number" },
		{ "127.0.0.1:65536", "port must be a number" },
		{ "127.0.0.1:-1", "port must be a number" },
		{ "127.0.0.1:90x", "port must be a number" },
		{ "127.0.0.1: 90", "port must be a number" },
		{ "localhost:9000", "localhost is not a numeric IPv4 address" },
		{ "::1:9000", "written [ADDR]:PORT" },
		{ "[::1]9000", "written [ADDR]:PORT" },
		{ "[::1", "written [ADDR]:PORT" },
		{ "[]:9000", "not an IPv6 address" },
		{ "[127.0.0.1]:9000", "127.0.0.1 is not a numeric IPv6 address" },
		{ "1.2.3.4.5:9000", "not a numeric IPv4 address" },
	};
	struct httpd_addr a;
	char err[256], buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		const void *ip;

		err[0] = '\0';
		ASSERT_EQ(httpd_parse_listen(good[i].spec, &a, err, sizeof(err)), 0);
		ASSERT_STR(err, "");
		ASSERT_EQ(a.family, good[i].family);
		ASSERT_EQ(a.port, good[i].port);
		ip = a.family == AF_INET ? (const void *)&((struct sockaddr_in *)&a.ss)->sin_addr
					 : (const void *)&((struct sockaddr_in6 *)&a.ss)->sin6_addr;
		ASSERT_STR(inet_ntop(a.family, ip, buf, sizeof(buf)), good[i].addr);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		ASSERT_EQ(httpd_parse_listen(bad[i].spec, &a, err, sizeof(err)), -1);
		ASSERT_HAS(err, bad[i].msg);
		ASSERT_EQ(strncmp(err, "--listen", 8), 0);
		ASSERT_EQ(strchr(err, '\n') == NULL, 1);
	}
}

/* One HTTP/1.0 exchange with the server on 127.0.0.1:port: the whole
 * response (headers and body) in a malloc'd string. */
static char *http(unsigned int port, const char *request)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct timeval tv = { .tv_sec = 5 };
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ssize_t n;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		close(fd);
		return xstrdup("");
	}
	(void)!write(fd, request, strlen(request));
	for (;;) {
		grow_array((void **)&buf, &cap, len + 4097, 1);
		n = read(fd, buf + len, 4096);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	grow_array((void **)&buf, &cap, len + 1, 1);
	buf[len] = '\0';
	return buf;
}

TEST(httpd_serves_metrics)
{
	static const char ctype[] = "text/plain; version=0.0.4; charset=utf-8";
	struct metrics_snapshot m = small_snapshot();
	char err[256] = "", *r, *t;
	struct httpd *h;
	unsigned int port;
	size_t len;

	h = httpd_start("127.0.0.1:0", "/metrics", ctype, err, sizeof(err));
	if (!h && strstr(err, "without libmicrohttpd")) {
		SKIP("built with HTTPD=0");
		return;
	}
	ASSERT_EQ(h != NULL, 1);
	if (!h) {
		FAIL_AT("%s", err);
		return;
	}
	port = httpd_port(h);
	ASSERT_EQ(port > 0, 1);

	r = http(port, "GET /metrics HTTP/1.0\r\n\r\n");
	ASSERT_HAS(r, "HTTP/1.1 503");
	free(r);

	t = metrics_text(&m, &len);
	ASSERT_EQ(httpd_publish(h, t, len), 0);
	r = http(port, "GET /metrics HTTP/1.0\r\n\r\n");
	ASSERT_EQ(strncmp(r, "HTTP/1.1 200 OK\r\n", 17), 0);
	ASSERT_HAS(r, "\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n");
	ASSERT_HAS(r, "\r\n\r\n# HELP capaudit_checks_total");
	if (strstr(r, "\r\n\r\n"))
		ASSERT_STR(strstr(r, "\r\n\r\n") + 4, small_text);
	free(r);

	r = http(port, "HEAD /metrics HTTP/1.0\r\n\r\n");
	ASSERT_HAS(r, "HTTP/1.1 200");
	ASSERT_EQ(strstr(r, "# HELP") == NULL, 1);
	free(r);

	r = http(port, "GET /metrics/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
	ASSERT_HAS(r, "HTTP/1.1 404");
	free(r);
	r = http(port, "GET / HTTP/1.0\r\n\r\n");
	ASSERT_HAS(r, "HTTP/1.1 404");
	free(r);
	r = http(port, "POST /metrics HTTP/1.0\r\nContent-Length: 3\r\n\r\nabc");
	ASSERT_HAS(r, "HTTP/1.1 405");
	ASSERT_HAS(r, "\r\nAllow: GET, HEAD\r\n");
	free(r);

	/* a new text replaces the old */
	ASSERT_EQ(httpd_publish(h, "x 1\n", 4), 0);
	r = http(port, "GET /metrics HTTP/1.0\r\n\r\n");
	ASSERT_EQ(strstr(r, "\r\n\r\nx 1\n") != NULL, 1);
	free(r);

	/* curl, when there is one: the same body and type */
	if (!system("command -v curl >/dev/null 2>&1")) {
		char cmd[256], out[512] = "";
		FILE *p;
		size_t n;

		snprintf(cmd, sizeof(cmd),
			 "curl -sS --max-time 5 -o - -w ' %%{http_code} %%{content_type}' "
			 "http://127.0.0.1:%u/metrics", port);
		p = popen(cmd, "r");
		n = fread(out, 1, sizeof(out) - 1, p);
		out[n] = '\0';
		ASSERT_EQ(pclose(p), 0);
		ASSERT_STR(out, "x 1\n 200 text/plain; version=0.0.4; charset=utf-8");
	}
	free(t);

	/* the port is taken while it runs; free again after stop */
	{
		char spec[32], err2[256] = "";
		struct httpd *h2;

		snprintf(spec, sizeof(spec), "127.0.0.1:%u", port);
		h2 = httpd_start(spec, "/metrics", ctype, err2, sizeof(err2));
		ASSERT_EQ(h2 == NULL, 1);
		ASSERT_HAS(err2, "cannot listen");
		httpd_stop(h2);
		httpd_stop(h);
		h2 = httpd_start(spec, "/metrics", ctype, err2, sizeof(err2));
		ASSERT_EQ(h2 != NULL, 1);
		httpd_stop(h2);
	}
}

/* [::1]: IPv6 loopback, where the host has it */
TEST(httpd_ipv6_loopback)
{
	char err[256] = "";
	struct httpd *h = httpd_start("[::1]:0", "/metrics", "text/plain", err, sizeof(err));
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	int fd;

	if (!h) {
		SKIP("cannot listen on [::1] here: %s", err);
		return;
	}
	sin6.sin6_port = htons((uint16_t)httpd_port(h));
	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_EQ(connect(fd, (struct sockaddr *)&sin6, sizeof(sin6)), 0);
	close(fd);
	httpd_stop(h);
}

/* What checks were about (record format 7), counted by kind only: no
 * path, pid or option becomes a label; a record without objects writes
 * no such family (its metrics are as they were). */
TEST(metrics_objects_by_kind_only)
{
	struct record r = { 0 };
	struct metrics_snapshot m = { 0 };
	char err[512], path[4096];
	FILE *f;
	char *t;

	snprintf(path, sizeof(path), "%s", fixture("objects.jsonl"));
	f = fopen(path, "r");
	ASSERT_TRUE(f != NULL);
	if (!f)
		return;
	ASSERT_EQ(recfile_read(f, path, &r, err, sizeof(err)), 0);
	fclose(f);
	metrics_from_record(&r, NULL, MATCH_SYSCALL, false, &m);
	t = metrics_text(&m, NULL);
	ASSERT_TRUE(strstr(t, "capaudit_check_objects_total{kind=\"file\"} 7\n") != NULL);
	ASSERT_TRUE(strstr(t, "capaudit_check_objects_total{kind=\"process\"} 1\n") != NULL);
	ASSERT_TRUE(strstr(t, "capaudit_check_objects_total{kind=\"sockopt\"} 1\n") != NULL);
	ASSERT_TRUE(strstr(t, "capaudit_check_objects_total{kind=\"unlisted\"} 2\n") != NULL);
	ASSERT_TRUE(strstr(t, "/srv/") == NULL && strstr(t, "4242") == NULL);
	free(t);
	metrics_snapshot_free(&m);
	record_free(&r);

	memset(&r, 0, sizeof(r));
	memset(&m, 0, sizeof(m));
	snprintf(path, sizeof(path), "%s", fixture("emit-setuid-ping.jsonl"));
	f = fopen(path, "r");
	ASSERT_TRUE(f != NULL);
	if (!f)
		return;
	ASSERT_EQ(recfile_read(f, path, &r, err, sizeof(err)), 0);
	fclose(f);
	metrics_from_record(&r, NULL, MATCH_SYSCALL, false, &m);
	t = metrics_text(&m, NULL);
	ASSERT_TRUE(strstr(t, "capaudit_check_objects_total") == NULL);
	free(t);
	metrics_snapshot_free(&m);
	record_free(&r);
}
