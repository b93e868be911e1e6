// SPDX-License-Identifier: GPL-2.0
#include "record/launch.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyze/views.h"
#include "facts/capnames.h"
#include "lib/util.h"
#include "record/service.h"

bool launch_privileged(const struct privs *p, bool set_user)
{
	uint64_t need = CAP_BIT(CAP_SETPCAP) |
			(set_user ? CAP_BIT(CAP_SETUID) | CAP_BIT(CAP_SETGID) : 0);

	return (p->prm & need) == need;
}

int parse_capset(const char *s, uint64_t *mask, char *bad, size_t badlen)
{
	char n[CAP_NAME_LEN];
	int c;

	*mask = 0;
	if (s && !strcasecmp(s, "none"))
		return 0;
	if (cap_list_parse(s ? s : "", mask, bad, badlen))
		return -1;
	/* the set is applied to this kernel: it must know each one */
	for_each_cap(c, *mask) {
		if (!CAP_IS_SUPPORTED(c)) {
			snprintf(bad, badlen, "%s", cap_name(c, n));
			return -1;
		}
	}
	return 0;
}

int launch_resolve_user(const char *name, struct launch *l)
{
	uint32_t id;
	bool numeric = parse_u32(name, &id) == 0;
	struct passwd *pw;

	pw = numeric ? getpwuid((uid_t)id) : getpwnam(name);
	if (!pw && numeric) {
		/* a number with no passwd entry (containers, initramfs, a
		 * static build without NSS): that uid, gid = uid, no groups */
		l->set_user = true;
		l->uid = l->gid = id;
		l->user = NULL;
		return 0;
	}
	if (!pw)
		return -1;
	l->set_user = true;
	l->uid = pw->pw_uid;
	l->gid = pw->pw_gid;
	snprintf(l->user_buf, sizeof(l->user_buf), "%s", pw->pw_name);
	snprintf(l->home_buf, sizeof(l->home_buf), "%s", pw->pw_dir);
	l->user = l->user_buf;
	l->home = l->home_buf;
	return 0;
}

void launch_user_env(const struct launch *l)
{
	char uid[16];

	if (!l->set_user)
		return;
	snprintf(uid, sizeof(uid), "%u", (unsigned)l->uid);
	setenv("HOME", l->home && *l->home ? l->home : "/", 1);
	setenv("USER", l->user ? l->user : uid, 1);
	setenv("LOGNAME", l->user ? l->user : uid, 1);
	/* login.defs' ENV_SUPATH and ENV_PATH on Debian */
	if (!l->keep_path)
		setenv("PATH", l->uid == 0 ?
		       "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" :
		       "/usr/local/bin:/usr/bin:/bin", 1);
}

int launch_raise_effective(void)
{
	cap_t c = cap_get_proc();
	cap_value_t v;
	cap_flag_value_t f;
	int rc;

	if (!c)
		return -1;
	for (v = 0; v < (cap_value_t)cap_max_bits(); v++) {
		cap_get_flag(c, v, CAP_PERMITTED, &f);
		cap_set_flag(c, CAP_EFFECTIVE, 1, &v, f);
	}
	rc = cap_set_proc(c);
	cap_free(c);
	return rc;
}

int launch_apply(const struct launch *l, const char **stage)
{
	cap_value_t v, max = (cap_value_t)cap_max_bits();
	cap_iab_t iab;
	cap_t c;

	if (l->service)
		return service_apply(l->service, stage);
	*stage = "raising effective capabilities";
	if (launch_raise_effective())
		return -1;
	/* (CAP_SYS_ADMIN: a caller without it runs the command without; the
	 * subreaper still finds what moves out) */
	if (l->cgroupns)
		(void)unshare(CLONE_NEWCGROUP);
	if (l->set_user) {
		*stage = "changing groups";
		if ((l->user ? initgroups(l->user, l->gid) : setgroups(0, NULL)) ||
		    setresgid(l->gid, l->gid, l->gid))
			return -1;
		/* keep the permitted set across the uid change, then re-raise */
		*stage = "changing user";
		if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) ||
		    setresuid(l->uid, l->uid, l->uid) || launch_raise_effective())
			return -1;
	}
	if (!l->set_caps)
		return 0;
	/* bounding (dropped bits), inheritable and ambient in one step */
	*stage = "setting bounding, inheritable and ambient sets";
	iab = cap_iab_init();
	if (!iab)
		return -1;
	for (v = 0; v < max; v++) {
		bool in = capset_has(l->caps, v);

		if (cap_iab_set_vector(iab, CAP_IAB_INH, v, in ? CAP_SET : CAP_CLEAR) ||
		    cap_iab_set_vector(iab, CAP_IAB_AMB, v, in ? CAP_SET : CAP_CLEAR) ||
		    cap_iab_set_vector(iab, CAP_IAB_BOUND, v, in ? CAP_CLEAR : CAP_SET)) {
			cap_free(iab);
			return -1;
		}
	}
	if (cap_iab_set_proc(iab)) {
		cap_free(iab);
		return -1;
	}
	cap_free(iab);
	/* permitted and effective last: they may only shrink */
	*stage = "setting permitted and effective sets";
	c = cap_init();
	for_each_cap(v, l->caps) {
		if (v >= max)
			break;
		cap_set_flag(c, CAP_PERMITTED, 1, &v, CAP_SET);
		cap_set_flag(c, CAP_EFFECTIVE, 1, &v, CAP_SET);
		cap_set_flag(c, CAP_INHERITABLE, 1, &v, CAP_SET);
	}
	if (cap_set_proc(c)) {
		cap_free(c);
		return -1;
	}
	cap_free(c);
	if (!l->set_user)
		return 0;
	/* the ambient set was raised while permitted still held it */
	return prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
}

int run_check(const char *test)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execl("/bin/sh", "sh", "-c", test, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
