#!/usr/bin/env bats
# capaudit diff OLD NEW on records of real programs (made here, as root, on
# the running kernel) and on the kernel matrix's records: what each
# program gained (+) and lost (-) among capabilities, syscalls, call sites
# and denials; exit 0 when nothing was added, 1 when something was, 2 on
# errors (one line naming the file, JSON too with --format json).
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

PY=/usr/bin/python3
K="$ROOT/tests/fixtures/kernels"
# python3 chowns a file (CAP_CHOWN, checked twice: owner and group)
CHOWN_PY='import os; os.chown("f", 65534, 65534)'
# python3 sets SO_RCVBUFFORCE (33): CAP_NET_ADMIN in sk_setsockopt
FORCE_PY='import socket; socket.socket().setsockopt(socket.SOL_SOCKET, 33, 65536)'

setup() {
	e2e_setup
	cd "$T"
	touch f
}

teardown() {
	ip link del cadiff0 2>/dev/null || true
	e2e_teardown
}

need() {
	command -v "$1" >/dev/null || skip "$1 is not installed (tools/deps.sh installs it)"
}

# rec FILE COMMAND...: a record of COMMAND in $T/FILE
rec() {
	local out=$1
	shift
	"$CAPAUDIT" record -q -o "$T/$out" -- "$@"
}

# changes FILE: each change of a JSON diff, "PROGRAM CHANGE KIND CAP WHAT CHECKS"
changes() {
	jq -r '.programs[] | .program as $p | .changes[] |
		"\($p) \(.change) \(.kind) \(.cap) \(.syscall // .callsite // "-") \(.checks)"' "$1"
}

@test "diff: python3 gains CAP_NET_ADMIN (SO_RCVBUFFORCE) and loses CAP_CHOWN: listed, exit 1" {
	[ -x "$PY" ] || skip "$PY is not installed"
	rec old.jsonl "$PY" -c "$CHOWN_PY"
	rec new.jsonl "$PY" -c "$FORCE_PY"
	run --separate-stderr "$CAPAUDIT" diff old.jsonl new.jsonl
	[ "$status" -eq 1 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "capaudit diff" ]
	[[ "${lines[1]}" == "  old old.jsonl: kernel $(uname -r), attach "*", scope command, 1 program" ]]
	[ "$(printf '%s\n' "${lines[@]}" | grep '^  [-+] ')" = "$(cat <<'EOF'
  - CAP_CHOWN                checked: granted 2, denied 0
  - CAP_CHOWN                syscall chown x2
  - CAP_CHOWN                call site setattr_prepare, granted 2
  + CAP_NET_ADMIN            checked: granted 1, denied 0
  + CAP_NET_ADMIN            syscall setsockopt x1
  + CAP_NET_ADMIN            call site sk_setsockopt, granted 1
EOF
)" ]
	[[ "$output" == *$'\n/usr/bin/python3\n'* ]]
	[[ "$output" == *"Required (granted in audited checks): CAP_CHOWN -> CAP_NET_ADMIN (added CAP_NET_ADMIN; removed CAP_CHOWN)"* ]]
	[ "${lines[-1]}" = "Added: 3 (1 capability, 1 syscall, 1 call site, 0 denials); removed: 3 (1 capability, 1 syscall, 1 call site, 0 denials)" ]

	# the same in JSON
	run --separate-stderr "$CAPAUDIT" diff --format json old.jsonl new.jsonl
	[ "$status" -eq 1 ]
	echo "$output" >d.json
	[ "$(jq -s -r '.[0] | "\(.result) \(.added.total) \(.removed.total) \(.required.added | join(",")) \(.required.removed | join(","))"' d.json)" = \
	  "added 3 3 CAP_NET_ADMIN CAP_CHOWN" ]
	[ "$(changes d.json)" = "$(cat <<'EOF'
/usr/bin/python3 removed capability CAP_CHOWN - 2
/usr/bin/python3 removed syscall CAP_CHOWN chown 2
/usr/bin/python3 removed callsite CAP_CHOWN setattr_prepare 2
/usr/bin/python3 added capability CAP_NET_ADMIN - 1
/usr/bin/python3 added syscall CAP_NET_ADMIN setsockopt 1
/usr/bin/python3 added callsite CAP_NET_ADMIN sk_setsockopt 1
EOF
)" ]
	[ "$(jq -s -r '.[0].programs[0] | "\(.in_old) \(.in_new) \(.added) \(.removed)"' d.json)" = "true true 3 3" ]
	[ "$(jq -s 'length' d.json)" -eq 1 ]
}

