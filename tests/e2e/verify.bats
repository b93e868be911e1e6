#!/usr/bin/env bats
# verify and run you can trust (docs/verify.md), on real programs: the
# search goes down an order by power (CAP_SYS_ADMIN is never the answer
# for what CAP_BPF and CAP_PERFMON do), a daemon is verified with a
# readiness script and nothing it starts outlives its run, every run has
# a time limit, a signal stops verify and run cleanly at any moment, and
# --user gives the program its user's environment.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

setup() {
	e2e_setup
	mkdir -p "$T/tmp"
	export TMPDIR=$T/tmp
	cd "$T"
}

teardown() {
	[ -n "${VPID:-}" ] && kill -KILL "$VPID" 2>/dev/null
	pkill -KILL -f "$MARK" 2>/dev/null
	pkill -KILL -f "$T/www" 2>/dev/null
	e2e_teardown
}

# what the commands below run until killed: perl, whose command line
# carries the marker (sleep's cannot)
MARK=ca-verify-marker-$$
LONG="perl -e 'sleep 600' $MARK"

need() {
	command -v "$1" >/dev/null || skip "$1 is not installed (tools/deps.sh installs it)"
}

# no process of this test's marker is left, and verify's records are gone
nothing_left() {
	! pgrep -f "$MARK" >/dev/null || { pgrep -fa "$MARK"; return 1; }
	! pgrep -f "$T/www" >/dev/null || { pgrep -fa "$T/www"; return 1; }
	[ -z "$(ls -A "$T/tmp")" ] || { ls -la "$T/tmp"; return 1; }
}

@test "bpftrace attaching a tracepoint: CAP_BPF and CAP_PERFMON, never CAP_SYS_ADMIN in their place" {
	need bpftrace
	plain_pass_only "five bpftrace runs, a minute and a half"
	# as a new user would: a small script that runs it and greps its output
	cat >"$T/bt.sh" <<'EOF'
#!/bin/sh
bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { printf("hit\n"); exit(); }' >bt.out 2>&1 &
b=$!
for i in $(seq 1 600); do
	grep -q hit bt.out && break
	grep -q Attaching bt.out && python3 -c 'import os; os.getppid()'
	kill -0 $b 2>/dev/null || break
	sleep 0.1
done
wait $b
grep -q hit bt.out
EOF
	chmod +x "$T/bt.sh"
	run "$CAPAUDIT" verify -q --format json -- "$T/bt.sh"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = CAP_PERFMON,CAP_BPF ]
	[ "$(jq -r '.members[] | select(.cap == "CAP_SYS_ADMIN") | .kept' "$T/v.json")" = false ]
	# each kept member: the run without it was refused by the kernel, at
	# the narrow capability's own site
	[ "$(jq -r '.members[] | select(.kept) | "\(.cap) \(.without_it.denied)"' "$T/v.json" | sort)" = \
	  "$(printf 'CAP_BPF CAP_BPF\nCAP_PERFMON CAP_PERFMON')" ]
	nothing_left
}

@test "perf stat -a: CAP_PERFMON" {
	need perf
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ] || skip "perf_event_paranoid lets anyone"
	run "$CAPAUDIT" verify -q --format json -- perf stat -e task-clock -a true
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = CAP_PERFMON ]
	[ "$(jq -r '.members[] | select(.kept) | .without_it.callsite' "$T/v.json")" = find_get_context ]
	nothing_left
}

# daemon_script END: $T/d.sh runs busybox httpd in the foreground, waits
# until it answers, then does END (stop it, or not)
daemon_script() {
	cat >"$T/d.sh" <<EOF
#!/bin/sh
busybox httpd -f -p 127.0.0.1:80 -h $T/www & d=\$!
ok=
for i in \$(seq $((100 * $(wait_scale)))); do
	busybox wget -q -O - http://127.0.0.1/ 2>/dev/null | grep -q ok && ok=1 && break
	kill -0 \$d 2>/dev/null || break
	sleep 0.1
done
$1
[ "\$ok" = 1 ]
EOF
	chmod +x "$T/d.sh"
}

