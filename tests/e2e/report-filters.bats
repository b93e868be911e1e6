#!/usr/bin/env bats
# report --pid PID and report --cap CAP on a record of real programs (sh,
# privops: chown then sethostname, chown) made here, in every mode where
# they mean something: text, JSON, --by, --suggest, --emit (--pid). A pid
# the record lacks, an unknown capability: one line, exit 2.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

PRIVOPS="$ROOT/build/privops"
K="$ROOT/tests/fixtures/kernels"

setup() {
	e2e_setup
	[ -x "$PRIVOPS" ] || skip "build/privops is not built (make build/privops)"
	cd "$T"
	touch f
	# sh (pid A) runs privops (B), chown (C), then execs privops itself
	"$CAPAUDIT" record -q -o rec.jsonl -- sh -c "$PRIVOPS f; chown 0 f; exec $PRIVOPS f"
	"$CAPAUDIT" report --format json rec.jsonl >all.json
	A=$(jq -r '.processes[] | select(.comm == "sh") | .pid' all.json | sort -n | head -1)
	C=$(jq -r '.processes[] | select(.comm == "chown") | .pid' all.json)
	B=$(jq -r --arg a "$A" --arg c "$C" '.processes[] | select(.comm == "privops") |
		select((.pid | tostring) != $a) | .pid' all.json)
	[ -n "$A" ] && [ -n "$B" ] && [ -n "$C" ]
}

teardown() {
	e2e_teardown
}

# caps FILE: "PID COMM CAP,CAP" per image of a JSON report (with an audited check)
caps() {
	jq -r '.processes[] | [.pid, .comm, ([.capabilities[] | select(.noaudit | not) | .cap] | join(","))] |
		select(.[2] != "") | map(tostring) | join(" ")' "$1"
}

@test "report --pid: only that process, each of its images (sh, then privops after execve); several pids" {
	run "$CAPAUDIT" report --format json --pid "$A" rec.jsonl
	[ "$status" -eq 0 ]
	echo "$output" >a.json
	[ "$(jq -r '[.processes[] | "\(.pid) \(.comm)"] | join(",")' a.json)" = "$A sh,$A privops" ]
	[ "$(caps a.json)" = "$A privops CAP_CHOWN,CAP_SYS_ADMIN" ]
	[ "$(jq -r '.required | join(",")' a.json)" = "CAP_CHOWN,CAP_SYS_ADMIN" ]
	# chown's pid: CAP_CHOWN at setattr_prepare alone
	run "$CAPAUDIT" report --pid "$C" rec.jsonl
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^PID ')" -eq 2 ]
	[[ "$output" == *"PID $C chown (after execve)"*"  CAP_CHOWN "*"    call site setattr_prepare "* ]]
	[[ "$output" != *"CAP_SYS_ADMIN            granted"* ]]
	[[ "$output" == *"Required (granted in audited checks): CAP_CHOWN"$'\n'* ]]
	# given again, or as a list: the same
	"$CAPAUDIT" report --format json --pid "$B" --pid "$C" rec.jsonl >bc1.json
	"$CAPAUDIT" report --format json --pid "$B,$C" rec.jsonl >bc2.json
	cmp bc1.json bc2.json
	[ "$(jq -r '[.processes[].pid] | unique | map(tostring) | join(" ")' bc1.json)" = "$B $C" ]
	# --by program rolls up only those
	run "$CAPAUDIT" report --format json --by program --pid "$C" rec.jsonl
	[ "$(echo "$output" | jq -r '[.workloads[].programs[].program] | join(" ")')" = "/usr/bin/chown /usr/bin/sh" ]
}

@test "report --pid with --suggest and --emit: that process's least privilege" {
	run "$CAPAUDIT" report --suggest --format json --pid "$C" rec.jsonl
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '"\(.required | join(",")) \([.programs[].pid] | unique | map(tostring) | join(","))"')" = \
	  "CAP_CHOWN $C" ]
	run "$CAPAUDIT" report --emit setcap --pid "$B" rec.jsonl
	[ "$status" -eq 0 ]
	[ "$output" = "setcap cap_chown,cap_sys_admin+ep $PRIVOPS" ]
	run "$CAPAUDIT" report --emit setcap --pid "$C" rec.jsonl
	[ "$output" = "setcap cap_chown+ep /usr/bin/chown" ]
}

