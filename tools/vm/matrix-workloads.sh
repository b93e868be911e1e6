#!/bin/sh
# The kernel matrix's workloads, in every attach mode (tools/vmtest.sh).
#
#   BIN=DIR OUT=DIR [MODES="auto tp_btf tracepoint fexit kprobe"] sh matrix-workloads.sh
#
# Runs as root, the same script in a qemu guest (busybox sh, BIN=/bin,
# OUT=/out) and natively on the host (the host column of the table). BIN
# holds the statically linked capaudit, set-pid and busybox. Nothing is
# judged here: every record, JSON output and exit status lands in OUT and
# the host compares them (tools/vmtest.sh), so that a guest that dies
# half-way still returns what it did.
#
# Per mode M, in OUT:
#   M.skip            capaudit's one-line reason when M cannot attach here
#   M.chown.jsonl     record -- busybox chown 65534 FILE (as root):
#                     CAP_CHOWN at setattr_prepare, exec/mmap noaudit checks
#   M.clone3.jsonl    record --syscall-results --user-stacks -- set-pid clone3
#                     (as root): CAP_CHECKPOINT_RESTORE at alloc_pid, granted,
#                     from set-pid.c's clone3 call (the same static binary
#                     everywhere, so the same source line)
#   M.nocr.jsonl      run --caps <all but CAP_CHECKPOINT_RESTORE> -- set-pid clone3:
#                     CAP_CHECKPOINT_RESTORE denied, CAP_SYS_ADMIN granted at alloc_pid
#   M.nobody.jsonl    run --caps none --user 65534 -- set-pid clone3: the
#                     denial blocks clone3 (EPERM), set-pid exits 1
#   M.ptrace.jsonl    run --caps none --user LONE_UID -- busybox ps: noaudit
#                     CAP_SYS_PTRACE probes at __ptrace_may_access
#   M.shortcut.jsonl  record -- busybox readlink /proc/ROOT-PID/cwd: ptrace
#                     access with no check (ptrace_access, CAP_SYS_PTRACE added)
#   M.loop.jsonl      record -- churn calls 300 (kernel.dmesg_restrict=1):
#                     300 CAP_SYSLOG checks at do_syslog from one call site,
#                     which the call-site cache's proofs count without
#                     walking the stack after the slot's first 64
#   M.scope.jsonl     record --cgroup /capaudit-mx-PID: busybox chown 65534 FILE
#                     in that cgroup v2 (kept) and the same outside it (not
#                     followed: the kernel's filter); stops when it empties
#   M.<name>.rc       exit status of each of those; M.<name>.err its stderr
#   foreign.report.json  report --format json of BIN/foreign.jsonl, when
#                     there is one: a record made on another machine (the
#                     host's chown), named from the architecture it was
#                     made on, whatever this one is
# and kernel.txt (uname, what the kernel offers), doctor.txt and doctor.rc
# (capaudit doctor, which must find a mode that works), capsonly-doctor.txt
# (doctor with only CAP_BPF and CAP_PERFMON, under capaudit run).
set -u
BIN=${BIN:-/bin}
OUT=${OUT:-/out}
MODES=${MODES:-"auto tp_btf tracepoint fexit kprobe"}
CA=$BIN/capaudit
BB=$BIN/busybox
TMP=$(mktemp -d "${TMPDIR:-/tmp}/matrix.XXXXXX")
RESTRICT=$(cat /proc/sys/kernel/dmesg_restrict)
# a uid with no account, which no other process has (the ptrace workload)
LONE_UID=3999999
# cgroup v2: /sys/fs/cgroup in the guests, /sys/fs/cgroup/unified on a hybrid host
V2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
# the scope's cgroup, this run's own (two matrices on one host must not
# share it); vmtest compares it without the pid
CG=capaudit-mx-$$
mkdir -p "$OUT"

# Every capability this process may hand on (its bounding set: a machine
# may lack some, this one lacks CAP_SYS_RESOURCE) but CAP_CHECKPOINT_RESTORE
# (40), by name, in number order.
NAMES="chown dac_override dac_read_search fowner fsetid kill setgid setuid setpcap
linux_immutable net_bind_service net_broadcast net_admin net_raw ipc_lock ipc_owner
sys_module sys_rawio sys_chroot sys_ptrace sys_pacct sys_admin sys_boot sys_nice
sys_resource sys_time sys_tty_config mknod lease audit_write audit_control setfcap
mac_override mac_admin syslog wake_alarm block_suspend audit_read perfmon bpf"
bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
NOCR="" i=0
for c in $NAMES; do
	[ $(( (0x$bnd >> i) & 1 )) -eq 1 ] && NOCR="$NOCR${NOCR:+,}$c"
	i=$((i + 1))
done

{
	echo "uname=$(uname -r)"
	echo "event=$([ -d /sys/kernel/tracing/events/capability/cap_capable ] && echo yes || echo no)"
	echo "kprobe_pmu=$([ -e /sys/bus/event_source/devices/kprobe/type ] && echo yes || echo no)"
	echo "btf=$([ -e /sys/kernel/btf/vmlinux ] && echo yes || echo no)"
	echo "memlock=$(ulimit -l)"
} > "$OUT/kernel.txt"

# what doctor says of this kernel (vmtest requires its exit 0), and with
# only CAP_BPF and CAP_PERFMON (file capabilities' case: before 5.11 it
# cannot raise RLIMIT_MEMLOCK, and must say so)
"$CA" doctor > "$OUT/doctor.txt" 2>&1
echo $? > "$OUT/doctor.rc"
"$CA" run -q --caps bpf,perfmon --format json -o "$OUT/capsonly.jsonl" -- "$CA" doctor \
	> "$OUT/capsonly-doctor.txt" 2>&1

