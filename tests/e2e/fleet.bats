#!/usr/bin/env bats
# report --fleet: three simulated hosts (each a capaudit monitor in a UTS
# namespace of its own, hostname hostA, hostB, hostC, watching a cgroup of
# its own), two checkpoints of each copied at different times, as a
# DaemonSet's files would be collected. Real programs make real checks:
# a copy of chown (CAP_CHOWN) the same on every host, a copy of chmod
# ("tool": CAP_FOWNER on a file of nobody's) that on hostB later also sets
# a setgid bit on a file of a group root is not in (CAP_FSETID). The fleet
# view must count hosts and processes per build, and date the tool's set
# from hostB's second checkpoint, the chown's from its first record.
# tier: scoped (each monitor watches a cgroup of its own; its ASan pass runs beside lane 1)

load helper

setup() {
	e2e_setup
	V2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	[ -n "$V2" ] || skip "cgroup v2 is not mounted"
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	PIDS=()
	CGS=()
	# the programs under a path of this test's own: other work on the
	# host runs other copies (other identities: another path)
	BIN=$(mktemp -d /var/lib/capaudit-e2e-fleet.XXXXXX)
	cp "$(readlink -f "$(command -v chown)")" "$BIN/chown"
	cp "$(readlink -f "$(command -v chmod)")" "$BIN/tool"
	mkdir "$T/fleet"
}

teardown() {
	local p c
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	for c in "${CGS[@]}"; do rmdir "$V2$c" 2>/dev/null; done
	[ -n "${BIN:-}" ] && rm -rf "$BIN"
	e2e_teardown
}

# start_host NAME: a monitor whose uname -n is NAME, of the cgroup
# /capaudit-e2e-fleet-PID-NAME, checkpointing to $T/NAME.jsonl every 0.5 s
start_host() {
	local cg=/capaudit-e2e-fleet-$$-$1
	mkdir "$V2$cg"
	CGS+=("$cg")
	unshare --uts sh -c 'hostname "$1" && shift && exec "$@"' sh "$1" \
		"$CAPAUDIT" monitor -q -o "$T/$1.jsonl" --interval 0.5 --cgroup "$cg" \
		2>"$T/$1.err" &
	PIDS+=($!)
	wait_attached $!
}

# on HOST CMD...: CMD run in HOST's cgroup
on() {
	local cg=/capaudit-e2e-fleet-$$-$1
	shift
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$V2$cg" "$@"
}

# checkpoint HOST: the number of HOST's latest checkpoint (0: none yet)
checkpoint() {
	[ -s "$T/$1.jsonl" ] || { echo 0; return; }
	head -1 "$T/$1.jsonl" | jq -r '.monitor.checkpoint // 0'
}

# shows HOST EXE CAP: HOST's checkpoint has EXE granted CAP (a check line
# of its process line)
shows() {
	[ -s "$T/$1.jsonl" ] && jq -s -e --arg e "$2" --arg c "$3" '
		(map(select(.type == "process" and .exe == $e) | .pid)) as $p
		| any(.[]; .type == "check" and .cap_name == $c and .ret == 0
		      and (.pid as $x | $p | index($x)))' "$T/$1.jsonl" >/dev/null
}

newer_than() {
	[ "$(checkpoint "$1")" -gt "$2" ]
}

# take HOST N: HOST's checkpoint file as collected now, as HOST-N.jsonl;
# the file is replaced by rename, so a copy is one whole checkpoint
take() {
	cp "$T/$1.jsonl" "$T/fleet/$1-$2.jsonl"
}

end_ns() {
	head -1 "$T/fleet/$1.jsonl" | jq -r .end_ns
}

