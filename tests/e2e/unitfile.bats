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
	[ "$(grep -c '^ok ' <<<"$output")" -eq 17 ]
}

# as_user COMMAND...: COMMAND as nobody when this is root (the parse is
# all there is: record then says it needs root), else as this user
as_user() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

# conf FILE LINE...: a drop-in (or unit) FILE of the lines, its directory made
conf() {
	local f=$1
	shift
	mkdir -p "$(dirname "$f")"
	printf '%s\n' "$@" >"$f"
}

# A unit path of three directories as /etc, /run and /usr/lib are, the
# unit in a fourth: its drop-ins where systemd.unit(5) puts them, each
# with a key systemd warns about (CaProbe=), so that systemd-analyze
# verify says which files it read, in its order
dropin_tree() {
	E=$T/etc L=$T/lib R=$T/run U=$T/unit
	conf "$U/ca-web-app.service" '[Service]' 'User=nobody' \
		'AmbientCapabilities=CAP_CHOWN CAP_NET_RAW' 'ExecStart=/bin/true'
	# the unit's own directory (not on the unit path: first)
	conf "$U/ca-web-app.service.d/05-own.conf" '[Service]' 'CaProbe=05'
	# /etc's masks /usr/lib's of the same name (which would not parse)
	conf "$E/ca-web-app.service.d/10-caps.conf" '[Service]' 'CaProbe=10' \
		'AmbientCapabilities=' 'AmbientCapabilities=CAP_CHOWN'
	conf "$L/ca-web-app.service.d/10-caps.conf" 'not a unit file line'
	# the dash prefixes: ca-web-.service.d, ca-.service.d; the nearer
	# prefix's file of a name masks the farther one's
	conf "$R/ca-web-.service.d/20-prefix.conf" '[Service]' 'CaProbe=20'
	conf "$L/ca-.service.d/20-prefix.conf" 'not a unit file line'
	conf "$L/ca-.service.d/25-prefix.conf" '[Service]' 'CaProbe=25'
	# the type's: every service's, under a name-specific one of its name
	conf "$L/service.d/30-type.conf" '[Service]' 'CaProbe=30'
	conf "$E/service.d/10-caps.conf" 'not a unit file line'
	# a symlink to /dev/null masks a file of its name
	mkdir -p "$E/ca-web-app.service.d" "$L/ca-web-app.service.d"
	ln -s /dev/null "$E/ca-web-app.service.d/40-mask.conf"
	conf "$L/ca-web-app.service.d/40-mask.conf" 'not a unit file line'
	# not drop-ins: hidden, other suffixes
	conf "$E/ca-web-app.service.d/.hidden.conf" 'not a unit file line'
	conf "$E/ca-web-app.service.d/50-notes.txt" 'not a unit file line'
	conf "$L/ca-web-app.service.d/60-last.conf" '[Service]' 'CaProbe=60' 'User=daemon'
	chmod -R a+rX "$T"
}

@test "drop-ins: found, masked and ordered as systemd finds them (systemd-analyze verify reads the same)" {
	dropin_tree
	local want="$U/ca-web-app.service.d/05-own.conf, $E/ca-web-app.service.d/10-caps.conf, $R/ca-web-.service.d/20-prefix.conf, $L/ca-.service.d/25-prefix.conf, $L/service.d/30-type.conf, $L/ca-web-app.service.d/60-last.conf"
	SYSTEMD_UNIT_PATH=$E:$R:$L run as_user "$CAPAUDIT" record -q -o "$T/r.jsonl" --service "$U/ca-web-app.service"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "capaudit: note: $U/ca-web-app.service: drop-ins, applied in this order: $want" ]
	[[ "${lines[1]}" == "capaudit: record --service needs root"* ]]
	# by name: found on the unit path, with the drop-ins of its directories
	mv "$U/ca-web-app.service" "$L/"
	rm -r "$U/ca-web-app.service.d"
	SYSTEMD_UNIT_PATH=$E:$R:$L run as_user "$CAPAUDIT" record -q -o "$T/r.jsonl" --service ca-web-app
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "capaudit: note: ca-web-app.service: the unit file is $L/ca-web-app.service" ]
	[ "${lines[1]}" = "capaudit: note: $L/ca-web-app.service: drop-ins, applied in this order: ${want#*, }" ]
	# systemd itself reads the same files in the same order
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze (Debian systemd)"
	mv "$L/ca-web-app.service" "$U/"
	conf "$U/ca-web-app.service.d/05-own.conf" '[Service]' 'CaProbe=05'
	chmod -R a+rX "$U"
	SYSTEMD_UNIT_PATH=$E:$R:$L run systemd-analyze verify "$U/ca-web-app.service"
	[ "$(grep -o "^[^:]*:[0-9]*: Unknown key 'CaProbe'" <<<"$output" | cut -d: -f1 | paste -sd, | sed 's/,/, /g')" = "$want" ]
}

