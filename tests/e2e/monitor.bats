#!/usr/bin/env bats
# capaudit monitor: checkpoints read while it runs, first-use events within
# seconds, SIGKILL loses at most an interval, SIGHUP after a rename, and a
# resident set that stays flat however many processes come and go. Other
# processes on the host are in an -a monitor too: rows are picked by
# executable path or pid.

load helper

setup() {
	churn_setup   # kernel.dmesg_restrict=1: klogctl(SIZE_BUFFER) checks CAP_SYSLOG
	MPID=
	CG=
	# chown(1) under a path of this test's own: another chown on the host
	# (other work, the other lane of make test) is another program. Not
	# under /tmp: the metrics fold temporary executables into one label
	BIN=$(mktemp -d /var/lib/capaudit-e2e.XXXXXX)
	cp "$SYS_CHOWN" "$BIN/chown"
	CHOWN=$BIN/chown
}

teardown() {
	[ -n "$MPID" ] && kill -KILL "$MPID" 2>/dev/null
	[ -n "$CG" ] && rmdir "$V2$CG" 2>/dev/null
	[ -n "${BIN:-}" ] && rm -rf "$BIN"
	churn_teardown
}

# chown_row FILE: "comm exe pids granted" of $CHOWN's CAP_CHOWN row
chown_row() {
	"$CAPAUDIT" report -i "$1" --format json 2>/dev/null | jq -r --arg e "$CHOWN" '
		.processes[] | select(.exe == $e) | . as $p | .capabilities[]
		| select(.cap == "CAP_CHOWN") | "\($p.comm) \($p.exe) \($p.pids) \(.granted)"'
}

has_chown_row() {
	[ -n "$(chown_row "$1")" ]
}

# run_chown: chown a file of $T as nobody; its pid in $T/chown.pid
run_chown() {
	touch "$T/f"
	sh -c 'echo $$ >"$1"; exec "$3" nobody "$2"' sh "$T/chown.pid" "$T/f" "$CHOWN"
}

event_of_chown() {
	[ -s "$T/ev.jsonl" ] && jq -e --argjson p "$(cat "$T/chown.pid")" -s '
		map(select(.kind == "first_use" and .pid == $p and .cap == "CAP_CHOWN")) | length > 0' \
		"$T/ev.jsonl" >/dev/null
}

SYS_CHOWN=$(readlink -f "$(command -v chown)")

# the kernel's noaudit probing: every new process's writable mappings
# (security_vm_enough_memory_mm() asks CAP_SYS_ADMIN, noaudit)
noaudit_events() {
	jq -s '[.[] | select(.kind == "first_use" and .noaudit == true)] | length' "$1"
}

@test "monitor: the first use of CAP_CHOWN is an event line within seconds, with documented fields" {
	start_monitor --interval 60 --events "$T/ev.jsonl"
	t0=$(date +%s.%N)
	run_chown
	wait_for 5 event_of_chown
	t1=$(date +%s.%N)
	line=$(jq -c --argjson p "$(cat "$T/chown.pid")" \
		'select(.kind == "first_use" and .pid == $p and .cap == "CAP_CHOWN")' "$T/ev.jsonl" | head -1)
	echo "event: $line"
	echo "latency: $(echo "$t1 - $t0" | bc) s (poll included)"
	[ "$(jq -r '.program.exe' <<<"$line")" = "$CHOWN" ]
	[ "$(jq -r '.program.comm, .verdict, .callsite, .uid' <<<"$line" | tr '\n' ' ')" = \
	  "chown granted setattr_prepare 0 " ]
	[ "$(jq -r '.syscall' <<<"$line")" = fchownat ] || [ "$(jq -r '.syscall' <<<"$line")" = chown ]
	# the event's own time is the check's: within a second of the command
	[ "$(echo "$(jq -r .ts <<<"$line") - $t0 < 1" | bc)" = 1 ]
}

