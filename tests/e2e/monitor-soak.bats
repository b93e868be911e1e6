#!/usr/bin/env bats
# tier: plain (a soak: 90,000 processes, once, where RSS means what it
# says; the ASan pass's monitor.bats finds leaks at every monitor's exit)
# capaudit monitor over tens of thousands of processes: its resident set
# stays flat and every check is counted.

load helper

setup() {
	churn_setup   # kernel.dmesg_restrict=1: klogctl(SIZE_BUFFER) checks CAP_SYSLOG
	MPID=
}

teardown() {
	[ -n "$MPID" ] && kill -KILL "$MPID" 2>/dev/null
	churn_teardown
}

# churn_checks_are N: the last checkpoint counts N CAP_SYSLOG checks of churn
churn_checks_are() {
	[ -s "$T/mon.jsonl" ] && [ "$("$CAPAUDIT" report -i "$T/mon.jsonl" --format json 2>/dev/null |
		jq -r --arg e "$CHURN" '[.processes[] | select(.exe == $e) | .capabilities[]
		| select(.cap == "CAP_SYSLOG") | .granted] | add')" = "$1" ]
}

# rss_kb PID
rss_kb() {
	awk '/^VmRSS:/ {print $2}' "/proc/$1/status"
}

@test "monitor: RSS stays flat over tens of thousands of processes, checks exact" {
	start_monitor --interval 1
	# warm-up: every table at its working size, the same load as measured
	# (after 5,000 processes the process tables had not reached it: 9 MiB
	# more on the first 30,000, then flat over as many again, twice)
	warm=$("$CHURN" forks 30000 2 8)
	# measured once a checkpoint holds every check made so far (the
	# monitor has caught up, whatever else this host is doing)
	wait_for 30 churn_checks_are "${warm##*calls=}"
	rss0=$(rss_kb "$MPID")
	main=$("$CHURN" forks 30000 2 8)
	main2=$("$CHURN" forks 30000 1 8)
	want=$(( ${warm##*calls=} + ${main##*calls=} + ${main2##*calls=} ))
	wait_for 60 churn_checks_are "$want"
	rss1=$(rss_kb "$MPID")
	echo "rss after warm-up ${rss0} KiB, after 60000 processes ${rss1} KiB"
	[ $((rss1 - rss0)) -lt 8192 ]
	kill -INT "$MPID"
	st=0
	wait "$MPID" || st=$?
	MPID=
	[ "$st" -eq 0 ]
	"$CAPAUDIT" report -i "$T/mon.jsonl" --format json >"$T/rep.json"
	got=$(jq -r --arg e "$CHURN" '[.processes[] | select(.exe == $e) | .capabilities[]
		| select(.cap == "CAP_SYSLOG") | .granted] | add' "$T/rep.json")
	echo "CAP_SYSLOG checks: churn made $want, the monitor counted $got"
	[ "$got" = "$want" ]
	# 90000 churn processes and their 24 forkers and parents: one identity
	[ "$(jq -r --arg e "$CHURN" '[.processes[] | select(.exe == $e)] | length' "$T/rep.json")" = 1 ]
	[ "$(jq -r --arg e "$CHURN" '.processes[] | select(.exe == $e) | .pids' "$T/rep.json")" = 90027 ]
}
