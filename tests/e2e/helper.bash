# Shared setup for the end-to-end tests: they run as root against the real
# kernel, load the real BPF program and trace real processes.

bats_require_minimum_version 1.5.0

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
CAPAUDIT=${CAPAUDIT:-$ROOT/build/capaudit}

# e2e_setup / e2e_teardown: what every test needs (root, capaudit, a
# directory $T of its own); a file with a setup() of its own calls them
e2e_setup() {
	[ "$(id -u)" -eq 0 ] || skip "end-to-end tests need root (they load BPF programs)"
	fixture_setup
}

# fixture_setup: what a test of record files alone needs (make check's
# files: no root, no kernel): capaudit and a directory $T of its own
fixture_setup() {
	[ -x "$CAPAUDIT" ] || skip "build/capaudit is not built (run make)"
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/capaudit-e2e.XXXXXX")
	chmod 755 "$T"
}

e2e_teardown() {
	[ -n "${T:-}" ] && rm -rf "$T"
	return 0
}

setup() {
	e2e_setup
}

teardown() {
	e2e_teardown
}

# start_monitor ARGS...: capaudit monitor -q -o $T/mon.jsonl ARGS in the
# background (MPID), attached when it returns
start_monitor() {
	"$CAPAUDIT" monitor -q -o "$T/mon.jsonl" "$@" 2>"$T/mon.err" &
	MPID=$!
	wait_attached "$MPID"
}

# plain_pass_only WHY: a test that runs once, in make test's plain pass
# (a soak: minutes of load that the ASan pass would only repeat, slower);
# in the ASan pass (tools/run-tests.sh sets CAPAUDIT_PASS) it is a skip
# that says why
plain_pass_only() {
	[ "${CAPAUDIT_PASS:-}" != asan ] || skip "run once, in the plain pass: $1"
}

# record ARGS...: capaudit record -q -o $T/rec.jsonl ARGS
record() {
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" "$@"
}

# report_json [ARGS...]: the JSON report of $T/rec.jsonl into $T/rep.json
report_json() {
	"$CAPAUDIT" report -i "$T/rec.jsonl" --format json "$@" >"$T/rep.json"
}

# jqr FILTER: run jq on the JSON report, raw output
jqr() {
	jq -r "$@" "$T/rep.json"
}

# The audited capabilities of the process whose comm is $1, one per line:
# "CAP granted denied site[,site...]"
caps_of() {
	jq -r --arg c "$1" '.processes[] | select(.comm == $c) | .capabilities[]
		| select(.noaudit == false)
		| "\(.cap) \(.granted) \(.denied) \([.callsites[].function] | join(","))"' "$T/rep.json"
}

# Make sure tracefs is mounted (for the classic tracepoint mode).
ensure_tracefs() {
	[ -d /sys/kernel/tracing/events ] && return 0
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
}

# The churn workload (tools/bench/churn.c): each of its calls is
# klogctl(SYSLOG_ACTION_SIZE_BUFFER), exactly one CAP_SYSLOG check when
# kernel.dmesg_restrict is 1, and it prints how many calls it made.
CHURN="$ROOT/build/churn"

# churn_setup / churn_teardown: setup and teardown for tests that run it
churn_setup() {
	e2e_setup
	[ -x "$CHURN" ] || skip "build/churn is not built (run make test)"
	host_lock dmesg_restrict
	OLD_RESTRICT=$(cat /proc/sys/kernel/dmesg_restrict)
	echo 1 >/proc/sys/kernel/dmesg_restrict
}

churn_teardown() {
	[ -n "${OLD_RESTRICT:-}" ] && echo "$OLD_RESTRICT" >/proc/sys/kernel/dmesg_restrict
	OLD_RESTRICT=
	host_unlock
	e2e_teardown
}

