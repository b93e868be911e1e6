#!/usr/bin/env bats
# report --by program|container|unit|cgroup and the --container / --unit
# filters of report, report --suggest, report --emit and check, on a
# hand-written version-4 record (tests/fixtures/workloads-v4.jsonl):
#   podman container web (3f1c9a7e...): runc setting it up (pid 100,
#     runtime_setup, 6 CAP_SYS_ADMIN); nginx pids 101, 102; pid 103 ran
#     /bin/sh, then exec'd "entry" (no exe recorded)
#   podman container db (3f1d08b6...): postgres pid 201, CAP_FOWNER denied
#   host: cron.service (cron pids 301, 302), ip in a login session (5
#     noaudit checks), true with no cgroup recorded
# No kernel needed: these run without root.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

REC="$ROOT/tests/fixtures/workloads-v4.jsonl"
WEB=3f1c9a7e5b2d4c6f8a0e1b3d5f7a9c2e4b6d8f0a1c3e5a7b9d1f3b5d7e9a0c2e
DB=3f1d08b6e4c2a0f8d6b4a2c0e8f6d4b2a0c8e6f4d2b0a8c6e4f2d0b8a6c4e2f0

setup() {
	[ -x "$CAPAUDIT" ] || skip "build/capaudit is not built (run make)"
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/capaudit-wl.XXXXXX")
}

teardown() {
	[ -n "${T:-}" ] && rm -rf "$T"
	return 0
}

# report ARGS...: the text report of the fixture without its header (the
# first 4 lines) and without trailing blanks
report() {
	"$CAPAUDIT" report -i "$REC" "$@" | sed '1,4d; s/ *$//'
}

# skeleton ARGS...: only the workload and program lines of report ARGS
skeleton() {
	report "$@" | grep -v '^    ' | grep -v '^$'
}

# rep_json ARGS...: report --format json ARGS into $T/rep.json
rep_json() {
	"$CAPAUDIT" report -i "$REC" --format json "$@" >"$T/rep.json"
}

@test "--by process is the report as it was" {
	"$CAPAUDIT" report -i "$REC" >"$T/default"
	"$CAPAUDIT" report -i "$REC" --by process >"$T/process"
	cmp "$T/default" "$T/process"
	[ "$(grep -c '^PID ' "$T/default")" -eq 10 ]
	rep_json --by process
	[ "$(jq -r '.by' "$T/rep.json")" = process ]
	[ "$(jq -r '.processes | length' "$T/rep.json")" -eq 10 ]
	[ "$(jq -r '.workloads' "$T/rep.json")" = null ]
}

@test "--by program: one block, a row per executable with its processes counted" {
	run report --by program
	[ "$status" -eq 0 ]
	[ "$(grep -c '^PID ' <<<"$output")" -eq 0 ]
	[[ "$output" == *$'\nEvery process, by program\n'* ]]
	rep_json --by program
	[ "$(jq -r '.workloads | length' "$T/rep.json")" -eq 1 ]
	# every executable once, with as many processes as the record has
	[ "$(jq -r '[.workloads[0].programs[].program] | (length == (unique | length))' "$T/rep.json")" = true ]
	[ "$(jq -r '[.workloads[0].programs[].processes] | add' "$T/rep.json")" -ge "$(jq -r '.workloads[0].processes' "$T/rep.json")" ]
}

