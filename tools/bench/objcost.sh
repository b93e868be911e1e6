#!/bin/bash
# The cost of reading a check's object (issue 44), by the kernel's own
# accounting (bpf_stats: run_time_ns / run_cnt of the check program):
# capaudit record --exact-stacks (every check walks its stack, the slow
# path, where the hook reads objects) of objwork's utimensat() loop on a
# file of nobody's, one CAP_FOWNER check a call, its path relative to the
# cwd (the cwd's dentries walked too). Run for each capaudit given (one
# built before objects, one after), rounds interleaved, medians.
#   objcost.sh CAPAUDIT_BEFORE CAPAUDIT_AFTER [CALLS] [ROUNDS]
# Prints one line per build and "objcost: before_ns=.. after_ns=.. added_ns=..".
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "objcost.sh: needs root" >&2; exit 2; }
BEFORE=$(realpath "$1") AFTER=$(realpath "$2") CALLS=${3:-200000} ROUNDS=${4:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(realpath "${OBJWORK:-$HERE/../../build/objwork}")
D=$(mktemp -d /tmp/objcost.XXXXXX)
old_stats=$(sysctl -n kernel.bpf_stats_enabled)
trap 'sysctl -qw kernel.bpf_stats_enabled=$old_stats; rm -rf "$D"' EXIT
sysctl -qw kernel.bpf_stats_enabled=1
mkdir -p "$D/dir"
touch "$D/dir/f"
chown 65534 "$D/dir/f"

# stats PID: "run_time_ns run_cnt nprogs" of the check programs PID holds
# (their ids from its fds' fdinfo; one program a check but in kprobe mode)
stats() {
	local ids
	ids=$(grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | awk '{ print $2 }' | sort -u)
	for id in $ids; do bpftool -j prog show id "$id" 2>/dev/null; done | jq -s -r '
		[.[] | select(.name // "" | test("cap_capable"))] |
		"\(map(.run_time_ns // 0) | add // 0) \(map(.run_cnt // 0) | max // 0) \(length)"'
}

# one CA one round: ns per run of the loop's checks
round() {
	local ca=$1 in="$D/in" out="$D/out" rpid s0 s1
	rm -f "$in" "$out"
	mkfifo "$in" "$out"
	(cd "$D/dir" && exec "$ca" record -q --exact-stacks -o /dev/null -- "$WORK" "$CALLS" f <"$in" >"$out") &
	rpid=$!
	exec 7>"$in" 8<"$out"
	for _ in $(seq 1 100); do   # attached: its programs are there
		s0=$(stats "$rpid")
		[ "${s0##* }" = 0 ] || break
		sleep 0.1
	done
	echo go >&7
	read -r _ <&8
	s1=$(stats "$rpid")
	echo end >&7
	exec 7>&- 8<&-
	wait "$rpid"
	awk -v a="$s0" -v b="$s1" 'BEGIN { split(a, x, " "); split(b, y, " ");
		if (y[2] > x[2]) printf "%.1f\n", (y[1] - x[1]) / (y[2] - x[2]); else print -1 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

: >"$D/before"
: >"$D/after"
for r in $(seq 1 "$ROUNDS"); do
	round "$BEFORE" >>"$D/before"
	round "$AFTER" >>"$D/after"
done
b=$(median <"$D/before")
a=$(median <"$D/after")
echo "before: $(tr '\n' ' ' <"$D/before")(ns per run; median $b)"
echo "after:  $(tr '\n' ' ' <"$D/after")(ns per run; median $a)"
echo "objcost: before_ns=$b after_ns=$a added_ns=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", a - b }') calls=$CALLS rounds=$ROUNDS"