@test "a daemon in the foreground with a readiness script: busybox httpd proves CAP_NET_BIND_SERVICE, nothing left running" {
	need busybox
	busybox httpd --help 2>&1 | grep -q -- '-f' || skip "this busybox has no httpd"
	mkdir -p "$T/www"
	echo ok >"$T/www/index.html"
	chmod -R a+rX "$T"
	daemon_script "kill \$d; wait \$d"
	ss -ltn | grep -q '127.0.0.1:80 ' && skip "port 80 is taken on this host"
	run "$CAPAUDIT" verify -q --timeout 60 --format json -- "$T/d.sh"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = CAP_NET_BIND_SERVICE ]
	[ "$(jq -r '.left_behind' "$T/v.json")" = 0 ]
	[ "$(jq -r '.own_cgroups' "$T/v.json")" = true ]
	nothing_left
	# the same script forgetting to stop it: the run records what it
	# started until that ends (a daemon's work after its launcher exits
	# counts), so it ends at --timeout, says what still ran, stops it
	daemon_script "setsid $LONG </dev/null >/dev/null 2>&1 &"
	run "$CAPAUDIT" verify --timeout 8 -- "$T/d.sh"
	[ "$status" -eq 1 ]
	[[ "$output" == *"run 1 still running at --timeout: "*"(perl)"* ]]
	[[ "$output" == *"the command did not end within --timeout 8 s even with the caller's privileges"* ]]
	nothing_left
}

@test "a judge whose kill of a daemon that changed user is refused: the timeout names CAP_KILL, the run's record is kept" {
	need setpriv
	# the "daemon" (perl) drops to nobody as a daemon does; the script
	# stops it once it has; without CAP_KILL its kill is refused and the
	# run lasts until --timeout
	cat >"$T/j.sh" <<EOF
setpriv --reuid=65534 --regid=65534 --clear-groups $LONG & d=\$!
for i in \$(seq 200); do
	[ "\$(awk '/^Uid:/ { print \$2 }' /proc/\$d/status 2>/dev/null)" = 65534 ] && break
	sleep 0.05
done
kill \$d; wait \$d; true
EOF
	run "$CAPAUDIT" verify --timeout 8 --program setpriv -k "$T/runs" -- sh "$T/j.sh"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" == *"run 2 with "*"CAP_SETGID, CAP_SETUID: timed out"* ]]
	[[ "$output" == *"No set proven: with "*"CAP_SETGID, CAP_SETUID the command did not end within --timeout 8 s; in that run the kernel refused CAP_KILL at "* ]]
	[[ "$output" == *'makes a run last (docs/verify.md, "Daemons")'* ]]
	# what it did until it was stopped is there to read: the refusal
	run -0 "$CAPAUDIT" report --suggest --program sh "$T/runs/run2.jsonl"
	echo "$output" | sed -n '/^Denied with no granted alternative:/,/^$/p' | grep -q '^  CAP_KILL at '
	nothing_left
}

@test "a run past --timeout is stopped with all it started and counts as failed" {
	run "$CAPAUDIT" verify --timeout 1 -- sh -c "$LONG"
	[ "$status" -eq 1 ]
	[[ "$output" == *"run 1 passed --timeout (1 s): stopped"* ]]
	[[ "$output" == *"No set proven: the command did not end within --timeout 1 s even with the caller's privileges"* ]]
	nothing_left
	run "$CAPAUDIT" verify --timeout 0 -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"--timeout '0': seconds, more than 0"* ]]
}

# interrupt SIG WHEN: verify of a command that runs until killed, sent SIG
# once its WHEN-th run is under way (the command writes a line per start)
interrupt() {
	local sig=$1 when=$2
	: >"$T/starts"
	"$CAPAUDIT" verify --timeout 100 -- sh -c "echo x >>$T/starts; $LONG; true" \
		>"$T/v.out" 2>"$T/v.err" &
	VPID=$!
	wait_for 30 sh -c "[ \$(wc -l <$T/starts) -ge $when ] && pgrep -f $MARK >/dev/null"
	kill -"$sig" "$VPID"
	local rc=0
	wait "$VPID" || rc=$?
	VPID=
	echo "$rc"
}

@test "verify interrupted (SIGINT, SIGTERM, SIGHUP) in its first or a later run: no verdict, nothing left, 128+signal" {
	local rc
	rc=$(interrupt INT 1)
	[ "$rc" = 130 ]
	grep -q "Interrupted by SIGINT: no verdict" "$T/v.out"
	nothing_left
	rc=$(interrupt TERM 1)
	[ "$rc" = 143 ]
	grep -q "Interrupted by SIGTERM: no verdict" "$T/v.out"
	nothing_left
	# a later run: a command that ends with the caller's privileges (it
	# gives a file away and takes it back: CAP_CHOWN) and hangs without
	touch "$T/f"
	chown 65534 "$T/f"
	: >"$T/starts"
	"$CAPAUDIT" verify --timeout 100 -- sh -c "echo x >>$T/starts; chown 0 $T/f 2>/dev/null && chown 65534 $T/f && exit 0; $LONG" \
		>"$T/v.out" 2>"$T/v.err" &
	VPID=$!
	wait_for 60 sh -c "[ \$(wc -l <$T/starts) -ge 2 ] && pgrep -f $MARK >/dev/null"
	kill -HUP "$VPID"
	rc=0
	wait "$VPID" || rc=$?
	VPID=
	[ "$rc" = 129 ]
	grep -q "Interrupted by SIGHUP: no verdict" "$T/v.out"
	grep -q "run 1 with the caller's privileges: succeeded" "$T/v.err"
	nothing_left
}

