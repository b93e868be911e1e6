/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a capability check was about (issue 44): the file, process, socket
 * option, netlink message ... that the syscall in progress named, read
 * from its arguments. Included by capaudit.bpf.c, whose on_check() calls
 * capture_object() only where a check's key was looked up in the
 * aggregation map (a cache miss), never on a cache hit: the hot path
 * does not change. A key keeps the fingerprints of its first CA_OBJ_KEEP
 * objects in its struct ca_val; each new one is sent once, as a
 * CA_EV_OBJECT event carrying the key, and once the list is full the
 * hook reads nothing more for that key (obj_more counts those checks).
 * docs/kernel-facts.md "Objects" names the kernel sources read here.
 *
 * capture_object() and send_object() are global (verified once, not once
 * per calling path of every program), called one after the other from
 * on_check() (never nested: on_check()'s frame leaves little of the 512
 * bytes), and keep their frames small: the event is built in a per-CPU
 * scratch map, the path walk's buffer too.
 */

#define AT_FDCWD          -100       /* include/uapi/linux/fcntl.h */
#define CA_S_IFMT         0170000
#define CA_S_IFSOCK       0140000
#define CA_AF_INET        2
#define CA_AF_INET6       10
#define CA_AF_NETLINK     16
#define CA_NETLINK_NETFILTER 12      /* include/uapi/linux/netlink.h */
#define CA_NFNL_MSG_BATCH_BEGIN 16   /* NLMSG_MIN_TYPE, include/uapi/linux/netfilter/nfnetlink.h */
#define CA_BPF_MAP_CREATE 0          /* include/uapi/linux/bpf.h */
#define CA_BPF_PROG_LOAD  5

/* The loader's table: how syscall nr names its object (enum ca_obj_how). */
const volatile __u8 obj_how[CA_OP_SYS_MAX];
/* Syscall nr names an object. The index is masked, not only compared:
 * the compiler may reload nr from another spill slot than the one it
 * compared, which 5.10 and 6.1's verifiers then take as unbounded. */
static __always_inline bool has_object(__s32 nr)
{
	__u32 i = (__u32)nr;

	if (nr < 0 || nr >= CA_OP_SYS_MAX)
		return false;
	/* an empty asm: the compiler no longer knows i's range, so the mask
	 * stays, next to the load that needs it */
	asm volatile("" : "=r"(i) : "0"(i));
	return obj_how[i & (CA_OP_SYS_MAX - 1)];
}

/* A cache hit that walks its stack looks at its object only among its
 * slot's first few hits: enough to see the others a reused buffer names
 * (CA_OBJ_KEEP are kept), without reading the same one 64 times. */
#define CA_OBJ_HIT_LOOKS 8

/* The recorder's mount namespace (its inode number; 0: not known). */
const volatile __u32 self_mntns = 0;

struct obj_scratch {
	/* a path walk capture_object() leaves to send_object(): each runs
	 * in its own frame beside on_check()'s (512 bytes for all nested) */
	__u64 walk_dentry, walk_mnt;
	__u32 walk_into;     /* 1: into ev.path, 0: into ev.base */
	__u32 ready;         /* ev holds an object to send */
	/* the bytes of ev.path, ev.base and ev.name in use (with the NUL):
	 * the fingerprint hashes those words only */
	__u32 path_len, base_len, name_len, pad;
	struct ca_obj_event ev;
	/* a path walk builds its string backwards from the middle; twice
	 * CA_PATH_LEN so that every masked offset plus length stays inside */
	char walk[2 * CA_PATH_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct obj_scratch);
} obj_buf SEC(".maps");

/*
 * The path of (dentry, vfsmount) (b->walk_*) into the event's path
 * (walk_into) or base: d_parent up to the mount's root, then the mount's mountpoint in
 * its parent mount (struct mount, fs/mount.h), to the root of the mount
 * namespace, at most CA_PATH_DEPTH steps (fs/d_path.c prepend_path() does
 * the same walk under locks; this one reads without them, so a rename
 * meanwhile may show an old name). Returns CA_OBJF_BASE_CUT when the
 * string is not the whole path.
 */
