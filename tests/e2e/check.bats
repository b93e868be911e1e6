#!/usr/bin/env bats
# capaudit check (baselines, CI formats) and capaudit run --caps.
# tier: scoped (records only the processes it starts; its ASan pass runs beside lane 1)

load helper

BASE="$ROOT/examples/ci/capaudit-baseline.json"
# what every format says CAP_NET_RAW and CAP_CHOWN let a program do
NET_RAW_WORDS="CAP_NET_RAW lets a program open raw sockets, which send and receive network packets the program builds itself"
CHOWN_WORDS="CAP_CHOWN lets a program change a file's owner and group to any user and group"

# Build and record the CI example's service: v1 (allowed) and v2 (+ raw ICMP).
setup_file() {
	export CI_OUT
	CI_OUT=$(mktemp -d "${BATS_TMPDIR:-/tmp}/capaudit-ci.XXXXXX")
	gcc -O2 -o "$CI_OUT/service" "$BATS_TEST_DIRNAME/../../examples/ci/service.c"
	gcc -O2 -DHEALTH_PINGS -o "$CI_OUT/service-v2" "$BATS_TEST_DIRNAME/../../examples/ci/service.c"
	local ca="$BATS_TEST_DIRNAME/../../build/capaudit"
	"$ca" record -q -o "$CI_OUT/v1.jsonl" -- "$CI_OUT/service" >/dev/null
	"$ca" record -q -o "$CI_OUT/v2.jsonl" -- "$CI_OUT/service-v2" >/dev/null
}

teardown_file() {
	rm -rf "$CI_OUT"
}

@test "check: exit 0 when nothing is new" {
	run "$CAPAUDIT" check --baseline "$BASE" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "OK: nothing new (2 allowed call sites seen)" ]
}

@test "check: exit 1 with a readable diff when a capability appears" {
	run "$CAPAUDIT" check --baseline "$BASE" "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "+ new capability   CAP_NET_RAW at inet_create (socket)" ]
	# what it was about (issue 44): the raw socket v2 opens
	[ "${lines[2]}" = "      about socket AF_INET SOCK_RAW protocol 1" ]
	[ "${lines[3]}" = "      $NET_RAW_WORDS" ]
	[ "${lines[4]}" = "FAIL: 1 finding the baseline does not allow" ]
}

@test "check: exit 2 on usage and input errors" {
	run "$CAPAUDIT" check "$CI_OUT/v1.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == *"check needs --baseline FILE"* ]]
	run "$CAPAUDIT" check --baseline "$BASE" "$T/missing.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == *"$T/missing.jsonl: No such file or directory"* ]]
	run "$CAPAUDIT" check --baseline "$T/none.json" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 2 ]
	# the hint is the command that creates it, as printed
	[ "$output" = "capaudit: $T/none.json: No such file or directory: create it from the record: capaudit check --baseline $T/none.json --update $CI_OUT/v1.jsonl" ]
	run "$CAPAUDIT" check --baseline "$BASE" --format xml "$CI_OUT/v1.jsonl"
	[ "$status" -eq 2 ]
	run "$CAPAUDIT" check --baseline "$BASE" "$ROOT/tests/fixtures/bad-cap.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad-cap.jsonl:3: field 'cap' is 9999"* ]]
}

@test "check: a corrupt baseline is a clear error and stays untouched, even with --update" {
	printf '{"format": "capaudit-baseline",\n  "version": 1,\n  "capabilities": [ {"cap": "CAP_CHOWN",, } ]\n}\n' >"$T/b.json"
	local before
	before=$(sha256sum "$T/b.json")
	run "$CAPAUDIT" check --baseline "$T/b.json" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == "capaudit: $T/b.json:3:"*": invalid JSON: "* ]]
	run "$CAPAUDIT" check --baseline "$T/b.json" --update "$CI_OUT/v1.jsonl"
	[ "$status" -eq 2 ]
	[ "$(sha256sum "$T/b.json")" = "$before" ]
	[ "$(ls "$T")" = "b.json" ]
}

