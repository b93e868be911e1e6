#!/usr/bin/env bats
# tier: check (record files only: no root, no kernel, no waiting)
# Hostile and damaged record files: each is one "capaudit: FILE:LINE: why"
# line on stderr and exit 2 (report and check alike), never a crash; with
# --lenient, what is valid is reported and what was left out is said.
# No kernel needed: these run without root.

load helper

GOOD="$ROOT/tests/fixtures/kernel-5.4-clone3.jsonl"

setup() {
	[ -x "$CAPAUDIT" ] || skip "build/capaudit is not built (run make)"
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/capaudit-in.XXXXXX")
}

# bad FILE MESSAGE: report and check both refuse FILE with exactly
# "capaudit: FILE:MESSAGE" on stderr, nothing on stdout, exit 2
bad() {
	local f=$1 msg=$2
	run --separate-stderr "$CAPAUDIT" report -i "$f"
	[ "$status" -eq 2 ] || { echo "report exit $status for $f"; return 1; }
	[ -z "$output" ] || { echo "stdout: $output"; return 1; }
	[ "${#stderr_lines[@]}" -eq 1 ] || { echo "stderr: $stderr"; return 1; }
	[ "$stderr" = "capaudit: $f:$msg" ] || { echo "got:  $stderr"; echo "want: capaudit: $f:$msg"; return 1; }
	run --separate-stderr "$CAPAUDIT" check --baseline "$ROOT/examples/ci/capaudit-baseline.json" "$f"
	[ "$status" -eq 2 ] || { echo "check exit $status for $f"; return 1; }
	[ "$stderr" = "capaudit: $f:$msg" ] || { echo "check: $stderr"; return 1; }
}

@test "the fixture itself is valid (the cases below damage it one way each)" {
	run "$CAPAUDIT" report -i "$GOOD"
	[ "$status" -eq 0 ]
	[[ "$output" == *"CAP_SYS_ADMIN"* ]]
}

@test "truncated files: empty, cut mid-line, cut at a line end, header without newline" {
	: >"$T/empty"
	bad "$T/empty" "1: empty file: no record header"
	head -c 700 "$GOOD" >"$T/cut"
	bad "$T/cut" "3: invalid JSON: unclosed string"
	head -n 9 "$GOOD" >"$T/cut9"
	bad "$T/cut9" "9: truncated: the file ends without its end line (recording cut short, or the file was cut)"
	head -n 1 "$GOOD" | tr -d '\n' >"$T/nonl"
	bad "$T/nonl" "1: truncated: the file ends without its end line (recording cut short, or the file was cut)"
	# the last newline alone missing is fine
	head -c -1 "$GOOD" >"$T/nolastnl"
	run "$CAPAUDIT" report -i "$T/nolastnl"
	[ "$status" -eq 0 ]
}

@test "binary junk, NUL bytes, a BOM, CR line ends, a directory" {
	printf '\x00\x01\x02binary' >"$T/bin"
	bad "$T/bin" "1: NUL byte: not a text record file"
	head -c 4096 /dev/urandom | tr -d '\n\0' >"$T/rand"
	echo >>"$T/rand"
	run --separate-stderr "$CAPAUDIT" report -i "$T/rand"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "capaudit: $T/rand:1: "* ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	{ printf '\xef\xbb\xbf'; cat "$GOOD"; } >"$T/bom"
	bad "$T/bom" "1: invalid JSON: unexpected token"
	tr '\n' '\r' <"$GOOD" >"$T/cr"
	bad "$T/cr" "1: invalid JSON: trailing characters after the object (one JSON object per line)"
	mkdir "$T/dir"
	bad "$T/dir" " is a directory, not a file to read"
}