static __always_inline int walk_path(struct obj_scratch *b)
{
	__u32 pos = CA_PATH_LEN - 1, len, i, n;
	struct dentry *d = (struct dentry *)b->walk_dentry, *parent, *mroot;
	struct vfsmount *vm = (struct vfsmount *)b->walk_mnt;
	struct mount *m, *mp;
	const unsigned char *name;
	int cut = CA_OBJF_BASE_CUT;

	if (!d || !vm)
		return CA_OBJF_BASE_CUT;
	m = (struct mount *)(b->walk_mnt - bpf_core_field_offset(struct mount, mnt));
	mroot = BPF_CORE_READ(vm, mnt_root);
	b->walk[CA_PATH_LEN - 1] = '\0';
	for (i = 0; i < CA_PATH_DEPTH; i++) {
		if (d == mroot) {
			mp = BPF_CORE_READ(m, mnt_parent);
			if (mp == m || !mp) {
				cut = 0;   /* the root of the namespace: whole */
				break;
			}
			d = BPF_CORE_READ(m, mnt_mountpoint);
			m = mp;
			mroot = BPF_CORE_READ(m, mnt.mnt_root);
			continue;
		}
		parent = BPF_CORE_READ(d, d_parent);
		if (!parent || parent == d)
			break;     /* a file system's root that is no mount's: unreachable */
		len = BPF_CORE_READ(d, d_name.len);
		name = BPF_CORE_READ(d, d_name.name);
		if (len + 1 > pos)
			break;     /* longer than CA_PATH_LEN */
		pos -= len;
		bpf_probe_read_kernel(&b->walk[pos & (CA_PATH_LEN - 1)], len & (CA_PATH_LEN - 1),
				      name);
		pos -= 1;
		b->walk[pos & (CA_PATH_LEN - 1)] = '/';
		d = parent;
	}
	if (pos == CA_PATH_LEN - 1) {
		pos -= 1;  /* the root itself */
		b->walk[pos & (CA_PATH_LEN - 1)] = '/';
	}
	n = CA_PATH_LEN - (pos & (CA_PATH_LEN - 1));
	if (n > CA_PATH_LEN)
		n = CA_PATH_LEN;
	if (b->walk_into) {
		bpf_probe_read_kernel(b->ev.path, n, &b->walk[pos & (CA_PATH_LEN - 1)]);
		b->path_len = n;
	} else {
		bpf_probe_read_kernel(b->ev.base, n, &b->walk[pos & (CA_PATH_LEN - 1)]);
		b->base_len = n;
	}
	return cut;
}

/* The path of (d, mnt) is walked by send_object() (into the event's path,
 * or its base). */
static __always_inline void walk_later(struct obj_scratch *b, struct dentry *d,
				       struct vfsmount *mnt, __u32 into_path)
{
	b->walk_dentry = (__u64)d;
	b->walk_mnt = (__u64)mnt;
	b->walk_into = into_path;
}

/* The owner and mode of file f's inode, into the event. */
static __always_inline void obj_inode(struct obj_scratch *b, struct file *f)
{
	struct inode *ino = BPF_CORE_READ(f, f_inode);

	b->ev.uid = BPF_CORE_READ(ino, i_uid.val);
	b->ev.gid = BPF_CORE_READ(ino, i_gid.val);
	b->ev.mode = BPF_CORE_READ(ino, i_mode);
	b->ev.oflags |= CA_OBJF_INODE;
}

/* The netlink message at buf (len bytes) sent on sk: its protocol and the
 * type of its first message; an nfnetlink batch's begin is skipped for
 * the message after it (net/netfilter/nfnetlink.c nfnetlink_rcv_batch()). */
static __always_inline void obj_netlink(struct obj_scratch *b, struct sock *sk, __u64 buf,
					__u64 len)
{
	struct { __u32 len; __u16 type, flags; } h;
	__u32 step;

	b->ev.kind = CA_OBJ_NETLINK;
	b->ev.detail = BPF_CORE_READ(sk, sk_protocol);
	if (!buf || bpf_probe_read_user(&h, sizeof(h), (void *)buf))
		return;
	if (b->ev.detail == CA_NETLINK_NETFILTER && h.type == CA_NFNL_MSG_BATCH_BEGIN) {
		step = (h.len + 3) & ~3U;   /* NLMSG_ALIGN */
		if (step < 16 || step >= len ||
		    bpf_probe_read_user(&h, sizeof(h), (void *)(buf + step)))
			return;
	}
	b->ev.num = h.type;
}

/* fd's object: a socket (a netlink one with its message at buf), or a
 * file with its path and inode. */
