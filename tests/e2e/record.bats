#!/usr/bin/env bats
# capaudit record / report on the real kernel.

load helper

@test "record -- chown: granted CAP_CHOWN at setattr_prepare during fchownat" {
	touch "$T/f"
	run record -- chown nobody "$T/f"
	[ "$status" -eq 0 ]
	report_json
	[ "$(caps_of chown)" = "CAP_CHOWN 1 0 setattr_prepare" ]
	[ "$(jqr '.required | join(",")')" = "CAP_CHOWN" ]
	[ "$(jqr '.processes[] | select(.comm=="chown") | .capabilities[]
		| select(.cap=="CAP_CHOWN") | .syscalls[0].name')" = "fchownat" ]
	[ "$(jqr '.processes[] | select(.comm=="chown") | .exe')" = "/usr/bin/chown" ]
	[ "$(stat -c %U "$T/f")" = "nobody" ]
}

@test "a program run by a relative path is named by its absolute path, only when that path is the very file run" {
	mkdir -p "$T/bin" "$T/other/bin"
	cp "$(readlink -f "$(command -v chown)")" "$T/bin/chown"
	# the same relative name under the recorder's directory is another file
	cp /bin/true "$T/other/bin/chown"
	touch "$T/f"
	cd "$T"
	run record -- bin/chown 1 "$T/f"
	[ "$status" -eq 0 ]
	[ "$(jq -r 'select(.type == "process" and .comm == "chown") | .exe' "$T/rec.jsonl" | sort -u)" = "$T/bin/chown" ]
	# run from another directory: ./bin/chown there is not the file under
	# the recorder's directory, so it is never named so (as the exec said,
	# or as /proc/PID/exe said while the recorder could read it)
	run record -- sh -c "cd '$T/other' && exec ./bin/chown"
	exe=$(jq -r 'select(.type == "process" and .comm == "chown") | .exe' "$T/rec.jsonl" | sort -u)
	[ "$exe" = ./bin/chown ] || [ "$exe" = "$T/other/bin/chown" ]
}

@test "an exec from a memfd, gone before it is read, is named as /proc names it: /memfd:NAME (deleted)" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	touch "$T/f"
	# the child runs chown from a memfd and exits at once; its exec event
	# says /proc/self/fd/N, which names nothing once it has exited
	run record -- python3 -c 'import os, sys
fd = os.memfd_create("capaudit-e2e-memfd")
os.write(fd, open(sys.argv[1], "rb").read())
pid = os.fork()
if pid == 0:
    os.execv("/proc/self/fd/%d" % fd, ["chown", "1", sys.argv[2]])
os.waitpid(pid, 0)' "$(readlink -f "$(command -v chown)")" "$T/f"
	[ "$status" -eq 0 ]
	run jq -r 'select(.type == "check" and .cap_name == "CAP_CHOWN") | "\(.pid) \(.exec_id)"' "$T/rec.jsonl"
	[ "${#lines[@]}" -ge 1 ]
	read -r pid exec_id <<<"${lines[0]}"
	run jq -r --argjson p "$pid" --argjson x "$exec_id" 'select(.type == "process" and .pid == $p and .exec_id == $x) | .exe' "$T/rec.jsonl"
	[ "$output" = "/memfd:capaudit-e2e-memfd (deleted)" ]
}

@test "record -- chown as nobody: CAP_CHOWN denied, the command fails, status passed through" {
	touch "$T/f"
	chown nobody "$T/f"
	run record -- setpriv --reuid=65534 --regid=65534 --clear-groups chown root "$T/f"
	[ "$status" -eq 1 ]
	report_json
	[ "$(caps_of chown)" = "CAP_CHOWN 0 1 setattr_prepare" ]
	[ "$(jqr '.required | index("CAP_CHOWN")')" = "null" ]
	[ "$(jqr '.denied | index("CAP_CHOWN")')" != "null" ]
	[ "$(jqr '.record.exit_status')" = "1" ]
	# setpriv's own checks (it drops privileges, then execs chown) stay
	# with the setpriv image of the same pid
	[ "$(jqr '[.processes[].comm] | join(",")')" = "setpriv,chown" ]
	[ "$(jqr '.processes[0].pid == .processes[1].pid')" = "true" ]
	[ "$(caps_of setpriv | grep -c '^CAP_SETUID 1 0 __sys_setresuid$')" = "1" ]
}