@test "--by container: a block per container, the host's last, a block per program in each" {
	run report --by container
	[ "$status" -eq 0 ]
	diff -u - <(echo "$output") <<EOF

Container db (podman, id $DB)
  1 process, 2 checks; required: CAP_CHOWN
  denied: CAP_FOWNER
  /usr/lib/postgresql/17/bin/postgres: 1 process, 2 checks
    CAP_CHOWN                granted 1        denied 0
      syscalls: fchownat x1
      call site chown_common                     granted 1 (call site: the kernel function that asked for the capability; docs/glossary.md)
    CAP_FOWNER               granted 0        denied 1
      note: a file-permission check: the record does not name the file; record with --user-stacks to see which line of the program asked
      syscalls: fchmodat x1
      call site chmod_common                     denied 1

Container web (podman, id $WEB)
  3 processes, 7 checks; required: CAP_DAC_OVERRIDE, CAP_SETGID, CAP_SETUID, CAP_NET_BIND_SERVICE
  /bin/sh: 1 process, 0 checks
    no capability checks
  /usr/sbin/nginx: 2 processes, 4 checks
    CAP_SETGID               granted 1        denied 0
      syscalls: setgid x1
      call site __sys_setgid                     granted 1
    CAP_SETUID               granted 1        denied 0
      syscalls: setuid x1
      call site __sys_setuid                     granted 1
    CAP_NET_BIND_SERVICE     granted 2        denied 0
      syscalls: bind x2
      call site inet_bind_sk                     granted 2
  entry (no executable recorded): 1 process, 3 checks
    CAP_DAC_OVERRIDE         granted 3        denied 0
      note: a file-permission check: the record does not name the file; record with --user-stacks to see which line of the program asked
      syscalls: openat x3
      call site generic_permission               granted 3
  /dev/fd/6 (container runtime setup: runc or crun preparing the container before its program starts; not counted; docs/glossary.md): 1 process, 6 checks
    CAP_SYS_ADMIN            granted 6        denied 0
      syscalls: mount x6
      call site path_mount                       granted 6

(host: no container)
  4 processes, 11 checks; required: CAP_SETGID, CAP_SETUID, CAP_NET_ADMIN
  (1 of them with no cgroup recorded: where they ran is not known)
  /usr/bin/true: 1 process, 0 checks
    no capability checks
  /usr/sbin/cron: 2 processes, 9 checks
    CAP_SETGID               granted 4        denied 0
      syscalls: setgid x4
      call site __sys_setgid                     granted 4
    CAP_SETUID               granted 5        denied 0
      syscalls: setuid x5
      call site __sys_setuid                     granted 5
  /usr/sbin/ip: 1 process, 2 checks
    CAP_NET_ADMIN            granted 2        denied 0
      syscalls: sendmsg x2
      call site rtnetlink_rcv_msg                granted 2
    (5 noaudit checks not shown; --noaudit shows them) (noaudit: the kernel asked without logging it, to find out what is allowed; never a requirement; docs/glossary.md)

Required (granted in audited checks): CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_SETGID, CAP_SETUID, CAP_NET_BIND_SERVICE, CAP_NET_ADMIN, CAP_SYS_ADMIN
Denied in audited checks: CAP_FOWNER
Not shown: 5 noaudit checks (kernel probing, never a requirement; --noaudit shows them)
Lost: none
EOF
}

@test "--by container --noaudit counts the noaudit checks in" {
	run skeleton --by container --noaudit
	[ "$status" -eq 0 ]
	[ "${lines[10]}" = "(host: no container)" ]
	[ "${lines[11]}" = "  4 processes, 16 checks; required: CAP_SETGID, CAP_SETUID, CAP_NET_ADMIN" ]
	[ "${lines[12]}" = "  (1 of them with no cgroup recorded: where they ran is not known)" ]
	[ "${lines[15]}" = "  /usr/sbin/ip: 1 process, 7 checks" ]
}

@test "--by unit: cron.service, then the processes of no unit" {
	run skeleton --by unit
	[ "$status" -eq 0 ]
	diff -u - <(echo "$output") <<'EOF'
Unit cron.service
  2 processes, 9 checks; required: CAP_SETGID, CAP_SETUID
  /usr/sbin/cron: 2 processes, 9 checks
(no systemd unit)
  7 processes, 17 checks; required: CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_SETGID, CAP_SETUID, CAP_NET_BIND_SERVICE, CAP_NET_ADMIN, CAP_SYS_ADMIN
  denied: CAP_FOWNER
  (1 of them with no cgroup recorded: where they ran is not known)
  /bin/sh: 1 process, 0 checks
  /dev/fd/6: 1 process, 6 checks
  /usr/bin/true: 1 process, 0 checks
  /usr/lib/postgresql/17/bin/postgres: 1 process, 2 checks
  /usr/sbin/ip: 1 process, 2 checks
  /usr/sbin/nginx: 2 processes, 4 checks
  entry (no executable recorded): 1 process, 3 checks
Required (granted in audited checks): CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_SETGID, CAP_SETUID, CAP_NET_BIND_SERVICE, CAP_NET_ADMIN, CAP_SYS_ADMIN
Denied in audited checks: CAP_FOWNER
Not shown: 5 noaudit checks (kernel probing, never a requirement; --noaudit shows them)
Lost: none
EOF
}