@test "check --update creates, then keeps notes and adds the new capability" {
	run "$CAPAUDIT" check --baseline "$T/new.json" --update "$CI_OUT/v1.jsonl"
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.capabilities[].cap] | join(",")' "$T/new.json")" = "CAP_CHOWN,CAP_NET_BIND_SERVICE" ]
	cp "$BASE" "$T/b.json"
	run "$CAPAUDIT" check --baseline "$T/b.json" --update "$CI_OUT/v2.jsonl"
	[ "$status" -eq 0 ]
	[ "$(jq -r '[.capabilities[].cap] | join(",")' "$T/b.json")" = "CAP_CHOWN,CAP_NET_BIND_SERVICE,CAP_NET_RAW" ]
	[ "$(jq -r '.capabilities[] | select(.cap=="CAP_CHOWN") | .note' "$T/b.json")" = \
	  "hands the state file to the service user (nobody)" ]
	[ "$(jq -r '.capabilities[] | select(.cap=="CAP_NET_BIND_SERVICE") | .callsites[0].note' "$T/b.json")" = \
	  "bind(2) of the TCP listener" ]
	[ "$(jq -r '.note' "$T/b.json")" = "$(jq -r '.note' "$BASE")" ]
	run "$CAPAUDIT" check --baseline "$T/b.json" "$CI_OUT/v2.jsonl"
	[ "$status" -eq 0 ]
}

@test "check --update says what it added and removed; the diff is only that change (order, layout, notes kept)" {
	# written by hand as docs/baseline.md shows: entries not sorted, lists on
	# one line, a note after the lists; no record uses CAP_SYS_ADMIN or chown
	cat >"$T/b.json" <<-'EOF'
	{
	  "format": "capaudit-baseline",
	  "version": 2,
	  "note": "Capabilities of the example service.",
	  "capabilities": [
	    {
	      "cap": "CAP_NET_BIND_SERVICE",
	      "syscalls": ["bind"],
	      "callsites": [
	        { "function": "__inet_bind", "note": "bind(2) of the TCP listener" }
	      ],
	      "note": "listens below 1024"
	    },
	    {
	      "cap": "CAP_CHOWN",
	      "note": "hands the state file to nobody",
	      "syscalls": [{ "syscall": "fchown", "note": "fchown(2) of the state file" }, "chown"],
	      "callsites": ["setattr_prepare"]
	    },
	    {
	      "cap": "CAP_SYS_ADMIN",
	      "note": "legacy",
	      "syscalls": ["mount"],
	      "callsites": ["path_mount"]
	    }
	  ],
	  "denied": []
	}
	EOF
	# what it must become: CAP_NET_RAW added at the end of a list that is
	# not sorted, laid out as its neighbours; chown and CAP_SYS_ADMIN gone
	cat >"$T/want.json" <<-'EOF'
	{
	  "format": "capaudit-baseline",
	  "version": 2,
	  "note": "Capabilities of the example service.",
	  "capabilities": [
	    {
	      "cap": "CAP_NET_BIND_SERVICE",
	      "syscalls": ["bind"],
	      "callsites": [
	        { "function": "__inet_bind", "note": "bind(2) of the TCP listener" }
	      ],
	      "note": "listens below 1024"
	    },
	    {
	      "cap": "CAP_CHOWN",
	      "note": "hands the state file to nobody",
	      "syscalls": [{ "syscall": "fchown", "note": "fchown(2) of the state file" }],
	      "callsites": ["setattr_prepare"]
	    },
	    {
	      "cap": "CAP_NET_RAW",
	      "syscalls": [
	        "socket"
	      ],
	      "callsites": [
	        "inet_create"
	      ]
	    }
	  ],
	  "denied": []
	}
	EOF
	chmod 640 "$T/b.json"
	run --separate-stderr "$CAPAUDIT" check --update --baseline "$T/b.json" "$CI_OUT/v2.jsonl"
	[ "$status" -eq 0 ]
	[ "$stderr" = "capaudit: updated $T/b.json: 3 capabilities, 0 expected denials
  added CAP_NET_RAW, in syscall socket at kernel call site inet_create: it lets a program open raw sockets, which send and receive network packets the program builds itself
  removed syscall chown of CAP_CHOWN: no record made it
  removed CAP_SYS_ADMIN: no record used it (its note was: legacy)" ]
	diff -u "$T/want.json" "$T/b.json"
	[ "$(stat -c %a "$T/b.json")" = 640 ]
	run -0 "$CAPAUDIT" check --baseline "$T/b.json" "$CI_OUT/v2.jsonl"
	# nothing to change: the file is left as it is
	local ino
	ino=$(stat -c %i "$T/b.json")
	run --separate-stderr "$CAPAUDIT" check --update --baseline "$T/b.json" "$CI_OUT/v2.jsonl"
	[ "$status" -eq 0 ]
	[ "$stderr" = "capaudit: $T/b.json already allows what the record shows, no more: left as it is" ]
	[ "$(stat -c %i "$T/b.json")" = "$ino" ]
	diff -u "$T/want.json" "$T/b.json"
	[ "$(ls "$T")" = "$(printf 'b.json\nwant.json')" ]
}

@test "check warns about a record that lost something, syscall results included; the verdict stays" {
	run --separate-stderr "$CAPAUDIT" check --baseline "$BASE" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	sed '1s/"result_lost":0/"result_lost":3/' "$CI_OUT/v1.jsonl" >"$T/lost.jsonl"
	run --separate-stderr "$CAPAUDIT" check --baseline "$BASE" "$T/lost.jsonl"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "OK: nothing new (2 allowed call sites seen)" ]
	[ "$stderr" = "capaudit: warning: $T/lost.jsonl: lost while recording: 3 syscall results not kept; the verdict covers what was recorded" ]
}

