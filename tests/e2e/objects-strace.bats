#!/usr/bin/env bats
# tier: plain (root: real programs on files, processes and namespaces of
# their own, each recorded once; what it compares is the recorder's, which
# the ASan pass's other recordings run too)
# Issue 44's acceptance: for real programs, the objects a record says its
# checks were about are what `strace -f` shows for the same run. Each
# program runs once, under strace inside capaudit record (strace's own
# checks are not compared: its pid prints no line), and objects-strace.py
# finds each object of each check in a line strace printed for that
# process and syscall: the path, the pid, the option, the socket's family,
# type and protocol, the netlink message, the mount's target and type, the
# sysctl's file, the flags. Each case also needs its own object: one check
# of its capability names what the case is about, and report --format
# json shows it under that capability.

load helper

CMP="$ROOT/tests/e2e/objects-strace.py"

setup() {
	e2e_setup
	command -v strace >/dev/null || skip "strace is not installed (tools/deps.sh test installs it)"
	PY=/usr/bin/python3
	[ -x "$PY" ] || PY=python3
	D=$(realpath "$T")
	VICTIM=
}

teardown() {
	[ -n "${VICTIM:-}" ] && kill "$VICTIM" 2>/dev/null
	e2e_teardown
}

# nobody's sleep, whose pid is $VICTIM
victim() {
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 60 &
	VICTIM=$!
	# until it is nobody's sleep (setpriv has exec'd)
	for _ in $(seq 600); do
		[ "$(stat -c %u /proc/$VICTIM 2>/dev/null)" = 65534 ] &&
			grep -q '^Name:.sleep' /proc/$VICTIM/status && return 0
		sleep 0.05
	done
	return 1
}

# traced CAP KIND SYSCALLS -- COMMAND...: records COMMAND under strace
# (-e trace=SYSCALLS), then compares; the comparison's lines are shown on
# a failure
traced() {
	local cap=$1 kind=$2 sys=$3
	shift 4
	"$CAPAUDIT" record -q -o "$T/r.jsonl" -- \
		strace -f -yy -s 4096 -qq -o "$T/strace.txt" -e trace="$sys" -- "$@"
	# no object anywhere: the recorder does not capture them (a build
	# without issue 44's recorder): nothing to compare
	grep -q '"objects":' "$T/r.jsonl" || skip "the recorder does not capture objects yet"
	run "$PY" "$CMP" "$T/r.jsonl" "$T/strace.txt" "$cap" "$kind" "$sys"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ok $cap "* ]]
	# shown: under its capability in the report
	"$CAPAUDIT" report -i "$T/r.jsonl" --format json >"$T/rep.json"
	[ "$(jq -r --arg c "$cap" --arg k "$kind" '[.processes[].capabilities[] | select(.cap == $c) |
		.callsites[].objects // [] | .[] | select(.kind == $k)] | length > 0' "$T/rep.json")" = true ]
}

@test "chown, chmod and touch of nobody's file: the path (CAP_CHOWN, CAP_FOWNER, CAP_DAC_OVERRIDE)" {
	touch "$D/f"
	chown 65534:65534 "$D/f"
	chmod 0600 "$D/f"
	traced CAP_CHOWN file openat,utimensat,fchownat,fchmodat -- \
		sh -c "chown 1:1 '$D/f'; chmod 0644 '$D/f'; chown 65534:65534 '$D/f'; touch '$D/f'"
	grep -q '"cap_name":"CAP_FOWNER".*"syscall_name":"fchmodat".*"kind":"file"' "$T/r.jsonl"
}

@test "kill -0 of nobody's sleep: its pid (CAP_KILL)" {
	victim
	traced CAP_KILL process kill -- kill -0 "$VICTIM"
	[ "$(jq -s -r --argjson p "$VICTIM" '[.[] | select(.type == "check") | .objects // [] | .[] |
		select(.kind == "process" and .pid == $p) | .name] | unique | join(",")' "$T/r.jsonl")" = sleep ]
}

@test "renice of nobody's sleep: its pid (CAP_SYS_NICE)" {
	victim
	traced CAP_SYS_NICE process setpriority -- renice -n 5 -p "$VICTIM"
}

@test "taskset of nobody's sleep: its pid (CAP_SYS_NICE)" {
	victim
	traced CAP_SYS_NICE process sched_setaffinity -- taskset -p 1 "$VICTIM"
}

@test "ping: the raw socket's family, type and protocol (CAP_NET_RAW)" {
	traced CAP_NET_RAW socket socket -- ping -c 1 -W 1 127.0.0.1
}

@test "ip addr add in a network namespace of its own: the netlink message (CAP_NET_ADMIN)" {
	traced CAP_NET_ADMIN netlink sendmsg,sendto,unshare -- \
		unshare -n ip addr add 10.9.9.1/24 dev lo
	grep -q '"name":"CLONE_NEWNET"' "$T/r.jsonl"
}

@test "python3 setsockopt SO_RCVBUFFORCE: the option (CAP_NET_ADMIN)" {
	traced CAP_NET_ADMIN sockopt setsockopt -- "$PY" -c \
		'import socket; s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, 33, 1 << 20)'
}

@test "mount -t tmpfs in a mount namespace of its own: the target and type (CAP_SYS_ADMIN)" {
	mkdir "$D/mnt"
	traced CAP_SYS_ADMIN mount mount,unshare -- \
		unshare -m --propagation private mount -t tmpfs none "$D/mnt"
}

@test "chroot: the new root (CAP_SYS_CHROOT)" {
	traced CAP_SYS_CHROOT file chroot -- chroot / true
}

@test "cat of a root-only file as nobody with CAP_DAC_READ_SEARCH: the path (CAP_DAC_READ_SEARCH)" {
	echo secret >"$D/secret"
	chmod 0600 "$D/secret"
	traced CAP_DAC_READ_SEARCH file openat -- \
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+dac_read_search \
		--ambient-caps=+dac_read_search cat "$D/secret"
}

@test "sysctl -w in a network namespace of its own: the sysctl's file (CAP_NET_ADMIN)" {
	traced CAP_NET_ADMIN sysctl openat,write,unshare -- \
		unshare -n sysctl -w net.ipv4.ip_forward=1
}