@test "--by cgroup: a block per cgroup path, the unrecorded last" {
	run skeleton --by cgroup
	[ "$status" -eq 0 ]
	diff -u - <(echo "$output" | grep -v '^  /\|^  entry\|^  denied\|^Lost:\|^Not shown:\|^Required\|^Denied') <<EOF
Cgroup /machine.slice/libpod-$WEB.scope/container
  4 processes, 13 checks; required: CAP_DAC_OVERRIDE, CAP_SETGID, CAP_SETUID, CAP_NET_BIND_SERVICE, CAP_SYS_ADMIN
Cgroup /machine.slice/libpod-$DB.scope/container
  1 process, 2 checks; required: CAP_CHOWN
Cgroup /system.slice/cron.service
  2 processes, 9 checks; required: CAP_SETGID, CAP_SETUID
Cgroup /user.slice/user-1000.slice/session-3.scope
  1 process, 2 checks; required: CAP_NET_ADMIN
(no cgroup recorded)
  1 process, 0 checks; required: none
EOF
}

@test "--by container --format json: workloads with container, counts, sets, programs" {
	rep_json --by container
	[ "$(jq -r '.by' "$T/rep.json")" = container ]
	[ "$(jq -r '.processes' "$T/rep.json")" = null ]
	run jq -c '.workloads[] | [.container.name, .container.runtime, .container.id[0:12],
		.processes, .checks, .hidden_noaudit, .required, .denied]' "$T/rep.json"
	[ "${lines[0]}" = '["db","podman","3f1d08b6e4c2",1,2,0,["CAP_CHOWN"],["CAP_FOWNER"]]' ]
	[ "${lines[1]}" = '["web","podman","3f1c9a7e5b2d",3,7,0,["CAP_DAC_OVERRIDE","CAP_SETGID","CAP_SETUID","CAP_NET_BIND_SERVICE"],[]]' ]
	[ "$(jq -c '.workloads[2].container' "$T/rep.json")" = null ]
	[ "$(jq -c '.workloads[2] | [.processes, .no_cgroup, .checks, .hidden_noaudit]' "$T/rep.json")" = '[4,1,11,5]' ]
	[ "$(jq -c '[.workloads[] | has("no_cgroup")]' "$T/rep.json")" = '[false,false,true]' ]
	run jq -c '.workloads[1].programs[] | [.program, .exe, .comm, .processes, .checks,
		[.capabilities[] | "\(.cap) \(.granted) \(.denied) \([.callsites[].function] | join(","))"]]' "$T/rep.json"
	[ "${lines[0]}" = '["/bin/sh","/bin/sh","sh",1,0,[]]' ]
	[ "${lines[1]}" = '["/usr/sbin/nginx","/usr/sbin/nginx","nginx",2,4,["CAP_SETGID 1 0 __sys_setgid","CAP_SETUID 1 0 __sys_setuid","CAP_NET_BIND_SERVICE 2 0 inet_bind_sk"]]' ]
	[ "${lines[2]}" = '["entry",null,"entry",1,3,["CAP_DAC_OVERRIDE 3 0 generic_permission"]]' ]
	[ "${lines[3]}" = '["/dev/fd/6","/dev/fd/6","runc:[1:CHILD]",1,6,["CAP_SYS_ADMIN 6 0 path_mount"]]' ]
	[ "$(jq -c '[.workloads[1].programs[] | .runtime_setup]' "$T/rep.json")" = '[null,null,null,true]' ]
	[ "$(jq -c '[(.required | length), .total_checks, .hidden_noaudit]' "$T/rep.json")" = '[7,31,5]' ]
}

@test "--by unit and --by cgroup --format json name the workload by unit and cgroup" {
	rep_json --by unit
	[ "$(jq -c '[.workloads[] | [.unit, .processes, .checks]]' "$T/rep.json")" = \
		'[["cron.service",2,9],[null,7,17]]' ]
	rep_json --by cgroup
	[ "$(jq -c '[.workloads[] | .cgroup]' "$T/rep.json")" = \
		"[\"/machine.slice/libpod-$WEB.scope/container\",\"/machine.slice/libpod-$DB.scope/container\",\"/system.slice/cron.service\",\"/user.slice/user-1000.slice/session-3.scope\",null]" ]
}

