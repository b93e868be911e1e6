#!/usr/bin/env bats
# tier: plain (real podman containers and pods, a few seconds of runtime start-up each)
# The Kubernetes snippet, closed loop (issue 43): a job recorded in a real
# podman container (runc), its `report --emit kubernetes` securityContext
# put as it is (indented) into a Pod manifest around the same image and
# command, and the Pod run by a real engine, `podman kube play` (runc,
# cgroupfs, no network; its pause container is the test image's own
# /pause, as the host has no catatonit to build podman's): the job
# succeeds, with exactly the added capabilities; without each of them it
# fails. The images, containers, pods and podman configuration are this
# file's own (names with its pid), and teardown removes every one.

load helper

setup_file() {
	command -v podman >/dev/null && command -v runc >/dev/null || return 0
	[ -x /bin/busybox ] || return 0
	export KUBE_ID=ca-kube-$$
	export KUBE_IMAGE=localhost/$KUBE_ID:job KUBE_INFRA=localhost/$KUBE_ID:infra
	export KUBE_CONF=$BATS_FILE_TMPDIR/containers.conf
	local d=$BATS_FILE_TMPDIR/image a
	mkdir -p "$d/root/bin" "$d/root/tmp" "$d/root/etc"
	cp /bin/busybox "$d/root/bin/"
	for a in $(/bin/busybox --list); do
		[ "$a" = busybox ] || ln -sf busybox "$d/root/bin/$a"
	done
	echo 'root:x:0:0::/:/bin/sh' >"$d/root/etc/passwd"
	# the pod's pause process: waits until it is stopped
	printf '#!/bin/sh\ntrap "exit 0" TERM INT\nwhile :; do sleep 3600 & wait $!; done\n' \
		>"$d/root/pause"
	chmod 755 "$d/root/pause"
	tar -C "$d/root" -cf "$d/bb.tar" .
	# kube play gives a container no PATH of its own: the image's
	podman import -q --change 'ENV PATH=/bin' "$d/bb.tar" "$KUBE_IMAGE" >/dev/null
	podman import -q --change 'ENV PATH=/bin' --change 'ENTRYPOINT ["/pause"]' \
		"$d/bb.tar" "$KUBE_INFRA" >/dev/null
	rm -rf "$d"
	# this host's engine: runc, cgroupfs, the limits runc can set here,
	# and the infra image above (CONTAINERS_CONF: containers.conf(5))
	cat >"$KUBE_CONF" <<-EOF
	[containers]
	default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
	[engine]
	runtime = "runc"
	cgroup_manager = "cgroupfs"
	infra_image = "$KUBE_INFRA"
	EOF
}

# pods NAME...: every pod and container of this file gone
kube_clean() {
	local p
	for p in $(CONTAINERS_CONF=$KUBE_CONF podman pod ps -q --filter "name=^$KUBE_ID-" 2>/dev/null); do
		CONTAINERS_CONF=$KUBE_CONF podman pod rm -f -t 0 "$p" >/dev/null 2>&1
	done
	CONTAINERS_CONF=$KUBE_CONF podman rm -f -t 0 "$KUBE_ID-rec" >/dev/null 2>&1
	true
}

teardown_file() {
	[ -n "${KUBE_ID:-}" ] || return 0
	kube_clean
	podman rmi -f "$KUBE_IMAGE" "$KUBE_INFRA" >/dev/null 2>&1
	true
}

setup() {
	e2e_setup
	command -v podman >/dev/null || skip "podman is not installed (tools/deps.sh installs it)"
	command -v runc >/dev/null || skip "runc is not installed"
	[ -n "${KUBE_IMAGE:-}" ] && podman image exists "$KUBE_IMAGE" &&
		podman image exists "$KUBE_INFRA" || skip "the busybox test images could not be built"
}

teardown() {
	kube_clean
	e2e_teardown
}

# kpod ...: podman with this file's configuration
kpod() {
	CONTAINERS_CONF=$KUBE_CONF podman "$@"
}

# exited NAME: the container has run and ended
exited() {
	[ "$(kpod inspect -f '{{.State.Status}}' "$1" 2>/dev/null)" = exited ]
}

# play NAME SNIPPET_FILE: the Pod NAME of one container, job, running
# $JOB in the image, with the snippet as its securityContext, played; its
# job's exit status in $job_status and its output in $job_log
play() {
	{
		printf 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\nspec:\n' "$1"
		printf '  restartPolicy: Never\n  containers:\n  - name: job\n'
		printf '    image: %s\n' "$KUBE_IMAGE"
		printf '    command: ["sh", "-c", "%s"]\n' "$JOB"
		sed 's/^/    /' "$2"
	} >"$T/$1.yaml"
	kpod kube play --network none "$T/$1.yaml" >"$T/$1.play" 2>&1 ||
		{ cat "$T/$1.play" "$T/$1.yaml"; return 1; }
	wait_for 60 exited "$1-job" || return 1
	job_status=$(kpod inspect -f '{{.State.ExitCode}}' "$1-job")
	job_log=$(kpod logs "$1-job" 2>&1)
}

@test "kubernetes: the --emit kubernetes securityContext runs the recorded job in a Pod (podman kube play); without each added capability it fails" {
	# chown (CAP_CHOWN) and chroot (CAP_SYS_CHROOT), then the sets the
	# job had, for the Pod's run to show
	JOB='touch /tmp/f && chown 1:1 /tmp/f && chroot / true && grep Cap /proc/self/status'
	"$CAPAUDIT" record -q -o "$T/rec.jsonl" --container "$KUBE_ID-rec" --wait -d 120 \
		2>"$T/rec.err" &
	local rec=$!
	wait_attached "$rec"
	kpod run -d --name "$KUBE_ID-rec" --network none "$KUBE_IMAGE" sh -c "$JOB" >/dev/null
	wait "$rec" || { cat "$T/rec.err"; false; }
	run "$CAPAUDIT" report -i "$T/rec.jsonl" --emit kubernetes
	[ "$status" -eq 0 ]
	echo "$output" >"$T/ctx.yaml"
	[ "$output" = "$(printf '%s\n' 'securityContext:' '  capabilities:' '    drop: ["ALL"]' \
		'    add: ["CHOWN", "SYS_CHROOT"]' '  allowPrivilegeEscalation: false')" ]
	# the snippet as it is: the job succeeds, with those two and no others
	play "$KUBE_ID-ok" "$T/ctx.yaml"
	[ "$job_status" -eq 0 ] || { echo "$job_log"; false; }
	[[ "$job_log" == *"CapEff:	0000000000040001"* ]]
	[[ "$job_log" == *"CapBnd:	0000000000040001"* ]]
	# without each added capability: the job fails, where it needs it
	sed 's/"CHOWN", //' "$T/ctx.yaml" >"$T/no-chown.yaml"
	grep -qx '    add: \["SYS_CHROOT"\]' "$T/no-chown.yaml"
	play "$KUBE_ID-no-chown" "$T/no-chown.yaml"
	[ "$job_status" -ne 0 ]
	[[ "$job_log" == *"chown: /tmp/f: Operation not permitted"* ]]
	sed 's/, "SYS_CHROOT"//' "$T/ctx.yaml" >"$T/no-chroot.yaml"
	grep -qx '    add: \["CHOWN"\]' "$T/no-chroot.yaml"
	play "$KUBE_ID-no-chroot" "$T/no-chroot.yaml"
	[ "$job_status" -ne 0 ]
	[[ "$job_log" == *"chroot: can't change root directory to '/': Operation not permitted"* ]]
}
