#!/usr/bin/env bats
# capaudit record --service FILE.service: the unit's ExecStart= started
# with its User=, groups, capability sets and NoNewPrivileges= applied;
# the header's target, the removal candidates, report --suggest, and
# errors in the unit file as FILE:LINE.

load helper

# unit NAME: the unit file $T/NAME.service from standard input
unit() {
	cat >"$T/$1.service"
}

# header FILTER: jq on the record's header line
header() {
	head -n1 "$T/rec.jsonl" | jq -r "$@"
}

@test "record --service: User=nobody with ambient CAP_CHOWN CAP_NET_RAW; CAP_NET_RAW is a removal candidate" {
	touch "$T/f"
	unit chown <<-EOF
	[Unit]
	Description=chown as nobody, ambient capabilities

	[Service]
	Type=oneshot
	User=nobody
	# CAP_NET_RAW is never used: a removal candidate
	AmbientCapabilities=CAP_CHOWN
	AmbientCapabilities=CAP_NET_RAW
	ExecStart=/bin/chown 1:1 $T/f
	EOF
	run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/chown.service"
	[ "$status" -eq 0 ]
	[[ "$output" == *"capaudit: $T/chown.service: removal candidates (granted, never checked): CAP_NET_RAW"* ]]
	[ "$(stat -c %u:%g "$T/f")" = "1:1" ]
	# the header: scope and target, the sets applied, the uid
	[ "$(header '.scope')" = "service" ]
	[ "$(header '.target.service')" = "$T/chown.service" ]
	[ "$(header '.target.uid')" = "65534" ]
	[ "$(header '.target.ambient | join(",")')" = "CAP_CHOWN,CAP_NET_RAW" ]
	[ "$(header '.target.bounding | index("CAP_CHOWN")')" != "null" ]
	report_json
	[ "$(jqr '.processes[] | select(.comm=="chown") | .uid')" = "65534" ]
	[ "$(caps_of chown | grep -c '^CAP_CHOWN [1-9][0-9]* 0 ')" = "1" ]
	[ "$(jqr '.required | join(",")')" = "CAP_CHOWN" ]
	# report --suggest says the same, in text and JSON
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --suggest
	[ "$status" -eq 0 ]
	[[ "$output" == *"Unit file $T/chown.service (its commands ran as uid 65534)"* ]]
	[[ "$output" == *"  grants: CAP_CHOWN, CAP_NET_RAW"* ]]
	[[ "$output" == *"  removal candidates (granted, never checked): CAP_NET_RAW"* ]]
	"$CAPAUDIT" report -i "$T/rec.jsonl" --suggest --format json >"$T/rep.json"
	[ "$(jqr '.service.removal_candidates | join(",")')" = "CAP_NET_RAW" ]
	[ "$(jqr '.service.granted | join(",")')" = "CAP_CHOWN,CAP_NET_RAW" ]
	[ "$(jqr '.service.uid')" = "65534" ]
	# its drop-in names the unit it was recorded from
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --emit systemd
	[ "${lines[0]}" = "# /etc/systemd/system/chown.service.d/capaudit.conf" ]
	[[ "$output" == *$'\nAmbientCapabilities=CAP_CHOWN\n'* ]]
}

@test "record --service: ping with ambient CAP_NET_RAW uses all the unit grants" {
	command -v ping >/dev/null || skip "no ping"
	unit ping <<-EOF
	[Service]
	User=nobody
	AmbientCapabilities=CAP_NET_RAW
	ExecStart=ping -c1 127.0.0.1
	EOF
	run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/ping.service"
	[ "$status" -eq 0 ]
	[[ "$output" == *"capaudit: $T/ping.service: every capability it grants was checked"* ]]
	report_json
	[ "$(caps_of ping | grep -c '^CAP_NET_RAW [1-9][0-9]* 0 ')" = "1" ]
	# a bare name is found where systemd looks
	[ "$(jqr '.processes[] | select(.comm=="ping") | .exe')" = "$(command -v ping)" ]
}

