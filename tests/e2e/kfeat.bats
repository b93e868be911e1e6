#!/usr/bin/env bats
# The paths older kernels take (docs/kernel-facts.md, "What each kernel gives
# the recorder's BPF"), tried on this one: CAPAUDIT_WITHOUT takes BPF features
# away, and the record must say the same as with all of them (the kernel
# matrix runs them for real on Debian 11's 5.10). Also what a record and
# doctor say of a missing feature, and RLIMIT_MEMLOCK around the command.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

SETPID=$ROOT/build/set-pid
SIG=$ROOT/tools/vm/signature.jq
ALL=task_btf,task_pt_regs,find_vma,task_storage

setup() {
	e2e_setup
	[ -x "$SETPID" ] || skip "build/set-pid is not built (make test builds it)"
}

# sig NAME: the comparable lines of $T/NAME.jsonl (tools/vm/signature.jq),
# user frames without the leaf frame, noaudit counts left out
sig() {
	"$CAPAUDIT" report --all --format json -i "$T/$1.jsonl" |
		jq -r --arg kind w --arg leaf no -f "$SIG" | grep -v '^kernel-only'
	"$CAPAUDIT" report --suggest --format json -i "$T/$1.jsonl" |
		jq -r --arg kind suggest-w --arg leaf no -f "$SIG"
}

# run_both NAME: clone3 with set_tid as root (--syscall-results,
# --user-stacks) and as uid 65534 without capabilities (denied, blocking)
run_both() {
	"$CAPAUDIT" record -q --syscall-results --user-stacks -o "$T/$1.jsonl" -- "$SETPID" clone3 \
		>/dev/null
	"$CAPAUDIT" run -q --caps none --user 65534 --format json -o "$T/$1-nobody.jsonl" \
		-- "$SETPID" clone3 >/dev/null 2>&1 || true
	{ sig "$1"; sig "$1-nobody"; } > "$T/$1.sig"
}

@test "each older path records what the newest does: clone3 as root and as uid 65534, syscalls, results, user frames" {
	run_both all
	grep -q '^w set-pid CAP_CHECKPOINT_RESTORE granted 1 denied 0 at alloc_pid:1/0 in clone3$' "$T/all.sig"
	grep -q '^suggest-w denial CAP_CHECKPOINT_RESTORE .* at alloc_pid x1 failed 1 blocking in clone3$' "$T/all.sig"
	grep -q '^w set-pid CAP_CHECKPOINT_RESTORE at alloc_pid from .* (no leaf frame)$' "$T/all.sig"
	for w in task_btf task_pt_regs find_vma task_storage $ALL; do
		CAPAUDIT_WITHOUT=$w run_both "without-$w"
		diff -u "$T/all.sig" "$T/without-$w.sig"
		# the header names what was missing (task_btf takes the other three along)
		want=$w
		[ "$w" = task_btf ] && want=$ALL
		[ "$(head -n 1 "$T/without-$w.jsonl" | jq -r '.kernel_bpf.missing | join(",")')" = "$want" ]
	done
	# with everything, nothing is missing: no kernel_bpf at all
	[ "$(head -n 1 "$T/all.jsonl" | jq -r 'has("kernel_bpf")')" = false ]
}

