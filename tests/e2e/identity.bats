#!/usr/bin/env bats
# Every check on the process that made it. A process is its pid and start
# time: a pid given out again (clone3's set_tid and ns_last_pid here,
# pid_max wrapping on a busy host) is another process, a thread id given
# to a forked child never inherits the thread's call-site cache slots, a
# -p target is pinned when named, and -a keeps process and call site for
# every check however long it runs.
#
# The workload is build/churn (helper.bash).

load helper

setup() {
	churn_setup
}

teardown() {
	[ -n "${NOISE:-}" ] && kill -- -"$NOISE" 2>/dev/null
	# shellcheck disable=SC2086
	[ -n "${BG:-}" ] && kill -9 $BG 2>/dev/null
	churn_teardown
}

# start_noise: a shell loop of /bin/true in a process group of its own
# (short-lived processes drawing from the same pids, making no CAP_SYSLOG
# check); NOISE is its pid
start_noise() {
	printf '#!/bin/sh\nwhile :; do /bin/true; done\n' >"$T/noise.sh"
	chmod 755 "$T/noise.sh"
	setsid "$T/noise.sh" &
	NOISE=$!
}

stop_noise() {
	kill -- -"$NOISE" 2>/dev/null || kill "$NOISE"
	wait "$NOISE" 2>/dev/null || true
	NOISE=
}

# by_program FILE: CAP_SYSLOG checks of a record per executable and name,
# "EXE COMM COUNT WITHOUT_CALL_SITE" sorted; read line by line (an -a
# record of minutes has hundreds of thousands of process lines)
by_program() {
	jq -r 'select(.type == "process") | "P \(.pid) \(.start_ns) \(.exec_id) \(.exe) \(.comm)"' "$1" >"$T/p.txt"
	jq -r 'select(.type == "check" and .cap == 34)
		| "C \(.pid) \(.start_ns) \(.exec_id) \(.count) \(.stack)"' "$1" >"$T/c.txt"
	awk '$1 == "P" { exe[$2 " " $3 " " $4] = $5 " " $6; next }
	     { k = $2 " " $3 " " $4; p = (k in exe) ? exe[k] : "(no-process-line) -"
	       n[p] += $5; if ($6 == "null") ns[p] += $5 }
	     END { for (p in n) print p, n[p], ns[p] + 0 }' "$T/p.txt" "$T/c.txt" | sort
}

@test "a pid reused by a process that exec'd: true gets none of the earlier process's checks" {
	# a child execs "churn calls 7" and exits; /usr/bin/true then gets its
	# pid at the same exec depth (the same pid and exec count as before).
	# churn gives the pid with clone3's set_tid, which makes that process
	# or none: other processes forking meanwhile (a busy host) take nothing
	# from the test and add no process to the record
	run record -- "$CHURN" reuse-exec 7
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^pid=([0-9]+)\ calls=7$ ]]
	local pid=${BASH_REMATCH[1]}
	report_json
	# three processes: churn, its child, true
	[ "$(jqr '[.processes[] | "\(.pid) \(.start_ns)"] | unique | length')" = "3" ]
	# two processes had the pid, each with its own lines
	[ "$(jqr --argjson p "$pid" '[.processes[] | select(.pid == $p) | .start_ns] | unique | length')" = "2" ]
	[ "$(jqr .record.pids_reused)" = "1" ]
	[ "$(jqr --argjson p "$pid" '[.processes[] | select(.pid == $p and .comm == "true")
		| .capabilities[] | select(.cap == "CAP_SYSLOG")] | length')" = "0" ]
	[ "$(jqr --argjson p "$pid" '[.processes[] | select(.pid == $p and .exe == "'"$CHURN"'")
		| .capabilities[] | select(.cap == "CAP_SYSLOG") | .granted] | add')" = "7" ]
	# and no advice to give true what churn used
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --suggest --program true --format json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '.required | length')" = "0" ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --emit setcap --program true
	[[ "$output" != *cap_syslog* ]]
}

