#!/bin/bash
# The test runner of make check and make test: C unit tests, the fuzz corpus
# replay, the bats end-to-end files, and (make test) the kernel matrix and
# an AddressSanitizer + UndefinedBehaviorSanitizer pass. It shows every
# runner's TAP, each file's time, the tier's time, and ends with one line:
# "N passed, N failed, N skipped". Exit non-zero when anything failed, a
# runner crashed, or no test passed.
#
#   tools/run-tests.sh check [-t NAME]...   # make check: minutes, no root needed
#   tools/run-tests.sh test  [-t NAME]...   # make test: everything
#
# -t NAME runs only the parts whose name contains NAME (unit, fuzz, a bats
# file such as monitor.bats, vmtest, asan), as the kernel selftests' -t.
#
# Which bats files run where: each file says so in a "# tier:" line near
# its top (none means root).
#   check  needs no root, no kernel and no waiting (record files, options,
#          documents): make check, and both passes of make test
#   root   records on the real kernel as root: both passes of make test
#   scoped root, and it records only processes it starts (-- COMMAND, -p of
#          its own, run, verify), changes no setting of the whole host, and
#          asks for no pid a fork could take: its ASan pass runs in lane 2,
#          beside lane 1, as the standards ask of every test (pass on a
#          host where other work runs)
#   plain  the plain pass of make test only, for the reason its line gives
#          (a soak, packaging, real containers): run once, where it means
#          the most
#   scoped-once  scoped, and run once (the plain pass only, as plain):
#          long files of real programs, run in lane 2 after the matrix
# A test inside a file may still leave the ASan pass to the plain one
# (helper.bash plain_pass_only: a skip that says why).
#
# make test runs two lanes at once on the host:
#   lane 1: the plain pass (unit, fuzz replay, every bats file), then the
#           ASan pass's root files, one file after the other;
#   lane 2: the kernel matrix (tools/vmtest.sh: qemu guests, whose CPU the
#           first lane's waits leave idle), then the plain pass of the
#           scoped-once files (they see only their own processes), then
#           the ASan pass's unit
#           tests, fuzz replay and check files (record files only: nothing
#           of the host is shared with lane 1), then its scoped files (their
#           recordings see only their own processes; lane 1's whole-system
#           recordings see theirs as the unrelated work any host has).
# Settings that are the whole host's are taken in turns by the tests that
# change them (helper.bash host_lock, the matrix's host run).
set -u
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
ASAN_BUILD=${ASAN_BUILD:-build-asan}
SANITIZE=${SANITIZE:-1}
tier=${1:-}
case $tier in
check | test) shift ;;
*) echo "usage: tools/run-tests.sh check|test [-t NAME]..." >&2; exit 2 ;;
esac
filters=()
while [ $# -gt 0 ]; do
	case $1 in
	-t) [ $# -ge 2 ] || { echo "run-tests: -t needs a NAME" >&2; exit 2; }
	    filters+=("$2"); shift 2 ;;
	*) echo "run-tests: unknown argument '$1'" >&2; exit 2 ;;
	esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t_start=$(date +%s)
sections=()   # in the order they are counted

