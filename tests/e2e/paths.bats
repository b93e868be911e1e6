#!/usr/bin/env bats
# Safe to point at any path: -o and --update never replace what they
# should not (devices, FIFOs, symlinks, another writer's file), keep the
# data when the last step fails, find every path problem before the
# command runs; -i and --baseline read standard input and never wait
# forever on a FIFO or a device.

load helper

# a valid record on standard input, for the readers
REC="$ROOT/tests/fixtures/kernel-5.4-clone3.jsonl"

teardown() {
	# a FIFO's reader a test left (it would wait for a writer forever)
	[ -n "${READER:-}" ] && kill "$READER" 2>/dev/null
	e2e_teardown
}

@test "-o a device (null): written through, never replaced" {
	# a null device of the test's own: a capaudit that replaced it would
	# not take the host's /dev/null with it
	mknod -m 666 "$T/null" c 1 3
	run record -o "$T/null" -- touch "$T/ran"
	[ "$status" -eq 0 ]
	[ "$(stat -c %F "$T/null")" = "character special file" ]
	[ -e "$T/ran" ]
}

@test "-o - and -o /dev/stdout: the record on standard output, the command's output on standard error" {
	touch "$T/f"
	"$CAPAUDIT" record -q -o - -- sh -c 'echo from-the-command; chown nobody "$0"' "$T/f" \
		>"$T/out" 2>"$T/err"
	grep -qx from-the-command "$T/err"
	run ! grep -qx from-the-command "$T/out"   # (the header quotes the command line)
	"$CAPAUDIT" report -i - --format json <"$T/out" >"$T/rep.json"
	[ "$(jqr '[.processes[].capabilities[].cap] | index("CAP_CHOWN") != null')" = "true" ]
	# through the symlink, which stays a symlink
	"$CAPAUDIT" record -q -o /dev/stdout -- true | "$CAPAUDIT" report -i - >"$T/r.txt"
	grep -q "^Record standard input" "$T/r.txt"
	[ -L /dev/stdout ]
}

@test "-o FIFO: written through to its reader; no reader is an error before the command runs" {
	mkfifo "$T/fifo"
	cat "$T/fifo" >"$T/got" &
	local reader=$!
	run record -o "$T/fifo" -- true
	[ "$status" -eq 0 ]
	wait "$reader"
	[ -p "$T/fifo" ]
	"$CAPAUDIT" report -i "$T/got" >/dev/null
	run record -o "$T/fifo" -- touch "$T/ran"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/fifo: a FIFO with no reader (start the reader first)"* ]]
	[ ! -e "$T/ran" ]
	[ -p "$T/fifo" ]
}

@test "-o another user's FIFO in a sticky directory anyone may write: refused before the command runs (fs.protected_fifos' rule)" {
	mkdir -m 1777 "$T/pub"
	setpriv --reuid=65534 --regid=65534 --clear-groups mkfifo "$T/pub/out"
	# its reader, which would take the record (and could stop reading)
	# (opened by its owner: fs.protected_fifos refuses root an O_CREAT open
	# of another user's FIFO in a sticky directory, and bash's <> is one)
	setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'exec sleep 600 <>"$1"' sh "$T/pub/out" &
	READER=$!
	run record -o "$T/pub/out" -- touch "$T/ran"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "capaudit: $T/pub/out: a FIFO of uid 65534 in a sticky directory others may write: not writing to it (the rule of fs.protected_fifos)" ]
	[ ! -e "$T/ran" ]
	kill "$READER"
	# root's own FIFO there is written through
	mkfifo "$T/pub/mine"
	cat "$T/pub/mine" >"$T/got" &
	READER=$!
	run record -o "$T/pub/mine" -- true
	[ "$status" -eq 0 ]
	wait "$READER"
	READER=
	"$CAPAUDIT" report -i "$T/got" >/dev/null
}

@test "-o a directory, a socket, a dangling symlink: refused before the command runs" {
	mkdir "$T/dir"
	run record -o "$T/dir" -- touch "$T/ran"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/dir: is a directory"* ]]
	ln -s "$T/nowhere/x" "$T/dangling"
	run record -o "$T/dangling" -- touch "$T/ran"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/dangling: a symlink to a missing file (not writing through it)"* ]]
	[ ! -e "$T/ran" ]
	[ "$(ls -A "$T/dir")" = "" ]
}