@test "verify whose report goes to a closed pipe: SIGPIPE, 141, its records removed" {
	set +o pipefail
	"$CAPAUDIT" verify -q -- true 2>"$T/v.err" | true
	local rc=${PIPESTATUS[0]}
	# (the reader is gone long before the report: verify's first run alone
	# takes longer than true)
	[ "$rc" = 141 ]
	[ -z "$(ls -A "$T/tmp")" ]
	[ ! -s "$T/v.err" ] || ! grep -q "cannot write" "$T/v.err"
}

@test "run interrupted: 'interrupted: no verdict', 128+signal, never 'not enough'" {
	"$CAPAUDIT" run --caps none -o "$T/r.jsonl" -- sleep 600 >"$T/r.out" 2>"$T/r.err" &
	VPID=$!
	wait_for 30 pgrep -x -P "$VPID" sleep
	kill -INT "$VPID"
	local rc=0
	wait "$VPID" || rc=$?
	VPID=
	[ "$rc" = 130 ]
	grep -q "capaudit run: interrupted by SIGINT: no verdict" "$T/r.err"
	! grep -q "not enough" "$T/r.out" "$T/r.err"
}

# escape_script: $T/esc.sh gives $T/f away (CAP_CHOWN); refused, it does
# what the security review of issue 43 did: as uid 0 it owns the root
# cgroup's cgroup.procs, so it may write itself there without a
# capability (kernel/cgroup/cgroup.c cgroup_procs_write_permission():
# write access to that file and to the common ancestor's, the root's), out
# of the run's cgroup, then starts a child in a session of its own
# (setsid -f: out of the process group too). $T/moved: it moved; $T/refused:
# what the kernel said when it did not (ENOENT where cgroup2 is mounted with
# nsdelegate: the run's cgroup namespace is a delegation boundary there)
escape_script() {
	cat >"$T/esc.sh" <<EOF
#!/bin/sh
chown 65534 $T/f 2>/dev/null && exit 0
root=\$(awk '\$3 == "cgroup2" { print \$2; exit }' /proc/self/mounts)
if echo \$\$ 2>"$T/refused" >"\$root/cgroup.procs"; then echo "\$root" >"$T/moved"; fi
setsid -f $LONG </dev/null >/dev/null 2>&1
exit 1
EOF
	chmod +x "$T/esc.sh"
	touch "$T/f"
}

# the escape above happened, or the kernel refused it as a delegation
# boundary (and the child is in the run's cgroup)
escaped_or_refused() {
	[ -e "$T/moved" ] || grep -q "No such file or directory" "$T/refused" ||
		{ cat "$T/refused"; return 1; }
}

@test "run: a command that writes itself into the root cgroup and starts a child with setsid -f: stopped when run ends, and it kept run's set" {
	escape_script
	"$CAPAUDIT" run --caps none -o "$T/r.jsonl" -- "$T/esc.sh" >"$T/r.out" 2>"$T/r.err" &
	VPID=$!
	wait_for 30 pgrep -f "$MARK"
	escaped_or_refused
	# uid 0 with an empty bounding set: what it runs gains nothing
	# (security/commoncap.c handle_privileged_root(): root's file set is
	# the bounding set), left or not
	local p
	p=$(pgrep -f "$MARK")
	[ "$(awk '/^Cap(Inh|Prm|Eff|Bnd|Amb):/ { print $2 }' /proc/$p/status | sort -u)" = 0000000000000000 ]
	# run records what the command started until it exits: a signal ends it
	kill -INT "$VPID"
	local rc=0
	wait "$VPID" || rc=$?
	VPID=
	[ "$rc" = 130 ] || { cat "$T/r.err"; false; }
	grep -q "capaudit run: interrupted by SIGINT: no verdict" "$T/r.err"
	grep -q "stopped 1 process the command started that still ran: $p (perl)" "$T/r.err" || { cat "$T/r.err"; false; }
	nothing_left
}