@test "diff: what was only removed is listed and exits 0; a record against itself, and two runs of one command, show no change" {
	[ -x "$PY" ] || skip "$PY is not installed"
	rec both.jsonl "$PY" -c "$CHOWN_PY; $FORCE_PY"
	rec force.jsonl "$PY" -c "$FORCE_PY"
	run "$CAPAUDIT" diff both.jsonl force.jsonl
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^  + ')" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | grep '^  - ' | awk '{print $2}' | sort -u)" = "CAP_CHOWN" ]
	[ "${lines[-1]}" = "Added: 0 (0 capabilities, 0 syscalls, 0 call sites, 0 denials); removed: 3 (1 capability, 1 syscall, 1 call site, 0 denials)" ]
	# the other way round CAP_CHOWN is added
	run "$CAPAUDIT" diff force.jsonl both.jsonl
	[ "$status" -eq 1 ]
	[[ "$output" == *"  + CAP_CHOWN                call site setattr_prepare, granted 2"* ]]

	run "$CAPAUDIT" diff both.jsonl both.jsonl
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "No change: the same capabilities, syscalls, call sites and denials in every program" ]
	rec force2.jsonl "$PY" -c "$FORCE_PY"
	run "$CAPAUDIT" diff --format json force.jsonl force2.jsonl
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -s -r '.[0] | "\(.result) \(.added.total) \(.removed.total) \(.programs | length)"')" = "same 0 0 0" ]
}

@test "diff: a denial where the capability was granted before (run --caps none): the call site removed, the denial added, exit 1" {
	[ -x "$PY" ] || skip "$PY is not installed"
	rec old.jsonl "$PY" -c "$CHOWN_PY"
	run "$CAPAUDIT" run -q --caps none -o "$T/new.jsonl" -- "$PY" -c "$CHOWN_PY"
	[ "$status" -eq 1 ]   # the chown failed: EPERM
	run --separate-stderr "$CAPAUDIT" diff --format json old.jsonl new.jsonl
	[ "$status" -eq 1 ]
	echo "$output" >d.json
	[ "$(changes d.json)" = "$(cat <<'EOF'
/usr/bin/python3 removed callsite CAP_CHOWN setattr_prepare 2
/usr/bin/python3 added denial CAP_CHOWN setattr_prepare 1
EOF
)" ]
	[ "$(jq -s -r '.[0] | "\(.required.removed | join(",")) \(.denied.added | join(","))"' d.json)" = "CAP_CHOWN CAP_CHOWN" ]
	run "$CAPAUDIT" diff old.jsonl new.jsonl
	[ "$status" -eq 1 ]
	[[ "$output" == *"  + CAP_CHOWN                denied at setattr_prepare x1"* ]]
	[[ "$output" == *"Denied in audited checks: none -> CAP_CHOWN (added CAP_CHOWN)"* ]]
}

@test "diff: a program only NEW runs (ip link add) is marked so, with its CAP_NET_ADMIN; -p keeps one program" {
	need ip
	need chown
	rec old.jsonl chown 65534 f
	rec new.jsonl sh -c 'chown 65534 f && ip link add cadiff0 type bridge && ip link del cadiff0'
	run "$CAPAUDIT" diff old.jsonl new.jsonl
	[ "$status" -eq 1 ]
	[[ "$output" == *"/ip (only in new)"* ]]
	# chown did the same in both: not listed
	[[ "$output" != *"/chown"* ]]
	run "$CAPAUDIT" diff --format json old.jsonl new.jsonl
	echo "$output" >d.json
	[ "$(jq -s -r '.[0].programs[] | "\(.program | sub(".*/"; "")) \(.in_old) \(.in_new)"' d.json)" = "ip false true" ]
	[ "$(jq -s -r '[.[0].programs[0].changes[] | select(.kind == "capability") | .cap] | join(",")' d.json)" = "CAP_NET_ADMIN" ]
	[ "$(jq -s -r '[.[0].programs[0].changes[] | select(.kind == "callsite") | .callsite] | sort | join(",")' d.json)" = \
	  "rtnetlink_rcv_msg,rtnl_link_get_net_capable" ]
	[ "$(jq -s -r '[.[0].programs[0].changes[] | .change] | unique | join(",")' d.json)" = "added" ]
	# -p chown: chown alone, in both, the same
	run "$CAPAUDIT" diff -p chown old.jsonl new.jsonl
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 program"*"1 program"*"No change"* ]]
	# -p ip: only in NEW; -p nothing: an error
	run "$CAPAUDIT" diff -p ip old.jsonl new.jsonl
	[ "$status" -eq 1 ]
	run --separate-stderr "$CAPAUDIT" diff -p nosuch old.jsonl new.jsonl
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "capaudit: --program nosuch: no program of that name in old.jsonl or new.jsonl" ]
}