@test "monitor: a checkpoint is read mid-run (one row per program, pids counted); SIGKILL keeps the last" {
	start_monitor --interval 1
	run_chown
	run_chown
	wait_for 10 has_chown_row "$T/mon.jsonl"
	# both chowns: one identity, two images
	wait_for 5 sh -c "[ \"\$(\"$CAPAUDIT\" report -i '$T/mon.jsonl' --format json |
		jq -r --arg e '$CHOWN' '.processes[] | select(.exe == \$e) | .pids')\" = 2 ]"
	[ "$(chown_row "$T/mon.jsonl")" = "chown $CHOWN 2 2" ]
	[ "$(jq -r 'select(.type == "header") | "\(.scope) \(.monitor.interval) \(.monitor.checkpoint > 0)"' \
		"$T/mon.jsonl")" = "monitor 1 true" ]
	kill -KILL "$MPID"
	wait "$MPID" 2>/dev/null || true   # "Killed": what this test is about
	MPID=
	run "$CAPAUDIT" report -i "$T/mon.jsonl"
	[ "$status" -eq 0 ]
	[ "$(chown_row "$T/mon.jsonl")" = "chown $CHOWN 2 2" ]
	run "$CAPAUDIT" report -i "$T/mon.jsonl" --suggest
	[ "$status" -eq 0 ]
}

@test "monitor: SIGHUP after a rename writes a new file at the path; SIGTERM a last checkpoint, exit 0" {
	start_monitor --interval 1 --events "$T/ev.jsonl"
	wait_for 5 test -s "$T/mon.jsonl"
	mv "$T/mon.jsonl" "$T/mon.jsonl.1"
	mv "$T/ev.jsonl" "$T/ev.jsonl.1"
	kill -HUP "$MPID"
	wait_for 5 test -s "$T/mon.jsonl"
	wait_for 5 test -e "$T/ev.jsonl"
	run_chown
	wait_for 5 event_of_chown
	"$CAPAUDIT" report -i "$T/mon.jsonl.1" >/dev/null
	kill -TERM "$MPID"
	st=0
	wait "$MPID" || st=$?
	MPID=
	[ "$st" -eq 0 ]
	[ "$(jq -r 'select(.type == "header") | .stop' "$T/mon.jsonl")" = signal ]
	[ "$(chown_row "$T/mon.jsonl")" = "chown $CHOWN 1 1" ]
}

# finding_of_chown FORMAT: the finding lines of run_chown's process, as FORMAT
finding_of_chown() {
	jq -r --argjson p "$(cat "$T/chown.pid")" 'select(.kind == "finding" and .pid == $p)
		| "'"$1"'"' "$T/ev.jsonl"
}

has_finding_of_chown() {
	[ -n "$(finding_of_chown x)" ]
}

@test "monitor --baseline: a use the baseline does not allow is a finding line, an allowed one is not" {
	# CAP_CHOWN allowed in chown(2) at another call site: chown(1)'s
	# fchownat(2) is a new syscall (--match syscall, the default, as check)
	cat >"$T/capaudit-baseline.json" <<-'EOF'
	{"format": "capaudit-baseline", "version": 2,
	 "capabilities": [{"cap": "CAP_CHOWN", "syscalls": ["chown"], "callsites": ["chown_common"]}]}
	EOF
	start_monitor --interval 60 --events "$T/ev.jsonl" --baseline "$T/capaudit-baseline.json"
	run_chown
	wait_for 5 event_of_chown
	wait_for 5 has_finding_of_chown
	[ "$(finding_of_chown '\(.cap) \(.finding) \(.syscall) \(.callsite)')" = \
	  "CAP_CHOWN new-syscall fchownat setattr_prepare" ]
	kill -TERM "$MPID"
	wait "$MPID" || true
	# fchownat allowed: the call site is detail, unless --match callsite
	rm -f "$T/ev.jsonl"
	sed -i 's/"chown"\]/"fchownat"]/' "$T/capaudit-baseline.json"
	start_monitor --interval 60 --events "$T/ev.jsonl" --baseline "$T/capaudit-baseline.json" --match callsite
	run_chown
	wait_for 5 event_of_chown
	wait_for 5 has_finding_of_chown
	[ "$(finding_of_chown '\(.cap) \(.finding) \(.callsite)')" = \
	  "CAP_CHOWN new-callsite setattr_prepare" ]
	run "$CAPAUDIT" monitor --events - --baseline "$T/missing.json"
	[ "$status" -ne 0 ]
	run "$CAPAUDIT" monitor --events - --baseline "$T/capaudit-baseline.json" --match nope
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: invalid --match 'nope': capability, syscall or callsite" ]
}

