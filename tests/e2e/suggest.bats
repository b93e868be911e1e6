#!/usr/bin/env bats
# report --suggest on real recordings: the CAP_RESTORE seed operations
# (clone3 set_tid, ns_last_pid), a real CAP_SYS_ADMIN need, denials.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

SETPID="$ROOT/build/set-pid"
BPFOPS="$ROOT/build/bpf-ops"
NO_CR="setpriv --inh-caps=-checkpoint_restore --bounding-set=-checkpoint_restore"
AS_NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"

suggest_json() {
	"$CAPAUDIT" report --suggest --format json -i "$T/rec.jsonl" "$@" >"$T/rep.json"
}

@test "clone3 set_tid as plain root: CAP_CHECKPOINT_RESTORE required, not CAP_SYS_ADMIN" {
	run record -- "$SETPID" clone3
	[ "$status" -eq 0 ]
	suggest_json
	[ "$(jqr '.required | join(",")')" = "CAP_CHECKPOINT_RESTORE" ]
	[ "$(jqr '.observed | join(",")')" = "CAP_CHECKPOINT_RESTORE" ]
	[ "$(jqr '.suggestions | length')" = "0" ]
	[ "$(jqr '.keep[] | "\(.cap) \(.callsites | join(","))"')" = "CAP_CHECKPOINT_RESTORE alloc_pid" ]
}

@test "ns_last_pid as plain root: CAP_CHECKPOINT_RESTORE required, not CAP_SYS_ADMIN" {
	run record -- "$SETPID" ns_last_pid
	[ "$status" -eq 0 ]
	suggest_json
	[ "$(jqr '.required | join(",")')" = "CAP_CHECKPOINT_RESTORE" ]
	[ "$(jqr '.keep[] | "\(.cap) \(.callsites | join(","))"')" = "CAP_CHECKPOINT_RESTORE pid_ns_ctl_handler" ]
}

@test "clone3 set_tid without CAP_CHECKPOINT_RESTORE: replace CAP_SYS_ADMIN at alloc_pid (observed)" {
	run record -- $NO_CR "$SETPID" clone3
	[ "$status" -eq 0 ]
	suggest_json --program set-pid
	[ "$(jqr '.observed | join(",")')" = "CAP_SYS_ADMIN" ]
	[ "$(jqr '.required | join(",")')" = "CAP_CHECKPOINT_RESTORE" ]
	[ "$(jqr '.suggestions | length')" = "1" ]
	[ "$(jqr '.suggestions[0] | "\(.replace) \(.with) \(.with_alias) \(.callsites | join(",")) \(.since) \(.evidence)"')" = \
	  "CAP_SYS_ADMIN CAP_CHECKPOINT_RESTORE CAP_RESTORE alloc_pid 5.9 observed" ]
	[ "$(jqr '.keep | length')" = "0" ]
	[ "$(jqr '.denials | length')" = "0" ]
	# the text form says the same, with both names
	run "$CAPAUDIT" report --suggest --program set-pid -i "$T/rec.jsonl"
	[[ "$output" == *"CAP_SYS_ADMIN -> CAP_CHECKPOINT_RESTORE (proposed as CAP_RESTORE), accepted since Linux 5.9"* ]]
	[[ "$output" == *"at alloc_pid (clone3)"* ]]
	[[ "$output" == *"evidence: observed fallback"* ]]
}

@test "ns_last_pid without CAP_CHECKPOINT_RESTORE: replace CAP_SYS_ADMIN at pid_ns_ctl_handler" {
	run record -- $NO_CR "$SETPID" ns_last_pid
	[ "$status" -eq 0 ]
	suggest_json --program set-pid
	[ "$(jqr '.required | join(",")')" = "CAP_CHECKPOINT_RESTORE" ]
	[ "$(jqr '.suggestions[0] | "\(.with) \(.callsites | join(",")) \(.evidence)"')" = \
	  "CAP_CHECKPOINT_RESTORE pid_ns_ctl_handler observed" ]
	[ "$(jqr '.suggestions[0].details[0].syscalls | join(",")')" = "write" ]
}

