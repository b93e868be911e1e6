// SPDX-License-Identifier: GPL-2.0
/*
 * The syscalls whose object the hook reads, and where their arguments
 * hold it (docs/kernel-facts.md "Objects"). Numbers from <sys/syscall.h>
 * of this build's architecture; a syscall the architecture lacks (arm64
 * has no open, chmod, ...: only their *at forms) is left out by #ifdef.
 * execve and execveat are left out on purpose: their checks come after
 * the old program's memory, where the path was, is gone.
 */
#include "tracer/objhow.h"

#include <string.h>
#include <sys/syscall.h>

#include <linux/types.h>

#include "capaudit.h"

struct how_row {
	long nr;
	uint8_t how;
};

#define ROW(name, how) { SYS_##name, CA_OH_##how }

static const struct how_row rows[] = {
	/* a path, from the cwd */
#ifdef SYS_open
	ROW(open, PATH0), ROW(creat, PATH0), ROW(chmod, PATH0), ROW(chown, PATH0),
	ROW(lchown, PATH0), ROW(utime, PATH0), ROW(utimes, PATH0), ROW(mkdir, PATH0),
	ROW(mknod, PATH0), ROW(unlink, PATH0), ROW(rmdir, PATH0), ROW(rename, PATH0),
	ROW(link, PATH0), ROW(symlink, PATH1), ROW(access, PATH0), ROW(futimesat, AT0_PATH1),
#endif
	ROW(truncate, PATH0), ROW(chdir, PATH0), ROW(chroot, PATH0), ROW(pivot_root, PATH0),
	ROW(setxattr, PATH0), ROW(lsetxattr, PATH0), ROW(removexattr, PATH0),
	ROW(lremovexattr, PATH0), ROW(acct, PATH0), ROW(swapon, PATH0), ROW(swapoff, PATH0),
	/* a path from a directory fd */
	ROW(openat, AT0_PATH1), ROW(fchmodat, AT0_PATH1), ROW(fchownat, AT0_PATH1),
	ROW(utimensat, AT0_PATH1), ROW(mkdirat, AT0_PATH1), ROW(mknodat, AT0_PATH1),
	ROW(unlinkat, AT0_PATH1), ROW(renameat2, AT0_PATH1), ROW(linkat, AT0_PATH1),
	ROW(symlinkat, AT1_PATH2), ROW(faccessat, AT0_PATH1), ROW(name_to_handle_at, AT0_PATH1),
#ifdef SYS_renameat
	ROW(renameat, AT0_PATH1),
#endif
	{ 437, CA_OH_AT0_PATH1 },   /* openat2, Linux 5.6: the same number everywhere */
	{ 439, CA_OH_AT0_PATH1 },   /* faccessat2, 5.8 */
	{ 452, CA_OH_AT0_PATH1 },   /* fchmodat2, 6.6 */
	/* an fd: its file or socket */
	ROW(fchmod, FD0), ROW(fchown, FD0), ROW(ftruncate, FD0), ROW(fallocate, FD0),
	ROW(fsetxattr, FD0), ROW(fremovexattr, FD0), ROW(fchdir, FD0), ROW(write, FD0),
	ROW(pwrite64, FD0), ROW(sendto, FD0), ROW(open_by_handle_at, FD0), ROW(flock, FD0),
	ROW(fcntl, FD0), ROW(writev, WRITEV), ROW(sendmsg, SENDMSG), ROW(ioctl, IOCTL),
	/* a process */
	ROW(kill, PID0), ROW(tkill, PID0), ROW(tgkill, PID0), ROW(rt_sigqueueinfo, PID0),
	ROW(rt_tgsigqueueinfo, PID0), ROW(ptrace, PID1), ROW(sched_setscheduler, PID0),
	ROW(sched_setparam, PID0), ROW(sched_setaffinity, PID0), ROW(sched_setattr, PID0),
	ROW(setpriority, PRIO), ROW(ioprio_set, IOPRIO), ROW(prlimit64, PID0),
	ROW(migrate_pages, PID0), ROW(move_pages, PID0), ROW(process_vm_readv, PID0),
	ROW(process_vm_writev, PID0), ROW(kcmp, PID0),
	{ 434, CA_OH_PID0 },        /* pidfd_open, 5.3 */
	/* sockets */
	ROW(setsockopt, SOCKOPT), ROW(getsockopt, SOCKOPT), ROW(socket, SOCKET),
	ROW(bind, BIND),
	/* the rest */
	ROW(bpf, BPF), ROW(mount, MOUNT), ROW(umount2, UMOUNT), ROW(clone, CLONE),
	ROW(unshare, UNSHARE), ROW(prctl, PRCTL),
	{ 435, CA_OH_CLONE3 },      /* clone3, 5.3 */
};

void objhow_fill(uint8_t *how, size_t n)
{
	size_t i;

	memset(how, 0, n);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].nr >= 0 && (size_t)rows[i].nr < n)
			how[rows[i].nr] = rows[i].how;
}
