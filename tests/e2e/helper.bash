# Shared setup for the end-to-end tests: they run as root against the real
# kernel, load the real BPF program and trace real processes.

bats_require_minimum_version 1.5.0

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
CAPAUDIT=${CAPAUDIT:-$ROOT/build/capaudit}

setup() {
	[ "$(id -u)" -eq 0 ] || skip "end-to-end tests need root (they load BPF programs)"
	[ -x "$CAPAUDIT" ] || skip "build/capaudit is not built (run make)"
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/capaudit-e2e.XXXXXX")
	chmod 755 "$T"
}

teardown() {
	[ -n "${T:-}" ] && rm -rf "$T"
	return 0
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
