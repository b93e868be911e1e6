#!/usr/bin/env bats
# tier: check (unit files parsed, not run: no root, no kernel, no waiting)
# record --service on unit files built to be large or malformed
# (tests/e2e/unit-sizes.py): each is parsed, or refused with one FILE:LINE
# line, in linear time and memory: a 1 MB ExecStart= line, 20,000
# continuation lines, 100,000 Environment= lines, 70,000 supplementary
# groups, ${A} expanded 100,000 times; and escapes as systemd's
# cunescape_one() takes them (no octal above \377, no \u surrogate, no \U
# that is not a character). Run as a user who is not root, the parse is
# all there is (record then says it needs root).

load helper

setup() {
	fixture_setup
	chmod 777 "$T"
	command -v python3 >/dev/null || skip "python3 is not installed"
}

@test "unit files: large ones parse or are refused in one FILE:LINE line, within 100 MiB each" {
	local as=() limit=100
	[ "$(id -u)" -ne 0 ] || as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	# an ASan build's resident set holds its shadow memory: the bound is
	# the plain build's
	[ "${CAPAUDIT_PASS:-}" != asan ] || limit=0
	run "${as[@]}" /usr/bin/python3 "$ROOT/tests/e2e/unit-sizes.py" "$CAPAUDIT" "$T" "$limit"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ok ' <<<"$output")" -eq 12 ]
}
