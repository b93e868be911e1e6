#!/usr/bin/env bats
# capaudit records with CAP_BPF and CAP_PERFMON only, and doctor explains
# the host.

load helper

NEEDED=000000c000000000   # CAP_PERFMON (38) | CAP_BPF (39)
AS_NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
WITH_BPF_PERFMON="--inh-caps=-all,+bpf,+perfmon --ambient-caps=-all,+bpf,+perfmon"

status_field() {   # status_field PID FIELD
	awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"
}

@test "as root, the loader keeps exactly CAP_BPF and CAP_PERFMON while recording" {
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" -- sleep 60 &
	local rec=$!
	wait_attached "$rec"
	wait_command "$rec" sleep
	[ "$(status_field $rec CapEff)" = "$NEEDED" ]
	[ "$(status_field $rec CapPrm)" = "$NEEDED" ]
	[ "$(status_field $rec CapBnd)" = "$NEEDED" ]
	[ "$(status_field $rec CapInh)" = "0000000000000000" ]
	[ "$(status_field $rec CapAmb)" = "0000000000000000" ]
	[ "$(status_field $rec NoNewPrivs)" = "1" ]
	pkill -x -P "$rec" sleep
	wait $rec || true
	report_json
	[ "$(jqr '.processes[0].comm')" = "sleep" ]
}

@test "the command in -- COMMAND mode keeps the caller's own privileges" {
	run record -- sh -c "grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status > $T/caps"
	[ "$status" -eq 0 ]
	[ "$(cat "$T/caps")" = "$(grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status)" ]
	[[ "$(cat "$T/caps")" != *"$NEEDED"* ]]
}

@test "an ordinary user holding only CAP_BPF and CAP_PERFMON records the same call sites" {
	chmod 777 "$T"
	touch "$T/f" "$T/g"
	chown nobody "$T/f"
	# the user's own workload, which chowns twice (denied: it has no
	# CAP_CHOWN), each time on a signal file; root records it once, the
	# user once (a user may follow only its own processes)
	$AS_NOBODY bash -c 'for x in 1 2; do while [ ! -e "$1/go$x" ]; do sleep 0.05; done;
		chown root "$1/f" 2>/dev/null; : >"$1/done$x"; done; sleep 0.2' _ "$T" &
	local pid=$!
	"$CAPAUDIT" record -q -o "$T/root.jsonl" -p "$pid" &
	local a=$!
	wait_attached "$a"
	touch "$T/go1"
	wait_for 5 test -e "$T/done1"
	kill -INT "$a"
	wait $a
	$AS_NOBODY $WITH_BPF_PERFMON "$CAPAUDIT" record -q -o "$T/rec.jsonl" -p "$pid" &
	local b=$!
	wait_attached "$b"
	touch "$T/go2"
	wait $b
	wait $pid || true
	report_json
	[ "$(caps_of chown)" = "CAP_CHOWN 0 1 setattr_prepare" ]
	# symbols without CAP_SYSLOG: the iter/ksym iterator
	[ "$(head -1 "$T/rec.jsonl" | jq -r .symbols)" = "iter/ksym" ]
	local s_user s_root
	s_user=$(jqr '.processes[] | select(.comm=="chown") | .capabilities[0].callsites[0].stack
		| map(sub("\\+0x[0-9a-f]+"; "")) | join(" ")')
	"$CAPAUDIT" report -i "$T/root.jsonl" --format json >"$T/rep.json"
	[ "$(caps_of chown)" = "CAP_CHOWN 0 1 setattr_prepare" ]
	s_root=$(jqr '.processes[] | select(.comm=="chown") | .capabilities[0].callsites[0].stack
		| map(sub("\\+0x[0-9a-f]+"; "")) | join(" ")')
	[ "$s_user" = "$s_root" ]
	[[ "$s_user" == "cap_capable security_capable capable_wrt_inode_uidgid setattr_prepare"* ]]
}

@test "a user without those capabilities gets one clear line" {
	run $AS_NOBODY --inh-caps=-all --ambient-caps=-all "$CAPAUDIT" record -o /tmp/x.jsonl -- /bin/true
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "capaudit: missing CAP_PERFMON, CAP_BPF (capaudit loads a BPF program): run as root, or grant them once with: setcap cap_bpf,cap_perfmon+ep $CAPAUDIT" ]]
	run $AS_NOBODY --inh-caps=-all,+bpf --ambient-caps=-all,+bpf "$CAPAUDIT" record -o /tmp/x.jsonl -- /bin/true
	[ "$status" -eq 1 ]
	[[ "$output" == "capaudit: missing CAP_PERFMON ("* ]]
}

@test "an output directory only root's CAP_DAC_OVERRIDE could write: the keeper writes it with root's rights" {
	mkdir "$T/private"
	chown nobody "$T/private"
	chmod 700 "$T/private"
	run record -o "$T/private/rec.jsonl" -- touch "$T/ran"
	[ "$status" -eq 0 ]
	[ -e "$T/ran" ]
	[ "$(ls -A "$T/private")" = "rec.jsonl" ]
	[ "$(stat -c '%u %a' "$T/private/rec.jsonl")" = "0 644" ]   # no sudo: root's
	"$CAPAUDIT" report -i "$T/private/rec.jsonl" | grep -q '^PID [0-9]* touch '
}

