#!/usr/bin/env bats
# Records made on arm64 read on this machine (x86_64): the kernel matrix's
# arm64 guests' records (tests/fixtures/kernels/arm64-*), whose syscall
# numbers are arm64's (asm-generic's table), named from the architecture
# the header gives, never from this machine's. (The other way round, an
# x86_64 record read by the aarch64 capaudit, is tools/vmtest.sh's:
# each guest reports the host's record.)

load helper

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
		[ "${lines[2]}" = "- unused syscall   CAP_CHOWN in chown  (hint)" ]
	done
	# a baseline of arm64's records passes them
	run -0 "$CAPAUDIT" check --update --baseline "$T/a.json" "$K"/arm64-6.12-*.jsonl
	run -0 "$CAPAUDIT" check --baseline "$T/a.json" "$K"/arm64-6.1-*.jsonl
	[ "${lines[1]}" = "OK: nothing new (3 allowed call sites seen)" ]
}