@test "a thread's tid given to a forked child on the same CPU: each keeps its own checks" {
	# the thread's 500 checks and the child's 500 come from the same code,
	# so the call-site cache tag is the same: the process must not be
	run record -- "$CHURN" tid-reuse 500
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^tid=([0-9]+)\ calls=500$ ]]
	local tid=${BASH_REMATCH[1]}
	report_json
	[ "$(jqr --argjson t "$tid" '[.processes[] | select(.pid == $t) | .capabilities[]
		| select(.cap == "CAP_SYSLOG") | .granted] | add')" = "500" ]
	[ "$(jqr --argjson t "$tid" '[.processes[] | select(.pid != $t) | .capabilities[]
		| select(.cap == "CAP_SYSLOG") | .granted] | add')" = "500" ]
	[ "$(jqr '[.record.lost[]] | add')" = "0" ]
}

# holds_pidfd PID: process PID has a pidfd open
holds_pidfd() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -q pidfd
}

# race_once DELAY: a -p target dies DELAY s after the recorder started
# (after it was named, before the recorder has attached: that takes tens
# of ms), and a new process given its pid makes 9 checks once the recorder
# runs. Fails if the newcomer is recorded.
race_once() {
	local target rec wrap imp= try status
	sleep 1000 &
	target=$!
	BG="$target"
	# The recorder's status is written by a parent of its own: this shell
	# may reap the recorder early (it stops at once when its target is
	# gone), and the impostor loop below can then be handed the recorder's
	# pid, after which `wait` would report the impostor's status.
	rm -f "$T/rc" "$T/rc.tmp"
	# (errexit is on in the subshell as in the test: the status is taken
	# with ||)
	( rc=0
	  "$CAPAUDIT" record -q -o "$T/rec.jsonl" -p "$target" 2>"$T/err" || rc=$?
	  echo "$rc" >"$T/rc.tmp" && mv "$T/rc.tmp" "$T/rc" ) &
	wrap=$!
	BG="$target $wrap"
	rec=
	WAIT_STEP=0.005 wait_for 2 pgrep -P "$wrap" -x capaudit >/dev/null
	rec=$(pgrep -P "$wrap" -x capaudit)
	[ -n "$rec" ]
	BG="$target $wrap $rec"
	# "from the moment they are named": once capaudit holds the pidfd it
	# opened for the pid. Before that, the pid given to another process is
	# what the caller named (a slow start, as under ASan, made that happen)
	WAIT_STEP=0.005 wait_for 2 holds_pidfd "$rec"
	sleep "$1"
	kill -9 "$target"
	wait "$target" || true
	for try in $(seq 50); do
		echo $((target - 1)) >/proc/sys/kernel/ns_last_pid
		sh -c 'sleep 0.5; exec "$0" calls 9' "$CHURN" &
		imp=$!
		[ "$imp" -eq "$target" ] && break
		kill "$imp"
		wait "$imp" || true
		imp=
	done
	[ -n "$imp" ]
	BG="$imp"
	wait "$imp"
	# the recorder has nothing left to follow: its status within 10 s
	wait_for 10 test -e "$T/rc" || true
	BG=
	[ -e "$T/rc" ] || { pkill -9 -P "$wrap" -x capaudit; false; }
	status=$(cat "$T/rc")
	echo "# delay $1: recorder exit $status: $(cat "$T/err")"
	# the recorder stopped at once (nothing to follow) or recorded nothing
	# of the newcomer
	if [ "$status" -eq 1 ]; then
		grep -qE -- "-p $target: (the process exited before recording began|no such process)" "$T/err"
		[ ! -e "$T/rec.jsonl" ]
	else
		[ "$status" -eq 0 ]
		report_json
		[ "$(jqr '[.processes[].capabilities[] | select(.cap == "CAP_SYSLOG")] | length')" = "0" ]
		[ "$(jqr '[.processes[] | select(.comm == "churn" or .comm == "sh")] | length')" = "0" ]
	fi
	rm -f "$T/rec.jsonl"
}

@test "-p: a target that dies during start-up is not replaced by a process given its pid" {
	local d
	for d in 0.002 0.005 0.01 0.02 0.03 0.05; do
		race_once "$d"
	done
}

