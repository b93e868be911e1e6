#!/usr/bin/env bats
# tier: plain (CRIU runs once: Debian 13's CRIU 4.1.1, set up by
# tools/criu-setup.sh, dumping a process many times over in verify)
# CAP_CHECKPOINT_RESTORE with real CRIU (docs/capsites.md). CRIU 4.1.1
# dumps with --unprivileged holding only CAP_CHECKPOINT_RESTORE
# (kernel/pid.c, fs/proc/base.c proc_map_files_get_link(), kernel/sys.c
# prctl_set_mm_map()); against a process whose permitted set its own does
# not cover it needs CAP_SYS_PTRACE too (security/commoncap.c
# cap_ptrace_access_check()). The ground truth is found by running it with
# exact sets; capaudit's first answer must hold CAP_CHECKPOINT_RESTORE,
# never CAP_SYS_ADMIN in its place; verify must prove the ground truth.

load helper

setup() {
	e2e_setup
	[ "$(uname -m)" = x86_64 ] || skip "tools/criu-setup.sh sets up the x86_64 CRIU"
	CRIU=$(tools_criu) || skip "CRIU 4.1.1 cannot be set up here: $CRIU"
	# CRIU stops the task with a hardware breakpoint, which never fires
	# under TCG or in some VMs: its own fault code for "no breakpoints"
	export CRIU_FAULT=130
	# images where the user reaches them ($T's parents may be private)
	IMG=$(mktemp -d /tmp/capaudit-criu.XXXXXX)
	chmod 755 "$IMG"
}

teardown() {
	[ -n "${VICTIM:-}" ] && kill "$VICTIM" 2>/dev/null
	[ -n "${IMG:-}" ] && rm -rf "$IMG"
	e2e_teardown
}

tools_criu() {
	"$BATS_TEST_DIRNAME/../../tools/criu-setup.sh"
}

# a process with no children that runs until killed, as user $1, in /,
# no descriptor of bats' (CRIU stats the victim's working directory and
# open files: the user must reach them)
start_victim() {
	local here=$PWD
	cd /
	setpriv --reuid="$1" --regid="$1" --clear-groups setsid \
		perl -MPOSIX -e 'POSIX::close($_) for 3 .. 1023; while (1) { sleep 1 }' \
		</dev/null >/dev/null 2>&1 &
	VICTIM=$!
	cd "$here"
	# running perl, with bats' descriptors closed (until then CRIU, as
	# the user, cannot stat the files they name)
	wait_for 10 sh -c "grep -q perl /proc/$VICTIM/cmdline && [ \$(ls /proc/$VICTIM/fd | wc -l) = 3 ]"
}