@test "another format, a newer version, a second header, an unknown line type" {
	sed 's/"capaudit-record"/"something-else"/' "$GOOD" >"$T/fmt"
	bad "$T/fmt" "1: format is 'something-else', not a capaudit record ('capaudit-record')"
	# the version this capaudit writes and reads, from its source
	v=$(awk '$2 == "REC_VERSION" { print $3 }' "$ROOT/user/recfile/recfile.h")
	sed "s/\"version\":[0-9]*/\"version\":$((v + 1))/" "$GOOD" >"$T/ver"
	bad "$T/ver" "1: record version $((v + 1)) is newer than this capaudit reads ($v)"
	{ cat "$GOOD" | head -n 1; cat "$GOOD"; } >"$T/hdr2"
	bad "$T/hdr2" "2: a second header"
	sed '2s/"process"/"\\u001b[2J"/' "$GOOD" >"$T/type"
	bad "$T/type" "2: unknown line type '\\x1b[2J'"
}

@test "duplicated and out-of-order lines" {
	{ head -n 8 "$GOOD"; sed -n 8p "$GOOD"; sed -n '9,$p' "$GOOD"; } >"$T/dup"
	bad "$T/dup" "9: the same check as line 8 (pid, image, capability, verdict, stack and syscall): it would be counted twice"
	{ head -n 6 "$GOOD"; sed -n 3p "$GOOD"; sed -n '7,$p' "$GOOD"; } >"$T/stackdup"
	bad "$T/stackdup" "7: stack id 0 out of order (expected 4)"
	{ head -n 1 "$GOOD"; sed -n 7p "$GOOD"; sed -n '2,6p;8,$p' "$GOOD"; } >"$T/early"
	bad "$T/early" "2: stack 0 is not defined before this line"
	{ head -n 6 "$GOOD"; sed -n '8,$p' "$GOOD"; } >"$T/lost"
	bad "$T/lost" "10: the end line counts 1 process, 4 stacks, 4 checks; the file holds 1, 4, 3"
	{ cat "$GOOD"; sed -n 7p "$GOOD"; } >"$T/after"
	bad "$T/after" "12: a line after the end line"
}

@test "numbers out of range, wrong types, duplicate keys" {
	sed '7s/"cap":21/"cap":9999/' "$GOOD" >"$T/cap"
	bad "$T/cap" "7: field 'cap' is 9999, outside 0..63"
	sed '7s/"count":2/"count":-5/' "$GOOD" >"$T/neg"
	bad "$T/neg" "7: field 'count' is -5, outside 1..9223372036854775807"
	sed '7s/"count":2/"count":99999999999999999999999/' "$GOOD" >"$T/big"
	bad "$T/big" "7: field 'count' is out of range 1..9223372036854775807"
	sed '7s/"count":2/"count":1e999/' "$GOOD" >"$T/inf"
	bad "$T/inf" "7: field 'count' must be an integer"
	sed '7s/"cap":21/"cap":"21"/' "$GOOD" >"$T/str"
	bad "$T/str" "7: field 'cap' must be an integer"
	sed '$s/"checks":4/"checks":4,"checks":5/' "$GOOD" >"$T/dupkey"
	bad "$T/dupkey" "11: duplicate field 'checks'"
	sed '1s/"end_ns":[0-9]*/"end_ns":-1/' "$GOOD" >"$T/endns"
	bad "$T/endns" "1: field 'end_ns' is -1, outside 0..9223372036854775807"
}

@test "huge lines and deep nesting are refused without eating memory" {
	{ head -n 1 "$GOOD"
	  printf '{"type":"process","pid":1,"comm":"'; head -c 20000000 /dev/zero | tr '\0' a; echo '"}'
	  sed -n '2,$p' "$GOOD"; } >"$T/huge"
	bad "$T/huge" "2: line is longer than 1048576 bytes"
	{ head -n 1 "$GOOD"; printf '%0.s[' $(seq 50000); printf '%0.s]' $(seq 50000); echo
	  sed -n '2,$p' "$GOOD"; } >"$T/deep"
	bad "$T/deep" "2: a line must be a JSON object"
}