@test "capaudit recorded by capaudit: as its least-privilege user it needs only CAP_BPF and CAP_PERFMON" {
	chmod 777 "$T"
	run record -- $AS_NOBODY $WITH_BPF_PERFMON "$CAPAUDIT" record -q -o "$T/inner.jsonl" -- /bin/true
	[ "$status" -eq 0 ]
	"$CAPAUDIT" report --suggest --format json --program capaudit -i "$T/rec.jsonl" >"$T/rep.json"
	[ "$(jqr '.required | join(",")')" = "CAP_PERFMON,CAP_BPF" ]
	[ "$(jqr '[.denials[] | select(.kind == "blocking")] | length')" = "0" ]
	# and the inner recording is complete
	"$CAPAUDIT" report -i "$T/inner.jsonl" >/dev/null
}

@test "capaudit recorded by capaudit: as root only CAP_SETPCAP more, to drop the rest" {
	run record -- "$CAPAUDIT" record -q -o "$T/inner.jsonl" -- /bin/true
	[ "$status" -eq 0 ]
	"$CAPAUDIT" report --suggest --format json --program capaudit -i "$T/rec.jsonl" >"$T/rep.json"
	[ "$(jqr '.required | join(",")')" = "CAP_SETPCAP,CAP_PERFMON,CAP_BPF" ]
	# dropping the bounding set needs it (prctl); capset() only shrinks the
	# sets, so its CAP_SETPCAP check could not matter (no effect)
	[ "$(jqr '.keep[] | select(.cap=="CAP_SETPCAP") | .callsites | join(",")')" = "cap_task_prctl" ]
	[ "$(jqr '.keep[] | select(.cap=="CAP_SETPCAP") | [.details[].syscalls[]] | unique | join(",")')" = "prctl" ]
	[ "$(jqr '.not_required[] | select(.cap=="CAP_SETPCAP") | "\(.callsite) \(.why)"')" = "cap_capset no-effect" ]
}

@test "doctor: kernel, sysctls, attach modes, symbols and privileges" {
	run "$CAPAUDIT" doctor
	[ "$status" -eq 0 ]
	[[ "$output" == *"Verdict: capaudit record works here"* ]]
	"$CAPAUDIT" doctor --format json >"$T/rep.json"
	[ "$(jqr '.kernel')" = "$(uname -r)" ]
	[ "$(jqr '.sysctl.perf_event_paranoid')" = "$(cat /proc/sys/kernel/perf_event_paranoid)" ]
	[ "$(jqr '.sysctl.kptr_restrict')" = "$(cat /proc/sys/kernel/kptr_restrict)" ]
	[ "$(jqr '.sysctl.unprivileged_bpf_disabled')" = "$(cat /proc/sys/kernel/unprivileged_bpf_disabled)" ]
	[ "$(jqr '.btf')" = "true" ]
	[ "$(jqr '.record_works')" = "true" ]
	[ "$(jqr '.privileges.needed | join(",")')" = "CAP_PERFMON,CAP_BPF" ]
	[ "$(jqr '.privileges.recording.effective | join(",")')" = "CAP_PERFMON,CAP_BPF" ]
	[ "$(jqr '.privileges.recording.no_new_privs')" = "true" ]
	[ "$(jqr '.symbols.source')" = "iter/ksym" ]
	[ "$(jqr '.symbols.count')" -gt 10000 ]
	# every mode has a verdict; one that does not work says why
	[ "$(jqr '.attach_modes | length')" = "4" ]
	[ "$(jqr '[.attach_modes[] | select(.works == false and (.why | length) == 0)] | length')" = "0" ]
	if grep -q btf_trace_cap_capable <(bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null); then
		[ "$(jqr '.attach_auto')" = "tp_btf" ]
	fi
}

@test "doctor as a user without the capabilities: verdict no, exit 1, JSON says why" {
	run $AS_NOBODY --inh-caps=-all --ambient-caps=-all "$CAPAUDIT" doctor --format json
	[ "$status" -eq 1 ]
	echo "$output" >"$T/rep.json"
	[ "$(jqr '.record_works')" = "false" ]
	[[ "$(jqr '.privileges.problem')" == "missing CAP_PERFMON, CAP_BPF"* ]]
	run $AS_NOBODY $WITH_BPF_PERFMON "$CAPAUDIT" doctor
	[ "$status" -eq 0 ]
	[[ "$output" == *"tracefs is not readable by this user"* ]] || [[ "$output" == *"tracepoint  works"* ]] ||
		[[ "$output" == *"tracefs is not mounted"* ]]
}