# dump_as USER CAPS: dump $VICTIM holding exactly CAPS (as root: the
# bounding set; as another user: ambient), leaving it running
dump_as() {
	local b=-all c
	for c in ${2//,/ }; do b="$b,+${c,,}"; done
	if [ "$1" = 0 ]; then
		setpriv --bounding-set="${b//+cap_/+}" --inh-caps=-all -- \
			"$CRIU" dump --unprivileged --leave-running -t "$VICTIM" -D "$IMG" --shell-job \
			-o dump.log
	else
		setpriv --reuid="$1" --regid="$1" --clear-groups --inh-caps="${b//+cap_/+}" \
			--ambient-caps="${b//+cap_/+}" -- \
			"$CRIU" dump --unprivileged --leave-running -t "$VICTIM" -D "$IMG" --shell-job \
			-o dump.log
	fi
	local rc=$?
	# (CRIU's own account, for a failure's output)
	tail -n 5 "$IMG/dump.log" 2>/dev/null
	return $rc
}

@test "criu dump --unprivileged as an ordinary user: CAP_CHECKPOINT_RESTORE, proven by verify" {
	chown 65534:65534 "$IMG"
	start_victim 65534
	# the ground truth, by running it
	run dump_as 65534 CAP_CHECKPOINT_RESTORE
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -s "$IMG/pagemap-$VICTIM.img" ]
	run dump_as 65534 ""
	[ "$status" -ne 0 ]
	# the first answer, recorded with every capability (ambient)
	run "$CAPAUDIT" record -q -o "$T/rec.jsonl" -- setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps=+all,-sys_resource --ambient-caps=+all,-sys_resource -- \
		"$CRIU" dump --unprivileged --leave-running -t "$VICTIM" -D "$IMG" --shell-job -o dump.log
	[ "$status" -eq 0 ]
	"$CAPAUDIT" report --suggest --program criu --format json -i "$T/rec.jsonl" >"$T/rep.json"
	# CRIU's probes (fsopen(), pagemap's frame numbers) are its only
	# CAP_SYS_ADMIN: verify's to decide, with the feature; so nothing
	# covers CAP_CHECKPOINT_RESTORE (at proc_map_files_get_link), required
	[ "$(jqr '[.verify_decides[] | select(.cap == "CAP_SYS_ADMIN") | .why] | unique | join(",")')" = probe ]
	[[ "$(jqr '[.verify_decides[] | select(.cap == "CAP_SYS_ADMIN") | .callsite] | sort | join(",")')" == *fsopen*pagemap_read* ]]
	[[ ",$(jqr '.required | join(",")')," == *,CAP_CHECKPOINT_RESTORE,* ]]
	[[ ",$(jqr '.required | join(",")')," != *,CAP_SYS_ADMIN,* ]]
	[[ "$(jqr '[.keep[] | select(.cap == "CAP_CHECKPOINT_RESTORE") | .callsites[]] | join(",")')" == *proc_map_files_get_link* ]]
	# CRIU's helpers reach each other (/proc/PID/maps, a pidfd): processes
	# it made, which inherit its set, so no CAP_SYS_PTRACE; the victim
	# holds nothing
	[[ ",$(jqr '[.required[], .verify_decides[].cap] | join(",")')," != *,CAP_SYS_PTRACE,* ]]
	# a snippet grants both, and says why
	run "$CAPAUDIT" report --emit capsh --program criu -i "$T/rec.jsonl"
	[[ "$output" == *"CAP_SYS_ADMIN: granted, but only capaudit verify can tell"* ]]
	# verify proves the ground truth
	run "$CAPAUDIT" verify -q --user 65534 --program criu --format json -- \
		"$CRIU" dump --unprivileged --leave-running -t "$VICTIM" -D "$IMG" --shell-job -o dump.log
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = CAP_CHECKPOINT_RESTORE ]
}

@test "criu dump --unprivileged as root with a reduced set against a root process: CAP_SYS_PTRACE too" {
	start_victim 0
	run dump_as 0 CAP_CHECKPOINT_RESTORE,CAP_SYS_PTRACE
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run dump_as 0 CAP_CHECKPOINT_RESTORE
	[ "$status" -ne 0 ]
	run dump_as 0 CAP_SYS_PTRACE
	[ "$status" -ne 0 ]
	# the first answer, recorded as root: CAP_SYS_PTRACE, which no check
	# asked for (CRIU's set covered the victim's: the ptrace-access hooks
	# saw it reach the victim), and CAP_CHECKPOINT_RESTORE
	run "$CAPAUDIT" record -q -o "$T/rec.jsonl" -- \
		"$CRIU" dump --unprivileged --leave-running -t "$VICTIM" -D "$IMG" --shell-job -o dump.log
	[ "$status" -eq 0 ]
	"$CAPAUDIT" report --suggest --program criu --format json -i "$T/rec.jsonl" >"$T/rep.json"
	[ "$(jqr '.ptrace_shortcut.needs_sys_ptrace')" = true ]
	[[ ",$(jqr '.required | join(",")')," == *,CAP_SYS_PTRACE,* ]]
	[[ ",$(jqr '[.required[], .verify_decides[].cap] | join(",")')," == *,CAP_CHECKPOINT_RESTORE,* ]]
	# verify: the run without CAP_SYS_PTRACE is refused at the ptrace
	# access check, and the set grows by it
	run "$CAPAUDIT" verify -q --program criu --format json -- \
		"$CRIU" dump --unprivileged --leave-running -t "$VICTIM" -D "$IMG" --shell-job -o dump.log
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = CAP_SYS_PTRACE,CAP_CHECKPOINT_RESTORE ]
}
