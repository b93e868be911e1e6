#!/usr/bin/env bats
# The README's quick start, run as it is written (tests/e2e/transcript.py
# reads its block): each "$ " command in an empty directory, capaudit
# found on PATH as the README calls it, standard output and error together
# as a terminal shows them; what they print must be what the README shows,
# lines left out where it says "...", pids, times and the directory aside.
# A newcomer copies these lines first: when capaudit's output changes, this
# test fails until the README shows the new output.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

TRANSCRIPT=$BATS_TEST_DIRNAME/transcript.py

setup() {
	e2e_setup
	mkdir "$T/qs"
	cd "$T/qs"
}

teardown() {
	e2e_teardown
}

# run_transcript FILE: each command of FILE (one a line) in the current
# directory, its "$ " line then its output, into $T/run
run_transcript() {
	local cmd
	while IFS= read -r cmd; do
		printf '$ %s\n' "$cmd"
		PATH=$(dirname "$CAPAUDIT"):$PATH bash -c "$cmd" 2>&1 ||
			{ echo "exit status $? of: $cmd" >&2; return 1; }
	done <"$1" >"$T/run"
}

@test "quickstart: the README's commands print what the README shows" {
	python3 "$TRANSCRIPT" extract "$ROOT/README.md" >"$T/expected"
	python3 "$TRANSCRIPT" commands "$ROOT/README.md" >"$T/commands"
	# the path the README walks: record, report --suggest, --emit, verify
	grep -q '^capaudit record -- ' "$T/commands"
	grep -qx 'capaudit report --suggest' "$T/commands"
	grep -q '^capaudit report --emit ' "$T/commands"
	grep -q '^capaudit verify -- ' "$T/commands"
	run_transcript "$T/commands"
	TRANSCRIPT_DIR=$T/qs run python3 "$TRANSCRIPT" match "$T/expected" "$T/run"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# the file the README's record made, and the owner verify left it with
	[ -s capaudit-record.jsonl ]
	[ "$(stat -c %U app.conf)" = nobody ]
}

@test "quickstart: a run that differs from the README is caught (the comparison can fail)" {
	python3 "$TRANSCRIPT" extract "$ROOT/README.md" >"$T/expected"
	# the README's block with its answer changed: CAP_CHOWN becomes CAP_FOWNER
	sed 's/^Proven set: CAP_CHOWN$/Proven set: CAP_FOWNER/' "$T/expected" >"$T/wrong"
	run ! cmp -s "$T/expected" "$T/wrong"
	# a run is the block itself with its "..." filled in: made from the README
	# (no recording needed), it matches; the changed block does not
	sed 's/^\.\.\.$/(a line the README leaves out)/; s/\.\.\./filled/g' "$T/expected" >"$T/run"
	python3 "$TRANSCRIPT" match "$T/expected" "$T/run"
	run python3 "$TRANSCRIPT" match "$T/wrong" "$T/run"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no line of it matches 'Proven set: CAP_FOWNER'"* ]]
	# a line the README shows missing from the run
	grep -vx 'CapabilityBoundingSet=CAP_CHOWN' "$T/run" >"$T/short"
	run python3 "$TRANSCRIPT" match "$T/expected" "$T/short"
	[ "$status" -eq 1 ]
	[[ "$output" == *"CapabilityBoundingSet=CAP_CHOWN"* ]]
	# pids and times are not the answer: another pid still matches
	printf '$ x\n  pid 10370 chown: 2026-12-05T15:22:50.434864Z (0.87 s)\n' >"$T/e"
	printf '$ x\n  pid 4 chown: 2027-01-01T00:00:00.1Z (12.5 s)\n' >"$T/a"
	python3 "$TRANSCRIPT" match "$T/e" "$T/a"
}
