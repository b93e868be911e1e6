#!/usr/bin/env bats
# The output writer against another user racing it (lib/outfile.c: the name
# is looked up once, then everything is relative to its directory). Root
# writes into a sticky directory anyone may write, as into /tmp, while a
# second user (uid 65534) swaps a file of its own and a symlink into a
# directory only root may enter, with renameat2(RENAME_EXCHANGE), as fast
# as it can. Whatever the race does, nothing may be created or replaced
# outside the named directory, under fs.protected_symlinks=1 and =0. A
# temporary user's symlink in a directory component of the name (/tmp/d
# in /tmp/d/out.jsonl) is no more followed than one at the last: whatever
# the sysctl, nothing is written where it points.

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
	[ -x /usr/bin/python3 ] || skip "python3 is not installed (Debian python3: the second user runs it)"
	host_lock protected_symlinks   # the whole host's: set here, set back in teardown
	OLD_PROTECTED=$(cat /proc/sys/fs/protected_symlinks)
	PUB=$T/pub SECRET=$T/secret
	mkdir -m 1777 "$PUB"
	mkdir -m 0700 "$SECRET"
	REC=$ROOT/tests/fixtures/kernels/6.18-chown.jsonl
	cp "$ROOT/examples/ci/capaudit-baseline.json" "$SECRET/victim"
	chmod 600 "$SECRET/victim"
	VICTIM=$(sha256sum <"$SECRET/victim")
	RACER=
}

teardown() {
	[ -n "${RACER:-}" ] && kill "$RACER" 2>/dev/null
	[ -n "${OLD_PROTECTED:-}" ] && echo "$OLD_PROTECTED" >/proc/sys/fs/protected_symlinks
	host_unlock
	e2e_teardown
}

AS_NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"

# race N: the second user swaps $PUB/out (its own baseline file) and
# $PUB/link (its symlink to root's $SECRET/victim) while root runs
# check --update --baseline $PUB/out N times, then record -o $PUB/out
# a few times; each run's status is counted (OK / refused)
race() {
	$AS_NOBODY sh -c 'cp "$1" "$2/out" && ln -s "$3" "$2/link"' sh \
		"$ROOT/examples/ci/capaudit-baseline.json" "$PUB" "$SECRET/victim"
	$AS_NOBODY /usr/bin/python3 "$ROOT/tests/e2e/exchange-racer.py" "$PUB/out" "$PUB/link" \
		"$T/stop" 600 >"$T/swaps" &
	RACER=$!
	local i ok=0 refused=0
	for i in $(seq "$1"); do
		if "$CAPAUDIT" check --update --baseline "$PUB/out" "$REC" >/dev/null 2>>"$T/err"; then
			ok=$((ok + 1))
		else
			refused=$((refused + 1))
		fi
	done
	for i in 1 2 3 4 5; do
		"$CAPAUDIT" record -q -o "$PUB/out" -- true 2>>"$T/err" || true
	done
	touch "$T/stop"
	wait "$RACER"
	RACER=
	echo "runs: $ok written, $refused refused; $(cat "$T/swaps")"
	sort "$T/err" | sed 's/capaudit-[0-9a-f]\{8\}/capaudit-X/g' | uniq -c | head -n 5
}

# nothing of root's was touched, nothing created beside it
secret_untouched() {
	[ "$(ls -A "$SECRET")" = victim ] || { echo "in $SECRET: $(ls -A "$SECRET")"; return 1; }
	[ "$(sha256sum <"$SECRET/victim")" = "$VICTIM" ]
	[ "$(stat -c '%u %a' "$SECRET/victim")" = "0 600" ]
}

# what root wrote is in $PUB: at out (or link, the name the race swapped it
# to), or kept beside it under a name of its own (out.capaudit-XXXXXXXX)
only_named_there() {
	local f
	for f in "$PUB"/* "$PUB"/.[!.]*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		case ${f##*/} in
		out | link | out.capaudit-[0-9a-f]*) ;;
		*) echo "unexpected in $PUB: $f"; return 1 ;;
		esac
	done
}

@test "outfile race: fs.protected_symlinks=1, 200 racing runs: nothing outside the named directory" {
	echo 1 >/proc/sys/fs/protected_symlinks
	race 200
	secret_untouched
	only_named_there
}

@test "outfile race: fs.protected_symlinks=0, 200 racing runs: nothing outside the named directory" {
	echo 0 >/proc/sys/fs/protected_symlinks
	race 200
	secret_untouched
	only_named_there
}