@test "invalid UTF-8, NUL and lone surrogates in strings are errors; control bytes stay escaped" {
	sed '2s/"criu"/"cr\xffiu"/' "$GOOD" >"$T/utf"
	bad "$T/utf" "2: invalid JSON: invalid UTF-8"
	sed '2s/"criu"/"cr\x01iu"/' "$GOOD" >"$T/raw"
	bad "$T/raw" "2: invalid JSON: Within strings, some characters must be escaped, we found unescaped characters"
	sed '2s/"criu"/"cr\\u0000iu"/' "$GOOD" >"$T/nul"
	bad "$T/nul" "2: field 'comm' contains a NUL character"
	sed '2s/"criu"/"cr\\ud800iu"/' "$GOOD" >"$T/sur"
	bad "$T/sur" "2: field 'comm' has a bad escape sequence"
	# escaped control bytes are valid JSON: read, and printed harmlessly
	sed '2s/"criu"/"\\u001b]0;pwned\\u0007\\u001b[2J"/' "$GOOD" >"$T/esc"
	run "$CAPAUDIT" report -i "$T/esc"
	[ "$status" -eq 0 ]
	[[ "$output" == *'PID 4242 \x1b]0;pwned\x07\x1b[2J'* ]]
	[[ "$output" != *$'\e'* ]]
	run "$CAPAUDIT" report -i "$T/esc" --format json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -r '.processes[0].comm')" = $'\e]0;pwned\a\e[2J' ]
	! LC_ALL=C grep -q '[^[:print:]]' <<<"$output"
}

@test "JSON mode: errors keep stdout a JSON object" {
	sed '7s/"cap":21/"cap":9999/' "$GOOD" >"$T/cap"
	run --separate-stderr "$CAPAUDIT" report -i "$T/cap" --format json
	[ "$status" -eq 2 ]
	[ "$(echo "$output" | jq -r .error)" = "$T/cap:7: field 'cap' is 9999, outside 0..63" ]
}

# json_err EXPECTED CMD...: exit 2, stdout one JSON object whose error is
# EXPECTED, stderr the same as one "capaudit: " line
json_err() {
	local want=$1
	shift
	run --separate-stderr "$CAPAUDIT" "$@"
	[ "$status" -eq 2 ] || { echo "exit $status: $*"; return 1; }
	[ "$(echo "$output" | jq -r .error)" = "$want" ] || { echo "stdout: $output"; return 1; }
	[ "$stderr" = "capaudit: $want" ] || { echo "stderr: $stderr"; return 1; }
}

@test "JSON mode is decided before any option is read: an error given before --format json is JSON" {
	json_err "unknown --by 'bogus' (process, program, container, unit, cgroup, user-site)" \
		report --by bogus --format json "$GOOD"
	json_err "--pid x: 'x' is not a pid (a number from 1)" report --pid x -f json "$GOOD"
	json_err "invalid --match 'bogus': capability, syscall or callsite" check --match bogus -fjson "$GOOD"
	json_err "unknown capability 'bogus' in --caps bogus" run --caps bogus --format=json -- true
	json_err "--max-runs 'x': a number from 2 to 1000" verify --max-runs x -f json -- true
	json_err "diff compares two records: capaudit diff OLD NEW (1 given)" diff --format json "$GOOD"
	# the last --format counts; the audited command's own are not capaudit's
	run --separate-stderr "$CAPAUDIT" report --format json --by bogus --format text "$GOOD"
	[ "$status" -eq 2 ] && [ -z "$output" ]
	run --separate-stderr "$CAPAUDIT" run --caps bogus -- printf %s --format json
	[ "$status" -eq 2 ] && [ -z "$output" ]
	[ "$stderr" = "capaudit: unknown capability 'bogus' in --caps bogus" ]
}