@test "diff: --unit and --container keep one workload; one a record lacks is compared as empty (a note), one neither has is an error" {
	W="$ROOT/tests/fixtures/workloads-v4.jsonl"
	run "$CAPAUDIT" diff --container web "$W" "$W"
	[ "$status" -eq 0 ]
	run --separate-stderr "$CAPAUDIT" diff --unit cron "$W" "$K/6.18-chown.jsonl"
	[ "$status" -eq 0 ]   # only removed
	[ "$stderr" = "capaudit: note: $K/6.18-chown.jsonl: --unit cron: no process ran in that unit; the record has none: compared as empty" ]
	[[ "$output" == *$'/usr/sbin/cron (only in old)\n  - CAP_SETGID'* ]]
	[[ "$output" != *"nginx"* ]]
	run --separate-stderr "$CAPAUDIT" diff --unit cron "$K/6.18-chown.jsonl" "$W"
	[ "$status" -eq 1 ]
	run --separate-stderr "$CAPAUDIT" diff --unit nosuch "$W" "$W"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "capaudit: $W: --unit nosuch: no process ran in that unit; the record has: cron.service" ]
}

@test "diff: bad input is one line naming the file (and line), exit 2; JSON stays JSON" {
	G="$K/6.18-chown.jsonl"
	run --separate-stderr "$CAPAUDIT" diff "$G" /nonexistent/r.jsonl
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "capaudit: /nonexistent/r.jsonl: No such file or directory" ]
	run --separate-stderr "$CAPAUDIT" diff "$ROOT/tests/fixtures/bad-json-line3.jsonl" "$G"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "capaudit: $ROOT/tests/fixtures/bad-json-line3.jsonl:3: "* ]]
	[ "$(echo "$stderr" | wc -l)" -eq 1 ]
	run --separate-stderr "$CAPAUDIT" diff --format json "$G" "$ROOT/tests/fixtures/bad-cap.jsonl"
	[ "$status" -eq 2 ]
	[[ "$(echo "$output" | jq -s -r '.[0].error')" == "$ROOT/tests/fixtures/bad-cap.jsonl:"* ]]
	[ "$(echo "$output" | jq -s 'length')" -eq 1 ]
	run --separate-stderr "$CAPAUDIT" diff "$G"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: diff compares two records: capaudit diff OLD NEW (1 given)" ]
	run --separate-stderr "$CAPAUDIT" diff "$G" "$G" "$G"
	[ "$status" -eq 2 ]
	run --separate-stderr "$CAPAUDIT" diff - - <"$G"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: '-' (standard input) given twice: it can be read once" ]
	# one of them from standard input
	run "$CAPAUDIT" diff - "$G" <"$G"
	[ "$status" -eq 0 ]
	[[ "$output" == *"  old standard input: kernel"* ]]
	# a file cut short is refused, not compared
	head -n 2 "$G" >"$T/cut.jsonl"
	run --separate-stderr "$CAPAUDIT" diff "$G" "$T/cut.jsonl"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "capaudit: $T/cut.jsonl:"* ]]
	# --lenient compares what is there, and says what was not
	run --separate-stderr "$CAPAUDIT" diff --lenient "$G" "$T/cut.jsonl"
	[ "$status" -eq 0 ]
	[[ "$stderr" == "capaudit: warning: $T/cut.jsonl: --lenient: skipped 0 of 2 lines; no end line"* ]]
	[[ "$output" == *"  - CAP_CHOWN                checked: granted 1, denied 0"* ]]
}
