#!/usr/bin/env bats
# `sudo capaudit ...` writing into a checkout its user owns (a directory of
# an unprivileged user, mode 0755): capaudit records with CAP_BPF and
# CAP_PERFMON only, so its output keeper, forked before the drop with what
# creating and replacing files takes, creates and replaces -o, a monitor's
# checkpoints, events and metrics, and check --update's baseline; a new
# file belongs to SUDO_UID, a replaced one keeps its owner
# (user/lib/outfile.h). Where it still cannot be done, one line says what
# to do.

load helper

setup_file() {
	[ "$(id -u)" -eq 0 ] || return 0
	export TUSER="capaudit-e2e-$$"
	useradd --system --no-create-home --shell /usr/sbin/nologin "$TUSER"
}

teardown_file() {
	[ -n "${TUSER:-}" ] && userdel "$TUSER" 2>/dev/null
	return 0
}

setup() {
	e2e_setup
	TUID=$(id -u "$TUSER")
	TGID=$(id -g "$TUSER")
	# the checkout: the user's, 0755 (root without CAP_DAC_OVERRIDE may
	# not create files in it)
	D=$T/checkout
	mkdir "$D"
	chown "$TUSER:$TGID" "$D"
	chmod 0755 "$D"
	# what sudo sets
	SUDO=(env SUDO_UID="$TUID" SUDO_GID="$TGID" SUDO_USER="$TUSER")
	MPID=
}

teardown() {
	[ -n "$MPID" ] && kill -KILL "$MPID" 2>/dev/null
	mountpoint -q "$D" && umount "$D"
	e2e_teardown
}

status_field() {   # status_field PID FIELD
	awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"
}

owner() {          # owner FILE: uid:gid mode
	stat -c '%u:%g %a' "$1"
}

@test "sudo record -o in the user's 0755 directory: written, the file is the user's; replaced, it stays the user's" {
	run "${SUDO[@]}" "$CAPAUDIT" record -q -o "$D/caps.jsonl" -- true
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	[ "$(owner "$D/caps.jsonl")" = "$TUID:$TGID 644" ]
	"$CAPAUDIT" report -i "$D/caps.jsonl" | grep -q '^PID [0-9]* true '
	[ "$(ls -A "$D")" = "caps.jsonl" ]   # nothing left beside it
	# root without sudo replaces it: owner and mode kept
	chmod 640 "$D/caps.jsonl"
	run "$CAPAUDIT" record -q -o "$D/caps.jsonl" -- true
	[ "$status" -eq 0 ]
	[ "$(owner "$D/caps.jsonl")" = "$TUID:$TGID 640" ]
	# and a new file root creates without sudo is root's
	"$CAPAUDIT" record -q -o "$D/root.jsonl" -- true
	[ "$(owner "$D/root.jsonl")" = "0:0 644" ]
	[ "$(ls -A "$D" | sort | tr '\n' ' ')" = "caps.jsonl root.jsonl " ]
}

@test "while recording: capaudit keeps CAP_BPF and CAP_PERFMON, its keeper only the file capabilities" {
	"${SUDO[@]}" "$CAPAUDIT" record -q -o "$D/rec.jsonl" -- sleep 60 &
	local rec=$! keeper
	wait_attached "$rec"
	wait_command "$rec" sleep   # before, the held command is a capaudit too
	[ "$(status_field "$rec" CapEff)" = "000000c000000000" ]
	keeper=$(pgrep -P "$rec" -x capaudit)
	[ -n "$keeper" ]
	# CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
	[ "$(status_field "$keeper" CapEff)" = "000000000000000f" ]
	[ "$(status_field "$keeper" CapPrm)" = "000000000000000f" ]
	[ "$(status_field "$keeper" CapBnd)" = "000000000000000f" ]
	[ "$(status_field "$keeper" NoNewPrivs)" = "1" ]
	pkill -x -P "$rec" sleep
	wait "$rec" || true
	[ "$(owner "$D/rec.jsonl")" = "$TUID:$TGID 644" ]
	! kill -0 "$keeper" 2>/dev/null   # gone with capaudit
}

# new_files_at PATH N: true once PATH has been a new file (inode) N times
# since SEEN was set to 0 (called again and again, it counts as it goes)
new_files_at() {
	local ino
	ino=$(stat -c %i "$1" 2>/dev/null) || ino=
	if [ -n "$ino" ] && [ "$ino" != "$LAST" ]; then
		SEEN=$((SEEN + 1))
		LAST=$ino
	fi
	[ "$SEEN" -ge "$2" ]
}

# chown_made_event FILE EVENTS: chown FILE; true once EVENTS is not empty
chown_made_event() {
	chown nobody "$1"
	[ -s "$2" ]
}

