#!/usr/bin/env bats
# tier: plain (root: a monitor -a and real touch(1) runs on nobody's files)
# capaudit monitor names what each check was about (issue 44): the first
# use's event line and the checkpoint's check line name the file touch -d @0
# changed, the metrics count it by kind, and a row keeps at most 4 objects
# (MON_OBJ_PER_ROW), the checks about the rest counted in objects_more.
# Other processes on the host are in the monitor too: rows are picked by
# a touch copied under a path of this test's own.

load helper

setup() {
	e2e_setup
	MPID=
	# not under /tmp: the metrics fold temporary executables into one label
	BIN=$(mktemp -d /var/lib/capaudit-e2e.XXXXXX)
	cp "$(readlink -f "$(command -v touch)")" "$BIN/touch"
	TOUCH=$BIN/touch
}

teardown() {
	[ -n "$MPID" ] && kill -KILL "$MPID" 2>/dev/null
	[ -n "${BIN:-}" ] && rm -rf "$BIN"
	e2e_teardown
}

# nobody_files N: N files of nobody's in $T/files, their paths in $T/names
nobody_files() {
	mkdir -p "$T/files"
	for i in $(seq "$1"); do
		echo "$T/files/nobody-$i.conf"
	done >"$T/names"
	xargs touch <"$T/names"
	xargs chown nobody:nogroup <"$T/names"
}

# fowner_event: the first_use line of $TOUCH's CAP_FOWNER
fowner_event() {
	[ -s "$T/ev.jsonl" ] && jq -c --arg e "$TOUCH" \
		'select(.kind == "first_use" and .program.exe == $e and .cap == "CAP_FOWNER")' \
		"$T/ev.jsonl" | grep .
}

# fowner_line FILE: the checkpoint's check line of $TOUCH's CAP_FOWNER
fowner_line() {
	jq -c -s --arg e "$TOUCH" '
		(map(select(.type == "process" and .exe == $e)) | map(.pid)) as $p
		| .[] | select(.type == "check" and .cap_name == "CAP_FOWNER"
			       and (.pid as $x | $p | index($x)))' "$1" 2>/dev/null
}

# checkpoint_counts N: the checkpoint holds N checks of $TOUCH's CAP_FOWNER
checkpoint_counts() {
	cp "$T/mon.jsonl" "$T/ck.jsonl" 2>/dev/null &&
		[ "$(fowner_line "$T/ck.jsonl" | jq -s 'map(.count) | add')" = "$1" ]
}

metric_counts_files() {
	grep -q '^capaudit_check_objects_total{kind="file"} [1-9]' "$T/m.prom" 2>/dev/null
}

@test "monitor objects: the event line, the checkpoint's report and the metric name the file touch -d @0 changed" {
	nobody_files 1
	F=$(cat "$T/names")
	start_monitor --interval 0.5 --events "$T/ev.jsonl" --metrics "$T/m.prom"
	# the file's name comes from the environment, not from the command line
	TARGET=$F sh -c 'exec "$1" -d @0 "$TARGET"' sh "$TOUCH"
	wait_for 5 fowner_event
	line=$(fowner_event | head -1)
	echo "event: $line"
	[ "$(jq -r '.objects[0].kind, .objects[0].path' <<<"$line" | tr '\n' ' ')" = "file $F " ]
	[ "$(jq -r '.objects[0].text' <<<"$line")" = "$F (owner 65534:65534, mode 0644)" ]
	wait_for 10 checkpoint_counts 1
	"$CAPAUDIT" report -i "$T/ck.jsonl" >"$T/report.txt"
	grep -F "about $F (owner 65534:65534, mode 0644)" "$T/report.txt"
	wait_for 10 metric_counts_files
	grep '^capaudit_check_objects_total' "$T/m.prom"
	# label values are the kinds only: never a path
	! grep '^capaudit_check_objects_total' "$T/m.prom" | grep -q /
}

@test "monitor objects: 30 files touched keep 4 objects on their row, the checks about the others counted" {
	nobody_files 30
	start_monitor --interval 0.5 --metrics "$T/m.prom"
	# three processes (three kernel keys, one monitor row), ten files each
	for k in 0 1 2; do
		sed -n "$((k * 10 + 1)),$((k * 10 + 10))p" "$T/names" | xargs "$TOUCH" -d @0
	done
	wait_for 10 checkpoint_counts 30
	wait_for 10 metric_counts_files
	# the last checkpoint (SIGINT): every CPU's cached checks folded with
	# their objects' counts (a checkpoint mid-run counts a key's last
	# check, still in its CPU's cache, without them)
	kill -INT "$MPID"
	wait "$MPID"
	MPID=
	cp "$T/mon.jsonl" "$T/ck.jsonl"
	line=$(fowner_line "$T/ck.jsonl" | head -1)
	echo "check line: $line"
	[ "$(fowner_line "$T/ck.jsonl" | wc -l)" -eq 1 ]
	[ "$(jq '.objects | length' <<<"$line")" -eq 4 ]
	# every object one of the files; counts and objects_more add up to the checks
	jq -r '.objects[].path' <<<"$line" | while read -r p; do grep -qxF "$p" "$T/names"; done
	# (less at most one per kernel key: the check its slot held at the end
	# is counted without its object, in a record of the same run too)
	listed=$(jq '(.objects | map(.count) | add) + .objects_more' <<<"$line")
	[ "$listed" -ge 27 ] && [ "$listed" -le 30 ]
	[ "$(jq '.objects_more' <<<"$line")" -ge 23 ]
	# the metric says so: unlisted counts them
	[ "$(awk '/^capaudit_check_objects_total\{kind="unlisted"\}/ { print $2 }' "$T/m.prom")" -ge 1 ]
}
