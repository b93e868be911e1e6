#!/usr/bin/env bats
# Every attach mode records the same call sites; a mode this kernel cannot
# attach is skipped with the reason capaudit gives.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

# record_mode MODE: record chown in MODE; skip when the kernel cannot
# attach it, with capaudit's own one-line reason.
record_mode() {
	touch "$T/f"
	run "$CAPAUDIT" record -q --attach "$1" -o "$T/rec.jsonl" -- chown nobody "$T/f"
	if [ "$status" -ne 0 ]; then
		case "$output" in
		*"attach mode $1: "*) skip "$1 unavailable here: ${output#capaudit: attach mode $1: }" ;;
		esac
		echo "$output"
		return 1
	fi
	report_json --all
	[ "$(jqr '.record.attach')" = "$1" ]
	[ "$(caps_of chown)" = "CAP_CHOWN 1 0 setattr_prepare" ]
	[ "$(jqr '.processes[0].capabilities[] | select(.cap=="CAP_CHOWN")
		| .callsites[0].stack[0:3] | join(" ")' | sed 's/+0x[0-9a-f]*//g')" = \
	  "cap_capable security_capable capable_wrt_inode_uidgid" ]
	# exec and mmap probing is noaudit in every mode, from opts or the stack
	[ "$(jqr '.processes[0].capabilities[] | select(.cap=="CAP_SYS_ADMIN") | .noaudit')" = "true" ]
	[ "$(jqr '.required | join(",")')" = "CAP_CHOWN" ]
}

@test "attach tp_btf: chown's CAP_CHOWN at setattr_prepare" {
	record_mode tp_btf
}

@test "attach tracepoint: same call site through tracefs" {
	ensure_tracefs || skip "tracefs cannot be mounted here"
	record_mode tracepoint
}

@test "attach fexit: same call site, noaudit from the opts argument" {
	record_mode fexit
	[ "$(jqr '.processes[0].capabilities[] | select(.cap=="CAP_SYS_ADMIN") | .noaudit_by')" = "opts" ]
}

@test "attach kprobe: same call site, noaudit from the opts argument" {
	record_mode kprobe
	[ "$(jqr '.processes[0].capabilities[] | select(.cap=="CAP_SYS_ADMIN") | .noaudit_by')" = "opts" ]
}

@test "attach auto picks tp_btf when the kernel has the cap_capable trace event" {
	grep -q btf_trace_cap_capable <(bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null) ||
		skip "this kernel has no capability:cap_capable trace event"
	touch "$T/f"
	run record -- chown nobody "$T/f"
	[ "$status" -eq 0 ]
	report_json
	[ "$(jqr '.record.attach')" = "tp_btf" ]
}

@test "an unavailable mode names itself and the reason, and exits non-zero" {
	local m out
	for m in fexit kprobe; do
		run "$CAPAUDIT" record -q --attach "$m" -o "$T/rec.jsonl" -- /bin/true
		if [ "$status" -ne 0 ]; then
			[ "$status" -eq 1 ]
			[ "${#lines[@]}" -eq 1 ]
			[[ "$output" == "capaudit: attach mode $m: "* ]]
			[ ! -e "$T/rec.jsonl" ]
			out=1
		fi
	done
	[ -n "${out:-}" ] || skip "fexit and kprobe both attach here"
}

@test "--attach with a list tries the modes in order and records the first that attaches" {
	local m works="" broken=""
	# which modes this kernel attaches (capaudit's own answer)
	for m in fexit kprobe tp_btf tracepoint; do
		if "$CAPAUDIT" record -q --attach "$m" -o "$T/probe.jsonl" -- /bin/true 2>/dev/null; then
			works="$works $m"
		else
			broken="$broken $m"
		fi
	done
	works=${works# } broken=${broken# }
	[ -n "$works" ]
	[ -n "$broken" ] || skip "every mode attaches here: no failing mode to fall back from"
	# the failing modes first, then the working ones: the first working one wins
	touch "$T/f"
	run "$CAPAUDIT" record -q --attach "$(echo $broken $works | tr ' ' ,)" -o "$T/rec.jsonl" \
		-- chown nobody "$T/f"
	[ "$status" -eq 0 ]
	report_json
	[ "$(jqr '.record.attach')" = "${works%% *}" ]
	[ "$(caps_of chown)" = "CAP_CHOWN 1 0 setattr_prepare" ]
	# only failing modes: one line naming each, in the order given
	run "$CAPAUDIT" record -q --attach "$(echo $broken | tr ' ' ,)" -o "$T/rec2.jsonl" -- /bin/true
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[ ! -e "$T/rec2.jsonl" ]
	if [ "$(echo $broken | wc -w)" -gt 1 ]; then
		[[ "$output" == "capaudit: no attach mode works here: ${broken%% *}: "* ]]
	fi
}

@test "--attach refuses a repeated mode, auto inside a list, an empty word" {
	local bad
	for bad in fexit,fexit auto,kprobe tp_btf, ,tp_btf tp-btf; do
		run "$CAPAUDIT" record -q --attach "$bad" -o "$T/rec.jsonl" -- /bin/true
		[ "$status" -eq 2 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "capaudit: bad attach mode "*" in '$bad': auto, or one or more of"* ]]
		[ ! -e "$T/rec.jsonl" ]
	done
}