# check_times EXE: "FIRST LAST": over every file taken, the first and last
# time a check of EXE's line was made (ns)
check_times() {
	local f lo= hi= a b
	for f in "$T"/fleet/*.jsonl; do
		read -r a b < <(jq -s -r --arg e "$1" '
			(map(select(.type == "process" and .exe == $e) | .pid)) as $p
			| [.[] | select(.type == "check" and (.pid as $x | $p | index($x)))]
			| if length == 0 then "- -" else "\(map(.first_ns) | min) \(map(.last_ns) | max)" end' "$f")
		[ "$a" = - ] && continue
		{ [ -z "$lo" ] || [ "$a" -lt "$lo" ]; } && lo=$a
		{ [ -z "$hi" ] || [ "$b" -gt "$hi" ]; } && hi=$b
	done
	echo "$lo $hi"
}

@test "fleet: three hosts' checkpoints over time give each build's hosts, processes, dates and since when its set is stable" {
	for h in hostA hostB hostC; do start_host "$h"; done
	t0=$(date +%s%N)
	for h in hostA hostB hostC; do
		touch "$T/c-$h" "$T/m-$h"
		chown nobody "$T/m-$h"
		on "$h" "$BIN/chown" nobody "$T/c-$h"
		on "$h" "$BIN/tool" 644 "$T/m-$h"
	done
	# the first checkpoints: each host's, once it shows both programs
	for h in hostA hostB hostC; do
		wait_for 20 shows "$h" "$BIN/chown" CAP_CHOWN
		wait_for 20 shows "$h" "$BIN/tool" CAP_FOWNER
		take "$h" 1
	done
	n1=$(checkpoint hostB)
	# later, hostB's tool sets a setgid bit on a file of group nogroup
	touch "$T/s"
	chown root:nogroup "$T/s"
	on hostB "$BIN/tool" 2755 "$T/s"
	wait_for 20 shows hostB "$BIN/tool" CAP_FSETID
	take hostB 2
	# the others' second checkpoints: a later one, nothing new
	for h in hostA hostC; do
		wait_for 20 newer_than "$h" "$(jq -r .monitor.checkpoint <(head -1 "$T/fleet/$h-1.jsonl"))"
		take "$h" 2
	done
	[ "$(head -1 "$T/fleet/hostB-2.jsonl" | jq -r .monitor.checkpoint)" -gt "$n1" ]
	for f in "$T"/fleet/*.jsonl; do
		[ "$(head -1 "$f" | jq -r .host)" = "$(basename "$f" | cut -d- -f1)" ]
	done

	# named as given: from the directory they were collected into
	cd "$T/fleet"
	run "$CAPAUDIT" report --fleet --format json *.jsonl
	[ "$status" -eq 0 ]
	json=$output
	echo "$json" | jq -c '.builds[] | select(.exe // "" | startswith($b))' --arg b "$BIN"
	[ "$(jq -r '.fleet.records, (.fleet.hosts | map(.name) | join(","))' <<<"$json" | tr '\n' ' ')" = \
	  "6 hostA,hostB,hostC " ]
	build() {
		jq -c --arg e "$1" '.builds[] | select(.exe == $e)' <<<"$json"
	}
	chown_b=$(build "$BIN/chown")
	tool_b=$(build "$BIN/tool")
	# one entry each (one build), on three hosts, a process on each (the
	# tool: two on hostB), in all six records
	[ "$(jq -r '"\(.hosts) \(.host_names | join(",")) \(.processes) \(.records) \(.builds_of_path)"' \
		<<<"$chown_b")" = "3 hostA,hostB,hostC 3 6 1" ]
	[ "$(jq -r '"\(.hosts) \(.processes) \(.records)"' <<<"$tool_b")" = "3 4 6" ]
	[ "$(jq -r '.required | join(",")' <<<"$chown_b")" = CAP_CHOWN ]
	[ "$(jq -r '.required | join(",")' <<<"$tool_b")" = CAP_FOWNER,CAP_FSETID ]
	# chown: stable since its first record (the earliest first checkpoint)
	first=$(for h in hostA hostB hostC; do end_ns "$h-1"; done | sort -n | head -1)
	[ "$(jq -r '.stable_since_ns, (.changes | length)' <<<"$chown_b" | tr '\n' ' ')" = "$first 0 " ]
	# the tool: since hostB's second checkpoint, which first showed CAP_FSETID
	b2=$(end_ns hostB-2)
	[ "$b2" -gt "$first" ]
	[ "$(jq -r '"\(.stable_since_ns) \(.stable_host) \(.stable_file)"' <<<"$tool_b")" = \
	  "$b2 hostB hostB-2.jsonl" ]
	[ "$(jq -r '.changes[] | "\(.at_ns) \(.host) \(.file) \(.added | join(","))"' <<<"$tool_b")" = \
	  "$b2 hostB hostB-2.jsonl CAP_FSETID" ]
	# first and last seen: the checks' own times, within this test
	read -r lo hi < <(check_times "$BIN/tool")
	[ "$(jq -r '"\(.first_seen_ns) \(.last_seen_ns)"' <<<"$tool_b")" = "$lo $hi" ]
	[ "$lo" -ge "$t0" ]
	[ "$hi" -le "$b2" ]
	[ "$hi" -gt "$(end_ns hostB-1)" ]   # the setgid chmod, after hostB's first
	read -r lo hi < <(check_times "$BIN/chown")
	[ "$(jq -r '"\(.first_seen_ns) \(.last_seen_ns)"' <<<"$chown_b")" = "$lo $hi" ]
	[ "$lo" -ge "$t0" ]

	# the same in text
	run "$CAPAUDIT" report --fleet *.jsonl
	[ "$status" -eq 0 ]
	echo "$output"
	[[ "$output" == *"Fleet: 6 records from 3 hosts"* ]]
	txt=$(awk -v e="$BIN/tool" 'index($0, e) == 1 { on = 1; print; next } /^$/ { on = 0 } on' <<<"$output")
	[[ "$txt" == *"ran on 3 hosts (hostA, hostB, hostC), in 4 processes, seen in 6 records"* ]]
	[[ "$txt" == *"required: CAP_FOWNER, CAP_FSETID"* ]]
	iso=$(jq -r .stable_since <<<"$tool_b")
	[[ "$txt" == *"stable since $iso, when hostB (hostB-2.jsonl) first showed CAP_FSETID"* ]]
	[[ "$txt" == *"changed $iso: hostB (hostB-2.jsonl) added CAP_FSETID"* ]]
	txt=$(awk -v e="$BIN/chown" 'index($0, e) == 1 { on = 1; print; next } /^$/ { on = 0 } on' <<<"$output")
	[[ "$txt" == *"ran on 3 hosts (hostA, hostB, hostC), in 3 processes"* ]]
	[[ "$txt" == *"unchanged since its first record"* ]]

	# and html: one row per build, the tool's with its change
	run "$CAPAUDIT" report --fleet --format html *.jsonl
	[ "$status" -eq 0 ]
	[[ "$output" == *"<table id=\"builds\">"* ]]
	[[ "$output" == *"hostB (hostB-2.jsonl) added CAP_FSETID"* ]]

	# a record from before headers named their host: named by its file;
	# a rebuilt tool at the same path is another build
	head -1 hostA-1.jsonl | jq -c 'del(.host)' >old-node.jsonl
	tail -n +2 hostA-1.jsonl >>old-node.jsonl
	sed 's/"build_id":"[0-9a-f]*"/"build_id":"00ff"/' hostC-2.jsonl >rebuilt.jsonl
	run "$CAPAUDIT" report --fleet --format json host*.jsonl old-node.jsonl rebuilt.jsonl
	[ "$status" -eq 0 ]
	[ "$(jq -r '.fleet.hosts[] | select(.named_by_file) | .name' <<<"$output")" = old-node.jsonl ]
	[ "$(jq -r --arg e "$BIN/chown" '[.builds[] | select(.exe == $e)]
		| map("\(.build_id):\(.hosts):\(.builds_of_path)") | sort | join(" ")' <<<"$output")" = \
	  "00ff:1:2 $(jq -r .build_id <<<"$chown_b"):4:2" ]
}

@test "fleet: a file that is not a record, or of an unknown version, is one line naming it" {
	echo 'not json' >"$T/junk.jsonl"
	printf '%s\n' '{"type":"header","format":"capaudit-record","version":99,"kernel":"6.1","attach":"tp_btf","start_ns":1,"end_ns":2}' \
		'{"type":"end","processes":0,"stacks":0,"checks":0}' >"$T/future.jsonl"
	for f in junk future; do
		run --separate-stderr "$CAPAUDIT" report --fleet "$T/$f.jsonl"
		echo "$stderr"
		[ "$status" -ne 0 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		[[ "$stderr" == *"$f.jsonl"* ]]
	done
	[[ "$stderr" == *"99"* ]]
	# --fleet goes alone: a filter is refused, saying so
	run "$CAPAUDIT" report --fleet --suggest "$T/junk.jsonl"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--fleet goes alone"* ]]
}
