#!/usr/bin/env bats
# tier: check (record files only: no root, no kernel, no waiting)
# report --emit on hand-written version 4 records (tests/fixtures/emit-*):
# the exact snippet for root and non-root users, with and without a
# privilege gained at exec, and an empty required set. No BPF is loaded:
# these run without root. Where PyYAML is installed, the YAML snippets are
# parsed and their keys checked too.

load helper

FIX="$ROOT/tests/fixtures"

setup() {
	[ -x "$CAPAUDIT" ] || skip "build/capaudit is not built (run make)"
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/capaudit-emit.XXXXXX")
}

teardown() {
	e2e_teardown
}

# emit KIND FIXTURE: the snippet into $T/out and $output
emit() {
	run "$CAPAUDIT" report --emit "$1" -i "$FIX/emit-$2.jsonl"
	[ "$status" -eq 0 ]
	# a record of processes already running (--unit, -p) says first that
	# it may miss their start (two comment lines); the rest is the snippet
	PARTIAL=
	if [[ "$output" == "# WARNING: made from a partial record, this may miss capabilities: it attached to processes already running"* ]]; then
		PARTIAL=start
		output=$(sed 1,2d <<<"$output")
	fi
	# (partial: a scope's process started before the recording did)
	if jq -se '.[0] as $h | ($h.scope != "command" and $h.scope != "service") and
		any(.[] | select(.type == "process"); .start_ns < $h.start_ns)' \
		"$FIX/emit-$2.jsonl" >/dev/null; then
		[ "$PARTIAL" = start ]
	else
		[ -z "$PARTIAL" ]
	fi
	printf '%s\n' "$output" >"$T/out"
}

# the name User= gets for uid $1: this machine's, else the number
user_name() {
	getent passwd "$1" | cut -d: -f1 | grep . || echo "$1"
}

# yaml_check KIND EXPR: EXPR (Python, over `d`, the parsed $T/out) is true;
# nothing to check without PyYAML
yaml_check() {
	python3 -c 'import yaml' 2>/dev/null || return 0
	python3 - "$T/out" "$1" <<-'PY'
	import sys, yaml
	d = yaml.safe_load(open(sys.argv[1]))
	ok = eval(sys.argv[2])
	print(d)
	sys.exit(0 if ok else 1)
	PY
}

