#!/usr/bin/env bats
# Right on real programs (Debian's own): the suggested set is judged by
# the kernel, running the program with exactly that set and without each
# member (capaudit run, capaudit verify). One test per class of mistake a
# recording alone makes: checks inside a user namespace, checks whose
# answer could not matter, netlink requests that fail in their ack, needs
# a privileged recording cannot see, run's own work, programs that probe
# and carry on, and an image of a program hiding another's need.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
PY=/usr/bin/python3

setup() {
	e2e_setup
	chmod 777 "$T"
	cd "$T"
}

teardown() {
	ip link del cabr0 2>/dev/null || true
	[ -n "${SLEEPER:-}" ] && kill "$SLEEPER" 2>/dev/null
	e2e_teardown
}

need() {
	command -v "$1" >/dev/null || skip "$1 is not installed (tools/deps.sh installs it)"
}

@test "ping: capset()'s CAP_SETPCAP check makes no requirement; verify proves CAP_NET_RAW alone" {
	need ping
	run record -- ping -c 1 127.0.0.1
	[ "$status" -eq 0 ]
	"$CAPAUDIT" report --suggest --format json -i "$T/rec.jsonl" >"$T/rep.json"
	[ "$(jqr '.required | join(",")')" = "CAP_NET_RAW" ]
	[ "$(jqr '.not_required[] | select(.cap == "CAP_SETPCAP") | "\(.callsite) \(.why)"' | sort -u)" = \
	  "cap_capset no-effect" ]
	# ping keeps CAP_NET_ADMIN with capset() when it has it, and never uses it
	[ "$(jqr '.asked_not_used | join(",")')" = "CAP_NET_ADMIN" ]
	run "$CAPAUDIT" verify -q --format json -- ping -c 1 127.0.0.1
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = "CAP_NET_RAW" ]
	# Debian's ping has cap_net_raw=ep: without it the kernel refuses the exec
	[ "$(jq -r '.members[] | select(.cap == "CAP_NET_RAW") | "\(.kept) \(.without_it.exec_refused)"' "$T/v.json")" = "true true" ]
	# the same as another user
	run "$CAPAUDIT" verify -q --user nobody --format json -- ping -c 1 127.0.0.1
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '"\(.user) \(.set | join(","))"' "$T/v.json")" = "nobody CAP_NET_RAW" ]
}

@test "unshare -Urn ip link add as nobody: privileges inside its own user namespace are not host requirements" {
	need unshare
	need ip
	$NOBODY unshare -Ur true 2>/dev/null || skip "unprivileged user namespaces are disabled here"
	# the kernel agrees: it works with no capability at all
	run "$CAPAUDIT" run -q --caps none --user 65534 -o "$T/run.jsonl" -- unshare -Urn ip link add br0 type bridge
	[ "$status" -eq 0 ]
	run record -- $NOBODY unshare -Urn ip link add br0 type bridge
	[ "$status" -eq 0 ]
	"$CAPAUDIT" report --suggest --format json --program ip -i "$T/rec.jsonl" >"$T/rep.json"
	[ "$(jqr '.required | length')" = "0" ]
	[ "$(jqr '[.not_required[] | select(.cap == "CAP_NET_ADMIN") | .why] | unique | join(",")')" = "userns-inside" ]
	run "$CAPAUDIT" report --emit systemd --program ip -i "$T/rec.jsonl"
	# the bounding set reset to nothing, and nothing added after it
	[[ "$output" == *$'\nCapabilityBoundingSet=\nAmbientCapabilities=\n'* ]]
	# unshare's own CAP_SYS_ADMIN: granted because nobody owns the new namespace
	"$CAPAUDIT" report --suggest --format json --program unshare -i "$T/rec.jsonl" >"$T/rep.json"
	[ "$(jqr '.required | length')" = "0" ]
	[ "$(jqr '.not_required[] | select(.callsite == "unshare_nsproxy_namespaces") | "\(.cap) \(.why)"')" = \
	  "CAP_SYS_ADMIN userns-owner" ]
	# and the plain report says what decided them
	"$CAPAUDIT" report --format json -i "$T/rec.jsonl" >"$T/rep.json"
	[ "$(jqr '[.processes[] | select(.comm == "ip") | .capabilities[] | select(.cap == "CAP_NET_ADMIN") | .userns] | unique | join(",")')" = "inside" ]
}