# step M NAME CMD...: run CMD, keep its status and stderr
step() {
	m=$1 name=$2
	shift 2
	"$@" > "$OUT/$m.$name.out" 2> "$OUT/$m.$name.err"
	echo $? > "$OUT/$m.$name.rc"
}

if [ -f "$BIN/foreign.jsonl" ]; then
	"$CA" report --format json -i "$BIN/foreign.jsonl" > "$OUT/foreign.report.json" \
		2> "$OUT/foreign.report.err"
fi

for m in $MODES; do
	t0=$(cut -d' ' -f1 /proc/uptime)
	rm -f "$TMP/f" && touch "$TMP/f"   # owned by root again: the same chown each time
	step "$m" chown "$CA" record -q --attach "$m" -o "$OUT/$m.chown.jsonl" -- "$BB" chown 65534 "$TMP/f"
	if [ "$(cat "$OUT/$m.chown.rc")" != 0 ]; then
		# the mode cannot attach here: its reason, once; nothing else to run
		head -n 1 "$OUT/$m.chown.err" > "$OUT/$m.skip"
		continue
	fi
	step "$m" clone3 "$CA" record -q --attach "$m" --syscall-results --user-stacks \
		-o "$OUT/$m.clone3.jsonl" \
		-- "$BIN/set-pid" clone3
	step "$m" nocr "$CA" run -q --caps "$NOCR" --attach "$m" --format json \
		-o "$OUT/$m.nocr.jsonl" -- "$BIN/set-pid" clone3
	step "$m" nobody "$CA" run -q --caps none --user 65534 --attach "$m" --format json \
		-o "$OUT/$m.nobody.jsonl" -- "$BIN/set-pid" clone3
	# noaudit probes every kernel routes through security_capable(): ps
	# reading other users' /proc entries (CAP_SYS_PTRACE, __ptrace_may_access).
	# As a uid no account and no other process has: every entry ps reads is
	# then another user's, refused in __ptrace_may_access() (noaudit). A uid
	# others share (nobody, on a host where other tests run) reaches
	# cap_ptrace_access_check() for each such process whose permitted set is
	# not within ps's, an audited CAP_SYS_PTRACE check that comes and goes
	# with whatever else runs (security/commoncap.c)
	step "$m" ptrace "$CA" run -q --caps none --user "$LONE_UID" --attach "$m" --format json \
		-o "$OUT/$m.ptrace.jsonl" -- "$BB" ps
	# ptrace access to a root process that no check asks for (its set is
	# within root's): the ptrace-access hooks see /proc/PID/cwd read, and
	# the suggestion adds CAP_SYS_PTRACE (security/commoncap.c
	# cap_ptrace_access_check())
	"$BB" sleep 300 &
	sleeper=$!
	step "$m" shortcut "$CA" record -q --attach "$m" -o "$OUT/$m.shortcut.jsonl" \
		-- "$BB" readlink "/proc/$sleeper/cwd"
	kill "$sleeper"
	# one call site in a loop: counted by the cache's proofs
	echo 1 > /proc/sys/kernel/dmesg_restrict
	step "$m" loop "$CA" record -q --attach "$m" -o "$OUT/$m.loop.jsonl" -- "$BIN/churn" calls 300
	# a cgroup scope: the chown inside it, not the one outside; both wait
	# until the recorder has attached (its four BPF links: the check hook,
	# fork, exec, exit), however slow the emulated guest is (at most 60 s).
	# The one inside waits on a FIFO (a shell builtin: no process of its
	# own in the cgroup, so every mode sees the same processes there)
	if [ -n "$V2" ] && mkdir -p "$V2/$CG"; then
		rm -f "$TMP/in" "$TMP/out" "$TMP/go" "$TMP/go-out" && touch "$TMP/in" "$TMP/out"
		mkfifo "$TMP/go"
		"$BB" sh -c "echo \$\$ > $V2/$CG/cgroup.procs &&
			exec $BB sh -c 'read x < $TMP/go; $BB chown 65534 $TMP/in'" &
		( i=0; while [ ! -e "$TMP/go-out" ] && [ $i -lt 600 ]; do "$BB" sleep 0.1; i=$((i + 1)); done
		  "$BB" chown 65534 "$TMP/out" ) &
		i=0   # the cgroup has its process before the recorder looks
		while [ ! -s "$V2/$CG/cgroup.procs" ] && [ $i -lt 100 ]; do
			"$BB" sleep 0.1; i=$((i + 1))
		done
		"$CA" record -q --attach "$m" -o "$OUT/$m.scope.jsonl" --cgroup "/$CG" \
			> "$OUT/$m.scope.out" 2> "$OUT/$m.scope.err" &
		rec=$! i=0
		# a kprobe attached to a perf event is a BPF link only since 5.15
		# (bpf_perf_link_attach()): before, the three tracepoints' links
		# come after it (the recorder attaches the check hook first)
		links=4
		[ "$m" = kprobe ] && ! grep -q ' bpf_perf_link_attach$' /proc/kallsyms && links=3
		while [ "$(ls -l "/proc/$rec/fd" 2>/dev/null | grep -c bpf_link)" -lt "$links" ] &&
		      kill -0 "$rec" 2>/dev/null && [ $i -lt 600 ]; do
			"$BB" sleep 0.1; i=$((i + 1))
		done
		echo go > "$TMP/go"
		touch "$TMP/go-out"
		wait "$rec"
		echo $? > "$OUT/$m.scope.rc"
		wait
		rmdir "$V2/$CG"
	fi
	echo "$m: $t0 -> $(cut -d' ' -f1 /proc/uptime) s"
done
echo "$RESTRICT" > /proc/sys/kernel/dmesg_restrict
rm -rf "$TMP"
exit 0