@test "check merges several records into one verdict" {
	run "$CAPAUDIT" check --baseline "$BASE" "$CI_OUT/v1.jsonl" "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "capaudit check: 2 records against $BASE (--match syscall)" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^+ ')" = "1" ]
	"$CAPAUDIT" check --baseline "$T/m.json" --update "$CI_OUT/v1.jsonl" "$CI_OUT/v2.jsonl"
	[ "$(jq -r '[.capabilities[].cap] | join(",")' "$T/m.json")" = "CAP_CHOWN,CAP_NET_BIND_SERVICE,CAP_NET_RAW" ]
}

@test "check: unused capabilities are a hint, a failure with --strict" {
	jq '.capabilities += [{"cap": "CAP_SYS_ADMIN", "note": "legacy", "syscalls": ["mount"],
		"callsites": ["path_mount"]}]' \
		"$BASE" >"$T/b.json"
	run "$CAPAUDIT" check --baseline "$T/b.json" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "- unused           CAP_SYS_ADMIN  -- note: legacy  (hint)" ]
	run "$CAPAUDIT" check --baseline "$T/b.json" --strict "$CI_OUT/v1.jsonl"
	[ "$status" -eq 1 ]
	[[ "$output" == *"FAIL: 1 finding"* ]]
}

@test "check --match: capabilities, then syscalls (default); call sites only with --match callsite" {
	# the baseline allows CAP_CHOWN in chown(2) only: the service's fchown(2) is new
	jq '.capabilities[0].syscalls = ["chown"] | .capabilities[0].callsites = ["notify_change"]' \
		"$BASE" >"$T/b.json"
	run --separate-stderr "$CAPAUDIT" check --baseline "$T/b.json" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 1 ]
	[ "$stderr" = "" ]
	[ "${lines[0]}" = "capaudit check: 1 record against $T/b.json (--match syscall)" ]
	[ "${lines[1]}" = "+ new syscall      CAP_CHOWN in fchown (at setattr_prepare)" ]
	# the state file it chowns (mkstemp's name), its owner and mode at the check
	[[ "${lines[2]}" == "      about /tmp/capaudit-ci-state."*" (owner 0:0, mode 0600)" ]]
	[ "${lines[3]}" = "      $CHOWN_WORDS" ]
	[ "${lines[4]}" = "- unused syscall   CAP_CHOWN in chown  (hint)" ]
	[ "${lines[5]}" = "FAIL: 1 finding the baseline does not allow, 1 hint" ]
	# capabilities only: nothing new
	run "$CAPAUDIT" check --match capability --baseline "$T/b.json" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "capaudit check: 1 record against $T/b.json (--match capability)" ]
	# call sites too: setattr_prepare is not notify_change
	run "$CAPAUDIT" check --match callsite --format json --baseline "$T/b.json" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 1 ]
	echo "$output" >"$T/rep.json"
	[ "$(jqr '.match')" = "callsite" ]
	[ "$(jqr '[.findings[] | select(.fails) | "\(.kind) \(.cap) \(.syscall // .callsite)"] | join("; ")')" = \
	  "new-syscall CAP_CHOWN fchown; new-callsite CAP_CHOWN setattr_prepare" ]
	run "$CAPAUDIT" check --match site --baseline "$BASE" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: invalid --match 'site': capability, syscall or callsite" ]
}

