#!/bin/bash
# Run every test (C unit tests, the fuzz corpus replay, bats end-to-end
# tests), first against the plain build, then against the ASan+UBSan one,
# and the kernel matrix (tools/vmtest.sh) once;
# show their TAP and end with one line: "N passed, N failed, N skipped".
# Exit non-zero when anything failed, a runner crashed, or no test passed.
set -u
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
ASAN_BUILD=${ASAN_BUILD:-build-asan}
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

# run_build DIR LABEL: every suite against the binaries in DIR
run_build() {
	local dir=$1 label=$2 rc
	echo "# ==== $label ($dir) ===="
	echo "# unit tests"
	"$dir/unit-tests" --fixtures tests/fixtures >"$tmp/unit" 2>&1
	count_tap unit $? <"$tmp/unit"

	echo "# fuzz corpus replay (tests/fuzz/corpus through the fuzz targets)"
	"$dir/fuzz-replay" tests/fuzz/corpus >"$tmp/fuzz" 2>"$tmp/fuzz.err"
	rc=$?
	# the input being replayed when it died, and the sanitizer's report
	[ "$rc" -ne 0 ] && tail -n 40 "$tmp/fuzz.err" | sed 's/^/# /' >>"$tmp/fuzz"
	count_tap fuzz-replay $rc <"$tmp/fuzz"

	echo "# end-to-end tests (bats, real kernel)"
	CAPAUDIT=$PWD/$dir/capaudit bats --tap tests/e2e >"$tmp/e2e" 2>&1
	count_tap e2e $? <"$tmp/e2e"
}

# The structure first: includes run down the layers (tools/check-layers.sh).
echo "# layers (make check-layers)"
if tools/check-layers.sh >"$tmp/layers" 2>&1; then
	printf '1..1\nok 1 - every include runs down the layers of user/\n' >"$tmp/layers.tap"
else
	{ printf '1..1\nnot ok 1 - every include runs down the layers of user/\n'
	  sed 's/^/# /' "$tmp/layers"; } >"$tmp/layers.tap"
fi
count_tap layers 0 <"$tmp/layers.tap"

# The plain build, then (unless SANITIZE=0) the same tests against the
# AddressSanitizer + UndefinedBehaviorSanitizer build: a leak, an overflow
# or undefined behaviour anywhere fails the run.
run_build "$BUILD" "plain build"

# The kernel matrix, once (it tests the kernel side, not the sanitizers):
# Debian's 6.1 and 6.12, amd64 and arm64, under qemu and the host, every
# attach mode. It skips, with its reason, where qemu or the kernels cannot
# be had.
echo "# kernel matrix (tools/vmtest.sh)"
BUILD=$BUILD tools/vmtest.sh >"$tmp/vm" 2>&1
count_tap vmtest $? <"$tmp/vm"
if [ "${SANITIZE:-1}" != 0 ]; then
	export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=86}
	export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
	run_build "$ASAN_BUILD" "ASan+UBSan build"
else
	echo "# SANITIZE=0: the ASan+UBSan pass was not run"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