@test "UTF-8 names are shown as they are, in text, html and the setcap line; what could act on a terminal is escaped" {
	# /usr/sbin/criu moved to /opt/josé/日本/criu🐧, named "crïu"; a second
	# copy with a right-to-left override and a C1 CSI in its path
	sed -e 's|"/usr/sbin/criu"|"/opt/jos\\u00e9/\\u65e5\\u672c/criu\\ud83d\\udc27"|' \
	    -e 's|"comm":"criu"|"comm":"cr\\u00efu"|' "$GOOD" >"$T/u8"
	run --separate-stderr "$CAPAUDIT" report "$T/u8"
	[ "$status" -eq 0 ]
	[[ "$output" == *"PID 4242 crïu  /opt/josé/日本/criu🐧  (ppid 1"* ]]
	run --separate-stderr "$CAPAUDIT" report --emit setcap "$T/u8"
	[ "$output" = "setcap cap_sys_admin,cap_checkpoint_restore+ep '/opt/josé/日本/criu🐧'" ]
	"$CAPAUDIT" report --format html "$T/u8" >"$T/u8.html"
	grep -qF '<td>crïu</td>' "$T/u8.html" || grep -qF 'crïu' "$T/u8.html"
	grep -qF '/opt/josé/日本/criu🐧' "$T/u8.html"
	sed -e 's|"/usr/sbin/criu"|"/opt/a\\u202eb\\u0080\\u009b31m"|' "$GOOD" >"$T/bidi"
	run --separate-stderr "$CAPAUDIT" report "$T/bidi"
	[[ "$output" == *' /opt/a\xe2\x80\xaeb\xc2\x80\xc2\x9b31m  (ppid 1'* ]]
	"$CAPAUDIT" report --format html "$T/bidi" | grep -qF '/opt/a\xe2\x80\xaeb\xc2\x80\xc2\x9b31m'
}

@test "--lenient: a damaged file reports what is valid and says what was skipped" {
	# line 4 (stack 1) broken: its check (line 8) keeps its count, with an
	# empty stack standing in; line 9 (capability 9999) is left out
	{ head -n 3 "$GOOD"; sed -n 4p "$GOOD" | head -c 60; echo
	  sed -n '5,8p' "$GOOD"; sed '9s/"cap":21/"cap":9999/' "$GOOD" | sed -n 9p
	  sed -n '10,$p' "$GOOD"; } >"$T/dmg"
	bad "$T/dmg" "4: invalid JSON: unclosed string"
	run --separate-stderr "$CAPAUDIT" report -i "$T/dmg" --lenient --format json
	[ "$status" -eq 0 ]
	[ "$stderr" = "capaudit: warning: $T/dmg: --lenient: skipped 2 of 11 lines (first: $T/dmg:4: invalid JSON: unclosed string)" ]
	echo "$output" >"$T/rep.json"
	[ "$(jqr '.record.lenient | "\(.lines) \(.skipped) \(.missing) \(.truncated)"')" = "11 2 0 false" ]
	# the pid_ns_ctl_handler check (stack 1, line 8) kept its count
	[ "$(jqr '[.processes[0].capabilities[] | select(.cap=="CAP_SYS_ADMIN" and .noaudit==false) | .granted] | add')" = "3" ]
	# text says so at the top
	run --separate-stderr "$CAPAUDIT" report -i "$T/dmg" --lenient
	[[ "${lines[4]}" == "  INCOMPLETE (--lenient): 2 of 11 lines skipped, 0 missing" ]]
}

@test "--lenient: a cut file and lost lines are named; check --lenient still decides" {
	head -n 9 "$GOOD" >"$T/cut"
	run --separate-stderr "$CAPAUDIT" report -i "$T/cut" --lenient
	[ "$status" -eq 0 ]
	[ "$stderr" = "capaudit: warning: $T/cut: --lenient: skipped 0 of 9 lines; no end line: the file was cut, counts may be short" ]
	[[ "$output" == *"INCOMPLETE (--lenient): 0 of 9 lines skipped, 0 missing, no end line (file cut)"* ]]
	{ head -n 6 "$GOOD"; sed -n '8,$p' "$GOOD"; } >"$T/lost"
	run --separate-stderr "$CAPAUDIT" report -i "$T/lost" --lenient
	[ "$status" -eq 0 ]
	[ "$stderr" = "capaudit: warning: $T/lost: --lenient: skipped 0 of 10 lines; 1 line the recorder wrote is missing" ]
	# check: the baseline allows CAP_SYS_ADMIN (written from the good file)
	run "$CAPAUDIT" check --baseline "$T/base.json" --update "$GOOD"
	[ "$status" -eq 0 ]
	run --separate-stderr "$CAPAUDIT" check --baseline "$T/base.json" --lenient "$T/lost"
	[ "$status" -eq 0 ]
	[[ "$stderr" == "capaudit: warning: $T/lost: --lenient: skipped 0 of 10 lines;"* ]]
	# a file without a header is never usable
	tail -n +2 "$GOOD" >"$T/nohdr"
	run "$CAPAUDIT" report -i "$T/nohdr" --lenient
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: $T/nohdr:1: first line must be the header, found type 'process'" ]
}