@test "--container by name, id, and unique id prefix keeps that container's checks" {
	local x
	for x in web "$WEB" 3f1c 3f1c9a7e5b2d; do
		run skeleton --by container --container "$x"
		[ "$status" -eq 0 ]
		[ "${lines[0]}" = "Container web (podman, id $WEB)" ]
		[ "${lines[1]}" = "  3 processes, 7 checks; required: CAP_DAC_OVERRIDE, CAP_SETGID, CAP_SETUID, CAP_NET_BIND_SERVICE" ]
		[ "${lines[5]}" = "Required (granted in audited checks): CAP_DAC_OVERRIDE, CAP_SETGID, CAP_SETUID, CAP_NET_BIND_SERVICE" ]
	done
	# the plain report too: only db's process
	run report --container db
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep -c '^PID ')" -eq 1 ]
	[ "${lines[0]}" = "PID 201 postgres  /usr/lib/postgresql/17/bin/postgres  (ppid 190, uid 999)" ]
}

@test "--container leaves out the runtime setting the container up" {
	run report --container web
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | grep '^PID ' | cut -d' ' -f2 | tr '\n' ' ')" = "101 102 103 103 " ]
	[[ "$output" != *CAP_SYS_ADMIN* ]]
	run "$CAPAUDIT" report -i "$REC" --suggest --format json --container web
	[ "$(echo "$output" | jq -c .required)" = '["CAP_DAC_OVERRIDE","CAP_NET_BIND_SERVICE"]' ]
	# nginx's setuid()/setgid(), recorded before the hook compared ids:
	# asked before the rule that allows one's own ids, so verify decides
	[ "$(echo "$output" | jq -c '[.verify_decides[].cap]')" = '["CAP_SETUID","CAP_SETGID"]' ]
}

@test "--unit with or without .service" {
	local u
	for u in cron cron.service; do
		run report --unit "$u"
		[ "$status" -eq 0 ]
		[ "$(echo "$output" | grep '^PID ' | cut -d' ' -f2 | tr '\n' ' ')" = "301 302 " ]
	done
	rep_json --by unit --unit cron
	[ "$(jq -c '[.workloads[] | [.unit, .processes, .checks, .required]]' "$T/rep.json")" = \
		'[["cron.service",2,9,["CAP_SETGID","CAP_SETUID"]]]' ]
	[ "$(jq -c '.total_checks' "$T/rep.json")" = 9 ]
}

@test "a filter that matches nothing names X and lists what the record has, exit 2" {
	run --separate-stderr "$CAPAUDIT" report -i "$REC" --container nope
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$stderr" = "capaudit: $REC: --container nope: no container has that id or name; the record has: web (podman 3f1c9a7e5b2d), db (podman 3f1d08b6e4c2)" ]
	run --separate-stderr "$CAPAUDIT" report -i "$REC" --container 3f1
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: $REC: --container 3f1: ambiguous, the id prefix of: web (podman 3f1c9a7e5b2d), db (podman 3f1d08b6e4c2)" ]
	run --separate-stderr "$CAPAUDIT" report -i "$REC" --unit nginx
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: $REC: --unit nginx: no process ran in that unit; the record has: cron.service" ]
	# an older record cannot say: --by puts all its processes in the block
	# without a name, and says where they ran is not known (REC=: the one
	# record; a second -i would merge the two)
	REC="$ROOT/tests/fixtures/kernel-5.4-clone3.jsonl" run skeleton --by container
	[ "${lines[0]}" = "(host: no container)" ]
	[ "${lines[2]}" = "  (1 of them with no cgroup recorded: where they ran is not known)" ]
	run --separate-stderr "$CAPAUDIT" report -i "$ROOT/tests/fixtures/kernel-5.4-clone3.jsonl" --unit cron
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--unit cron: no process ran in that unit; a version 1 record does not say where processes ran (format 4 does)" ]]
	# --format json: the error on stdout too, as JSON
	run --separate-stderr "$CAPAUDIT" report -i "$REC" --format json --container nope
	[ "$status" -eq 2 ]
	[[ "$(echo "$output" | jq -r .error)" == *"--container nope: no container has that id or name;"* ]]
}