@test "record --service: NoNewPrivileges=yes keeps a file's capabilities from ping" {
	command -v ping >/dev/null || skip "no ping"
	getcap "$(command -v ping)" 2>/dev/null | grep -q cap_net_raw ||
		skip "ping has no file capabilities here"
	[ "$(cut -f1 /proc/sys/net/ipv4/ping_group_range)" -gt 0 ] ||
		skip "ICMP datagram sockets are open to every group: ping needs no capability"
	unit nnp <<-EOF
	[Service]
	User=nobody
	NoNewPrivileges=yes
	ExecStart=ping -c1 127.0.0.1
	EOF
	run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/nnp.service"
	[ "$status" -ne 0 ]
	[[ "$output" == *"capaudit: $T/nnp.service grants no capability"* ]]
	report_json
	[ "$(caps_of ping | grep -c '^CAP_NET_RAW 0 [1-9]')" = "1" ]
	# the same unit without NoNewPrivileges=: the file's capability works
	sed -i '/NoNewPrivileges/d' "$T/nnp.service"
	run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/nnp.service"
	[ "$status" -eq 0 ]
	report_json
	[ "$(caps_of ping | grep -c '^CAP_NET_RAW [1-9][0-9]* 0 ')" = "1" ]
}

@test "record --service: root with a bounding set; Environment=, quoting, \$\$ and %%" {
	unit bound <<-EOF
	[Service]
	CapabilityBoundingSet=CAP_CHOWN CAP_KILL
	CapabilityBoundingSet=~CAP_KILL
	Environment="GREETING=hello world"
	ExecStart=/bin/sh -c 'printf "%%s|" "\$\$GREETING" "\${GREETING}" \\
	    >$T/out; grep ^CapBnd /proc/self/status >>$T/out'
	EOF
	run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/bound.service"
	[ "$status" -eq 0 ]
	[ "$(cat "$T/out")" = "$(printf 'hello world|hello world|CapBnd:\t0000000000000001')" ]
	[ "$(header '.target.uid')" = "0" ]
	[ "$(header '.target.bounding | join(",")')" = "CAP_CHOWN" ]
	[[ "$output" == *"removal candidates (granted, never checked): CAP_CHOWN"* ]]
}

@test "record --service: Type=oneshot runs its commands in order, stops at a failure unless '-'" {
	unit oneshot <<-EOF
	[Service]
	Type=oneshot
	ExecStart=-/bin/false
	ExecStart=/bin/sh -c 'echo one >>$T/log' ; /bin/sh -c 'exit 3'
	ExecStart=/bin/sh -c 'echo never >>$T/log'
	EOF
	run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/oneshot.service"
	[ "$status" -eq 3 ]
	[ "$(cat "$T/log")" = "one" ]
	report_json
	[ "$(jqr '[.processes[].comm] | map(select(. != "capaudit")) | join(",")')" = "false,sh,sh" ]
	[ "$(header '.exit_status')" = "3" ]
}

@test "record --service passes the command's exit status through" {
	unit seven <<-EOF
	[Service]
	ExecStart=/bin/sh -c 'exit 7'
	EOF
	run "$CAPAUDIT" record -q -o "$T/rec.jsonl" --service "$T/seven.service"
	[ "$status" -eq 7 ]
}

