#!/usr/bin/env bats
# tier: check (record files of other kernels and architectures: no root,
# no kernel, no waiting)
# Records made by the kernel matrix's guests (tests/fixtures/kernels/),
# read here. Those of arm64 guests (arm64-*): their syscall numbers are
# arm64's (asm-generic's table), named from the architecture the header
# gives, never from this machine's. (The other way round, an x86_64 record
# read by the aarch64 capaudit, is tools/vmtest.sh's: each guest reports
# the host's record.) Those of 6.1, 6.12 and 6.18: diff and check tell
# what moved between kernels (a call site) from what did not.

load helper

setup() {
	fixture_setup
}

K=$ROOT/tests/fixtures/kernels

# syscalls FILE: "name:nr" of every syscall in FILE's JSON report
syscalls() {
	"$CAPAUDIT" report --all --format json -i "$1" |
		jq -r '[.processes[].capabilities[].syscalls[] | "\(.name // "?"):\(.nr)"] | unique | join(" ")'
}

@test "arm64 records report their own syscalls: fchownat 54, clone3 435, syslog 116" {
	for k in arm64-6.1 arm64-6.12; do
		[ "$(head -n 1 "$K/$k-chown.jsonl" | jq -r .arch)" = arm64 ]
		[[ " $(syscalls "$K/$k-chown.jsonl") " == *" fchownat:54 "* ]]
		[[ " $(syscalls "$K/$k-nocr.jsonl") " == *" clone3:435 "* ]]
		[[ " $(syscalls "$K/$k-loop.jsonl") " == *" syslog:116 "* ]]
		# the text report says the record is another architecture's
		run -0 "$CAPAUDIT" report -i "$K/$k-chown.jsonl"
		[[ "${lines[1]}" == "  kernel "*"-cloud-arm64 (arm64), attach "* ]]
		[[ "$output" == *"syscalls: fchownat x1"* ]]
	done
	# this machine's own records say nothing of it
	run -0 "$CAPAUDIT" report -i "$K/6.18-chown.jsonl"
	[[ "${lines[1]}" == "  kernel 6.18.44"*", attach tp_btf, "* ]]
}

@test "without syscall_name the record's arch table names them; without arch, x86_64's (what version 4 readers did)" {
	# the names the recorder wrote, taken out: the reader's table for arm64
	jq -c 'del(.syscall_name)' "$K/arm64-6.12-chown.jsonl" > "$T/noname.jsonl"
	! grep -q syscall_name "$T/noname.jsonl"
	[[ " $(syscalls "$T/noname.jsonl") " == *" fchownat:54 "* ]]
	# and arch too: read as x86_64, where 54 is setsockopt
	jq -c 'del(.syscall_name) | if .type == "header" then del(.arch) else . end' \
		"$K/arm64-6.12-chown.jsonl" > "$T/noarch.jsonl"
	[[ " $(syscalls "$T/noarch.jsonl") " == *" setsockopt:54 "* ]]
	# a recorded name is kept, whatever the reader's tables say
	jq -c 'if .type == "check" and .syscall == 54 then .syscall_name = "renamed_by_hand" else . end' \
		"$K/arm64-6.12-chown.jsonl" > "$T/kept.jsonl"
	[[ " $(syscalls "$T/kept.jsonl") " == *" renamed_by_hand:54 "* ]]
}

@test "a bad arch or syscall_name is one error line naming the file and line" {
	sed '1s/"arch":"arm64"/"arch":"arm 64"/' "$K/arm64-6.12-chown.jsonl" > "$T/bad.jsonl"
	run -2 "$CAPAUDIT" report -i "$T/bad.jsonl"
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"bad.jsonl:1: field 'arch' must be an architecture name"* ]]
	jq -c 'if .type == "check" and .syscall == 54 then .syscall_name = "a b" else . end' \
		"$K/arm64-6.12-chown.jsonl" > "$T/bad.jsonl"
	run -2 "$CAPAUDIT" report -i "$T/bad.jsonl"
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"bad.jsonl:"*": field 'syscall_name' must be a syscall name"* ]]
}

@test "report of an x86_64 and an arm64 node: each names its own syscalls, arch mixed" {
	run -0 "$CAPAUDIT" report --format json -i "$K/6.18-chown.jsonl" -i "$K/arm64-6.12-chown.jsonl"
	[ "$(jq -r '.record.arch' <<< "$output")" = mixed ]
	[ "$(jq -r '[.inputs[].arch] | join(",")' <<< "$output")" = "x86_64,arm64" ]
	[ "$(jq -r '[.processes[] | select(.comm == "busybox") | .capabilities[] |
		select(.cap == "CAP_CHOWN") | .syscalls[] | "\(.name):\(.nr)"] | sort | join(" ")' <<< "$output")" = \
	  "chown:92 fchownat:54" ]
}

@test "check: an x86_64 baseline and arm64 records agree on capabilities; glibc's chown is fchownat there" {
	run -0 "$CAPAUDIT" check --update --baseline "$T/b.json" "$K"/6.18-chown.jsonl \
		"$K"/6.18-nocr.jsonl "$K"/6.18-loop.jsonl
	for k in arm64-6.1 arm64-6.12; do
		run -0 "$CAPAUDIT" check --match capability --baseline "$T/b.json" "$K/$k"-*.jsonl
		[ "${lines[1]}" = "OK: nothing new (3 allowed call sites seen)" ]
		# by syscall: arm64 has no chown(2), glibc calls fchownat
		run -1 "$CAPAUDIT" check --baseline "$T/b.json" "$K/$k"-*.jsonl
		[ "${lines[1]}" = "+ new syscall      CAP_CHOWN in fchownat (at setattr_prepare)" ]
		[ "${lines[2]}" = "      CAP_CHOWN lets a program change a file's owner and group to any user and group" ]
		[ "${lines[3]}" = "- unused syscall   CAP_CHOWN in chown  (hint)" ]
	done
	# a baseline of arm64's records passes them
	run -0 "$CAPAUDIT" check --update --baseline "$T/a.json" "$K"/arm64-6.12-*.jsonl
	run -0 "$CAPAUDIT" check --baseline "$T/a.json" "$K"/arm64-6.1-*.jsonl
	[ "${lines[1]}" = "OK: nothing new (3 allowed call sites seen)" ]
}

