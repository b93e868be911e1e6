#!/usr/bin/env bats
# examples/deploy: the systemd unit passes systemd-analyze verify without a
# warning and the DaemonSet is valid YAML with the privileges the docs
# name. Needs no root and no kernel: no e2e_setup.

bats_require_minimum_version 1.5.0

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
D=$ROOT/examples/deploy

setup() {
	T=$(mktemp -d "${BATS_TMPDIR:-/tmp}/capaudit-deploy.XXXXXX")
}

teardown() {
	rm -rf "$T"
}

@test "deploy: the systemd unit verifies without a warning" {
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze"
	# the unit's binary need not be installed here: verify checks it exists
	sed 's#^ExecStart=/usr/local/bin/capaudit#ExecStart=/bin/true#' \
		"$D/capaudit-monitor.service" >"$T/capaudit-monitor.service"
	run -0 systemd-analyze verify "$T/capaudit-monitor.service"
	[ -z "$output" ] || { echo "$output"; false; }
}

@test "deploy: the unit keeps CAP_BPF, CAP_PERFMON and CAP_SYS_PTRACE only, without new privileges" {
	run -0 grep -x 'CapabilityBoundingSet=CAP_BPF CAP_PERFMON CAP_SYS_PTRACE' \
		"$D/capaudit-monitor.service"
	run -0 grep -x 'NoNewPrivileges=yes' "$D/capaudit-monitor.service"
	run -0 grep -x 'ProtectSystem=strict' "$D/capaudit-monitor.service"
	# -a reads every /proc/PID: nothing may hide them
	run -1 grep -E '^(ProtectProc|ProcSubset)=' "$D/capaudit-monitor.service"
	run -0 grep -E '^ExecStart=.* monitor -a ' "$D/capaudit-monitor.service"
}

@test "deploy: the DaemonSet parses, drops ALL and adds BPF, PERFMON, SYS_PTRACE" {
	python3 -c 'import yaml' 2>/dev/null || skip "no python3 yaml (Debian python3-yaml)"
	run -0 python3 - "$D/capaudit-daemonset.yaml" <<'PY'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
assert len(docs) == 1, docs
ds = docs[0]
assert ds["apiVersion"] == "apps/v1" and ds["kind"] == "DaemonSet"
spec = ds["spec"]["template"]["spec"]
assert ds["spec"]["selector"]["matchLabels"].items() <= ds["spec"]["template"]["metadata"]["labels"].items()
assert spec["hostPID"] is True
c = spec["containers"][0]
sc = c["securityContext"]
assert sc["capabilities"]["drop"] == ["ALL"]
assert sc["capabilities"]["add"] == ["BPF", "PERFMON", "SYS_PTRACE"], sc
assert sc["readOnlyRootFilesystem"] is True
assert sc["allowPrivilegeEscalation"] is False
assert sc.get("privileged") is not True
assert c["command"][:3] == ["/usr/local/bin/capaudit", "monitor", "-a"]
vols = {v["name"]: v for v in spec["volumes"]}
mounts = {m["name"]: m for m in c["volumeMounts"]}
assert set(vols) == set(mounts), (vols, mounts)
for name, path in (("state", "/var/lib/capaudit"), ("btf", "/sys/kernel/btf"),
                   ("cgroup", "/sys/fs/cgroup")):
    assert vols[name]["hostPath"]["path"] == path and mounts[name]["mountPath"] == path
# every file it writes is on the node
for f in ("-o", "--metrics", "--events"):
    assert c["command"][c["command"].index(f) + 1].startswith("/var/lib/capaudit/")
assert not mounts["state"].get("readOnly") and mounts["btf"]["readOnly"] and mounts["cgroup"]["readOnly"]
print("ok")
PY
	[ "$output" = ok ]
}