@test "record --service: drop-ins apply after the unit as systemd applies them (reset lists, a replaced command, the type's)" {
	touch "$T/f" "$T/out"
	chmod 666 "$T/out"   # written as nobody
	mkdir -p "$T/u/ca-drop.service.d" "$T/lib/service.d"
	unit u/ca-drop <<-EOF
	[Service]
	User=nobody
	CapabilityBoundingSet=CAP_NET_RAW CAP_KILL CAP_CHOWN
	AmbientCapabilities=CAP_NET_RAW CAP_KILL
	Environment=WHO=unit
	ExecStart=/bin/false
	EOF
	# each empty assignment resets what the unit set (systemd.unit(5),
	# systemd.exec(5)); an empty ExecStart= lets a drop-in replace it
	cat >"$T/u/ca-drop.service.d/10-caps.conf" <<-EOF
	[Service]
	CapabilityBoundingSet=
	CapabilityBoundingSet=CAP_CHOWN
	AmbientCapabilities=
	AmbientCapabilities=CAP_CHOWN
	ExecStart=
	ExecStart=/bin/sh -c 'chown 1:1 $T/f && echo "\$\$WHO \$\$ALL" >$T/out && grep -E "^Cap(Bnd|Amb)" /proc/self/status >>$T/out'
	EOF
	# every service's (the type's drop-in), then this unit's again
	printf '[Service]\nEnvironment=ALL=every-service\n' >"$T/lib/service.d/20-all.conf"
	printf '[Service]\nEnvironment=WHO=drop-in\n' >"$T/u/ca-drop.service.d/30-who.conf"
	SYSTEMD_UNIT_PATH=$T/lib run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/u/ca-drop.service"
	[ "$status" -eq 0 ]
	[[ "$output" == *"capaudit: note: $T/u/ca-drop.service: drop-ins, applied in this order: $T/u/ca-drop.service.d/10-caps.conf, $T/lib/service.d/20-all.conf, $T/u/ca-drop.service.d/30-who.conf"* ]]
	[[ "$output" == *"capaudit: $T/u/ca-drop.service: every capability it grants was checked"* ]]
	[ "$(stat -c %u:%g "$T/f")" = "1:1" ]
	[ "$(cat "$T/out")" = "$(printf 'drop-in every-service\nCapBnd:\t0000000000000001\nCapAmb:\t0000000000000001')" ]
	[ "$(header '.target.uid')" = "65534" ]
	[ "$(header '.target.bounding | join(",")')" = "CAP_CHOWN" ]
	[ "$(header '.target.ambient | join(",")')" = "CAP_CHOWN" ]
	# by name, from the unit path
	mv "$T/u/ca-drop.service" "$T/u/ca-drop.service.d" "$T/lib/"
	: >"$T/out"
	SYSTEMD_UNIT_PATH=$T/lib run "$CAPAUDIT" record -q -o "$T/rec.jsonl" --service ca-drop
	[ "$status" -eq 0 ]
	[[ "$output" == *"capaudit: note: ca-drop.service: the unit file is $T/lib/ca-drop.service"* ]]
	[ "$(head -n1 "$T/out")" = "drop-in every-service" ]
	[ "$(header '.target.service')" = "$T/lib/ca-drop.service" ]
}

# vfy_unit: $T/u/ca-vfy.service, whose drop-in replaces its command by a
# chown as nobody (repeatable: nobody never owns the file) and grants
# three capabilities where it needs one
vfy_unit() {
	touch "$T/f"
	mkdir -p "$T/u/ca-vfy.service.d"
	unit u/ca-vfy <<-EOF
	[Service]
	User=nobody
	ExecStart=/bin/false
	EOF
	cat >"$T/u/ca-vfy.service.d/10-job.conf" <<-EOF
	[Service]
	AmbientCapabilities=CAP_CHOWN CAP_NET_RAW CAP_KILL
	ExecStart=
	ExecStart=/bin/chown 1:1 $T/f
	EOF
}

@test "run --service: the unit's command as its User=, with the unit's sets or exactly --caps" {
	vfy_unit
	SYSTEMD_UNIT_PATH=$T/none run "$CAPAUDIT" run -q --format json -o "$T/rec.jsonl" --service "$T/u/ca-vfy.service"
	[ "$status" -eq 0 ]
	[ "$(jq -r '"\(.service) \(.user) \(.caps | join(",")) \(.verdict)"' <<<"$output")" = "$T/u/ca-vfy.service nobody CAP_CHOWN,CAP_KILL,CAP_NET_RAW enough" ]
	[ "$(header '.target.ambient | join(",")')" = "CAP_CHOWN,CAP_KILL,CAP_NET_RAW" ]
	SYSTEMD_UNIT_PATH=$T/none run --separate-stderr "$CAPAUDIT" run -q --format json -o "$T/rec.jsonl" \
		--caps CAP_KILL --service "$T/u/ca-vfy.service"
	[ "$status" -eq 1 ]
	[ "$(jq -r '"\(.caps | join(",")) \(.verdict) \(.denials[0].cap)"' <<<"$output")" = "CAP_KILL failed CAP_CHOWN" ]
	# exactly the set: bounding and ambient, as a drop-in setting both would
	[ "$(header '.target.bounding | join(",")')" = "CAP_KILL" ]
	[ "$(header '.target.ambient | join(",")')" = "CAP_KILL" ]
	run "$CAPAUDIT" run -q --user nobody --service "$T/u/ca-vfy.service"
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: --service runs the unit's ExecStart= as its User= with its environment: give no --user" ]
}