@test "-o through a symlink: the file it names is replaced (mode kept), the link stays" {
	echo old >"$T/real"
	chmod 600 "$T/real"
	ln -s real "$T/link"
	run record -o "$T/link" -- true
	[ "$status" -eq 0 ]
	[ -L "$T/link" ]
	[ "$(stat -c %a "$T/real")" = "600" ]
	"$CAPAUDIT" report -i "$T/real" >/dev/null
	[ "$(ls "$T")" = "$(printf 'link\nreal')" ]
}

@test "two recorders with one -o: the second to finish keeps its record under a name of its own and says so" {
	"$CAPAUDIT" record -q -o "$T/x.jsonl" -d 3 -a 2>"$T/a.err" &
	local a=$! st=0
	run record -o "$T/x.jsonl" -- true
	[ "$status" -eq 0 ]
	wait "$a" || st=$?
	[ "$st" -eq 1 ]
	grep -q "$T/x.jsonl was created by another process meanwhile: not replacing it; this one is in $T/x.jsonl.capaudit-" "$T/a.err"
	# both records are whole: the first one kept its name
	"$CAPAUDIT" report -i "$T/x.jsonl" | grep -q "scope command"
	"$CAPAUDIT" report -i "$T"/x.jsonl.capaudit-* | grep -q "scope all"
}

@test "the last step fails (the directory is gone): the data is kept, and the message says where" {
	mkdir "$T/d"
	# the command removes the directory the record was to go to (the
	# unnamed file in it does not keep it from going)
	run env TMPDIR="$T" "$CAPAUDIT" record -q -o "$T/d/rec.jsonl" -- rmdir "$T/d"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot write $T/d/rec.jsonl: No such file or directory; the data is in $T/capaudit-rec.jsonl-"* ]]
	"$CAPAUDIT" report -i "$T"/capaudit-rec.jsonl-* | grep -q "scope command"
	[ ! -e "$T/d" ]
}

@test "check --update through a symlink keeps the baseline's owner and mode, in another user's directory" {
	cp "$ROOT/examples/ci/capaudit-baseline.json" "$T/b.json"
	mkdir "$T/home"
	mv "$T/b.json" "$T/home/b.json"
	chown -R nobody "$T/home"
	chmod 600 "$T/home/b.json"
	chmod 700 "$T/home"
	ln -s home/b.json "$T/link.json"
	touch "$T/f"
	run record -- chown nobody "$T/f"
	run "$CAPAUDIT" check --update --baseline "$T/link.json" "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	[ -L "$T/link.json" ]
	[ "$(stat -c '%U %a' "$T/home/b.json")" = "nobody 600" ]
	grep -q CAP_CHOWN "$T/home/b.json"
	[ "$(ls -A "$T/home")" = "b.json" ]
}

@test "report and check read standard input; a FIFO without a writer or a device never hangs" {
	run "$CAPAUDIT" report -i - <"$REC"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Record standard input"* ]]
	run "$CAPAUDIT" check --baseline - "$REC" <"$ROOT/examples/ci/capaudit-baseline.json"
	[ "$status" -le 1 ]
	run timeout 10 "$CAPAUDIT" report -i /dev/zero
	[ "$status" -eq 2 ]
	[[ "$output" == *"/dev/zero:1: NUL byte: not a text record file"* ]]
	run timeout 10 "$CAPAUDIT" check --baseline /dev/zero "$REC"
	[ "$status" -eq 2 ]
	mkfifo "$T/fifo"
	run timeout 30 "$CAPAUDIT" report -i "$T/fifo"
	[ "$status" -eq 2 ]
	[[ "$output" == *"$T/fifo: a FIFO that no process wrote to in 10 s"* ]]
	# a FIFO with a writer is read
	cat "$REC" >"$T/fifo" &
	run "$CAPAUDIT" report -i "$T/fifo"
	[ "$status" -eq 0 ]
}

# caps_dropped PID: process PID has no effective capability left
caps_dropped() {
	[ "$(awk '/^CapEff/ { print $2 }' "/proc/$1/status" 2>/dev/null)" = 0000000000000000 ]
}

@test "report and check parse their input with no capability left" {
	mkfifo "$T/fifo"
	"$CAPAUDIT" report -i "$T/fifo" >/dev/null 2>&1 &
	local rep=$! i
	# the header only, and the FIFO kept open: report is now reading
	exec 9>"$T/fifo"
	head -n 1 "$REC" >&9
	wait_for 5 caps_dropped "$rep"
	[ "$(awk '/^CapEff/ { print $2 }' "/proc/$rep/status")" = 0000000000000000 ]
	[ "$(awk '/^CapPrm/ { print $2 }' "/proc/$rep/status")" = 0000000000000000 ]
	exec 9>&-
	wait "$rep" || true
}
