#!/usr/bin/env bats
# tier: plain (real podman containers, a minute of runtime start-up;
# their recording paths are record.bats' and faults' in the ASan pass)
# Services and containers (issue 17): record --container, --cgroup and
# --unit against real rootful podman (runc) containers and a cgroup made
# the way systemd makes a service's. The image is busybox-static imported
# from a tarball (no registry). Checks of the host and of a second
# container must not be in a container's record.

load helper

IMAGE=localhost/capaudit-test-busybox:1
PARENT=/capaudit-e2e   # the containers' cgroup parent (cgroupfs manager)

podman_run() {
	podman --runtime runc --cgroup-manager cgroupfs run -d --network none \
		--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 \
		--cgroup-parent "$PARENT" "$@"
}

# gated_run NAME JOB: a container that runs JOB once $T/go exists (the
# directory is mounted at /gate), so that nothing it does comes before the
# recorder is attached, however slowly this host starts either
gated_run() {
	podman_run --name "$1" -v "$T:/gate" "$IMAGE" sh -c \
		"while [ ! -e /gate/go ]; do sleep 0.1; done; $2" >/dev/null
}

# record_gated ARGS...: record ARGS; once the recorder is attached, open the gate
record_gated() {
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" "$@" &
	local rec=$!
	wait_attached "$rec" || return 1
	touch "$T/go"
	wait "$rec"
}

setup_file() {
	command -v podman >/dev/null && command -v runc >/dev/null || return 0
	[ -x /bin/busybox ] || return 0
	local d
	d=$(mktemp -d)
	mkdir -p "$d/root/bin" "$d/root/tmp" "$d/root/etc"
	cp /bin/busybox "$d/root/bin/"
	for a in $(/bin/busybox --list); do
		[ "$a" = busybox ] || ln -sf busybox "$d/root/bin/$a"
	done
	echo 'root:x:0:0::/:/bin/sh' >"$d/root/etc/passwd"
	tar -C "$d/root" -cf "$d/bb.tar" .
	podman import -q "$d/bb.tar" "$IMAGE" >/dev/null
	rm -rf "$d"
}

teardown_file() {
	command -v podman >/dev/null || return 0
	for c in ca-e2e-a ca-e2e-b ca-e2e-late ca-e2e-w ca-e2e-o; do podman rm -f -t 0 "$c" >/dev/null 2>&1; done; true
}

setup() {
	e2e_setup
	command -v podman >/dev/null || skip "podman is not installed (tools/deps.sh installs it)"
	command -v runc >/dev/null || skip "runc is not installed"
	podman image exists "$IMAGE" || skip "the busybox test image could not be built"
	V2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	[ -n "$V2" ] || skip "cgroup v2 is not mounted"
}

teardown() {
	for c in ca-e2e-a ca-e2e-b ca-e2e-late ca-e2e-w ca-e2e-o; do podman rm -f -t 0 "$c" >/dev/null 2>&1; done; true
	[ -n "${UNIT_CG:-}" ] && rmdir "$UNIT_CG" 2>/dev/null
	e2e_teardown
}

