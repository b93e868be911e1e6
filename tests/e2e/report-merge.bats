#!/usr/bin/env bats
# tier: check (record files only: no root, no kernel, no waiting)
# report FILE...: several records merge into one report (records copied
# from many nodes). Node 1 is the hand-written version-4 record
# tests/fixtures/workloads-v4.jsonl; node 2, written below, is another
# host: its nginx has node 1's pid 101 and start (the same identity),
# ping is its own, it lost 2 checks to a full map. No kernel needed: these
# run without root.

load helper

NODE1="$ROOT/tests/fixtures/workloads-v4.jsonl"

setup() {
	[ -x "$CAPAUDIT" ] || skip "build/capaudit is not built (run make)"
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/capaudit-merge.XXXXXX")
	NODE2="$T/node2.jsonl"
	cat >"$NODE2" <<-'EOF'
	{"type":"header","format":"capaudit-record","version":4,"capaudit":"0.1.0","kernel":"6.1.0-18-amd64","machine":"x86_64","attach":"tp_btf","scope":"all","argv":["capaudit","record","-a","-d","30"],"start_ns":1764813630000000000,"end_ns":1764813690000000000,"checks":9,"syscall_results":true,"lost":{"map_full":2,"ringbuf_full":0,"stack_errors":0,"proc_full":0,"result_lost":0,"hook_skipped":0},"overflow":[{"cap":21,"denied":false,"count":2}],"stop":"duration"}
	{"type":"process","pid":101,"start_ns":1764813600000101000,"exec_id":3,"ppid":90,"uid":0,"comm":"nginx","exe":"/usr/sbin/nginx","cgroup":"/system.slice/nginx.service","unit":"nginx.service"}
	{"type":"process","pid":700,"start_ns":1764813631000000000,"exec_id":2,"ppid":101,"uid":1000,"comm":"ping","exe":"/usr/bin/ping","cgroup":"/user.slice/user-1000.slice/session-4.scope"}
	{"type":"stack","id":0,"frames":["cap_capable+0x83","security_capable+0x3b","ns_capable+0x2d","inet_bind_sk+0x5e","__sys_bind+0xe1","do_syscall_64+0x82"]}
	{"type":"stack","id":1,"frames":["cap_capable+0x83","security_capable+0x3b","ns_capable+0x2d","__sock_create+0x8f","__sys_socket+0x5e","do_syscall_64+0x82"]}
	{"type":"check","pid":101,"start_ns":1764813600000101000,"exec_id":3,"tid":101,"uid":0,"comm":"nginx","cap":10,"ret":0,"count":3,"syscall":49,"init_ns":true,"opts":{"noaudit":false,"insetid":false},"stack":0}
	{"type":"check","pid":700,"start_ns":1764813631000000000,"exec_id":2,"tid":700,"uid":1000,"comm":"ping","cap":13,"ret":0,"count":4,"syscall":41,"init_ns":true,"opts":{"noaudit":false,"insetid":false},"stack":1}
	{"type":"end","processes":2,"stacks":2,"checks":2}
	EOF
}

teardown() {
	[ -n "${T:-}" ] && rm -rf "$T"
	return 0
}

# jqf FILE FILTER: jq -r FILTER on FILE
jqf() {
	jq -r "$2" "$1"
}

@test "one record: FILE, -i FILE and - give the report as before" {
	"$CAPAUDIT" report -i "$NODE1" >"$T/i.txt"
	"$CAPAUDIT" report "$NODE1" >"$T/pos.txt"
	cmp "$T/i.txt" "$T/pos.txt"
	"$CAPAUDIT" report -i "$NODE1" --format json >"$T/i.json"
	"$CAPAUDIT" report "$NODE1" --format json >"$T/pos.json"
	cmp "$T/i.json" "$T/pos.json"
	[ "$(head -1 "$T/i.txt")" = "Record $NODE1" ]
	[ "$(jqf "$T/i.json" '.inputs')" = null ]
	[ "$(jqf "$T/i.json" '.processes[0] | has("input")')" = false ]
	"$CAPAUDIT" report - <"$NODE1" | sed 1d >"$T/stdin.txt"
	sed 1d "$T/i.txt" | cmp - "$T/stdin.txt"
}