@test "report --pid: a pid the record lacks is one line listing those it has, exit 2 (JSON too); a bad pid is a usage error" {
	run --separate-stderr "$CAPAUDIT" report --pid 1 rec.jsonl
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "capaudit: rec.jsonl: --pid 1: no process had that pid in the record; it has: $(printf '%s\n' "$A" "$B" "$C" | sort -n | paste -sd, | sed 's/,/, /g')" ]
	run --separate-stderr "$CAPAUDIT" report --format json --pid "$C,1" rec.jsonl
	[ "$status" -eq 2 ]
	[[ "$(echo "$output" | jq -s -r '.[0].error')" == "rec.jsonl: --pid 1: no process had that pid in the record"* ]]
	[ "$(echo "$output" | jq -s length)" -eq 1 ]
	for bad in 0 -3 abc 12x "" "$C,"; do
		run --separate-stderr "$CAPAUDIT" report --pid "$bad" rec.jsonl
		[ "$status" -eq 2 ]
		[[ "$stderr" == "capaudit: --pid $bad: '"*"' is not a pid (a number from 1)" ]]
	done
}

@test "report --cap: only the checks of that capability, and the processes that made one; names, numbers, lists" {
	run "$CAPAUDIT" report --format json --cap CAP_SYS_ADMIN rec.jsonl
	[ "$status" -eq 0 ]
	echo "$output" >sa.json
	[ "$(jq -r '.only | join(",")' sa.json)" = "CAP_SYS_ADMIN" ]
	[ "$(caps sa.json)" = "$A privops CAP_SYS_ADMIN
$B privops CAP_SYS_ADMIN" ]
	[ "$(jq -r '[.processes[].capabilities[] | select(.noaudit | not) | .callsites[].function] | unique | join(",")' sa.json)" = \
	  "__x64_sys_sethostname" ]
	[ "$(jq -r '"\(.required | join(",")) \(.denied | length)"' sa.json)" = "CAP_SYS_ADMIN 0" ]
	# the others left are those whose (noaudit) checks were of it: none of another
	[ "$(jq -r '[.processes[].capabilities[].cap] | unique | join(",")' sa.json)" = "CAP_SYS_ADMIN" ]
	[ "$(jq '[.processes[] | select(.capabilities == [] and .hidden_noaudit == 0)] | length' sa.json)" -eq 0 ]
	# sys_admin, 21 and cap_sys_admin name the same
	for name in sys_admin 21 cap_sys_admin; do
		"$CAPAUDIT" report --format json --cap "$name" rec.jsonl | cmp - sa.json
	done
	# two: a list, or given again
	"$CAPAUDIT" report --format json --cap chown,sys_admin rec.jsonl >two1.json
	"$CAPAUDIT" report --format json --cap 0 --cap CAP_SYS_ADMIN rec.jsonl >two2.json
	cmp two1.json two2.json
	[ "$(jq -r '.required | join(",")' two1.json)" = "CAP_CHOWN,CAP_SYS_ADMIN" ]
	[ "$(jq -r '[.processes[] | select(.capabilities | map(select(.noaudit | not)) | length > 0) | .comm] | join(",")' two1.json)" = \
	  "privops,privops,chown" ]
	# text says what it kept
	run "$CAPAUDIT" report --cap chown rec.jsonl
	[ "$status" -eq 0 ]
	[[ "$output" == *"  only checks of (--cap): CAP_CHOWN"* ]]
	[[ "$output" != *"CAP_SYS_ADMIN"* ]]
	# with --by and --pid
	run "$CAPAUDIT" report --format json --by program --cap sys_admin --pid "$B" rec.jsonl
	[ "$(echo "$output" | jq -r '[.workloads[].programs[] | select(.checks > 0) | "\(.program | sub(".*/"; "")) \(.checks)"] | join(" ")')" = "privops 1" ]
	[ "$(echo "$output" | jq -r '[.workloads[].programs[].capabilities[].cap] | unique | join(",")')" = "CAP_SYS_ADMIN" ]
	# none of it in the record: an empty report and a note
	run --separate-stderr "$CAPAUDIT" report --format json --cap CAP_BPF rec.jsonl
	[ "$status" -eq 0 ]
	[ "$stderr" = "capaudit: note: rec.jsonl: no check of CAP_BPF" ]
	[ "$(echo "$output" | jq -r '"\(.processes | length) \(.total_checks)"')" = "0 0" ]
}

@test "report --cap: an unknown or empty name is one line, exit 2 (JSON too); not with --emit" {
	run --separate-stderr "$CAPAUDIT" report --cap CAP_NOPE rec.jsonl
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "capaudit: --cap CAP_NOPE: unknown capability 'CAP_NOPE' (a name as CAP_SYS_ADMIN or sys_admin, or a number 0-63)" ]
	run --separate-stderr "$CAPAUDIT" report --format json --cap chown,64 rec.jsonl
	[ "$status" -eq 2 ]
	[ "$(echo "$output" | jq -s -r '.[0].error')" = "--cap chown,64: unknown capability '64' (a name as CAP_SYS_ADMIN or sys_admin, or a number 0-63)" ]
	run --separate-stderr "$CAPAUDIT" report --cap chown,,kill rec.jsonl
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: --cap 'chown,,kill': an empty capability name" ]
	run --separate-stderr "$CAPAUDIT" report --emit setcap --cap chown rec.jsonl
	[ "$status" -eq 2 ]
	[[ "$stderr" == "capaudit: --cap goes with the report and --suggest, not --emit"* ]]
}