@test "every record string a text output shows is escaped: control and bidi characters in every header and process field, through report, diff, check and --emit" {
	command -v python3 >/dev/null || skip "python3 is not installed"
	run python3 "$ROOT/tests/e2e/hostile-fields.py" "$CAPAUDIT" \
		"$ROOT/tests/fixtures/kernels/6.18-chown.jsonl" "$ROOT/examples/ci/capaudit-baseline.json" "$T"
	echo "$output"
	[ "$status" -eq 0 ]
	# the header's attach and scope among them (they were shown raw)
	[[ "${lines[0]}" == *"header.attach header.scope"* ]]
	[ "$(grep -c '^ok ' <<<"$output")" -eq 16 ]
}

@test "ptrace_access (targets reached without a CAP_SYS_PTRACE check): read, used, and refused when damaged" {
	sed '2s/"exit_code":0}/"exit_code":0,"ptrace_access":{"targets":1,"unknown":0,"permitted":["CAP_SYS_ADMIN","CAP_NET_RAW"],"example":{"pid":9,"comm":"victim","via":"ptrace"}}}/' \
		"$GOOD" >"$T/pt"
	run "$CAPAUDIT" report --suggest --format json -i "$T/pt"
	[ "$status" -eq 0 ]
	[ "$(jq -r '.required | join(",")' <<<"$output")" = CAP_SYS_PTRACE,CAP_SYS_ADMIN,CAP_CHECKPOINT_RESTORE ]
	[ "$(jq -r '.ptrace_shortcut | "\(.needs_sys_ptrace) \(.example.comm) \(.example.via)"' <<<"$output")" = "true victim ptrace" ]
	run "$CAPAUDIT" report --suggest -i "$T/pt"
	[[ "$output" == *"it lacks 1 of them: CAP_NET_RAW"* ]]
	[[ "$output" == *"for example criu reached victim (pid 9) by ptrace"* ]]
	# a target whose set the workload's covers: nothing added
	sed 's/,"CAP_NET_RAW"//' "$T/pt" >"$T/covered"
	run "$CAPAUDIT" report --suggest --format json -i "$T/covered"
	[ "$(jq -r '.required | join(",")' <<<"$output")" = CAP_SYS_ADMIN,CAP_CHECKPOINT_RESTORE ]
	sed 's/"targets":1/"targets":-1/' "$T/pt" >"$T/neg"
	bad "$T/neg" "2: field 'targets' is -1, outside 0..4294967295"
	sed 's/,"permitted":\[[^]]*\]//' "$T/pt" >"$T/noperm"
	bad "$T/noperm" "2: missing field 'permitted'"
	sed 's/"via":"ptrace"/"via":7/' "$T/pt" >"$T/via"
	bad "$T/via" "2: field 'via' must be a string"
}

# kind_err EXPECTED CMD...: exit 2, nothing on stdout, stderr exactly
# "capaudit: EXPECTED"
kind_err() {
	local want=$1
	shift
	run --separate-stderr "$CAPAUDIT" "$@"
	[ "$status" -eq 2 ] || { echo "exit $status: $*"; return 1; }
	[ -z "$output" ] || { echo "stdout: $output"; return 1; }
	[ "$stderr" = "capaudit: $want" ] || { echo "got:  $stderr"; echo "want: capaudit: $want"; return 1; }
}