@test "check --match: what fails at each level, denials included, as capaudit-check(8) says" {
	# chown without CAP_CHOWN: a denied check in fchownat at setattr_prepare
	touch "$T/f"
	run -1 "$CAPAUDIT" run -q --caps none -o "$T/run.jsonl" -- chown nobody "$T/f"
	den() {   # a baseline expecting that denial in syscalls $1 at call sites $2
		printf '{"format":"capaudit-baseline","version":2,"capabilities":[],"denied":[{"cap":"CAP_CHOWN","syscalls":[%s],"callsites":[%s]}]}\n' "$1" "$2" >"$T/d.json"
	}
	# the denial's capability expected, in another syscall at another call site
	den '"chown"' '"notify_change"'
	run -0 "$CAPAUDIT" check --match capability --baseline "$T/d.json" "$T/run.jsonl"
	run -1 "$CAPAUDIT" check --baseline "$T/d.json" "$T/run.jsonl"
	[ "${lines[1]}" = "! new denial       CAP_CHOWN in fchownat (at setattr_prepare): blocking (the syscall failed)" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^! ')" = 1 ]
	run -1 "$CAPAUDIT" check --match callsite --baseline "$T/d.json" "$T/run.jsonl"
	[ "$(printf '%s\n' "${lines[@]}" | grep '^! ')" = "$(printf '%s\n' \
	  "! new denial       CAP_CHOWN at setattr_prepare (fchownat): blocking (the syscall failed)" \
	  "! new denial       CAP_CHOWN in fchownat (at setattr_prepare): blocking (the syscall failed)")" ]
	# its syscall listed: only the call site differs, a finding at callsite alone
	den '"fchownat"' '"notify_change"'
	run -0 "$CAPAUDIT" check --baseline "$T/d.json" "$T/run.jsonl"
	run -1 "$CAPAUDIT" check --match callsite --baseline "$T/d.json" "$T/run.jsonl"
	[ "${lines[1]}" = "! new denial       CAP_CHOWN at setattr_prepare (fchownat): blocking (the syscall failed)" ]
	# not expected at all: a finding at every level
	echo '{"format":"capaudit-baseline","version":2,"capabilities":[]}' >"$T/d.json"
	for m in capability syscall callsite; do
		run -1 "$CAPAUDIT" check --match "$m" --baseline "$T/d.json" "$T/run.jsonl"
		[ "${lines[1]}" = "! new denial       CAP_CHOWN at setattr_prepare (fchownat): blocking (the syscall failed)" ]
	done
}

@test "check: a version 1 baseline (no syscalls) is still read; a note says what is not compared" {
	run --separate-stderr "$CAPAUDIT" check --baseline "$ROOT/tests/fixtures/baseline-v1.json" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 0 ]
	[ "$stderr" = "capaudit: note: $ROOT/tests/fixtures/baseline-v1.json lists no syscalls for 2 entries (a version 1 baseline): only their capabilities are compared; capaudit check --baseline $ROOT/tests/fixtures/baseline-v1.json --update $CI_OUT/v1.jsonl adds them" ]
	run --separate-stderr "$CAPAUDIT" check --baseline "$ROOT/tests/fixtures/baseline-v1.json" "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "+ new capability   CAP_NET_RAW at inet_create (socket)" ]
	run "$CAPAUDIT" check --match callsite --baseline "$ROOT/tests/fixtures/baseline-v1.json" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 0 ]
	# --update turns it into version 2, notes kept, syscalls added
	cp "$ROOT/tests/fixtures/baseline-v1.json" "$T/b.json"
	"$CAPAUDIT" check --update --baseline "$T/b.json" "$CI_OUT/v1.jsonl"
	[ "$(jq -r '"\(.version) \([.capabilities[] | "\(.cap):\(.syscalls | join("+"))"] | join(" ")) \(.capabilities[1].callsites[0].note)"' "$T/b.json")" = \
	  "2 CAP_CHOWN:fchown CAP_NET_BIND_SERVICE:bind bind(2) of the TCP listener" ]
	run --separate-stderr "$CAPAUDIT" check --baseline "$T/b.json" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 0 ]
	[ "$stderr" = "" ]
}