@test "the wrapper's own capabilities stay with the wrapper" {
	run record -- $NO_CR "$SETPID" clone3
	[ "$status" -eq 0 ]
	suggest_json
	[ "$(jqr '.programs[] | select(.comm=="setpriv") | .required | join(",")')" = "CAP_SETPCAP" ]
	[ "$(jqr '.programs[] | select(.exe | endswith("/set-pid")) | .required | join(",")' | head -1)" = \
	  "CAP_CHECKPOINT_RESTORE" ]
	[ "$(jqr '.required | join(",")')" = "CAP_SETPCAP,CAP_CHECKPOINT_RESTORE" ]
}

@test "unshare -m true needs CAP_SYS_ADMIN for real: it is kept" {
	run record -- unshare -m true
	[ "$status" -eq 0 ]
	suggest_json
	[ "$(jqr '.required | join(",")')" = "CAP_SYS_ADMIN" ]
	[ "$(jqr '.suggestions | length')" = "0" ]
	[ "$(jqr '.keep[] | select(.cap=="CAP_SYS_ADMIN") | .callsites | index("unshare_nsproxy_namespaces") != null')" = "true" ]
	run "$CAPAUDIT" report --suggest -i "$T/rec.jsonl"
	[[ "$output" == *"CAP_SYS_ADMIN stays required: it cannot be dropped"* ]]
}

@test "iterating BPF objects: CAP_SYS_ADMIN, nothing narrower, and program-dependent: verify decides" {
	run record -- "$BPFOPS" next-id
	[ "$status" -eq 0 ]
	suggest_json
	[ "$(jqr '.required | join(",")')" = "" ]
	[ "$(jqr '.verify_decides[] | "\(.cap) \(.callsite) \(.why)"')" = \
	  "CAP_SYS_ADMIN bpf_obj_get_next_id program-dependent" ]
	[[ "$(jqr '.verify_decides[0].fact_source')" == *"bpf_obj_get_next_id(): capable(CAP_SYS_ADMIN), nothing narrower"* ]]
	[[ "$(jqr '.verify_decides[0].denied_means')" == *"bpftool prog show"* ]]
}

@test "CAP_BPF alone: the array map's CAP_PERFMON denial is advisory" {
	run record --syscall-results -- $AS_NOBODY --inh-caps=-all,+bpf --ambient-caps=-all,+bpf "$BPFOPS" array
	[ "$status" -eq 0 ]
	suggest_json --program bpf-ops
	[ "$(jqr '.required | join(",")')" = "CAP_BPF" ]
	[ "$(jqr '.denials[] | "\(.cap) \(.also_accepted) \(.callsite) \(.kind) \(.syscall_failed)"')" = \
	  "CAP_PERFMON CAP_SYS_ADMIN array_map_alloc advisory 0" ]
}

@test "no capabilities at all: the clone3 denial is blocking" {
	run record --syscall-results -- $AS_NOBODY "$SETPID" clone3
	[ "$status" -eq 1 ]
	suggest_json --program set-pid
	[ "$(jqr '.required | length')" = "0" ]
	[ "$(jqr '.denied | join(",")')" = "CAP_CHECKPOINT_RESTORE" ]
	[ "$(jqr '.denials[] | "\(.cap) \(.also_accepted) \(.callsite) \(.kind) \(.syscall_failed)"')" = \
	  "CAP_CHECKPOINT_RESTORE CAP_SYS_ADMIN alloc_pid blocking 1" ]
	run "$CAPAUDIT" report --suggest --program set-pid -i "$T/rec.jsonl"
	[[ "$output" == *"denied, and the syscall failed (EPERM/EACCES, 1x)"* ]]
	# recorded without the syscall results: the same denial says what is
	# not known, and how to know it
	run record -- $AS_NOBODY "$SETPID" clone3
	[ "$status" -eq 1 ]
	run "$CAPAUDIT" report --suggest --program set-pid -i "$T/rec.jsonl"
	[[ "$output" == *"alloc_pid (clone3), 1x: denied; whether the syscall then failed is not known (record with --syscall-results to see)"* ]]
}

@test "noaudit probing never makes anything required" {
	run record -- /bin/true
	suggest_json
	[ "$(jqr '.required | length')" = "0" ]
	[ "$(jqr '.observed | length')" = "0" ]
	[ "$(jqr '.denials | length')" = "0" ]
}