@test "make install: root:GROUP 0750 with cap_bpf,cap_perfmon+ep; a member records, others cannot run it" {
	command -v setcap >/dev/null || skip "setcap is not installed"
	# nogroup: nobody's own group, so that nobody is a member
	run make -C "$ROOT" --no-print-directory -s install PREFIX="$T/usr" CAPAUDIT_GROUP=nogroup
	[ "$status" -eq 0 ]
	chmod 755 "$T" "$T/usr" "$T/usr/bin"
	[ "$(stat -c '%U:%G %a' "$T/usr/bin/capaudit")" = "root:nogroup 750" ]
	[ "$(getcap "$T/usr/bin/capaudit" | sed 's/.* //')" = "cap_perfmon,cap_bpf=ep" ]
	mkdir "$T/out"
	chown nobody "$T/out"
	run $AS_NOBODY --inh-caps=-all --ambient-caps=-all "$T/usr/bin/capaudit" record -q \
		-o "$T/out/rec.jsonl" -- /bin/true
	[ "$status" -eq 0 ]
	"$CAPAUDIT" report -i "$T/out/rec.jsonl" --format json >"$T/rep.json"
	[ "$(jqr '.processes[0].comm')" = "true" ]
	[ "$(head -1 "$T/out/rec.jsonl" | jq -r .symbols)" = "iter/ksym" ]
	# a user outside the group cannot even run it (from a shell: setpriv
	# itself still holds root's capabilities when it execs)
	run setpriv --reuid=4242 --regid=4242 --clear-groups sh -c '"$0" version' "$T/usr/bin/capaudit"
	[ "$status" -ne 0 ]
	[[ "$output" == *"Permission denied"* ]]
}

@test "make install refuses file capabilities without a group, and creates a missing one" {
	command -v setcap >/dev/null || skip "setcap is not installed"
	run make -C "$ROOT" --no-print-directory -s install PREFIX="$T/usr" CAPAUDIT_GROUP=
	[ "$status" -ne 0 ]
	[[ "$output" == *"refusing to give file capabilities without a group"* ]]
	[ ! -e "$T/usr/bin/capaudit" ]
	local g=capaudit-e2e-$$
	! getent group "$g" >/dev/null || skip "group $g exists here"
	run make -C "$ROOT" --no-print-directory -s install PREFIX="$T/usr" CAPAUDIT_GROUP="$g"
	getent group "$g" >/dev/null && local made=1
	groupdel "$g" 2>/dev/null || true
	[ "$status" -eq 0 ]
	[ "${made:-0}" = 1 ]
	[[ "$output" == *"created the system group $g"* ]]
}

@test "a user who is not root follows only its own processes" {
	chmod 777 "$T"
	# another user's process (root's): refused, one line
	sleep 30 &
	local root_pid=$!
	run $AS_NOBODY $WITH_BPF_PERFMON "$CAPAUDIT" record -q -o "$T/x.jsonl" -p "$root_pid"
	kill "$root_pid"
	[ "$status" -eq 1 ]
	[[ "$output" == *"-p $root_pid: a process of uid 0: only root may follow another user's processes"* ]]
	[ ! -e "$T/x.jsonl" ]
	# a command that becomes another user (setuid-root passwd): not followed
	# from there on, none of its checks or names recorded
	run $AS_NOBODY $WITH_BPF_PERFMON "$CAPAUDIT" record -q -o "$T/rec.jsonl" -- /usr/bin/passwd -S
	[ "$status" -eq 0 ]
	report_json
	[ "$(jqr '[.processes[] | select(.comm == "passwd")] | length')" = "0" ]
	[ "$(jqr '[.processes[].capabilities[]] | length')" = "0" ]
	# root records the same command: passwd's image and its checks are there
	run "$CAPAUDIT" record -q -o "$T/root.jsonl" -- $AS_NOBODY /usr/bin/passwd -S
	"$CAPAUDIT" report --all -i "$T/root.jsonl" --format json >"$T/rep.json"
	[ "$(jqr '[.processes[] | select(.comm == "passwd") | .capabilities[]] | length')" -gt 0 ]
}

@test "-a by a user outside capaudit's group records only that user's processes" {
	chmod 777 "$T"
	$AS_NOBODY $WITH_BPF_PERFMON "$CAPAUDIT" record -q -a -o "$T/rec.jsonl" 2>"$T/err" &
	local rec=$!
	wait_attached "$rec"
	chown root "$T" 2>/dev/null   # root's: not to be seen
	touch "$T/f"
	$AS_NOBODY sh -c 'chown root "$0" 2>/dev/null; exit 0' "$T/f"   # nobody's: denied CAP_CHOWN
	kill -INT "$rec"
	wait "$rec"
	grep -q "note: -a records only uid 65534's processes" "$T/err"
	report_json
	# every check is the user's own: made with its uid (a process of
	# another test that became 65534 with setuid() has its fork's uid on
	# its process line, and its later checks are 65534's)
	[ "$(jq -rs '[.[] | select(.type == "check") | .uid] | unique | join(",")' "$T/rec.jsonl")" = "65534" ]
	[ "$(caps_of chown)" = "CAP_CHOWN 0 1 setattr_prepare" ]
}
