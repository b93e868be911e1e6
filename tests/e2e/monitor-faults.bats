#!/usr/bin/env bats
# capaudit monitor through write failures: a full file system, a checkpoint
# renamed over by another process, the --events directory moved before
# SIGHUP. The monitor goes on (one warning line per kind, a counter in the
# metrics), writes again at the next interval, and a restarted monitor
# keeps what the last run wrote. Another user's FIFO at one of its names
# (at start, or after logrotate's move and SIGHUP) is refused in one line:
# it never waits for a reader, a signal always ends it, its keeper with it.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

setup() {
	e2e_setup
	MPID= IDLE= MNT= READER= KEEPER=
	# a scope of one idle process: checkpoints stay small (a few KiB)
	sleep 600 &
	IDLE=$!
}

teardown() {
	# its keeper first: a keeper stuck in open() would outlive it
	[ -n "$MPID" ] && pkill -KILL -P "$MPID" 2>/dev/null
	[ -n "$MPID" ] && kill -KILL "$MPID" 2>/dev/null
	[ -n "$READER" ] && kill "$READER" 2>/dev/null
	[ -n "$KEEPER" ] && kill -KILL "$KEEPER" 2>/dev/null
	[ -n "$IDLE" ] && kill "$IDLE" 2>/dev/null
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	e2e_teardown
}

# start_monitor OUT ARGS...: monitor -p $IDLE into OUT, every 0.3 s; MPID
start_monitor() {
	local out=$1
	shift
	"$CAPAUDIT" monitor -o "$out" -p "$IDLE" --interval 0.3 "$@" 2>"$T/mon.err" &
	MPID=$!
	wait_attached "$MPID"
}

# checkpoint_no FILE: the checkpoint number FILE's header has (0: none)
checkpoint_no() {
	jq -r 'select(.type == "header") | .monitor.checkpoint' "$1" 2>/dev/null || echo 0
}

# checkpoint_after FILE N: FILE is a complete checkpoint numbered above N
checkpoint_after() {
	[ -s "$1" ] && [ "$(checkpoint_no "$1")" -gt "$2" ] && "$CAPAUDIT" report -i "$1" >/dev/null 2>&1
}

stop_monitor() {
	kill -TERM "$MPID"
	local st=0
	wait "$MPID" || st=$?
	MPID=
	cat "$T/mon.err"
	return "$st"
}

@test "monitor: a full file system for a while: warned once, counted, written again after; exit 0" {
	MNT=$T/small
	mkdir "$MNT"
	mount -t tmpfs -o size=64k tmpfs "$MNT" || skip "cannot mount a tmpfs here"
	# the metrics beside it, on a file system with room: they count
	start_monitor "$MNT/m.jsonl" --metrics "$T/m.prom" --events "$MNT/ev.jsonl"
	wait_for 10 test -s "$MNT/m.jsonl"
	# fill it: every write fails
	dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null || true
	wait_for 10 grep -q 'warning: cannot write .*m.jsonl: No space left on device' "$T/mon.err"
	n=$(checkpoint_no "$MNT/m.jsonl")
	kill -0 "$MPID"
	# three failed intervals, counted, then room again
	wait_for 10 grep -q '^capaudit_write_failures_total{output="checkpoint"} [3-9]' "$T/m.prom"
	rm "$MNT/fill"
	wait_for 10 grep -q 'the checkpoint is written again' "$T/mon.err"
	wait_for 10 checkpoint_after "$MNT/m.jsonl" "$n"
	stop_monitor
	# one warning line for the checkpoint's run of failures, however many
	[ "$(grep -c 'warning: cannot write .*m.jsonl' "$T/mon.err")" -le 2 ]
	# nothing left beside it
	[ "$(ls -A "$MNT" | sort | tr '\n' ' ')" = "ev.jsonl m.jsonl " ]
}

@test "monitor: its checkpoint renamed over by another process: replaced at the next one, nothing left beside it" {
	start_monitor "$T/m.jsonl"
	wait_for 10 test -s "$T/m.jsonl"
	for i in 1 2 3; do
		n=$(checkpoint_no "$T/m.jsonl")
		cp "$T/m.jsonl" "$T/c" && mv "$T/c" "$T/m.jsonl"
		wait_for 10 checkpoint_after "$T/m.jsonl" "$n"
	done
	kill -0 "$MPID"
	stop_monitor
	[ "$(ls -A "$T" | grep '^m\.jsonl' | tr '\n' ' ')" = "m.jsonl " ]
	! grep -q 'warning' "$T/mon.err"
}

@test "monitor: SIGHUP after its --events directory was moved: lines go on to the open file, the path is tried again" {
	mkdir "$T/ev"
	start_monitor "$T/m.jsonl" --events "$T/ev/ev.jsonl"
	wait_for 10 test -s "$T/m.jsonl"
	mv "$T/ev" "$T/ev.old"
	kill -HUP "$MPID"
	wait_for 10 grep -q 'warning: --events: cannot open it again' "$T/mon.err"
	kill -0 "$MPID"
	n=$(checkpoint_no "$T/m.jsonl")
	wait_for 10 checkpoint_after "$T/m.jsonl" "$n"
	# the directory back: the next checkpoint opens the path again
	mkdir "$T/ev"
	wait_for 10 grep -q 'the events file is written again' "$T/mon.err"
	wait_for 10 test -e "$T/ev/ev.jsonl"
	stop_monitor
}