static __always_inline int obj_fd(struct obj_scratch *b, struct task_struct *task, int fd,
				  __u64 buf, __u64 len)
{
	struct file *f = fd_file(task, fd);
	struct socket *sock;
	struct sock *sk;

	if (!f)
		return -1;
	if ((BPF_CORE_READ(f, f_inode, i_mode) & CA_S_IFMT) == CA_S_IFSOCK) {
		sock = BPF_CORE_READ(f, private_data);
		sk = BPF_CORE_READ(sock, sk);
		if (!sk)
			return -1;
		if (BPF_CORE_READ(sk, __sk_common.skc_family) == CA_AF_NETLINK) {
			obj_netlink(b, sk, buf, len);
			return 0;
		}
		b->ev.kind = CA_OBJ_SOCKET;
		b->ev.detail = BPF_CORE_READ(sk, __sk_common.skc_family);
		b->ev.sub = BPF_CORE_READ(sk, sk_type);
		b->ev.num = BPF_CORE_READ(sk, sk_protocol);
		return 0;
	}
	b->ev.kind = CA_OBJ_FILE;
	obj_inode(b, f);
	walk_later(b, BPF_CORE_READ(f, f_path.dentry), BPF_CORE_READ(f, f_path.mnt), 1);
	return 0;
}

/* A path the syscall named in user memory at upath, relative to dirfd
 * (AT_FDCWD: the cwd) when it does not start with '/': the directory's
 * path goes into base. A NULL upath names dirfd's own file (utimensat). */
static __always_inline int obj_user_path(struct obj_scratch *b, struct task_struct *task,
					 int dirfd, __u64 upath)
{
	struct file *df;
	long n;

	if (!upath)
		return dirfd == AT_FDCWD ? -1 : obj_fd(b, task, dirfd, 0, 0);
	b->ev.kind = CA_OBJ_FILE;
	if (BPF_CORE_READ(task, nsproxy, mnt_ns, ns.inum) != self_mntns)
		b->ev.oflags |= CA_OBJF_MNTNS;
	n = bpf_probe_read_user_str(b->ev.path, CA_PATH_LEN, (void *)upath);
	if (n <= 0)
		return -1;
	b->path_len = (__u32)n;
	if (n >= CA_PATH_LEN)
		b->ev.oflags |= CA_OBJF_PATH_CUT;
	if (b->ev.path[0] == '/')
		return 0;
	b->ev.oflags |= CA_OBJF_REL;
	if (dirfd == AT_FDCWD) {
		walk_later(b, BPF_CORE_READ(task, fs, pwd.dentry), BPF_CORE_READ(task, fs, pwd.mnt),
			   0);
		return 0;
	}
	df = fd_file(task, dirfd);
	if (!df) {
		b->ev.oflags |= CA_OBJF_NOBASE;
		return 0;
	}
	walk_later(b, BPF_CORE_READ(df, f_path.dentry), BPF_CORE_READ(df, f_path.mnt), 0);
	return 0;
}

/* A process named by pid; 0 or less (itself, a process group) is none. */
static __always_inline int obj_pid(struct obj_scratch *b, struct task_struct *task, __s32 pid)
{
	if (pid <= 0)
		return -1;
	b->ev.kind = CA_OBJ_PROCESS;
	b->ev.pid = pid;
	/* the recorder reads /proc/PID: only the initial namespace's pids
	 * are its own (include/linux/pid.h struct pid's level) */
	if (BPF_CORE_READ(task, thread_pid, level))
		b->ev.oflags |= CA_OBJF_PIDNS;
	return 0;
}