@test "record --container: only that container's checks, attributed to it; stops when it exits" {
	# a: chown three times (CAP_CHOWN); b: chroot (CAP_SYS_CHROOT); the
	# host: chown too, under its own pid
	gated_run ca-e2e-a 'touch /tmp/f; for i in 1 2 3; do chown 1:1 /tmp/f; done; sleep 1'
	gated_run ca-e2e-b 'for i in 1 2 3; do chroot / true; done; sleep 1'
	touch "$T/host"
	(while [ ! -e "$T/go" ]; do sleep 0.1; done; chown 1:1 "$T/host"; echo $BASHPID >"$T/host.pid") &
	id=$(podman inspect -f '{{.Id}}' ca-e2e-a)
	run record_gated --container ca-e2e-a
	[ "$status" -eq 0 ]
	wait
	# the header: the container, by id and name, and why it stopped
	run jq -r 'select(.type == "header") | "\(.scope) \(.target.container) \(.target.name) \(.target.cgroup) \(.stop)"' "$T/rec.jsonl"
	[ "$output" = "container $id ca-e2e-a $PARENT/libpod-$id exited" ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl"
	[ "${lines[1]}" = "  kernel $(uname -r), attach tp_btf, scope container: ca-e2e-a (${id:0:12}), cgroup $PARENT/libpod-$id" ]
	report_json
	[ "$(jqr '.record.target.name')" = ca-e2e-a ]
	# every process is the container's, and says so
	run jq -r 'select(.type == "process") | "\(.container.id) \(.container.name) \(.container.runtime) \(.cgroup)"' "$T/rec.jsonl"
	[ "${#lines[@]}" -ge 2 ]
	for l in "${lines[@]}"; do
		[ "$l" = "$id ca-e2e-a podman $PARENT/libpod-$id" ]
	done
	# the three chowns (each checks CAP_CHOWN at least once), none of b's
	# chroot, none of the host's chown
	report_json
	n=$(jqr '[.processes[] | .capabilities[] | select(.cap == "CAP_CHOWN") | .granted] | add')
	[ "$n" -ge 3 ]
	[ "$(jqr '[.processes[] | .capabilities[] | select(.cap == "CAP_SYS_CHROOT")] | length')" = 0 ]
	run jq -r --argjson p "$(cat "$T/host.pid")" 'select(.type == "process" and .pid == $p)' "$T/rec.jsonl"
	[ -z "$output" ]
	run jqr '.required[]'
	[[ " ${lines[*]} " == *" CAP_CHOWN "* ]]
	[[ " ${lines[*]} " != *" CAP_SYS_CHROOT "* ]]
}

@test "record --container by id prefix; a name that no container has names what was tried" {
	gated_run ca-e2e-a true
	id=$(podman inspect -f '{{.Id}}' ca-e2e-a)
	run record_gated --container "${id:0:12}"
	[ "$status" -eq 0 ]
	run jq -r 'select(.type == "header") | .target.container' "$T/rec.jsonl"
	[ "$output" = "$id" ]
	run "$CAPAUDIT" record -q -o "$T/none.jsonl" --container ca-e2e-nosuch
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "capaudit: --container ca-e2e-nosuch: no running container has that name or id (looked for cgroups libpod-<id>, docker-<id>.scope,"* ]]
	[[ "$output" == *"asked podman, docker and crictl where installed); running: "* ]]
	[ ! -e "$T/none.jsonl" ]
}

@test "record --cgroup: a container started after recording began is in it, by name; the runtime's setup is marked" {
	mkdir -p "$V2$PARENT"
	# the parent holds no process yet: -d says how long to wait
	run "$CAPAUDIT" record -q -o "$T/x.jsonl" --cgroup "$PARENT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"--cgroup $PARENT: no process in $V2$PARENT now (give -d SECONDS to wait for some)"* ]]
	# started once the recorder is attached; the recording ends by itself
	# when the parent empties again (the container exited), -d is the bound
	touch "$T/host"
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" --cgroup "$PARENT" -d 30 &
	local rec=$!
	wait_attached "$rec"
	podman_run --name ca-e2e-late "$IMAGE" sh -c 'touch /tmp/f; chown 1:1 /tmp/f; sleep 1' >/dev/null
	chown 1:1 "$T/host"
	wait "$rec"
	[ "$(head -n 1 "$T/rec.jsonl" | jq -r .stop)" = exited ]
	id=$(podman inspect -f '{{.Id}}' ca-e2e-late)
	# the container's chown, in a process of the container named by name
	# (busybox runs it in the forked shell, without an exec)
	run jq -rs --arg id "$id" '(map(select(.type == "process")) | map({key: "\(.pid)/\(.exec_id)", value: .}) | from_entries) as $p
		| .[] | select(.type == "check" and .cap_name == "CAP_CHOWN" and .ret == 0)
		| $p["\(.pid)/\(.exec_id)"] | select(.container.id == $id and (.runtime_setup | not))
		| .container.name' "$T/rec.jsonl"
	[ "${lines[0]}" = ca-e2e-late ]
	# runc setting it up ran in its cgroup too, and is marked as such
	run jq -r 'select(.type == "process" and .runtime_setup) | .comm' "$T/rec.jsonl"
	[[ " ${lines[*]} " == *"runc:[1:CHILD]"* ]]
	# nothing of the host: every process is in the parent's subtree
	run jq -r 'select(.type == "process") | .cgroup' "$T/rec.jsonl"
	for l in "${lines[@]}"; do [[ "$l" == "$PARENT/"* ]]; done
}