@test "monitor: noaudit probing is left out of events and metrics by default, kept with --noaudit" {
	start_monitor --interval 1 --events "$T/ev.jsonl" --metrics "$T/m.prom"
	run_chown
	wait_for 10 event_of_chown
	wait_for 10 has_chown_metric "$T/m.prom" 1
	# a minute of a busy host, shortened: hundreds of processes start
	for i in $(seq 200); do /bin/true; done
	wait_for 10 sh -c "[ \$(awk '/^capaudit_noaudit_checks_left_out_total/ {print \$2}' $T/m.prom) -gt 0 ]"
	[ "$(noaudit_events "$T/ev.jsonl")" = 0 ]
	[ "$(jq -s '[.[] | select(.kind == "first_use") | .noaudit] | unique | map(tostring) | join(",")' "$T/ev.jsonl")" = '"false"' ]
	! grep -q 'noaudit="true"' "$T/m.prom"
	kill "$MPID"
	wait "$MPID" || true
	MPID=
	start_monitor --interval 1 --events "$T/ev2.jsonl" --metrics "$T/m2.prom" --noaudit
	for i in $(seq 50); do /bin/true; done
	wait_for 10 sh -c "[ \$(jq -s '[.[] | select(.kind == \"first_use\" and .noaudit == true)] | length' $T/ev2.jsonl) -gt 0 ]"
	wait_for 10 grep -q 'noaudit="true"' "$T/m2.prom"
}

@test "monitor: temporary, deleted and memfd executables are one exe (and comm) label; the overflow counter is there" {
	start_monitor --interval 1 --metrics "$T/m.prom"
	# three hundred programs under /tmp, each giving a file away and back
	mkdir -p "$T/bin"
	touch "$T/g"
	for i in $(seq 300); do cp "$SYS_CHOWN" "$T/bin/chown$i"; done
	for i in $(seq 300); do "$T/bin/chown$i" 1 "$T/g"; "$T/bin/chown$i" 0 "$T/g"; done
	wait_for 20 sh -c "grep -F 'exe=\"(transient)\",comm=\"(transient)\"' $T/m.prom | grep -q CAP_CHOWN"
	! grep -qF "exe=\"$T/bin/" "$T/m.prom"
	[ "$(grep -c '^capaudit_checks_total{' "$T/m.prom")" -lt 100 ]
	[ "$(metric capaudit_label_overflow_total 'label="exe"' "$T/m.prom")" = 0 ]
	promtool check metrics <"$T/m.prom"
}

# churn_on_exe FILE: "identities pids CAP_SYSLOG-checks" of the rows whose
# executable is $CHURN, in the last checkpoint of FILE
churn_on_exe() {
	"$CAPAUDIT" report -i "$1" --format json 2>/dev/null | jq -r --arg e "$CHURN" '
		[.processes[] | select(.exe == $e)]
		| "\(length) \(map(.pids) | add // 0) \([.[].capabilities[]? | select(.cap == "CAP_SYSLOG") | .granted] | add // 0)"'
}

churn_syslog_is() {
	[ "$(churn_on_exe "$1" | cut -d' ' -f3)" = "$2" ]
}

@test "monitor stopped while 10,000 processes start: events are lost (counted), every check is still on its program" {
	start_monitor --interval 1
	# a reader that falls behind (here stopped: on a busy host, starved)
	# loses fork, exec and exit events once the 1 MiB ring buffer is full;
	# the checks are in the kernel's map with the file their process ran
	kill -STOP "$MPID"
	out=$("$CHURN" forks 10000 2 8)
	kill -CONT "$MPID"
	[ "${out##*calls=}" = 20000 ]
	wait_for 30 churn_syslog_is "$T/mon.jsonl" 20000
	kill -INT "$MPID"
	wait "$MPID"
	MPID=
	lost=$(head -n 1 "$T/mon.jsonl" | jq -r .lost.ringbuf_full)
	echo "events lost: $lost; on $CHURN: $(churn_on_exe "$T/mon.jsonl")"
	[ "$lost" -gt 0 ]
	# one program identity, its 10,000 processes each counted (and the
	# forkers and their parent, whose events came before the buffer filled)
	read -r ids pids checks <<<"$(churn_on_exe "$T/mon.jsonl")"
	[ "$ids" = 1 ]
	[ "$checks" = 20000 ]
	[ "$pids" -ge 10000 ]
	[ "$pids" -le 10009 ]
	# no check on a process without an executable
	[ "$("$CAPAUDIT" report -i "$T/mon.jsonl" --format json | jq '[.processes[] | select(.exe == null) | .capabilities[] | select(.cap == "CAP_SYSLOG")] | length')" = 0 ]
}