@test "check --format json" {
	run "$CAPAUDIT" check --baseline "$BASE" --format json "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	echo "$output" >"$T/rep.json"
	[ "$(jqr '.result')" = "fail" ]
	[ "$(jqr '.findings[0] | "\(.kind) \(.cap) \(.callsite) \(.syscalls) \(.fails)"')" = \
	  "new-capability CAP_NET_RAW inet_create socket true" ]
	[ "$(jqr '.allowed')" = "2" ]
}

@test "check --format junit is well-formed JUnit XML with one failure" {
	command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"
	run --separate-stderr "$CAPAUDIT" check --baseline "$BASE" --format junit "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	echo "$output" >"$T/junit.xml"
	xmllint --noout "$T/junit.xml"
	[ "$(xmllint --xpath 'string(/testsuites/@failures)' "$T/junit.xml")" = "1" ]
	[ "$(xmllint --xpath 'string(/testsuites/testsuite/@tests)' "$T/junit.xml")" = "3" ]
	[ "$(xmllint --xpath 'count(//testcase)' "$T/junit.xml")" = "3" ]
	[ "$(xmllint --xpath 'string(//testcase[failure]/@classname)' "$T/junit.xml")" = "capaudit.CAP_NET_RAW" ]
	[ "$(xmllint --xpath 'string(//testcase[failure]/@name)' "$T/junit.xml")" = "inet_create" ]
	[ "$(xmllint --xpath 'string(//failure/@type)' "$T/junit.xml")" = "new-capability" ]
	run "$CAPAUDIT" check --baseline "$BASE" --format junit "$CI_OUT/v1.jsonl"
	[ "$status" -eq 0 ]
	echo "$output" >"$T/junit.xml"
	[ "$(xmllint --xpath 'string(/testsuites/@failures)' "$T/junit.xml")" = "0" ]
}

@test "check --format sarif has the SARIF 2.1.0 shape" {
	cd "$T"   # outside a git work tree: the baseline as given
	run --separate-stderr "$CAPAUDIT" check --baseline "$BASE" --format sarif "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	echo "$output" >"$T/rep.json"
	[ "$(jqr '.version')" = "2.1.0" ]
	[ "$(jqr '."$schema"')" = "https://json.schemastore.org/sarif-2.1.0.json" ]
	[ "$(jqr '.runs | length')" = "1" ]
	[ "$(jqr '.runs[0].tool.driver.name')" = "capaudit" ]
	# every result names a declared rule, at its index, with a level and a message
	[ "$(jqr '.runs[0] as $r | [$r.results[] | select($r.tool.driver.rules[.ruleIndex].id != .ruleId)] | length')" = "0" ]
	[ "$(jqr '[.runs[0].tool.driver.rules[].id] | (length == (unique | length))')" = "true" ]
	[ "$(jqr '[.runs[0].results[] | select((.level | IN("error","warning","note","none")) | not)] | length')" = "0" ]
	[ "$(jqr '.runs[0].results | length')" = "1" ]
	[ "$(jqr '.runs[0].results[0] | "\(.ruleId) \(.level)"')" = "capaudit/new-capability error" ]
	[[ "$(jqr '.runs[0].results[0].message.text')" == "New capability CAP_NET_RAW at kernel call site inet_create (socket)"* ]]
	[ "$(jqr '.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri')" = "$BASE" ]
	[ "$(jqr '.runs[0].results[0].locations[0].logicalLocations[0].name')" = "inet_create" ]
}