@test "record --container NAME --wait: from its first exec, only it; its docker snippet runs it, minimal, without the runtime's capabilities" {
	# the job's privileged steps are its very first: no gate, nothing to
	# attach to before they run
	local job='touch /tmp/f && chown 1:1 /tmp/f && chroot / true'
	"$CAPAUDIT" record -o "$T/rec.jsonl" --container ca-e2e-w --wait -d 120 2>"$T/rec.err" &
	local rec=$!
	wait_attached "$rec"
	# while it waits: the host and another container do privileged things too
	touch "$T/host"
	chown 1:1 "$T/host"
	podman_run --name ca-e2e-o "$IMAGE" sh -c 'for i in 1 2 3; do hostname x; done' >/dev/null
	podman_run --name ca-e2e-w "$IMAGE" sh -c "$job" >/dev/null
	# it ends by itself when the container has exited
	wait "$rec"
	id=$(podman inspect -f '{{.Id}}' ca-e2e-w)
	run cat "$T/rec.err"
	[ "${lines[0]}" = "capaudit: waiting for container ca-e2e-w to start; until then every process on the host is followed" ]
	[ "${lines[1]}" = "capaudit: container ca-e2e-w (${id:0:12}) started; recording it until it exits" ]
	run jq -r 'select(.type == "header") | "\(.scope) \(.target.container) \(.target.name) \(.stop)"' "$T/rec.jsonl"
	[ "$output" = "container $id ca-e2e-w exited" ]
	# only its processes: nothing of the host, nothing of the other container
	run jq -r 'select(.type == "process") | .container.id' "$T/rec.jsonl"
	[ "${#lines[@]}" -ge 2 ]
	for l in "${lines[@]}"; do [ "$l" = "$id" ]; done
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --suggest --format json
	[ "$(echo "$output" | jq -c .required)" = '["CAP_CHOWN","CAP_SYS_CHROOT"]' ]
	# a whole record: nothing it may have missed
	[ "$(echo "$output" | jq -c .partial)" = null ]
	# runc's stages ran in its cgroup from the start: recorded, left out
	[ "$(echo "$output" | jq -r '.runtime_setup_left_out.granted | index("CAP_SYS_ADMIN") != null')" = true ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --emit docker
	[ "$status" -eq 0 ]
	flags=${lines[-1]}
	[ "$flags" = "--cap-drop ALL --cap-add CHOWN --cap-add SYS_CHROOT --security-opt no-new-privileges" ]
	# the kernel agrees: with exactly those flags it works, without either it fails
	local run_rm="podman --runtime runc --cgroup-manager cgroupfs run --rm --network none --ulimit nofile=1024:1024 --ulimit nproc=1024:1024"
	run $run_rm $flags "$IMAGE" sh -c "$job"
	[ "$status" -eq 0 ]
	run $run_rm ${flags/ --cap-add CHOWN/} "$IMAGE" sh -c "$job"
	[ "$status" -ne 0 ]
	[[ "$output" == *"chown: /tmp/f: Operation not permitted"* ]]
	run $run_rm ${flags/ --cap-add SYS_CHROOT/} "$IMAGE" sh -c "$job"
	[ "$status" -ne 0 ]
	[[ "$output" == *"chroot: can't change root directory to '/': Operation not permitted"* ]]
}

@test "record --wait: only with --container; no start before -d: exit 1, nothing written; a running one is not the start awaited" {
	run "$CAPAUDIT" record -q -o "$T/x.jsonl" --wait -a
	[ "$status" -eq 2 ]
	[ "$output" = "capaudit: --wait waits for a container to start: give it with --container NAME|ID" ]
	run "$CAPAUDIT" record -q -o "$T/x.jsonl" --container ca-e2e-nosuch --wait -d 1
	[ "$status" -eq 1 ]
	[ "$output" = "capaudit: --container ca-e2e-nosuch --wait: no container of that name or id started before -d ended the wait; nothing recorded" ]
	[ ! -e "$T/x.jsonl" ]
	gated_run ca-e2e-a true
	run "$CAPAUDIT" record -o "$T/x.jsonl" --container ca-e2e-a --wait -d 1
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "capaudit: container ca-e2e-a is running now; that run is not recorded: waiting for its next start (for example: podman restart ca-e2e-a)" ]
	[ ! -e "$T/x.jsonl" ]
}