@test "record -- /bin/true: no required capability, noaudit probing hidden" {
	run record -- /bin/true
	[ "$status" -eq 0 ]
	report_json
	[ "$(jqr '.required | length')" = "0" ]
	[ "$(jqr '.processes | length')" = "1" ]
	[ "$(jqr '.processes[0].capabilities | length')" = "0" ]
	# root's exec and mmaps make noaudit CAP_SYS_ADMIN checks: hidden, counted
	[ "$(jqr '.hidden_noaudit')" -gt 0 ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Required (granted in audited checks): none"* ]]
}

@test "report with no record in the directory says how to record one; that command, as printed, makes the record report reads" {
	mkdir -p "$T/bin" "$T/empty"
	ln -s "$CAPAUDIT" "$T/bin/capaudit"
	cd "$T/empty"
	run --separate-stderr "$CAPAUDIT" report
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: capaudit-record.jsonl: no such file: record one first: capaudit record -- COMMAND (or -p PID, -a)" ]
	# the hint with COMMAND given, as a user would paste it
	local hint=${stderr#*: record one first: }
	hint=${hint% (or -p PID, -a)}
	touch "$T/f"
	run env PATH="$T/bin:$PATH" sh -c "${hint/COMMAND/chown nobody $T/f}"
	[ "$status" -eq 0 ]
	# one process is "1 process"
	[[ "$output" == *"capaudit: wrote capaudit-record.jsonl (1 process, "*" aggregated checks; nothing lost)"* ]]
	[ -s capaudit-record.jsonl ]
	run --separate-stderr "$CAPAUDIT" report
	[ "$status" -eq 0 ]
	[[ "$output" == *"CAP_CHOWN"* ]]
}

@test "report --all shows the noaudit CAP_SYS_ADMIN of security_vm_enough_memory_mm" {
	run record -- /bin/true
	[ "$status" -eq 0 ]
	report_json --all
	[ "$(jqr '.required | length')" = "0" ]
	[ "$(jqr '.processes[0].capabilities[] | select(.cap=="CAP_SYS_ADMIN")
		| "\(.noaudit) \(.noaudit_by) \(.callsites[0].function)"')" = \
	  "true noaudit-caller security_vm_enough_memory_mm" ]
}

@test "record passes the command's exit status through" {
	run record -- sh -c 'exit 3'
	[ "$status" -eq 3 ]
	report_json
	[ "$(jqr '.record.exit_status')" = "3" ]
	run record -- sh -c 'kill -TERM $$'
	[ "$status" -eq 143 ]
}

@test "record -- a missing command: exit 127 and a clear error" {
	run -127 record -- /nonexistent/cmd
	[[ "$output" == *"cannot run /nonexistent/cmd: No such file or directory"* ]]
	[ ! -e "$T/rec.jsonl" ]
}

@test "record -p follows a running process and catches its later child's check" {
	touch "$T/f"
	bash -c 'while [ ! -e "$1/go" ]; do sleep 0.05; done; chown nobody "$1/f"; sleep 0.2' _ "$T" &
	local pid=$!
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" -p "$pid" &
	local rec=$!
	# the chown once the hooks are attached (a fixed sleep was not enough
	# on a loaded host: attaching took 2 s)
	wait_attached "$rec"
	touch "$T/go"
	wait "$rec"
	wait "$pid" || true
	report_json
	[ "$(caps_of chown)" = "CAP_CHOWN 1 0 setattr_prepare" ]
	[ "$(jqr --argjson p "$pid" '.processes[] | select(.comm=="chown") | .ppid == $p')" = "true" ]
	[ "$(jqr '.record.scope')" = "pid" ]
}

@test "record -p ignores processes outside the followed tree" {
	touch "$T/f" "$T/g"
	sleep 30 &
	local idle=$!
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" -p "$idle" &
	local rec=$!
	wait_attached "$rec"
	chown nobody "$T/g"      # not a descendant of $idle
	kill -INT "$rec"
	wait "$rec"
	kill "$idle"
	report_json
	[ "$(jqr '[.processes[].comm] | join(",")')" = "sleep" ]
	[ "$(jqr '.required | length')" = "0" ]
}

@test "record -d 1 on an idle process ends with a complete, valid file" {
	sleep 30 &
	local idle=$!
	local t0=$(date +%s%N)
	run record -p "$idle" -d 1
	local t1=$(date +%s%N)
	kill "$idle"
	[ "$status" -eq 0 ]
	# it ends (start-up included, which a busy host slows down)
	[ $(( (t1 - t0) / 1000000 )) -lt $((5000 * $(wait_scale))) ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	report_json
	[ "$(jqr '.processes[0].pid')" = "$idle" ]
	local dur=$(jqr '(.record.end_ns - .record.start_ns) / 1000000 | floor')
	echo "recorded for $dur ms"
	[ "$dur" -ge 900 ] && [ "$dur" -lt $((1000 + 2000 * $(wait_scale))) ]
}

@test "record stops on SIGINT and SIGTERM and leaves a complete file" {
	sleep 30 &
	local idle=$!
	for sig in INT TERM HUP; do
		rm -f "$T/rec.jsonl"
		"$CAPAUDIT" record -q -o "$T/rec.jsonl" -p "$idle" &
		local rec=$!
		wait_attached "$rec"
		kill -s "$sig" "$rec"
		wait "$rec"
		[ -s "$T/rec.jsonl" ]
		"$CAPAUDIT" report -i "$T/rec.jsonl" >/dev/null
		# no temporary file left behind
		[ "$(ls "$T" | grep -c '^rec.jsonl.')" = "0" ]
	done
	kill "$idle"
}

@test "record -a sees a process started during the window" {
	# other work on the host (another recorder, another chown) is in an -a
	# record too: this test looks at its own processes by pid
	touch "$T/f"
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" -a -d 4 &
	local rec=$! c
	wait_attached "$rec"   # -d counts from there
	chown nobody "$T/f" &
	c=$!
	wait "$c"
	wait "$rec"
	report_json
	[ "$(jqr '.record.scope')" = "all" ]
	[ "$(jqr --argjson p "$c" '.processes[] | select(.pid == $p and .comm == "chown") | .capabilities[]
		| select(.noaudit == false) | "\(.cap) \(.granted) \(.denied) \([.callsites[].function] | join(","))"')" = "CAP_CHOWN 1 0 setattr_prepare" ]
	# capaudit does not record itself
	[ "$(jqr --argjson p "$rec" '[.processes[] | select(.pid == $p)] | length')" = "0" ]
}

@test "record -p with a missing PID is a clear error" {
	run record -p 4000000
	[ "$status" -eq 1 ]
	[[ "$output" == *"-p 4000000: no such process"* ]]
	[ ! -e "$T/rec.jsonl" ]
	run record -p 12abc
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid PID '12abc'"* ]]
}

@test "record: unknown --attach mode and conflicting scopes are usage errors" {
	run record --attach bogus -- /bin/true
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad attach mode 'bogus' in 'bogus'"* ]]
	run record -a -p 1
	[ "$status" -eq 2 ]
	[[ "$output" == *"give only one of -p, -a, --cgroup, --container, --unit, --service and -- COMMAND"* ]]
	run record
	[ "$status" -eq 2 ]
	run record -d 12abc -- /bin/true
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid duration '12abc'"* ]]
}

@test "record into an unwritable directory fails before recording" {
	mkdir "$T/ro"
	chmod 555 "$T/ro"
	# root ignores directory modes: make it truly read-only with a bind mount
	mount --bind -o ro "$T/ro" "$T/ro" 2>/dev/null || mount -o remount,bind,ro "$T/ro" "$T/ro"
	run "$CAPAUDIT" record -q -o "$T/ro/rec.jsonl" -- /bin/true
	umount "$T/ro" 2>/dev/null || true
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot create $T/ro/rec.jsonl: Read-only file system"* ]]
}

@test "report: missing and corrupt record files give file:line errors" {
	run "$CAPAUDIT" report -i "$T/none.jsonl"
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: $T/none.jsonl: No such file or directory" ]
	run "$CAPAUDIT" report -i "$ROOT/tests/fixtures/bad-json-line3.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == "capaudit: $ROOT/tests/fixtures/bad-json-line3.jsonl:3: invalid JSON"* ]]
	run "$CAPAUDIT" report -i "$ROOT/tests/fixtures/bad-cap.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad-cap.jsonl:3: field 'cap' is 9999, outside 0..63" ]]
	head -c 300 /dev/urandom >"$T/junk"
	run "$CAPAUDIT" report -i "$T/junk"
	[ "$status" -eq 2 ]
	[[ "$output" == "capaudit: $T/junk:"* ]]
	[ "${#lines[@]}" -eq 1 ]
	: >"$T/empty"
	run "$CAPAUDIT" report -i "$T/empty"
	[ "$status" -eq 2 ]
	[[ "$output" == *"empty file: no record header"* ]]
	# JSON mode keeps stdout parseable
	run "$CAPAUDIT" report -i "$T/empty" --format json
	[ "$status" -eq 2 ]
	[[ "$output" == *'{"error":'* ]]
}

@test "a hostile process name stays escaped in text and valid in JSON" {
	local evil=$'evil\e[31m\x01'
	cp /bin/true "$T/$evil"
	run record -- "$T/$evil"
	[ "$status" -eq 0 ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" == *'evil\x1b[31m\x01'* ]]
	[[ "$output" != *$'\e'* ]]
	report_json
	[ "$(jqr '.processes[0].comm')" = "$evil" ]
	! LC_ALL=C grep -q '[^[:print:]]' "$T/rep.json" "$T/rec.jsonl"
}

@test "a daemon that forks away from its launcher: recorded until it exits, announced, its check in the answer" {
	touch "$T/f"
	chown nobody "$T/f"
	# the launcher exits at once; its child (a new session) waits for go,
	# then gives the file to root (CAP_CHOWN) and exits; it also ends when
	# the test's directory is gone (a failed test's teardown), so that it
	# and the recorder cannot keep bats waiting. It waits in one process
	# (perl's select(), not a shell's loop of sleep): when the recorder
	# looks, after the launcher's exit, exactly one process it started
	# runs, whenever that is (a shell's sleep was a second one, on a
	# busy host often: "2 processes it started still run", and the line
	# below never came)
	"$CAPAUDIT" record -o "$T/rec.jsonl" -- sh -c \
		"perl -MPOSIX -e 'setsid(); select(undef, undef, undef, 0.05) until -e \$ARGV[0] || !-d \$ARGV[1]; chown(0, -1, \$ARGV[2]) or exit 1' $T/go $T $T/f </dev/null >/dev/null 2>&1 & exit 0" \
		2>"$T/err" &
	local rec=$!
	wait_for 30 grep -q "exited; 1 process it started still runs" "$T/err" || { cat "$T/err"; false; }
	touch "$T/go"
	wait "$rec"
	grep -q "recording goes on until it exits, -d ends, or a signal comes (kill [0-9]* stops it)" "$T/err"
	[ "$(stat -c %u "$T/f")" = 0 ]
	run "$CAPAUDIT" report --suggest --format json -i "$T/rec.jsonl"
	[ "$(jq -r '.required | join(",")' <<<"$output")" = CAP_CHOWN ]
	[ "$(jq -r '.partial' <<<"$output")" = null ]
}

@test "a record attached to a running process (-p): every answer says it may miss the start" {
	bash -c 'while [ ! -e "$1/go" ]; do sleep 0.05; done' _ "$T" &
	local pid=$!
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" -p "$pid" &
	local rec=$!
	wait_attached "$rec"
	touch "$T/go"
	wait "$rec"
	run "$CAPAUDIT" report --suggest -i "$T/rec.jsonl"
	[[ "$output" == *"PARTIAL RECORD: the answer below may miss capabilities: it attached to processes already running"* ]]
	run "$CAPAUDIT" report --suggest --format json -i "$T/rec.jsonl"
	[ "$(jq -r '"\(.partial.missed_start) \(.partial.missed_end)"' <<<"$output")" = "true false" ]
	for kind in systemd docker capsh setcap; do
		run "$CAPAUDIT" report --emit "$kind" -i "$T/rec.jsonl"
		[[ "${lines[0]}" == "# WARNING: made from a partial record, this may miss capabilities: it attached to processes already running"* ]]
		[[ "${lines[1]}" == "# (for a complete answer record the program from its start"* ]]
	done
	# check too
	"$CAPAUDIT" check --baseline "$T/b.json" --update "$T/rec.jsonl" 2>/dev/null
	run "$CAPAUDIT" check --baseline "$T/b.json" "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: $T/rec.jsonl is a partial record: it attached to processes already running"* ]]
}

@test "-d ends the recording while the command runs: exit 124, the record says it is partial" {
	run record -d 1 -- sleep 5
	[ "$status" -eq 124 ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -c '[.stop, .command_running]')" = '["duration",true]' ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl"
	[[ "$output" == *"PARTIAL: the command was still running when recording stopped (-d)"* ]]
}

@test "a command that ignores the forwarded signal: the recording ends, not with exit 0" {
	# the signal goes once the command runs and ignores it: sh writes its
	# pid to $T/ready after its trap. Sent earlier, as a fixed sleep did on
	# a loaded host, it stops the start-up (no record: the next test) or
	# ends sh before its trap (the record of a command killed by SIGINT)
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" -- \
		sh -c 'trap "" INT TERM HUP; echo $$ >"$1"; sleep 9' sh "$T/ready" 2>"$T/err" &
	local rec=$! st=0 i cmd
	wait_for 30 test -s "$T/ready" || true
	if ! [ -s "$T/ready" ]; then
		kill -INT "$rec"
		wait "$rec" || true
		echo "the command did not start"
		return 1
	fi
	cmd=$(cat "$T/ready")
	kill -INT "$rec"
	wait "$rec" || st=$?
	# sh (our command, by its pid) outlives the recorder; its sleep too
	pkill -KILL -P "$cmd" -x sleep || true
	cat "$T/err"
	[ "$st" -eq 130 ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -c '[.stop, .command_running]')" = '["signal",true]' ]
	grep -q "sh (pid $cmd) still runs; recording stopped (signal)" "$T/err"
}

@test "a signal while starting up: the command never runs, no record" {
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" -- touch "$T/ran" &
	local rec=$! st=0 i child=
	# the command is forked first and held until the recorder has attached
	# (-n: the newest child; capaudit's output keeper is forked before it)
	for i in $(seq 2000); do child=$(pgrep -n -P "$rec") && break; sleep 0.005; done
	kill -STOP "$rec"
	if [ -z "$child" ] || [ "$(readlink "/proc/$child/exe")" != "$(readlink -f "$CAPAUDIT")" ]; then
		kill -CONT "$rec"
		wait "$rec" || true
		skip "the command was released before the recorder could be stopped"
	fi
	kill -INT "$rec"
	kill -CONT "$rec"
	wait "$rec" || st=$?
	[ "$st" -eq 130 ]
	[ ! -e "$T/ran" ]
	[ ! -e "$T/rec.jsonl" ]
}

# the ids of the ptrace-access programs (pt_*) in bpftool JSON file $1 that
# are among the program ids of file $2 (one a line)
pt_prog_ids() {
	jq -r --slurpfile held <(jq -R 'tonumber' "$2" | jq -s .) \
		'.[] | select((.name // "" | startswith("pt_")) and (.id as $i | $held[0] | index($i))) | .id' "$1"
}

# none of the ids in FILE is a loaded program any more
pt_progs_gone() {
	local id
	for id in $(cat "$1"); do
		bpftool prog show id "$id" >/dev/null 2>&1 && return 1
	done
	return 0
}

@test "ptrace access: the hooks' links are released after the recording by the closer, not leaked; the record has the access" {
	command -v bpftool >/dev/null || skip "bpftool is not installed"
	sleep 300 &
	local victim=$!
	# the command lists the programs its recorder (its parent) holds and
	# the loaded programs' names, then makes an access
	run record -- sh -c "awk '\$1 == \"prog_id:\" { print \$2 }' /proc/\$PPID/fdinfo/* >'$T/held.ids';
		bpftool -j prog show >'$T/progs.json'; readlink /proc/$victim/cwd"
	[ "$status" -eq 0 ]
	pt_prog_ids "$T/progs.json" "$T/held.ids" >"$T/pt.ids"
	# the recorder's own (another recorder's beside it are not waited for)
	[ "$(wc -l <"$T/pt.ids")" -ge 1 ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -r .ptrace_watched)" = true ]
	"$CAPAUDIT" report --suggest --format json -i "$T/rec.jsonl" >"$T/rep.json"
	# (bpftool's own checks are there too)
	[ "$(jqr '.required | index("CAP_SYS_PTRACE") != null')" = true ]
	kill "$victim"
	# released once capaudit is done: its closer holds the last references
	wait_for 30 pt_progs_gone "$T/pt.ids"
}

@test "the live status line: never over a command capaudit runs, shown for -a on a terminal" {
	command -v script >/dev/null || skip "script (util-linux) is not installed"
	script -qec "$CAPAUDIT record -o $T/c.jsonl -- sleep 1.2" /dev/null >"$T/tty1"
	run ! grep -q "recording (" "$T/tty1"
	grep -q "wrote $T/c.jsonl" "$T/tty1"
	script -qec "$CAPAUDIT record -a -d 1.2 -o $T/a.jsonl" /dev/null >"$T/tty2"
	grep -q "capaudit: recording (tp_btf\|capaudit: recording (" "$T/tty2"
}

@test "ptrace access: watched by default for a command, not for -p; --ptrace-access on|off says otherwise, and the answer says when it was not watched" {
	sleep 300 &
	local victim=$!
	sleep 300 &
	SLEEPER=$!
	# -- COMMAND: watched; reading a root process's /proc/PID/cwd asks no
	# capability, and the suggestion adds CAP_SYS_PTRACE
	run record -- readlink "/proc/$victim/cwd"
	[ "$status" -eq 0 ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -r .ptrace_watched)" = true ]
	"$CAPAUDIT" report --suggest --format json -i "$T/rec.jsonl" >"$T/rep.json"
	[ "$(jqr '.required | join(",")')" = CAP_SYS_PTRACE ]
	[ "$(jqr '.record.ptrace_watched')" = true ]
	# --ptrace-access off: not watched, and the text answer says so
	run "$CAPAUDIT" record -q --ptrace-access off -o "$T/off.jsonl" -- readlink "/proc/$victim/cwd"
	[ "$status" -eq 0 ]
	[ "$(head -n 1 "$T/off.jsonl" | jq -r .ptrace_watched)" = false ]
	run "$CAPAUDIT" report --suggest -i "$T/off.jsonl"
	[[ "$output" == *"Required capabilities: none"* ]]
	[[ "$output" == *"Not watched: ptrace access the kernel allows without a check"* ]]
	# -p: not watched by default (the hooks slow the whole host), on when asked
	run "$CAPAUDIT" record -q -o "$T/p.jsonl" -p "$SLEEPER" -d 0.5
	[ "$(head -n 1 "$T/p.jsonl" | jq -r .ptrace_watched)" = false ]
	run "$CAPAUDIT" record -q --ptrace-access on -o "$T/pon.jsonl" -p "$SLEEPER" -d 0.5
	[ "$(head -n 1 "$T/pon.jsonl" | jq -r .ptrace_watched)" = true ]
	kill "$victim" "$SLEEPER"
	# a bad value is a usage error naming it
	run "$CAPAUDIT" record --ptrace-access maybe -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid --ptrace-access 'maybe': on or off expected"* ]]
}