# wanted NAME: NAME is asked for by -t (or no -t was given)
wanted() {
	local f
	[ ${#filters[@]} -eq 0 ] && return 0
	for f in "${filters[@]}"; do [[ "$1" == *"$f"* ]] && return 0; done
	return 1
}

# tier_of FILE: check, root or plain (its "# tier:" line; root without one)
tier_of() {
	local t
	t=$(sed -n '1,12s/^# tier: \([a-z-]*\).*/\1/p' "$1" | head -n 1)
	echo "${t:-root}"
}

# section ID TITLE COMMAND...: run COMMAND, its TAP (stdout and stderr) into
# $tmp/ID.tap, its status and time beside it; then show it whole, under a
# lock (two lanes write to one terminal)
section() {
	local id=$1 title=$2 t0 rc
	shift 2
	t0=$(date +%s)
	"$@" >"$tmp/$id.tap" 2>&1
	rc=$?
	echo "$rc" >"$tmp/$id.rc"
	echo "$title" >"$tmp/$id.title"
	echo $(($(date +%s) - t0)) >"$tmp/$id.time"
	{
		flock 9
		echo "# ==== $title ($(cat "$tmp/$id.time") s) ===="
		cat "$tmp/$id.tap"
	} 9>"$tmp/out.lock"
}

# The runners each section runs. A sanitizer's report goes with the TAP.
run_unit() { "$1/unit-tests" --fixtures tests/fixtures; }
run_fuzz() {
	local rc
	"$1/fuzz-replay" tests/fuzz/corpus 2>"$tmp/fuzz-$2.err"
	rc=$?
	# the input being replayed when it died, and the sanitizer's report
	[ "$rc" -ne 0 ] && tail -n 40 "$tmp/fuzz-$2.err" | sed 's/^/# /'
	return "$rc"
}
run_bats() { CAPAUDIT=$PWD/$1/capaudit CAPAUDIT_PASS=$2 bats --tap --timing "$3"; }
run_layers() {
	if tools/check-layers.sh >"$tmp/layers" 2>&1; then
		printf '1..1\nok 1 - every include runs down the layers of user/\n'
	else
		printf '1..1\nnot ok 1 - every include runs down the layers of user/\n'
		sed 's/^/# /' "$tmp/layers"
	fi
}

# add ID TITLE COMMAND...: a section, if -t asks for it
add() {
	wanted "$2" || return 0
	sections+=("$1")
	section "$@"
}

# pass DIR LABEL TIERS...: unit tests, fuzz replay and the bats files of
# TIERS against the binaries in DIR (LABEL: plain or asan)
pass() {
	local dir=$1 label=$2 f n
	shift 2
	# the ASan root files follow the plain pass; the scoped-once files
	# follow the matrix
	if [ "$*" != root ] && [ "$*" != scoped-once ]; then
		add "$label-unit" "$label: unit tests" run_unit "$dir"
		add "$label-fuzz" "$label: fuzz corpus replay" run_fuzz "$dir" "$label"
	fi
	for f in tests/e2e/*.bats; do
		n=$(basename "$f")
		[[ " $* " == *" $(tier_of "$f") "* ]] || continue
		add "$label-$n" "$label: $n" run_bats "$dir" "$label" "$f"
	done
}

add layers "layers (make check-layers)" run_layers
if [ "$tier" = check ]; then
	pass "$BUILD" plain check
else
	export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:exitcode=86}
	export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
	# lane 2, in the background: the matrix, then the ASan pass's check
	# files. Its sections are counted after lane 1's (their ids are known
	# in advance: listed in $tmp/lane2).
	(
		sections=()
		add vmtest "kernel matrix (tools/vmtest.sh)" env BUILD="$BUILD" tools/vmtest.sh
		pass "$BUILD" plain scoped-once
		[ "$SANITIZE" != 0 ] && pass "$ASAN_BUILD" asan check scoped
		# (none when T= selects none of them: an empty line would be
		# counted as a section that never ran)
		[ "${#sections[@]}" -eq 0 ] || printf '%s\n' "${sections[@]}" >"$tmp/lane2"
	) &
	lane2=$!
	# lane 1
	pass "$BUILD" plain check root scoped plain
	[ "$SANITIZE" != 0 ] && pass "$ASAN_BUILD" asan root
	wait "$lane2"
	[ -s "$tmp/lane2" ] && mapfile -t -O "${#sections[@]}" sections <"$tmp/lane2"
	[ "$SANITIZE" = 0 ] && echo "# SANITIZE=0: the ASan+UBSan pass was not run"
fi

# count ID: add a section's TAP results to the totals; a runner that
# reports fewer results than its plan, or exits non-zero without a failing
# test, counts as one failure more
passed=0 failed=0 skipped=0
count() {
	local id=$1 rc plan=0 seen=0 nf=0 line
	rc=$(cat "$tmp/$id.rc" 2>/dev/null || echo 1)
	while IFS= read -r line; do
		case "$line" in
		1..*) plan=${line#1..} ;;
		"not ok "*) failed=$((failed + 1)); seen=$((seen + 1)); nf=$((nf + 1)) ;;
		"ok "*"# skip"* | "ok "*"# SKIP"*) skipped=$((skipped + 1)); seen=$((seen + 1)) ;;
		"ok "*) passed=$((passed + 1)); seen=$((seen + 1)) ;;
		esac
	done <"$tmp/$id.tap"
	if [ "$seen" -lt "$plan" ]; then
		echo "# $(cat "$tmp/$id.title"): $((plan - seen)) planned tests did not report (runner died?)"
		failed=$((failed + plan - seen))
	elif [ "$rc" -ne 0 ] && [ "$nf" -eq 0 ]; then
		echo "# $(cat "$tmp/$id.title"): runner exited $rc without a failing test"
		failed=$((failed + 1))
	fi
}
for id in "${sections[@]}"; do count "$id"; done

# the slowest parts, then the tier's time
echo "# slowest parts:"
for id in "${sections[@]}"; do
	printf '%s\t%s\n' "$(cat "$tmp/$id.time")" "$(cat "$tmp/$id.title")"
done | sort -rn | head -n 8 | awk -F'\t' '{ printf "#   %5d s  %s\n", $1, $2 }'
echo "# make $tier: tests took $(($(date +%s) - t_start)) s${CAPAUDIT_T0:+, $(($(date +%s) - CAPAUDIT_T0)) s with the build}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