@test "--emit snippets for the suggested set, and the capsh one really runs the program" {
	run record -- $NO_CR "$SETPID" clone3
	[ "$status" -eq 0 ]
	run "$CAPAUDIT" report --emit systemd --program set-pid -i "$T/rec.jsonl"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[5]}" = "CapabilityBoundingSet=CAP_CHECKPOINT_RESTORE" ] ||
		"$CAPAUDIT" report --suggest --program set-pid -i "$T/rec.jsonl"
	# as root: the bounding set is enough, no ambient set, no user; set-pid
	# is no setuid program, so privilege gains can be forbidden
	[ "${lines[6]}" = "AmbientCapabilities=" ]
	[ "${lines[7]}" = "NoNewPrivileges=yes" ]
	run "$CAPAUDIT" report --emit docker --program set-pid -i "$T/rec.jsonl"
	[ "$output" = "--cap-drop ALL --cap-add CHECKPOINT_RESTORE --security-opt no-new-privileges" ]
	run "$CAPAUDIT" report --emit kubernetes --program set-pid -i "$T/rec.jsonl"
	[ "${lines[3]}" = '    add: ["CHECKPOINT_RESTORE"]' ]
	[ "${lines[4]}" = '  allowPrivilegeEscalation: false' ]
	run "$CAPAUDIT" report --emit compose --program set-pid -i "$T/rec.jsonl"
	[ "${lines[2]}" = 'cap_add: ["CHECKPOINT_RESTORE"]' ]
	run "$CAPAUDIT" report --emit setcap --program set-pid -i "$T/rec.jsonl"
	[ "$output" = "setcap cap_checkpoint_restore+ep $SETPID" ]
	# capsh: everything but CAP_CHECKPOINT_RESTORE dropped, clone3 set_tid still works
	run "$CAPAUDIT" report --emit capsh --program set-pid -i "$T/rec.jsonl"
	[[ "$output" == *"cap_sys_admin"* ]]
	local line=${output%% -- -c *}
	run $line -- -c "$SETPID clone3"
	[ "$status" -eq 0 ]
	[[ "$output" == *"child got pid"* ]]
	# and with CAP_CHECKPOINT_RESTORE dropped too, the same command fails
	run ${line/--drop=/--drop=cap_checkpoint_restore,} -- -c "$SETPID clone3"
	[ "$status" -eq 1 ]
	[[ "$output" == *"Operation not permitted"* ]]
}

@test "report --emit and --program reject bad values" {
	run record -- /bin/true
	run "$CAPAUDIT" report --emit nginx -i "$T/rec.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown --emit kind 'nginx'"* ]]
	run "$CAPAUDIT" report --suggest --program nosuch -i "$T/rec.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--program nosuch: no program of that name"* ]]
	run "$CAPAUDIT" report --program true -i "$T/rec.jsonl"
	[ "$status" -eq 2 ]
}

@test "a record from Linux 5.4 (no narrow checks yet) gets table advice, marked as such" {
	"$CAPAUDIT" report --suggest --format json -i "$ROOT/tests/fixtures/kernel-5.4-clone3.jsonl" >"$T/rep.json"
	[ "$(jqr '.required | join(",")')" = "CAP_SYS_ADMIN,CAP_CHECKPOINT_RESTORE" ]
	[ "$(jqr '.suggestions[0] | "\(.with) \(.callsites | join(",")) \(.evidence) \(.since) \(.kernel_too_old)"')" = \
	  "CAP_CHECKPOINT_RESTORE alloc_pid,pid_ns_ctl_handler kernel-fact 5.9 true" ]
	[ "$(jqr '.keep[0] | "\(.cap) \(.callsites | join(","))"')" = "CAP_SYS_ADMIN path_mount" ]
	run "$CAPAUDIT" report --suggest -i "$ROOT/tests/fixtures/kernel-5.4-clone3.jsonl"
	[[ "$output" == *"evidence: kernel fact (kernel/pid.c alloc_pid(); include/linux/capability.h checkpoint_restore_ns_capable(), merged for 5.9"* ]]
	[[ "$output" == *"note: needs Linux 5.9 or later; this record's kernel is 5.4.0-150-generic"* ]]
}