@test "check --format github prints ::error annotations" {
	cd "$T"   # outside a git work tree: the baseline as given
	run --separate-stderr "$CAPAUDIT" check --baseline "$BASE" --format github "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "::error file=$BASE,title=capaudit%3A new capability CAP_NET_RAW::New capability CAP_NET_RAW at kernel call site inet_create (socket): not allowed by $BASE. About socket AF_INET SOCK_RAW protocol 1. $NET_RAW_WORDS. If this is intended, accept it (then review the diff and commit it): capaudit check --baseline $BASE --update $CI_OUT/v2.jsonl" ]
	[ "${lines[1]}" = "capaudit check: FAIL: 1 failure, 0 hints, 2 allowed call sites seen" ]
}

# in_repo: a git work tree in $T/repo (its top: the .git beside ci/ and
# sub/), the baseline committed in ci/, check run from sub/
in_repo() {
	mkdir -p "$T/repo/.git" "$T/repo/ci" "$T/repo/sub"
	cp "$BASE" "$T/repo/ci/capaudit-baseline.json"
	cd "$T/repo/sub"
}

# The words every CI format gives a new CAP_NET_RAW of v2.jsonl, the
# baseline named from the work tree's top (ci/...), the command as given
v2_message() {
	echo "New capability CAP_NET_RAW at kernel call site inet_create (socket): not allowed by ci/capaudit-baseline.json. About socket AF_INET SOCK_RAW protocol 1. $NET_RAW_WORDS. If this is intended, accept it (then review the diff and commit it): capaudit check --baseline ../ci/capaudit-baseline.json --update $CI_OUT/v2.jsonl"
}

@test "check: github, junit, sarif and text say what the capability allows and how to accept it, paths from the work tree's top" {
	command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"
	in_repo
	local m
	m=$(v2_message)
	run --separate-stderr "$CAPAUDIT" check --baseline ../ci/capaudit-baseline.json --format github "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "::error file=ci/capaudit-baseline.json,title=capaudit%3A new capability CAP_NET_RAW::$m" ]
	run --separate-stderr "$CAPAUDIT" check --baseline ../ci/capaudit-baseline.json --format junit "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	echo "$output" >"$T/junit.xml"
	[ "$(xmllint --xpath 'string(//failure/@message)' "$T/junit.xml")" = "$m" ]
	[ "$(xmllint --xpath 'string(//failure)' "$T/junit.xml")" = "$m" ]
	[ "$(xmllint --xpath 'string(//testsuite/@name)' "$T/junit.xml")" = "capaudit check ci/capaudit-baseline.json" ]
	run --separate-stderr "$CAPAUDIT" check --baseline ../ci/capaudit-baseline.json --format sarif "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	echo "$output" >"$T/rep.json"
	[ "$(jqr '.runs[0].results[0].message.text')" = "$m" ]
	[ "$(jqr '.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri')" = "ci/capaudit-baseline.json" ]
	# text: the words under the finding, the command on a line of its own
	run --separate-stderr "$CAPAUDIT" check --baseline ../ci/capaudit-baseline.json "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	[ "${lines[1]}" = "+ new capability   CAP_NET_RAW at inet_create (socket)" ]
	[ "${lines[2]}" = "      about socket AF_INET SOCK_RAW protocol 1" ]
	[ "${lines[3]}" = "      $NET_RAW_WORDS" ]
	[ "${lines[4]}" = "FAIL: 1 finding the baseline does not allow" ]
	[ "${lines[5]}" = "  if this is intended, accept it (then review the diff and commit it): capaudit check --baseline ../ci/capaudit-baseline.json --update $CI_OUT/v2.jsonl" ]
	# that command, run where check ran, accepts it
	run "$CAPAUDIT" check --baseline ../ci/capaudit-baseline.json --update "$CI_OUT/v2.jsonl"
	[ "$status" -eq 0 ]
	run "$CAPAUDIT" check --baseline ../ci/capaudit-baseline.json "$CI_OUT/v2.jsonl"
	[ "$status" -eq 0 ]
	# outside a git work tree: the baseline as given
	cd "$T"
	run --separate-stderr "$CAPAUDIT" check --baseline "$BASE" --format github "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "::error file=$BASE,title=capaudit%3A new capability CAP_NET_RAW::New capability CAP_NET_RAW at kernel call site inet_create (socket): not allowed by $BASE. About socket AF_INET SOCK_RAW protocol 1. $NET_RAW_WORDS. If this is intended, "* ]]
}