@test "--by: unknown mode, two roll-ups, or with --suggest are usage errors" {
	run --separate-stderr "$CAPAUDIT" report -i "$REC" --by pod
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: unknown --by 'pod' (process, program, container, unit, cgroup, user-site)" ]
	run --separate-stderr "$CAPAUDIT" report -i "$REC" --by container --by unit
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: --by container and --by unit: one roll-up at a time" ]
	run --separate-stderr "$CAPAUDIT" report -i "$REC" --suggest --by container
	[ "$status" -eq 2 ]
	[[ "$stderr" == "capaudit: --by container goes with the report, not --suggest or --emit"* ]]
	# user-site goes with any roll-up
	run "$CAPAUDIT" report -i "$REC" --by container --by user-site
	[ "$status" -eq 0 ]
	[[ "$output" == *"By user-space place"* ]]
}

@test "report --suggest and --emit for one container or unit" {
	run "$CAPAUDIT" report -i "$REC" --suggest --container web
	[ "$status" -eq 0 ]
	[[ "$output" == *"Required capabilities: CAP_DAC_OVERRIDE, CAP_NET_BIND_SERVICE"* ]]
	[[ "$output" == *$'\nOnly verify can decide'*$'\n  CAP_SETUID at __sys_setuid, '* ]]
	run "$CAPAUDIT" report -i "$REC" --emit docker --container db
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "--cap-drop ALL --cap-add CHOWN --security-opt no-new-privileges" ]
	run "$CAPAUDIT" report -i "$REC" --suggest --format json --unit cron
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -c .required)" = '[]' ]
	[ "$(echo "$output" | jq -c '[.verify_decides[].cap]')" = '["CAP_SETUID","CAP_SETGID"]' ]
	[ "$(echo "$output" | jq -c '[.programs[].pid]')" = '[301,302]' ]
	run --separate-stderr "$CAPAUDIT" report -i "$REC" --emit setcap --container nope
	[ "$status" -eq 2 ]
	[ -z "$output" ]
}

@test "check --container judges one container against its baseline" {
	run "$CAPAUDIT" check --container web --baseline "$T/web.json" --update "$REC"
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.capabilities[].cap]' "$T/web.json")" = \
		'["CAP_DAC_OVERRIDE","CAP_SETGID","CAP_SETUID","CAP_NET_BIND_SERVICE"]' ]
	run "$CAPAUDIT" check --container "$WEB" --baseline "$T/web.json" "$REC"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "OK: nothing new (4 allowed call sites seen)" ]
	# db against web's baseline: its own capability and denial are new
	run --separate-stderr "$CAPAUDIT" check --container db --baseline "$T/web.json" "$REC"
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "+ new capability   CAP_CHOWN at chown_common (fchownat)" ]
	[ "${lines[2]}" = "      CAP_CHOWN lets a program change a file's owner and group to any user and group" ]
	[ "${lines[3]}" = "! new denial       CAP_FOWNER at chmod_common (fchmodat): blocking (the syscall failed)" ]
	[ "${lines[13]}" = "FAIL: 2 findings the baseline does not allow, 4 hints" ]
	[ "${lines[14]}" = "  if this is intended, accept it (then review the diff and commit it): capaudit check --baseline $T/web.json --update --container db $REC" ]
	# the whole record: the host's CAP_NET_ADMIN too; runc setting the
	# container up (its CAP_SYS_ADMIN) is the runtime's, left out
	run "$CAPAUDIT" check --baseline "$T/web.json" --format json "$REC"
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | jq -c '[.findings[] | select(.fails) | .cap]')" = \
		'["CAP_CHOWN","CAP_NET_ADMIN","CAP_FOWNER"]' ]
	run "$CAPAUDIT" check --unit cron.service --baseline "$T/web.json" --format json "$REC"
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r .result)" = pass ]
}

@test "check --container X that a record does not have: exit 2, named" {
	echo '{"format":"capaudit-baseline","version":1,"capabilities":[],"denied":[]}' >"$T/b.json"
	run --separate-stderr "$CAPAUDIT" check --container zzz --baseline "$T/b.json" "$REC"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: $REC: --container zzz: no container has that id or name; the record has: web (podman 3f1c9a7e5b2d), db (podman 3f1d08b6e4c2)" ]
	run --separate-stderr "$CAPAUDIT" check --unit ssh --baseline "$T/b.json" "$REC"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: $REC: --unit ssh: no process ran in that unit; the record has: cron.service" ]
}
