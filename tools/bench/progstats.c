// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_stats for the bench (progstats.h). Turned on through BPF_ENABLE_STATS
 * where the kernel has it (5.8+): the kernel keeps the accounting on while
 * the returned fd is open and drops it when this process ends, however it
 * ends, without touching the kernel.bpf_stats_enabled setting (both hold
 * the same counted switch: kernel/bpf/syscall.c bpf_enable_runtime_stats()
 * and bpf_stats_handler()). Older kernels: the setting itself, its old
 * value put back at exit and on SIGINT/SIGTERM.
 */
#include <bpf/bpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progstats.h"

#define SYSCTL "/proc/sys/kernel/bpf_stats_enabled"

static int stats_fd = -1;
static char old_value[8];   /* the setting before (fallback only); "" when not changed */

static void put_back(void)
{
	int fd;

	if (!old_value[0])
		return;
	/* plain system calls: this also runs in a signal handler */
	fd = open(SYSCTL, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, old_value, strlen(old_value)) < 0) {
			/* nothing more to try */
		}
		close(fd);
	}
	old_value[0] = '\0';
}

static void on_signal(int sig)
{
	put_back();
	signal(sig, SIG_DFL);
	raise(sig);
}

int progstats_on(char *how, size_t len)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int fd;
	ssize_t n;

	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd >= 0) {
		snprintf(how, len, "BPF_ENABLE_STATS");
		return 0;
	}
	fd = open(SYSCTL, O_RDWR);
	if (fd < 0) {
		snprintf(how, len, "no BPF_ENABLE_STATS nor %s: %s", SYSCTL, strerror(errno));
		return -1;
	}
	n = read(fd, old_value, sizeof(old_value) - 1);
	old_value[n > 0 ? n : 0] = '\0';
	old_value[strcspn(old_value, "\n")] = '\0';
	if (!old_value[0] || !strcmp(old_value, "1")) {
		old_value[0] = '\0';   /* already on: nothing to put back */
		close(fd);
		snprintf(how, len, "kernel.bpf_stats_enabled (was on)");
		return 0;
	}
	atexit(put_back);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (pwrite(fd, "1", 1, 0) != 1) {
		snprintf(how, len, "%s: %s", SYSCTL, strerror(errno));
		old_value[0] = '\0';
		close(fd);
		return -1;
	}
	close(fd);
	snprintf(how, len, "kernel.bpf_stats_enabled (was %s, put back at exit)", old_value);
	return 0;
}

void progstats_off(void)
{
	if (stats_fd >= 0)
		close(stats_fd);
	stats_fd = -1;
	put_back();
}

int progset_add_fd(struct progset *s, int fd)
{
	int d;

	if (s->n >= PROGSET_MAX || (d = fcntl(fd, F_DUPFD_CLOEXEC, 3)) < 0)
		return -1;
	s->fd[s->n++] = d;
	return 0;
}

/* The prog_id line of a BPF link's fdinfo (kernel/bpf/syscall.c
 * bpf_link_show_fdinfo()), or 0. */
static unsigned link_prog_id(pid_t pid, const char *fdname)
{
	char path[340], line[128];
	unsigned id = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", (int)pid, fdname);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "prog_id: %u", &id) == 1)
			break;
	if (f)
		fclose(f);
	return id;
}

int progset_of_pid(struct progset *s, pid_t pid)
{
	char dir[64], path[340], target[64];
	struct dirent *de;
	DIR *d;

	s->n = 0;
	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	d = opendir(dir);
	while (d && (de = readdir(d)) && s->n < PROGSET_MAX) {
		struct bpf_prog_info info;
		__u32 ilen = sizeof(info);
		unsigned id;
		ssize_t len;
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		if (strcmp(target, "anon_inode:bpf_link") || !(id = link_prog_id(pid, de->d_name)))
			continue;
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		/* names are cut at 15 characters: tp_btf_cap_capa, tp_cap_capable,
		 * fexit_cap_capab, kprobe_cap_capa, kretprobe_cap_c */
		if (!bpf_obj_get_info_by_fd(fd, &info, &ilen) && strstr(info.name, "_cap_c"))
			s->fd[s->n++] = fd;
		else
			close(fd);
	}
	if (d)
		closedir(d);
	return s->n;
}

int progset_read(const struct progset *s, struct progtime *t)
{
	int i;

	t->ns = t->cnt = 0;
	for (i = 0; i < s->n; i++) {
		struct bpf_prog_info info;
		__u32 ilen = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(s->fd[i], &info, &ilen))
			return -1;
		t->ns += info.run_time_ns;
		if (info.run_cnt > t->cnt)
			t->cnt = info.run_cnt;
	}
	return s->n ? 0 : -1;
}

void progset_close(struct progset *s)
{
	while (s->n > 0)
		close(s->fd[--s->n]);
}

double progtime_per_run(const struct progtime *before, const struct progtime *after)
{
	if (after->cnt <= before->cnt)
		return -1;
	return (double)(after->ns - before->ns) / (double)(after->cnt - before->cnt);
}