@test "verify --service: a unit and its drop-ins proven by one command; --emit-to writes the drop-in systemd reads, and it proves the same" {
	vfy_unit
	export SYSTEMD_UNIT_PATH=$T/none
	run --separate-stderr "$CAPAUDIT" verify --service "$T/u/ca-vfy.service" --emit systemd \
		--emit-to "$T/u/ca-vfy.service.d/capaudit.conf"
	[ "$status" -eq 0 ]
	# which files, once, then the runs
	[[ "$stderr" == *"capaudit: note: $T/u/ca-vfy.service: drop-ins, applied in this order: $T/u/ca-vfy.service.d/10-job.conf"* ]]
	[ "$(grep -c 'drop-ins, applied' <<<"$stderr")" = 1 ]
	[[ "$output" == *"  unit: $T/u/ca-vfy.service (ca-vfy.service), as its User=: nobody"* ]]
	[[ "$output" == *"Proven set: CAP_CHOWN"* ]]
	[[ "$output" == *"  CAP_CHOWN: without it, exit status 1; denied CAP_CHOWN at setattr_prepare"* ]]
	[[ "$output" == *"The unit grants CAP_CHOWN, CAP_KILL, CAP_NET_RAW: CAP_KILL, CAP_NET_RAW not needed"* ]]
	[[ "$output" == *"--emit systemd: written to $T/u/ca-vfy.service.d/capaudit.conf"* ]]
	# the snippet alone, as it is: a drop-in for this unit
	[ "$(cat "$T/u/ca-vfy.service.d/capaudit.conf")" = "$(cat <<-EOF
	# /etc/systemd/system/ca-vfy.service.d/capaudit.conf
	# then: systemctl daemon-reload && systemctl restart ca-vfy.service
	[Service]
	# each empty assignment resets what the unit itself set
	CapabilityBoundingSet=
	CapabilityBoundingSet=CAP_CHOWN
	AmbientCapabilities=
	AmbientCapabilities=CAP_CHOWN
	# every process ran as uid 65534 (nobody here)
	User=nobody
	NoNewPrivileges=yes
	EOF
	)" ]
	# systemd reads every line of it (its one word: that User=nobody is
	# the overflow user, which is what the unit ran as)
	if command -v systemd-analyze >/dev/null; then
		run systemd-analyze verify "$T/u/ca-vfy.service"
		[ -z "$(grep capaudit.conf <<<"$output" | grep -v 'Special user nobody configured')" ]
	fi
	# the unit with it: granted is what was proven
	run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/u/ca-vfy.service"
	[ "$status" -eq 0 ]
	[[ "$output" == *"drop-ins, applied in this order: $T/u/ca-vfy.service.d/10-job.conf, $T/u/ca-vfy.service.d/capaudit.conf"* ]]
	[[ "$output" == *"capaudit: $T/u/ca-vfy.service: every capability it grants was checked"* ]]
	[ "$(header '.target.bounding | join(",")')" = "CAP_CHOWN" ]
	[ "$(header '.target.ambient | join(",")')" = "CAP_CHOWN" ]
	# --emit-to -: standard output is the snippet alone, the report goes
	# to standard error; by name, in JSON
	mkdir -p "$T/none"
	mv "$T/u/ca-vfy.service" "$T/u/ca-vfy.service.d" "$T/none/"
	run --separate-stderr "$CAPAUDIT" verify -q --format json --service ca-vfy --emit systemd --emit-to -
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$T/none/ca-vfy.service.d/capaudit.conf")" ]
	# (chown's own words, if any, before the report)
	local json
	json=$(sed -n '/^{/,/^}/p' <<<"$stderr")
	[ "$(jq -r '"\(.service.file) \(.service.name) \(.service.granted | join(",")) [\(.service.not_needed | join(","))] \(.set | join(",")) \(.emitted_to) \(.snippets)"' <<<"$json")" = "$T/none/ca-vfy.service ca-vfy.service CAP_CHOWN [] CAP_CHOWN - null" ]
}