@test "a root service: a drop-in named after the unit, no ambient set, no user, no gains" {
	emit systemd root-service
	[ "$output" = "# /etc/systemd/system/web.service.d/capaudit.conf
# then: systemctl daemon-reload && systemctl restart web.service
[Service]
# each empty assignment resets what the unit itself set
CapabilityBoundingSet=
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
AmbientCapabilities=
NoNewPrivileges=yes" ]
	emit docker root-service
	[ "$output" = "--cap-drop ALL --cap-add NET_BIND_SERVICE --security-opt no-new-privileges" ]
	emit compose root-service
	[ "$output" = '# compose.yaml: under services: NAME:
cap_drop: ["ALL"]
cap_add: ["NET_BIND_SERVICE"]
security_opt: ["no-new-privileges:true"]' ]
	yaml_check 'd == {"cap_drop": ["ALL"], "cap_add": ["NET_BIND_SERVICE"], "security_opt": ["no-new-privileges:true"]}'
	emit kubernetes root-service
	[ "$output" = 'securityContext:
  capabilities:
    drop: ["ALL"]
    add: ["NET_BIND_SERVICE"]
  allowPrivilegeEscalation: false' ]
	yaml_check 'd == {"securityContext": {"capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}, "allowPrivilegeEscalation": False}}'
}

@test "one non-root user, capabilities from outside the program: User= and ambient for systemd; containers told about file capabilities" {
	local u
	u=$(user_name 54321)
	emit systemd nonroot-ambient
	[ "${lines[6]}" = "AmbientCapabilities=" ]
	[ "${lines[7]}" = "AmbientCapabilities=CAP_NET_BIND_SERVICE" ]
	[ "${lines[9]}" = "User=$u" ]
	[ "${lines[10]}" = "NoNewPrivileges=yes" ]
	[ "${#lines[@]}" -eq 11 ]
	emit docker nonroot-ambient
	[ "${lines[0]}" = "# uid 54321 is not root: Docker adds capabilities to a non-root user's" ]
	[ "${lines[4]}" = "--cap-drop ALL --cap-add NET_BIND_SERVICE --user 54321" ]
	[ "${#lines[@]}" -eq 5 ]
	emit compose nonroot-ambient
	yaml_check 'd == {"cap_drop": ["ALL"], "cap_add": ["NET_BIND_SERVICE"], "user": "54321"}'
	emit kubernetes nonroot-ambient
	[ "$output" = 'securityContext:
  capabilities:
    drop: ["ALL"]
    add: ["NET_BIND_SERVICE"]
  # uid 54321 is not root: Kubernetes adds capabilities to a non-root user'"'"'s
  # bounding set only, not to its effective set. The program gets them
  # from file capabilities in the image (capaudit report --emit setcap),
  # which allowPrivilegeEscalation: false would make the kernel ignore: left out
  runAsUser: 54321
  runAsNonRoot: true' ]
	yaml_check 'd == {"securityContext": {"capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]}, "runAsUser": 54321, "runAsNonRoot": True}}'
}

@test "an empty required set: drop everything, add nothing, set the user, forbid gains" {
	local u
	u=$(user_name 54321)
	emit systemd nonroot-nothing
	[ "$output" = "# /etc/systemd/system/app.service.d/capaudit.conf
# then: systemctl daemon-reload && systemctl restart app.service
# (a system service: it ran under a user manager, which can neither
# give nor drop capabilities; a user service with these fails to start)
[Service]
# each empty assignment resets what the unit itself set
CapabilityBoundingSet=
AmbientCapabilities=
# every process ran as uid 54321${u:+$([ "$u" = 54321 ] || echo " ($u here)")}
User=$u
NoNewPrivileges=yes" ]
	emit docker nonroot-nothing
	[ "$output" = "--cap-drop ALL --security-opt no-new-privileges --user 54321" ]
	emit compose nonroot-nothing
	yaml_check 'd == {"cap_drop": ["ALL"], "security_opt": ["no-new-privileges:true"], "user": "54321"}'
	emit kubernetes nonroot-nothing
	[ "$output" = 'securityContext:
  capabilities:
    drop: ["ALL"]
  allowPrivilegeEscalation: false
  runAsUser: 54321
  runAsNonRoot: true' ]
	yaml_check 'd == {"securityContext": {"capabilities": {"drop": ["ALL"]}, "allowPrivilegeEscalation": False, "runAsUser": 54321, "runAsNonRoot": True}}'
}

@test "a setuid or file-capability program: no setting that forbids privilege gains, and the note names it" {
	emit systemd setuid-ping
	[ "${lines[-2]}" = "# NoNewPrivileges=yes left out: /usr/bin/ping gained privilege at exec" ]
	[ "${lines[-1]}" = "# (a setuid or setgid bit, or file capabilities): with it the kernel would refuse that" ]
	! grep -q '^NoNewPrivileges' "$T/out"
	emit docker setuid-ping
	[ "${lines[-1]}" = "--cap-drop ALL --cap-add NET_RAW --user 1000" ]
	grep -qx '# --security-opt no-new-privileges left out: /usr/bin/ping gained privilege at exec' "$T/out"
	emit compose setuid-ping
	grep -qx '# security_opt no-new-privileges left out: /usr/bin/ping gained privilege at exec' "$T/out"
	yaml_check '"security_opt" not in d and d["user"] == "1000"'
	emit kubernetes setuid-ping
	grep -qx '  # allowPrivilegeEscalation: false left out: /usr/bin/ping gained privilege at exec' "$T/out"
	yaml_check 'd == {"securityContext": {"capabilities": {"drop": ["ALL"], "add": ["NET_RAW"]}, "runAsUser": 1000, "runAsNonRoot": True}}'
	# --program picks the images: ping is the only one here
	run "$CAPAUDIT" report --emit kubernetes --program ping -i "$FIX/emit-setuid-ping.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" == *"/usr/bin/ping gained privilege"* ]]
}

@test "a version 3 record cannot say whether an exec gained privilege: nothing forbids it, and the note says why" {
	emit kubernetes version3
	grep -qx '  # allowPrivilegeEscalation: false left out: a version 3 record does not say whether an exec' "$T/out"
	! grep -q '^  allowPrivilegeEscalation' "$T/out"
	yaml_check '"allowPrivilegeEscalation" not in d["securityContext"]'
	emit systemd version3
	! grep -q '^NoNewPrivileges' "$T/out"
	emit docker version3
	[ "${lines[-1]}" = "--cap-drop ALL --cap-add NET_RAW --user 1000" ]
}

@test "--emit compose is a kind of its own; an unknown kind names them all" {
	run "$CAPAUDIT" report --emit podman -i "$FIX/emit-root-service.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown --emit kind 'podman' (setcap, systemd, docker, compose, kubernetes, capsh)"* ]]
}
