# Shared setup for the end-to-end tests: they run as root against the real
# kernel, load the real BPF program and trace real processes.

bats_require_minimum_version 1.5.0

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
CAPAUDIT=${CAPAUDIT:-$ROOT/build/capaudit}

# e2e_setup / e2e_teardown: what every test needs (root, capaudit, a
# directory $T of its own); a file with a setup() of its own calls them
e2e_setup() {
	[ "$(id -u)" -eq 0 ] || skip "end-to-end tests need root (they load BPF programs)"
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
	OLD_RESTRICT=$(cat /proc/sys/kernel/dmesg_restrict)
	echo 1 >/proc/sys/kernel/dmesg_restrict
}

churn_teardown() {
	[ -n "${OLD_RESTRICT:-}" ] && echo "$OLD_RESTRICT" >/proc/sys/kernel/dmesg_restrict
	e2e_teardown
}

# wait_attached PID: until recorder PID holds its four BPF links (the check
# hook and fork, exec, exit), i.e. is attached, not only loaded; at most 20 s
wait_attached() {
	local i
	for i in $(seq 400); do
		[ "$(ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'anon_inode:bpf_link')" -ge 4 ] && return 0
		sleep 0.05
	done
	echo "the recorder did not attach"
	return 1
}