@test "a file of another kind is named for what it is, in one line: a baseline, events, gzip, a record as the baseline" {
	local base="$ROOT/tests/fixtures/baseline-v1.json"
	cp "$base" "$T/capaudit-baseline.json"
	kind_err "$T/capaudit-baseline.json: a baseline, not a record: give it to check: capaudit check --baseline $T/capaudit-baseline.json capaudit-record.jsonl" \
		report "$T/capaudit-baseline.json"
	kind_err "$T/capaudit-baseline.json: a baseline, not a record: give it to check: capaudit check --baseline $T/capaudit-baseline.json capaudit-record.jsonl" \
		check --baseline "$base" "$T/capaudit-baseline.json"
	kind_err "$T/capaudit-baseline.json: a baseline, not a record: give it to check: capaudit check --baseline $T/capaudit-baseline.json capaudit-record.jsonl" \
		diff "$GOOD" "$T/capaudit-baseline.json"
	run --separate-stderr "$CAPAUDIT" report - <"$T/capaudit-baseline.json"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: standard input: a baseline (check --baseline FILE), not a record" ]
	# the JSON mode's error is the same line
	run --separate-stderr "$CAPAUDIT" report --format json "$T/capaudit-baseline.json"
	[ "$(echo "$output" | jq -r .error)" = "$T/capaudit-baseline.json: a baseline, not a record: give it to check: capaudit check --baseline $T/capaudit-baseline.json capaudit-record.jsonl" ]

	gzip -c "$GOOD" >"$T/rec.jsonl.gz"
	kind_err "$T/rec.jsonl.gz: gzip-compressed, not a record: unpack it first: gunzip -k $T/rec.jsonl.gz" \
		report "$T/rec.jsonl.gz"
	cp "$T/rec.jsonl.gz" "$T/rec"
	kind_err "$T/rec: gzip-compressed, not a record: unpack it first: zcat $T/rec > $T/rec.jsonl" \
		check --baseline "$base" "$T/rec"
	gzip -c "$base" >"$T/capaudit-baseline.json.gz"
	kind_err "$T/capaudit-baseline.json.gz: gzip-compressed, not a baseline: unpack it first: gunzip -k $T/capaudit-baseline.json.gz" \
		check --baseline "$T/capaudit-baseline.json.gz" "$GOOD"

	printf '{"ts":1700000000.5,"kind":"first_use","program":{"comm":"ping"},"cap":"CAP_NET_RAW"}\n' >"$T/events.jsonl"
	kind_err "$T/events.jsonl: monitor --events lines, not a record: the monitor's record is its checkpoint (monitor -o FILE)" \
		report "$T/events.jsonl"
	kind_err "$T/events.jsonl: monitor --events lines, not a baseline: the monitor's record is its checkpoint (monitor -o FILE)" \
		check --baseline "$T/events.jsonl" "$GOOD"

	kind_err "$GOOD: a record, not a baseline: a baseline is made from it with capaudit check --baseline capaudit-baseline.json --update $GOOD" \
		check --baseline "$GOOD" "$GOOD"
	sed '1s/"scope":"command"/"scope":"monitor"/' "$GOOD" >"$T/checkpoint.jsonl"
	kind_err "$T/checkpoint.jsonl: a monitor checkpoint (a record), not a baseline: a baseline is made from it with capaudit check --baseline capaudit-baseline.json --update $T/checkpoint.jsonl" \
		check --baseline "$T/checkpoint.jsonl" "$GOOD"
	# a path the shell would split is quoted in the command
	cp "$GOOD" "$T/my record.jsonl"
	kind_err "$T/my record.jsonl: a record, not a baseline: a baseline is made from it with capaudit check --baseline capaudit-baseline.json --update '$T/my record.jsonl'" \
		check --baseline "$T/my record.jsonl" "$GOOD"
	# a record read from a pipe loses no byte to the look at its start
	run "$CAPAUDIT" report - <"$GOOD"
	[ "$status" -eq 0 ]
	[ "$output" = "$("$CAPAUDIT" report "$GOOD" | sed "1s|$GOOD|standard input|")" ]
}