@test "verify: a run that writes itself into the root cgroup and starts a child with setsid -f: named at --timeout, stopped, the set still proven" {
	escape_script
	# the run without CAP_CHOWN escapes; its child runs until --timeout
	run "$CAPAUDIT" verify --timeout $((2 * $(wait_scale))) -- "$T/esc.sh"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	escaped_or_refused
	[[ "$output" == *"Proven set: CAP_CHOWN"* ]]
	[[ "$output" =~ "still running at --timeout: "[0-9]+" (perl)" ]] || { echo "$output"; false; }
	nothing_left
	# verify interrupted in that run: it kills capaudit run at once, so it
	# finds the child itself, below it wherever it moved
	rm -f "$T/moved" "$T/refused"
	"$CAPAUDIT" verify --timeout 100 -- "$T/esc.sh" >"$T/v.out" 2>"$T/v.err" &
	VPID=$!
	wait_for 60 pgrep -f "$MARK"
	escaped_or_refused
	kill -INT "$VPID"
	local rc=0
	wait "$VPID" || rc=$?
	VPID=
	[ "$rc" = 130 ] || { cat "$T/v.err"; false; }
	grep -q "Interrupted by SIGINT: no verdict" "$T/v.out"
	nothing_left
}

@test "run --user nobody: the program's own dotfiles are looked for in nobody's home, not the caller's" {
	# bash --login reads ~/.bash_profile, ~/.bash_login and ~/.profile: under
	# the caller's /root (mode 700) nobody would be refused
	HOME=/root PATH=/root/bin:$PATH run "$CAPAUDIT" run -q --caps none --user nobody --format json \
		-o "$T/r.jsonl" -- bash --login -c 'echo "$HOME $USER"'
	[ "$status" -eq 0 ]
	[[ "$output" == *"/nonexistent nobody"* ]]
	# (bash's /etc/profile sets PATH again: the environment's, before it)
	run "$CAPAUDIT" run -q --caps none --user nobody -o "$T/r.jsonl" -- sh -c 'echo "$PATH $LOGNAME"'
	[[ "$output" == *"/usr/local/bin:/usr/bin:/bin nobody"* ]]
	HOME=/root PATH=/root/bin:$PATH run "$CAPAUDIT" run -q --caps none --user nobody --format json \
		-o "$T/r.jsonl" -- bash --login -c true
	echo "$output" | sed -n '/^{/,$p' >"$T/rep.json"
	[ "$(jq -r '.denials | length' "$T/rep.json")" = 0 ]
}

@test "run and verify --user --keep-path: a program only the caller's PATH has is found by the command's own children" {
	# a tool in a directory of the caller's PATH alone (as /usr/sbin is
	# for a non-root login PATH), run by a script: with the user's login
	# PATH the script's shell does not find it
	mkdir -p "$T/bin"
	printf '#!/bin/sh\necho "tool ran as $(id -u)"\n' >"$T/bin/catool"
	chmod 755 "$T/bin/catool"
	PATH=$T/bin:$PATH run "$CAPAUDIT" run -q --caps none --user nobody -o "$T/r.jsonl" -- sh -c catool
	[ "$status" -eq 1 ]
	[[ "$output" == *"catool: not found"* ]]
	PATH=$T/bin:$PATH run "$CAPAUDIT" run -q --caps none --user nobody --keep-path -o "$T/r.jsonl" \
		-- sh -c 'catool; echo "PATH=$PATH HOME=$HOME"'
	[ "$status" -eq 0 ]
	[[ "$output" == *"tool ran as 65534"* ]]
	# the caller's PATH, the user's HOME
	[[ "$output" == *"PATH=$T/bin:$PATH HOME=/nonexistent"* ]]
	# verify hands it on to every run
	PATH=$T/bin:$PATH run --separate-stderr "$CAPAUDIT" verify -q --user nobody --keep-path \
		--format json -- sh -c catool
	[ "$status" -eq 0 ]
	[ "$(jq -r '.proven, (.set | length), .keep_path' <<<"$output" | paste -sd' ')" = "true 0 true" ]
	# without --user there is no login PATH to keep the caller's from
	run "$CAPAUDIT" run -q --caps none --keep-path -o "$T/r.jsonl" -- true
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: --keep-path keeps the caller's PATH instead of --user's login PATH: give --user" ]
}