@test "report --suggest --cap: what is about it; a CAP_SYS_ADMIN replacement stays with either of its two (6.18's set-pid clone3)" {
	N="$K/6.18-nocr.jsonl"
	sg() {
		"$CAPAUDIT" report --suggest --format json "$@" "$N" |
			jq -r '"\(.only // [] | join(",")) | \(.required | join(",")) | \(.observed | join(",")) | \([.suggestions[].with] | join(","))"'
	}
	[ "$(sg)" = " | CAP_CHECKPOINT_RESTORE | CAP_SYS_ADMIN | CAP_CHECKPOINT_RESTORE" ]
	[ "$(sg --cap sys_admin)" = "CAP_SYS_ADMIN,CAP_CHECKPOINT_RESTORE | CAP_CHECKPOINT_RESTORE | CAP_SYS_ADMIN | CAP_CHECKPOINT_RESTORE" ]
	[ "$(sg --cap checkpoint_restore)" = "CAP_SYS_ADMIN,CAP_CHECKPOINT_RESTORE | CAP_CHECKPOINT_RESTORE | CAP_SYS_ADMIN | CAP_CHECKPOINT_RESTORE" ]
	[ "$(sg --cap chown)" = "CAP_CHOWN |  |  | " ]
	# on privops: CAP_SYS_ADMIN stays (sethostname accepts nothing narrower)
	run "$CAPAUDIT" report --suggest --format json --cap sys_admin rec.jsonl
	[ "$(echo "$output" | jq -r '"\(.required | join(",")) \([.keep[].cap] | join(","))"')" = "CAP_SYS_ADMIN CAP_SYS_ADMIN" ]
	run "$CAPAUDIT" report --suggest --cap chown rec.jsonl
	[ "$status" -eq 0 ]
	[[ "$output" == *"  only what is about (--cap): CAP_CHOWN"*"Required capabilities: CAP_CHOWN"$'\n'* ]]
}

@test "report --format html --cap: the page's programs table has only its checks, its suggestion is made of every check" {
	run --separate-stderr "$CAPAUDIT" report --format html --cap chown rec.jsonl
	[ "$status" -eq 0 ]
	echo "$output" >p.html
	# the summary says what was kept; the programs table's capability cells
	# are CAP_CHOWN's alone, as many as the JSON report has rows
	grep -q '<tr><th>Only checks of (--cap)</th><td><span class="caps" id="only"><span class="chip">CAP_CHOWN</span></span>' p.html
	cells=$(grep -o '<td class="cap"><span class="chip[^"]*">CAP_[A-Z_]*' p.html | sed 's/.*>//' | sort | uniq -c | awk '{print $2 "=" $1}')
	"$CAPAUDIT" report --format json --cap chown rec.jsonl >c.json
	want=$(jq -r '[.processes[].capabilities[] | select(.noaudit | not)] | length' c.json)
	echo "cells: $cells; JSON rows: $want"
	[ "$cells" = "CAP_CHOWN=$want" ]
	# the suggestion part: --suggest --cap's, not CAP_SYS_ADMIN's
	grep -q '<p>Only what is about (--cap): <span class="caps" id="suggest-only"><span class="chip">CAP_CHOWN</span>' p.html
	"$CAPAUDIT" report --suggest --format json --cap chown rec.jsonl >s.json
	[ "$(jq -r '.required | join(",")' s.json)" = "CAP_CHOWN" ]
}