@test "two node records: counts add up, both nodes' processes, each header listed" {
	local a b m
	"$CAPAUDIT" report -i "$NODE1" --format json >"$T/1.json"
	"$CAPAUDIT" report -i "$NODE2" --format json >"$T/2.json"
	"$CAPAUDIT" report -i "$NODE1" -i "$NODE2" --format json >"$T/m.json"
	a=$(jqf "$T/1.json" '.total_checks')
	b=$(jqf "$T/2.json" '.total_checks')
	m=$(jqf "$T/m.json" '.total_checks')
	[ "$a" -eq 31 ] && [ "$b" -eq 7 ] && [ "$m" -eq 38 ]
	[ "$(jqf "$T/m.json" '.processes | length')" -eq 12 ]
	# node 2's nginx is its own process with its own counts, its pid as its file has it
	[ "$(jqf "$T/m.json" '[.processes[] | select(.pid == 101) | "\(.input) \(.capabilities[0].granted)"] | join(";")')" = "$NODE1 2;$NODE2 3" ]
	[ "$(jqf "$T/m.json" '[.processes[] | select(.comm == "ping")][0] | "\(.pid) \(.ppid) \(.input)"')" = "700 101 $NODE2" ]
	[ "$(jqf "$T/m.json" '[.inputs[] | "\(.file) \(.kernel) \(.attach) \(.lost.map_full)"] | join(";")')" = "$NODE1 6.12.0-1-amd64 fexit 0;$NODE2 6.1.0-18-amd64 tp_btf 2" ]
	[ "$(jqf "$T/m.json" '.record.lost.map_full')" -eq 2 ]
	[ "$(jqf "$T/m.json" '.record.file')" = "$NODE1, $NODE2" ]
	[ "$(jqf "$T/m.json" '.required | length')" -eq "$(jq -s '[.[].required[]] | unique | length' "$T/1.json" "$T/2.json")" ]

	run "$CAPAUDIT" report "$NODE1" "$NODE2"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Records: 2 ($NODE1, $NODE2)" ]
	[ "${lines[1]}" = "  $NODE1: kernel 6.12.0-1-amd64, attach fexit, scope all" ]
	[[ "$output" == *$'\n'"  $NODE2: kernel 6.1.0-18-amd64, attach tp_btf, scope all"$'\n'"    command: capaudit record -a -d 30"$'\n'* ]]
	[[ "$output" == *$'\n'"PID 101 nginx  /usr/sbin/nginx  (ppid 90, uid 0)  [$NODE2]"$'\n'* ]]
	[[ "$output" == *$'\n'"PID 700 ping  /usr/bin/ping  (ppid 101, uid 1000)  [$NODE2]"$'\n'* ]]
	[[ "$output" == *$'\n'"Lost: 2 checks without process or call site (map full)"$'\n'"  $NODE2: 2 checks without process or call site (map full)"$'\n'"  unattributed: CAP_SYS_ADMIN granted x2"* ]]
	# node 1's processes first, then node 2's, each by pid
	[ "$(grep -o '^PID [0-9]*' <<<"$output" | tr '\n' ' ')" = "PID 100 PID 101 PID 102 PID 103 PID 103 PID 201 PID 301 PID 302 PID 401 PID 501 PID 101 PID 700 " ]
}

@test "--suggest over two records is the union of each one's" {
	"$CAPAUDIT" report --suggest -i "$NODE1" --format json >"$T/1.json"
	"$CAPAUDIT" report --suggest -i "$NODE2" --format json >"$T/2.json"
	"$CAPAUDIT" report --suggest "$NODE1" "$NODE2" --format json >"$T/m.json"
	[ "$(jq -c '.required | sort' "$T/m.json")" = "$(jq -s -c '[.[].required[]] | unique' "$T/1.json" "$T/2.json")" ]
	[ "$(jq -c '.required | sort' "$T/m.json")" = '["CAP_CHOWN","CAP_DAC_OVERRIDE","CAP_NET_ADMIN","CAP_NET_BIND_SERVICE","CAP_NET_RAW"]' ]
	# runc setting the container up (CAP_SYS_ADMIN) is the runtime's, not
	# the workload's: left out, shown apart
	[ "$(jq -c '.runtime_setup_left_out.granted' "$T/m.json")" = '["CAP_SYS_ADMIN"]' ]
	# the daemons' setuid()/setgid(): recorded before the hook compared the
	# ids, at sites that ask before the rule allowing one's own ids: verify decides
	[ "$(jq -c '[.verify_decides[] | "\(.cap) \(.callsite) \(.why)"] | sort' "$T/m.json")" = \
	  '["CAP_SETGID __sys_setgid allowed-without","CAP_SETUID __sys_setuid allowed-without"]' ]
	[ "$(jqf "$T/m.json" '.inputs | length')" -eq 2 ]
	[ "$(jqf "$T/m.json" '[.programs[] | select(.pid == 101) | .input] | join(";")')" = "$NODE1;$NODE2" ]
	run "$CAPAUDIT" report --suggest "$NODE1" "$NODE2"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n'"  pid 101 nginx [$NODE2]: CAP_NET_BIND_SERVICE"$'\n'* ]]
	run "$CAPAUDIT" report --emit capsh "$NODE1" "$NODE2"
	[ "$status" -eq 0 ]
	[[ "$output" == *cap_net_raw* ]]
}