@test "check: records without user stacks: one note says why an annotation is on the baseline file, and what to add" {
	local note="capaudit: note: $CI_OUT/v2.jsonl has no user stacks, so a finding is shown on the baseline file, not on the line of the program that asked for the capability: record with capaudit record --user-stacks, the program built with debug info and frame pointers (-g -fno-omit-frame-pointer; docs/ci.md)"
	run --separate-stderr "$CAPAUDIT" check --baseline "$BASE" --format github "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	[ "$stderr" = "$note" ]
	# once, however many records and findings; in every format
	echo '{"format":"capaudit-baseline","version":2,"capabilities":[]}' >"$T/empty.json"
	run --separate-stderr "$CAPAUDIT" check --baseline "$T/empty.json" --format sarif "$CI_OUT/v2.jsonl" "$CI_OUT/v1.jsonl"
	[ "$status" -eq 1 ]
	[ "$stderr" = "capaudit: note: $CI_OUT/v2.jsonl and 1 other record have no user stacks, so a finding is shown on the baseline file, not on the line of the program that asked for the capability: record with capaudit record --user-stacks, the program built with debug info and frame pointers (-g -fno-omit-frame-pointer; docs/ci.md)" ]
	# text and json place nothing on a file: no note
	run --separate-stderr "$CAPAUDIT" check --baseline "$BASE" "$CI_OUT/v2.jsonl"
	[ "$status" -eq 1 ]
	[ -z "$stderr" ]
	# nothing new: nothing to place, no note
	run --separate-stderr "$CAPAUDIT" check --baseline "$BASE" --format github "$CI_OUT/v1.jsonl"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "the examples/ci workflow passes for v1 and fails for v2 with the expected diff" {
	run env CAPAUDIT="$CAPAUDIT" OUT="$T" sh -c "cd '$ROOT' && examples/ci/check-example.sh"
	[ "$status" -eq 0 ]
	[[ "$output" == *"as expected: v1 passes, v2 fails"* ]]
}

@test "run --caps: a needed capability left out shows the denial and its call site" {
	run "$CAPAUDIT" run -q --caps chown -o "$T/run.jsonl" -- "$ROOT/build/set-pid" clone3
	[ "$status" -eq 1 ]
	[[ "$output" == *"CAP_CHECKPOINT_RESTORE (or CAP_SYS_ADMIN) at alloc_pid (clone3), 1x: denied, and the syscall failed"* ]]
	[[ "$output" == *"This set is not enough: the command failed; the denials above that made a syscall fail are where to look."* ]]
}

@test "run --caps: its Record line's command works as printed (a path with a space quoted)" {
	mkdir -p "$T/bin"
	ln -s "$CAPAUDIT" "$T/bin/capaudit"
	run --separate-stderr "$CAPAUDIT" run -q --caps chown -o "$T/my run.jsonl" -- "$ROOT/build/set-pid" clone3
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "Record: $T/my run.jsonl (capaudit report --suggest -i '$T/my run.jsonl')" ]
	local hint=${lines[-1]#*(}
	hint=${hint%)}
	run env PATH="$T/bin:$PATH" sh -c "$hint"
	[ "$status" -eq 0 ]
	[[ "$output" == *"CAP_CHECKPOINT_RESTORE"* ]]
}

