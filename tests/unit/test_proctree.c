// SPDX-License-Identifier: GPL-2.0
/* lib/proctree.h: a subreaper finds what its children started in a
 * session of their own, stops it, and leaves what it is told to skip;
 * lib/cgroup.h: a cgroup2 mount's nsdelegate, from mountinfo. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "lib/cgroup.h"
#include "lib/proctree.h"

/* In a process of its own (a subreaper changes where every orphan of the
 * test runner would go): the exit status says which step failed. */
static int orphan_found_and_stopped(void)
{
	struct proctree_proc *p, found[4];
	size_t n, nf = 0, i;
	pid_t spare, mid;
	int pipefd[2], st;
	char c;

	if (proctree_subreaper() || pipe(pipefd))
		return 10;
	/* one child to skip, still running at the end */
	spare = fork();
	if (spare == 0) {
		pause();
		_exit(0);
	}
	/* a child that starts a grandchild in a session of its own and exits:
	 * the grandchild is an orphan, ours as its subreaper */
	mid = fork();
	if (mid == 0) {
		if (fork() == 0) {
			setsid();
			close(pipefd[0]);
			if (write(pipefd[1], "r", 1) != 1)
				_exit(1);
			pause();
			_exit(0);
		}
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &c, 1) != 1 || waitpid(mid, &st, 0) != mid)
		return 11;
	n = proctree_list(&spare, 1, &p);
	if (n != 1 || p[0].ppid != getpid() || p[0].own_exe != true)
		return 12;
	free(p);
	n = proctree_list(NULL, 0, &p);
	for (i = 0; i < n && p[i].pid != spare; i++)
		;
	free(p);
	if (n != 2 || i == n)
		return 13;
	if (proctree_kill(&spare, 1, found, 4, &nf) || nf != 1)
		return 14;
	while (waitpid(-1, &st, WNOHANG) > 0)
		;
	n = proctree_list(&spare, 1, &p);
	free(p);
	if (n != 0 || kill(spare, 0))
		return 15;   /* stopped, and the skipped one left alone */
	kill(spare, SIGKILL);
	waitpid(spare, NULL, 0);
	return 0;
}

TEST(proctree_subreaper_finds_and_stops_an_orphan_in_its_own_session)
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0)
		_exit(orphan_found_and_stopped());
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st));
	ASSERT_EQ(WEXITSTATUS(st), 0);
}

TEST(cgroup_mountinfo_line_reads_nsdelegate_from_the_super_options)
{
	char mnt[64];
	bool nsd = true;

	ASSERT_EQ(cgroup_mountinfo_line("41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - "
					"cgroup2 cgroup2 rw\n", mnt, sizeof(mnt), &nsd), 1);
	ASSERT_STR(mnt, "/sys/fs/cgroup/unified");
	ASSERT_FALSE(nsd);
	ASSERT_EQ(cgroup_mountinfo_line("35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime "
					"shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n",
					mnt, sizeof(mnt), &nsd), 1);
	ASSERT_STR(mnt, "/sys/fs/cgroup");
	ASSERT_TRUE(nsd);
	/* a v1 hierarchy, or a word that only contains it */
	ASSERT_EQ(cgroup_mountinfo_line("30 24 0:26 / /sys/fs/cgroup/cpu rw - cgroup cgroup "
					"rw,cpu\n", mnt, sizeof(mnt), &nsd), 0);
	ASSERT_EQ(cgroup_mountinfo_line("35 24 0:30 / /c rw - cgroup2 none rw,nonsdelegate\n",
					mnt, sizeof(mnt), &nsd), 1);
	ASSERT_FALSE(nsd);
}
