#!/usr/bin/env bats
# tier: plain (real podman containers, a minute of runtime start-up;
# their recording paths are record.bats' and faults' in the ASan pass)
# Services and containers (issue 17): record --container, --cgroup and
# --unit against real rootful podman (runc) containers and a cgroup made
# the way systemd makes a service's. The image is busybox-static imported
# from a tarball (no registry). Checks of the host and of a second
# container must not be in a container's record, nor a look-alike cgroup
# that a user made with a container's id in a subtree delegated to it
# (issue 43), nor a container that a short id names only with another.

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
	[ "$(id -u)" -eq 0 ] || return 0
	# a user with a cgroup subtree of its own (lookalikes below)
	export TUSER="capaudit-e2e-$$"
	useradd --system --no-create-home --shell /usr/sbin/nologin "$TUSER"
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
	[ -n "${TUSER:-}" ] && userdel "$TUSER" 2>/dev/null
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
	for c in ca-e2e-a ca-e2e-b ca-e2e-late ca-e2e-w ca-e2e-o ${SHORTNAME:-}; do podman rm -f -t 0 "$c" >/dev/null 2>&1; done; true
	[ -n "${UNIT_CG:-}" ] && rmdir "$UNIT_CG" 2>/dev/null
	lookalikes_remove
	e2e_teardown
}

# lookalikes ID: a cgroup named as container ID's (libpod-ID), made by a
# temporary user in a directory delegated to it (what systemd's
# Delegate=yes does: a cgroup directory chowned to the user), twice: one
# before and one after the real container's parent in the order the
# recorder walks the tree (kernfs lists a directory by its names' hashes,
# as ls -f shows). In each, a process of the user (moved there by root:
# cgroup v2 lets only the owner of both ends' common ancestor move it),
# asking for CAP_CHOWN every 0.2 s (chown of its own file to root).
# DELEG: the delegated directories; LOOK_PIDS: the processes.
lookalikes() {
	local id=$1 n d pos real before= after= pid
	mkdir -p "$V2$PARENT"
	touch "$T/la-file"
	chown "$TUSER:" "$T/la-file"
	for n in $(seq 0 15); do mkdir "$V2/capaudit-e2e-deleg$n"; done
	real=$(ls -f "$V2" | grep -nx "${PARENT#/}" | cut -d: -f1)
	for n in $(seq 0 15); do
		d=$V2/capaudit-e2e-deleg$n
		pos=$(ls -f "$V2" | grep -nx "capaudit-e2e-deleg$n" | cut -d: -f1)
		if [ -z "$before" ] && [ "$pos" -lt "$real" ]; then
			before=$d
		elif [ -z "$after" ] && [ "$pos" -gt "$real" ]; then
			after=$d
		else
			rmdir "$d"
		fi
	done
	[ -n "$before" ] && [ -n "$after" ] || { echo "no directory name sorts before and after $PARENT"; return 1; }
	DELEG="$before $after"
	for d in $DELEG; do
		chown "$TUSER:" "$d"
		setpriv --reuid="$TUSER" --regid="$(id -g "$TUSER")" --clear-groups mkdir "$d/libpod-$id"
		[ "$(stat -c %U "$d/libpod-$id")" = "$TUSER" ]
		sh -c 'echo $$ >"$1/cgroup.procs" && exec setpriv --reuid="$2" --regid="$3" --clear-groups \
			sh -c "while :; do chown 0 $4 2>/dev/null; sleep 0.2; done"' \
			sh "$d/libpod-$id" "$TUSER" "$(id -g "$TUSER")" "$T/la-file" &
		pid=$!
		LOOK_PIDS="${LOOK_PIDS:-} $pid"
		# in place, and its execs done (events the recorder sees)
		wait_for 10 grep -qx "$pid" "$d/libpod-$id/cgroup.procs"
		wait_for 10 users_sh "$pid"
	done
}

users_sh() {   # users_sh PID: PID is the user's loop, its execs done
	[ "$(stat -c %U "/proc/$1" 2>/dev/null)" = "$TUSER" ] &&
		[ "$(cat "/proc/$1/comm" 2>/dev/null)" = sh ]
}

# no_procs CGROUP_DIR: it holds no process (may be removed)
no_procs() {
	[ -z "$(cat "$1/cgroup.procs" 2>/dev/null)" ]
}