@test "bpftool map create: libbpf's probes reach CAP_PERFMON checks that only tune the verifier; verify proves CAP_BPF" {
	need bpftool
	mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
	local map=/sys/fs/bpf/capaudit-test-$$
	run record -- bpftool map create "$map" type array key 4 value 4 entries 1 name catest
	rm -f "$map"
	[ "$status" -eq 0 ]
	"$CAPAUDIT" report --suggest --format json -i "$T/rec.jsonl" >"$T/rep.json"
	[ "$(jqr '.required | join(",")')" = "CAP_BPF" ]
	[ "$(jqr '[.not_required[] | select(.cap == "CAP_PERFMON") | .why] | unique | join(",")')" = "advisory" ]
	run "$CAPAUDIT" verify -q --format json -- sh -c "bpftool map create $map type array key 4 value 4 entries 1 name catest && rm $map"
	rm -f "$map"
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = "CAP_BPF" ]
	# without it: refused at the first bpf() it makes (libbpf's probe or the map)
	[ "$(jq -r '.members[] | select(.cap == "CAP_BPF") | .without_it.denied' "$T/v.json")" = "CAP_BPF" ]
	[[ "$(jq -r '.members[] | select(.cap == "CAP_BPF") | .without_it.callsite' "$T/v.json")" =~ ^(map_create|bpf_prog_load)$ ]]
}

@test "ip link add without CAP_NET_ADMIN: the request fails in its netlink ack, and run calls the set not enough" {
	need ip
	run "$CAPAUDIT" run -q --caps none --format json -o "$T/run.jsonl" -- ip link add cabr0 type bridge
	[ "$status" -eq 1 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/rep.json"
	[ "$(jqr '.enough')" = "false" ]
	[ "$(jqr '.exit_status')" = "2" ]
	[ "$(jqr '.denials[] | select(.cap == "CAP_NET_ADMIN") | "\(.callsite) \(.kind) \(.in_netlink_ack)"')" = \
	  "rtnetlink_rcv_msg blocking true" ]
	# verify: a repeatable command, proven and minimal
	run "$CAPAUDIT" verify -q --format json -- sh -c 'ip link add cabr0 type bridge && ip link del cabr0'
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = "CAP_NET_ADMIN" ]
}

@test "nsenter into a root process: the first answer has the CAP_SYS_PTRACE no check asked for, and verify proves it" {
	need nsenter
	sleep 300 &
	SLEEPER=$!
	run record -- nsenter -t "$SLEEPER" -n true
	[ "$status" -eq 0 ]
	"$CAPAUDIT" report --suggest --format json -i "$T/rec.jsonl" >"$T/rep.json"
	# root's permitted set covers the target's: the kernel made no ptrace
	# check, and the ptrace-access hook saw /proc/PID/ns opened
	[ "$(jqr '.required | join(",")')" = "CAP_SYS_PTRACE,CAP_SYS_ADMIN" ]
	[ "$(jqr '.ptrace_shortcut | "\(.needs_sys_ptrace) \(.example.via)"')" = "true /proc/PID/ns" ]
	run "$CAPAUDIT" verify -q --format json -- nsenter -t "$SLEEPER" -n true
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.suggested | join(",")' "$T/v.json")" = "CAP_SYS_PTRACE,CAP_SYS_ADMIN" ]
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = "CAP_SYS_PTRACE,CAP_SYS_ADMIN" ]
	[ "$(jq -r '.members[] | select(.cap == "CAP_SYS_PTRACE") | "\(.without_it.denied) \(.without_it.callsite)"' "$T/v.json")" = \
	  "CAP_SYS_PTRACE cap_ptrace_access_check" ]
}

