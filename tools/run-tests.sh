#!/bin/bash
# Run every test (C unit tests, then bats end-to-end tests), show their TAP,
# and end with one line: "N passed, N failed, N skipped". Exit non-zero when
# anything failed, a runner crashed, or no test passed at all.
set -u
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
passed=0 failed=0 skipped=0

# count_tap NAME < tap: add a runner's TAP results to the totals; a runner
# that reports fewer results than its plan, or exits non-zero without a
# failing test, counts as one failure more.
count_tap() {
	local name=$1 rc=$2 plan=0 seen=0 nf=0 line
	while IFS= read -r line; do
		printf '%s\n' "$line"
		case "$line" in
		1..*) plan=${line#1..} ;;
		"not ok "*) failed=$((failed + 1)); seen=$((seen + 1)); nf=$((nf + 1)) ;;
		"ok "*"# skip"* | "ok "*"# SKIP"*) skipped=$((skipped + 1)); seen=$((seen + 1)) ;;
		"ok "*) passed=$((passed + 1)); seen=$((seen + 1)) ;;
		esac
	done
	if [ "$seen" -lt "$plan" ]; then
		echo "# $name: $((plan - seen)) planned tests did not report (runner died?)"
		failed=$((failed + plan - seen))
	elif [ "$rc" -ne 0 ] && [ "$nf" -eq 0 ]; then
		echo "# $name: runner exited $rc without a failing test"
		failed=$((failed + 1))
	fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "# unit tests"
"$BUILD/unit-tests" --fixtures tests/fixtures >"$tmp/unit" 2>&1
count_tap unit $? <"$tmp/unit"

echo "# end-to-end tests (bats, real kernel)"
bats --tap tests/e2e >"$tmp/e2e" 2>&1
count_tap e2e $? <"$tmp/e2e"

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