# has_procs CGROUP_DIR: a process is in it (cgroupfs files have no size:
# read, not test -s)
has_procs() {
	[ -n "$(cat "$1/cgroup.procs")" ]
}

@test "record --unit: a service's cgroup by systemd's convention; stops when its last process exits" {
	UNIT_CG="$V2/system.slice/capaudit-e2e.service"
	mkdir -p "$UNIT_CG"
	touch "$T/u"
	sh -c "echo \$\$ >'$UNIT_CG/cgroup.procs'; exec sh -c 'while [ ! -e $T/go ]; do sleep 0.1; done; chown 1:1 $T/u; sleep 1'" &
	wait_for 5 has_procs "$UNIT_CG"
	run record_gated --unit capaudit-e2e
	[ "$status" -eq 0 ]
	wait
	run jq -r 'select(.type == "header") | "\(.scope) \(.target.unit) \(.target.cgroup) \(.stop)"' "$T/rec.jsonl"
	[ "$output" = "unit capaudit-e2e.service /system.slice/capaudit-e2e.service exited" ]
	run jq -r 'select(.type == "process") | .unit' "$T/rec.jsonl"
	[ "${#lines[@]}" -ge 2 ]
	for l in "${lines[@]}"; do [ "$l" = "capaudit-e2e.service" ]; done
	report_json
	[ "$(jqr '[.processes[] | select(.comm == "chown") | .capabilities[] | select(.cap == "CAP_CHOWN") | .granted] | add')" -ge 1 ]
	run "$CAPAUDIT" record -q -o "$T/x.jsonl" --unit capaudit-e2e-nosuch
	[ "$status" -eq 1 ]
	[[ "$output" == *"--unit capaudit-e2e-nosuch.service: no cgroup of that name under $V2"* ]]
}

@test "an exec that gains privilege through file capabilities is marked secure_exec" {
	[ -n "$(getcap /bin/ping 2>/dev/null)" ] || skip "ping has no file capabilities here"
	run record -- setpriv --reuid=65534 --regid=65534 --clear-groups ping -c1 -W1 127.0.0.1
	[ "$status" -eq 0 ]
	run jq -r 'select(.type == "process") | "\(.comm) \(.secure_exec // false)"' "$T/rec.jsonl"
	[[ " ${lines[*]} " == *"ping true"* ]]
	[[ " ${lines[*]} " == *"setpriv false"* ]]
}

@test "closed loop: the container's suggested set runs it, and it fails without it; overlayfs's checks as its mounter are set aside" {
	# touch copies /tmp up from the image (overlayfs checks as podman, the
	# mounter: CAP_DAC_OVERRIDE, CAP_SYS_ADMIN at xattr_permission...);
	# chown is the program's own CAP_CHOWN
	local job='touch /tmp/f && chown 1:1 /tmp/f && sleep 1'
	gated_run ca-e2e-a "$job"
	run record_gated --container ca-e2e-a
	[ "$status" -eq 0 ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --suggest --format json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | jq -c .required)" = '["CAP_CHOWN"]' ]
	# the mounter's checks: set aside with their reason, CAP_SYS_ADMIN among them
	[ "$(echo "$output" | jq -r '[.not_required[] | select(.why == "foreign-credentials") | .cap] | index("CAP_SYS_ADMIN") != null')" = true ]
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --emit docker
	[ "$status" -eq 0 ]
	flags=${lines[-1]}
	[ "$flags" = "--cap-drop ALL --cap-add CHOWN --security-opt no-new-privileges" ]
	# the kernel agrees: with exactly those flags it works, without CHOWN it fails
	run podman --runtime runc --cgroup-manager cgroupfs run --rm --network none \
		--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 $flags "$IMAGE" sh -c "$job"
	[ "$status" -eq 0 ]
	run podman --runtime runc --cgroup-manager cgroupfs run --rm --network none \
		--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 --cap-drop ALL \
		--security-opt no-new-privileges "$IMAGE" sh -c "$job"
	[ "$status" -ne 0 ]
	[[ "$output" == *"chown: /tmp/f: Operation not permitted"* ]]
}