/* The object of syscall nr with arguments a0..a2 into b->ev; <0: none. */
static __always_inline int read_object(struct obj_scratch *b, struct task_struct *task, __u8 how,
				       __u64 a0, __u64 a1, __u64 a2)
{
	__u64 iov[2], w = 0;
	struct { __u16 family; __u16 port; } sa;

	switch (how) {
	case CA_OH_PATH0:
		return obj_user_path(b, task, AT_FDCWD, a0);
	case CA_OH_PATH1:
		return obj_user_path(b, task, AT_FDCWD, a1);
	case CA_OH_AT0_PATH1:
		return obj_user_path(b, task, (int)a0, a1);
	case CA_OH_AT1_PATH2:
		return obj_user_path(b, task, (int)a1, a2);
	case CA_OH_FD0:
		return obj_fd(b, task, (int)a0, a1, a2);
	case CA_OH_WRITEV:
		if (bpf_probe_read_user(iov, sizeof(iov), (void *)a1))
			iov[0] = iov[1] = 0;
		return obj_fd(b, task, (int)a0, iov[0], iov[1]);
	case CA_OH_SENDMSG:
		/* struct user_msghdr: msg_iov at 16 on a 64-bit kernel */
		if (bpf_probe_read_user(&w, sizeof(w), (void *)(a1 + 16)) ||
		    bpf_probe_read_user(iov, sizeof(iov), (void *)w))
			iov[0] = iov[1] = 0;
		return obj_fd(b, task, (int)a0, iov[0], iov[1]);
	case CA_OH_IOCTL:
		obj_fd(b, task, (int)a0, 0, 0);
		b->ev.kind = CA_OBJ_IOCTL;
		b->ev.num = (__u32)a1;
		return 0;
	case CA_OH_PID0:
		return obj_pid(b, task, (__s32)a0);
	case CA_OH_PID1:
		return obj_pid(b, task, (__s32)a1);
	case CA_OH_PRIO:
		return a0 == 0 ? obj_pid(b, task, (__s32)a1) : -1;
	case CA_OH_IOPRIO:
		return a0 == 1 ? obj_pid(b, task, (__s32)a1) : -1;
	case CA_OH_SOCKOPT:
		b->ev.kind = CA_OBJ_SOCKOPT;
		b->ev.detail = (__u32)a1;
		b->ev.num = (__u32)a2;
		return 0;
	case CA_OH_SOCKET:
		b->ev.kind = CA_OBJ_SOCKET;
		b->ev.detail = (__u32)a0;
		b->ev.sub = (__u32)a1 & 0xf;   /* without SOCK_NONBLOCK, SOCK_CLOEXEC */
		b->ev.num = (__u32)a2;
		return 0;
	case CA_OH_BIND:
		b->ev.kind = CA_OBJ_BIND;
		if (bpf_probe_read_user(&sa, sizeof(sa), (void *)a1))
			return 0;
		b->ev.detail = sa.family;
		if (sa.family == CA_AF_INET || sa.family == CA_AF_INET6)
			b->ev.num = (__u16)(sa.port >> 8 | sa.port << 8);   /* network order */
		return 0;
	case CA_OH_BPF:
		b->ev.kind = CA_OBJ_BPF;
		b->ev.num = (__u32)a0;
		/* union bpf_attr: map_type and prog_type are its first word */
		if ((a0 == CA_BPF_PROG_LOAD || a0 == CA_BPF_MAP_CREATE) &&
		    !bpf_probe_read_user(&w, 4, (void *)a1))
			b->ev.detail = (__u32)w;
		return 0;
	case CA_OH_MOUNT:
		obj_user_path(b, task, AT_FDCWD, a1);
		b->ev.kind = CA_OBJ_MOUNT;
		if (a2) {
			long m = bpf_probe_read_user_str(b->ev.name, sizeof(b->ev.name), (void *)a2);

			b->name_len = m > 0 ? (__u32)m : 0;
		}
		return 0;
	case CA_OH_UMOUNT:
		obj_user_path(b, task, AT_FDCWD, a0);
		b->ev.kind = CA_OBJ_MOUNT;
		return 0;
	case CA_OH_CLONE:
	case CA_OH_UNSHARE:
	case CA_OH_CLONE3:
		b->ev.kind = CA_OBJ_FLAGS;
		b->ev.detail = how == CA_OH_UNSHARE ? CA_FLAGS_UNSHARE :
			       how == CA_OH_CLONE3 ? CA_FLAGS_CLONE3 : CA_FLAGS_CLONE;
		if (how == CA_OH_CLONE3 && bpf_probe_read_user(&w, sizeof(w), (void *)a0))
			return -1;
		b->ev.num = (__s64)(how == CA_OH_CLONE3 ? w : a0);
		return 0;
	case CA_OH_PRCTL:
		b->ev.kind = CA_OBJ_FLAGS;
		b->ev.detail = CA_FLAGS_PRCTL;
		b->ev.num = (__u32)a0;
		return 0;
	}
	return -1;
}

/* A fingerprint of the object read: its kind, numbers and the words of
 * its strings in use (the rest of each is zero-filled, and the lengths
 * are hashed too). */