@test "run --caps: the suggested set gives no denial" {
	run "$CAPAUDIT" run -q --caps CAP_CHECKPOINT_RESTORE -o "$T/run.jsonl" --format json -- "$ROOT/build/set-pid" clone3
	[ "$status" -eq 0 ]
	echo "$output" | sed -n '/^{/,$p' >"$T/rep.json"
	[ "$(jqr '.enough')" = "true" ]
	[ "$(jqr '.denials | length')" = "0" ]
	[ "$(jqr '.caps | join(",")')" = "CAP_CHECKPOINT_RESTORE" ]
	# the same as another user
	run "$CAPAUDIT" run -q --caps checkpoint_restore --user nobody -o "$T/run.jsonl" -- "$ROOT/build/set-pid" clone3
	[ "$status" -eq 0 ]
	[[ "$output" == *"This set is enough for what ran: the command exited 0."* ]]
}

@test "run --caps sets exactly that set in all five sets, as root and as --user" {
	local want=0000000000002001   # CAP_CHOWN | CAP_NET_RAW
	run "$CAPAUDIT" run -q --caps chown,net_raw -o "$T/run.jsonl" -- grep ^Cap /proc/self/status
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c "^Cap[A-Za-z]*:.$want")" = "5" ]
	chmod 777 "$T"
	run "$CAPAUDIT" run -q --caps chown,net_raw --user nobody -o "$T/run.jsonl" -- sh -c 'id -u; grep ^Cap /proc/self/status'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "65534" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c "^Cap[A-Za-z]*:.$want")" = "5" ]
}

@test "run --user with a uid that has no passwd entry: that uid, gid = uid, no groups" {
	! getent passwd 4242 >/dev/null || skip "uid 4242 has a passwd entry here"
	chmod 777 "$T"
	run "$CAPAUDIT" run --caps none --user 4242 -o "$T/run.jsonl" -- \
		sh -c 'grep -E "^(Uid|Gid|Groups):" /proc/self/status'
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -E '^(Uid|Gid|Groups):' | tr -s '\t ' ' ')" = \
	  "$(printf 'Uid: 4242 4242 4242 4242\nGid: 4242 4242 4242 4242\nGroups: ')" ]
	[[ "$output" == *"  as: uid 4242"* ]]
}

@test "run --caps with a capability outside capaudit's bounding set: one line naming it" {
	local bnd c missing=""
	bnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status)
	for c in $(seq 0 40); do
		(( (0x$bnd >> c) & 1 )) || { missing=$c; break; }
	done
	if [ -z "$missing" ]; then
		# make one: drop CAP_SYS_RESOURCE from the bounding set of a shell
		run capsh --drop=cap_sys_resource -- -c "'$CAPAUDIT' run -q --caps chown,sys_resource -- true"
		missing=24
	else
		run "$CAPAUDIT" run -q --caps "chown,$(capsh --decode=$(printf '%x' $((1 << missing))) |
			sed 's/.*=cap_//')" -- true
	fi
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "capaudit: --caps: CAP_"*" is not in capaudit's own bounding set, so the command cannot be given it" ]]
}

@test "run: bad --caps, --user and missing command are usage errors" {
	run "$CAPAUDIT" run --caps bogus -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown capability 'bogus' in --caps bogus"* ]]
	run "$CAPAUDIT" run --caps chown --user no-such-user -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"--user no-such-user: no such user"* ]]
	run "$CAPAUDIT" run --caps chown
	[ "$status" -eq 2 ]
	run "$CAPAUDIT" run -- true
	[ "$status" -eq 2 ]
	[[ "$output" == *"run needs --caps"* ]]
}