@test "socat on port 99 after a socat that needed nothing: --emit setcap names it; verify proves CAP_NET_BIND_SERVICE" {
	need socat
	run record -- sh -c 'socat -V >/dev/null; socat -T 0.2 UDP-RECV:99,bind=127.0.0.1 /dev/null'
	[ "$status" -eq 0 ]
	run "$CAPAUDIT" report --emit setcap -i "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	[ "$output" = "setcap cap_net_bind_service+ep $(command -v socat)" ]
	run "$CAPAUDIT" verify -q --emit setcap -- socat -T 0.2 UDP-RECV:99,bind=127.0.0.1 /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == *"Proven set: CAP_NET_BIND_SERVICE"* ]]
	[[ "$output" == *"setcap cap_net_bind_service+ep $(command -v socat)"* ]]
}

@test "capsh insists on two capabilities with capset() and checks nothing: verify adds and keeps both" {
	need capsh
	run "$CAPAUDIT" verify -q --format json -- capsh --caps=cap_net_raw,cap_net_admin+ep -- -c true
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/v.json"
	[ "$(jq -r '.suggested | length' "$T/v.json")" = "0" ]
	[ "$(jq -r '.set | join(",")' "$T/v.json")" = "CAP_NET_ADMIN,CAP_NET_RAW" ]
	[ "$(jq -r '[.members[] | .without_it.asked_by_capset] | unique | join(",")' "$T/v.json")" = "true" ]
	# no kernel denial explains it: the program refused by itself
	[ "$(jq -r '[.members[] | .without_it.refused_in_user_space] | unique | join(",")' "$T/v.json")" = "true" ]
}

@test "run --user: the PATH search is capaudit's, not the program's; a program refused that carries on is for --check to judge" {
	# a directory nobody cannot search, first in PATH
	mkdir -p "$T/private"
	chmod 700 "$T/private"
	PATH="$T/private:$PATH" run "$CAPAUDIT" run -q --caps none --user nobody --format json -o "$T/run.jsonl" -- true
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/rep.json"
	[ "$(jqr '.denials | length')" = "0" ]
	# python3 tries a raw socket, is refused (socket() fails with EPERM:
	# net/ipv4/af_inet.c inet_create()), and goes on: exit 0, but the kernel
	# refused what it asked for, so the set is not shown to be enough ...
	[ -x "$PY" ] || skip "$PY is not installed"
	cat >"$T/raw.py" <<'EOF'
import socket
try:
    socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
except PermissionError:
    print("no raw socket: carrying on")
EOF
	# (its output goes to standard error: standard output is the report alone)
	run "$CAPAUDIT" run -q --caps none --format json -o "$T/run.jsonl" -- "$PY" "$T/raw.py"
	[ "$status" -eq 1 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/rep.json"
	[ "$(jqr '.enough')" = "false" ]
	[ "$(jqr '.verdict')" = "refused" ]
	[ "$(jqr '.denials[] | "\(.cap) \(.callsite) \(.kind) \(.effect.kind)"')" = \
	  "CAP_NET_RAW inet_create blocking fails" ]
	[[ "$(jqr '.verdict_why')" == *"refused CAP_NET_RAW at inet_create (socket failed with EPERM), and the program went on"* ]]
	# ... unless its own check says it did its job
	"$CAPAUDIT" run -q --caps none --format json -o "$T/run.jsonl" --check true -- "$PY" "$T/raw.py" \
		>"$T/rep.json" 2>"$T/err"
	grep -q "no raw socket: carrying on" "$T/err"
	[ "$(jqr '.enough')" = "true" ]
	# --check decides when the exit status says too little
	run "$CAPAUDIT" run -q --caps none --check false -o "$T/run.jsonl" -- true
	[ "$status" -eq 1 ]
	[[ "$output" == *"This set is not enough: the check failed"* ]]
}