@test "monitor: restarted, it keeps the last run's checkpoint beside the new one" {
	start_monitor "$T/m.jsonl"
	wait_for 10 test -s "$T/m.jsonl"
	stop_monitor
	old=$(sha256sum <"$T/m.jsonl")
	start_monitor "$T/m.jsonl"
	wait_for 10 grep -q "the previous $T/m.jsonl is kept as $T/m.jsonl.prev-" "$T/mon.err"
	kept=$(ls "$T"/m.jsonl.prev-*)
	[ "$(sha256sum <"$kept")" = "$old" ]
	stop_monitor
	# report reads both at once
	"$CAPAUDIT" report -i "$kept" -i "$T/m.jsonl" >/dev/null
}

AS_NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"

# gone PID: process PID has exited (a zombie of this shell counts as exited)
gone() {
	! kill -0 "$1" 2>/dev/null || [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# nothing_left: no process of this test's monitor (it or its keeper, which
# has its command line) is still there
nothing_left() {
	! pgrep -f -- "-o $T/m.jsonl" >/dev/null || { pgrep -a -f -- "-o $T/m.jsonl"; return 1; }
}

@test "monitor: another user's FIFO at its --events name at start: one line naming it, exit 1, nothing left" {
	mkdir -m 1777 "$T/pub"
	$AS_NOBODY mkfifo "$T/pub/ev.jsonl"
	"$CAPAUDIT" monitor -o "$T/m.jsonl" -p "$IDLE" --interval 0.3 --events "$T/pub/ev.jsonl" \
		2>"$T/mon.err" &
	MPID=$!
	wait_for 20 gone "$MPID"
	local st=0
	wait "$MPID" || st=$?
	MPID=
	cat "$T/mon.err"
	[ "$st" -eq 1 ]
	[ "$(cat "$T/mon.err")" = "capaudit: --events $T/pub/ev.jsonl: a FIFO, not a regular file: not writing to it (its reader could keep the writer waiting)" ]
	nothing_left
	[ -p "$T/pub/ev.jsonl" ] && [ "$(ls -A "$T/pub")" = ev.jsonl ]
}

@test "monitor: another user's FIFO put at its --events name after logrotate's move, then SIGHUP: refused, it goes on, SIGTERM ends it" {
	mkdir -m 1777 "$T/pub"
	start_monitor "$T/m.jsonl" --events "$T/pub/ev.jsonl"
	wait_for 10 test -s "$T/m.jsonl"
	mv "$T/pub/ev.jsonl" "$T/pub/ev.jsonl.1"
	$AS_NOBODY mkfifo "$T/pub/ev.jsonl"
	# a reader too: the FIFO would take what is written, then fill
	# (opened by its owner, whatever fs.protected_fifos says)
	$AS_NOBODY sh -c 'exec sleep 600 <>"$1"' sh "$T/pub/ev.jsonl" &
	READER=$!
	kill -HUP "$MPID"
	wait_for 10 grep -q "warning: --events: cannot open it again: $T/pub/ev.jsonl: a FIFO, not a regular file: not writing to it (its reader could keep the writer waiting); its lines go on to the file open before" "$T/mon.err"
	# checkpoints go on
	n=$(checkpoint_no "$T/m.jsonl")
	wait_for 10 checkpoint_after "$T/m.jsonl" "$n"
	kill -TERM "$MPID"
	wait_for 20 gone "$MPID"
	local st=0
	wait "$MPID" || st=$?
	MPID=
	cat "$T/mon.err"
	[ "$st" -eq 0 ]
	nothing_left
	[ -p "$T/pub/ev.jsonl" ]
}

@test "monitor: a FIFO with a reader that never reads, put at its --metrics name: refused every interval, SIGTERM ends it" {
	mkdir -m 1777 "$T/pub"
	start_monitor "$T/m.jsonl" --metrics "$T/pub/m.prom"
	wait_for 10 test -s "$T/pub/m.prom"
	rm "$T/pub/m.prom"
	$AS_NOBODY mkfifo "$T/pub/m.prom"
	$AS_NOBODY sh -c 'exec sleep 600 <>"$1"' sh "$T/pub/m.prom" &
	READER=$!
	wait_for 10 grep -q "warning: .*$T/pub/m.prom: a FIFO, not a regular file: not writing to it" "$T/mon.err"
	n=$(checkpoint_no "$T/m.jsonl")
	wait_for 10 checkpoint_after "$T/m.jsonl" "$n"
	kill -TERM "$MPID"
	wait_for 20 gone "$MPID"
	local st=0
	wait "$MPID" || st=$?
	MPID=
	cat "$T/mon.err"
	[ "$st" -eq 0 ]
	nothing_left
}

@test "monitor: killed (SIGKILL) while its keeper is held: the keeper goes with it" {
	start_monitor "$T/m.jsonl" --events "$T/ev.jsonl"
	KEEPER=$(pgrep -P "$MPID" -x capaudit)
	[ -n "$KEEPER" ]
	# held: it cannot read the end of its socket (as in an open() that waits)
	kill -STOP "$KEEPER"
	kill -KILL "$MPID"
	wait "$MPID" || true
	MPID=
	wait_for 10 gone "$KEEPER"
	nothing_left
}