@test "sudo monitor: checkpoints replaced every interval, events and metrics, all in the user's directory and the user's" {
	# a copy of its own: another capaudit on the host (make test's other
	# lane reports records) is another program of the -a checkpoint
	cp "$CAPAUDIT" "$T/capaudit-mon"
	"${SUDO[@]}" "$T/capaudit-mon" monitor -q -o "$D/node.jsonl" --interval 0.3 --events "$D/ev.jsonl" \
		--metrics "$D/capaudit.prom" 2>"$T/mon.err" &
	MPID=$!
	wait_attached "$MPID"
	# at least 4 checkpoints, each a new file at the path
	SEEN=0 LAST=
	wait_for 10 new_files_at "$D/node.jsonl" 4
	# logrotate: the events file renamed, SIGHUP, a new one in its place
	mv "$D/ev.jsonl" "$D/ev.jsonl.1"
	kill -HUP "$MPID"
	touch "$T/f"
	wait_for 5 chown_made_event "$T/f" "$D/ev.jsonl"
	kill -TERM "$MPID"
	local st=0
	wait "$MPID" || st=$?
	MPID=
	[ "$st" -eq 0 ]
	[ ! -s "$T/mon.err" ]
	[ "$(jq -r 'select(.type == "header") | .monitor.checkpoint' "$D/node.jsonl")" -ge 5 ]
	for f in node.jsonl ev.jsonl ev.jsonl.1 capaudit.prom; do
		[ "$(owner "$D/$f")" = "$TUID:$TGID 644" ]
	done
	grep -q '^capaudit_checkpoints_total' "$D/capaudit.prom" ||
		grep -q '^capaudit_' "$D/capaudit.prom"
	# nothing left beside them
	[ "$(ls -A "$D" | sort | tr '\n' ' ')" = "capaudit.prom ev.jsonl ev.jsonl.1 node.jsonl " ]
	# the keeper made its checks (CAP_DAC_OVERRIDE, CAP_CHOWN) every
	# checkpoint, but like the monitor itself it is not watched
	[ "$("$CAPAUDIT" report --format json -i "$D/node.jsonl" |
		jq --arg e "$T/capaudit-mon" '[.processes[] | select(.exe == $e)] | length')" -eq 0 ]
}

@test "sudo check --update: a new baseline in the user's directory is the user's; updated, it keeps owner and mode" {
	touch "$T/f"
	record -- chown nobody "$T/f"
	run "${SUDO[@]}" "$CAPAUDIT" check --update --baseline "$D/capaudit-baseline.json" "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	[ "$(owner "$D/capaudit-baseline.json")" = "$TUID:$TGID 644" ]
	grep -q CAP_CHOWN "$D/capaudit-baseline.json"
	chmod 600 "$D/capaudit-baseline.json"
	# an entry no record uses, for the update to remove: the file is replaced
	jq '.capabilities += [{"cap": "CAP_SYS_ADMIN"}]' "$D/capaudit-baseline.json" >"$T/more.json"
	cat "$T/more.json" >"$D/capaudit-baseline.json"
	local ino
	ino=$(stat -c %i "$D/capaudit-baseline.json")
	run "$CAPAUDIT" check --update --baseline "$D/capaudit-baseline.json" "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "  removed CAP_SYS_ADMIN: no record used it" ]
	[ "$(stat -c %i "$D/capaudit-baseline.json")" != "$ino" ]
	[ "$(owner "$D/capaudit-baseline.json")" = "$TUID:$TGID 600" ]
	[ "$(ls -A "$D")" = "capaudit-baseline.json" ]
	run "$CAPAUDIT" check --baseline "$D/capaudit-baseline.json" "$T/rec.jsonl"
	[ "$status" -eq 0 ]
}

@test "when the file still cannot be created: one line naming it and what to do, before the command runs" {
	# root without CAP_DAC_OVERRIDE at all (a unit with
	# CapabilityBoundingSet=CAP_BPF CAP_PERFMON): nothing to keep it with
	run setpriv --bounding-set=-all,+bpf,+perfmon --inh-caps=-all \
		"$CAPAUDIT" record -q -o "$D/caps.jsonl" -- touch "$T/ran"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "capaudit: cannot create $D/caps.jsonl: Permission denied; uid 0 without CAP_DAC_OVERRIDE may not create files in $D: give -o a file in a directory it may write, or make $D writable for it" ]
	[ ! -e "$T/ran" ]
	# a read-only file system, for record and check --update
	mount --bind -o ro "$D" "$D" 2>/dev/null || mount -o remount,bind,ro "$D" "$D"
	run "${SUDO[@]}" "$CAPAUDIT" record -q -o "$D/caps.jsonl" -- touch "$T/ran"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "capaudit: cannot create $D/caps.jsonl: Read-only file system; $D is on a read-only file system: give -o a file on a writable one" ]
	[ ! -e "$T/ran" ]
	run "${SUDO[@]}" "$CAPAUDIT" check --update --baseline "$D/b.json" "$ROOT/tests/fixtures/kernel-5.4-clone3.jsonl"
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: cannot create $D/b.json: Read-only file system; $D is on a read-only file system: give --baseline a file on a writable one" ]
	# a missing directory
	run "$CAPAUDIT" record -q -o "$T/nope/caps.jsonl" -- true
	[ "$status" -eq 1 ]
	[ "$output" = "capaudit: cannot create $T/nope/caps.jsonl: No such file or directory; $T/nope is not a directory: create it first, or give -o a file in an existing one" ]
}