@test "drop-ins: an error names the drop-in and its line; a second ExecStart= names where the first is" {
	conf "$T/u/ca-x.service" '[Service]' 'Type=simple' 'ExecStart=/bin/true'
	conf "$T/u/ca-x.service.d/10-bad.conf" '[Service]' '# a comment' 'AmbientCapabilities=CAP_NOPE'
	run "$CAPAUDIT" record -q -o "$T/r.jsonl" --service "$T/u/ca-x.service"
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: $T/u/ca-x.service.d/10-bad.conf:3: AmbientCapabilities=: unknown capability 'CAP_NOPE'" ]
	conf "$T/u/ca-x.service.d/10-bad.conf" 'User=nobody'
	run "$CAPAUDIT" record -q -o "$T/r.jsonl" --service "$T/u/ca-x.service"
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: $T/u/ca-x.service.d/10-bad.conf:1: User= comes before any [Section]" ]
	# a drop-in's [Service] continues the unit's; ExecStart= adds a command
	# unless an empty one resets the list first (as systemd)
	conf "$T/u/ca-x.service.d/10-bad.conf" '[Service]' 'ExecStart=/bin/false'
	run "$CAPAUDIT" record -q -o "$T/r.jsonl" --service "$T/u/ca-x.service"
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: $T/u/ca-x.service.d/10-bad.conf:2: a second ExecStart= command (the first is at $T/u/ca-x.service:3): only Type=oneshot services may have several (a drop-in replaces the unit's after an empty ExecStart=)" ]
	# a line continued at a drop-in's end does not go on into the next one
	conf "$T/u/ca-x.service.d/10-bad.conf" '[Service]' 'ExecStart=' 'Environment=A=1 \'
	conf "$T/u/ca-x.service.d/20-next.conf" 'ExecStart=/bin/true'
	run "$CAPAUDIT" record -q -o "$T/r.jsonl" --service "$T/u/ca-x.service"
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: $T/u/ca-x.service.d/20-next.conf:1: ExecStart= comes before any [Section]" ]
	# a unit name that no directory of the unit path has; a masked unit
	SYSTEMD_UNIT_PATH=$T/u run "$CAPAUDIT" record -q -o "$T/r.jsonl" --service ca-nosuch
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: --service ca-nosuch.service: no such unit in $T/u (the unit path: SYSTEMD_UNIT_PATH)" ]
	ln -s /dev/null "$T/u/ca-masked.service"
	SYSTEMD_UNIT_PATH=$T/u run "$CAPAUDIT" record -q -o "$T/r.jsonl" --service ca-masked.service
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: --service ca-masked.service: the unit is masked ($T/u/ca-masked.service is a symlink to /dev/null)" ]
	run "$CAPAUDIT" record -q -o "$T/r.jsonl" --service 'ca bad.service'
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: --service 'ca bad.service': not a unit name (letters, digits and :-_.\\@) nor a file" ]
	[ ! -e "$T/r.jsonl" ]
}

@test "drop-ins: systemd's unit path when SYSTEMD_UNIT_PATH is not set (systemd-analyze unit-paths)" {
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze (Debian systemd)"
	run env -u SYSTEMD_UNIT_PATH "$CAPAUDIT" record -q -o "$T/r.jsonl" --service ca-nosuch-anywhere
	[ "$status" -eq 2 ]
	local dirs=${output#*no such unit in }
	dirs=${dirs% (the unit path: *}
	[ "$dirs" = "$(env -u SYSTEMD_UNIT_PATH systemd-analyze unit-paths --system | paste -sd, | sed 's/,/, /g')" ]
	# a list ending in ':' goes before it (systemd(1), "Environment")
	SYSTEMD_UNIT_PATH=$T/a: run "$CAPAUDIT" record -q -o "$T/r.jsonl" --service ca-nosuch-anywhere
	[[ "$output" == *"no such unit in $T/a, /etc/systemd/system.control, "* ]]
}

@test "drop-ins: an instance reads its template's file and drop-ins; a directory met under two names is read once" {
	conf "$T/a/ca-t-x@.service" '[Service]' 'ExecStart=/bin/echo %%'
	mkdir -p "$T/a/ca-t-@.service.d"
	local i
	for i in $(seq -w 0 599); do
		printf '[Service]\nEnvironment=N=%s\n' "$i" >"$T/a/ca-t-@.service.d/$i.conf"
	done
	# the same directory again, by a second name on the path; the
	# template's prefix directory is reached from the instance's name too
	ln -s "$T/a" "$T/b"
	chmod -R a+rX "$T"
	SYSTEMD_UNIT_PATH=$T/a:$T/b run as_user "$CAPAUDIT" record -q -o "$T/r.jsonl" --service ca-t-x@i1
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "capaudit: note: ca-t-x@i1.service: the unit file is $T/a/ca-t-x@.service" ]
	[[ "${lines[1]}" == "capaudit: note: $T/a/ca-t-x@.service: drop-ins, applied in this order: $T/a/ca-t-@.service.d/000.conf, "* ]]
	[ "$(tr ',' '\n' <<<"${lines[1]}" | grep -c '\.conf$')" -eq 600 ]
	[[ "${lines[2]}" == "capaudit: record --service needs root"* ]]
}