@test "without bpf_find_vma: no leaf frame, said in the header and on stderr" {
	"$CAPAUDIT" record -q --user-stacks -o "$T/leaf.jsonl" -- "$SETPID" clone3 >/dev/null
	CAPAUDIT_WITHOUT=find_vma "$CAPAUDIT" record --user-stacks -o "$T/noleaf.jsonl" \
		-- "$SETPID" clone3 >/dev/null 2>"$T/err"
	grep -q '^capaudit: note: --user-stacks without leaf frames: .* bpf_find_vma() needs Linux 5.17 (commit 7c7e3d31e785)$' "$T/err"
	[ "$(head -n 1 "$T/noleaf.jsonl" | jq -r '.kernel_bpf.degraded | length')" = 1 ]
	# the leaf frame (set-pid.c's caller of syscall()) only where find_vma was
	for f in leaf noleaf; do
		"$CAPAUDIT" report --all --format json -i "$T/$f.jsonl" | jq -r '[.processes[].capabilities[]
			| select(.cap == "CAP_CHECKPOINT_RESTORE") | .callsites[].user[].frames[]
			| select(.leaf == true)] | length' > "$T/$f.n"
	done
	[ "$(cat "$T/leaf.n")" = 1 ]
	[ "$(cat "$T/noleaf.n")" = 0 ]
	# the header (format 5) names the architecture and what the kernel
	# lacked; report's text, JSON and html page carry both
	arch=$(uname -m | sed 's/aarch64/arm64/')
	[ "$(head -n 1 "$T/noleaf.jsonl" | jq -r '"\(.version) \(.arch) \(.kernel_bpf.missing | join(","))"')" = "7 $arch find_vma" ]
	"$CAPAUDIT" report -i "$T/noleaf.jsonl" > "$T/report.txt"
	grep -q '^  note: --user-stacks without leaf frames: the caller of a syscall wrapper .* bpf_find_vma() needs Linux 5.17 (commit 7c7e3d31e785)$' "$T/report.txt"
	[ "$("$CAPAUDIT" report --format json -i "$T/noleaf.jsonl" |
		jq -r '"\(.record.arch) \(.record.kernel_bpf.missing | join(",")) \(.record.kernel_bpf.degraded | length)"')" = "$arch find_vma 1" ]
	"$CAPAUDIT" report --format html -i "$T/noleaf.jsonl" > "$T/page.html"
	grep -q "^<li class=\"kernel-bpf\">$T/noleaf.jsonl: --user-stacks without leaf frames: .*(commit 7c7e3d31e785)</li>$" "$T/page.html"
	"$CAPAUDIT" report --format html -i "$T/leaf.jsonl" > "$T/page-leaf.html"
	! grep -q 'kernel-bpf' "$T/page-leaf.html"
	# without --user-stacks nothing is lost, and nothing is said
	CAPAUDIT_WITHOUT=find_vma "$CAPAUDIT" record -o "$T/plain.jsonl" -- true 2>"$T/err2"
	! grep -q 'note:' "$T/err2"
	[ "$(head -n 1 "$T/plain.jsonl" | jq -c '.kernel_bpf')" = '{"missing":["find_vma"],"degraded":[]}' ]
}

@test "CAPAUDIT_WITHOUT naming no feature: one line, nothing recorded" {
	run -1 env CAPAUDIT_WITHOUT=task_btf,vma "$CAPAUDIT" record -q -o "$T/x.jsonl" -- true
	[ "$output" = "capaudit: CAPAUDIT_WITHOUT: 'vma' is not a BPF feature capaudit knows: task_btf, task_pt_regs, find_vma, task_storage or kretprobe_stack, comma-separated" ]
	[ ! -e "$T/x.jsonl" ]
}

@test "doctor: the features, the path each missing one means, BPF memory" {
	run -0 "$CAPAUDIT" doctor
	[[ "$output" == *"  find_vma         yes: bpf_find_vma()"* ]]
	[[ "$output" == *"  BPF memory       the memory cgroup (Linux 5.11+)"* ]]
	run -0 env CAPAUDIT_WITHOUT=task_pt_regs,find_vma "$CAPAUDIT" doctor
	[[ "$output" == *"  task_pt_regs     no: bpf_task_pt_regs() needs Linux 5.15 (commit dd6e10fbd9fb); instead the syscall registers read from the top of the task's kernel stack"* ]]
	[[ "$output" == *"  degraded: --user-stacks without leaf frames"* ]]
	[[ "$output" == *"Verdict: capaudit record works here"* ]]
	CAPAUDIT_WITHOUT=find_vma "$CAPAUDIT" doctor --format json > "$T/d.json"
	[ "$(jq -c '.bpf_features | [.task_btf, .find_vma, (.degraded | length), .memlock.rlimit]' "$T/d.json")" = '[true,false,1,false]' ]
}

@test "RLIMIT_MEMLOCK: raised for the recorder, the command keeps its own" {
	run -0 bash -c "ulimit -l 1024; '$CAPAUDIT' record -q -o '$T/m.jsonl' -- sh -c 'ulimit -l'"
	[ "$output" = 1024 ]
	# doctor reports the limit the recording has: unlimited where the hard
	# limit can be raised (CAP_SYS_RESOURCE; this machine's root may lack
	# it in its bounding set), else the hard limit
	local want=1024
	(( 0x$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status) >> 24 & 1 )) && want=null
	[ "$(bash -c "ulimit -l 1024; '$CAPAUDIT' doctor --format json" | jq -r '.bpf_features.memlock.limit_kib')" = "$want" ]
	[ "$(bash -c "ulimit -S -l 512; '$CAPAUDIT' doctor --format json" |
		jq -r '.bpf_features.memlock.limit_kib')" = "$( [ $want = null ] && echo null || ulimit -H -l)" ]
}
