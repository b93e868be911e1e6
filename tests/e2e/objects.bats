#!/usr/bin/env bats
# tier: plain (root: files of nobody's, a process of nobody's, a network
# namespace; the hook's capture is the same code in the ASan pass's other
# recordings)
# What a check was about (issue 44): the hook reads the object of each
# check from the syscall's own arguments (bpf/objects.bpf.h) and the
# record's check line carries it (docs/record-format.md "objects"). The
# names the workloads use reach them only through their environment,
# never their argv: what the record says was read from the syscall.

load helper

# check_objs FILE CAP SYSCALL: the objects of the check lines of CAP made
# in SYSCALL, one JSON array (all lines' objects together)
check_objs() {
	jq -s -c --arg cap "$2" --arg sys "$3" \
		'[.[] | select(.type == "check" and .cap_name == $cap and .syscall_name == $sys) |
		  .objects // [] | .[]]' "$1"
}

@test "objects: touch -d @0 of nobody's file names the file, its owner and mode" {
	F=$(realpath "$T")/f
	touch "$F"
	chown 65534:65534 "$F"
	chmod 0640 "$F"
	F=$F run "$CAPAUDIT" record -q -o "$T/r.jsonl" -- sh -c 'touch -d @0 "$F"'
	[ "$status" -eq 0 ]
	# the fd's file (utimensat(fd, NULL)): owner and mode from its inode
	run check_objs "$T/r.jsonl" CAP_FOWNER utimensat
	[ "$(jq -r --arg p "$F" 'map(select(.kind == "file" and .path == $p)) | length' <<<"$output")" = 1 ]
	[ "$(jq -r '.[0] | "\(.uid) \(.gid) \(.mode_octal) \(.mode) \(.late // false)"' <<<"$output")" = "65534 65534 0640 33184 false" ]
	# the open that needed CAP_DAC_OVERRIDE named the path: the recorder
	# read its owner (late)
	run check_objs "$T/r.jsonl" CAP_DAC_OVERRIDE openat
	[ "$(jq -r --arg p "$F" '.[] | select(.path == $p) | "\(.kind) \(.uid) \(.mode_octal) \(.late)"' <<<"$output")" = "file 65534 0640 true" ]
}

@test "objects: kill -0 of nobody's process names its pid, name and uid" {
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 30 &
	S=$!
	wait_for 50 grep -q '^Uid:.*65534' "/proc/$S/status"
	P=$S run "$CAPAUDIT" record -q -o "$T/r.jsonl" -- sh -c 'kill -0 "$P"'
	kill "$S"
	[ "$status" -eq 0 ]
	run check_objs "$T/r.jsonl" CAP_KILL kill
	[ "$(jq -r '.[] | "\(.kind) \(.pid) \(.name) \(.uid)"' <<<"$output")" = "process $S sleep 65534" ]
}

@test "objects: SO_RCVBUFFORCE names the level and the option" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	run "$CAPAUDIT" record -q -o "$T/r.jsonl" -- python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 33, 1 << 20)'
	[ "$status" -eq 0 ]
	run check_objs "$T/r.jsonl" CAP_NET_ADMIN setsockopt
	[ "$(jq -r '.[] | "\(.kind) \(.detail) \(.name) \(.num)"' <<<"$output")" = "sockopt SOL_SOCKET SO_RCVBUFFORCE 33" ]
}

@test "objects: a netlink message names its protocol and type; unshare its flags" {
	command -v ip >/dev/null || skip "iproute2 is not installed"
	run "$CAPAUDIT" record -q -o "$T/r.jsonl" -- unshare -n sh -c \
		'ip addr add 127.0.0.2/8 dev lo && ip link set lo mtu 65536'
	[ "$status" -eq 0 ]
	run check_objs "$T/r.jsonl" CAP_NET_ADMIN sendmsg
	echo "$output"
	[ "$(jq -r 'map(select(.kind == "netlink")) | map("\(.detail) \(.name)") | unique | join(",")' <<<"$output")" = "NETLINK_ROUTE RTM_NEWADDR,NETLINK_ROUTE RTM_NEWLINK" ]
	run check_objs "$T/r.jsonl" CAP_SYS_ADMIN unshare
	[ "$(jq -r '.[] | "\(.kind) \(.detail) \(.name)"' <<<"$output")" = "flags unshare CLONE_NEWNET" ]
}