static __always_inline __u64 obj_fingerprint(struct obj_scratch *b)
{
	const __u64 *w;
	__u64 h = 0x84222325cbf29ce4ULL;
	__u32 i;

	h = mix64(h, (__u64)b->ev.kind << 32 | b->ev.sub);
	h = mix64(h, (__u64)b->ev.num);
	h = mix64(h, (__u64)b->ev.detail);
	h = mix64(h, (__u64)(__u32)b->ev.pid << 32 | (b->ev.oflags & CA_OBJF_REL));
	h = mix64(h, (__u64)b->path_len << 32 | b->base_len << 16 | b->name_len);
	w = (const __u64 *)b->ev.path;
	for (i = 0; i < CA_PATH_LEN / 8; i++) {
		if (i * 8 >= b->path_len)
			break;
		h = mix64(h, w[i]);
	}
	w = (const __u64 *)b->ev.base;
	for (i = 0; i < CA_PATH_LEN / 8; i++) {
		if (i * 8 >= b->base_len)
			break;
		h = mix64(h, w[i]);
	}
	w = (const __u64 *)b->ev.name;
	for (i = 0; i < CA_OBJ_NAME_LEN / 8; i++) {
		if (i * 8 >= b->name_len)
			break;
		h = mix64(h, w[i]);
	}
	return h | 1;  /* 0 marks a free slot */
}

/*
 * The check just attributed to cache slot idx of this CPU's cache (its key)
 * made syscall nr with arguments a0..a2: when the key's list of objects
 * is not full, read the object into the scratch (send_object() then
 * counts and sends it); else count the check in obj_more. 1: an object
 * was read.
 */
__noinline int capture_object(__u32 idx, __s32 nr, __u64 a0, __u64 a1, __u64 a2)
{
	__u32 zero = 0;
	struct ca_cache *c = bpf_map_lookup_elem(&cache, &zero);
	struct obj_scratch *b = bpf_map_lookup_elem(&obj_buf, &zero);
	void *agg = cur_agg();
	struct ca_val *v;
	__u8 how;

	if (!c || !b || !agg || idx >= CA_CACHE_SLOTS || nr < 0 || nr >= CA_OP_SYS_MAX)
		return 0;
	b->ready = 0;
	how = obj_how[(__u32)nr & (CA_OP_SYS_MAX - 1)];
	if (how == CA_OH_NONE)
		return 0;
	v = bpf_map_lookup_elem(agg, &c->slots[idx].key);
	if (!v)
		return 0;
	if (v->obj_fp[CA_OBJ_KEEP - 1]) {
		__sync_fetch_and_add(&v->obj_more, 1);
		return 0;
	}
	__builtin_memset(&b->ev, 0, sizeof(b->ev));
	b->ev.num = -1;
	b->ev.detail = -1;
	b->walk_dentry = 0;
	b->path_len = b->base_len = b->name_len = 0;
	if (read_object(b, (struct task_struct *)bpf_get_current_task(), how, a0, a1, a2) < 0 ||
	    !b->ev.kind)
		return 0;
	b->ready = 1;
	return 1;
}

/*
 * The object capture_object() read for slot idx's key: its path walked
 * (when it left one), counted under its fingerprint, and sent when new.
 */
__noinline int send_object(__u32 idx)
{
	__u32 zero = 0, i;
	struct ca_cache *c = bpf_map_lookup_elem(&cache, &zero);
	struct obj_scratch *b = bpf_map_lookup_elem(&obj_buf, &zero);
	void *agg = cur_agg();
	struct ca_val *v;
	__u64 fp;

	if (!c || !b || !agg || idx >= CA_CACHE_SLOTS || !b->ready)
		return 0;
	b->ready = 0;
	if (b->walk_dentry)
		b->ev.oflags |= walk_path(b);
	v = bpf_map_lookup_elem(agg, &c->slots[idx].key);
	if (!v)
		return 0;
	fp = obj_fingerprint(b);
	for (i = 0; i < CA_OBJ_KEEP; i++) {
		if (v->obj_fp[i] == fp) {
			__sync_fetch_and_add(&v->obj_count[i], 1);
			return 0;
		}
		if (!v->obj_fp[i]) {
			/* another CPU may take the same free slot meanwhile: then
			 * one of the two objects is sent but not counted (the
			 * recorder counts it once) */
			v->obj_fp[i] = fp;
			v->obj_count[i] = 1;
			break;
		}
	}
	if (i == CA_OBJ_KEEP) {
		__sync_fetch_and_add(&v->obj_more, 1);   /* filled meanwhile */
		return 0;
	}
	b->ev.type = CA_EV_OBJECT;
	b->ev.key = c->slots[idx].key;
	b->ev.fp = fp;
	if (bpf_ringbuf_output(&events, &b->ev, sizeof(b->ev), rb_wake()))
		stat_add(CA_STAT_RINGBUF_FULL, 1);
	return 0;
}