@test "check across kernels: a baseline of 6.18's records passes 6.1's and 6.12's; their call sites differ only at --match callsite" {
	K=$ROOT/tests/fixtures/kernels
	run -0 "$CAPAUDIT" check --update --baseline "$T/b.json" "$K"/6.18-chown.jsonl \
		"$K"/6.18-nocr.jsonl "$K"/6.18-loop.jsonl
	[ "$(jq -r '[.capabilities[] | "\(.cap):\(.syscalls | join("+")):\(.callsites | join("+"))"] | join(" ")' "$T/b.json")" = \
	  "CAP_CHOWN:chown:setattr_prepare CAP_SYSLOG:syslog:do_syslog CAP_CHECKPOINT_RESTORE:clone3:alloc_pid" ]
	for k in 6.1 6.12; do
		run -0 "$CAPAUDIT" check --baseline "$T/b.json" "$K/$k"-chown.jsonl "$K/$k"-nocr.jsonl \
			"$K/$k"-loop.jsonl
		[ "${lines[1]}" = "OK: nothing new (3 allowed call sites seen)" ]
		run -0 "$CAPAUDIT" check --match capability --baseline "$T/b.json" "$K/$k"-*.jsonl
	done
	# 6.12 inlines check_syslog_permissions() into do_syslog() as 6.18 does
	run -0 "$CAPAUDIT" check --match callsite --baseline "$T/b.json" "$K"/6.12-*.jsonl
	# 6.1 does not: the call site differs
	run -1 "$CAPAUDIT" check --match callsite --baseline "$T/b.json" "$K"/6.1-*.jsonl
	[ "${lines[1]}" = "+ new call site    CAP_SYSLOG at check_syslog_permissions (syslog)" ]
	[ "${lines[2]}" = "      CAP_SYSLOG lets a program read and clear the kernel's log" ]
	[ "${lines[3]}" = "- unused call site CAP_SYSLOG at do_syslog  (hint)" ]
	[ "${lines[4]}" = "FAIL: 1 finding the baseline does not allow, 1 hint" ]
	# and the JUnit report says the same, with the call site as the test case
	run -1 "$CAPAUDIT" check --match callsite --format junit --baseline "$T/b.json" "$K"/6.1-loop.jsonl
	[[ "$output" == *'<testcase classname="capaudit.CAP_SYSLOG" name="check_syslog_permissions">'* ]]
	run -0 "$CAPAUDIT" check --format junit --baseline "$T/b.json" "$K"/6.1-loop.jsonl
	[[ "$output" == *'<testcase classname="capaudit.CAP_SYSLOG" name="check_syslog_permissions"/>'* ]]
}

@test "diff: the kernel matrix's records, 6.1 against 6.12: CAP_SYSLOG's call site moved (check_syslog_permissions -> do_syslog)" {
	run "$CAPAUDIT" diff "$K/6.1-loop.jsonl" "$K/6.12-loop.jsonl"
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -A2 '^/bin/churn$')" = "$(cat <<'EOF'
/bin/churn
  - CAP_SYSLOG               call site check_syslog_permissions, granted 300
  + CAP_SYSLOG               call site do_syslog, granted 300
EOF
)" ]
	[[ "$output" == *"Required (granted in audited checks): CAP_SYSLOG (no change)"* ]]
	# 6.1 and 6.12 ran busybox and set-pid from one path: the same
	# capabilities, syscalls and call sites, whichever way
	for w in chown nocr; do
		run "$CAPAUDIT" diff "$K/6.1-$w.jsonl" "$K/6.12-$w.jsonl"
		[ "$status" -eq 0 ]
		[ "${lines[-1]}" = "No change: the same capabilities, syscalls, call sites and denials in every program" ]
		run "$CAPAUDIT" diff "$K/6.12-$w.jsonl" "$K/6.1-$w.jsonl"
		[ "$status" -eq 0 ]
	done
	# --noaudit: 6.18's set-pid (another path) probes in pid_table_root_permissions
	run "$CAPAUDIT" diff --noaudit --format json "$K/6.12-nocr.jsonl" "$K/6.18-nocr.jsonl"
	[ "$status" -eq 1 ]
	echo "$output" >"$T/d.json"
	[ "$(jq -s -r '.[0] | "\(.noaudit) \(.required.added | length) \(.denied.added | length)"' "$T/d.json")" = "true 0 0" ]
	[ "$(jq -s -r '.[0].programs[] | select(.in_new) | .changes[] | select(.noaudit and .kind == "callsite") | .callsite' "$T/d.json" | sort | tr '\n' ' ')" = \
	  "pid_table_root_permissions security_vm_enough_memory_mm " ]
	# without --noaudit those are not compared
	run "$CAPAUDIT" diff --format json "$K/6.12-nocr.jsonl" "$K/6.18-nocr.jsonl"
	[ "$(echo "$output" | jq -s '[.[0].programs[].changes[] | select(.noaudit)] | length')" -eq 0 ]
}