@test "monitor: options are parsed strictly" {
	run "$CAPAUDIT" monitor --interval 1x
	[ "$status" -eq 2 ]
	[[ "$output" == *"invalid --interval '1x'"* ]]
	run "$CAPAUDIT" monitor --interval 0
	[ "$status" -eq 2 ]
	run "$CAPAUDIT" monitor -o -
	[ "$status" -eq 2 ]
	run "$CAPAUDIT" monitor --baseline x.json
	[ "$status" -eq 2 ]
	run "$CAPAUDIT" monitor -a --unit cron
	[ "$status" -eq 2 ]
}

# metric NAME LABELS FILE: the value of the series NAME{LABELS...} in FILE
metric() {
	grep -F "$1{$2" "$3" | awk '{print $NF}'
}

chown_series() {
	echo "exe=\"$CHOWN\",comm=\"chown\",container=\"\",container_name=\"\",unit=\"\",cap=\"CAP_CHOWN\",verdict=\"granted\""
}

has_chown_metric() {
	[ "$(metric capaudit_checks_total "$(chown_series)" "$1")" = "$2" ]
}

@test "monitor --metrics and --listen: the checkpoint's counts in Prometheus text, promtool accepts them" {
	cat >"$T/capaudit-baseline.json" <<-'EOF2'
	{"format": "capaudit-baseline", "version": 1, "capabilities": []}
	EOF2
	start_monitor --interval 1 --metrics "$T/capaudit.prom" --listen 127.0.0.1:0 \
		--baseline "$T/capaudit-baseline.json"
	wait_for 5 test -s "$T/capaudit.prom"
	port=$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' "$T/mon.err")
	echo "port: $port"
	[ -n "$port" ]
	run_chown
	run_chown
	wait_for 10 has_chown_metric "$T/capaudit.prom" 2
	# the same count as the checkpoint record's
	wait_for 5 sh -c "[ \"\$(\"$CAPAUDIT\" report -i '$T/mon.jsonl' --format json |
		jq -r --arg e '$CHOWN' '.processes[] | select(.exe == \$e) | .pids')\" = 2 ]"
	[ "$(chown_row "$T/mon.jsonl")" = "chown $CHOWN 2 2" ]
	promtool check metrics <"$T/capaudit.prom"
	# the empty baseline allows nothing: CAP_CHOWN is a new capability
	[ "$(metric capaudit_findings_total 'kind="new-capability"' "$T/capaudit.prom")" -ge 1 ]
	[ "$(metric capaudit_lost_total 'kind="map_full"' "$T/capaudit.prom")" = 0 ]
	rss=$(awk '/^capaudit_monitor_resident_bytes/ {print $2}' "$T/capaudit.prom")
	[ "$rss" -gt 1000000 ]
	# the server: the same text, with Prometheus's content type
	curl -sS -D "$T/hdr" -o "$T/served.prom" "http://127.0.0.1:$port/metrics"
	grep -i '^content-type: text/plain; version=0.0.4' "$T/hdr"
	has_chown_metric "$T/served.prom" 2
	promtool check metrics <"$T/served.prom"
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/other")" = 404 ]
	# its thread holds what the monitor keeps: CAP_BPF and CAP_PERFMON
	for t in /proc/"$MPID"/task/*; do
		[ "$(awk '/^CapEff/ {print $2}' "$t/status")" = 000000c000000000 ]
	done
}

@test "monitor --metrics and --listen: a bad address or an unwritable file is one line, before monitoring" {
	run "$CAPAUDIT" monitor --listen localhost:9100
	[ "$status" -eq 2 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == *"--listen localhost:9100: localhost is not a numeric IPv4 address"* ]]
	run "$CAPAUDIT" monitor --listen 127.0.0.1:65536
	[ "$status" -eq 2 ]
	run "$CAPAUDIT" monitor --metrics -
	[ "$status" -eq 2 ]
	run "$CAPAUDIT" monitor -q -o "$T/mon.jsonl" --metrics "$T/no/such/dir/capaudit.prom"
	[ "$status" -eq 1 ]
	[[ "$output" == *"--metrics: "*"$T/no/such/dir/capaudit.prom"* ]]
	[ ! -e "$T/mon.jsonl" ]
	# a port in use
	python3 -c 'import socket,sys,time; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(30)' >"$T/port" &
	holder=$!
	wait_for 5 test -s "$T/port"
	run "$CAPAUDIT" monitor -q -o "$T/mon.jsonl" --listen "127.0.0.1:$(cat "$T/port")"
	kill "$holder"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot listen: Address already in use"* ]]
}

# kstack_entries PID: entries of the kernel stack map of the monitor PID
kstack_entries() {
	local id
	for id in $(bpftool -j map show | jq -r '.[] | select(.name == "kstacks") | .id'); do
		# the map of this monitor: one of its file descriptors
		if ls -l "/proc/$1/fdinfo" >/dev/null 2>&1 &&
		   grep -l "^map_id:[[:space:]]*$id$" /proc/"$1"/fdinfo/* >/dev/null 2>&1; then
			bpftool -j map dump id "$id" | jq length
			return
		fi
	done
	echo none
}

kstacks_empty() {
	[ "$(kstack_entries "$1")" = 0 ]
}

@test "monitor: the kernel's stack map holds an interval's stacks, not every stack ever seen" {
	# a scope of one shell that does its work once the monitor is attached,
	# then only sleeps
	sh -c 'while [ ! -e "$1/go" ]; do sleep 0.05; done
	       touch "$1/f"; chown nobody "$1/f"; chgrp nogroup "$1/f"; ping -c1 -W1 127.0.0.1
	       touch "$1/done"; exec sleep 60' sh "$T" >/dev/null 2>&1 &
	sh_pid=$!
	start_monitor --interval 0.5 -p "$sh_pid"
	touch "$T/go"
	wait_for 10 test -e "$T/done"
	# the checkpoint has their call sites
	wait_for 5 sh -c "\"$CAPAUDIT\" report -i '$T/mon.jsonl' --format json |
		jq -e '[.processes[].capabilities[] | select(.cap == \"CAP_CHOWN\")] | length > 0' >/dev/null"
	stacks=$(jq -s '[.[] | select(.type == "stack")] | length' "$T/mon.jsonl")
	# the folds that follow, with nothing new, leave the map empty
	wait_for 10 kstacks_empty "$MPID" || true
	entries=$(kstack_entries "$MPID")
	kill "$sh_pid"
	echo "stacks in the checkpoint: $stacks, in the kernel's map: $entries"
	[ "$stacks" -ge 3 ]
	[ "$entries" = 0 ]
}

@test "monitor --cgroup: an empty subtree is watched on; who joins it later is in, the host is not" {
	V2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	[ -n "$V2" ] || skip "cgroup v2 is not mounted"
	CG=/capaudit-e2e-mon-$$
	mkdir "$V2$CG"
	start_monitor --interval 0.5 --cgroup "$CG"
	# a checkpoint or two of an empty scope: still running
	wait_for 10 checkpoints_written 2
	kill -0 "$MPID"
	touch "$T/in" "$T/out"
	sh -c 'echo $$ >"$1/cgroup.procs"; exec "$3" nobody "$2"' sh "$V2$CG" "$T/in" "$CHOWN"
	"$CHOWN" nobody "$T/out"
	wait_for 10 has_chown_row "$T/mon.jsonl"
	kill -TERM "$MPID"
	st=0
	wait "$MPID" || st=$?
	MPID=
	[ "$st" -eq 0 ]
	# one chown, from inside; its line names the cgroup
	[ "$(chown_row "$T/mon.jsonl")" = "chown $CHOWN 1 1" ]
	[ "$(jq -r --arg e "$CHOWN" 'select(.type == "process" and .exe == $e) | .cgroup' \
		"$T/mon.jsonl")" = "$CG" ]
	[ "$(jq -r 'select(.type == "header") | "\(.scope) \(.target.cgroup)"' "$T/mon.jsonl")" = \
	  "monitor $CG" ]
}

# checkpoints_written N: the monitor's header counts N checkpoints or more
checkpoints_written() {
	[ -s "$T/mon.jsonl" ] &&
		[ "$(jq -r 'select(.type == "header") | .monitor.checkpoint' "$T/mon.jsonl")" -ge "$1" ]
}

# build_id FILE: its GNU build id, as readelf says
build_id() {
	readelf -n "$1" | awk '/Build ID:/ {print $3}'
}

# has_build EXE BUILD_ID: the checkpoint has a program line of EXE with BUILD_ID
has_build() {
	[ -s "$T/mon.jsonl" ] && jq -e -s --arg e "$1" --arg b "$2" 'map(select(.type == "process"
		and .exe == $e and .build_id == $b)) | length == 1' "$T/mon.jsonl" >/dev/null
}

# prog_caps_are EXE CAPS: the checkpoint's CAP_SYSLOG and CAP_CHOWN rows of EXE
prog_caps_are() {
	[ "$("$CAPAUDIT" report -i "$T/mon.jsonl" --format json 2>/dev/null | jq -r --arg e "$1" '
		[.processes[] | select(.exe == $e) | .capabilities[].cap]
		| map(select(. == "CAP_SYSLOG" or . == "CAP_CHOWN")) | sort | join(" ")')" = "$2" ]
}

@test "monitor: an upgrade at the same path is another program identity, told apart by build id" {
	start_monitor --interval 0.5
	prog="$T/prog"
	cp "$CHURN" "$prog.new" && mv "$prog.new" "$prog"
	"$prog" calls 3
	old=$(build_id "$CHURN")
	# the monitor reads the file the kernel ran while the path still names
	# it (a path renamed over before then leaves the build id unknown)
	wait_for 10 has_build "$prog" "$old"
	# the upgrade: another build renamed over the path, as dpkg does
	cp "$CHOWN" "$prog.new" && mv "$prog.new" "$prog"
	touch "$T/f"
	"$prog" nobody "$T/f"
	new=$(build_id "$CHOWN")
	wait_for 10 has_build "$prog" "$new"
	[ "$old" != "$new" ]
	# the new build's CAP_CHOWN row may come a checkpoint after its line
	wait_for 10 prog_caps_are "$prog" "CAP_CHOWN CAP_SYSLOG"
	run jq -r --arg e "$prog" 'select(.type == "process" and .exe == $e) | .build_id' "$T/mon.jsonl"
	echo "$output"
	[ "$(echo "$output" | sort | tr '\n' ' ')" = "$(printf '%s\n' "$old" "$new" | sort | tr '\n' ' ')" ]
	# each with its own capability
	"$CAPAUDIT" report -i "$T/mon.jsonl" --format json >"$T/rep.json"
	[ "$(jq -r --arg e "$prog" '[.processes[] | select(.exe == $e) | .capabilities[].cap]
		| map(select(. == "CAP_SYSLOG" or . == "CAP_CHOWN")) | sort | join(" ")' "$T/rep.json")" = \
	  "CAP_CHOWN CAP_SYSLOG" ]
}

# deploy_args FILE: the example's capaudit arguments, one per line, with its
# directories moved under $T
deploy_args() {
	case "$1" in
	*.service)
		sed -n '/^ExecStart=/,/[^\\]$/p' "$1" | sed 's/\\$//; s/^ExecStart=//' |
			tr -s ' \t\n' '\n\n\n' | sed '/^$/d' | tail -n +2 ;;
	*.yaml)
		python3 -c 'import sys, yaml
ds = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d][0]
print("\n".join(ds["spec"]["template"]["spec"]["containers"][0]["command"][1:]))' "$1" ;;
	esac | sed "s#/var/lib/capaudit#$T/lib#; s#/var/log/capaudit#$T/log#; s#\$(NODE_NAME)#node1#"
}

deployed_started() {
	[ -s "$T/lib/metrics/capaudit.prom" ] || ! kill -0 "$1" 2>/dev/null
}

# run_deployed FILE CAPS: the example's command under a bounding set of CAPS
# only and no_new_privs, as its unit or pod gives it, for 3 s, then SIGTERM
run_deployed() {
	rm -rf "$T/lib" "$T/log"
	mkdir -p "$T/lib/metrics" "$T/log"
	mapfile -t args < <(deploy_args "$1")
	echo "capaudit ${args[*]}"
	setpriv --bounding-set -all,"$2" --inh-caps -all --no-new-privs \
		"$CAPAUDIT" "${args[@]}" 2>"$T/deployed.err" &
	MPID=$!
	# until its first metrics file is written, or it gave up
	wait_for 10 deployed_started "$MPID" || true
	kill -TERM "$MPID" 2>/dev/null
	st=0
	wait "$MPID" || st=$?
	MPID=
	cat "$T/deployed.err"
	return "$st"
}

@test "deploy: the examples' command lines run with the capabilities they are given, and not without one" {
	python3 -c 'import yaml' 2>/dev/null || skip "no python3 yaml (Debian python3-yaml)"
	for f in "$ROOT"/examples/deploy/capaudit-monitor.service "$ROOT"/examples/deploy/capaudit-daemonset.yaml; do
		run_deployed "$f" +bpf,+perfmon,+sys_ptrace
		rec=$(ls "$T"/lib/monitor*.jsonl)
		[ "$(jq -r 'select(.type == "header") | "\(.scope) \(.stop)"' "$rec")" = "monitor signal" ]
		promtool check metrics <"$T/lib/metrics/capaudit.prom"
		grep -q '^capaudit_last_checkpoint_timestamp_seconds ' "$T/lib/metrics/capaudit.prom"
		[ -e "$T"/log/events.jsonl ] || [ -e "$T"/lib/events.jsonl ]
		# CAP_SYS_PTRACE is for naming programs already running: not required
		run_deployed "$f" +bpf,+perfmon
		# without CAP_PERFMON or CAP_BPF it cannot start, and says so
		run run_deployed "$f" +bpf,+sys_ptrace
		echo "$output"
		[ "$status" -eq 1 ]
		[[ "$output" == *CAP_PERFMON* ]]
		run run_deployed "$f" +perfmon,+sys_ptrace
		echo "$output"
		[ "$status" -eq 1 ]
		[[ "$output" == *CAP_BPF* ]]
	done
}

@test "monitor --listen: forty slow clients from ten addresses, connecting again at each cut, are cut 2 s after connecting; every scrape from 127.0.0.1 is answered" {
	start_monitor --interval 1 --listen 127.0.0.1:0
	wait_for 10 grep -q '(port [0-9]*)' "$T/mon.err"
	port=$(sed -n 's/.*(port \([0-9]*\)).*/\1/p' "$T/mon.err")
	# the first checkpoint published (503 before it)
	wait_for 10 curl -sf -o /dev/null "http://127.0.0.1:$port/metrics"
	# a request must be whole 2 s after connecting (lib/httpd.c
	# HTTPD_REQUEST_S), give or take the watchdog's quarter second and a
	# busy host's slack; 4 from one address (HTTPD_PER_ADDR); 11 s: more
	# than two of the old 5 s cuts; a scrape is answered within 1 s (on an
	# idle host; milliseconds, as a rule)
	run python3 "$ROOT/tests/e2e/slow-clients.py" "$port" 2 $((2 * $(wait_scale))) 4 11 \
		$(($(wait_scale) / 4))
	echo "$output"
	[ "$status" -eq 0 ]
	kill -0 "$MPID"
}

@test "monitor --listen on an address other hosts reach: one warning line, before monitoring" {
	start_monitor --interval 60 --listen 0.0.0.0:0
	wait_for 10 grep -q 'warning: --listen 0.0.0.0:0 is reachable from other hosts' "$T/mon.err"
	cat "$T/mon.err"
	[ "$(grep -c warning "$T/mon.err")" -eq 1 ]
	# loopback: none
	kill -TERM "$MPID"
	wait "$MPID" || true
	start_monitor --interval 60 --listen 127.0.0.1:0
	wait_for 10 grep -q '(port [0-9]*)' "$T/mon.err"
	! grep -q warning "$T/mon.err"
}