lookalikes_remove() {
	local p d c
	for p in ${LOOK_PIDS:-}; do kill -KILL "$p" 2>/dev/null; done
	for p in ${LOOK_PIDS:-}; do wait "$p" 2>/dev/null; done
	for d in ${DELEG:-}; do
		for c in "$d"/libpod-*; do
			[ -d "$c" ] || continue
			echo 1 >"$c/cgroup.kill"   # the loop's children too
			wait_for 10 no_procs "$c"
			rmdir "$c"
		done
		rmdir "$d"
	done
	LOOK_PIDS= DELEG=
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

@test "record --container: a look-alike cgroup with its id in another user's delegated subtree, before or after it in the walk, is never taken" {
	gated_run ca-e2e-a 'touch /tmp/f; chown 1:1 /tmp/f; sleep 1'
	id=$(podman inspect -f '{{.Id}}' ca-e2e-a)
	lookalikes "$id"
	# by name and by id prefix: the container's own cgroup, only its processes
	run record_gated --container ca-e2e-a -d 60
	[ "$status" -eq 0 ]
	run jq -r 'select(.type == "header") | "\(.target.container) \(.target.cgroup) \(.stop)"' "$T/rec.jsonl"
	echo "header: $output"
	[ "$output" = "$id $PARENT/libpod-$id exited" ]
	run jq -r 'select(.type == "process") | .cgroup' "$T/rec.jsonl"
	[ "${#lines[@]}" -ge 2 ]
	for l in "${lines[@]}"; do [ "$l" = "$PARENT/libpod-$id" ]; done
	# the user's processes there are not the container's, whatever records them
	local la=${DELEG%% *}/libpod-$id
	"$CAPAUDIT" record -q -o "$T/la.jsonl" --cgroup "${la#$V2}" -d 2
	run jq -r 'select(.type == "process" and .comm == "chown") | "\(.cgroup) \(.container.id)"' "$T/la.jsonl"
	[ "${#lines[@]}" -ge 1 ]
	for l in "${lines[@]}"; do [ "$l" = "${la#$V2} null" ]; done
}

@test "record --container NAME --wait: a look-alike cgroup with the created container's id, in another user's subtree, is not its start" {
	local job='touch /tmp/f && chown 1:1 /tmp/f'
	podman --runtime runc --cgroup-manager cgroupfs create --network none \
		--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 --cgroup-parent "$PARENT" \
		--name ca-e2e-w "$IMAGE" sh -c "$job" >/dev/null
	id=$(podman inspect -f '{{.Id}}' ca-e2e-w)
	"$CAPAUDIT" record -o "$T/rec.jsonl" --container ca-e2e-w --wait -d 60 2>"$T/rec.err" &
	local rec=$!
	wait_attached "$rec"
	# the user's processes exec in cgroups named as it, before it starts
	lookalikes "$id"
	podman --runtime runc --cgroup-manager cgroupfs start ca-e2e-w >/dev/null
	wait "$rec"
	cat "$T/rec.err"
	run cat "$T/rec.err"
	[ "${lines[1]}" = "capaudit: container ca-e2e-w (${id:0:12}) started; recording it until it exits" ]
	run jq -r 'select(.type == "header") | "\(.target.container) \(.target.cgroup) \(.stop)"' "$T/rec.jsonl"
	echo "header: $output"
	[ "$output" = "$id $PARENT/libpod-$id exited" ]
	run jq -r 'select(.type == "process") | .cgroup' "$T/rec.jsonl"
	[ "${#lines[@]}" -ge 1 ]
	for l in "${lines[@]}"; do [ "$l" = "$PARENT/libpod-$id" ]; done
}

@test "record --container SHORT-ID that is also another container's name: refused, naming both; the full id is not" {
	gated_run ca-e2e-a true
	id=$(podman inspect -f '{{.Id}}' ca-e2e-a)
	SHORTNAME=${id:0:12}
	podman_run --name "$SHORTNAME" "$IMAGE" sleep 600 >/dev/null
	id2=$(podman inspect -f '{{.Id}}' "$SHORTNAME")
	run "$CAPAUDIT" record -q -o "$T/x.jsonl" --container "$SHORTNAME" -d 5
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "capaudit: --container $SHORTNAME: several running containers answer to it: ${id:0:12} (ca-e2e-a) by its id, ${id2:0:12} ($SHORTNAME) by its name; give the full id" ]
	[ ! -e "$T/x.jsonl" ]
	run record_gated --container "$id"
	[ "$status" -eq 0 ]
	[ "$(jq -r 'select(.type == "header") | .target.container' "$T/rec.jsonl")" = "$id" ]
}