@test "outfile: another user's symlink in a sticky world-writable directory is not followed, whatever the sysctl" {
	for v in 0 1; do
		echo "$v" >/proc/sys/fs/protected_symlinks
		rm -f "$PUB/l"
		$AS_NOBODY ln -s "$SECRET/victim" "$PUB/l"
		run "$CAPAUDIT" check --update --baseline "$PUB/l" "$REC"
		echo "$output"
		[ "$status" -eq 2 ]
		# the writer's rule; with the sysctl on, the kernel already refuses
		# to read the old baseline through it
		if [ "$v" = 0 ]; then
			[ "$output" = "capaudit: $PUB/l: a symlink of uid 65534 in a sticky directory anyone may write: not following it (the rule of fs.protected_symlinks)" ]
		else
			[ "$output" = "capaudit: $PUB/l: Permission denied" ]
		fi
		secret_untouched
	done
	# root's own link there is followed: its target is replaced, the link stays
	ln -s "$T/mine.json" "$PUB/r"
	cp "$ROOT/examples/ci/capaudit-baseline.json" "$T/mine.json"
	run "$CAPAUDIT" check --update --baseline "$PUB/r" "$REC"
	[ "$status" -eq 0 ]
	[ -L "$PUB/r" ]
	grep -q CAP_CHOWN "$T/mine.json"
}

@test "outfile: a monitor never writes through a symlink put at its -o path after it started" {
	mkdir -m 0755 "$T/state"
	"$CAPAUDIT" monitor -q -o "$T/state/m.jsonl" --interval 0.2 2>"$T/mon.err" &
	local mon=$!
	wait_attached "$mon"
	wait_for 10 test -s "$T/state/m.jsonl"
	# root's own link, in root's own directory: a link the rule would
	# follow at a first write, but it was not there at the first
	ln -sf "$SECRET/victim" "$T/state/m.jsonl"
	wait_for 10 grep -q 'a symlink was put there after capaudit first wrote it' "$T/mon.err"
	kill -TERM "$mon" 2>/dev/null || true
	wait "$mon" || true
	cat "$T/mon.err"
	secret_untouched
	[ -L "$T/state/m.jsonl" ]
}

@test "outfile: --events appends through no other user's symlink in a sticky directory, whatever the sysctl" {
	for v in 0 1; do
		echo "$v" >/proc/sys/fs/protected_symlinks
		rm -f "$PUB/ev"
		$AS_NOBODY ln -s "$SECRET/victim" "$PUB/ev"
		run "$CAPAUDIT" monitor -q -o "$T/m.jsonl" --events "$PUB/ev"
		echo "$output"
		[ "$status" -ne 0 ]
		[[ "$output" == *"$PUB/ev: a symlink of uid 65534 in a sticky directory anyone may write: not following it"* ]]
		secret_untouched
	done
}

@test "outfile: a temporary user's symlink in a directory component (sticky /tmp-like directory) is not followed, at fs.protected_symlinks 0 and 1" {
	local tuid v
	tuid=$(id -u "$TUSER")
	for v in 0 1; do
		echo "$v" >/proc/sys/fs/protected_symlinks
		rm -f "$PUB/d"
		setpriv --reuid="$tuid" --regid="$(id -g "$TUSER")" --clear-groups ln -s "$SECRET" "$PUB/d"
		local why="$PUB/d is a symlink of uid $tuid in a sticky directory anyone may write: not following it (the rule of fs.protected_symlinks)"
		run "$CAPAUDIT" record -q -o "$PUB/d/out.jsonl" -- touch "$T/ran"
		echo "$output"
		[ "$status" -eq 1 ]
		[ "$output" = "capaudit: $PUB/d/out.jsonl: $why" ]
		[ ! -e "$T/ran" ]
		run "$CAPAUDIT" check --update --baseline "$PUB/d/victim" "$REC"
		echo "$output"
		[ "$status" -eq 2 ]
		[ "$output" = "capaudit: $PUB/d/victim: $why" ]
		# a monitor: its checkpoint (kept beside itself first, when there
		# is one) and its events
		run "$CAPAUDIT" monitor -q -o "$PUB/d/victim" --interval 0.2
		echo "$output"
		[ "$status" -eq 1 ]
		[ "$output" = "capaudit: $PUB/d/victim: $why" ]
		run "$CAPAUDIT" monitor -q -o "$T/m.jsonl" --interval 0.2 --events "$PUB/d/ev.jsonl"
		echo "$output"
		[ "$status" -eq 1 ]
		[ "$output" = "capaudit: --events $PUB/d/ev.jsonl: $why" ]
		secret_untouched
	done
	# root's own symlink there is followed, as the kernel would
	mkdir "$T/mine"
	ln -s "$T/mine" "$PUB/r"
	run "$CAPAUDIT" record -q -o "$PUB/r/out.jsonl" -- true
	[ "$status" -eq 0 ]
	[ -s "$T/mine/out.jsonl" ]
}