@test "objects: a relative path is resolved against the cwd and against a dirfd" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	D=$(realpath "$T")/d
	mkdir -p "$D/sub"
	touch "$D/g" "$D/sub/h"
	chown 65534 "$D/g" "$D/sub/h"
	# cwd: touch opens "g" (CAP_DAC_OVERRIDE: 0644 of nobody's)
	D=$D run "$CAPAUDIT" record -q -o "$T/cwd.jsonl" -- sh -c 'cd "$D" && touch -d @0 g'
	[ "$status" -eq 0 ]
	run check_objs "$T/cwd.jsonl" CAP_DAC_OVERRIDE openat
	[ "$(jq -r '.[] | .path' <<<"$output")" = "$D/g" ]
	# dirfd: utimensat(dirfd of $D/sub, "h") from / (CAP_FOWNER)
	D=$D run "$CAPAUDIT" record -q -o "$T/fd.jsonl" -- python3 -c '
import os
os.chdir("/")
fd = os.open(os.path.join(os.environ["D"], "sub"), os.O_RDONLY | os.O_DIRECTORY)
os.utime("h", (0, 0), dir_fd=fd)'
	[ "$status" -eq 0 ]
	run check_objs "$T/fd.jsonl" CAP_FOWNER utimensat
	[ "$(jq -r '.[] | "\(.path) \(.uid)"' <<<"$output")" = "$D/sub/h 65534" ]
}

@test "objects: a hostile file name (newline, ESC, U+202E) is kept exact in JSON" {
	H=$(printf '%s/a\nb\033[31mc\342\200\256d' "$(realpath "$T")")
	touch "$H"
	chown 65534 "$H"
	H=$H run "$CAPAUDIT" record -q -o "$T/r.jsonl" -- sh -c 'touch -d @0 "$H"'
	[ "$status" -eq 0 ]
	run check_objs "$T/r.jsonl" CAP_FOWNER utimensat
	[ "$(jq --arg p "$H" 'map(select(.path == $p)) | length' <<<"$output")" = 1 ]
	# escaped in the line: the newline, the ESC and the bidi override
	# are never raw bytes of the record
	[ "$(grep -ci '/a\\nb\\u001b\[31mc\\u202ed' "$T/r.jsonl")" -ge 1 ]
	[ "$(grep -c $'\033' "$T/r.jsonl")" = 0 ]
	[ "$(grep -c $'\342\200\256' "$T/r.jsonl")" = 0 ]
}

@test "objects: more files than the hook keeps at one call site are bounded and counted" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	D=$(realpath "$T")/many
	mkdir "$D"
	for i in $(seq 1 20); do touch "$D/f$i"; done
	chown 65534 "$D"/f*
	# bytes kept alive: each utimensat names its own buffer
	D=$D run "$CAPAUDIT" record -q -o "$T/r.jsonl" -- python3 -c '
import os
d = os.environb[b"D"]
paths = [os.path.join(d, n) for n in sorted(os.listdir(d))]
for p in paths:
    os.utime(p, (0, 0))'
	[ "$status" -eq 0 ]
	run jq -s -c '[.[] | select(.type == "check" and .cap_name == "CAP_FOWNER" and .syscall_name == "utimensat")]' "$T/r.jsonl"
	echo "$output"
	# one call site, one line: 4 objects (CA_OBJ_KEEP), the other 16 counted
	[ "$(jq -r 'length' <<<"$output")" = 1 ]
	[ "$(jq -r '.[0] | "\(.count) \(.objects | length) \(.objects_more)"' <<<"$output")" = "20 4 16" ]
	[ "$(jq -r --arg d "$D" '.[0].objects | map(select(.kind == "file" and (.path | startswith($d + "/f")) and .uid == 65534 and .count == 1)) | length' <<<"$output")" = 4 ]
}