@test "--emit setcap of a script names the kernel's rule, not a setcap line for the script" {
	printf '#!/usr/bin/python3\nimport socket\ns = socket.socket()\ns.bind(("127.0.0.1", 99))\n' >"$T/bind99"
	chmod +x "$T/bind99"
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" -- "$T/bind99"
	run "$CAPAUDIT" report --emit setcap -i "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" == *"# $T/bind99 is a script: the kernel ignores file capabilities on scripts."* ]]
	[[ "$output" == *"# setcap cap_net_bind_service+ep /usr/bin/python3"* ]]
	! grep -q "^setcap" <<<"$output"
}

@test "evidence that holds: a denial runs that succeeded saw too never explains a member; a refusal in user space is named" {
	command -v capsh >/dev/null || skip "capsh is not installed"
	# a file the program reads and does without (root without
	# CAP_DAC_READ_SEARCH is refused: nobody's private directory), then
	# capsh, which refuses to go on without CAP_NET_RAW: no check denied
	mkdir -p "$T/private"
	echo x >"$T/private/x"
	chown -R 65534:65534 "$T/private"
	chmod 700 "$T/private"
	run "$CAPAUDIT" verify -q --format json -- \
		sh -c "cat $T/private/x >/dev/null 2>&1; capsh --caps=cap_net_raw+ep -- -c true"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = CAP_NET_RAW ]
	# the run without CAP_NET_RAW was refused at cat's open too, as the runs
	# that succeeded were: not the reason
	[ "$(jq -r '.members[] | select(.cap == "CAP_NET_RAW") | "\(.without_it.denied) \(.without_it.refused_in_user_space) \(.without_it.asked_by_capset)"' "$T/v.json")" = \
	  "null true true" ]
	[ "$(jq -r '.members[] | select(.cap == "CAP_DAC_READ_SEARCH") | .kept' "$T/v.json")" = false ]
}

# A refusal judged by what the kernel then does: chmod 2755 of another
# user's file exits 0 without CAP_FSETID, and the kernel has cleared the
# set-group-ID bit (fs/attr.c setattr_prepare(), setattr_copy():
# in_group_or_capable() said no). verify keeps CAP_FSETID without --check;
# run names the cleared bit and never says "enough".
@test "chmod 2755 of another user's file: verify proves CAP_FOWNER, CAP_FSETID without --check; run names the cleared bit" {
	touch "$T/f"
	chown 65534:65534 "$T/f"
	run "$CAPAUDIT" verify -q --format json -- chmod 2755 "$T/f"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = CAP_FOWNER,CAP_FSETID ]
	[ "$(jq -r '.members[] | select(.cap == "CAP_FSETID") | "\(.kept) \(.without_it.exit_status) \(.without_it.verdict) \(.without_it.effect)"' "$T/v.json")" = \
	  "true 0 changed silent-change" ]
	[[ "$(jq -r '.members[] | select(.cap == "CAP_FSETID") | .without_it.reason' "$T/v.json")" == \
	   "fchmodat succeeded only in part: without CAP_FSETID the kernel cleared the set-group-ID bit" ]]
	# the text says it in those words
	chmod 644 "$T/f"
	run "$CAPAUDIT" verify -q -- chmod 2755 "$T/f"
	[ "$status" -eq 0 ]
	[[ "$output" == *"CAP_FSETID: without it, exit status 0; fchmodat succeeded only in part: without CAP_FSETID the kernel cleared the set-group-ID bit"* ]]
	# run with CAP_FOWNER alone: exit 0, the bit gone, not enough
	chmod 644 "$T/f"
	run "$CAPAUDIT" run -q --caps CAP_FOWNER -o "$T/run.jsonl" -- chmod 2755 "$T/f"
	[ "$status" -eq 1 ]
	[ "$(stat -c %a "$T/f")" = 755 ]
	[[ "$output" == *"This set is not enough: the command exited 0, but fchmodat succeeded only in part: without CAP_FSETID the kernel cleared the set-group-ID bit."* ]]
	[[ "$output" != *"enough for what ran"* ]]
	[[ "$output" == *"CAP_FSETID at setattr_prepare (fchmodat), 1x: denied: fchmodat succeeded, but the kernel cleared the set-group-ID bit"* ]]
	# a mode without the bit: the same refusal has no effect, and is enough
	run "$CAPAUDIT" run -q --caps CAP_FOWNER -o "$T/run.jsonl" -- chmod 755 "$T/f"
	[ "$status" -eq 0 ]
	[[ "$output" == *"This set is enough for what ran"* ]]
}
