#!/usr/bin/env bats
# Recording under faults: short-lived, forking, exec'ing and setuid
# workloads with exact counts; PID reuse; signals at any moment; a full
# disk; full maps and ringbuf; two recorders at once; valgrind.
#
# The workload is build/churn (helper.bash).

load helper

# every program capaudit's BPF object can load (bpftool shows full names)
PROGS='tp_btf_cap_capable|tp_cap_capable|fexit_cap_capable|kprobe_cap_capable|kretprobe_cap_capable|sched_process_fork|sched_process_exec|sched_process_exit|sys_exit'

setup() {
	churn_setup
}

teardown() {
	mountpoint -q "$T/full" 2>/dev/null && umount "$T/full"
	churn_teardown
}

# syslog FILE [COMM]: CAP_SYSLOG "granted denied" over the record (of comm)
syslog() {
	"$CAPAUDIT" report -i "$1" --format json | jq -r --arg c "${2:-}" '
		[.processes[] | select($c == "" or .comm == $c) | .capabilities[]
		 | select(.cap == "CAP_SYSLOG")] | "\(map(.granted) | add // 0) \(map(.denied) | add // 0)"'
}

# our_progs: how many BPF programs and links the processes this test
# started hold (fds of anon_inode:bpf-prog or bpf_link): a program no
# process holds is freed, so one left over is held by one of them. Another
# capaudit on the host (another test run, a monitor) is not this test's:
# counting every loaded program by name failed when one ran beside it
# (and this host's bpftool names no holders).
our_progs() {
	local n=0 p f
	for p in $(ps -e -o pid=,ppid= | awk -v top="$$" '
		{ parent[$1] = $2 }
		END { for (p in parent) { q = p; while (q in parent && q != top && q > 1) q = parent[q];
		      if (q == top && p != top) print p } }'); do
		for f in /proc/"$p"/fd/*; do
			case $(readlink "$f" 2>/dev/null) in
			anon_inode:bpf-prog | anon_inode:bpf_link) n=$((n + 1)) ;;
			esac
		done
	done
	echo "$n"
}

# progs_released BEFORE: true once no more than BEFORE of them are loaded.
# The kernel frees a tracing program after an RCU grace period that follows
# the release of its link (bpf_link_free -> call_rcu), so a recorder that has
# been reaped can still be listed for some milliseconds (measured here: 35 of
# 40 runs right after wait, none 0.2 s later); a leak stays for good.
progs_released() {
	wait_for 5 progs_at_most "$1"
}

progs_at_most() {
	[ "$(our_progs)" -le "$1" ]
}

@test "valgrind: the loader is clean on a short record, and report on its file" {
	command -v valgrind >/dev/null || skip "valgrind is not installed (tools/deps.sh installs it)"
	! ldd "$CAPAUDIT" | grep -q libasan ||
		skip "valgrind cannot run an ASan build (the plain build's pass runs this test)"
	run valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--suppressions="$ROOT/tests/valgrind.supp" "$CAPAUDIT" record -q -o "$T/rec.jsonl" -- "$CHURN" forks 3 2
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(syslog "$T/rec.jsonl")" = "6 0" ]
	run valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		"$CAPAUDIT" report --suggest -i "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" == *"CAP_SYSLOG"* ]]
	# user stacks: libdwfl symbolization in the loader, --by user-site in report
	run valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--suppressions="$ROOT/tests/valgrind.supp" "$CAPAUDIT" record -q --user-stacks \
		-o "$T/u.jsonl" -- "$CHURN" forks 3 2
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(syslog "$T/u.jsonl")" = "6 0" ]
	grep -q '"type":"ustack"' "$T/u.jsonl"
	run valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
		"$CAPAUDIT" report --all --by user-site -i "$T/u.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" == *"By user-space place"* ]]
}

@test "the command exits at once: the record is complete, its status kept" {
	run record -- /bin/true
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 "$T/rec.jsonl" | jq -r .type)" = "end" ]
	run record -- sh -c 'exit 7'
	[ "$status" -eq 7 ]
	report_json
	[ "$(jqr .record.exit_status)" = "7" ]
}

@test "3000 short-lived children from two forkers: every check counted, every process seen" {
	run record -- "$CHURN" forks 3000 3 2
	[ "$status" -eq 0 ]
	[ "$output" = "processes=3000 calls=9000" ]
	[ "$(syslog "$T/rec.jsonl")" = "9000 0" ]
	report_json
	[ "$(jqr '.processes | length')" = "3003" ]   # churn, 2 forkers, 3000 children
	[ "$(jqr '[.record.lost[]] | add')" = "0" ]
}

@test "the aggregation map is drained while recording: every check kept, none lost" {
	# a command's map starts at 4096 entries and is drained when half of
	# them were added: 5000 processes with one key each drain it at least
	# once, however fast the host forks
	run record -- "$CHURN" forks 5000 1 2
	[ "$status" -eq 0 ]
	[ "$output" = "processes=5000 calls=5000" ]
	[ "$(syslog "$T/rec.jsonl")" = "5000 0" ]
	head -n 1 "$T/rec.jsonl" | jq -c '.aggregation, .lost, .overflow'
	[ "$(head -n 1 "$T/rec.jsonl" | jq -r '.aggregation.drains >= 1')" = "true" ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -c '([.lost[]] | add), .overflow')" = "$(printf '0\n[]')" ]
	# one check line per process: none merged into another's
	[ "$(grep -c '"cap_name":"CAP_SYSLOG"' "$T/rec.jsonl")" = "5000" ]
}

@test "the aggregation map grows when drains come fast" {
	# 16 keys per process (one call from each of 16 places, told apart by
	# --user-stacks): 400 processes make 2048 keys (half the first map) in
	# well under the 2 s that make a drain "fast", even on a slow host
	run record --user-stacks -- "$CHURN" sites 400
	[ "$status" -eq 0 ]
	[ "$output" = "processes=400 calls=6400" ]
	[ "$(syslog "$T/rec.jsonl")" = "6400 0" ]
	head -n 1 "$T/rec.jsonl" | jq -c '.aggregation, .lost, .overflow'
	[ "$(head -n 1 "$T/rec.jsonl" | jq -r '.aggregation.drains >= 1 and .aggregation.max_keys >= 8192')" = "true" ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -c '([.lost[]] | add), .overflow')" = "$(printf '0\n[]')" ]
	[ "$(grep -c '"cap_name":"CAP_SYSLOG"' "$T/rec.jsonl")" = "6400" ]
}

@test "execve four times in one pid: four program images, each with its own checks" {
	run record -- "$CHURN" exec 4 5
	[ "$status" -eq 0 ]
	report_json
	[ "$(jqr '[.processes[].pid] | unique | length')" = "1" ]
	[ "$(jqr '[.processes[] | .capabilities[] | select(.cap=="CAP_SYSLOG") | .granted] | join(" ")')" = "5 5 5 5" ]
}

@test "credentials change mid-run: the same call site granted, then denied" {
	run record -- "$CHURN" setuid 7
	[ "$status" -eq 0 ]
	[ "$output" = "granted=7 denied=7" ]
	[ "$(syslog "$T/rec.jsonl")" = "7 7" ]
	report_json
	[ "$(jqr '.processes[0].capabilities[] | select(.cap=="CAP_SYSLOG") | .callsites | map(.function) | join(",")')" = "do_syslog" ]
	[ "$(jqr '.processes[0].capabilities[] | select(.cap=="CAP_SETUID") | .granted')" = "1" ]
}

@test "-p: a pid reused by an unrelated process is not followed" {
	# the followed shell runs a child, which exits; an unrelated process
	# then gets that child's pid (ns_last_pid) and makes 7 checks
	# (the shell waits for $T/go, written once the recorder is attached:
	# a slow start-up, as under ASan on a busy machine, must not let the
	# child fork before the hooks follow the shell)
	bash -c 'while [ ! -e '"$T"'/go ]; do sleep 0.05; done; sh -c "echo \$\$ >'"$T"'/cpid.tmp; mv '"$T"'/cpid.tmp '"$T"'/cpid"; sleep 3' &
	local parent=$!
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" -p "$parent" &
	local rec=$!
	wait_attached "$rec"
	touch "$T/go"
	wait_for 5 test -s "$T/cpid"
	local child
	child=$(cat "$T/cpid")
	while kill -0 "$child" 2>/dev/null; do sleep 0.01; done
	run "$CHURN" at-pid "$child" 7
	[ "$status" -eq 0 ]
	[ "$output" = "pid=$child calls=7" ]
	wait "$rec"
	[ "$(syslog "$T/rec.jsonl")" = "0 0" ]
	report_json
	# the child is there with its two images (the bash fork, then sh), not as churn
	[ "$(jqr --argjson p "$child" '[.processes[] | select(.pid == $p) | .comm] | join(",")')" = "bash,sh" ]
}

@test "SIGINT, SIGTERM, SIGHUP at any moment: the file is complete or absent, no program left" {
	local sig delay n=0 complete=0 absent=0
	local before
	before=$(our_progs)
	for sig in INT TERM HUP; do
		# "running": once its command runs (after the attach and the
		# kernel's symbols), the file must be written
		for delay in 0 0.02 0.1 0.3 running; do
			rm -f "$T/rec.jsonl"
			"$CAPAUDIT" record -q -o "$T/rec.jsonl" -- "$CHURN" load 2 2 >/dev/null &
			local pid=$!
			if [ "$delay" = running ]; then
				wait_command "$pid" churn
			else
				sleep "$delay"
			fi
			kill -"$sig" "$pid" 2>/dev/null || true
			wait "$pid" || true
			n=$((n + 1))
			if [ -e "$T/rec.jsonl" ]; then
				# complete: the strict reader accepts it (end line, counts)
				"$CAPAUDIT" report -i "$T/rec.jsonl" >/dev/null ||
					{ echo "SIG$sig after ${delay}: incomplete file"; return 1; }
				complete=$((complete + 1))
			else
				[ "$delay" != running ] ||
					{ echo "SIG$sig once the command ran: no file"; return 1; }
				absent=$((absent + 1))
			fi
			# nothing else left in the directory, under any name
			[ "$(ls -A "$T" | grep -v '^rec.jsonl$' | wc -l)" = "0" ] ||
				{ echo "SIG$sig after ${delay}: left $(ls -A "$T")"; return 1; }
			progs_released "$before" ||
				{ echo "SIG$sig after ${delay}: BPF programs left 5 s later"; bpftool prog show; return 1; }
		done
	done
	echo "$n runs: $complete complete, $absent absent"
	[ "$complete" -ge 3 ]
}

@test "-d expiry and a signal during -a: complete files, programs detached" {
	local before
	before=$(our_progs)
	run "$CAPAUDIT" record -q -a -d 0.5 -o "$T/a.jsonl"
	[ "$status" -eq 0 ]
	run "$CAPAUDIT" report -i "$T/a.jsonl"
	[ "$status" -eq 0 ]
	# churn under a path of its own: other churns on the host are in an
	# -a record too, and are not this test's
	cp "$CHURN" "$T/churn"
	"$CAPAUDIT" record -q -a -o "$T/b.jsonl" &
	local pid=$!
	wait_attached "$pid"
	"$T/churn" forks 50 1 >/dev/null
	kill -TERM "$pid"
	wait "$pid"
	run "$CAPAUDIT" report -i "$T/b.jsonl" --format json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r --arg e "$T/churn" '[.processes[] | select(.exe == $e)
		| .capabilities[] | select(.cap == "CAP_SYSLOG")] | "\(map(.granted) | add // 0) \(map(.denied) | add // 0)"')" = "50 0" ]
	progs_released "$before"
}

@test "disk full: a clear error, exit 1, nothing left behind" {
	mkdir "$T/full"
	mount -t tmpfs -o size=16k tmpfs "$T/full"
	run --separate-stderr "$CAPAUDIT" record -o "$T/full/rec.jsonl" -- "$CHURN" forks 300 1
	[ "$status" -eq 1 ]
	[ "$stderr" = "capaudit: cannot write $T/full/rec.jsonl: No space left on device" ]
	[ "$(ls -A "$T/full" | wc -l)" = "0" ]
	[[ "$stderr" != *"wrote"* ]]
}

@test "aggregation map full (--max-keys 8): the checks it has no room for are sent whole, none lost" {
	# the loader drains the map while recording: stopped (by its command)
	# during the burst, it cannot, and 100 processes' keys meet 8 entries;
	# the ring buffer (default size) holds what the map cannot
	run record --max-keys 8 -- sh -c 'kill -STOP $PPID; "$0" forks 100 1; kill -CONT $PPID' "$CHURN"
	[ "$status" -eq 0 ]
	[ "$(syslog "$T/rec.jsonl")" = "100 0" ]
	# each of the 100 processes has its own check line: none merged
	[ "$(grep -c '"cap_name":"CAP_SYSLOG"' "$T/rec.jsonl")" = "100" ]
	head -n 1 "$T/rec.jsonl" | jq -c '.aggregation, .lost, .overflow'
	[ "$(head -n 1 "$T/rec.jsonl" | jq -r '.aggregation.spilled > 0')" = "true" ]
	[ "$(head -n 1 "$T/rec.jsonl" | jq -c '.lost.map_full, .overflow')" = "$(printf '0\n[]')" ]
}

@test "aggregation map and ring buffer full (--max-keys 8 --ringbuf-kb 4): counted per capability, shown in header and report" {
	# as above, with a ring buffer of one page: 300 processes' fork, exec
	# and exit events and spilled checks do not fit
	run "$CAPAUDIT" record -o "$T/rec.jsonl" --max-keys 8 --ringbuf-kb 4 -- sh -c 'kill -STOP $PPID; "$0" forks 300 1; kill -CONT $PPID' "$CHURN"
	[ "$status" -eq 0 ]
	# the last line says what the record lacks, as the report does
	[[ "$output" == *"capaudit: wrote $T/rec.jsonl ("*" aggregated checks; "*" checks without process or call site (map full), "*" process events dropped (ringbuf full))"* ]]
	report_json
	local attributed unattributed
	attributed=$(jqr '[.processes[].capabilities[] | select(.cap=="CAP_SYSLOG") | .granted] | add // 0')
	# the header's per-capability counts of checks that found the map full
	unattributed=$(head -n 1 "$T/rec.jsonl" | jq -r '[.overflow[] | select(.cap==34 and .denied==false) | .count] | add // 0')
	[ "$((attributed + unattributed))" -eq 300 ]
	[ "$unattributed" -gt 0 ]
	[ "$(jqr .record.lost.map_full)" -gt 0 ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl"
	[[ "$output" == *"Lost: "*" checks without process or call site (map full)"* ]]
	[[ "$output" == *"unattributed: CAP_SYSLOG granted x$unattributed"* ]]
}

@test "ringbuf full (--ringbuf-kb 4, loader stopped during a fork burst): counted, never silent" {
	# the command stops capaudit (its parent) while it forks, then resumes it
	run record --ringbuf-kb 4 -- sh -c 'kill -STOP $PPID; "$0" forks 300 1; kill -CONT $PPID' "$CHURN"
	[ "$status" -eq 0 ]
	report_json
	[ "$(jqr .record.lost.ringbuf_full)" -gt 0 ]
	# checks live in the kernel's map, not the ringbuf: still exact, and
	# each on the program its process ran (the check carries the file's
	# inode; the exec hook kept the file's name in a map of its own)
	[ "$(syslog "$T/rec.jsonl")" = "300 0" ]
	[ "$(jqr --arg e "$CHURN" '[.processes[] | select(.exe == $e) | .capabilities[]
		| select(.cap == "CAP_SYSLOG") | .granted] | add')" = 300 ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl"
	[[ "$output" == *"Lost: "*" process events dropped (ringbuf full)"* ]]
	[[ "$output" != *"Lost: none"* ]]
}

@test "two recorders at once see only their own process trees" {
	"$CAPAUDIT" record -q -o "$T/a.jsonl" -- "$CHURN" forks 200 2 >/dev/null &
	local a=$!
	"$CAPAUDIT" record -q -o "$T/b.jsonl" -- "$CHURN" forks 150 3 >/dev/null &
	local b=$!
	wait "$a"
	wait "$b"
	[ "$(syslog "$T/a.jsonl")" = "400 0" ]
	[ "$(syslog "$T/b.jsonl")" = "450 0" ]
	local pa pb
	pa=$("$CAPAUDIT" report -i "$T/a.jsonl" --format json | jq -r '.processes[].pid' | sort -u)
	pb=$("$CAPAUDIT" report -i "$T/b.jsonl" --format json | jq -r '.processes[].pid' | sort -u)
	[ "$(comm -12 <(echo "$pa") <(echo "$pb") | wc -l)" = "0" ]
	[ "$(echo "$pa" | wc -l)" = "202" ]   # churn, its forker, 200 children
	[ "$(echo "$pb" | wc -l)" = "152" ]   # churn, its forker, 150 children
}