@test "--by and --container/--unit roll up across records" {
	run "$CAPAUDIT" report --by program "$NODE1" "$NODE2"
	[ "$status" -eq 0 ]
	# nginx: node 1's two processes and node 2's, 4 + 3 checks
	[[ "$output" == *$'\n'"  /usr/sbin/nginx: 3 processes, 7 checks"$'\n'* ]]
	[[ "$output" == *$'\n'"  /usr/bin/ping: 1 process, 4 checks"$'\n'* ]]
	run "$CAPAUDIT" report --by unit "$NODE1" "$NODE2" --format json
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.workloads[] | select(.unit) | "\(.unit) \(.processes) \(.checks)"] | join(";")' <<<"$output")" = "cron.service 2 9;nginx.service 1 3" ]
	# a workload one node has: the other's processes are left out, no error
	run "$CAPAUDIT" report --unit nginx "$NODE1" "$NODE2" --format json
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.processes[] | "\(.comm) \(.input)"] | join(";")' <<<"$output")" = "nginx $NODE2" ]
	run "$CAPAUDIT" report --suggest --container web "$NODE2" "$NODE1" --format json
	[ "$status" -eq 0 ]
	[ "$(jq -c '.required' <<<"$output")" = '["CAP_DAC_OVERRIDE","CAP_NET_BIND_SERVICE"]' ]
	[ "$(jq -c '[.verify_decides[].cap]' <<<"$output")" = '["CAP_SETUID","CAP_SETGID"]' ]
	# a snippet grants them, and says why
	run "$CAPAUDIT" report --emit docker --container web "$NODE2" "$NODE1"
	# (node records attach to running processes: the snippet says it may
	# miss their start, first)
	[[ "$output" == "# WARNING: made from a partial record"*"# CAP_SETGID, CAP_SETUID: granted, but only capaudit verify can tell"* ]]
	[[ "$output" == *"--cap-add SETGID"* ]]
	for by in process program container unit cgroup; do
		"$CAPAUDIT" report --by "$by" --by user-site "$NODE1" "$NODE2" >/dev/null
		"$CAPAUDIT" report --by "$by" "$NODE1" "$NODE2" --format json | jq -e .inputs >/dev/null
	done
	for kind in setcap systemd docker compose kubernetes capsh; do
		"$CAPAUDIT" report --emit "$kind" "$NODE1" "$NODE2" >/dev/null
	done
}

@test "report A A doubles every count and says 2 inputs" {
	"$CAPAUDIT" report -i "$NODE1" --format json >"$T/1.json"
	"$CAPAUDIT" report "$NODE1" "$NODE1" --format json >"$T/2.json"
	[ "$(jqf "$T/2.json" '.total_checks')" -eq $((2 * $(jqf "$T/1.json" '.total_checks'))) ]
	[ "$(jqf "$T/2.json" '.processes | length')" -eq $((2 * $(jqf "$T/1.json" '.processes | length'))) ]
	[ "$(jqf "$T/2.json" '.inputs | length')" -eq 2 ]
	[ "$(jqf "$T/2.json" '.required')" = "$(jqf "$T/1.json" '.required')" ]
	[ "$(jqf "$T/2.json" '[.processes[].capabilities[].granted] | add')" -eq $((2 * $(jqf "$T/1.json" '[.processes[].capabilities[].granted] | add'))) ]
	run "$CAPAUDIT" report "$NODE1" -i "$NODE1" --by program
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Records: 2 ($NODE1, $NODE1)" ]
	[[ "$output" == *$'\n'"  /usr/sbin/cron: 4 processes, 18 checks"$'\n'* ]]
}

@test "a bad second record: one line naming it, exit 2, nothing on stdout" {
	run --separate-stderr "$CAPAUDIT" report "$NODE1" "$ROOT/tests/fixtures/bad-json-line3.jsonl"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "capaudit: $ROOT/tests/fixtures/bad-json-line3.jsonl:3: "* ]]
	run --separate-stderr "$CAPAUDIT" report -i "$NODE1" -i "$T/missing.jsonl" --suggest
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == *"$T/missing.jsonl"* ]]
	# JSON: stdout is the error object alone
	run --separate-stderr "$CAPAUDIT" report "$NODE1" "$ROOT/tests/fixtures/bad-cap.jsonl" --format json
	[ "$status" -eq 2 ]
	jq -e '.error | test("bad-cap.jsonl")' <<<"$output"
	[ "$(jq -r 'keys | join(",")' <<<"$output")" = error ]
	run --separate-stderr "$CAPAUDIT" report - "$NODE1" - <"$NODE1"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: '-' (standard input) given 2 times: it can be read once" ]
}

@test "--lenient over several records: the damaged one is named" {
	{ head -3 "$NODE2"; echo '{"type":"check",'; tail -n +4 "$NODE2"; } >"$T/dmg.jsonl"
	run --separate-stderr "$CAPAUDIT" report "$NODE1" "$T/dmg.jsonl"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "capaudit: $T/dmg.jsonl:4: "* ]]
	run --separate-stderr "$CAPAUDIT" report --lenient "$NODE1" "$T/dmg.jsonl"
	[ "$status" -eq 0 ]
	[[ "$stderr" == "capaudit: warning: $T/dmg.jsonl: --lenient: skipped 1 of 9 lines"* ]]
	[[ "$output" == *$'\n'"  $T/dmg.jsonl: kernel 6.1.0-18-amd64, attach tp_btf, scope all"$'\n'*$'\n'"    INCOMPLETE (--lenient): 1 of 9 lines skipped, 0 missing"$'\n'* ]]
	[ "$(grep -c INCOMPLETE <<<"$output")" -eq 1 ]
}