# host_lock NAME: hold /run/lock/capaudit-NAME.lock until host_unlock (or
# until this test's process ends). For a setting that is the whole host's,
# such as kernel.dmesg_restrict: a test that sets it and sets it back would
# otherwise set it back under another that runs beside it (make test's
# other lane, the kernel matrix's host run, a second make test), as
# tools/vmtest.sh takes the same lock. The lock is held by a process of its
# own, not by a descriptor this shell's children would inherit and keep.
host_lock() {
	local ready=${BATS_TEST_TMPDIR:-$T}/lock-$1.held
	# one lock a test (it would wait for itself)
	[ -z "${HOST_LOCK_PID:-}" ] || { echo "host_lock $1: a lock is held already" >&2; return 1; }
	rm -f "$ready"
	flock -w 1800 "/run/lock/capaudit-$1.lock" sh -c \
		': >"$1"; while kill -0 "$2" 2>/dev/null; do sleep 0.2; done' sh "$ready" "$$" &
	HOST_LOCK_PID=$!
	wait_for 450 test -e "$ready" || { echo "waited for /run/lock/capaudit-$1.lock"; return 1; }
}

host_unlock() {
	[ -n "${HOST_LOCK_PID:-}" ] || return 0
	pkill -P "$HOST_LOCK_PID" 2>/dev/null   # the holder (flock's child)
	wait "$HOST_LOCK_PID" 2>/dev/null
	HOST_LOCK_PID=
}

# WAIT_SCALE: how many times longer than on an idle machine a wait may
# take here. The bounds below are what an idle 2-core machine needs,
# times this: CAPAUDIT_WAIT_SCALE if set, else 4, and more on a loaded
# host (4 x the 1-minute load per core, read when the wait starts). A wait
# ends when its event comes: a generous bound costs only a failing test.
wait_scale() {
	if [ -n "${CAPAUDIT_WAIT_SCALE:-}" ]; then
		echo "$CAPAUDIT_WAIT_SCALE"
		return
	fi
	awk -v n="$(nproc)" '{ s = int(4 * $1 / n + 0.999); print (s > 4 ? s : 4) }' /proc/loadavg
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds; at most SECONDS
# (times wait_scale) on a slow or busy host, then it fails, saying what it
# waited for. Never a fixed sleep: every wait in these tests is for its
# event (a file, a line, a count). WAIT_STEP: how often it looks (0.05 s).
wait_for() {
	local limit=$(($1 * $(wait_scale))) start=$SECONDS
	shift
	until "$@"; do
		if [ $((SECONDS - start)) -ge "$limit" ]; then
			echo "waited ${limit} s for: $*" >&2
			return 1
		fi
		sleep "${WAIT_STEP:-0.05}"
	done
}

# attached PID: recorder PID holds its four BPF links (the check hook and
# fork, exec, exit), i.e. is attached, not only loaded
attached() {
	[ "$(ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'anon_inode:bpf_link')" -ge 4 ]
}

# wait_attached PID: until recorder PID is attached (20 s on an idle host)
wait_attached() {
	wait_for 20 attached "$1" || { echo "the recorder did not attach"; return 1; }
}

# wait_command PID NAME: until recorder PID's command runs as NAME (its
# child, exec'd): the recorder lets the command go only after it has
# attached and read the kernel's symbols, and until then the child is a
# capaudit waiting to exec
wait_command() {
	wait_for 20 pgrep -x -P "$1" "$2" >/dev/null ||
		{ echo "the command $2 of recorder $1 did not start"; return 1; }
}

# The corpus files' closed loops (corpus.bats, corpus-effects.bats).
# within A B: every member of the comma list A is in B
within() {
	local c
	for c in ${1//,/ }; do
		[[ ",$2," == *",$c,"* ]] || { echo "$c is not in {$2}"; return 1; }
	done
}

# within_power A B: A grants no more than B: each member of A is in B, or
# is one the kernel takes CAP_SYS_ADMIN for instead and B has
# CAP_SYS_ADMIN (include/linux/capability.h bpf_capable(),
# perfmon_capable(), checkpoint_restore_ns_capable())
within_power() {
	local c
	for c in ${1//,/ }; do
		[[ ",$2," == *",$c,"* ]] && continue
		[[ ",$2," == *",CAP_SYS_ADMIN,"* ]] &&
			[[ $c == CAP_BPF || $c == CAP_PERFMON || $c == CAP_CHECKPOINT_RESTORE ]] && continue
		echo "$c is not in {$2}, nor one CAP_SYS_ADMIN stands in for there"
		return 1
	done
}