# on_path: a directory where "capaudit" is this build, for running hints
# exactly as printed
on_path() {
	mkdir -p "$T/bin"
	ln -sf "$CAPAUDIT" "$T/bin/capaudit"
}

@test "check's --update hint is a command that works as printed (quoted paths, the records and choices given)" {
	on_path
	cp "$ROOT/tests/fixtures/baseline-v1.json" "$T/my capaudit-baseline.json"
	cp "$GOOD" "$T/rec.jsonl"
	run --separate-stderr "$CAPAUDIT" check --baseline "$T/my capaudit-baseline.json" --program criu "$T/rec.jsonl"
	[ "$status" -eq 1 ]
	local hint=${lines[-1]}
	[ "$hint" = "  if this is intended, accept it (then review the diff and commit it): capaudit check --baseline '$T/my capaudit-baseline.json' --update --program criu $T/rec.jsonl" ]
	hint=${hint#*commit it): }
	run env PATH="$T/bin:$PATH" sh -c "$hint"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "capaudit: updated $T/my capaudit-baseline.json: 2 capabilities, 0 expected denials" ]
	[ "${lines[1]}" = "  added CAP_SYS_ADMIN, in syscall mount at kernel call site path_mount: it lets a program do many administration tasks: mount file systems, set the host name, create namespaces and more" ]
	[ "${lines[3]}" = "  removed CAP_CHOWN: no record used it (its note was: hands the state file to the service user (nobody))" ]
	run "$CAPAUDIT" check --baseline "$T/my capaudit-baseline.json" --program criu "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	# a baseline not there yet: the command that creates it
	run --separate-stderr "$CAPAUDIT" check --baseline "$T/new.json" "$T/rec.jsonl"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: $T/new.json: No such file or directory: create it from the record: capaudit check --baseline $T/new.json --update $T/rec.jsonl" ]
	run env PATH="$T/bin:$PATH" sh -c "${stderr##*: }"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "capaudit: created $T/new.json: 2 capabilities, 0 expected denials" ]
	[ "${#lines[@]}" -eq 3 ]   # and a line for each capability added
	run "$CAPAUDIT" check --baseline "$T/new.json" "$T/rec.jsonl"
	[ "$status" -eq 0 ]
	# the record from a pipe: the hint says to pipe it in again, and does
	run --separate-stderr sh -c "\"$CAPAUDIT\" check --baseline $T/piped.json - < $T/rec.jsonl"
	[ "$status" -eq 2 ]
	[ "$stderr" = "capaudit: $T/piped.json: No such file or directory: create it from the record: capaudit check --baseline $T/piped.json --update - (with the record piped in again)" ]
	hint=${stderr##*: }
	run env PATH="$T/bin:$PATH" sh -c "${hint% (with the record piped in again)} < $T/rec.jsonl"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "capaudit: created $T/piped.json: 2 capabilities, 0 expected denials" ]
	[ "${#lines[@]}" -eq 3 ]   # and a line for each capability added
}

@test "report and check without a record in the directory say how to record one" {
	cd "$T"
	kind_err "capaudit-record.jsonl: no such file: record one first: capaudit record -- COMMAND (or -p PID, -a)" report
	kind_err "capaudit-record.jsonl: no such file: record one first: capaudit record -- COMMAND (or -p PID, -a)" \
		report --suggest
	cp "$ROOT/tests/fixtures/baseline-v1.json" "$T/capaudit-baseline.json"
	kind_err "capaudit-record.jsonl: no such file: record one first: capaudit record -- COMMAND (or -p PID, -a)" \
		check --baseline capaudit-baseline.json
	# a record named is only said missing
	kind_err "nope.jsonl: No such file or directory" report nope.jsonl
	# the hint's record is the one report and check read when none is named
	cp "$GOOD" capaudit-record.jsonl
	run "$CAPAUDIT" report
	[ "$status" -eq 0 ]
}