@test "-p: a thread id is refused with a clear error" {
	"$CHURN" thread 10 >"$T/thread" &
	local proc=$! i tid
	wait_for 5 test -s "$T/thread"
	[[ "$(cat "$T/thread")" =~ ^pid=([0-9]+)\ tid=([0-9]+)$ ]]
	tid=${BASH_REMATCH[2]}
	run record -p "$tid"
	kill "$proc"
	[ "$status" -eq 1 ]
	[[ "$output" == *"-p $tid: a thread, not a process (give its process id)"* ]]
	[ ! -e "$T/rec.jsonl" ]
}

@test "-a beside a shell loop of /bin/true: every churn check on churn, none on the loop" {
	# churn under a path of its own: other churns on the host are not ours
	local churn=$T/churn rec made
	cp "$CHURN" "$churn"
	"$CAPAUDIT" record -q -a -o "$T/rec.jsonl" &
	rec=$!
	wait_attached "$rec"
	start_noise
	run "$churn" load 8 2
	stop_noise
	kill -INT "$rec"
	wait "$rec"
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^processes=([0-9]+)\ calls=([0-9]+)$ ]]
	made=${BASH_REMATCH[2]}
	head -n 1 "$T/rec.jsonl" | jq -c '{lost, overflow, aggregation, pids_reused, loader}'
	by_program "$T/rec.jsonl" >"$T/by"
	cat "$T/by"
	# all of churn's checks on churn's lines, each with its call site
	[ "$(awk -v e="$churn" '$1 == e && $2 == "churn" { print $3 " " $4 }' "$T/by")" = "$made 0" ]
	# none on the loop's lines (true, the shell), none without a process
	[ -z "$(awk '$2 == "true" || $2 == "noise.sh" || $1 == "(no-process-line)"' "$T/by")" ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -c '([.lost[]] | add), .overflow')" = "$(printf '0\n[]')" ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --suggest --program true --format json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '.required | length')" = "0" ]
}

@test "-a under 80,000 short-lived processes and the shell loop: process and call site kept for every check" {
	plain_pass_only "a soak of 80,000 processes"
	# up to ~1,000 short-lived processes a second, each with its own key:
	# 80,000 are more than two halves of -a's first aggregation map
	# (65,536 keys, drained at half) and more than two rounds of pid_max
	# here (32,768): the map is drained while recording, never full, and
	# pids are reused, however fast or slow this host forks (the soak is
	# sized by processes, not seconds; the upper bound only ends a stuck run)
	local churn=$T/churn rec made procs
	cp "$CHURN" "$churn"
	"$CAPAUDIT" record -q -a -o "$T/rec.jsonl" &
	rec=$!
	wait_attached "$rec"
	start_noise
	run "$churn" load 900 2 500 80000
	stop_noise
	kill -INT "$rec"
	wait "$rec"
	[ "$status" -eq 0 ]
	[[ "$output" =~ ^processes=([0-9]+)\ calls=([0-9]+)$ ]]
	procs=${BASH_REMATCH[1]}
	made=${BASH_REMATCH[2]}
	[ "$procs" -eq 80000 ]
	head -n 1 "$T/rec.jsonl" | jq -c '{lost, overflow, aggregation, pids_reused, loader}'
	# more keys than -a's first map holds (65,536, drained at half): drained
	# while recording, however fast this host forks
	[ "$(head -n 1 "$T/rec.jsonl" | jq -r '.aggregation.drains >= 2')" = "true" ]
	by_program "$T/rec.jsonl" >"$T/by"
	cat "$T/by"
	[ "$(awk -v e="$churn" '$1 == e && $2 == "churn" { print $3 " " $4 }' "$T/by")" = "$made 0" ]
	[ -z "$(awk '$2 == "true" || $2 == "noise.sh" || $1 == "(no-process-line)"' "$T/by")" ]
	# one line per process: the parent, 2 forkers and every child
	[ "$(awk -v e="$churn" '$5 == e && $6 == "churn"' "$T/p.txt" | wc -l)" -eq "$((procs + 3))" ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -c '([.lost[]] | add), .overflow')" = "$(printf '0\n[]')" ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -r '.aggregation.drains')" -ge 2 ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -r '.pids_reused')" -gt 1000 ]
}