@test "verify --emit-to: one --emit kind; nothing written when no set is proven; --service takes no COMMAND" {
	run "$CAPAUDIT" verify --emit-to "$T/x.conf" -- true
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: --emit-to writes one snippet: give one --emit KIND" ]
	run "$CAPAUDIT" verify --emit systemd --emit docker --emit-to "$T/x.conf" -- true
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: --emit-to writes one snippet: give one --emit KIND" ]
	run "$CAPAUDIT" verify --emit systemd --emit-to "$T" -- true
	[ "$status" -eq 2 ]
	[[ "$output" == "capaudit: --emit-to $T: "* ]]
	# the command fails even with every capability: nothing to prove, nothing written
	run --separate-stderr "$CAPAUDIT" verify -q --emit systemd --emit-to - -- false
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	run "$CAPAUDIT" verify -q --emit systemd --emit-to "$T/x.conf" -- false
	[ "$status" -eq 1 ]
	[ ! -e "$T/x.conf" ]
	vfy_unit
	run "$CAPAUDIT" verify --service "$T/u/ca-vfy.service" -- true
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: --service proves the unit's ExecStart=, as its User=: give no COMMAND" ]
	run "$CAPAUDIT" verify --user nobody --service "$T/u/ca-vfy.service"
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: --service proves the unit's ExecStart=, as its User=: give no --user" ]
}

# Errors in the unit file: one line naming the file and line, exit 2, no record.
@test "record --service: errors name FILE:LINE, exit 2, write no record" {
	check_error() {   # unit text in $1, expected message in $2
		printf '%b' "$1" >"$T/bad.service"
		run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/bad.service"
		[ "$status" -eq 2 ] || { echo "status $status for: $1"; return 1; }
		[ "$output" = "capaudit: $T/bad.service:$2" ] || { echo "got: $output"; return 1; }
		[ ! -e "$T/rec.jsonl" ]
	}
	check_error '[Service]\nUser=%i\nExecStart=/bin/true\n' \
		"2: User= uses the specifier %i, which capaudit does not resolve (it needs the unit's instance and the manager): write the value out"
	check_error '[Service]\n# full privileges\nExecStart=+/bin/true\n' \
		"3: ExecStart= prefix '+' runs the command with full privileges, outside User=, the capability settings and the sandbox: there is no configured set to audit (remove the '+' to audit the unit's settings, or record it with 'capaudit record -- COMMAND')"
	check_error '[Service]\nExecStart=/bin/true\nAmbientCapabilities=CAP_CHOWN \\\n  CAP_NOPE\n' \
		"3: AmbientCapabilities=: unknown capability 'CAP_NOPE'"
	check_error '[Service]\nExecStart=/bin/echo "open\n' \
		"2: ExecStart= has an unterminated double quote"
	check_error '[Service]\nExecStart=/bin/true\nExecStart=/bin/true\n' \
		"3: a second ExecStart= command (the first is on line 2): only Type=oneshot services may have several"
	check_error '[Unit]\nDescription=x\n' "1: no [Service] section: not a service unit"
	check_error '[Service]\nUser=no-such-user-here\nExecStart=/bin/true\n' \
		"2: User=no-such-user-here: no such user on this host"
	check_error '[Service]\nExecStart=no-such-program-here\n' \
		"2: ExecStart=no-such-program-here: not found in /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin"
	check_error '[Service]\nExecStart=/bin/echo $HOME\n' \
		"2: ExecStart= uses \$HOME, which no Environment= of this file sets (capaudit reads neither EnvironmentFile= nor the manager's environment; prefix the command with ':' to pass '\$' as it is)"
	run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/none.service"
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: $T/none.service: No such file or directory" ]
}

@test "record --service goes with no other scope" {
	printf '[Service]\nExecStart=/bin/true\n' >"$T/t.service"
	run "$CAPAUDIT" record --service "$T/t.service" -- /bin/true
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: give only one of -p, -a, --cgroup, --container, --unit, --service and -- COMMAND" ]
	run "$CAPAUDIT" record --service "$T/t.service" -a
	[ "$status" -eq 2 ]
}

@test "record --service: settings capaudit does not apply are noted with their line" {
	unit notes <<-EOF
	[Service]
	DynamicUser=yes
	WorkingDirectory=/
	ExecStart=/bin/true
	EOF
	run "$CAPAUDIT" record -o "$T/rec.jsonl" --service "$T/notes.service"
	[ "$status" -eq 0 ]
	[[ "$output" == *"capaudit: note: $T/notes.service:2: DynamicUser= is not applied"* ]]
	[[ "$output" == *"capaudit: note: $T/notes.service:3: WorkingDirectory= is not applied"* ]]
}
